"""Determinism: the same seed and moves give the same game in any process, whatever PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import random
from interpreter import Game, load_ruleset
game = Game.new(load_ruleset("default"), 77)
rnd = random.Random(77)
for _ in range(2000):
    if game.outcome is not None:
        break
    moves = game.legal_moves()
    game.play(moves[rnd.randrange(len(moves))])
assert game.outcome is not None, "the game did not end within 2000 moves"
print(" | ".join(str(m) for m in game.moves))
print(game.state.key()[:11], game.state.rng.s, game.view(0), game.view(1))
"""


def _run(hashseed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, check=True,
                         timeout=120)
    return out.stdout


def test_same_game_under_different_hash_seeds() -> None:
    a, b = _run("1"), _run("12345")
    assert a == b and a.count("|") > 10
    # the whole state is printed: the generator, both views (hands, scores, the scrap), the key
    assert "'hand': [" in a and "'scrap': [" in a
