"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

One tree is grown from the searching player's information set. Each iteration:

1. *determinize*: a copy of the game with every card the player cannot see dealt again at random
   from its own view, and the game's generator replaced (players/sampling.py);
2. *select*: walk down the tree through the moves legal in that copy, by UCB1 with availability
   counts (a move's exploration term counts only the iterations in which it was legal);
3. *expand*: add one untried legal move — with progressive widening (`widening` > 0), only while the
   node has fewer than 1 + widening * sqrt(visits) children legal here, and the untried move whose
   position the generic evaluation scores best for its chooser first;
4. *play out*: random legal actions on the raw compiled engine (`legal_actions`/`apply_action` on
   the copy) for `horizon` decisions (none by default), then scored by the generic evaluation
   (sharp.py's, with its weights fitted to game results) squashed into [0, 1];
5. *back up*: each edge adds the result of the player who chose it (win 1, draw 1/2, loss 0).

Every node is a decision of whoever must decide — the turn player, a responder answering a
counterable play, a player choosing discards — so counters need nothing special. Edges are moves in
notation: every Cuttle move names the cards it uses, so it is public, and the only hidden part of a
move (the card a `draw` takes) is merged into one edge. The move played is the root's most visited.
Nothing here knows what any rank does; the same code runs every ruleset and house rule.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.machine import apply_action, enumerate_actions, legal_actions
from interpreter.engine.moves import Move
from interpreter.engine.state import DRAW, State
from interpreter.rules.model import Rules

from .evaluation import DEFAULT_SHARP, SharpWeights
from .learnt import Evaluation
from .sampling import Sampler, determinize, hidden_zones, position_rng
from .sharp import Scorer, evaluation_note, scorer
from .sides import won

# An edge: [visits, total result for the player who chose it, availability, child node, that player,
#           whether the move has won the game at once for that player (a decisive move)]
N, W, AVAIL, CHILD, WHO, WINS = range(6)


@dataclass
class SearchStats:
    """What the last searches cost and found (for benchmarks and the REPL's hint)."""

    decisions: int = 0
    iterations: int = 0
    playout_steps: int = 0
    seconds: float = 0.0
    last_win_rate: float | None = None
    last_visits: dict[str, int] = field(default_factory=dict)

    @property
    def playouts_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds else 0.0


class ISMCTS:
    """Deterministic for a seed: the same position and view give the same move."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 2500,
        exploration: float = 0.25,
        horizon: int = 0,
        temperature: float = 11.6,
        prior: int = 0,
        seconds: float = 0.0,
        widening: float = 1.0,
        weights: SharpWeights | None = None,
        learnt: bool = True,
        evaluation: Evaluation | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be 1 or more")
        self.seed = seed
        self.iterations = iterations
        self.exploration = exploration
        self.horizon = horizon  # playout decisions before the evaluation decides (< 0: to the end)
        self.temperature = temperature  # evaluation units per logistic unit
        self.prior = prior  # virtual visits at the evaluation of a new move's position
        self.seconds = seconds  # a wall-clock cap per move (0: none; with one, not deterministic)
        self.widening = widening  # progressive widening: a node seen n times has 1 + widening*sqrt(n)
        #                                 children, added best-evaluated first (0: every move, at random)
        self.weights = weights or SharpWeights()  # the hand-set evaluation (evaluation.py)
        #: score leaves with the ruleset's learnt evaluation when it has one (players/learnt.py), unless
        #: the hand-set weights were changed or `learnt` is off (`ismcts?weights=default`)
        self.learnt = learnt and self.weights == DEFAULT_SHARP
        self._scorers: dict[int, Scorer] = {}
        self._score: Scorer | None = None
        self.evaluation = evaluation  # an evaluation to play with whatever the ruleset has (training, duels)
        self.stats = SearchStats()
        self._root: dict[Move, list] = {}  # the tree of the search under way (or the last)

    # -- the public entry point ------------------------------------------------------------------
    def choose(self, game: Game, player: int | None = None) -> Move:
        d = game.decision
        if d is None:
            raise ValueError("the game is over: there is no decision to make")
        if player is not None and d.player != player:
            raise ValueError(f"it is not p{player + 1}'s decision")
        self._root = {}  # (a tree of another decision is never hurried)
        legal = game.legal_moves()
        if len(legal) == 1:
            self.stats.last_win_rate = None
            self.stats.last_visits = {}
            return legal[0]
        win = self.decisive(game.state, d.player)
        if win is not None:  # a move that wins at once needs no search
            self.stats.last_win_rate = 1.0
            self.stats.last_visits = {}
            return win
        visits = self.search(game.state, d.player)
        best = max(legal, key=lambda m: (visits.get(m, (0, 0.0))[0], visits.get(m, (0, 0.0))[1]))
        n, mean = visits.get(best, (0, 0.0))
        self.stats.last_win_rate = mean if n else None
        self.stats.last_visits = {str(m): v[0] for m, v in visits.items()}
        return best

    def hurry(self, game: Game) -> Move | None:
        """The best move so far of a search that was interrupted (Ctrl-C while it thought): the legal
        move the root visited most; None when the search had not begun."""
        root = self._root
        visited = [(root[m][N], m) for m in game.legal_moves() if m in root and root[m][N] > 0]
        return max(visited, key=lambda x: x[0])[1] if visited else None

    def evaluate_moves(self, game: Game) -> list[tuple[Move, int, float]]:
        """Every legal move with its visits and estimated result for the player to decide, best first."""
        d = game.decision
        if d is None:
            return []
        visits = self.search(game.state, d.player)
        rows = [(m, *visits.get(m, (0, 0.0))) for m in game.legal_moves()]
        return sorted(rows, key=lambda r: (-r[1], -r[2]))

    def decisive(self, state: State, me: int) -> Move | None:
        """A move that wins the game at once for `me`, if there is one (tried on one determinization:
        a move is public, so whether it ends the game does not depend on the cards `me` cannot see)."""
        g = determinize(state, me, position_rng("ismcts-decisive", self.seed, state))
        for m, a in enumerate_actions(g):
            c = g.copy()
            apply_action(c, a)
            if c.winner is not None and won(c, me):
                return m
        return None

    # -- the search ------------------------------------------------------------------------------
    def search(self, state: State, me: int) -> dict[Move, tuple[int, float]]:
        """Grow the tree from `me`'s information set; the root's moves with (visits, mean result)."""
        t0 = time.perf_counter()
        c0 = time.process_time()
        self._score = self.scorer(state.rules)
        rng = position_rng("ismcts", self.seed, state)
        rand = rng.random
        sampler = Sampler(state, me, hidden_zones(state, me))  # the view's unknown places, worked out once
        root: dict[Move, list] = {}
        self._root = root  # the tree so far, for `hurry` if the search is interrupted
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        horizon = self.horizon
        seats = state.rules.seats
        prior = self.prior
        steps = 0
        done = 0
        deadline = t0 + self.seconds if self.seconds > 0 else None
        widening = self.widening
        result = self._result
        for it in range(self.iterations):
            if deadline is not None and it and time.perf_counter() > deadline:
                break
            g = sampler.sample(rng)
            node = root
            seen = it  # how often the current node was visited
            path: list[list] = []
            while g.winner is None:
                pairs = enumerate_actions(g)
                untried = None
                tried = 0
                for m, _ in pairs:
                    e = node.get(m)
                    if e is None:
                        if untried is None:
                            untried = []
                        untried.append(m)
                    else:
                        e[AVAIL] += 1
                        tried += 1
                if untried is not None and (not widening or tried < 1 + widening * sqrt(seen)):
                    who = g.pending.player
                    if widening:  # the untried move whose position evaluates best for its chooser
                        acts = dict(pairs)
                        pick, child, best_r = None, None, -1.0
                        for m in untried:
                            c2 = g.copy()
                            apply_action(c2, acts[m])
                            r = result(c2, who)
                            if r > best_r:
                                pick, child, best_r = m, c2, r
                        g = child  # type: ignore[assignment]
                    else:
                        pick = untried[int(rand() * len(untried))]
                        apply_action(g, next(a for m, a in pairs if m == pick))
                    e = (
                        [prior, prior * result(g, who), 1, {}, who, g.winner is not None and won(g, who)]
                        if prior
                        else [0, 0.0, 1, {}, who, g.winner is not None and won(g, who)]
                    )
                    node[pick] = e  # type: ignore[index]  # a move was picked above, whichever way
                    path.append(e)
                    break
                best_v = -1.0
                best = None
                for m, a in pairs:
                    e = node.get(m)
                    if e is None:
                        continue
                    if e[WINS] and e[WHO] == me:  # the searcher takes a win it has; the opponent's
                        # moves stay weighed by UCB (assuming it always takes a win cost 6 of 1,000 games
                        # against `random`, gained nothing against `heuristic`: docs/players.md)
                        best = (e, a)
                        break
                    v = e[W] / e[N] + c * sqrt(log(e[AVAIL]) / e[N])
                    if v > best_v:
                        best_v, best = v, (e, a)
                e, a = best  # type: ignore[misc]
                path.append(e)
                apply_action(g, a)
                if g.winner is not None:  # a win seen is remembered; one that did not happen here is not
                    e[WINS] = won(g, e[WHO])
                elif e[WINS]:
                    e[WINS] = False
                node = e[CHILD]
                seen = e[N]
            steps += self._playout(g, rand, horizon)
            self._backup(g, path, seats)
            done += 1
        st = self.stats
        st.decisions += 1
        st.iterations += done
        st.playout_steps += steps
        st.seconds += time.process_time() - c0  # CPU seconds (one core)
        return {m: (e[N], e[W] / e[N] if e[N] else 0.0) for m, e in root.items()}

    def _backup(self, g: State, path: list[list[Any]], seats: int) -> None:
        """Each edge of the path visited once more, with the result of the player who chose it."""
        if seats == 2:
            r0 = self._result(g, 0)
            for e in path:
                e[N] += 1
                e[W] += r0 if e[WHO] == 0 else 1.0 - r0
        else:  # a larger table: each player's own result
            rs = [self._result(g, p) for p in range(seats)]
            for e in path:
                e[N] += 1
                e[W] += rs[e[WHO]]

    @staticmethod
    def _playout(g: State, rand, horizon: int) -> int:
        """Random play: a verb drawn uniformly among the legal ones, then one of its moves (so that
        the many ways to counter do not crowd out `resolve`, nor the many plays a `draw`)."""
        n = 0
        limit = horizon if horizon >= 0 else 1 << 30
        while g.winner is None and n < limit:
            acts = legal_actions(g)
            if len(acts) > 1:
                verbs: dict = {}
                for a in acts:
                    k = a[0]
                    v = a[1].verb if k == "play" or k == "respond" else k
                    if v in verbs:
                        verbs[v].append(a)
                    else:
                        verbs[v] = [a]
                group = list(verbs.values())[int(rand() * len(verbs))]
                apply_action(g, group[int(rand() * len(group))])
            else:
                apply_action(g, acts[0])
            n += 1
        return n

    def scorer(self, rules: Rules) -> Scorer:
        """The evaluation of leaves under `rules`: the learnt one if it has one, else the hand-set."""
        f = self._scorers.get(id(rules))
        if f is None:
            f = self._scorers[id(rules)] = scorer(rules, self.weights, self.learnt, self.evaluation)
        return f

    def evaluation_note(self, rules: Rules) -> str:
        """Which evaluation scores the leaves under `rules` (for `cuttle players`, the REPL, the lab)."""
        return evaluation_note(rules, self.weights, self.learnt, self.evaluation)

    def _result(self, g: State, p: int) -> float:
        """The result for `p` in [0, 1]: 1 a win, 0 a loss, 1/2 a draw; an unfinished game by the
        evaluation (in a match, hands already won count too)."""
        w = g.winner
        if w is not None:
            return 0.5 if w == DRAW else 1.0 if won(g, p) else 0.0
        score = self._score or self.scorer(g.rules)
        v = score(g, p)
        if g.rules.match_wins > 1:
            rival = 1 - p if g.rules.seats == 2 else max(g.rules.opponents_of[p], key=lambda o: g.wins[o])
            v += 25.0 * (g.wins[p] - g.wins[rival])
        return 1.0 / (1.0 + math.exp(-v / self.temperature))
