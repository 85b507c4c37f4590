"""`cuttle bench`: random playouts on one core — games per second and decisions per second."""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager

from interpreter.core.errors import CuttleError, rule_failure
from interpreter.engine.machine import apply_action, deal, legal_actions
from interpreter.rules import Rules

MAX_DECISIONS = 20000


def playout(rules: Rules, seed: int, rnd: random.Random) -> int:
    """One random game from a seeded deal; returns the number of decisions made."""
    try:
        g = deal(rules, seed)
        n = 0
        while g.winner is None and n < MAX_DECISIONS:
            acts = legal_actions(g)
            apply_action(g, acts[rnd.randrange(len(acts))])
            n += 1
    except CuttleError:
        raise
    except Exception as e:
        raise rule_failure(rules.name, f"playing a random game (seed {seed})", e) from None
    return n


def bench(rules: Rules, games: int = 500, repeat: int = 5, seed: int = 0) -> dict:
    with frozen_heap():
        return _bench(rules, games, repeat, seed)


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Move what is alive now (the loaded rules, the compiled code) out of the garbage collector's
    sight while games are played, as a long-running process would: the collector then only scans
    the objects the games create."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _bench(rules: Rules, games: int, repeat: int, seed: int) -> dict:
    runs = []
    for r in range(repeat):
        rnd = random.Random(seed + r)
        t0 = time.perf_counter()
        decisions = sum(playout(rules, seed + r * games + i, rnd) for i in range(games))
        dt = time.perf_counter() - t0
        runs.append((games / dt, decisions / dt, decisions / games))
    return {
        "ruleset": rules.name, "games": games, "repeat": repeat,
        "games_per_s": statistics.median(r[0] for r in runs),
        "decisions_per_s": statistics.median(r[1] for r in runs),
        "decisions_per_game": statistics.median(r[2] for r in runs),
        "runs": runs,
    }


def compare(rules: Rules, games: int = 300, repeat: int = 5, seed: int = 0) -> dict:
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
    return {"interpreter": statistics.median(mine), "handwritten": statistics.median(theirs),
            "ratio": statistics.median(ratios), "ratios": ratios}


def _reference_engine():
    """benchmarks/handwritten.py of a source checkout (it is not installed: it is a yardstick, not
    part of the product)."""
    import importlib.util
    from pathlib import Path

    from interpreter.core.errors import CuttleError

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "handwritten.py"
    if not path.is_file():
        raise CuttleError("--compare needs a source checkout: benchmarks/handwritten.py was not found")
    spec = importlib.util.spec_from_file_location("cuttle_reference_engine", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module
