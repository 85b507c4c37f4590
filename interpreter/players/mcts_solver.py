"""MCTS-Solver (Winands, Björnsson and Saito 2008) for the exact solver: Monte Carlo tree search
whose backups also carry proofs.

Like df-pn (`dfpn.py`) it answers one binary question at a time, "can `attacker` force a win?"
(a draw counts as not a win). Each iteration goes down the tree by UCB1 (the attacker's win rate
where the attacker decides, the defender's where the defender decides), expands a position met a
second time (all its moves at once, forced decisions played through), plays a random game from a
new position (a verb drawn uniformly, then one of its moves, as ISMCTS's playouts), and backs the
result up. The playouts only steer the search: a position is *proven* (the attacker wins) only
when one of the attacker's moves leads to a proven position (every move, where the defender
decides), and *refuted* when every attacker's move is refuted (one defender's move), down to the
ends of the game. A proven or refuted child is never selected again. Positions are shared by their
exact key (the tree is a graph); a line that comes back to a position on it raises `Repetition`.
"""

from __future__ import annotations

import math
import time

from interpreter.engine.machine import apply_action, legal_actions
from interpreter.engine.state import State

from .dfpn import OutOfBudget, Repetition
from .heuristic import evaluate

# a node: [state, legal actions (None at the end), children or None, visits, attacker's wins,
#          proven (True/False/None), attacker decides, key, action from the parent, forced actions]
STATE, ACTS, KIDS, N, W, PROVEN, OR, KEY, ACT, FORCED = range(10)
EXPLORATION = 0.7      # UCB1's constant
PLAYOUT_LIMIT = 400    # decisions a playout may take before it counts as not won
HORIZON = -1           # playout decisions before the evaluation judges (< 0: to the end of the game)
TEMPERATURE = 8.0      # evaluation units per logistic unit (as ISMCTS)


class MctsSolver:
    """The MCTS-Solver graphs and search for one open game (one root and what follows it).

    `key`, `check`, `max_nodes` and `deadline` as for `dfpn.ProofSearch`; a node of the budget is
    one position expanded (all its moves tried). `seed` fixes the playouts."""

    def __init__(self, key, check, max_nodes: int, deadline: float, seed: int = 0,
                 exploration: float = EXPLORATION, horizon: int = HORIZON) -> None:
        self.key = key
        self.check = check
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.exploration = exploration
        self.horizon = horizon
        self.nodes = 0
        self.graphs: tuple[dict, dict] = ({}, {})  # per attacker: position key -> node
        self._seed = seed
        self._x = (seed * 2654435761 + 12345) & 0xFFFFFFFF or 1

    def _rand(self) -> float:
        """A small deterministic generator (xorshift32): the same seed, the same search."""
        x = self._x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._x = x
        return x / 4294967296.0

    # -- positions ---------------------------------------------------------------------------------
    def settle(self, c: State, line: list[tuple]) -> list | None:
        """Play the forced decisions of `c` (in place) through; None if the game ended, else the
        legal actions of the first real decision. `line` gets the forced actions appended."""
        while c.winner is None:
            acts = legal_actions(c)
            if len(acts) != 1:
                return acts
            before = c.rng.s
            line.append(acts[0])
            apply_action(c, acts[0])
            if c.rng.s != before:
                self.check(c, line)
        return None

    def known(self, key: tuple, attacker: int) -> bool | None:
        """True if `attacker`'s win from the position is proven, False if refuted, else None."""
        node = self.graphs[attacker].get(key)
        return None if node is None else node[PROVEN]

    def _node(self, c: State, acts: list | None, key: tuple | None, attacker: int, act, forced) -> list:
        if acts is None:
            return [None, None, None, 0, 0.0, c.winner == attacker, False, None, act, forced]
        graph = self.graphs[attacker]
        node = graph.get(key)
        if node is None:
            node = graph[key] = [c, acts, None, 0, 0.0, None, c.pending.player == attacker, key, act, forced]
            return node
        # the same position reached by another move: share its statistics, keep this move's action
        return [node, act, forced]

    # -- the search --------------------------------------------------------------------------------
    def prove(self, state: State, attacker: int, prefix: list[tuple]) -> bool:
        """True if `attacker` can force a win from the undecided `state` (reached from the root by
        the actions `prefix`), False if not. Raises OutOfBudget or Repetition."""
        key = self.key(state)
        graph = self.graphs[attacker]
        root = graph.get(key)
        if root is None:
            root = graph[key] = [state, legal_actions(state), None, 0, 0.0, None,
                                 state.pending.player == attacker, key, None, ()]
        while root[PROVEN] is None:
            self._iterate(root, attacker, prefix)
        return root[PROVEN]

    def _expand(self, node: list, attacker: int, line: list[tuple]) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 255 == 0 and time.perf_counter() > self.deadline):
            raise OutOfBudget
        g = node[STATE]
        kids = []
        base = len(line)
        for a in node[ACTS]:
            c = g.copy()
            line.append(a)
            before = c.rng.s
            apply_action(c, a)
            if c.rng.s != before:
                self.check(c, line)
            cacts = self.settle(c, line)
            forced = tuple(line[base + 1:])
            del line[base:]
            kids.append(self._node(c, cacts, None if cacts is None else self.key(c), attacker, a, forced))
        node[KIDS] = kids
        node[STATE] = None  # the children hold their own positions

    def _iterate(self, root: list, attacker: int, prefix: list[tuple]) -> None:
        path = [root]
        on_path = {root[KEY]}
        line = list(prefix)
        node = root
        c_explore = self.exploration
        log = math.log
        sqrt = math.sqrt
        while True:
            if node[KIDS] is None:
                if node[N] == 0 and node is not root:
                    r = self._playout(node[STATE].copy(), attacker)
                    break
                self._expand(node, attacker, line)
            # choose a child; a proven child (for the side deciding) proves the node, one refuted
            # is skipped, and all refuted refute it
            or_node = node[OR]
            best = None
            best_u = -1.0
            ln = log(node[N] + 1)
            decided = None
            for k in node[KIDS]:
                t = k[0] if len(k) == 3 else k
                p = t[PROVEN]
                if p is not None:
                    if p == or_node:
                        decided = p
                        break
                    continue
                n = t[N]
                if n == 0:
                    u = 1e9 + self._rand()
                else:
                    rate = t[W] / n
                    u = (rate if or_node else 1.0 - rate) + c_explore * sqrt(ln / n)
                if u > best_u:
                    best_u, best = u, k
            if decided is None and best is None:
                decided = not or_node
            if decided is not None:
                node[PROVEN] = decided
                r = 1.0 if decided else 0.0
                break
            if len(best) == 3:
                child, act, forced = best
            else:
                child, act, forced = best, best[ACT], best[FORCED]
            line.append(act)
            line.extend(forced)
            if child[KEY] in on_path:
                raise Repetition(line)
            on_path.add(child[KEY])
            path.append(child)
            node = child
        # back up the playout's result, and a proof as far as it reaches
        for nd in reversed(path):
            nd[N] += 1
            nd[W] += r
        for i in range(len(path) - 2, -1, -1):
            nd = path[i]
            if nd[PROVEN] is not None:
                continue
            below = path[i + 1][PROVEN]
            if below is None:
                break
            if below == nd[OR]:
                nd[PROVEN] = below
                continue
            # a child refuted for its side: the node is decided only if all its children are
            if all((k[0] if len(k) == 3 else k)[PROVEN] == below for k in nd[KIDS]):
                nd[PROVEN] = below
            else:
                break

    def _playout(self, g: State, attacker: int) -> float:
        """A random game from `g`: 1 if the attacker wins it, else 0 (with a horizon: the logistic of
        the evaluation where it stops)."""
        rand = self._rand
        n = 0
        limit = self.horizon if self.horizon >= 0 else PLAYOUT_LIMIT
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
        if g.winner is None and self.horizon >= 0:
            return 1.0 / (1.0 + math.exp(-evaluate(g, attacker) / TEMPERATURE))
        return 1.0 if g.winner == attacker else 0.0
