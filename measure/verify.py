"""Re-check df-pn's wins on whole Micro deals by walking each proof over the real engine: at the
winner's decisions one proven move, at the loser's every legal move, down to a won end of the game.

    python measure/verify.py SEED...
"""

import sys

from interpreter import Game, load_ruleset
from interpreter.engine.machine import apply_action, legal_actions
from interpreter.players.solver import Solver

rules = load_ruleset("micro")


def walk(solver: Solver, g, winner: int, seen: set) -> int:
    """Positions walked; raises AssertionError if the proof does not hold here."""
    if g.winner is not None:
        assert g.winner == winner, "a leaf of the proof is not a win"
        return 0
    key = solver.key(g)
    if key in seen:
        return 0
    seen.add(key)
    acts = legal_actions(g)
    if g.pending.player == winner:
        for a in acts:
            c = g.copy()
            apply_action(c, a)
            if c.winner == winner or solver._known(c, winner) == 1:  # noqa: SLF001
                return 1 + walk(solver, c, winner, seen)
        raise AssertionError("no proven move for the winner")
    total = 1
    for a in acts:
        c = g.copy()
        apply_action(c, a)
        total += walk(solver, c, winner, seen)
    return total


for seed in map(int, sys.argv[1:]):
    state = Game.new(rules, seed).state
    solver = Solver(100_000, 1e9)
    s = solver.solve(state)
    assert s.complete and s.value == 1
    n = walk(solver, state, s.player, set())
    print(seed, f"p{s.player + 1} win re-checked over {n} positions", flush=True)
