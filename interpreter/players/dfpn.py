"""Depth-first proof-number search (df-pn, Nagai 2002) for the exact solver.

The value of an open position for the player who decides there is found by two binary questions:
"can this player force a win?" and, if not, "can the opponent force a win?"; a draw when neither.
Each question is answered by df-pn: every position has a *proof number* (how many more positions
must be shown won, at least, to prove the question) and a *disproof number* (the same to refute
it); the search always goes down to the most proving position (the child of least proof number
where the attacker decides, of least disproof number where the defender decides), with thresholds
so that it stays depth-first and only the table holds the numbers. The 1+ε trick (Pawlewicz and Lew
2007) keeps it from switching between two siblings too often. A proof or disproof is exact: a
position is proven only when one of its attacker's moves is proven (every move, for the defender),
down to the ends of the game; the numbers only decide the order of the search.

Two generic refinements, neither of which changes a value:

- a decision with a single legal move (a forced `resolve`, the only `pass`) is played through, not
  searched as a position of its own;
- a new position's numbers start from its mobility: where the attacker decides, disproving it takes
  at least as many positions as it has moves (and the other way around where the defender decides).

Among equal numbers, children are tried in the engine's order of the legal moves (ordering them by
the generic evaluation was measured: the same positions solved for 23-30% more CPU time).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from interpreter.engine.machine import apply_action, legal_actions
from interpreter.engine.state import State

INF = 1 << 40  # a proof (or disproof) number this large: the question is refuted (or proven)
CACHE = 4096  # positions whose children are kept (a position is often searched again soon)
EPSILON = 0.25  # the 1+ε trick: a child is searched until its number exceeds the second best's by ε


class OutOfBudget(Exception):
    pass


class Repetition(Exception):
    """A line comes back to a position already on it."""

    def __init__(self, line: list[tuple]) -> None:
        super().__init__("repetition")
        self.line = line


class ProofSearch:
    """The df-pn tables and search for one open game (one root and what follows it).

    `key` gives a position's exact key, `check(state, line)` raises when a random event happened
    along `line`; `max_nodes` and `deadline` (a `time.perf_counter()` value) bound the search."""

    def __init__(self, key, check, max_nodes: int, deadline: float) -> None:
        self.key = key
        self.check = check
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.progress: Callable[[int], None] | None = None  # told the node count about every 1,024 nodes
        self.tables: tuple[dict, dict] = ({}, {})  # per attacker: position key -> [proof, disproof]
        self._path: set[tuple] = set()
        self._line: list[tuple] = []
        self._kids: dict[tuple, list[tuple]] = {}  # position key -> its children (the last CACHE searched)

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

    def numbers(self, c: State, acts: list | None, attacker: int, key: tuple | None) -> tuple[int, int]:
        """The (proof, disproof) numbers of a settled position for `attacker`'s win."""
        if acts is None:
            return (0, INF) if c.winner == attacker else (INF, 0)
        e = self.tables[attacker].get(key)
        if e is not None:
            return e[0], e[1]
        n = len(acts)
        return (1, n) if c.pending.player == attacker else (n, 1)

    # -- the search --------------------------------------------------------------------------------
    def prove(self, state: State, attacker: int, prefix: list[tuple]) -> bool:
        """True if `attacker` can force a win from the undecided `state` (reached from the root by
        the actions `prefix`), False if not. Raises OutOfBudget or Repetition."""
        acts = legal_actions(state)
        key = self.key(state)
        self._line = list(prefix)
        self._mid(state, acts, key, attacker, INF, INF)
        e = self.tables[attacker][key]
        return e[0] == 0

    def _children(self, g: State, acts: list) -> list[tuple]:
        """Each move's (settled position, its legal actions or None at the end, its key, the move, the
        forced actions played through after it)."""
        out = []
        line = self._line
        base = len(line)
        for a in acts:
            c = g.copy()
            line.append(a)
            before = c.rng.s
            apply_action(c, a)
            if c.rng.s != before:
                self.check(c, line)
            cacts = self.settle(c, line)
            forced = tuple(line[base + 1 :])
            del line[base:]
            out.append((c, cacts, None if cacts is None else self.key(c), a, forced))
        return out

    def _mid(self, g: State, acts: list, key: tuple, attacker: int, thpn: int, thdn: int) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise OutOfBudget
        if self.nodes & 1023 == 0:
            if time.perf_counter() > self.deadline:
                raise OutOfBudget
            if self.progress is not None:
                self.progress(self.nodes)
        path = self._path
        if key in path:
            raise Repetition(list(self._line))
        table = self.tables[attacker]
        me = g.pending.player
        or_node = me == attacker
        cache = self._kids
        kids = cache.get(key)
        if kids is None:
            kids = cache[key] = self._children(g, acts)
            if len(cache) > CACHE:
                del cache[next(iter(cache))]
        numbers = self.numbers
        path.add(key)
        try:
            while True:
                best = -1
                b1 = b2 = INF + 1  # the least and second least proof (OR) or disproof (AND) number
                total = 0
                best_nums = (INF, INF)
                for i, k in enumerate(kids):
                    pn, dn = numbers(k[0], k[1], attacker, k[2])
                    lead, other = (pn, dn) if or_node else (dn, pn)
                    total += other
                    if lead < b1:
                        b2, b1, best, best_nums = b1, lead, i, (pn, dn)
                    elif lead < b2:
                        b2 = lead
                # proven or refuted only by the children's own proofs, never by a sum growing large
                if b1 == 0:
                    pn, dn = (0, INF) if or_node else (INF, 0)
                elif b1 >= INF:
                    pn, dn = (INF, 0) if or_node else (0, INF)
                else:
                    pn, dn = (b1, min(total, INF - 1)) if or_node else (min(total, INF - 1), b1)
                table[key] = [pn, dn]
                if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
                    return
                k = kids[best]
                cpn, cdn = best_nums
                second = min(b2, INF)
                if or_node:
                    c_thpn = min(thpn, int(second * (1 + EPSILON)) + 1)
                    c_thdn = thdn - dn + cdn
                else:
                    c_thdn = min(thdn, int(second * (1 + EPSILON)) + 1)
                    c_thpn = thpn - pn + cpn
                self._line.append(k[3])
                self._line.extend(k[4])
                self._mid(k[0], k[1], k[2], attacker, min(c_thpn, INF), min(c_thdn, INF))
                del self._line[len(self._line) - 1 - len(k[4]) :]
        finally:
            path.discard(key)
