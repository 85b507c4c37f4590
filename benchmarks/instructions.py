"""Instructions per game under valgrind's callgrind: a measure that a busy machine does not disturb.

Each path is run twice in a fresh interpreter under callgrind, once playing `--games` seeded games
and once playing none (both after the same warm-up game and the ruleset loaded), with
`PYTHONHASHSEED=0`; the difference over the number of games is the cost of a game:

    python -m benchmarks.instructions                      # raw path, default rules, and the hand-written engine
    python -m benchmarks.instructions raw api search lab   # any of: raw, handwritten, api, search, lab, lab-games
    python -m benchmarks.instructions raw --ruleset twinned --games 200

`raw` is `cuttle bench`'s path, `handwritten` the engine of benchmarks/handwritten.py on the same
seeds, `api` the `Game` API path (`cuttle bench --api`), `search` the playouts of `cuttle bench
--search` (a position copied, then played out), `lab` one core of `cuttle sim` (random against
random, with the recorder of legal and chosen plays). Needs valgrind on the PATH.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

PATHS = ("raw", "handwritten", "api", "search", "lab", "lab-games")


def _games(path: str, spec: str, games: int) -> None:
    """Play `games` games of `path` (after one warm-up game): the child process's work."""
    if path == "handwritten":
        from benchmarks import handwritten as hw

        hw.playout(10**6, random.Random(5))
        rnd = random.Random(0)
        for i in range(games):
            hw.playout(i, rnd)
        return
    from interpreter.engine.machine import prepare
    from interpreter.lab.bench import api_playout, finish, playout, positions
    from interpreter.rules import load_ruleset
    from interpreter.rules.load import on_its_base

    rules = load_ruleset(on_its_base(spec))
    prepare(rules)  # every generated function, before the warm-up game
    if path == "raw":
        playout(rules, 10**6, random.Random(5))
        rnd = random.Random(0)
        for i in range(games):
            playout(rules, i, rnd)
    elif path == "api":
        api_playout(rules, 10**6, random.Random(5))
        rnd = random.Random(0)
        for i in range(games):
            api_playout(rules, i, rnd)
    elif path == "search":
        pos = positions(rules, 20, 0)
        pick = random.Random(0).randrange
        finish(pos[0].copy(), pick)
        for i in range(games):
            finish(pos[i % 20].copy(), pick)
    elif path == "lab":  # the play phase of `cuttle sim` on one core, without the database
        from interpreter.lab.games import play_game
        from interpreter.lab.job import game_seed, rules_of
        from interpreter.lab.sim import prepare

        job = prepare([spec], ("random", "random"), 0)
        rules = rules_of(job.sides[0])  # the lab's own copy, as `cuttle sim` plays it
        play_game(rules, -1, game_seed(1, 0), job.players, job.max_decisions)
        for i in range(games):
            play_game(rules, i, game_seed(job.seed, i), job.players, job.max_decisions)
    else:  # lab-games: the lab's games (its seeds, its players' generators) on the raw path, nothing recorded
        from interpreter.engine.machine import deal
        from interpreter.engine.state import State
        from interpreter.lab.job import game_seed, player_seed, rules_of
        from interpreter.lab.sim import prepare
        from interpreter.players.picks import Picks

        job = prepare([spec], ("random", "random"), 0)
        rules = rules_of(job.sides[0])
        for i in [-1, *range(games)]:
            seed = game_seed(1 if i < 0 else job.seed, max(i, 0))
            rngs = (Picks(player_seed(seed, 0)), Picks(player_seed(seed, 1)))
            g: State = deal(rules, seed)
            finish(g, lambda n, g=g, rngs=rngs: rngs[g.pending.player].randrange(n), job.max_decisions)


def _count(path: str, spec: str, games: int) -> int:
    """Instructions of a child process playing `games` games of `path`, as callgrind counts them."""
    out = tempfile.mkdtemp(prefix="cuttle-callgrind-")
    try:
        log = os.path.join(out, "cg.out")
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={log}",
            sys.executable,
            "-m",
            "benchmarks.instructions",
            "--child",
            path,
            "--ruleset",
            spec,
            "--games",
            str(games),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        run = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        m = re.search(r"Collected : (\d+)", run.stderr)
        if run.returncode != 0 or not m:
            raise SystemExit(f"callgrind failed on {path}: {run.stderr[-2000:]}")
        return int(m.group(1))
    finally:
        shutil.rmtree(out, ignore_errors=True)


def per_game(path: str, spec: str, games: int) -> float:
    """Instructions per game of `path`: (games played - none played) / games."""
    return (_count(path, spec, games) - _count(path, spec, 0)) / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help=f"{', '.join(PATHS)} (default: raw handwritten)")
    ap.add_argument("--ruleset", default="default")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        _games(a.child, a.ruleset, a.games)
        return 0
    if shutil.which("valgrind") is None:
        ap.error("valgrind was not found on the PATH")
    bad = [p for p in a.paths if p not in PATHS]
    if bad:
        ap.error(f"unknown path {bad[0]!r}: choose from {', '.join(PATHS)}")
    counts = {}
    for path in a.paths or ("raw", "handwritten"):
        counts[path] = per_game(path, a.ruleset, a.games)
        print(f"{path:12s} {a.ruleset}: {counts[path]:,.0f} instructions per game ({a.games} games)", flush=True)
    if "raw" in counts and "handwritten" in counts:
        print(f"ratio raw / handwritten: {counts['raw'] / counts['handwritten']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
