"""An exact solver for open positions: negamax with alpha-beta and a transposition table.

A position is *open* when nothing in it is hidden from either player: every card of the deck is
a known top card (or the deck is empty) and each player sees the other's hand. From such a
position the game is one of perfect information as long as nothing random happens, so its value
under perfect play — win, draw or loss for the player who must decide now (the turn player, or a
responder answering a counterable play) — is well defined. The solver finds it, with a best move:

- negamax over the engine's own decisions (the raw compiled engine: `legal_actions`/`apply_action`
  on copies of the state): each node is valued for whoever decides there, and a child decided by
  the same player is not negated (a player may decide twice in a row: a 4's discards, a counter
  after a counter...);
- alpha-beta on the three values -1, 0, +1, as two null-window tests (is it a win? is it a loss?);
- a transposition table of bounds (lowest and highest value known) keyed on the exact position
  (`position_key`): every card's zone, role, owner and attachment, the order of the ordered zones,
  turn, passes, marks (relative to the turn), the pending decision, the running programs with their
  bindings, the chain of plays and counters. The turn number and the move count are not in it: no
  rule reads them but through marks, which are keyed relative to the turn;
- move ordering: the table's move, then moves that win at once, then a child whose table bound
  already cuts (enhanced transposition cutoff), then the history of moves that cut elsewhere, then
  the generic evaluation of the position after the move;
- a node and time budget: when it runs out the solver says so ("budget ran out after N nodes")
  instead of guessing.

If a shuffle or a random choice (`by random`) can occur along a line, the position is not of
perfect information: the solver refuses and names the line that reaches it. A line that comes back
to a position already on it (possible only with rules that can undo every change) is refused too:
the value would then depend on the engine's move limit.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from interpreter.core.errors import CuttleError
from interpreter.engine.game import Game
from interpreter.engine.knowledge import face_down, known_hidden, knows
from interpreter.engine.machine import apply_action, enumerate_actions, legal_actions, move_of
from interpreter.engine.moves import Move
from interpreter.engine.state import DECK, DRAW, HAND0, SHOWN, STACK, State
from interpreter.language.phrasing import counted

from .dfpn import OutOfBudget, ProofSearch, Repetition
from .heuristic import evaluate

RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}
_ORDERED = (DECK, STACK, SHOWN)  # zones whose order the key always keeps (a deck's top, the stack)


def _act_key(a: tuple) -> tuple:
    """An action as a hashable value (its play or response definition by identity)."""
    return a if len(a) < 3 else (a[0], id(a[1])) + a[2:]


class NotSolvable(CuttleError):
    """The position has hidden cards, or chance can still occur in it."""


class _OutOfBudget(Exception):
    pass


@dataclass
class Solution:
    """The value of a position for `player` (who decides there) under perfect play, if `complete`."""

    player: int
    value: int | None  # +1 win, 0 draw, -1 loss for `player`; None if the budget ran out
    move: Move | None  # a best move (None if the budget ran out or the game is over)
    nodes: int
    seconds: float
    complete: bool
    line: list[Move] = field(default_factory=list)  # a principal variation from the table
    moves: dict[str, int] = field(default_factory=dict)  # with `all_moves`: every legal move's value
    stopped: bool = False  # stopped by Ctrl-C (not by the budget)

    @property
    def result(self) -> str:
        return "unknown" if self.value is None else RESULT_WORDS[self.value]

    def describe(self) -> str:
        who = f"p{self.player + 1}"
        if self.stopped:
            return f"stopped (Ctrl-C) after {self.nodes:,} nodes ({self.seconds:.1f} s): no result"
        if not self.complete:
            return (
                f"budget ran out after {self.nodes:,} nodes ({self.seconds:.1f} s): no result "
                f"(raise --nodes or --seconds)"
            )
        best = f"; best move: {self.move}" if self.move is not None else ""
        return f"{who} to decide: {self.result} under perfect play{best} ({self.nodes:,} nodes, {self.seconds:.2f} s)"


def hidden_reason(state: State) -> str | None:
    """Why the position is not open (something hidden), or None if it is. (The solver plays two sides,
    one against the other: a table of more seats is never open to it.)"""
    if state.winner is not None:
        return None
    if state.rules.seats > 2:
        return f"the exact solver plays two sides, one against the other; this game seats {state.rules.seats} players"
    deck = state.zones[DECK]
    known = [known_hidden(state, p) for p in (0, 1)]
    unknown = len(deck) - min(len(k[1]) for k in known)
    if unknown > 0:
        return (
            f"the deck holds {counted(unknown, 'card')} nobody has seen"
            if all(not k[1] for k in known)
            else f"the deck holds {counted(unknown, 'card')} a player has not seen"
        )
    for p in (0, 1):
        if len(known[p][0]) < len(state.zones[HAND0 + 1 - p]):
            return f"p{2 - p}'s hand is hidden from p{p + 1}"
    for p in (0, 1):  # a card face down in play that a player does not know
        for q in (0, 1):
            if any(not knows(state, p, c) for c in face_down(state, q)):
                return f"a card face down in front of p{q + 1} is hidden from p{p + 1}"
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


METHODS = ("dfpn", "alphabeta")


class Solver:
    def __init__(self, max_nodes: int = 2_000_000, max_seconds: float = 60.0, method: str = "dfpn") -> None:
        if method not in METHODS:
            raise CuttleError(f"unknown solver method '{method}' (methods: {', '.join(METHODS)})")
        self.method = method
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self.proofs: ProofSearch | None = None  # with method "dfpn": its tables
        self.opponent_first = False  # df-pn: ask "can the opponent force a win?" first (the same value)
        # position key -> [lowest value, highest value, best action or None] for the player deciding there
        self.table: dict[tuple, list] = {}
        self.history: dict[tuple, int] = {}  # action key -> how often it cut off a search (move ordering)
        self.nodes = 0
        #: told the node count about every 1,024 nodes (`cuttle solve` draws its progress line with it)
        self.progress: Callable[[int], None] | None = None
        self._deadline = 0.0
        self._keep: dict[int, object] = {}  # objects keyed by id: kept alive so that no id is reused
        self._rng = 0
        self._line: list[tuple] = []  # the actions from the root to the node being searched
        self._path: set[tuple] = set()  # the keys of the positions on that line
        self._sets = False
        self._turns = False  # whether the rules read the turn number (then it is part of a position)
        self._root: State | None = None
        self._pick = itemgetter(-1, -1)

    # -- entry points ----------------------------------------------------------------------------
    def solve_game(self, game: Game, all_moves: bool = False) -> Solution:
        return self.solve(game.state, all_moves)

    def solve(self, state: State, all_moves: bool = False) -> Solution:
        """The value of `state` for the player who decides in it. Raises NotSolvable when something
        is hidden or a random event can occur.

        Python's cyclic garbage collector is paused while it searches: the tables and the kept
        positions are hundreds of thousands of live objects that every collection would walk again
        (it halved the search's speed); it is resumed afterwards."""
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._solve(state, all_moves)
        finally:
            if was_enabled:
                gc.enable()

    def _solve(self, state: State, all_moves: bool) -> Solution:
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
        self._turns = state.rules.ctx.reads_turns
        self._root = state
        # the cards of this game (no card enters or leaves it): only theirs are read for the key
        cards = [c for c in range(len(state.zone_of)) if state.zone_of[c] >= 0] + [-1, -1]
        self._pick = itemgetter(*cards)  # two dummies: always a tuple, even for one card
        me = state.pending.player
        if self.method == "dfpn":
            return self._solve_dfpn(state, all_moves, t0)
        try:
            # two null-window searches (is it a win? is it a loss?) prune more than one full window
            if self._search(state, 0, 1, None) >= 1:
                value = 1
            else:
                value = -1 if self._search(state, -1, 0, None) <= -1 else 0
            move = self._best(state)
            per_move: dict[str, int] = {}
            if all_moves:
                for m, a in enumerate_actions(state):
                    c = state.copy()
                    self._line = [a]
                    apply_action(c, a)
                    self._check_chance(c, state)
                    per_move[str(m)] = self._value_after(c, me, -1, 1, None)
        except _OutOfBudget:
            return Solution(me, None, None, self.nodes, time.perf_counter() - t0, False)
        except KeyboardInterrupt:
            return Solution(me, None, None, self.nodes, time.perf_counter() - t0, False, stopped=True)
        finally:
            self._line, self._path = [], set()
        return Solution(
            me, value, move, self.nodes, time.perf_counter() - t0, True, self.principal_line(state), per_move
        )

    # -- df-pn: two binary questions (interpreter/players/dfpn.py) ------------------------------------
    def _solve_dfpn(self, state: State, all_moves: bool, t0: float) -> Solution:
        me = state.pending.player
        ps = self.proofs = ProofSearch(self.key, self._chance, self.max_nodes, self._deadline)
        ps.progress = self.progress
        try:
            value = self._value_dfpn(state, [])
            act = self._dfpn_best(state, value)
            move = None if act is None else move_of(state, act)
            per_move: dict[str, int] = {}
            if all_moves:
                for m, a in enumerate_actions(state):
                    c = state.copy()
                    line = [a]
                    apply_action(c, a)
                    self._chance(c, line)
                    if ps.settle(c, line) is None:
                        v = 0 if c.winner == DRAW else 1 if c.winner == me else -1
                    else:
                        v = self._value_dfpn(c, line)
                        v = v if c.pending.player == me else -v
                    per_move[str(m)] = v
        except OutOfBudget:
            return Solution(me, None, None, ps.nodes, time.perf_counter() - t0, False)
        except KeyboardInterrupt:  # Ctrl-C: the search stops, with what it spent
            return Solution(me, None, None, ps.nodes, time.perf_counter() - t0, False, stopped=True)
        except Repetition as e:
            back = " then ".join(f"'{m}'" for m in self._moves(e.line)[-8:])
            raise NotSolvable(
                f"cannot solve: a position can come back (after {back}): its value would "
                f"depend on the engine's move limit"
            ) from None
        self.nodes = ps.nodes
        pv = self.principal_line(state, first=act)
        return Solution(me, value, move, ps.nodes, time.perf_counter() - t0, True, pv, per_move)

    def _proofs(self) -> ProofSearch:
        """The df-pn tables of the solve under way."""
        if self.proofs is None:
            raise NotSolvable("internal error: no proof search is under way")
        return self.proofs

    def _value_dfpn(self, state: State, prefix: list[tuple]) -> int:
        """The value of the undecided `state` for whoever decides there: a win if they can force one,
        a loss if the opponent can, else a draw."""
        ps = self._proofs()
        me = state.pending.player
        if self.opponent_first:
            if ps.prove(state, 1 - me, prefix):
                return -1
            return 1 if ps.prove(state, me, prefix) else 0
        if ps.prove(state, me, prefix):
            return 1
        return -1 if ps.prove(state, 1 - me, prefix) else 0

    def _chance(self, c: State, line: list[tuple]) -> None:
        if c.rng.s != self._rng:
            moves = " then ".join(f"'{m}'" for m in self._moves(line))
            raise NotSolvable(f"cannot solve: a random event (a shuffle or a random choice) can happen after {moves}")

    def known(self, g: State, player: int) -> int | None:
        """The value of `g` for `player` as far as the df-pn tables (or the end of the game) tell."""
        if g.winner is not None:
            return 0 if g.winner == DRAW else 1 if g.winner == player else -1
        c = g.copy()
        proofs = self._proofs()
        if proofs.settle(c, []) is None:
            return self.known(c, player)
        k = self.key(c)
        mine, theirs = proofs.tables[player].get(k), proofs.tables[1 - player].get(k)
        if mine is not None and mine[0] == 0:
            return 1
        if theirs is not None and theirs[0] == 0:
            return -1
        if mine is not None and theirs is not None and mine[1] == 0 and theirs[1] == 0:
            return 0
        return None

    def _dfpn_best(self, g: State, value: int) -> tuple | None:
        """A move of `g` that keeps `value` for whoever decides there (per the tables), or None."""
        me = g.pending.player
        for a in legal_actions(g):
            c = g.copy()
            apply_action(c, a)
            if self.known(c, me) == value:
                return a
        return None

    # -- the search ------------------------------------------------------------------------------
    def _value_after(self, c: State, player: int, alpha: int, beta: int, key: tuple | None) -> int:
        """The value for `player` of the position `c` reached by one of their moves."""
        w = c.winner
        if w is not None:
            return 0 if w == DRAW else 1 if w == player else -1
        if c.pending.player == player:
            return self._search(c, alpha, beta, key)
        return -self._search(c, -beta, -alpha, key)

    def _search(self, g: State, alpha: int, beta: int, key: tuple | None) -> int:
        """The value of `g` for the player deciding there, fail-soft: at most `alpha` means at most
        that value, at least `beta` means at least that value, anything between is exact."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.nodes & 1023 == 0:
            if time.perf_counter() > self._deadline:
                raise _OutOfBudget
            if self.progress is not None:
                self.progress(self.nodes)
        if key is None:
            key = self.key(g)
        table = self.table
        entry = table.get(key)
        if entry is None:
            entry = table[key] = [-1, 1, None]
        else:
            lo, hi = entry[0], entry[1]
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        path = self._path
        if key in path:
            line = " then ".join(f"'{move_of(g, a)}'" for a in self._line[-8:])
            raise NotSolvable(
                f"cannot solve: a position can come back (after {line}): its value would "
                f"depend on the engine's move limit"
            )
        path.add(key)
        try:
            best = self._children(g, alpha, beta, entry)
        finally:
            path.discard(key)
        return best

    def _children(self, g: State, alpha: int, beta: int, entry: list) -> int:
        me = g.pending.player
        lo, hi = entry[0], entry[1]
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        # the window this node is searched with: what `_store` reads the result against (alpha itself
        # rises as better moves are found, and a value equal to the raised alpha is still exact or a
        # lower bound: read against the raised one, a cut-off's move and bound were not stored, and
        # the table's move from an earlier, narrower search (possibly a losing one) stayed)
        alpha0 = alpha
        acts = legal_actions(g)
        line = self._line
        history = self.history
        best, best_act = -2, None
        tt_act = None
        if entry[2] is not None:  # the table's move first, before expanding the others
            tt_act = next((a for a in acts if _act_key(a) == entry[2]), None)
        if tt_act is not None:
            c = g.copy()
            line.append(tt_act)
            apply_action(c, tt_act)
            self._check_chance(c, g)
            v = self._value_after(c, me, alpha, beta, None)
            line.pop()
            best, best_act = v, tt_act
            if v >= beta:
                return self._store(entry, v, alpha0, beta, tt_act)
            if v > alpha:
                alpha = v
        # expand every other move: a move that wins at once ends the search; a child whose table
        # bound already cuts ends it too; the rest are ordered
        children: list[Any] = []
        table = self.table
        key_of = self.key
        for a in acts:
            if a is tt_act:
                continue
            c = g.copy()
            apply_action(c, a)
            self._check_chance(c, g, a)
            w = c.winner
            if w is not None:
                v = 0 if w == DRAW else 1 if w == me else -1
                if v > best:
                    best, best_act = v, a
                    if v >= beta:
                        ak = _act_key(a)
                        history[ak] = history.get(ak, 0) + 1
                        return self._store(entry, v, alpha0, beta, a)
                    if v > alpha:
                        alpha = v
                continue
            k = key_of(c)
            e = table.get(k)
            if e is not None:
                same = c.pending.player == me
                v_lo = e[0] if same else -e[1]
                if v_lo >= beta:
                    ak = _act_key(a)
                    history[ak] = history.get(ak, 0) + 1
                    return self._store(entry, v_lo, alpha0, beta, a)
                v_hi = e[1] if same else -e[0]
                if v_hi <= alpha or v_hi <= best:  # cannot improve: counts as searched
                    if v_hi > best:
                        best, best_act = v_hi, a
                    continue
            children.append((-history.get(_act_key(a), 0), -evaluate(c, me), len(children), a, c, k))
        children.sort()
        for item in children:
            a, c, k = item[3], item[4], item[5]
            line.append(a)
            v = self._value_after(c, me, alpha, beta, k)
            line.pop()
            if v > best:
                best, best_act = v, a
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        ak = _act_key(a)
                        history[ak] = history.get(ak, 0) + 1
                        break
        return self._store(entry, best, alpha0, beta, best_act)

    @staticmethod
    def _store(entry: list, v: int, alpha: int, beta: int, act: tuple | None) -> int:
        """Record what a search with the window (alpha, beta) found: `v` is an upper bound if it
        failed low, a lower bound if it failed high, exact in between."""
        if v < beta and v < entry[1]:
            entry[1] = v
        if v > alpha and v > entry[0]:
            entry[0] = v
        if act is not None and (v > alpha or entry[2] is None):  # a fail-low move: any move loses as much
            entry[2] = _act_key(act)
        return v

    def _check_chance(self, c: State, g: State, a: tuple | None = None) -> None:
        if c.rng.s != self._rng:
            acts = self._line + ([a] if a is not None else [])
            line = " then ".join(f"'{m}'" for m in self._moves(acts))
            raise NotSolvable(f"cannot solve: a random event (a shuffle or a random choice) can happen after {line}")

    def _moves(self, actions: list[tuple]) -> list[Move]:
        """The notation of a line of actions from the root."""
        return [move_of(g, a) for g, a in self._replay(actions)]

    def _replay(self, actions: list[tuple]) -> list[tuple[State, tuple]]:
        g = self._root
        if g is None:
            raise NotSolvable("internal error: no solve is under way")
        out = []
        for a in actions:
            out.append((g, a))
            g = g.copy()
            apply_action(g, a)
        return out

    def _best_action(self, state: State) -> tuple | None:
        if self.method == "dfpn":
            value = self.known(state, state.pending.player)
            return None if value is None else self._dfpn_best(state, value)
        hit = self.table.get(self.key(state))
        if hit is None or hit[2] is None or hit[0] != hit[1]:
            return None  # (a bound only: its move is not known to keep the value)
        return next((a for a in legal_actions(state) if _act_key(a) == hit[2]), None)

    def _best(self, state: State) -> Move | None:
        a = self._best_action(state)
        return None if a is None else move_of(state, a)

    def principal_line(self, state: State, limit: int = 40, first: tuple | None = None) -> list[Move]:
        """Best moves from the table, as far as it knows them (beginning with `first`, the best move
        the solve named, when given)."""
        line: list[Move] = []
        g = state
        for i in range(limit):
            if g.winner is not None or g.pending is None:
                break
            a = first if i == 0 and first is not None else self._best_action(g)
            if a is None:
                break
            line.append(move_of(g, a))
            g = g.copy()
            apply_action(g, a)
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
        """Every field of the state that decides what can happen next (see the module doc), with
        programs and rule objects by identity (kept alive for the whole solve, so no identity is
        reused). Hands, fields and the scrap are compared as sets when no rule reads their order
        (`order_free`): then each card's zone says all there is to know about them."""
        zones = g.zones
        pick = self._pick
        where: tuple[Any, ...]
        if self._sets:
            where = (pick(g.zone_of), tuple(zones[DECK]), tuple(zones[STACK]), tuple(zones[SHOWN]))
        else:
            where = tuple(map(tuple, zones))
        d = g.pending
        if g.frames or g.chain or d.kind != "main":
            fr = self._freeze
            if self._sets and d.options:
                pending: object = (d.player, d.kind, d.verb, d.count, tuple(sorted(d.options)))
            else:
                pending = fr(d)
            extra: tuple = (
                pending,
                fr(g.chain),
                tuple((self._ref(f[0]), f[1], tuple(sorted((k, fr(x)) for k, x in f[2].items()))) for f in g.frames),
            )
        else:
            extra = (d.player,)
        marks = tuple(sorted((k, until - g.turn_no) for k, until in g.marks.items())) if g.marks else ()
        counters = (
            tuple(sorted((k, v, until - g.turn_no) for k, (v, until) in g.counters.items())) if g.counters else ()
        )
        atts = tuple(sorted((k, tuple(v)) for k, v in g.atts.items() if v)) if g.atts else ()
        return (
            where,
            pick(g.role),
            pick(g.owner),
            atts,
            marks,
            g.turn,
            g.passes,
            g.passed,
            extra,
            g.wins,
            g.hands,
            counters,
            g.turn_no if self._turns else 0,
        )


def solve(
    state: State | Game,
    max_nodes: int = 2_000_000,
    max_seconds: float = 60.0,
    all_moves: bool = False,
    method: str = "dfpn",
) -> Solution:
    """Solve an open position (a State or a Game); see Solver."""
    s = state.state if isinstance(state, Game) else state
    return Solver(max_nodes, max_seconds, method).solve(s, all_moves)
