"""The design lab's speed, measured the way docs/lab.md reports it (a source checkout only).

    python -m benchmarks.lab one-core [--games 1000] [--repeat 7]   # lab (--jobs 1) against `cuttle bench`
    python -m benchmarks.lab scaling  [--games 2000] [--repeat 5]   # --jobs 2 against --jobs 1
    python -m benchmarks.lab players  [--games 20]                  # games/s for each kind of player

Runs are interleaved and medians are quoted, because the machine may be shared: each line also
shows the load average. `one-core` compares CPU time as well as wall time (CPU time is what a
busy machine disturbs least). `scaling` also gives the speed-up the CPU times predict for an idle
machine: one process's CPU time over half of everything the two workers and the parent used.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from interpreter.engine.machine import prepare as prepare_engine
from interpreter.lab.bench import frozen_heap, playout
from interpreter.lab.catalog import catalog_of
from interpreter.lab.job import rules_of
from interpreter.lab.sim import play, prepare
from interpreter.lab.store import Store
from interpreter.players import players as registered
from interpreter.rules import load_ruleset


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def lab_run(spec: str, games: int, seed: int, jobs: int, players: tuple[str, str] = ("random", "random")) -> dict:
    """The play phase of `cuttle sim` (games into a database file), timed."""
    out = Path(tempfile.mkdtemp(prefix="lab-bench-"))
    try:
        job = prepare([spec], players, seed)
        store = Store.open(job, [catalog_of(rules_of(s)) for s in job.sides], out)
        c0, k0, w0 = time.process_time(), _children_cpu(), time.perf_counter()
        played, _, _, _ = play(job, games, store, jobs)
        wall, cpu, kids = time.perf_counter() - w0, time.process_time() - c0, _children_cpu() - k0
        decisions = store.query("SELECT sum(decisions) FROM games")[0][0] or 0
        store.close()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return {"games": played, "decisions": decisions, "wall": wall, "cpu": cpu, "children": kids}


def one_core(a: argparse.Namespace) -> None:
    """The lab's whole play phase (`cuttle sim --jobs 1`: recording and storing every game) against
    the bench's games (as `cuttle bench` times them), interleaved; in games per second and, since the
    two play different random games (their own seeds and generators) whose lengths differ by a few
    percent from one sample to the next, in decisions per second too."""
    rules = load_ruleset(a.ruleset)
    ratios_wall, ratios_cpu, ratios_dec, lab_gps, bench_gps = [], [], [], [], []
    prepare_engine(rules)  # every generated function, as `cuttle bench` has them
    playout(rules, -1, random.Random(0))  # whatever else the engine builds on first use
    for r in range(a.repeat):
        with frozen_heap():  # as `cuttle bench` times its runs: the games only, the heap frozen first
            rnd = random.Random(r)
            c0, w0 = time.process_time(), time.perf_counter()
            decisions = sum(playout(rules, r * a.games + i, rnd) for i in range(a.games))
            bw, bc = time.perf_counter() - w0, time.process_time() - c0
        lab = lab_run(a.ruleset, a.games, r, 1)  # the whole play phase of `cuttle sim`, storing included
        ratios_wall.append(bw / lab["wall"])
        ratios_cpu.append(bc / lab["cpu"])
        ratios_dec.append((lab["decisions"] / lab["cpu"]) / (decisions / bc))
        lab_gps.append(a.games / lab["cpu"])
        bench_gps.append(a.games / bc)
        print(
            f"  bench {a.games / bw:7.0f} games/s wall {a.games / bc:7.0f} cpu | lab {a.games / lab['wall']:7.0f} "
            f"wall {a.games / lab['cpu']:7.0f} cpu | lab/bench wall {ratios_wall[-1]:.3f} cpu {ratios_cpu[-1]:.3f}"
            f" decisions/s (cpu) {ratios_dec[-1]:.3f}  ({_load()})",
            flush=True,
        )
    print(
        f"{a.ruleset}, {a.repeat} interleaved pairs of {a.games} random games: median games/s (CPU) bench "
        f"{statistics.median(bench_gps):.0f}, lab {statistics.median(lab_gps):.0f}; lab/bench median "
        f"{statistics.median(ratios_cpu):.3f} by CPU time, {statistics.median(ratios_wall):.3f} by wall time, "
        f"{statistics.median(ratios_dec):.3f} in decisions per second of CPU time"
    )


def scaling(a: argparse.Namespace) -> None:
    walls, predicted = [], []
    for r in range(a.repeat):
        one = lab_run(a.ruleset, a.games, r, 1)
        two = lab_run(a.ruleset, a.games, r, 2)
        walls.append(one["wall"] / two["wall"])
        predicted.append(one["cpu"] / ((two["children"] + two["cpu"]) / 2))
        print(
            f"  --jobs 1 {a.games / one['wall']:7.0f} games/s | --jobs 2 {a.games / two['wall']:7.0f} games/s | "
            f"speed-up {walls[-1]:.2f} (CPU: workers {two['children']:.2f} s + parent {two['cpu']:.2f} s "
            f"for {one['cpu']:.2f} s on one core: {predicted[-1]:.2f} on an idle machine)  ({_load()})",
            flush=True,
        )
    print(
        f"{a.ruleset}, {a.repeat} interleaved pairs of {a.games} random games: --jobs 2 / --jobs 1 median "
        f"{statistics.median(walls):.2f} measured, {statistics.median(predicted):.2f} predicted from CPU times"
    )


def kinds(a: argparse.Namespace) -> None:
    names = [n for n in registered() if ":" not in n]
    pairs = (
        [("random", "random")]
        + [(n, "random") for n in names if n != "random"]
        + [(n, n) for n in names if n != "random"]
    )
    for p in pairs:
        games = a.games * 50 if p == ("random", "random") else a.games
        r = lab_run(a.ruleset, games, 0, 1, p)
        print(
            f"  {p[0]} vs {p[1]}: {games / r['cpu']:.2f} games/s per core (CPU), {games / r['wall']:.2f} wall, "
            f"{games} games  ({_load()})",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.lab", description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["one-core", "scaling", "players"])
    ap.add_argument("--ruleset", default="default")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=None)
    a = ap.parse_args()
    defaults = {"one-core": (1000, 7), "scaling": (2000, 5), "players": (20, 1)}[a.what]
    a.games = a.games or defaults[0]
    a.repeat = a.repeat or defaults[1]
    {"one-core": one_core, "scaling": scaling, "players": kinds}[a.what](a)


if __name__ == "__main__":
    main()
