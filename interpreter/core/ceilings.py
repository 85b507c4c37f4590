"""Every number given on a command line (or in a player's spec, `ismcts?iterations=4000`) is checked
here, against its range, before anything uses it: one line names the option, the range and the limit
(`--games must be a whole number from 1 to 1,000,000 (MAX_GAMES), not 0`), never a traceback or an
internal error later (`--games 10**20` was an OverflowError; `exploration=nan` crashed inside a player).
The ranges of the `cuttle` options are the table RANGES; the limits are in core/limits.py."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

from .errors import CuttleError
from .limits import MAX_GAMES, MAX_JOBS, MAX_MOVES, MAX_NODES, MAX_REPEAT, MAX_SECONDS, MAX_SEED


class OptionError(CuttleError):
    """A number out of its range, or not a number."""


# option -> (lowest, highest, the limit's name); a float's range as floats
RANGES: dict[str, tuple[int | float, int | float, str]] = {
    "--games": (1, MAX_GAMES, "MAX_GAMES"),
    "--jobs": (1, MAX_JOBS, "MAX_JOBS"),
    "--seed": (-MAX_SEED, MAX_SEED, "MAX_SEED"),
    "--repeat": (1, MAX_REPEAT, "MAX_REPEAT"),
    "--max-decisions": (1, MAX_MOVES, "MAX_MOVES"),
    "--nodes": (1, MAX_NODES, "MAX_NODES"),
    "--seconds": (0.001, float(MAX_SECONDS), "MAX_SECONDS"),
    # cuttle train: a CPU budget of at least a second, rounds and games as any count of games
    "--budget": (1.0, float(MAX_SECONDS), "MAX_SECONDS"),
    "--rounds": (1, MAX_REPEAT, "MAX_REPEAT"),
    "--duel": (2, MAX_GAMES, "MAX_GAMES"),
    "--gain": (2, MAX_GAMES, "MAX_GAMES"),
}
_DIGITS = 30  # longer text is not read as a number at all (int() of 10**6 digits takes seconds)


def _range(lo: int | float, hi: int | float, limit: str | None) -> str:
    return f"from {lo:,} to {hi:,}" + (f" ({limit})" if limit else "")


def whole(value: Any, option: str, lo: int | None = None, hi: int | None = None, limit: str | None = None) -> int:
    """`value` (a number or its text) as a whole number within [lo, hi] (by default the option's own
    range in RANGES), or OptionError naming the option and the range."""
    if lo is None or hi is None:
        lo, hi, limit = (int(x) if isinstance(x, float) else x for x in RANGES[option])  # type: ignore[assignment]
    assert lo is not None and hi is not None
    text = str(value).strip().replace("_", "")
    n: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    elif len(text) <= _DIGITS:
        try:
            n = int(text)
        except ValueError:
            n = None
    if n is None:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise OptionError(f"{option} takes a whole number {_range(lo, hi, limit)}, not '{shown}'")
    if not lo <= n <= hi:
        shown = f"{n:,}" if len(str(abs(n))) <= 40 else f"{str(n)[:20]}... ({len(str(abs(n)))} digits)"
        raise OptionError(f"{option} must be a whole number {_range(lo, hi, limit)}, not {shown}")
    return n


def real(value: Any, option: str, lo: float | None = None, hi: float | None = None, limit: str | None = None) -> float:
    """`value` (a number or its text) as a finite number within [lo, hi] (by default the option's own
    range in RANGES), or OptionError naming the option and the range (`nan` and `inf` are refused)."""
    if lo is None or hi is None:
        lo, hi, limit = (float(x) if not isinstance(x, str) else x for x in RANGES[option])  # type: ignore[assignment]
    assert lo is not None and hi is not None
    text = str(value).strip()
    x: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        x = float(value) if abs(value) < 1e308 or isinstance(value, float) else math.inf
    elif len(text) <= 2 * _DIGITS:
        try:
            x = float(text)
        except ValueError:
            x = None
    if x is None:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise OptionError(f"{option} takes a number {_range(lo, hi, limit)}, not '{shown}'")
    if not (math.isfinite(x) and lo <= x <= hi):
        raise OptionError(f"{option} must be a number {_range(lo, hi, limit)}, not {text if len(text) <= 40 else x}")
    return x


def arg_type(option: str) -> Callable[[str], int | float]:
    """The argparse `type` of an option of RANGES: its text checked as `whole` (or `real`) checks it."""
    check = real if isinstance(RANGES[option][0], float) else whole

    def convert(text: str) -> int | float:
        try:
            return check(text, option)
        except OptionError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return convert


__all__ = ["OptionError", "RANGES", "whole", "real", "arg_type"]
