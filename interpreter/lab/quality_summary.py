"""The game-quality block of a summary (`quality`) and of a comparison, from the stored games: each
measure of quality.py over the games it is defined for, with its 95% interval.

- `advantage`: the first player's edge, p1's win rate minus p2's (the mean of +1 for a p1 win, −1
  for a p2 win, 0 otherwise).
- `drawishness`: the share of games with no winner (drawn, or cut off at the decision cap).
- `decisiveness`, `drama`: means over the games someone won; `lead_changes`, `uncertainty`: means
  over every game.
- `duration`: the mean length in turns and in real choices.

Each entry is {"value", "ci95", "games"} (`games`: how many games it is over); a comparison's entry
is {"a", "b", "difference", "ci95", "detectable", "games"}, paired over the game numbers both sides
define it for when the run's games are paired (its `a` and `b` then over those games too).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from . import quality, stats

Values = list[float | None]  # one per game, in game order; None where the measure is undefined

# name: (lowest, highest) value it can take, for clamping the normal intervals
BOUNDS: dict[str, tuple[float, float]] = {
    "advantage": (-1.0, 1.0),
    "drawishness": (0.0, 1.0),
    "decisiveness": (0.0, 1.0),
    "lead_changes": (0.0, math.inf),
    "drama": (0.0, math.inf),
    "uncertainty": (0.0, 1.0),
    "turns": (0.0, math.inf),
    "real_choices": (0.0, math.inf),
}
DURATION = ("turns", "real_choices")
RATES = ("drawishness",)  # a proportion: Wilson's interval, Newcombe's for a difference


def per_game(g: dict[str, list[Any]]) -> dict[str, Values]:
    """Each measure per game, from the columns winner, progress, turns and real_choices."""
    out: dict[str, Values] = {k: [] for k in BOUNDS}
    seat = {"p1": 0, "p2": 1}
    for winner, text, turns, real in zip(g["winner"], g["progress"], g["turns"], g["real_choices"], strict=True):
        w = seat.get(winner)
        leads = quality.leads_of(json.loads(text))
        out["advantage"].append(1.0 if w == 0 else -1.0 if w == 1 else 0.0)
        out["drawishness"].append(0.0 if w is not None else 1.0)
        out["decisiveness"].append(quality.decisiveness(leads, w))
        out["lead_changes"].append(float(quality.lead_changes(leads)) if leads else None)
        out["drama"].append(quality.drama(leads, w))
        out["uncertainty"].append(quality.uncertainty(leads))
        out["turns"].append(float(turns))
        out["real_choices"].append(float(real))
    return out


def _clamp(name: str, lo: float, hi: float) -> list[float]:
    low, high = BOUNDS[name]
    return [max(low, lo), min(high, hi)]


def _entry(name: str, xs: Values) -> dict[str, Any]:
    known = [x for x in xs if x is not None]
    if name in RATES:
        k = int(sum(known))
        lo, hi = stats.wilson(k, len(known))
        value = k / len(known) if known else math.nan
    else:
        value, lo, hi = stats.mean_ci(known)
    return {"value": value, "ci95": _clamp(name, lo, hi) if known else [math.nan, math.nan], "games": len(known)}


def _grouped(make: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {k: make(k) for k in BOUNDS if k not in DURATION}
    out["duration"] = {k: make(k) for k in DURATION}
    return out


def summary(g: dict[str, list[Any]]) -> dict[str, Any]:
    """The block `quality` of one ruleset's summary."""
    values = per_game(g)
    return _grouped(lambda k: _entry(k, values[k]))


def _difference(name: str, xa: Values, xb: Values, paired: bool) -> dict[str, Any]:
    a = [x for x in xa if x is not None]
    b = [x for x in xb if x is not None]
    if paired:
        pairs = [(x, y) for x, y in zip(xa, xb, strict=True) if x is not None and y is not None]
        a, b = [x for x, _ in pairs], [y for _, y in pairs]  # `a` and `b` over the same games
        d, lo, hi = stats.paired_diff(a, b)
        n = len(pairs)
    elif name in RATES:
        ka, kb = int(sum(a)), int(sum(b))
        lo, hi = stats.newcombe(ka, len(a), kb, len(b))
        d = (kb / len(b) if b else math.nan) - (ka / len(a) if a else math.nan)
        n = min(len(a), len(b))
    else:
        d, lo, hi = stats.welch_diff(a, b)
        n = min(len(a), len(b))
    return {
        "a": math.fsum(a) / len(a) if a else math.nan,
        "b": math.fsum(b) / len(b) if b else math.nan,
        "difference": d,
        "ci95": [lo, hi],
        "detectable": stats.excludes_zero(lo, hi),
        "games": n,
    }


def difference(ga: dict[str, list[Any]], gb: dict[str, list[Any]], paired: bool) -> dict[str, Any]:
    """The block `quality` of a comparison: B − A for each measure."""
    va, vb = per_game(ga), per_game(gb)
    return _grouped(lambda k: _difference(k, va[k], vb[k], paired))


def flat(block: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A quality block's entries of this module in order, duration's two as `turns` and
    `real_choices` (a measure declared in columns.py with the group `quality` sits there too)."""
    return [(k, block["duration"][k] if k in DURATION else block[k]) for k in BOUNDS]
