"""Determinism: the same seed and moves give the same game in any process, whatever PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

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
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, check=True, timeout=120
    )
    return out.stdout


@pytest.mark.slow
def test_same_game_under_different_hash_seeds() -> None:
    a, b = _run("1"), _run("12345")
    assert a == b and a.count("|") > 10
    # the whole state is printed: the generator, both views (hands, scores, the scrap), the key
    assert "hand=(" in a and "scrap=(" in a


def _drawn_one_by_one(items: list, seed: int) -> tuple[list, int]:
    """Fisher-Yates from the end with `Rng.below`, one draw at a time: what `Rng.shuffle` must equal."""
    from interpreter.engine.state import Rng

    rng = Rng(seed)
    items = items[:]
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items, rng.s


def test_a_shuffle_draws_what_drawing_one_by_one_draws() -> None:
    """The shuffle works out a long list's draws all at once (64-bit lanes of one integer): the same
    order and the same generator state after it as drawing each index in turn, for every length (short
    lists are drawn one by one, long ones at once) and for seeds at the edges of 64 bits."""
    import random

    from interpreter.engine.state import Rng

    rnd = random.Random(10)
    seeds = [0, 1, (1 << 64) - 1, (1 << 64) - 0x9E3779B97F4A7C15] + [rnd.getrandbits(64) for _ in range(30)]
    for n in [*range(0, 70), 120, 230]:
        for seed in seeds[: 34 if n <= 60 else 6]:
            items = list(range(n))
            got = Rng(seed)
            shuffled = items[:]
            got.shuffle(shuffled)
            assert (shuffled, got.s) == _drawn_one_by_one(items, seed), (n, seed)


def test_the_deal_of_a_seed_is_pinned() -> None:
    """A seed's deck order never changes (records and scenarios store seeds, not decks)."""
    from interpreter.engine.state import Rng

    deck = list(range(52))
    Rng(2026).shuffle(deck)
    assert deck == [
        33,
        38,
        16,
        43,
        21,
        26,
        7,
        20,
        13,
        47,
        14,
        15,
        22,
        12,
        42,
        45,
        30,
        39,
        48,
        51,
        18,
        41,
        25,
        0,
        36,
        19,
        8,
        35,
        17,
        49,
        50,
        4,
        28,
        3,
        2,
        1,
        46,
        23,
        40,
        32,
        31,
        44,
        5,
        24,
        37,
        6,
        29,
        9,
        10,
        34,
        11,
        27,
    ]  # as the shuffle drawing one index at a time dealt it before
