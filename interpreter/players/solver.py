"""An exact solver for open positions: negamax with alpha-beta and a transposition table.

A position is *open* when nothing in it is hidden from either player: every card of the deck is
a known top card (or the deck is empty) and each player sees the other's hand. From such a
position the game is one of perfect information as long as nothing random happens, so its value
under perfect play — win, draw or loss for the player who must decide now (the turn player, or a
responder answering a counterable play) — is well defined. The solver finds it, with a best move:

- negamax over the engine's own decisions: each node is valued for whoever decides there, and a
  child decided by the same player is not negated (a player may decide twice in a row: a 4's
  discards, a counter after a counter...);
- alpha-beta on the three values -1, 0, +1 (fail-soft), so a won line stops the search of a node;
- a transposition table keyed on the exact position: every zone in order, roles, owners,
  attachments, marks, turn counters, passes, the pending decision, the running programs (frames)
  with their bindings, the chain of plays and counters, the generator's state;
- move ordering: the table's best move, then by the generic evaluation of the position after it;
- a node and time budget: when it runs out the solver says so ("budget ran out after N nodes")
  instead of guessing.

If a shuffle or a random choice (`by random`) can occur along a line, the position is not of
perfect information: the solver refuses and names the line that reaches it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from interpreter.core.errors import CuttleError
from interpreter.engine.game import Game
from interpreter.engine.knowledge import known_hidden
from interpreter.engine.machine import apply_action, enumerate_actions
from interpreter.engine.moves import Move
from interpreter.engine.state import DECK, DRAW, FIELD0, HAND0, SCRAP, State

from .heuristic import evaluate

EXACT, LOWER, UPPER = 0, 1, 2
RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}


class NotSolvable(CuttleError):
    """The position has hidden cards, or chance can still occur in it."""


class _OutOfBudget(Exception):
    pass


@dataclass
class Solution:
    """The value of a position for `player` (who decides there) under perfect play, if `complete`."""

    player: int
    value: int | None              # +1 win, 0 draw, -1 loss for `player`; None if the budget ran out
    move: Move | None              # a best move (None if the budget ran out or the game is over)
    nodes: int
    seconds: float
    complete: bool
    line: list[Move] = field(default_factory=list)  # a principal variation from the table
    moves: dict[str, int] = field(default_factory=dict)  # with `all_moves`: every legal move's value

    @property
    def result(self) -> str:
        return "unknown" if self.value is None else RESULT_WORDS[self.value]

    def describe(self) -> str:
        who = f"p{self.player + 1}"
        if not self.complete:
            return (f"budget ran out after {self.nodes:,} nodes ({self.seconds:.1f} s): no result "
                    f"(raise --nodes or --seconds)")
        best = f"; best move: {self.move}" if self.move is not None else ""
        return f"{who} to decide: {self.result} under perfect play{best} ({self.nodes:,} nodes, {self.seconds:.2f} s)"


def hidden_reason(state: State) -> str | None:
    """Why the position is not open (something hidden), or None if it is."""
    if state.winner is not None:
        return None
    deck = state.zones[DECK]
    known = [known_hidden(state, p) for p in (0, 1)]
    unknown = len(deck) - min(len(k[1]) for k in known)
    if unknown > 0:
        return f"the deck holds {unknown} card(s) nobody has seen" if all(not k[1] for k in known) else \
            f"the deck holds {unknown} card(s) a player has not seen"
    for p in (0, 1):
        if len(known[p][0]) < len(state.zones[HAND0 + 1 - p]):
            return f"p{2 - p}'s hand is hidden from p{p + 1}"
    return None


_DECK_MOVE = re.compile(r"move\s+(.+?)\s+to\s+deck\b")
_INDEXED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\[")
_SAFE_TO_DECK = re.compile(r"^(target|card|shown|top\(\s*\w+\s*\))$")


def _strings(data: object) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


def order_free(rules) -> bool:
    """True if no rule of the ruleset can tell the order of the cards inside a hand, a field or the
    scrap: then those zones are compared as sets (more transpositions), which is still exact.
    Conservative, read from the rules' text: `first(...)` only of a `top(...)` (0 or 1 card), no
    `for each`, a list index only into a constant, and nothing but one card (`target`, `card`,
    `top(...)`) or the revealed cards moved onto the deck."""
    cached = getattr(rules, "_solver_order_free", None)
    if cached is not None:
        return cached
    constants = set((rules.data.get("constants") or {}).keys())
    ok = True
    for text in _strings(rules.data):
        t = " ".join(text.split())
        if re.search(r"first\((?!\s*top\()", t) or "for each" in t:
            ok = False
        if any(m.group(1) not in constants for m in _INDEXED.finditer(t)):
            ok = False
        if any(not _SAFE_TO_DECK.match(m.group(1).strip()) for m in _DECK_MOVE.finditer(t)):
            ok = False
    rules._solver_order_free = ok
    return ok


class Solver:
    def __init__(self, max_nodes: int = 2_000_000, max_seconds: float = 60.0) -> None:
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self.table: dict[tuple, tuple[int, int, Move | None]] = {}
        self.nodes = 0
        self._deadline = 0.0
        self._keep: dict[int, object] = {}  # objects keyed by id: kept alive so that no id is reused
        self._rng = 0
        self._line: list[Move] = []
        self._sets = False

    # -- entry points ----------------------------------------------------------------------------
    def solve_game(self, game: Game, all_moves: bool = False) -> Solution:
        return self.solve(game.state, all_moves)

    def solve(self, state: State, all_moves: bool = False) -> Solution:
        """The value of `state` for the player who decides in it. Raises NotSolvable when something
        is hidden or a random event can occur."""
        why = hidden_reason(state)
        if why is not None:
            raise NotSolvable(f"cannot solve: {why} (only positions where nothing is hidden can be solved)")
        if state.pending is None:
            raise NotSolvable("cannot solve: the game is over")
        t0 = time.perf_counter()
        self._deadline = t0 + self.max_seconds
        self.nodes = 0
        self._rng = state.rng.s
        self._sets = order_free(state.rules)
        me = state.pending.player
        try:
            # two null-window searches (is it a win? is it a loss?) prune more than one full window
            if self._search(state, 0, 1) >= 1:
                value = 1
            else:
                value = -1 if self._search(state, -1, 0) <= -1 else 0
            move = self._best(state)
            per_move: dict[str, int] = {}
            if all_moves:
                for m, a in enumerate_actions(state):
                    c = state.copy()
                    self._line = [m]
                    apply_action(c, a)
                    self._check_chance(c)
                    per_move[str(m)] = self._value_after(c, me, -1, 1)
        except _OutOfBudget:
            return Solution(me, None, None, self.nodes, time.perf_counter() - t0, False)
        return Solution(me, value, move, self.nodes, time.perf_counter() - t0, True, self.principal_line(state),
                        per_move)

    # -- the search ------------------------------------------------------------------------------
    def _value_after(self, c: State, player: int, alpha: int, beta: int) -> int:
        """The value for `player` of the position `c` reached by one of their moves."""
        w = c.winner
        if w is not None:
            return 0 if w == DRAW else 1 if w == player else -1
        if c.pending.player == player:
            return self._search(c, alpha, beta)
        return -self._search(c, -beta, -alpha)

    def _search(self, g: State, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 1023 == 0 and time.perf_counter() > self._deadline):
            raise _OutOfBudget
        key = self.key(g)
        hit = self.table.get(key)
        tt_move = None
        if hit is not None:
            v, flag, tt_move = hit
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        me = g.pending.player
        alpha0 = alpha
        children = []
        for m, a in enumerate_actions(g):
            c = g.copy()
            self._line.append(m)
            apply_action(c, a)
            self._check_chance(c)
            self._line.pop()
            if c.winner is not None and c.winner == me:  # a move that wins at once: nothing is better
                self.table[key] = (1, EXACT, m)
                return 1
            children.append((m, c))
        children.sort(key=lambda mc: (mc[0] != tt_move, -self._order(mc[1], me)))
        best, best_move = -2, None
        for m, c in children:
            self._line.append(m)
            v = self._value_after(c, me, alpha, beta)
            self._line.pop()
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[key] = (best, flag, best_move)
        return best

    @staticmethod
    def _order(c: State, me: int) -> float:
        if c.winner is not None:
            return 0.0 if c.winner == DRAW else 1e6 if c.winner == me else -1e6
        return evaluate(c, me)

    def _check_chance(self, c: State) -> None:
        if c.rng.s != self._rng:
            line = " then ".join(f"'{m}'" for m in self._line)
            raise NotSolvable(f"cannot solve: a random event (a shuffle or a random choice) can happen after {line}")

    def _best(self, state: State) -> Move | None:
        hit = self.table.get(self.key(state))
        return None if hit is None else hit[2]

    def principal_line(self, state: State, limit: int = 40) -> list[Move]:
        """Best moves from the table, as far as it knows them."""
        line: list[Move] = []
        g = state
        for _ in range(limit):
            if g.winner is not None or g.pending is None:
                break
            m = self._best(g)
            if m is None:
                break
            action = dict(enumerate_actions(g)).get(m)
            if action is None:
                break
            g = g.copy()
            apply_action(g, action)
            line.append(m)
        return line

    # -- the exact position key ------------------------------------------------------------------
    def _ref(self, obj: object) -> int:
        self._keep[id(obj)] = obj
        return id(obj)

    def _freeze(self, v: object) -> object:
        if v is None or isinstance(v, (int, str, float)):
            return v
        if isinstance(v, tuple):
            return tuple(self._freeze(x) for x in v)
        return ("ref", self._ref(v))

    def key(self, g: State) -> tuple:
        """Every field of the state that matters (State.key(), with programs and rule objects by
        identity: they are kept alive for the whole solve, so no identity is reused). Hands, fields
        and the scrap are compared as sets when no rule reads their order (`order_free`)."""
        fr = self._freeze
        if self._sets:
            zones = tuple(tuple(sorted(z)) if i in _SET_ZONES else tuple(z) for i, z in enumerate(g.zones))
            d = g.pending
            pending = (d.player, d.kind, d.verb, d.count, tuple(sorted(d.options))) if d is not None else None
        else:
            zones = tuple(map(tuple, g.zones))
            pending = fr(g.pending)
        return (zones, tuple(g.role), tuple(g.owner), tuple(g.host),
                tuple(sorted((k, tuple(v)) for k, v in g.atts.items() if v)),
                tuple(sorted(g.marks.items())), g.turn, g.turn_no, g.passes, g.passed, g.winner,
                tuple((self._ref(f[0]), f[1], tuple(sorted((k, fr(x)) for k, x in f[2].items()))) for f in g.frames),
                pending, fr(g.chain), g.rng.s, g.wins, g.hands, g.known)


_SET_ZONES = frozenset({HAND0, HAND0 + 1, FIELD0, FIELD0 + 1, SCRAP})


def solve(state: State | Game, max_nodes: int = 2_000_000, max_seconds: float = 60.0,
          all_moves: bool = False) -> Solution:
    """Solve an open position (a State or a Game); see Solver."""
    s = state.state if isinstance(state, Game) else state
    return Solver(max_nodes, max_seconds).solve(s, all_moves)
