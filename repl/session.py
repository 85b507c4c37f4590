"""A play session: the game, the opponent, what to print — everything but the terminal.

`Session.handle(line)` runs one line typed by the user (a command or a move) and prints through
`out`; it never raises for user input, and a bad line prints one line and changes nothing. The
prompt_toolkit application (app.py) only reads lines and feeds them here, so the whole REPL can be
driven and tested without a terminal.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter import CuttleError, Game, Move, load_ruleset
from interpreter.core.cards import ALL_RANKS, NAMES
from interpreter.core.errors import LocatedError
from interpreter.core.terminal import safe, say
from interpreter.core.zones import HANDS
from interpreter.engine.game import DRAW_AGREED, DRAW_REFUSED, RESIGN
from interpreter.engine.view import View
from interpreter.language.phrasing import counted
from interpreter.players.heuristic import evaluate
from interpreter.players.registry import Player, make_player, player_failure
from interpreter.players.registry import players as registered_players
from interpreter.scripting import records
from interpreter.scripting.scenario import load_position

from .errors import CommandError
from .export import write_scenario
from .narrate import Teller
from .registry import REGISTRY
from .render import Painter, asked_text, board, decision_text, outcome_text, player_label, scrap_text, sorted_cards
from .validation import cmd_is_move, problem
from .wrap import wrap


@dataclass
class Replay:
    """A saved game being stepped through: its file, its moves, and how many are on the board."""

    path: str
    moves: list[str]
    at: int = 0
    #: a finished game is shown with both hands; an unfinished one only from the user's side, so
    #: that replaying a game in progress (and resuming it) cannot reveal hidden cards
    open_hands: bool = False


#: hot-seat: what happens at a hand-over prompt (see `Session.handover`)
SHOW, CANCEL, QUIT = "show", "cancel", "quit"
#: the settings of `set NAME on|off`, with what they do
SETTINGS = {"auto": "play a move by itself when it is the only legal one (a forced discard, a lone resolve)"}


class Session:
    def __init__(
        self,
        game: Game,
        vs: str = "bot",
        human: int = 0,
        ruleset: str | None = None,
        color: bool = False,
        out: Callable[[str], None] | None = None,
        bot_seed: int | None = None,
        width: Callable[[], int] | None = None,
        seats: list[str] | None = None,
    ) -> None:
        self.game = game
        #: who plays each seat: `human`, or a player's name (`bot` is the heuristic player); without
        #: `seats`, the user (`human`) against `vs` (a player's name, or `human`: hot-seat)
        if seats is None:
            seats = ["human" if p == human or vs == "human" else vs for p in range(game.rules.seats)]
        self.seats = ["heuristic" if s == "bot" else s for s in seats]
        humans = [p for p, s in enumerate(self.seats) if s == "human"]
        #: the opponents' player name (the first of them), None when every seat is a human's
        self.opponent: str | None = next((s for s in self.seats if s != "human"), None)
        #: `bot`: one human against the players of the other seats; `human`: hot-seat (several humans, each
        #: seeing their own view in turn, the other seats' players moving in between)
        self.vs = "bot" if len(humans) == 1 else "human"
        self._human = humans[0] if humans else human
        self.ruleset = ruleset or game.rules.spec
        self.painter = Painter(color)
        #: where lines go: text already made terminal-safe, our colours kept (core/terminal.py)
        self.out: Callable[[str], None] = out or (lambda text: say(text, colour=True))
        #: the terminal's width in columns (0: do not wrap)
        self.width: Callable[[], int] = width or (lambda: 0)
        #: shows long text page by page and says whether it did (None: long text is printed)
        self.pager: Callable[[str], bool] | None = None
        self.bots: dict[int, Player] = self.make_bots(game.seed if bot_seed is None else bot_seed)
        self.replay: Replay | None = None
        self.running = True
        self._last_viewer = human
        #: hot-seat in a terminal: called with (previous player or None, next player, whether the
        #: previous player's move may be taken back) before the next player's view is shown; answers
        #: SHOW (Enter), CANCEL (Ctrl-C: take the move back) or QUIT (Ctrl-D). See repl.app.
        self.handover: Callable[[int | None, int, bool], str] | None = None
        self.auto = False  # `set auto on`: forced moves play themselves
        self.started_from = ""  # `cuttle play --from FILE`: where the game started, in words
        #: hot-seat: the player whose draw offer waits for the other's `accept` or `refuse`
        self.offer: int | None = None
        self._resign_warned = False
        #: hot-seat: how many moves each player has been told, and what they missed besides
        self._told = [len(game.moves)] * len(self.seats)
        self._notes: dict[int, list[str]] = {p: [] for p in range(len(self.seats))}
        self._saved: list[str] = [str(m) for m in game.moves]  # the moves at the last save or load
        self._quit_warned = False
        self._discard_warned: tuple[str, int] | None = None  # (command, moves) the user was told of (discard_ok)
        #: wipes the terminal; the app sets it to the prompt's own (a test leaves it a no-op)
        self.clear_screen: Callable[[], None] = lambda: None

    def players(self) -> dict[str, str]:
        """Who plays each seat, as a record keeps it: `human`, or the player's name."""
        return {f"p{p + 1}": s for p, s in enumerate(self.seats)}

    def make_bots(self, seed: int) -> dict[int, Player]:
        """The player of each seat no human plays (each seeded with the game's seed and its seat, but a
        two-seat game's one bot with the seed alone, as it always was)."""
        bots = {p: s for p, s in enumerate(self.seats) if s != "human"}
        if len(self.seats) == 2:
            return {p: make_player(s, seed=seed) for p, s in bots.items()}
        return {p: make_player(s, seed=seed * 8 + p) for p, s in bots.items()}

    @property
    def human(self) -> int:
        """The user's seat (with one human); in hot-seat, the seat shown first."""
        return self._human

    @human.setter
    def human(self, seat: int) -> None:
        """Another seat for the user: in a two-seat game against the bot, the bot takes the other."""
        if seat != self._human and len(self.seats) == 2 and self.vs == "bot":
            self.seats.reverse()
            self.bots = {1 - seat: self.bots[seat]} if seat in self.bots else {}
        self._human = seat

    @property
    def bot(self) -> Player | None:
        """The opponent's player when one human plays against one other seat (a two-seat game)."""
        return self.bots.get(1 - self.human) if len(self.seats) == 2 else None

    @bot.setter
    def bot(self, player: Player) -> None:
        """(a two-seat game) The opponent's seat played by `player`."""
        self.bots[1 - self.human] = player

    # -- output ----------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.out(wrap(safe(text, self.painter.color), self.width()))

    def say_long(self, text: str) -> None:
        """Like `say`, but text taller than the terminal goes through a pager (`pager`, set by
        `cuttle play` on a terminal: core/terminal.py `page`)."""
        shown = wrap(safe(text, self.painter.color), self.width())
        if self.pager is None or not self.pager(shown):
            self.out(shown)

    def error(self, message: str) -> None:
        """One line, whatever the message."""
        first = str(message).strip().splitlines()[0] if str(message).strip() else "error"
        self.out(wrap(safe(f"error: {first}", False), self.width()))

    # -- perspective -----------------------------------------------------------------------------
    @property
    def viewer(self) -> int:
        """Whose view is shown: the human against the bot; the decider in hot-seat; p1 in a replay."""
        if self.replay is not None:
            return self.human if self.vs == "bot" else 0
        if self.vs == "bot":
            return self.human
        if self.offer is not None:  # the other player answers a draw offer
            return 1 - self.offer
        d = self.game.decision
        if d is not None and d.player not in self.bots:
            self._last_viewer = d.player
        return self._last_viewer

    def view(self, player: int | None = None) -> View:
        p = self.viewer if player is None else player
        v = self.game.view(p)
        open_hands = self.replay.open_hands if self.replay is not None else self.game.outcome is not None
        if open_hands:  # a finished game shows every hand (a replay: as asked)
            hands = {o.player: self.game.view(int(o.player[1:]) - 1).hand for o in v.others}
            v = v.replace(
                opponent_hand=self.game.view(self.game.rules.opponent_of[p]).hand,
                others=tuple(o.__class__(**{**o.__dict__, "hand": hands[o.player]}) for o in v.others),
            )
        return v

    def names(self) -> tuple[str, str]:
        """Board titles (you, opponent)."""
        me = self.viewer
        opp = self.game.rules.opponent_of[me]
        if self.replay is not None:  # a record: the players by their names, from the side shown
            return player_label(me), player_label(opp)
        other = player_label(opp) + (" (bot)" if opp in self.bots else "")
        return f"You ({player_label(me)})", other

    def titles(self) -> dict[str, str]:
        """Each other seat's title on the board (a larger table): its label, partner, bot."""
        out = {}
        for o in self.view().others:
            p = int(o.player[1:]) - 1
            notes = [n for n, on in (("partner", o.partner), ("bot", p in self.bots and self.replay is None)) if on]
            out[o.player] = player_label(p) + (f" ({', '.join(notes)})" if notes else "")
        return out

    def teller(self) -> Teller:
        """Tells moves as they happen: 'you' for the user; in a replay, both players by name (what is
        hidden stays hidden: that depends on the views told from, not on the names)."""
        if self.replay is not None:
            return Teller(-1, self.painter)
        return self.teller_for(self.viewer)

    def played_as(self) -> dict[str, str]:
        """Each card in play → the verb of the move that put it there (labels glasses and the like)."""
        out: dict[str, str] = {}
        for m in self.game.moves:
            if m.cards:
                out[str(m).split()[1]] = m.verb
        return out

    def my_decision(self) -> bool:
        d = self.game.decision
        return (
            d is not None
            and self.replay is None
            and self.game.outcome is None
            and self.offer is None
            and d.player not in self.bots
        )

    def outcome_line(self) -> str:
        """The end of the game, said once: 'Game over — You win: P1 reached the goal'."""
        o = self.game.outcome
        you = self.human if self.vs == "bot" and self.replay is None else None
        return f"Game over — {outcome_text(o, you)}." if o is not None else ""

    # -- what the prompt shows -------------------------------------------------------------------
    def prompt_text(self) -> str:
        if self.replay is not None:
            return f"replay {self.replay.at}/{len(self.replay.moves)}> "
        if self.offer is not None:
            return f"{player_label(1 - self.offer).lower()} (draw offer)> "
        d = self.game.decision
        if d is None or self.game.outcome is not None:
            return "game over> "
        who = player_label(d.player).lower()
        return f"{who}> " if d.kind == "main" else f"{who} ({d.kind})> "

    def asked(self, seat: int) -> str:
        """What `seat` is asked now, for the hot-seat hand-over ('to play', 'to answer P1's draw offer')."""
        if self.offer is not None and seat == 1 - self.offer:
            return f"to answer {player_label(self.offer)}'s draw offer"
        return asked_text(self.game.view(seat))

    def status(self) -> str:
        if self.game.outcome is not None:
            return self.outcome_line()
        if self.offer is not None:
            return f"{player_label(self.offer)} offers a draw: accept or refuse"
        v = self.view()
        d = self.game.decision
        return decision_text(v, d is not None and d.player == self.viewer and self.replay is None, self.painter)

    def show(self) -> None:
        if self.replay is not None and self.replay.open_hands:
            note = "shown by the replay"
        else:
            note = "the game is over" if self.game.outcome is not None and self.replay is None else "face up"
        rule = min(self.width(), 100) if self.width() >= 40 else 60  # (0: not a terminal)
        titles = self.titles() if len(self.seats) > 2 else None
        self.say(board(self.view(), self.painter.color, self.names(), self.played_as(), note, rule, titles))
        if self.game.outcome is not None:
            self.say(self.painter.bold(" " + self.outcome_line()))
            for line in self.game_over_lines():
                self.say(" " + line)
        elif self.replay is None:
            self.say(" → " + self.status())

    def game_over_lines(self) -> list[str]:
        """The end of a game, beyond its one line: both hands turned up, each score against its goal,
        how long it lasted, and what to do next."""
        g, rules, p = self.game.state, self.game.rules, self.painter
        me = self.human if self.vs == "bot" and self.replay is None else None

        def who(q: int) -> str:
            return player_label(q) + (" (you)" if q == me else "")

        seats = range(rules.seats)
        hands = " · ".join(
            f"{who(q)} "
            + (" ".join(p.card(c) for c in sorted_cards(NAMES[c] for c in g.zones[HANDS[q]])) or "no cards")
            for q in seats
        )
        scores = " · ".join(f"{who(q)} {rules.score_of(g, q)}/{rules.goal_of(g, q)}" for q in seats)
        moves = len(self.game.moves)
        # a live game turns both hands up; a replay keeps to the side it shows (unless it shows all)
        shown = self.replay is None or self.replay.open_hands
        lines = [f"Hands at the end: {hands}"] if shown else []
        lines += [
            f"Score: {scores} · after {g.turn_no} turn{'s' if g.turn_no != 1 else ''} "
            f"({moves} move{'s' if moves != 1 else ''})",
        ]
        if self.replay is None:
            lines.append("Next: new (another game), undo (take your move back), save FILE (keep it), quit")
        return lines

    # -- one line of input -----------------------------------------------------------------------
    def handle(self, line: str) -> None:
        line = line.strip()
        try:
            if not line:
                self.enter()
                return
            word, *args = line.split()
            cmd = REGISTRY.get(word)
            if cmd is None or cmd.name != "resign":  # `resign` asks once: anything else goes on
                self._resign_warned = False
            if cmd is not None and not cmd_is_move(word, args, self.game.rules.verbs):
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

    def enter(self) -> None:
        """An empty line: the next move of a replay, or the only legal move when there is just one."""
        if self.replay is not None:
            if self.replay.at < len(self.replay.moves):
                self.cmd_step(+1)
            return
        if self.my_decision():
            legal = self.game.legal_moves()
            if len(legal) == 1:
                self.play(legal[0])

    # -- moves -----------------------------------------------------------------------------------
    def play_line(self, text: str) -> None:
        if self.replay is not None:
            raise CommandError(
                f"you are replaying {self.replay.path}: use next, prev, goto N, or resume to play on from here"
            )
        if self.game.outcome is not None:
            raise CommandError(f"the game is over ({outcome_text(self.game.outcome)}): undo, new, save FILE or quit")
        if self.offer is not None:
            raise CommandError(f"{player_label(self.offer)} offers a draw: accept or refuse it first")
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
        before = self.game.view(viewer)
        move = self.game.play(text)
        self._quit_warned = False
        if self.vs == "human":
            if not self._after_hot_seat_move(viewer, before, move):
                return
        else:
            self.say(self.teller_for(viewer).tell(before, self.game.view(viewer), move))
            self.advance()
        self.show()

    def teller_for(self, viewer: int) -> Teller:
        if len(self.seats) == 2:
            return Teller(
                viewer, self.painter, {1 - self.human: player_label(1 - self.human)} if self.vs == "bot" else None
            )
        return Teller(viewer, self.painter)

    def advance(self) -> None:
        """Let the bot play while the decision is its own, telling each move; with `set auto on`, play
        the user's forced moves (the only legal move) too."""
        teller = self.teller_for(self.human)
        for _ in range(1000):
            d = self.game.decision
            if d is None or self.game.outcome is not None or self.replay is not None:
                return
            if d.player in self.bots:
                before = self.game.view(self.human)
                move = self.game.play(self._bot_move(d.player))
                self.say(teller.tell(before, self.game.view(self.human), move))
                continue
            if self.auto and self.vs == "bot":
                legal = self.game.legal_moves()
                if len(legal) == 1:
                    before = self.game.view(self.human)
                    move = self.game.play(legal[0])
                    self.say(teller.tell(before, self.game.view(self.human), move) + " (the only legal move)")
                    continue
            return

    def _bot_move(self, seat: int) -> Move:
        """The choice of the bot playing `seat`. A searching bot says it is thinking; Ctrl-C hurries it:
        it plays its best move so far (its `hurry`), or the first legal move if it had none. The game is
        untouched while it thinks (players search on copies)."""
        bot = self.bots[seat]
        hurry = getattr(bot, "hurry", None)
        who = player_label(seat)
        if hurry is not None:
            self.say(f"{who} is thinking… (Ctrl-C to hurry)")
        try:
            return bot.choose(self.game)
        except CuttleError:
            raise
        except Exception as e:  # the player's own fault, not the rules' (players/registry.py)
            raise player_failure(self.seats[seat], e, self.game.rules.name) from None
        except KeyboardInterrupt:
            move = hurry(self.game) if hurry is not None else None
            if move is None:
                move = self.game.legal_moves()[0]
                self.say(f"(hurried: {who} had no move in mind yet and plays {move})")
            else:
                self.say(f"(hurried: {who} plays its best move so far)")
            return move

    # -- resigning and draw offers (moves of every ruleset: engine/game.py META_VERBS) -----------------
    def _may_end_game(self, what: str) -> None:
        """Why the player at the keyboard may not `what` now (a CommandError), if they may not."""
        if self.replay is not None:
            raise CommandError(f"you are replaying {self.replay.path}: resume first, then {what}")
        if self.game.outcome is not None:
            raise CommandError(f"the game is over ({outcome_text(self.game.outcome)})")
        if self.offer is not None:
            raise CommandError(f"{player_label(self.offer)} offers a draw: accept or refuse it first")
        if not self.my_decision():
            raise CommandError("it is not your decision")
        if len(self.seats) > 2:  # (engine/game.py refuses the moves: who would win is not settled)
            raise CommandError(
                f"{what}: resigning and draws by agreement are for two players; this game seats {len(self.seats)}"
            )

    def _end_move(self, verb: str) -> None:
        """Play `resign`, `draw-agreed` or `draw-refused` for the player deciding now, told from the
        side of the player at the keyboard."""
        viewer = self.viewer
        before = self.game.view(viewer)
        move = self.game.play(verb)
        self._quit_warned = False
        self.say(self.teller_for(viewer).tell(before, self.game.view(viewer), move))
        self._told[viewer] = len(self.game.moves)

    def cmd_resign(self) -> None:
        self._may_end_game("resign")
        if not self._resign_warned:
            self._resign_warned = True
            other = player_label(1 - self.viewer)
            self.say(f"resign? {other} wins the game: type resign again to resign (anything else goes on)")
            return
        self._resign_warned = False
        self._end_move(RESIGN)
        self.show()

    def cmd_offer(self) -> None:
        """A draw offer: the bot answers at once (it accepts when its judgement of the position, from
        what both players see, has it behind); in hot-seat the other player answers after a hand-over."""
        self._may_end_game("offer a draw")
        if self.vs == "bot":
            bot = 1 - self.human
            self._end_move(DRAW_AGREED if evaluate(self.game.state, bot) < 0 else DRAW_REFUSED)
            self.show()
            return
        offerer = self.viewer
        self.offer = offerer
        if self._hand_over(offerer, 1 - offerer, can_cancel=False) == QUIT:
            return
        self._tell_missed(1 - offerer)
        self.show()

    def cmd_answer(self, accept: bool) -> None:
        """Hot-seat: the answer to the draw offer. Accepted, the game ends in a draw; refused, the
        keyboard goes back to the player who offered, who is told so and plays on."""
        if self.offer is None:
            raise CommandError("there is no draw offer to answer ('offer' offers one, on your turn)")
        offerer, self.offer = self.offer, None
        self._last_viewer = 1 - offerer  # (the decision is the offerer's; the answerer is at the keyboard)
        before = self.game.view(1 - offerer)
        move = self.game.play(DRAW_AGREED if accept else DRAW_REFUSED)
        self.say(self.teller_for(1 - offerer).tell(before, self.game.view(1 - offerer), move))
        self._told[1 - offerer] = len(self.game.moves)
        if not accept:
            if self._hand_over(1 - offerer, offerer, can_cancel=False) == QUIT:
                return
            self._tell_missed(offerer)
        self.show()

    # -- hot-seat --------------------------------------------------------------------------------
    def _after_hot_seat_move(self, viewer: int, before: View, move: Move) -> bool:
        """Tell a hot-seat move; when the decider changes, hand over first and tell the next player
        every move they have not seen. False if the board is not to be shown (quit, or taken back)."""
        for _ in range(1000):
            told = False
            d = self.game.decision
            if d is not None and d.player in self.bots and self.game.outcome is None:
                # the other seats' players move until a human decides: told to this player, their own first
                self.say(self.teller_for(viewer).tell(before, self.game.view(viewer), move))
                self._bots_play(viewer)
                told = True
            nxt = self.viewer
            if told and (nxt == viewer or self.game.outcome is not None):
                self._told[viewer] = len(self.game.moves)
            elif nxt != viewer and self.game.outcome is None:
                answer = self._hand_over(viewer, nxt, can_cancel=True)
                if answer == QUIT:
                    return False
                if answer == CANCEL:
                    return True  # the move was taken back and the keyboard handed back: show that view
                self._tell_missed(nxt)
            else:
                self.say(self.teller_for(viewer).tell(before, self.game.view(viewer), move))
                self._told[viewer] = len(self.game.moves)
            if not self.auto or self.game.outcome is not None:
                return True
            legal = self.game.legal_moves()
            if len(legal) != 1:
                return True
            viewer = self.viewer
            before = self.game.view(viewer)
            move = self.game.play(legal[0])
        return True

    def _bots_play(self, viewer: int) -> None:
        """Hot-seat with players at other seats: they play until a human decides, each move told to
        `viewer` (still at the keyboard)."""
        teller = self.teller_for(viewer)
        for _ in range(1000):
            d = self.game.decision
            if d is None or self.game.outcome is not None or d.player not in self.bots:
                return
            before = self.game.view(viewer)
            move = self.game.play(self._bot_move(d.player))
            self.say(teller.tell(before, self.game.view(viewer), move))
            self._told[viewer] = len(self.game.moves)

    def _hand_over(self, previous: int | None, nxt: int, can_cancel: bool) -> str:
        """Before `nxt`'s view is shown. Without a terminal (a script), a line says whose view follows."""
        if self.handover is None:
            if previous is not None:
                self.say(self.painter.bold(f"── {player_label(nxt)}'s view ({player_label(previous)}, look away) ──"))
            return SHOW
        for _ in range(100):
            answer = self.handover(previous, nxt, can_cancel and previous is not None)
            if answer == QUIT:
                if self.request_quit():
                    return QUIT
                continue  # warned about unsaved moves: the hand-over prompt again
            if answer == CANCEL and can_cancel and previous is not None:
                taken = self._take_back(previous)
                if self._hand_over(None, previous, False) == QUIT:
                    return QUIT
                self.say(f"taken back: {', '.join(self.painter.move(str(m)) for m in taken)}")
                return CANCEL
            if answer == SHOW:
                return SHOW
        return QUIT

    def _take_back(self, player: int) -> list[Move]:
        """Undo moves until one made by `player` has been undone: their decision again."""
        undone: list[Move] = []
        while self.game.moves:
            mover = self._mover(len(self.game.moves) - 1)
            undone.append(self.game.undo())
            if mover == player:
                break
        for p in range(len(self.seats)):
            self._told[p] = min(self._told[p], len(self.game.moves))
        return list(reversed(undone))

    def _mover(self, i: int) -> int:
        """Who made move `i` (0-based): the player who decided before it."""
        d = self.game.state_after(i).pending
        return d.player if d is not None else -1

    def _tell_missed(self, player: int) -> None:
        """Tell `player` (hot-seat) every move since they last saw the board, from their side."""
        for note in self._notes[player]:
            self.say(note)
        self._notes[player] = []
        teller = self.teller_for(player)
        for i in range(self._told[player], len(self.game.moves)):
            before, after = self.game.view_after(i, player), self.game.view_after(i + 1, player)
            self.say(teller.tell(before, after, self.game.moves[i]))
        self._told[player] = len(self.game.moves)

    def start(self, intro: str = "") -> None:
        """The first board of a game (after `intro`): in hot-seat, after a hand-over to the player who
        moves first."""
        if self.vs == "human" and self.replay is None and self.game.outcome is None:
            if self._hand_over(None, self.viewer, False) == QUIT:
                return
            self._told[self.viewer] = len(self.game.moves)
        if intro:
            self.say(intro)
        self.show()

    # -- quitting --------------------------------------------------------------------------------
    def unsaved(self) -> int:
        """How many moves of the game in play are not in the last save (0 when it is saved or empty)."""
        if self.replay is not None:
            return 0
        moves = [str(m) for m in self.game.moves]
        if moves == self._saved:
            return 0
        common = 0
        for a, b in zip(moves, self._saved, strict=False):
            if a != b:
                break
            common += 1
        return len(moves) - common

    def request_quit(self) -> bool:
        """Quit, unless moves are unsaved and the user has not been told yet: then say so once."""
        n = self.unsaved()
        if n and not self._quit_warned:
            self._quit_warned = True
            self.say(
                f"{n} move{'s' if n != 1 else ''} of this game {'are' if n != 1 else 'is'} not saved: "
                "save FILE to keep them, or quit again (Ctrl-D) to leave without saving"
            )
            return False
        self.running = False
        return True

    # -- commands --------------------------------------------------------------------------------
    def cmd_moves(self) -> None:
        if self.replay is not None:
            raise CommandError("replaying: next, prev, goto N, or resume to play on")
        if self.game.outcome is not None:
            raise CommandError(f"the game is over ({outcome_text(self.game.outcome)})")
        if self.offer is not None:
            raise CommandError(f"{player_label(self.offer)} offers a draw: accept or refuse it first")
        if not self.my_decision():
            raise CommandError("it is not your decision")
        from interpreter.rules.page import what_it_does

        groups = self.game.legal_by_rule()
        n = sum(len(ms) for _, ms in groups)
        self.say(f"{n} legal move{'s' if n != 1 else ''} — {self.status()}:")
        shared = Counter(ms[0].verb for _, ms in groups)
        for rule, ms in groups:
            if rule is not None:  # (the ranks tell apart the plays of one verb: oneoff (2), oneoff (6))
                named = shared[rule.verb] > 1 and rule.ranks
                ranks = f" ({', '.join(sorted(rule.ranks, key=ALL_RANKS.index))})" if named else ""
                self.say(f"{self.painter.bold(rule.verb + ranks)} — {what_it_does(self.game.rules, rule)}")
            elif ms[0].verb == "resolve":
                self.say(f"{self.painter.bold('resolve')} — let the play take effect (no answer)")
            self.say("    " + "   ".join(str(m) for m in ms))  # as typed (Tab completes them)

    def cmd_explain(self, text: str) -> None:
        try:
            why = self.game.explain(text)
        except CuttleError:
            raise
        except Exception:  # the engine failed to explain; still one clear line
            why = (
                f"'{text}' is legal"
                if Move.parse(text) in self.game.legal_moves()
                else f"'{text}' is not legal now, but the engine could not say why ('moves' lists the legal moves)"
            )
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

        try:
            text = hint(self.game, seed=self.game.seed)
        except KeyboardInterrupt:  # Ctrl-C while the hint thinks: dropped, the game as it was
            self.say("hint stopped")
            return
        self.say(text)

    def cmd_undo(self) -> None:
        """Take back the user's last move and every move played after it (the bot's answers; in
        hot-seat, the other player's moves since): it is the same player's decision again."""
        self._no_replay("undo")
        if self.offer is not None:
            raise CommandError(f"{player_label(self.offer)} offers a draw: accept or refuse it first")
        me = self.viewer
        n = len(self.game.moves)
        movers = [self._mover(i) for i in range(n)]
        if me not in movers:
            raise CommandError(
                "nothing of yours to undo" + (f" ({player_label(me)} has not moved yet)" if self.vs == "human" else "")
            )
        taken = self._take_back(me)
        if self.vs == "human":
            for other in {p for p in movers[n - len(taken) :] if p != me and p not in self.bots}:
                self._notes[other].append(f"{player_label(me)} took back {len(taken)} moves, yours among them")
        self.say("undone: " + ", ".join(self.painter.move(str(m)) for m in taken))
        self._told[me] = len(self.game.moves)
        self.show()

    def cmd_redo(self) -> None:
        self._no_replay("redo")
        me = self.viewer
        redone = [self.game.redo()]  # raises "nothing to redo"
        while True:
            d = self.game.decision
            if d is None or d.player == me or self.game.outcome is not None:
                break
            if self.game.can_redo:
                redone.append(self.game.redo())
            else:
                self.advance()
                break
        self.say("redone: " + ", ".join(self.painter.move(str(m)) for m in redone))
        if self.vs == "human" and self.viewer != me and self.game.outcome is None:
            if self._hand_over(me, self.viewer, False) == QUIT:
                return
            self._tell_missed(self.viewer)
        self._told[self.viewer] = len(self.game.moves)
        self.show()

    def cmd_clear(self) -> None:
        """A clean screen with the board on it (the game is untouched)."""
        self.clear_screen()
        self.show()

    def cmd_show(self, what: str | None = None) -> None:
        if what is None or what.lower() in ("board", "game"):
            self.show()
        elif what.lower() == "scrap":
            self.say(scrap_text(self.view(), self.painter))
        else:
            raise CommandError(f"show what? '{what}' is not 'board' or 'scrap'")

    def cmd_set(self, name: str | None, value: str | None) -> None:
        if name is None:
            for key, help_text in SETTINGS.items():
                self.say(f"  {key} {'on' if getattr(self, key) else 'off'}: {help_text}")
            return
        key = name.lower()
        if key not in SETTINGS:
            raise CommandError(f"no setting '{name}' (settings: {', '.join(SETTINGS)})")
        if value is None or value.lower() not in ("on", "off"):
            raise CommandError(f"set {key} on, or set {key} off")
        setattr(self, key, value.lower() == "on")
        self.say(f"{key} is {value.lower()}: {SETTINGS[key]}")
        if self.auto:
            before = len(self.game.moves)
            if self.vs == "bot":
                self.advance()
            if len(self.game.moves) != before:
                self.show()

    def cmd_log(self, outcome: bool = True) -> None:
        """Every move in words, told from the current viewer's side (nothing hidden leaks)."""
        if not self.game.moves:
            self.say("no moves yet")
            return
        viewer = self.viewer
        open_hands = self.replay is not None and self.replay.open_hands
        teller = self.teller()
        lines = []
        for i, m in enumerate(self.game.moves):
            before, after = self.game.view_after(i, viewer), self.game.view_after(i + 1, viewer)
            if open_hands:
                opp = self.game.rules.opponent_of[viewer]
                before = before.replace(opponent_hand=self.game.view_after(i, opp).hand)
                after = after.replace(opponent_hand=self.game.view_after(i + 1, opp).hand)
            lines.append(f"{i + 1:>4}. {teller.tell(before, after, m)}")
        if outcome and self.game.outcome is not None:
            lines.append("      " + self.outcome_line())
        self.say_long("\n".join(lines))

    def cmd_save(self, path: str, force: bool = False) -> None:
        if not force:
            other = self._other_game(path)
            if other:
                raise CommandError(f"{path} holds {other}: 'save {path} --force' overwrites it")
        records.save(self.game, path, self.players())
        self._saved = [str(m) for m in self.game.moves]
        self._quit_warned = False
        self.say(f"saved {counted(len(self.game.moves), 'move')} to {path}")

    def _other_game(self, path: str) -> str:
        """What `path` holds if it is something other than this game (a line of words), else ''."""
        p = Path(path).expanduser()
        if not p.exists():
            return ""
        if p.is_dir():
            return "a directory"
        try:
            data = records.read(p)
        except CuttleError:
            return "a file that is not a game record"
        mine = records.record_of(self.game)
        if (data.get("ruleset_hash"), data.get("seed"), data.get("setup")) != (
            mine["ruleset_hash"],
            mine["seed"],
            mine.get("setup"),
        ):
            return f"another game (ruleset {data.get('ruleset')}, seed {data.get('seed')})"
        theirs, ours = [str(m) for m in data.get("moves") or []], mine["moves"]
        n = min(len(theirs), len(ours))
        if theirs[:n] != ours[:n]:
            return "another line of this game (its moves differ from yours)"
        return ""

    def cmd_load(self, path: str, force: bool = False) -> None:
        # a saved game or a scenario (a position `scenario FILE --here` exported); a file that cannot
        # be loaded is said first, before any question
        game, what = load_position(path, force=force)
        self._same_table(game, path, "load")
        if not self.discard_ok("load"):
            return
        self.game, self.replay = game, None
        self.offer = None
        if what.startswith("a scenario"):  # its position, with no players named
            self.bots = self.make_bots(game.seed)
            self.ruleset = game.rules.spec
            self._saved = [str(m) for m in game.moves]
            self._told = [len(game.moves)] * len(self.seats)
            self.say(f"loaded {path}: ruleset {game.rules.name}, seed {game.seed}, {what}")
            self.advance()
            self.start()
            return
        data = records.read(path)
        self.ruleset = game.rules.spec  # (as loaded: the record names its ruleset from its own folder)
        recorded = data.get("players") or {}
        theirs = recorded.get(f"p{2 - self.human}") if self.vs == "bot" and len(self.seats) == 2 else None
        note = ""
        if theirs and theirs != "human" and theirs != self.opponent:
            # play on against the opponent the record names, if it is a player by name here: only a
            # registered name or level, never options from a stranger's file (`ismcts?iterations=10**9`)
            if theirs in registered_players():
                self.opponent, note = theirs, f", against {theirs} as recorded"
                self.seats[1 - self.human] = theirs
            else:
                note = f" (the record's opponent '{theirs}' is not a player here: {self.opponent} plays on)"
        self.bots = self.make_bots(game.seed)
        self._saved = [str(m) for m in game.moves]
        self._told = [len(game.moves)] * len(self.seats)
        self.say(
            f"loaded {path}: ruleset {game.rules.name}, seed {game.seed}, {counted(len(game.moves), 'move')}{note}"
        )
        self.advance()
        self.start()

    def _same_table(self, game: Game, path: str, command: str) -> None:
        """A game from a file is played on at this session's table only: as many seats as it has."""
        n, here = game.rules.seats, len(self.seats)
        if n != here:
            raise CommandError(
                f"{command}: {path} is a game of {n} players and this one seats {here}: "
                f"`cuttle play --from {path}` plays it on at its own table"
            )

    def cmd_replay(self, path: str, force: bool = False, view: str | None = None, quiet: bool = False) -> None:
        data = records.read(path)
        game = records.start(data, path, force)
        self._same_table(game, path, "replay")
        moves = [str(m) for m in data["moves"]]
        try:
            finished = records.replay(data, path, force).outcome is not None
        except CuttleError:
            finished = False
        open_hands = finished if view is None else view == "all"
        if view is not None and view != "all":
            if not view.isdigit() or not 1 <= int(view) <= game.rules.seats:
                raise CommandError(
                    f"--view {view}: {path} is a game of {game.rules.seats} players (1 to {game.rules.seats}, or all)"
                )
            self.human = int(view) - 1
        self.game, self.replay = game, Replay(path, moves, open_hands=open_hands)
        self.offer = None
        side = (
            "both hands shown"
            if open_hands
            else f"shown from {player_label(self.viewer)}'s side"
            + ("" if finished or view else ", as the game is not finished")
        )
        self.say(
            f"replaying {path}: ruleset {game.rules.name}, seed {game.seed}, {counted(len(moves), 'move')}, {side}"
            + ("" if quiet else ". Enter or next, prev, goto N; resume plays on from there")
        )
        if not quiet:
            self.show()

    def cmd_step(self, delta: int) -> None:
        r = self._replaying()
        if r.at + delta > len(r.moves):
            then = "prev, goto N, or resume to play on" if self.game.outcome is None else "prev or goto N"
            raise CommandError(f"the record has ended: all {len(r.moves)} moves are played ({then})")
        if r.at + delta < 0:
            raise CommandError("this is the start of the record: next (or Enter) plays its first move")
        self.cmd_goto(r.at + delta)

    def cmd_goto(self, n: int, quiet: bool = False) -> None:
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
                raise CommandError(
                    f"move {r.at + 1} '{r.moves[r.at]}' of {r.path} cannot be replayed: {str(e).splitlines()[0]}"
                ) from None
            r.at += 1
            told.append(f"{r.at:>4}. {teller.tell(before, self.view(), move)}")
        if quiet:
            return
        for line in told[-5:]:
            self.say(line)
        self.show()

    def cmd_resume(self) -> None:
        r = self._replaying()
        if self.game.outcome is not None:
            raise CommandError("the game of this record is over: there is nothing to play on")
        self.replay = None
        self._saved = r.moves[: r.at]
        self._told = [len(self.game.moves)] * len(self.seats)
        self.say(f"playing on from move {r.at} of {r.path}")
        self.advance()
        self.start()

    def cmd_scenario(self, path: str, here: bool = False, force: bool = False) -> None:
        self._no_replay("scenario")
        if not force and os.path.lexists(path):  # as `save` refuses another game's file: nothing is lost unasked
            raise CommandError(f"{path} exists: 'scenario {path}{' --here' if here else ''} --force' writes over it")
        write_scenario(self.game, path, self.ruleset, here=here)
        from interpreter.scripting.scenario import run_file

        res = run_file(path)
        if res.ok and here:
            self.say(f"wrote {path}: this position, every card in its expectations; `cuttle run {path}` passes")
        elif res.ok:
            self.say(f"wrote {path}: {counted(len(self.game.moves), 'move')}; `cuttle run {path}` passes")
        else:
            self.say(f"wrote {path}, but `cuttle run` does not pass it: {res.failures[0].splitlines()[0]}")

    def discard_ok(self, what: str) -> bool:
        """Whether `what` (new, load) may put the game in play aside: yes, unless moves are unsaved and
        the user has not been told yet for this command at this point of the game; then say so once."""
        n = self.unsaved()
        if not n or self._discard_warned == (what, len(self.game.moves)):
            return True
        self._discard_warned = (what, len(self.game.moves))
        self.say(
            f"{n} move{'s' if n != 1 else ''} of this game {'are' if n != 1 else 'is'} not saved: "
            f"save FILE to keep them, or {what} again to leave them"
        )
        return False

    def cmd_new(self, seed: int | None) -> None:
        if not self.discard_ok("new"):
            return
        seed = random.randrange(1_000_000) if seed is None else seed
        self.game = Game.new(load_ruleset(self.ruleset), seed)
        self.offer = None
        self.replay = None
        self.bots = self.make_bots(seed)
        self._saved, self._told, self._quit_warned = [], [0] * len(self.seats), False
        self.say(f"new game: ruleset {self.ruleset}, seed {seed}")
        self.advance()
        self.start()

    def cmd_rules(self, name: str | None) -> None:
        rules = load_ruleset(name) if name else self.game.rules
        self.say_long(rules_text(rules))

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
    page: Any
    try:
        from interpreter.rules.page import rules_page as page
    except ImportError:
        page = None
    if page is not None:
        try:
            return str(page(rules))
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
            lines.append(
                f"  {r.get('verb', name):<8} {', '.join(map(str, r.get('ranks', [])))}: answers "
                f"{', '.join(map(str, r.get('answers', [])))}"
            )
    return "\n".join(lines)
