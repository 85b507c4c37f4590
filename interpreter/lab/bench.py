"""`cuttle bench`: random playouts — games per second and decisions per second.

Four ways of playing, each the median of several runs of seeded games:
- `bench`: the raw engine path that the players and the lab use (`deal`, `legal_actions`,
  `apply_action` on a State);
- `bench_api`: the public `Game` API as a script uses it (legal moves as Moves, each move played
  as text, undo snapshots kept; narration is not asked for);
- `bench_search`: playouts as a search player runs them: a mid-game position copied, then played
  out at random to the end;
- `bench_jobs`: the raw path in N processes at once (aggregate and per-process rates).

`compare` interleaves the raw path with the hand-written reference engine of `benchmarks/`.

The raw path's games are played by `finish`, the bare loop of the hand-written engine's own
playouts, so that the two engines are timed doing the same work; the API path's by playing.play,
the game loop of the lab and the match runner.
"""

from __future__ import annotations

import gc
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from interpreter.core.errors import CuttleError, rule_failure
from interpreter.engine.game import Game
from interpreter.engine.machine import apply_action, deal, legal_actions, prepare
from interpreter.engine.state import State
from interpreter.rules import Rules, load_ruleset, shipped_names
from interpreter.rules.load import on_its_base

from .job import MAX_DECISIONS
from .playing import play


def finish(g: State, pick: Callable[[int], int], cap: int = MAX_DECISIONS) -> int:
    """Play a position out at random (in place) to its end, or `cap` decisions: `pick(n)` chooses
    among the n legal actions. The loop of the hand-written engine's `playout` (benchmarks/), on the
    raw engine, so that `--compare` times the two engines doing the same work; returns the number of
    decisions made."""
    n = 0
    while g.winner is None and n < cap:
        acts = legal_actions(g)
        apply_action(g, acts[pick(len(acts))])
        n += 1
    return n


def playout(rules: Rules, seed: int, rnd: random.Random) -> int:
    """One random game from a seeded deal; returns the number of decisions made."""
    try:
        return finish(deal(rules, seed), rnd.randrange)
    except CuttleError:
        raise
    except Exception as e:
        raise rule_failure(rules.name, f"playing a random game (seed {seed})", e) from None


class RandomText:
    """A seat that picks among `legal_moves()` with `rnd` and answers with the move's text."""

    def __init__(self, rnd: random.Random) -> None:
        self.randrange = rnd.randrange

    def choose(self, game: Game) -> str:
        moves = game.legal_moves()
        return str(moves[self.randrange(len(moves))])


def api_playout(rules: Rules, seed: int, rnd: random.Random) -> int:
    """One random game through the public API: each move chosen among `legal_moves()` and played as
    its text with `Game.play` (parsed, checked, snapshot for undo). Returns the number of moves."""
    seat = RandomText(rnd)
    return play(Game.new(rules, seed), (seat,) * rules.seats, MAX_DECISIONS).decisions


def _runs(games: int, repeat: int, seed: int, play: Callable[[int, random.Random], int]) -> dict[str, Any]:
    """`repeat` runs of `games` games (seeds seed + r * games + i): the median rates."""
    runs = []
    for r in range(repeat):
        rnd = random.Random(seed + r)
        t0 = time.perf_counter()
        decisions = sum(play(seed + r * games + i, rnd) for i in range(games))
        dt = time.perf_counter() - t0
        runs.append((games / dt, decisions / dt, decisions / games))
    return {
        "games": games,
        "repeat": repeat,
        "games_per_s": statistics.median(r[0] for r in runs),
        "decisions_per_s": statistics.median(r[1] for r in runs),
        "decisions_per_game": statistics.median(r[2] for r in runs),
        "runs": runs,
    }


def bench(rules: Rules, games: int = 500, repeat: int = 5, seed: int = 0) -> dict[str, Any]:
    """The raw engine path: random games on one core."""
    prepare(rules)  # what the engine generates for the rules, every direct play's function included
    playout(rules, seed - 1, random.Random(seed))  # whatever else the engine builds on first use
    with frozen_heap():
        return {"ruleset": rules.name, **_runs(games, repeat, seed, lambda s, rnd: playout(rules, s, rnd))}


def bench_api(rules: Rules, games: int = 100, repeat: int = 5, seed: int = 0) -> dict[str, Any]:
    """The public Game API path: random games played move by move as text."""
    prepare(rules)
    api_playout(rules, seed - 1, random.Random(seed))
    with frozen_heap():
        return {"ruleset": rules.name, **_runs(games, repeat, seed, lambda s, rnd: api_playout(rules, s, rnd))}


def positions(rules: Rules, count: int, seed: int = 0, depth: int = 12) -> list[State]:
    """Mid-game positions: seeded deals played `depth` random decisions in (fewer if a game ends sooner;
    finished games are skipped)."""
    out: list[State] = []
    pick = random.Random(seed).randrange
    s = seed
    while len(out) < count:
        g = deal(rules, s)
        s += 1
        finish(g, pick, depth)
        if g.winner is None:
            out.append(g)
    return out


def bench_search(rules: Rules, playouts: int = 500, repeat: int = 5, seed: int = 0, starts: int = 20) -> dict[str, Any]:
    """Playouts as a search player runs them: `starts` mid-game positions, each copied and played out
    at random to the end, `playouts` times in all per run."""
    prepare(rules)
    pos = positions(rules, starts, seed)
    with frozen_heap():
        runs = []
        for r in range(repeat):
            pick = random.Random(seed + r).randrange
            t0 = time.perf_counter()
            decisions = sum(finish(pos[i % starts].copy(), pick) for i in range(playouts))
            dt = time.perf_counter() - t0
            runs.append((playouts / dt, decisions / dt, decisions / playouts))
    return {
        "ruleset": rules.name,
        "playouts": playouts,
        "repeat": repeat,
        "playouts_per_s": statistics.median(r[0] for r in runs),
        "decisions_per_s": statistics.median(r[1] for r in runs),
        "decisions_per_playout": statistics.median(r[2] for r in runs),
        "runs": runs,
    }


@contextmanager
def frozen_heap(collect: bool = True) -> Iterator[None]:
    """Move what is alive now (the loaded rules, the compiled code) out of the garbage collector's
    sight while games are played, as a long-running process would: the collector then only scans
    the objects the games create. `collect` first collects what is already garbage (a few
    milliseconds on a large heap); without it, such garbage is frozen too and collected once the
    block has ended (unfreezing puts everything back)."""
    if collect:
        gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


# -- several processes ------------------------------------------------------------------------------


def _worker(spec: str, index: int, jobs: int, games: int, repeat: int, seed: int, barrier: Any, results: Any) -> None:
    """One process of `bench_jobs`: load the rules, warm up, then for each run wait for the others and
    play its own seeds; reports (run, games, decisions, start, end) with a clock all processes share."""
    try:
        rules = load_ruleset(spec)
        prepare(rules)
        playout(rules, seed - 1 - index, random.Random(index))
        with frozen_heap():
            for r in range(repeat):
                rnd = random.Random(seed + r * jobs + index)
                first = seed + (r * jobs + index) * games
                barrier.wait()
                t0, c0 = time.monotonic(), time.process_time()
                decisions = sum(playout(rules, first + i, rnd) for i in range(games))
                results.put((r, games, decisions, t0, time.monotonic(), time.process_time() - c0))
    except Exception as e:  # the parent reports it; a worker never prints a traceback
        barrier.abort()
        results.put(("error", str(e)))


def bench_jobs(spec: str, jobs: int, games: int = 300, repeat: int = 5, seed: int = 0) -> dict[str, Any]:
    """The raw engine path in `jobs` processes at once, each playing `games` games of its own seeds
    per run. A run's aggregate rate is all games over the time from the first start to the last end;
    the per-process rate is that divided by `jobs`; the CPU rate is each process's games over the
    processor time it got (what it does with a core of its own, whatever else the machine runs).
    Medians over the runs."""
    load_ruleset(spec)  # a bad spec is reported here, before any process starts
    ctx = multiprocessing.get_context()
    barrier = ctx.Barrier(jobs)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(spec, i, jobs, games, repeat, seed, barrier, results), daemon=True)
        for i in range(jobs)
    ]
    for p in procs:
        p.start()
    got: dict[int, list[tuple[Any, ...]]] = {}
    try:
        for _ in range(jobs * repeat):
            item = results.get(timeout=600)
            if item[0] == "error":
                raise CuttleError(f"a benchmark process failed: {item[1]}")
            got.setdefault(item[0], []).append(item[1:])
    finally:
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
    runs = []
    for r in sorted(got):
        parts = got[r]
        dt = max(x[3] for x in parts) - min(x[2] for x in parts)
        total_games, total_decisions = sum(x[0] for x in parts), sum(x[1] for x in parts)
        runs.append((total_games / dt, total_decisions / dt, statistics.median(x[0] / x[4] for x in parts)))
    agg = statistics.median(r[0] for r in runs)
    return {
        "ruleset": spec,
        "jobs": jobs,
        "games": games,
        "repeat": repeat,
        "games_per_s": agg,
        "decisions_per_s": statistics.median(r[1] for r in runs),
        "games_per_s_per_process": agg / jobs,
        "games_per_cpu_s": statistics.median(r[2] for r in runs),
        "runs": runs,
    }


# -- every shipped ruleset ----------------------------------------------------------------------------


def shipped_specs() -> list[tuple[str, str]]:
    """Every shipped ruleset by name with what is played for it: a base as it is, an option on the base
    it requires (`jokers` → `micro+jokers`, otherwise `default+OPTION`)."""
    return [(name, on_its_base(name)) for name in shipped_names()]


def compare(rules: Rules, games: int = 300, repeat: int = 5, seed: int = 0) -> dict[str, Any]:
    """Interleaved runs of this engine and the hand-written reference engine (benchmarks/), the
    same seeds for both; ratios are taken pair by pair, so a noisy machine disturbs them less."""
    handwritten = _reference_engine()

    mine, theirs, ratios = [], [], []
    for r in range(repeat):
        a = bench(rules, games, 1, seed + r)["games_per_s"]
        with frozen_heap():  # the same conditions for both
            b = handwritten.bench(games, 1, seed + r)["games_per_s"]
        mine.append(a)
        theirs.append(b)
        ratios.append(b / a)
    return {
        "interpreter": statistics.median(mine),
        "handwritten": statistics.median(theirs),
        "ratio": statistics.median(ratios),
        "ratios": ratios,
    }


def _reference_engine() -> ModuleType:
    """benchmarks/handwritten.py of a source checkout (it is not installed: it is a yardstick, not
    part of the product)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "handwritten.py"
    if not path.is_file():
        raise CuttleError("--compare needs a source checkout: benchmarks/handwritten.py was not found")
    spec = importlib.util.spec_from_file_location("cuttle_reference_engine", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module
