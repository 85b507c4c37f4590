"""The random player's generator: uniform picks among n moves from a seed, cheap to start and to draw.

`Picks(seed)` reads 32-bit numbers from SHAKE-128 of the seed (64 numbers per digest, the next
digest when they run out) and maps each to a pick with `(number * n) >> 32`: no generator state to
build (Mersenne Twister's seeding costs more than a short random game's recording), one C iterator
step per pick, and the same picks from the same seed in every process and on every machine (the
numbers are read little-endian whatever the processor). A pick's bias is at most n / 2**32.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable
from functools import partial
from hashlib import shake_128
from itertools import chain, count

BLOCK = 64  # numbers per digest
_CODE = next(c for c in "IL" if array(c).itemsize == 4)  # a 32-bit unsigned array


def _block(seed: int, i: int) -> array:
    """The `i`-th block of 32-bit numbers of the stream seeded `seed`."""
    a = array(_CODE, shake_128(b"cuttle-picks:%d:%d" % (seed, i)).digest(4 * BLOCK))
    if sys.byteorder == "big":
        a.byteswap()
    return a


class Picks:
    """Uniform picks from a seed: `randrange(n)` is in range(n); `draw()` the next 32-bit number
    (a pick among n is `(draw() * n) >> 32`, which is what `randrange` returns)."""

    __slots__ = ("draw",)

    def __init__(self, seed: int) -> None:
        self.draw: Callable[[], int] = chain.from_iterable(map(partial(_block, seed), count())).__next__

    def randrange(self, n: int) -> int:
        return (self.draw() * n) >> 32
