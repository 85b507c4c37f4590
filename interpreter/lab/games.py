"""The games of a run: game `i` of a ruleset played (playing.py) and recorded (recorder.py) into
its `GameRecord`, and chunks of games made into rows of `games` where they are played.

Random play against random play runs on the lab's fast path (`playing.play_random`); any other
pairing goes through `Game`, asking each player's `choose(game)` (`playing.play`). Both play
exactly the same game for two random players.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from interpreter.core.errors import CuttleError, rule_failure
from interpreter.engine.game import Game
from interpreter.engine.outcome import Outcome, Termination
from interpreter.engine.state import State
from interpreter.players.picks import Picks
from interpreter.rules import Rules

from . import columns
from .catalog import catalog_of
from .columns import GameRecord, Row
from .job import MAX_DECISIONS, Job, game_seed, plain_random, player_factory, player_seed, rules_of
from .playing import Played, play, play_random, progress_of, progress_text
from .recorder import Recorder

SEATS = ("p1", "p2")


class GameFailed(CuttleError):
    """A game of a run that the rules (or a player) could not play on, with the game named."""


def play_game(
    rules: Rules,
    index: int,
    seed: int,
    players: Sequence[str],
    cap: int = MAX_DECISIONS,
    side: str = "a",
    through_game: bool = False,
) -> GameRecord:
    """Play game `index` (seeded `seed`) of `rules` between `players` (specs, p1 first), recorded."""
    rec = Recorder(catalog_of(rules))
    try:
        if not through_game and plain_random(players[0]) and plain_random(players[1]):
            picks = (Picks(player_seed(seed, 0)), Picks(player_seed(seed, 1)))  # as RandomPlayer(seed).rng
            played = play_random(rules, seed, picks, cap, rec)
        else:
            seats = [player_factory(players[s])(player_seed(seed, s)) for s in (0, 1)]
            played = play(Game.new(rules, seed), seats, cap, rec, names=players)
    except CuttleError as e:  # the rules refused something in this game: say which game, to replay it
        raise GameFailed(
            f"{e} (game {index} of the run, seed {seed}: `cuttle play {rules.spec} --seed {seed}` deals it)"
        ) from None
    except Exception as e:
        raise rule_failure(rules.name, f"playing game {index} (seed {seed})", e) from None
    return record_of(rules, side, index, seed, players, played, rec)


def record_of(
    rules: Rules, side: str, index: int, seed: int, players: Sequence[str], played: Played, rec: Recorder
) -> GameRecord:
    """The record of a game that stopped as `played` says: who won, and how the game ended."""
    g = played.state
    # the final points and goals: the progress's last entry, read after the last move (playing.py)
    last = played.progress[-1] if played.progress else progress_of(rules, g)
    scores = (last[0], last[2])
    o = g.outcome
    winner, end, goal, ended = ending_of(o, (last[1], last[3]))
    log = g.log
    fired = ""
    shown = None
    if log:
        code = rec.cat.trigger_code
        fired = "".join(sorted(code[n] * k for (what, n), k in log.items() if what == "trigger" and n in code))
        shown = {n: k for (what, n), k in log.items() if what == "shown"}
    counters = counters_json(rules, g) if rules.counters else "{}"
    knowledge = knowledge_json(shown, rec.sights) if shown or rec.sights else "{}"
    # positional (in the order of GameRecord's fields): a game's record is made on the lab's hot path
    return GameRecord(
        side,
        index,
        seed,
        players[0],
        players[1],
        winner,
        end,
        goal,
        scores[0],
        scores[1],
        played.turns,
        played.decisions,
        played.choices,  # real_choices
        max(1, len(g.hands)),
        o.reason if o is not None else "",
        *rec.codes(),
        progress_text(played.progress),
        ended,
        fired,
        counters,
        knowledge,
        "".join(rec.ranks[0]),
        "".join(rec.ranks[1]),
        g,
        rules,
        rec,
    )


def ending_of(o: Outcome | None, goals: tuple[int, int]) -> tuple[str | None, str, int | None, str]:
    """The columns `winner`, `end_reason`, `goal` and `ended_by` of a game that ended as `o` (None: cut
    off), its players' goals `goals`. A match is counted by how its last hand ended."""
    if o is None:
        return None, "cutoff", None, ""
    winner = "draw" if o.winner is None else SEATS[o.winner]
    final = o.hand if o.termination is Termination.MATCH and o.hand is not None else o
    t = final.termination
    if t is Termination.RULE:  # a rule's `win` statement
        return winner, "rule", None, final.rule or "a rule's win"
    if t is Termination.PASSES:  # (`end.on_passes` when an expression named the winner)
        return winner, "passes", None, final.rule or "end.passes"
    if t is Termination.GOAL and o.winner is not None:
        return winner, "goal", goals[o.winner], "end.goal"
    if t is Termination.NO_LEGAL_MOVE:
        return winner, "no-move", None, "no legal move"
    return winner, "other", None, o.reason


def counters_json(rules: Rules, g: State) -> str:
    """Each declared counter of `rules` in game `g`: [the times its value changed, p1's final value,
    p2's, the sum of the cards' final values] as the column `counters` holds them."""
    out = {name: [0, 0, 0, 0] for name in rules.counters}
    for (what, name), k in g.log.items():
        if what == "counter" and name in out:
            out[name][0] = k
    for key, name in g.counters:
        if name in out:
            v = g.counter(key, name)
            out[name][1 if key == -1 else 2 if key == -2 else 3] += v
    return json.dumps(out, sort_keys=True, separators=(",", ":"))


def knowledge_json(shown: dict[str, int] | None, seen: dict[str, int]) -> str:
    """The column `knowledge`: {"seen": {visibility rule: cards}, "shown": {rule: cards}}, keys sorted
    (what json.dumps(..., sort_keys=True) gives without spaces; the seen rules' names are the lab's own)."""
    seen_text = ",".join(f'"{k}":{v}' for k, v in sorted(seen.items()))
    shown_text = json.dumps(shown, sort_keys=True, separators=(",", ":")) if shown else "{}"
    return '{"seen":{' + seen_text + '},"shown":' + shown_text + "}"


def run_chunk(job: Job, indices: Sequence[int]) -> list[Row]:
    """Games `indices` of a run, on every ruleset of it (the same seeds: paired games), as rows of the
    table `games` (columns.py). They are made where the games are played: a worker process sends
    plain tuples of numbers and strings, which cost the parent a tenth of what unpickling the records
    would, and the parent only inserts them (its share of the CPU is what keeps N workers from being
    N times faster)."""
    out = []
    sides = [(s.label, rules_of(s)) for s in job.sides]
    players, cap = job.players, job.max_decisions
    row = columns.row_maker()
    for i in indices:
        seed = game_seed(job.seed, i)
        for label, rules in sides:
            out.append(row(play_game(rules, i, seed, players, cap, label)))
    return out
