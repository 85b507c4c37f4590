"""`sharp`: a fast competent player — a shallow determinized search with a sharper evaluation.

Like the heuristic player (heuristic.py) it sees only its own view: it re-deals every card it
cannot see (players/sampling.py) into a few worlds, plays each legal move in each, follows the
rest of the turn (its own follow-ups at best, the opponent's answers — counters, discards — at
worst for it) and scores what it reaches. It differs in what it scores and what it skips:

- the evaluation's weights were fitted to game results (a logistic regression of the winner on the
  features, benchmarks/fit_evaluation.py; docs/players.md): relative to the points still missing,
  the urgency near a goal, the cards in hand (5 a card against the heuristic's 0.9) and the cards in
  play weigh about four times what was set by hand; ISMCTS scores its leaves with this evaluation;
- it follows the opponent's next action two decisions deep (the heuristic player follows it four)
  within a smaller node budget (300 against 2,000), so it spends less per move;
- optional terms, off by default: *tempo* (`tempo`, `short`: how many point cards each side still
  needs from its hand, and whether its hand can cover it), `reach` (a side within one point card of
  its goal) and `hand_value` (the point values of the cards in hand).

Nothing here names a rank: point values come from the ruleset (`values:`), goals and scores from
its expressions, so the same code plays every ruleset and house rule.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from interpreter.core.cards import RANK_OF
from interpreter.engine.game import Game
from interpreter.engine.machine import MAIN, enumerate_actions, legal_actions
from interpreter.engine.machine import apply_action as _apply
from interpreter.engine.moves import Move
from interpreter.engine.state import DRAW, FIELD0, HAND0, State
from interpreter.engine.wincheck import points_goal_function
from interpreter.rules.model import Rules

from .sampling import Sampler, hidden_zones

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


class Sharp:
    """Deterministic for a given seed: the same position and view give the same move."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 4,
        depth: int = 3,
        max_nodes: int = 300,
        reply: int = 2,
        weights: SharpWeights | None = None,
        forget: bool = False,
    ) -> None:
        self.seed = seed
        #: plays as if it knew no hidden card (what a knowledge rule shows it is dealt again at
        #: random): the control that measures what a seat's knowledge is worth
        self.forget = forget
        self.samples = samples
        self.depth = depth
        self.max_nodes = max_nodes  # a node budget per decision (counted, so deterministic)
        self.reply = reply  # the opponent's next action, followed this many decisions (0: not looked at)
        self.w = weights or DEFAULT_SHARP
        self._nodes = 0

    def choose(self, game: Game, player: int | None = None) -> Move:
        d = game.decision
        if d is None:
            raise ValueError("the game is over: there is no decision to make")
        me = d.player if player is None else player
        if d.player != me:
            raise ValueError(f"it is not p{me + 1}'s decision")
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        state = game.state
        rng = random.Random(f"sharp:{self.seed}:{state.turn_no}:{state.moves_made}:{len(state.hands)}")
        sampler = Sampler(state, me, hidden_zones(state, me), forget=self.forget)
        worlds = [sampler.sample(rng) for _ in range(max(1, self.samples))]
        totals = [0.0] * len(legal)
        per_sim = max(1, self.max_nodes // (len(legal) * len(worlds)))
        for w in worlds:
            actions = dict(enumerate_actions(w))
            for i, m in enumerate(legal):
                a = actions.get(m)
                if a is None:  # a move depends only on what the seat sees: cannot happen
                    totals[i] -= WIN
                    continue
                c = w.copy()
                _apply(c, a)
                if c.winner == me:  # a move that wins at once: no need to look further
                    return m
                self._nodes = per_sim
                totals[i] += self._value(c, me, self.depth, self.reply > 0)
        best = max(range(len(legal)), key=lambda i: totals[i])
        return legal[best]

    def _value(self, g: State, me: int, depth: int, reply: bool = False) -> float:
        """The rest of the current turn: `me`'s choices at best, the opponent's at worst; with
        `reply`, also the opponent's next action and the answers to it."""
        if g.winner is not None:
            return 0.0 if g.winner == DRAW else WIN if g.winner == me else -WIN
        d = g.pending
        if d is None or depth <= 0 or self._nodes <= 0:
            return self.evaluate(g, me)
        if d.kind == MAIN:
            if d.player == me or not reply:
                return self.evaluate(g, me)
            acts = legal_actions(g)
            if len(acts) > self._nodes:
                return self.evaluate(g, me)
            depth, reply = self.reply, False
        else:
            acts = legal_actions(g)
        self._nodes -= len(acts)
        best: float | None = None
        mine = d.player == me
        for a in acts:
            c = g.copy()
            _apply(c, a)
            v = self._value(c, me, depth - 1, reply)
            if best is None or (v > best if mine else v < best):
                best = v
        return self.evaluate(g, me) if best is None else best

    def evaluate(self, g: State, me: int) -> float:
        """A position from `me`'s side."""
        return evaluate(g, me, self.w, card_values(g.rules))


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
        return 0.0 if g.winner == DRAW else WIN if g.winner == me else -WIN
    rules = g.rules
    opp = 1 - me
    pg = points_goal_function(rules)
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
    v += w.in_play * (_permanents(g, me) - _permanents(g, opp))
    if w.tempo or w.short:
        n_me, miss_me = _tempo(hand_me, vals, need_me)
        n_opp, miss_opp = _tempo(hand_opp, vals, need_opp)
        v += w.tempo * (n_opp - n_me) + w.short * ((miss_opp > 0) - (miss_me > 0))
    if rules.hand_visible(g, me):
        v += w.sees_hand
    if rules.hand_visible(g, opp):
        v -= w.sees_hand
    return v


def _permanents(g: State, p: int) -> int:
    """Cards in play on p's side that are neither point cards nor attached to one."""
    return sum(1 for c in g.zones[FIELD0 + p] if g.host[c] < 0 and g.role[c] != "point")
