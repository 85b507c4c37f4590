"""The hand-set evaluation of a position: the generic terms `sharp`, `ismcts` and training start from.

Its terms — points still missing to the goal (the opponent's less one's own), an urgency growing as a
side nears its goal, cards in hand, non-point cards in play, seeing the other hand, and optional terms
off by default — were fitted once to game results on the default rules (docs/players.md). A ruleset's
learnt evaluation (players/features.py, players/learnt.py) has them as its first features.
Nothing here names a rank: point values come from the ruleset (`values:`), goals and scores from its
expressions.
"""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.core.cards import RANK_OF
from interpreter.engine.state import HAND0, State
from interpreter.engine.wincheck import points_goal_function
from interpreter.rules.model import Rules

from .sides import evaluate_table, permanents, score

WIN = 1000.0


@dataclass(frozen=True)
class SharpWeights:
    """The evaluation's terms: each a generic feature of a position."""

    need: float = 1.0  # each point still missing to one's goal
    urgency: float = 50.0  # urgency / (need + 1): weight growing as a side nears its goal
    hand: float = 5.0  # each card in hand
    in_play: float = 2.0  # each non-point card in play
    sees_hand: float = 0.4  # seeing the opponent's hand
    tempo: float = 0.0  # each point card a side still needs from its hand (off: it did not help)
    short: float = 0.0  # a side whose hand cannot cover what it lacks (off with tempo)
    reach: float = 0.0  # a side within one point card of its goal (its need at most the highest value)
    hand_value: float = 0.0  # each point of value (the ruleset's `values`) of the cards in hand


DEFAULT_SHARP = SharpWeights()


def card_values(rules: Rules) -> list[int]:
    """Each card's point value in `rules` (its `values:`), by card, then the highest value (made once
    per ruleset, kept in `rules.engine_cache`)."""
    vals = rules.engine_cache.get("card_values")
    if vals is None:
        table = rules.values
        vals = [int(table.get(r, 0)) for r in RANK_OF]
        vals.append(max(vals, default=0))
        rules.engine_cache["card_values"] = vals
    return vals


def _tempo(hand: list[int], vals: list[int], need: int) -> tuple[int, int]:
    """(point cards needed from `hand` to cover `need`, highest first; what is still missing after all)."""
    if need <= 0:
        return 0, 0
    n = 0
    for v in sorted((vals[c] for c in hand), reverse=True):
        if v <= 0:
            break
        need -= v
        n += 1
        if need <= 0:
            return n, 0
    return n, need


def evaluate(g: State, me: int, w: SharpWeights, vals: list[int]) -> float:
    """A position from `me`'s side, from generic features only (a won game is +WIN, a lost one -WIN)."""
    if g.winner is not None:
        return score(g, me)
    rules = g.rules
    pg = points_goal_function(rules)
    if rules.seats > 2:  # against the strongest opponent (players/sides.py)
        return evaluate_table(g, me, w, pg)
    opp = 1 - me
    if pg is not None:
        s_me, goal_me = pg(g, me)
        s_opp, goal_opp = pg(g, opp)
        need_me, need_opp = max(goal_me - s_me, 0), max(goal_opp - s_opp, 0)
    else:
        need_me = max(rules.goal_of(g, me) - rules.score_of(g, me), 0)
        need_opp = max(rules.goal_of(g, opp) - rules.score_of(g, opp), 0)
    v = w.need * (need_opp - need_me) + w.urgency * (1.0 / (need_me + 1) - 1.0 / (need_opp + 1))
    hand_me, hand_opp = g.zones[HAND0 + me], g.zones[HAND0 + opp]
    v += w.hand * (len(hand_me) - len(hand_opp))
    if w.hand_value:
        v += w.hand_value * (sum(vals[c] for c in hand_me) - sum(vals[c] for c in hand_opp))
    if w.reach:
        top = vals[-1]
        v += w.reach * ((0 < need_me <= top) - (0 < need_opp <= top))
    v += w.in_play * (permanents(g, me) - permanents(g, opp))
    if w.tempo or w.short:
        n_me, miss_me = _tempo(hand_me, vals, need_me)
        n_opp, miss_opp = _tempo(hand_opp, vals, need_opp)
        v += w.tempo * (n_opp - n_me) + w.short * ((miss_opp > 0) - (miss_me > 0))
    if rules.hand_visible(g, me):
        v += w.sees_hand
    if rules.hand_visible(g, opp):
        v -= w.sees_hand
    return v
