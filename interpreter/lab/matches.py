"""Matches between players by name: win rates with seats alternating, time per move, playouts/s.

python -m interpreter.bot --p1 ismcts --p2 heuristic --games 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field

from interpreter.core.errors import CuttleError
from interpreter.engine.game import Game
from interpreter.players.registry import make_player
from interpreter.rules import load_ruleset

from .parallel import ctrl_c_ignored
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
    seats = [make_player(p1, seed=2 * seed + 1), make_player(p2, seed=2 * seed + 2)]
    times: list[list[float]] = [[], []]
    for _ in range(MAX_MOVES):
        d = game.decision
        if d is None:
            break
        t0 = time.process_time()  # CPU time of this process: one core, whatever else the machine runs
        move = seats[d.player].choose(game)
        times[d.player].append(time.process_time() - t0)
        game.push(move)
    out = game.outcome
    res = GameResult(seed, specs, None if out is None else out.winner)
    for p in (0, 1):
        res.times.setdefault(specs[p], []).extend(times[p])
        stats = getattr(seats[p], "stats", None)
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


def run_matches(ruleset: str, a: str, b: str, games: int, seed: int = 0, jobs: int = 1) -> list[GameResult]:
    """`games` games of `a` against `b`, seats alternating (a is p1 in the even games). A game that
    fails raises CuttleError naming its seed."""
    plan = [(ruleset, seed + i, a, b) if i % 2 == 0 else (ruleset, seed + i, b, a) for i in range(games)]
    if jobs > 1:
        from multiprocessing import Pool

        with ctrl_c_ignored():  # the workers inherit it: a Ctrl-C is the parent's, not a traceback per worker
            pool = Pool(jobs)
        with pool:  # leaving the block terminates the workers
            return pool.map(_job, plan, chunksize=1)
    return [_job(x) for x in plan]


def summary(results: list[GameResult], a: str, b: str) -> list[str]:
    lines = []
    for who in (a, b) if a != b else (a,):
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
    for who in (a, b) if a != b else (a,):
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
    # the games to look at again: replay one with `Game.new(rules, seed)` and the same two players
    missed = [f"{r.seed} (as p{r.seats.index(a) + 1})" for r in results if r.winner is None or r.seats[r.winner] != a]
    if missed:
        shown = ", ".join(missed[:MAX_LISTED]) + (
            f", and {len(missed) - MAX_LISTED} more" if len(missed) > MAX_LISTED else ""
        )
        lines.append(f"  {a} lost or drew the games of seeds: {shown}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m interpreter.bot",
        description="two players by name against each other, seats alternating: win rates, time per move, playouts/s",
    )
    ap.add_argument("--p1", default="heuristic", help="a player name (see `cuttle players`): heuristic")
    ap.add_argument("--p2", default="random", help="its opponent: random")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--ruleset", "-r", default="default")
    ap.add_argument("--seed", type=int, default=0, help="the first game's seed")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    a = ap.parse_args(argv)
    try:
        if a.games < 1:
            raise CuttleError("--games must be 1 or more")
        load_ruleset(a.ruleset)
        make_player(a.p1)
        make_player(a.p2)
    except CuttleError as e:
        print(f"python -m interpreter.bot: {e}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        results = run_matches(a.ruleset, a.p1, a.p2, a.games, a.seed, max(1, a.jobs))
    except CuttleError as e:
        print(f"python -m interpreter.bot: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "python -m interpreter.bot: interrupted; no summary (the games are played again on a rerun)",
            file=sys.stderr,
        )
        return 130
    print(
        f"ruleset {a.ruleset}: {a.p1} against {a.p2}, {len(results)} games, seats alternating, "
        f"seeds {a.seed}..{a.seed + a.games - 1} ({time.perf_counter() - t0:.0f} s, {a.jobs} job(s))"
    )
    for line in summary(results, a.p1, a.p2):
        print(line)
    return 0
