"""A play session: the game, the opponent, what to print — everything but the terminal.

`Session.handle(line)` runs one line typed by the user (a command or a move) and prints through
`out`; it never raises for user input, and a bad line prints one line and changes nothing. The
prompt_toolkit application (app.py) only reads lines and feeds them here, so the whole REPL can be
driven and tested without a terminal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter import CuttleError, Game, Move, load_ruleset
from interpreter.core.errors import LocatedError
from interpreter.players.registry import Player, make_player
from interpreter.scripting import records

from .commands import REGISTRY
from .export import write_scenario
from .narrate import Teller
from .render import Painter, board, decision_text, player_label
from .validation import problem


class CommandError(CuttleError):
    """A bad command: its message is the one line shown to the user."""


@dataclass
class Replay:
    """A saved game being stepped through: its file, its moves, and how many are on the board."""

    path: str
    moves: list[str]
    at: int = 0
    #: a finished game is shown with both hands; an unfinished one only from the user's side, so
    #: that replaying a game in progress (and resuming it) cannot reveal hidden cards
    open_hands: bool = False


class Session:
    def __init__(self, game: Game, vs: str = "bot", human: int = 0, ruleset: str | None = None,
                 color: bool = False, out: Callable[[str], None] = print, bot_seed: int | None = None) -> None:
        self.game = game
        #: the opponent's player name (`bot` is the heuristic player), None in hot-seat
        self.opponent: str | None = None if vs == "human" else "heuristic" if vs == "bot" else vs
        self.vs = "human" if vs == "human" else "bot"
        self.human = human
        self.ruleset = ruleset or game.rules.spec
        self.painter = Painter(color)
        self.out = out
        self.bot = self.make_bot(game.seed if bot_seed is None else bot_seed)
        self.replay: Replay | None = None
        self.running = True
        self._last_viewer = human
        #: hot-seat in a terminal: called with (previous, next) player when the decider changes, to
        #: hide the previous player's view before the next one sees theirs (see repl.app)
        self.handover: Callable[[int, int], None] | None = None

    def make_bot(self, seed: int) -> Player | None:
        return None if self.opponent is None else make_player(self.opponent, seed=seed)

    # -- output ----------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.out(text)

    def error(self, message: str) -> None:
        """One line, whatever the message."""
        first = str(message).strip().splitlines()[0] if str(message).strip() else "error"
        self.out(f"error: {first}")

    # -- perspective -----------------------------------------------------------------------------
    @property
    def viewer(self) -> int:
        """Whose view is shown: the human against the bot; the decider in hot-seat; p1 in a replay."""
        if self.replay is not None:
            return self.human if self.vs == "bot" else 0
        if self.vs == "bot":
            return self.human
        d = self.game.decision
        if d is not None:
            self._last_viewer = d.player
        return self._last_viewer

    def view(self, player: int | None = None) -> dict[str, Any]:
        p = self.viewer if player is None else player
        v = self.game.view(p)
        if self.replay is not None and self.replay.open_hands:  # a finished game shows both hands
            v["opponent_hand"] = self.game.view(1 - p)["hand"]
        return v

    def names(self) -> tuple[str, str]:
        """Board titles (you, opponent)."""
        me = self.viewer
        if self.replay is not None and self.replay.open_hands:
            return player_label(me), player_label(1 - me)
        other = player_label(1 - me) + (" (bot)" if self.vs == "bot" else "")
        return f"You ({player_label(me)})", other

    def teller(self) -> Teller:
        return Teller(-1 if self.replay is not None and self.replay.open_hands else self.viewer, self.painter,
                      {1 - self.human: player_label(1 - self.human)} if self.vs == "bot" else None)

    def played_as(self) -> dict[str, str]:
        """Each card in play → the verb of the move that put it there (labels glasses and the like)."""
        out: dict[str, str] = {}
        for m in self.game.moves:
            if m.cards:
                out[str(m).split()[1]] = m.verb
        return out

    def my_decision(self) -> bool:
        d = self.game.decision
        return d is not None and self.replay is None and (self.vs == "human" or d.player == self.human)

    # -- what the prompt shows -------------------------------------------------------------------
    def prompt_text(self) -> str:
        if self.replay is not None:
            return f"replay {self.replay.at}/{len(self.replay.moves)}> "
        d = self.game.decision
        if d is None:
            return "game over> "
        who = player_label(d.player).lower()
        return f"{who}> " if d.kind == "main" else f"{who} ({d.kind})> "

    def status(self) -> str:
        v = self.view()
        d = self.game.decision
        return decision_text(v, d is not None and d.player == self.viewer and self.replay is None, self.painter)

    def show(self) -> None:
        note = "shown by the replay" if self.replay is not None and self.replay.open_hands else "face up"
        self.say(board(self.view(), self.painter.color, self.names(), self.played_as(), note))
        if self.replay is None:
            self.say(" → " + self.status())

    # -- one line of input -----------------------------------------------------------------------
    def handle(self, line: str) -> None:
        line = line.strip()
        if not line:
            return
        word, *args = line.split()
        cmd = REGISTRY.get(word)
        try:
            if cmd is not None:
                problem = cmd.check_args(args)
                if problem:
                    raise CommandError(problem)
                cmd.handler(self, args)
            else:
                self.play_line(line)
        except LocatedError as e:  # a ruleset or scenario problem: its message and hint on one line
            self.error(e.message + (f" ({e.hint})" if e.hint else ""))
        except CuttleError as e:
            self.error(str(e))
        except OSError as e:
            self.error(f"{e.filename or ''}: {e.strerror}".lstrip(": "))
        except Exception as e:  # never a traceback for user input
            self.error(f"internal error ({type(e).__name__}: {e}); the game is unchanged")

    # -- moves -----------------------------------------------------------------------------------
    def play_line(self, text: str) -> None:
        if self.replay is not None:
            raise CommandError(f"you are replaying {self.replay.path}: use next, prev, goto N, "
                               "or resume to play on from here")
        if self.game.outcome is not None:
            raise CommandError(f"the game is over ({self.game.outcome}): undo, new, save FILE or quit")
        if not self.my_decision():
            raise CommandError("it is not your decision")
        bad = problem(text, self.game.rules.verbs)
        if bad:
            raise CommandError(bad)
        self.play(text)

    def play(self, text: str | Move) -> None:
        """Play a move of the user (raises a MoveError and changes nothing if it is not legal)."""
        try:
            self.game.parse_move(text)
        except CuttleError:
            raise
        except Exception:  # the engine failed to explain why; say it plainly
            raise CommandError(f"'{str(text).strip()}' is not legal now ('moves' lists the legal moves)") from None
        viewer = self.viewer
        if self.vs == "human":
            # hot-seat: the line is read by whoever decides next, so it is told from their side
            before = (self.game.view(0), self.game.view(1))
            move = self.game.play(text)
            nxt = self.viewer
            if nxt != viewer and self.handover is not None and self.game.outcome is None:
                self.handover(viewer, nxt)  # a terminal: clear the screen and wait for the next player
            self.say(self.teller_for(nxt).tell(before[nxt], self.game.view(nxt), move))
        else:
            before1 = self.game.view(viewer)
            move = self.game.play(text)
            self.say(self.teller_for(viewer).tell(before1, self.game.view(viewer), move))
        self.advance()
        self.after_change(viewer)

    def teller_for(self, viewer: int) -> Teller:
        return Teller(viewer, self.painter,
                      {1 - self.human: player_label(1 - self.human)} if self.vs == "bot" else None)

    def advance(self) -> None:
        """Let the bot play while the decision is its own, telling each move."""
        if self.bot is None:
            return
        teller = self.teller_for(self.human)
        for _ in range(1000):
            d = self.game.decision
            if d is None or d.player == self.human:
                return
            before = self.game.view(self.human)
            move = self.bot.choose(self.game)
            self.game.play(move)
            self.say(teller.tell(before, self.game.view(self.human), move))

    def after_change(self, previous_viewer: int) -> None:
        """Show the board; in hot-seat, announce the hand-over when the decider changes."""
        if self.vs == "human" and self.game.decision is not None and self.viewer != previous_viewer:
            self.say(self.painter.bold(f"── {player_label(self.viewer)}'s view "
                                       f"({player_label(previous_viewer)}, look away) ──"))
        self.show()

    # -- commands --------------------------------------------------------------------------------
    def cmd_moves(self) -> None:
        if self.replay is not None:
            raise CommandError("replaying: next, prev, goto N, or resume to play on")
        if self.game.outcome is not None:
            raise CommandError(f"the game is over ({self.game.outcome})")
        if not self.my_decision():
            raise CommandError("it is not your decision")
        legal = self.game.legal_moves()
        width = max(len(str(m)) for m in legal)
        self.say(f"{len(legal)} legal move(s) — {self.status()}:")
        for m in legal:
            self.say(f"  {str(m):<{width}}  {self.painter.move(str(m))}")

    def cmd_explain(self, text: str) -> None:
        try:
            why = self.game.explain(text)
        except CuttleError:
            raise
        except Exception:  # the engine failed to explain; still one clear line
            why = (f"'{text}' is legal" if Move.parse(text) in self.game.legal_moves()
                   else f"'{text}' is not legal now, but the engine could not say why ('moves' lists the legal moves)")
        self.say(why.splitlines()[0])

    def cmd_hint(self) -> None:
        """A suggested move from the user's own view: the exact solver's when nothing is hidden and it
        finishes within a second or two, else ISMCTS's pick with its estimated win rate."""
        if self.replay is not None:
            raise CommandError("replaying: next, prev, goto N, or resume to play on")
        if self.game.outcome is not None:
            raise CommandError(f"the game is over ({self.game.outcome})")
        if not self.my_decision():
            raise CommandError("it is not your decision")
        from interpreter.players.hint import hint
        self.say(hint(self.game, seed=self.game.seed))

    def cmd_undo(self) -> None:
        self._no_replay("undo")
        viewer = self.viewer
        if self.vs == "human":
            move = self.game.undo()
            if self.viewer != viewer and self.handover is not None:
                self.handover(viewer, self.viewer)
            self.say(f"undone: {self.painter.move(str(move))}")
            self.after_change(viewer)
            return
        undone: list[Move] = []
        while self.game.moves:
            undone.append(self.game.undo())
            if self.game.decision is not None and self.game.decision.player == self.human:
                break
        if not undone or self.game.decision is None or self.game.decision.player != self.human:
            for _ in undone:
                self.game.redo()
            raise CommandError("nothing of yours to undo")
        self.say("undone: " + ", ".join(self.painter.move(str(m)) for m in reversed(undone)))
        self.show()

    def cmd_redo(self) -> None:
        self._no_replay("redo")
        viewer = self.viewer
        redone = [self.game.redo()]  # raises "nothing to redo"
        while self.bot is not None:
            d = self.game.decision
            if d is None or d.player == self.human:
                break
            try:
                redone.append(self.game.redo())
            except CuttleError:
                self.advance()
                break
        if self.viewer != viewer and self.handover is not None:
            self.handover(viewer, self.viewer)
        self.say("redone: " + ", ".join(self.painter.move(str(m)) for m in redone))
        self.after_change(viewer)

    def cmd_show(self) -> None:
        self.show()

    def cmd_log(self) -> None:
        """Every move in words, told from the current viewer's side (nothing hidden leaks)."""
        if not self.game.moves:
            self.say("no moves yet")
            return
        viewer = self.viewer
        g = Game(self.game.rules, self.game.initial.copy(), self.game.seed, self.game.setup)
        open_hands = self.replay is not None and self.replay.open_hands
        teller = Teller(-1, self.painter) if open_hands else self.teller_for(viewer)
        persp = viewer
        for i, m in enumerate(self.game.moves, 1):
            before = g.view(persp)
            if open_hands:
                before["opponent_hand"] = g.view(1 - persp)["hand"]
            g.push(m)
            after = g.view(persp)
            if open_hands:
                after["opponent_hand"] = g.view(1 - persp)["hand"]
            self.say(f"{i:>4}. {teller.tell(before, after, m)}")

    def cmd_save(self, path: str) -> None:
        records.save(self.game, path)
        self.say(f"saved {len(self.game.moves)} move(s) to {path}")

    def cmd_load(self, path: str, force: bool = False) -> None:
        game = records.load(path, force=force)
        self.game, self.replay = game, None
        self.ruleset = str(records.read(path)["ruleset"])
        if self.bot is not None:
            self.bot = self.make_bot(game.seed)
        self.say(f"loaded {path}: ruleset {game.rules.name}, seed {game.seed}, {len(game.moves)} move(s)")
        self.advance()
        self.show()

    def cmd_replay(self, path: str, force: bool = False) -> None:
        data = records.read(path)
        game = records.start(data, path, force)
        moves = [str(m) for m in data["moves"]]
        try:
            finished = records.replay(data, path, force).outcome is not None
        except CuttleError:
            finished = False
        self.game, self.replay = game, Replay(path, moves, open_hands=finished)
        self.say(f"replaying {path}: ruleset {game.rules.name}, seed {game.seed}, {len(moves)} move(s); "
                 "next, prev, goto N, resume"
                 + ("" if finished else f" (a game not finished: shown from {player_label(self.viewer)}'s side)"))
        self.show()

    def cmd_step(self, delta: int) -> None:
        r = self._replaying()
        self.cmd_goto(r.at + delta)

    def cmd_goto(self, n: int) -> None:
        r = self._replaying()
        if not 0 <= n <= len(r.moves):
            raise CommandError(f"goto: N must be between 0 and {len(r.moves)} (the moves of {r.path})")
        if n == r.at:
            self.show()
            return
        teller = self.teller()
        while r.at > n:
            self.game.pop()
            r.at -= 1
        told = []
        while r.at < n:
            before = self.view()
            try:
                move = self.game.play(r.moves[r.at])
            except CuttleError as e:
                raise CommandError(f"move {r.at + 1} '{r.moves[r.at]}' of {r.path} cannot be replayed: "
                                   f"{str(e).splitlines()[0]}") from None
            r.at += 1
            told.append(f"{r.at:>4}. {teller.tell(before, self.view(), move)}")
        for line in told[-5:]:
            self.say(line)
        self.show()

    def cmd_resume(self) -> None:
        r = self._replaying()
        self.replay = None
        self.say(f"playing on from move {r.at} of {r.path}")
        self.advance()
        self.show()

    def cmd_scenario(self, path: str) -> None:
        self._no_replay("scenario")
        write_scenario(self.game, path, self.ruleset)
        from interpreter.scripting.scenario import run_file
        res = run_file(path)
        if res.ok:
            self.say(f"wrote {path}: {len(self.game.moves)} move(s); `cuttle run {path}` passes")
        else:
            self.say(f"wrote {path}, but `cuttle run` does not pass it: {res.failures[0].splitlines()[0]}")

    def cmd_new(self, seed: int | None) -> None:
        seed = random.randrange(1_000_000) if seed is None else seed
        self.game = Game.new(load_ruleset(self.ruleset), seed)
        self.replay = None
        if self.bot is not None:
            self.bot = self.make_bot(seed)
        self.say(f"new game: ruleset {self.ruleset}, seed {seed}")
        self.advance()
        self.show()

    def cmd_rules(self, name: str | None) -> None:
        rules = load_ruleset(name) if name else self.game.rules
        self.say(rules_text(rules))

    # -- helpers ---------------------------------------------------------------------------------
    def _no_replay(self, what: str) -> None:
        if self.replay is not None:
            raise CommandError(f"'{what}' is for a game in play; while replaying use next, prev, goto N, resume")

    def _replaying(self) -> Replay:
        if self.replay is None:
            raise CommandError("not replaying: 'replay FILE' steps through a saved game")
        return self.replay


def rules_text(rules: Any) -> str:
    """The rules page of the engine if it has one, else a plain listing from the ruleset data."""
    try:
        from interpreter.rules.page import rules_page  # type: ignore[import-not-found]
    except ImportError:
        rules_page = None
    if rules_page is not None:
        try:
            return str(rules_page(rules))
        except Exception:  # a rules page still being written must not break the REPL
            pass
    d = rules.data
    lines = [f"Ruleset {rules.name}: {d.get('description', '')}".rstrip(": ")]
    for name, p in (d.get("plays") or {}).items():
        if isinstance(p, dict):
            ranks = ", ".join(str(r) for r in p.get("ranks", [])) or "no card"
            effect = " ".join(str(p.get("effect", "")).split())
            lines.append(f"  {p.get('verb', name):<8} {ranks:<28} {effect}")
    for name, r in (d.get("responses") or {}).items():
        if isinstance(r, dict):
            lines.append(f"  {r.get('verb', name):<8} {', '.join(map(str, r.get('ranks', [])))}: answers "
                         f"{', '.join(map(str, r.get('answers', [])))}")
    return "\n".join(lines)
