"""`cuttle match`: players by name against each other, seats alternating: win rates, CPU time per
move, playouts/s.

    cuttle match --p1 ismcts --p2 heuristic --games 1000 --jobs 2

The game of seed S deals `Game.new(rules, S)`, seeds the player in the first seat `2 * S + 1` and
the other `2 * S + 2`, and is played by playing.play, the lab's game loop.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from interpreter.core.errors import CuttleError
from interpreter.engine.game import Game
from interpreter.language.phrasing import counted
from interpreter.players.registry import make_player
from interpreter.rules import load_ruleset

from .parallel import ctrl_c_ignored, workers
from .playing import Timed, play
from .stats import wilson

MAX_MOVES = 5000
MAX_LISTED = 40  # seeds of lost or drawn games listed in a summary


@dataclass
class GameResult:
    seed: int
    seats: tuple[str, str]  # the spec playing p1, p2
    winner: int | None  # 0, 1, or None for a draw (or a game cut at MAX_MOVES)
    times: dict[str, list[float]] = field(default_factory=dict)  # spec -> CPU seconds per decision
    playouts: dict[str, tuple[int, float]] = field(default_factory=dict)  # spec -> (iterations, seconds)


def play_game(ruleset: str, seed: int, p1: str, p2: str) -> GameResult:
    """One seeded game between two player specs (each player seeded from the game's seed)."""
    game = Game.new(load_ruleset(ruleset), seed)
    specs = (p1, p2)
    seats = (Timed(make_player(p1, seed=2 * seed + 1)), Timed(make_player(p2, seed=2 * seed + 2)))
    play(game, seats, MAX_MOVES, names=specs)
    out = game.outcome
    res = GameResult(seed, specs, None if out is None else out.winner)
    for p in (0, 1):
        res.times.setdefault(specs[p], []).extend(seats[p].times)
        stats = getattr(seats[p].player, "stats", None)
        if stats is not None:
            it, sec = res.playouts.get(specs[p], (0, 0.0))
            res.playouts[specs[p]] = (it + stats.iterations, sec + stats.seconds)
    return res


def _job(args: tuple[str, int, str, str]) -> GameResult:
    try:
        return play_game(*args)
    except CuttleError as e:  # which game, to replay it (the message crosses the process boundary as text)
        raise CuttleError(f"{e} (the game of seed {args[1]}, {args[2]} against {args[3]})") from None
    except Exception as e:
        raise CuttleError(
            f"the game of seed {args[1]} ({args[2]} against {args[3]}) failed: {type(e).__name__}: {e}"
        ) from None


def two_seats(ruleset: str, command: str) -> None:
    """`cuttle match` and `ladder` play two players against each other: a larger table is refused."""
    n = load_ruleset(ruleset).seats
    if n > 2:
        raise CuttleError(
            f"{ruleset} seats {n} players: cuttle {command} plays two players against each other; "
            f"cuttle sim {ruleset} --players A,B,... plays a table of {n} (a player for each seat, seats rotating)"
        )


def run_matches(ruleset: str, a: str, b: str, games: int, seed: int = 0, jobs: int = 1) -> list[GameResult]:
    """`games` games of `a` against `b`, seats alternating (a is p1 in the even games). A game that
    fails raises CuttleError naming its seed."""
    plan = [(ruleset, seed + i, a, b) if i % 2 == 0 else (ruleset, seed + i, b, a) for i in range(games)]
    jobs = workers(jobs, games)
    if jobs > 1:
        from multiprocessing import Pool

        with ctrl_c_ignored():  # the workers inherit it: a Ctrl-C is the parent's, not a traceback per worker
            pool = Pool(jobs)
        with pool:  # leaving the block terminates the workers
            return pool.map(_job, plan, chunksize=1)
    return [_job(x) for x in plan]


def summary(results: list[GameResult], a: str, b: str) -> list[str]:
    if a == b:
        return _same_player(results, a)
    lines = []
    for who in (a, b):
        won = sum(1 for r in results if r.winner is not None and r.seats[r.winner] == who)
        drawn = sum(1 for r in results if r.winner is None)
        as_p = []
        for p in (0, 1):
            mine = [r for r in results if r.seats[p] == who]
            w = sum(1 for r in mine if r.winner == p)
            if mine:
                as_p.append(f"as p{p + 1} {w}/{len(mine)}")
        lo, hi = wilson(won, len(results))
        lines.append(
            f"  {who}: won {won}/{len(results)} ({100 * won / max(len(results), 1):.1f}%, 95% interval "
            f"{100 * lo:.1f}-{100 * hi:.1f}%), drawn {drawn}; {', '.join(as_p)}"
        )
    lines += _costs(results, (a, b))
    # the games to look at again: replay one with `Game.new(rules, seed)` and the same two players
    missed = [f"{r.seed} (as p{r.seats.index(a) + 1})" for r in results if r.winner is None or r.seats[r.winner] != a]
    if missed:
        lines.append(f"  {a} lost or drew the games of seeds: {_listed(missed)}")
    return lines


def _same_player(results: list[GameResult], who: str) -> list[str]:
    """One player in both seats: what is left to measure is the seat, so the summary is per seat."""
    n = len(results)
    lines = []
    for p in (0, 1):
        won = sum(1 for r in results if r.winner == p)
        lo, hi = wilson(won, n)
        share = f"{100 * won / max(n, 1):.1f}%, 95% interval {100 * lo:.1f}-{100 * hi:.1f}%"
        lines.append(f"  p{p + 1} ({who}): won {won}/{n} ({share})")
    drawn = [str(r.seed) for r in results if r.winner is None]
    lines.append(
        f"  drawn {len(drawn)}"
        + (f" (seeds {_listed(drawn)})" if drawn else "")
        + f"; the same player in both seats measures the seats (the first player's edge), not {who}"
    )
    return lines + _costs(results, (who,))


def _listed(seeds: list[str]) -> str:
    return ", ".join(seeds[:MAX_LISTED]) + (f", and {len(seeds) - MAX_LISTED} more" if len(seeds) > MAX_LISTED else "")


def _costs(results: list[GameResult], players: tuple[str, ...]) -> list[str]:
    """Each player's CPU time per move, and a searching player's playouts."""
    lines = []
    for who in players:
        times = [t for r in results for t in r.times.get(who, [])]
        if times:
            lines.append(
                f"  {who}: CPU time per move median {1000 * statistics.median(times):.1f} ms, "
                f"max {1000 * max(times):.0f} ms over {len(times)} moves"
            )
        it = sum(r.playouts.get(who, (0, 0.0))[0] for r in results)
        sec = sum(r.playouts.get(who, (0, 0.0))[1] for r in results)
        if it:
            lines.append(f"  {who}: {it:,} playouts in {sec:.0f} s of search: {it / sec:,.0f} playouts/s")
    return lines


def match(ruleset: str, p1: str, p2: str, games: int, seed: int = 0, jobs: int = 1) -> list[str]:
    """What `cuttle match` prints: a line saying what was played, then the summary. Every player and
    the ruleset are checked before a game is played; a game that fails raises CuttleError naming it."""
    rules = load_ruleset(ruleset)
    two_seats(ruleset, "match")
    notes = []
    for spec in dict.fromkeys((p1, p2)):
        note = getattr(make_player(spec), "evaluation_note", None)
        if note is not None:  # (a malformed learnt evaluation is refused here, before a game)
            notes.append(f"  {spec} plays with {note(rules)}")
    t0 = time.perf_counter()
    results = run_matches(ruleset, p1, p2, games, seed, jobs)
    head = (
        f"ruleset {ruleset}: {p1} against {p2}, {len(results)} games, seats alternating, "
        f"seeds {seed}..{seed + games - 1} ({time.perf_counter() - t0:.0f} s, {counted(workers(jobs, games), 'job')})"
    )
    return [head, *notes, *summary(results, p1, p2)]
