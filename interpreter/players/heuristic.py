"""A bot worth playing: determinized look-ahead with a generic position evaluation.

The bot sees only its own view. Before it simulates anything it re-deals the cards it cannot see
(the deck, and the opponent's hand while that is hidden) at random from its own seeded generator,
and replaces the game's generator (which would tell future shuffles) by one of its own. It then
plays every legal move in each of a few such determinized worlds, follows the rest of the turn
(its own follow-up choices taken at best, the opponent's answers — counters, discards — at worst
for it), and scores the positions reached with generic features only: points against goal for both
sides, cards in hand, cards in play. Nothing here knows what any rank does.

    python -m interpreter.bot --games 1000      # win rate against random play, time per move
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from interpreter.core.zones import HANDS
from interpreter.engine.game import Game
from interpreter.engine.machine import MAIN, enumerate_actions
from interpreter.engine.machine import apply_action as _apply
from interpreter.engine.moves import Move
from interpreter.engine.state import DECK, HAND0, State

from .picks import Picks
from .sampling import Sampler
from .sides import evaluate_table, ours, permanents, score

WIN = 1000.0


@dataclass(frozen=True)
class Weights:
    """The evaluation: every term is a generic feature of a position."""

    need: float = 1.0  # each point still missing to one's goal
    urgency: float = 12.0  # extra weight as a side gets close to its goal: urgency / (need + 1)
    hand: float = 0.9  # each card in hand
    in_play: float = 0.6  # each non-point card in play (royals, glasses...)
    sees_hand: float = 0.4  # seeing the opponent's hand
    reach: float = 0.0  # a side within one point card of its goal (its need at most the highest card value)


DEFAULT_WEIGHTS = Weights()


class Bot:
    """Deterministic for a given seed: the same position and view give the same move."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 6,
        depth: int = 4,
        max_sims: int = 1000,
        reply: bool = True,
        max_nodes: int = 2000,
        weights: Weights | None = None,
    ) -> None:
        self.seed = seed
        self.samples = samples
        self.depth = depth
        self.max_sims = max_sims
        self.reply = reply  # also look at the opponent's best answer on its next turn
        self.max_nodes = max_nodes  # a node budget per decision (counted, so still deterministic)
        self.w = weights or DEFAULT_WEIGHTS
        self._nodes = 0  # what is left of the node budget of the current simulation

    # -- the public entry point ------------------------------------------------------------------
    def choose(self, game: Game, player: int | None = None) -> Move:
        """The bot's move for the pending decision (which must be `player`'s, if given)."""
        d = game.decision
        if d is None:
            raise ValueError("the game is over: there is no decision to make")
        me = d.player if player is None else player
        if d.player != me:
            raise ValueError(f"it is not p{me + 1}'s decision")
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        view = game.view(me)
        rng = random.Random(f"cuttle-bot:{self.seed}:{game.state.turn_no}:{game.state.moves_made}")
        n = max(1, min(self.samples, self.max_sims // max(1, len(legal))))
        if game.rules.seats > 2:  # every other player's hand it does not see (partners' too)
            hidden = [HANDS[o.seat] for o in _others(view)]
            sampler = Sampler(game.state, me, [DECK, *hidden])
        else:
            sampler = self._sampler(game.state, me, view.opponent_hand is None)
        worlds = [sampler.sample(rng) for _ in range(n)]
        totals = [0.0] * len(legal)
        per_sim = self.max_nodes // (len(legal) * n)
        for w in worlds:
            actions = dict(enumerate_actions(w))
            for i, m in enumerate(legal):
                a = actions.get(m)
                if a is None:  # cannot happen for a move that depends only on what the bot sees
                    totals[i] -= WIN
                    continue
                c = w.copy()
                _apply(c, a)
                self._nodes = per_sim
                totals[i] += self._value(c, me, self.depth, self.reply)
        best = max(range(len(legal)), key=lambda i: totals[i])
        return legal[best]

    # -- hidden information ----------------------------------------------------------------------
    @staticmethod
    def _sampler(state: State, me: int, opponent_hidden: bool) -> Sampler:
        """Copies of the state in which every card the bot cannot see is dealt again at random
        (see players/sampling.py)."""
        return Sampler(state, me, [DECK] + ([HAND0 + 1 - me] if opponent_hidden else []))

    # -- search ----------------------------------------------------------------------------------
    def _value(self, g: State, me: int, depth: int, reply: bool = False) -> float:
        """The rest of the current turn: the bot's choices at best, the opponent's at worst; with
        `reply`, also the opponent's next action (and the answers to it) at worst."""
        if g.winner is not None:
            return self._terminal(g, me)
        d = g.pending
        if d is None or depth <= 0 or self._nodes <= 0:
            return self.evaluate(g, me)
        acts = enumerate_actions(g)
        if d.kind == MAIN:
            if not reply or ours(g, me, d.player) or len(acts) > self._nodes:
                return self.evaluate(g, me)
            depth, reply = self.depth, False
        self._nodes -= len(acts)
        best: float | None = None
        mine = ours(g, me, d.player)  # its own choices (and its partners') at best, every opponent's at worst
        for _, a in acts:
            c = g.copy()
            _apply(c, a)
            v = self._value(c, me, depth - 1, reply)
            if best is None or (v > best if mine else v < best):
                best = v
        return self.evaluate(g, me) if best is None else best

    def _terminal(self, g: State, me: int) -> float:
        return score(g, me)

    def evaluate(self, g: State, me: int) -> float:
        """A position from `me`'s side: generic features only."""
        return evaluate(g, me, self.w)


def evaluate(g: State, me: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """A position from `me`'s side, from generic features only: a won game is +WIN, a lost one -WIN."""
    if g.winner is not None:
        return score(g, me)
    rules = g.rules
    if rules.seats > 2:  # against the strongest opponent (players/sides.py)
        return evaluate_table(g, me, w)
    opp = 1 - me
    need_me = max(rules.goal_of(g, me) - rules.score_of(g, me), 0)
    need_opp = max(rules.goal_of(g, opp) - rules.score_of(g, opp), 0)
    v = w.need * (need_opp - need_me) + w.urgency * (1.0 / (need_me + 1) - 1.0 / (need_opp + 1))
    v += w.hand * (len(g.zones[HAND0 + me]) - len(g.zones[HAND0 + opp]))
    v += w.in_play * (permanents(g, me) - permanents(g, opp))
    if w.reach:
        top = max(rules.values.values(), default=0)
        v += w.reach * ((0 < need_me <= top) - (0 < need_opp <= top))
    if rules.hand_visible(g, me):
        v += w.sees_hand
    if rules.hand_visible(g, opp):
        v -= w.sees_hand
    return v


def _others(view: Any) -> list[Any]:
    """The other players whose hands a view does not show, each with its seat (p2 -> 1)."""
    return [_Seat(int(o.player[1:]) - 1) for o in view.others if o.hand is None]


@dataclass(frozen=True)
class _Seat:
    seat: int


class RandomPlayer:
    """Uniformly random legal moves (the benchmark opponent), picked by `Picks(seed)`."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Picks(seed)

    def choose(self, game: Game, player: int | None = None) -> Move:
        legal = game.legal_moves()
        return legal[self.rng.randrange(len(legal))]
