"""What the players need to play at a table of more than two seats (SPEC rulings 21-26): who won for a
seat (a team wins together), whose choices a search takes at best (the seat's and its partners') and at
worst (every opponent's), and the evaluation of a position for one seat.

The evaluation of a larger table (`evaluate_table`) has the two-player terms of heuristic.py and
sharp.py, each seat's side against its **strongest opponent** (the one with the fewest points still
missing to their goal): the points still missing (for a team, those of the partner nearest to the goal:
a team wins when either partner does), the urgency near a goal, the cards in hand and in play of the
seat against that opponent's, and the hands each sees. A two-seat game never comes here: its players
evaluate as they always did (the same numbers, move for move).
"""

from __future__ import annotations

from typing import Any

from interpreter.core.zones import DRAW, FIELDS, HANDS
from interpreter.engine.state import State

WIN = 1000.0


def won(g: State, p: int) -> bool:
    """Whether seat `p` won the finished game (alone, or with its team)."""
    o = g.outcome
    return o is not None and p in o.winners


def score(g: State, p: int) -> float:
    """A finished game for seat `p`: +WIN won, -WIN lost, 0 a draw."""
    if g.winner == DRAW:
        return 0.0
    return WIN if won(g, p) else -WIN


def ours(g: State, me: int, player: int) -> bool:
    """Whether `player`'s choices are taken at best by `me`'s search: its own, and its partners'."""
    return g.rules.teams[player] == g.rules.teams[me]


def needs(g: State, pg: Any = None) -> list[int]:
    """Each seat's points still missing to its goal (0 at or past it)."""
    rules = g.rules
    out = []
    for s in range(rules.seats):
        if pg is not None:
            have, goal = pg(g, s)
        else:
            have, goal = rules.score_of(g, s), rules.goal_of(g, s)
        out.append(max(goal - have, 0))
    return out


def permanents(g: State, p: int) -> int:
    """Cards in play on p's side that are neither point cards nor attached to one."""
    return sum(1 for c in g.zones[FIELDS[p]] if g.host[c] < 0 and g.role[c] != "point")


def evaluate_table(g: State, me: int, w: Any, pg: Any = None) -> float:
    """A position of a larger table from `me`'s side (see the module doc); `w` has the weights `need`,
    `urgency`, `hand`, `in_play`, `sees_hand` (and `reach`, `hand_value` when set)."""
    if g.winner is not None:
        return score(g, me)
    rules = g.rules
    miss = needs(g, pg)
    need_us = min(miss[s] for s in rules.team_seats[me])
    rival = min(rules.opponents_of[me], key=lambda s: miss[s])
    need_them = miss[rival]
    v = w.need * (need_them - need_us) + w.urgency * (1.0 / (need_us + 1) - 1.0 / (need_them + 1))
    v += w.hand * (len(g.zones[HANDS[me]]) - len(g.zones[HANDS[rival]]))
    v += w.in_play * (permanents(g, me) - permanents(g, rival))
    if getattr(w, "reach", 0.0):
        top = max(rules.values.values(), default=0)
        v += w.reach * ((0 < need_us <= top) - (0 < need_them <= top))
    sees = sum(rules.hand_visible(g, me, o) for o in rules.opponents_of[me])
    seen = sum(rules.hand_visible(g, o, me) for o in rules.opponents_of[me])
    return v + w.sees_hand * (sees - seen) / len(rules.opponents_of[me])


__all__ = ["WIN", "won", "score", "ours", "needs", "evaluate_table"]
