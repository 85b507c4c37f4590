"""Solve the Micro deals of seeds FIRST..LAST (as `cuttle solve micro --seed N --nodes NODES`), one line each:
seed, result for p1, best move, nodes, CPU seconds, wall seconds, and the root's numbers when the budget ran out.

    python measure/solve_deals.py FIRST LAST NODES [RULESET] [CARDS_LEFT]

With CARDS_LEFT, each deal is first played at random (seeded) until at most that many cards are in the hands.
"""

import gc
import os
import sys
import time

sys.path.insert(0, os.getcwd())

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.players.solver import Solver  # noqa: E402
from tests.test_solver import small_positions  # noqa: E402

first, last, nodes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
spec = sys.argv[4] if len(sys.argv) > 4 else "micro"
rules = load_ruleset(spec)
for seed in range(first, last + 1):
    if len(sys.argv) > 5:
        found = small_positions(spec, range(seed, seed + 1), int(sys.argv[5]))
        if not found:
            print(seed, "over", flush=True)
            continue
        state = found[0].state
    else:
        state = Game.new(rules, seed).state
    c0, w0 = time.process_time(), time.perf_counter()
    solver = Solver(nodes, 1e9)
    s = solver.solve(state)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    value = None if s.value is None else s.value if s.player == 0 else -s.value
    result = {None: "unknown", 1: "p1", -1: "p2", 0: "draw"}[value]
    key = solver.key(state)
    roots = [t.get(key) for t in solver.proofs.tables]
    print(seed, result, str(s.move).replace(" ", "_"), s.nodes, f"{cpu:.2f}", f"{wall:.2f}",
          "" if s.complete else f"p1wins={roots[0]} p2wins={roots[1]}", flush=True)
    del solver, s
    gc.collect()
