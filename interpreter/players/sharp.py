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
from collections.abc import Callable

from interpreter.engine.game import Game
from interpreter.engine.machine import MAIN, enumerate_actions, legal_actions
from interpreter.engine.machine import apply_action as _apply
from interpreter.engine.moves import Move
from interpreter.engine.state import State
from interpreter.rules.model import Rules

from .evaluation import DEFAULT_SHARP, WIN, SharpWeights, card_values, evaluate
from .learnt import Evaluation, linear_for
from .sampling import Sampler, hidden_zones
from .sides import ours, score, won

__all__ = ["DEFAULT_SHARP", "WIN", "Sharp", "SharpWeights", "card_values", "evaluate", "scorer"]


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
        learnt: bool = True,
        evaluation: Evaluation | None = None,
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
        #: play with the ruleset's learnt evaluation when it has one (`cuttle train`; players/learnt.py),
        #: unless the hand-set weights were changed or `learnt` is off (`sharp?weights=default`)
        self.learnt = learnt and self.w == DEFAULT_SHARP
        self._nodes = 0
        self._scorers: dict[int, Scorer] = {}
        self.evaluation = evaluation  # an evaluation to play with whatever the ruleset has (training, duels)

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
                if c.winner is not None and won(c, me):  # a move that wins at once: no need to look further
                    return m
                self._nodes = per_sim
                totals[i] += self._value(c, me, self.depth, self.reply > 0)
        best = max(range(len(legal)), key=lambda i: totals[i])
        return legal[best]

    def _value(self, g: State, me: int, depth: int, reply: bool = False) -> float:
        """The rest of the current turn: `me`'s choices at best, the opponent's at worst; with
        `reply`, also the opponent's next action and the answers to it."""
        if g.winner is not None:
            return score(g, me)
        d = g.pending
        if d is None or depth <= 0 or self._nodes <= 0:
            return self.evaluate(g, me)
        if d.kind == MAIN:
            if ours(g, me, d.player) or not reply:
                return self.evaluate(g, me)
            acts = legal_actions(g)
            if len(acts) > self._nodes:
                return self.evaluate(g, me)
            depth, reply = self.reply, False
        else:
            acts = legal_actions(g)
        self._nodes -= len(acts)
        best: float | None = None
        mine = ours(g, me, d.player)  # its own choices (and its partners') at best, every opponent's at worst
        for a in acts:
            c = g.copy()
            _apply(c, a)
            v = self._value(c, me, depth - 1, reply)
            if best is None or (v > best if mine else v < best):
                best = v
        return self.evaluate(g, me) if best is None else best

    def evaluate(self, g: State, me: int) -> float:
        """A position from `me`'s side."""
        return self.scorer(g.rules)(g, me)

    def scorer(self, rules: Rules) -> Scorer:
        """The evaluation this player uses under `rules`: the learnt one if it has one, else the hand-set."""
        f = self._scorers.get(id(rules))
        if f is None:
            f = self._scorers[id(rules)] = scorer(rules, self.w, self.learnt, self.evaluation)
        return f

    def evaluation_note(self, rules: Rules) -> str:
        """Which evaluation plays under `rules` (for `cuttle players`, the REPL and the lab's reports)."""
        return evaluation_note(rules, self.w, self.learnt, self.evaluation)


Scorer = Callable[[State, int], float]


def scorer(rules: Rules, w: SharpWeights, learnt: bool, evaluation: Evaluation | None = None) -> Scorer:
    """`(g, me) -> value`: `evaluation` if given; else the learnt evaluation of `rules` when `learnt` and
    it has one, else the hand-set evaluation with weights `w`."""
    if rules.seats > 2:  # (the learnt features compare one player with one opponent: a two-seat game's)
        vals = card_values(rules)
        return lambda g, me: evaluate(g, me, w, vals)
    if evaluation is not None:
        return evaluation.linear(rules).value
    if learnt:
        lin, _ = linear_for(rules)
        if lin is not None:
            return lin.value
    vals = card_values(rules)
    return lambda g, me: evaluate(g, me, w, vals)


def evaluation_note(rules: Rules, w: SharpWeights, learnt: bool, evaluation: Evaluation | None = None) -> str:
    """Which evaluation a player with weights `w` plays under `rules`, in a few words."""
    if rules.seats > 2:
        seats = rules.seats
        return (
            f"the hand-set evaluation, against the strongest opponent (a table of {seats}: learnt ones are two-player)"
        )
    if evaluation is not None:
        return evaluation.describe()
    if learnt:
        _, ev = linear_for(rules)
        if ev is not None:
            return ev.describe()
        return "the hand-set evaluation (untrained: no learnt evaluation for these rules; `cuttle train`)"
    if w == DEFAULT_SHARP:
        return "the hand-set evaluation (weights=default)"
    return "the hand-set evaluation with the weights given"
