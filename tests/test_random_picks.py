"""The random player's generator (players/picks.py): seeded, the same on every machine, uniform."""

from __future__ import annotations

from collections import Counter
from hashlib import shake_128

from interpreter import make_player
from interpreter.players.picks import BLOCK, Picks


def _numbers(seed: int, count: int) -> list[int]:
    """The stream as its definition says: SHAKE-128 of 'cuttle-picks:SEED:BLOCK', little-endian 32-bit words."""
    out: list[int] = []
    block = 0
    while len(out) < count:
        data = shake_128(b"cuttle-picks:%d:%d" % (seed, block)).digest(4 * BLOCK)
        out += [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]
        block += 1
    return out[:count]


def test_picks_follow_the_definition_across_blocks() -> None:
    p = Picks(7)
    n = 3 * BLOCK + 5  # several digests
    assert [p.draw() for _ in range(n)] == _numbers(7, n)


def test_a_pick_among_n_is_in_range_and_the_same_for_the_same_seed() -> None:
    a, b = Picks(123), Picks(123)
    picks = [a.randrange(n) for n in range(1, 200)]
    assert picks == [b.randrange(n) for n in range(1, 200)]
    assert all(0 <= k < n for k, n in zip(picks, range(1, 200), strict=True))
    other = Picks(124)
    assert [other.randrange(1000) for _ in range(20)] != [Picks(123).randrange(1000) for _ in range(20)]


def test_picks_are_uniform() -> None:
    p = Picks(5)
    counts = Counter(p.randrange(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(abs(c - 10_000) < 500 for c in counts.values())  # about 5 standard deviations


def test_the_random_player_picks_with_them() -> None:
    player, picks = make_player("random", seed=42), Picks(42)
    assert [player.rng.randrange(10) for _ in range(30)] == [picks.randrange(10) for _ in range(30)]
