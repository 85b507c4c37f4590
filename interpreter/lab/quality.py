"""Game-quality measures of one game from its lead trace (issue 27 item 1, groundwork: not yet
stored per game nor summarised). After Browne (2008, "Automatic generation and evaluation of
recombination games": lead changes, drama, decisiveness, uncertainty) and Ludii's metrics.

A game's *lead* after each turn is p1's progress toward its goal minus p2's (score / goal each);
a positive lead is p1's, a negative one p2's, 0 a tie. `winner` is 0 (p1), 1 (p2) or None.
"""

from __future__ import annotations

from collections.abc import Sequence


def lead_changes(leads: Sequence[float]) -> int:
    """How many times the leader changes (ties are no leader and change nothing)."""
    changes, last = 0, 0
    for d in leads:
        side = (d > 0) - (d < 0)
        if side and last and side != last:
            changes += 1
        if side:
            last = side
    return changes


def _winner_lead(leads: Sequence[float], winner: int) -> list[float]:
    return [d if winner == 0 else -d for d in leads]


def decisiveness(leads: Sequence[float], winner: int | None) -> float | None:
    """The share of the game's turns played before the eventual winner leads for good: 0 when it
    leads from the first turn on, near 1 when it takes the lead only at the end; None for no winner."""
    if winner is None or not leads:
        return None
    w = _winner_lead(leads, winner)
    last_not_leading = max((i for i, d in enumerate(w) if d <= 0), default=-1)
    return (last_not_leading + 1) / len(w)


def drama(leads: Sequence[float], winner: int | None) -> float | None:
    """How far behind the eventual winner ever was, in progress toward the goal (0: never behind)."""
    if winner is None or not leads:
        return None
    return max(0.0, -min(_winner_lead(leads, winner)))


def uncertainty(leads: Sequence[float]) -> float | None:
    """How close the game stays: the mean over turns of 1 − |lead| (1: level throughout)."""
    if not leads:
        return None
    return sum(1 - min(1.0, abs(d)) for d in leads) / len(leads)


def progress(points: int, goal: int) -> float:
    """A player's progress toward its goal: points / goal (1 when the goal is 0 or less: reached)."""
    return 1.0 if goal <= 0 else points / goal


def leads_of(trace: Sequence[Sequence[int]]) -> list[float]:
    """A game's lead after each turn from its column `progress` (decoded): [p1 points, p1 goal, p2
    points, p2 goal] per turn."""
    return [progress(a, b) - progress(c, d) for a, b, c, d in trace]
