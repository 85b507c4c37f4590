"""The game loop: two seats play a game to its end, or to a cap, for the lab (`cuttle sim` and
`compare`), the match runner (`cuttle match`) and the benchmarks.

`play` is the loop: each seat is a player (`choose(game)` → a move, or the move's text, which is
played as a user's text is: parsed and checked), the moves go through the public `Game` API, an
`Observer` may watch every decision (the lab's `Recorder`), `until` may stop the game early, and the
loop counts decisions and turns. A seat may be wrapped in `Timed` to time its decisions.

`play_random` is the same loop for two plain random players on the raw engine (`deal`,
`legal_actions`, `apply_action`, what `cuttle bench` measures), with the recording inlined: the
lab's hot path, where a call per decision would cost percents. A `random` player picks
`legal[rng.randrange(len(legal))]` from the same generator either way (players/picks.py), so both
play exactly the same game (tests/test_lab_run.py checks it).

`cuttle bench`'s own playouts (bench.finish) are the bare loop of the hand-written yardstick engine,
kept bare so that the two engines are timed doing the same work.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from interpreter.core.errors import CuttleError
from interpreter.core.zones import HAND1
from interpreter.engine.decision import RESPOND
from interpreter.engine.game import Game
from interpreter.engine.legal import RESOLVE_ACTION, legal_actions, move_of
from interpreter.engine.machine import apply_action, deal
from interpreter.engine.moves import Move
from interpreter.engine.state import State
from interpreter.engine.wincheck import points_goal_function
from interpreter.players.picks import Picks
from interpreter.players.registry import player_failure
from interpreter.rules import Rules

from .recorder import RANK_CHAR, Action, Recorder, second


class Seat(Protocol):
    def choose(self, game: Game) -> Move | str: ...


class Observer(Protocol):
    def observe(self, before: State, d: Any, acts: list[Action], a: Action, move: Move, after: State) -> None:
        """One decision: `d` was pending in `before` (kept as it was), `acts` were legal, the action
        `a` was chosen (the seat said `move`) and led to `after`."""


Progress = tuple[int, int, int, int]  # p1's points and goal, p2's points and goal


class Played(NamedTuple):
    """How a game stopped: its last position, the decisions made, the turns played (a turn is
    counted when the turn number or the hand changes, so a match of several hands counts them all)
    and the real choices (decisions with more than one legal move; a forced `resolve` is none;
    counted by `play` only when an observer watches, since it needs the legal moves), and each
    player's progress after each turn (`progress_of`: one entry when a turn ends, and one for the
    last position when the game stops inside a turn)."""

    state: State
    decisions: int
    turns: int
    choices: int = 0
    progress: Sequence[Progress] = ()


def progress_of(rules: Rules, g: State) -> Progress:
    """Each player's points and goal in `g`: what the lead after a turn is made of (quality.py)."""
    return (rules.score_of(g, 0), rules.goal_of(g, 0), rules.score_of(g, 1), rules.goal_of(g, 1))


def player_reader(rules: Rules) -> Callable[[State, int], tuple[int, int]]:
    """`(g, player) -> (points, goal)` for `rules`: its score and goal written in place
    (engine/wincheck.py, as the win check has them), or else the compiled score and goal called
    directly."""
    made = points_goal_function(rules)
    if made is not None:
        return made
    return lambda g, p: (rules.score_of(g, p), rules.goal_of(g, p))


def _progress(rules: Rules, g: State, read: Callable[[State, int], tuple[int, int]]) -> Callable[..., Progress]:
    """`progress(fv, last, entry)`: the players' points and goals in `g` now, their `entry` having been
    read at the field versions `last`. When a player's read only their own field, theirs is read again
    only if it changed, and then from the win check's note if it made one at this version (State.pg,
    engine/wincheck.keep_points) instead of worked out again."""
    if not rules.win_reads_own_field_only:
        return lambda fv, last, entry: read(g, 0) + read(g, 1)
    pg = g.pg  # a state's one list, never replaced

    def progress(fv: list[int], last: list[int], entry: Progress) -> Progress:
        a0, b0, a1, b1 = entry
        if fv[0] != last[0]:
            v, a0, b0 = pg[0]
            if v != fv[0]:
                a0, b0 = read(g, 0)
        if fv[1] != last[1]:
            v, a1, b1 = pg[1]
            if v != fv[1]:
                a1, b1 = read(g, 1)
        return (a0, b0, a1, b1)

    return progress


class _Texts(dict[Progress, str]):
    """Each entry's JSON text, made once per distinct entry (a game repeats its entries a lot)."""

    def __missing__(self, p: Progress) -> str:
        text = self[p] = f"[{p[0]},{p[1]},{p[2]},{p[3]}]"
        return text


_texts = _Texts()


def progress_text(trace: Sequence[Progress]) -> str:
    """A game's progress as the JSON of the column `progress`: [[p1 points, p1 goal, p2 points, p2
    goal], ...], without spaces; what json.dumps gives, in a seventh of the time."""
    if len(_texts) > 100_000:  # distinct entries are few (points and goals are small), but bound them
        _texts.clear()
    return "[" + ",".join(map(_texts.__getitem__, trace)) + "]"


def play(
    game: Game,
    seats: Sequence[Seat],
    cap: int,
    observer: Observer | None = None,
    until: Callable[[Game], bool] | None = None,
    names: Sequence[str] = ("p1", "p2", "p3", "p4"),
) -> Played:
    """Play `game` on with `seats` (p1's first, called `names` in a message) until it ends, `cap`
    decisions were made, or `until(game)` holds at a decision. A seat that fails while it chooses is
    said to be at fault (players/registry.py `player_failure`), not the rules."""
    n = 0
    turns = 1
    real = 0
    g = game.state
    turn_no, hands = g.turn_no, len(g.hands)
    trace: list[Progress] = []
    traced = 0  # the decision count at the last entry of `trace`
    while g.winner is None and n < cap and (until is None or not until(game)):
        d = g.pending
        acts = legal_actions(g) if observer is not None else None  # real choices: counted when observed
        if acts is not None and len(acts) > 1:
            real += 1
        try:
            choice = seats[d.player].choose(game)
        except CuttleError:
            raise
        except Exception as e:  # the player's own fault (its options, its code): said as the player's
            raise player_failure(names[d.player], e, game.rules.name) from None
        if isinstance(choice, str):
            move = game.play(choice)
        else:
            move = choice
            game.push(move)
        if acts is not None and observer is not None:
            observer.observe(g, d, acts, action_of(g, acts, move), move, game.state)
        n += 1
        g = game.state
        if g.turn_no != turn_no or len(g.hands) != hands:
            turns += 1
            turn_no, hands = g.turn_no, len(g.hands)
            trace.append(progress_of(game.rules, g))
            traced = n
    if traced != n:  # the game stopped inside a turn: its last position
        trace.append(progress_of(game.rules, g))
    return Played(g, n, turns, real, trace)


def action_of(g: State, acts: list[Action], move: Move) -> Action:
    """The engine's action for `move` among the legal actions `acts` of `g`."""
    for a in acts:
        if move_of(g, a) == move:
            return a
    raise CuttleError(f"a player chose '{move}', which is not a legal move")


@dataclass
class Timed:
    """A seat whose decisions are timed: CPU seconds of this process each (one core's work, whatever
    else the machine runs)."""

    player: Seat
    times: list[float] = field(default_factory=list)

    def choose(self, game: Game) -> Move | str:
        t0 = time.process_time()
        move = self.player.choose(game)
        self.times.append(time.process_time() - t0)
        return move


def play_random(rules: Rules, seed: int, picks: tuple[Picks, Picks], cap: int, rec: Recorder) -> Played:
    """`play` for two plain random players (`picks`: their generators) from the deal of `seed`, on the
    raw engine, recorded into `rec` as `Recorder.observe` records: inlined for the lab's hot path, the
    decisions whose actions the state keeps (a main decision, plays from a 7's cards: every action a
    play) and `resolve`."""
    g = deal(rules, seed)
    turns, real = 1, 0  # real: decisions with more than one legal move
    turn_no, hands = g.turn_no, g.hands
    match = rules.match_wins > 1  # a single game's turns are its turn number at the end
    # every action offered to each seat, read once at the end of the game
    offered: tuple[list[Action], list[Action]] = ([], [])
    see = (offered[0].extend, offered[1].extend)
    keep = (rec.chosen[0].append, rec.chosen[1].append)
    rank = (rec.ranks[0].append, rec.ranks[1].append)  # beside each entry of `chosen`: a card's rank or '-'
    rank_of = RANK_CHAR
    # what the player to move sees at each turn's start (recorder.sight): the hand's rule alone (the
    # shipped rulesets' `shows`) counted here after the first turn's, without a call per turn
    look, shows, envs, seen = rec.look, rec.shows, Rules._PLAYER_ENV, 0
    if look is not None and g.winner is None:
        look(g, rec.sights)
    draw = (picks[0].draw, picks[1].draw)  # a pick among n is (draw() * n) >> 32, as Picks.randrange(n)
    choice_of = rec.cat.choice
    trace: list[Progress] = []  # each player's progress after each turn
    note = trace.append
    read = player_reader(rules)
    traced = 0  # the decision count at the last entry of `trace`
    # a player's points and goal are read again only when they may have changed: if they read only the fields
    # (as the win check knows), after a change of one (g.fv)
    by_fields = rules.win_reads_own_field_only or rules.win_reads_fields_only
    progress = _progress(rules, g, read)
    entry = read(g, 0) + read(g, 1)
    last = g.fv[:]  # the field versions `entry` was read at
    while g.winner is None and g.moves_made < cap:
        acts = g.actions
        if acts is not None:  # kept on the state: a main decision or a `play from`, each action a play
            p = g.pending.player
            k = len(acts)
            if k > 1:
                real += 1
            a = acts[(draw[p]() * k) >> 32]
            see[p](acts)
            keep[p](a[1])
            c = a[3]
            rank[p](rank_of[c[0]] if c else "-")
            apply_action(g, a)
        else:
            d = g.pending
            acts = legal_actions(g)
            p = d.player
            k = len(acts)
            if k > 1:
                real += 1
            a = acts[(draw[p]() * k) >> 32]
            if a is RESOLVE_ACTION:
                if len(acts) > 1:
                    see[p](acts[:-1])  # the last is `resolve`
                chain = g.chain
                apply_action(g, a)
                if len(chain) % 2 == 0:  # an odd number of responses: the play was countered
                    rec.settle(g, a, chain)
            elif a[0] == "choose":  # what `rec.act` does for a choice
                keep[p](choice_of(g.frames[-1][0], d.verb, d.ask and len(a) > 2 and a[2] is False))
                rank[p]("-")
                apply_action(g, a)
            else:
                rec.offer(d, acts)
                rec.act(g, d, a)
                if d.kind == RESPOND:
                    chain = g.chain
                    apply_action(g, a)
                    rec.settle(g, a, chain)
                else:
                    apply_action(g, a)
        if g.turn_no != turn_no or (match and g.hands is not hands):  # a turn ended
            turns += 1
            turn_no, hands = g.turn_no, g.hands
            fv = g.fv
            if fv != last or not by_fields:  # a player's points or goal may have changed
                entry = progress(fv, last, entry)
                last = fv[:]
            note(entry)
            traced = g.moves_made
            if look is not None and g.winner is None:
                if shows is None:
                    look(g, rec.sights)
                elif opp := g.zones[HAND1 - g.turn]:
                    if shows(g, envs[g.turn]):
                        seen += len(opp)
    if traced != g.moves_made:  # the game stopped inside a turn: its last position
        note(read(g, 0) + read(g, 1))
    if seen:
        rec.sights["visibility.hand"] = rec.sights.get("visibility.hand", 0) + seen
    for p in (0, 1):  # the plays offered, each once (a set of plays: they hash as objects)
        rec.seen[p].update(map(second, offered[p]))
    return Played(g, g.moves_made, turns if match else g.turn_no, real, trace)
