"""Compiling the effect-language tree into Python closures and a flat instruction list.

Expressions become closures `f(state, env)`; programs become tuples of instructions run by the
engine (`engine.Game._run`). `choose` and `play from` are the only instructions that suspend for a
player's decision, so everything else (including `for each` bodies) compiles to plain closures.
One dispatch (`_EXPR`, `_STMT`) over the node types, and a table of primitives (`PRIMITIVES`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import effect_ast as A
from .cards import ALL_RANKS, NAMES, RANK_OF
from .errors import RulesetError, suggest
from .source import Span
from .state import DECK, FIELD0, HAND0, RANDOM, SCRAP, SHOWN

Fn = Callable[[Any, dict], Any]

# instruction op codes
EXEC, JUMP_IF_NOT, JUMP, CHOOSE, PLAY, BUILTIN = range(6)

CARD_ATTRS = ("rank", "suit", "value", "role", "owner", "controller", "host", "jacks", "top", "attached",
              "name")
BOUND_ALWAYS = frozenset({"me", "opponent", "random", "none"})


def as_cards(v) -> tuple[int, ...]:
    if isinstance(v, int) and not isinstance(v, bool):
        return () if v < 0 else (v,)
    if v is None:
        return ()
    return tuple(v)


@dataclass
class Context:
    """What names mean in one ruleset: constants, definitions, ranks, roles, suits, values."""

    constants: dict[str, Any] = field(default_factory=dict)
    defines: dict[str, tuple[tuple[str, ...], A.Node, Span | None]] = field(default_factory=dict)
    roles: set[str] = field(default_factory=set)
    ranks: tuple[str, ...] = ALL_RANKS
    suit_rank: dict[str, int] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)
    marks: set[str] = field(default_factory=set)
    verbs: set[str] = field(default_factory=set)


PRIMITIVE_ARITY: dict[str, tuple[int, int]] = {
    "count": (1, 1), "total": (1, 1), "min": (1, 9), "max": (1, 9), "top": (1, 1), "score": (1, 1),
    "goal": (1, 1), "can_play": (1, 1), "marked": (2, 2), "other": (1, 1), "any": (1, 1),
    "first": (1, 1), "same_rank": (1, 1),
}


class Compiler:
    def __init__(self, ctx: Context, span: Span | None = None) -> None:
        self.ctx = ctx
        self.span = span
        self._expanding: list[str] = []

    # -- errors -------------------------------------------------------------------------------
    def error(self, node: A.Node, message: str, code: str = "E201", hint: str | None = None) -> RulesetError:
        where = self.span.locate(node.line or 1, node.column or 1) if self.span else None
        return RulesetError(message, where, code=code, hint=hint)

    # -- expressions --------------------------------------------------------------------------
    def expr(self, node: A.Node, bound: frozenset[str]) -> Fn:
        method = _EXPR.get(type(node))
        if method is None:
            raise self.error(node, f"{type(node).__name__} is not an expression")
        return method(self, node, bound)

    def _num(self, node: A.Num, bound) -> Fn:
        v = node.value
        return lambda g, e: v

    def _str(self, node: A.Str, bound) -> Fn:
        v = node.value
        return lambda g, e: v

    def _name(self, node: A.Name, bound) -> Fn:
        n = node.name
        if n in bound or n in BOUND_ALWAYS:
            if n == "random":
                return lambda g, e: RANDOM
            if n == "none":
                return lambda g, e: -1
            return lambda g, e: e[n]
        if n in self.ctx.defines:
            params, _, _ = self.ctx.defines[n]
            if params:
                raise self.error(node, f"'{n}' takes {len(params)} argument(s): write {n}(...)")
            return self._expand(node, n, (), bound)
        if n in self.ctx.constants:
            v = self.ctx.constants[n]
            v = tuple(v) if isinstance(v, list) else v
            return lambda g, e: v
        if n in self.ctx.ranks:
            return lambda g, e: n
        if n in self.ctx.roles or n in self.ctx.marks:
            return lambda g, e: n
        known = set(bound) | BOUND_ALWAYS | set(self.ctx.defines) | set(self.ctx.constants) | set(
            self.ctx.ranks) | self.ctx.roles
        near = suggest(n, known)
        raise self.error(node, f"unknown name '{n}'", "E202", f"did you mean '{near}'?" if near else
                         "names are bound variables (me, opponent, card, target, it...), definitions, "
                         "constants, ranks and roles")

    def _list(self, node: A.ListLit, bound) -> Fn:
        fns = [self.expr(i, bound) for i in node.items]
        return lambda g, e: tuple(f(g, e) for f in fns)

    def _zone(self, node: A.Zone, bound) -> Fn:
        z = node.zone
        if z == "deck":
            return lambda g, e: g.zones[DECK]
        if z == "scrap":
            return lambda g, e: g.zones[SCRAP]
        if z == "shown":
            return lambda g, e: g.zones[SHOWN]
        if z == "play":
            return lambda g, e: g.zones[FIELD0] + g.zones[FIELD0 + 1]
        pf = self.expr(node.player, bound)
        base = HAND0 if z == "hand" else FIELD0
        return lambda g, e: g.zones[base + pf(g, e)]

    def _where(self, node: A.Where, bound) -> Fn:
        src = self.expr(node.source, bound)
        cond = self.expr(node.cond, bound | {"it"})

        def where(g, e):
            old = e.get("it")
            out = []
            for c in as_cards(src(g, e)):
                e["it"] = c
                if cond(g, e):
                    out.append(c)
            e["it"] = old
            return out
        return where

    def _coerce_rank(self, node: A.Node, other: A.Node) -> A.Node:
        """`it.rank == 9` compares rank names: a number beside `.rank` means that rank."""
        if isinstance(other, A.Attr) and other.name == "rank":
            if isinstance(node, A.Num):
                return A.Str(str(node.value), line=node.line, column=node.column)
            if isinstance(node, A.ListLit):
                return A.ListLit(tuple(self._coerce_rank(i, other) for i in node.items),
                                 line=node.line, column=node.column)
        return node

    def _binop(self, node: A.BinOp, bound) -> Fn:
        left_node = self._coerce_rank(node.left, node.right)
        right_node = self._coerce_rank(node.right, node.left)
        for side in (left_node, right_node):
            if isinstance(side, A.Str) and isinstance(node.left if side is right_node else node.right, A.Attr) \
                    and (node.left if side is right_node else node.right).name == "rank" \
                    and side.value not in self.ctx.ranks:
                raise self.error(side, f"'{side.value}' is not a rank of this ruleset", "E203")
        lf, rf = self.expr(left_node, bound), self.expr(right_node, bound)
        op = node.op
        if op == "and":
            return lambda g, e: bool(lf(g, e)) and bool(rf(g, e))
        if op == "or":
            return lambda g, e: bool(lf(g, e)) or bool(rf(g, e))
        if op == "in":
            return lambda g, e: lf(g, e) in rf(g, e)
        if op == "not in":
            return lambda g, e: lf(g, e) not in rf(g, e)
        table: dict[str, Callable[[Any, Any], Any]] = {
            "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
            "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
            "/": lambda a, b: a // b if b else 0,
        }
        f = table[op]
        if op == "==":
            return lambda g, e: lf(g, e) == rf(g, e)
        if op == "!=":
            return lambda g, e: lf(g, e) != rf(g, e)
        return lambda g, e: f(lf(g, e), rf(g, e))

    def _not(self, node: A.Not, bound) -> Fn:
        f = self.expr(node.operand, bound)
        return lambda g, e: not f(g, e)

    def _neg(self, node: A.Neg, bound) -> Fn:
        f = self.expr(node.operand, bound)
        return lambda g, e: -f(g, e)

    def _index(self, node: A.Index, bound) -> Fn:
        of, idx = self.expr(node.obj, bound), self.expr(node.index, bound)

        def index(g, e):
            seq, i = of(g, e), idx(g, e)
            if not seq:
                return 0
            return seq[max(0, min(i, len(seq) - 1))]
        return index

    def _attr(self, node: A.Attr, bound) -> Fn:
        of = self.expr(node.obj, bound)
        a = node.name
        if a not in CARD_ATTRS:
            near = suggest(a, CARD_ATTRS)
            raise self.error(node, f"a card has no attribute '{a}'", "E204",
                             f"did you mean '{near}'?" if near else f"attributes: {', '.join(CARD_ATTRS)}")
        if a == "rank":
            return lambda g, e: RANK_OF[of(g, e)]
        if a == "suit":
            sr = self.ctx.suit_rank
            return lambda g, e: sr.get(g.suit_of(of(g, e)), -1)
        if a == "value":
            vals = self.ctx.values
            return lambda g, e: vals.get(RANK_OF[of(g, e)], 0)
        if a == "name":
            return lambda g, e: NAMES[of(g, e)]
        if a == "role":
            return lambda g, e: g.role[of(g, e)]
        if a == "owner":
            return lambda g, e: g.owner[of(g, e)]
        if a == "controller":
            return lambda g, e: g.controller(of(g, e))
        if a == "host":
            return lambda g, e: g.host[of(g, e)]
        if a == "jacks":
            return lambda g, e: tuple(g.atts.get(of(g, e), ()))
        if a == "top":
            return lambda g, e: g.is_top(of(g, e))
        return lambda g, e: g.host[of(g, e)] >= 0  # attached

    def _call(self, node: A.Call, bound) -> Fn:
        name = node.func
        if name in self.ctx.defines:
            return self._expand(node, name, node.args, bound)
        if name not in PRIMITIVE_ARITY:
            near = suggest(name, list(PRIMITIVE_ARITY) + list(self.ctx.defines))
            raise self.error(node, f"unknown function '{name}'", "E205",
                             f"did you mean '{near}'?" if near else None)
        lo, hi = PRIMITIVE_ARITY[name]
        if not lo <= len(node.args) <= hi:
            raise self.error(node, f"{name}() takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), "
                                   f"got {len(node.args)}", "E206")
        args = [self.expr(x, bound) for x in node.args]
        a0 = args[0]
        if name == "count":
            return lambda g, e: len(as_cards(a0(g, e)))
        if name == "any":
            return lambda g, e: len(as_cards(a0(g, e))) > 0
        if name == "total":
            vals = self.ctx.values
            return lambda g, e: sum(vals.get(RANK_OF[c], 0) for c in as_cards(a0(g, e)))
        if name == "min":
            if len(args) == 1:
                return lambda g, e: min(a0(g, e), default=0)
            return lambda g, e: min(f(g, e) for f in args)
        if name == "max":
            if len(args) == 1:
                return lambda g, e: max(a0(g, e), default=0)
            return lambda g, e: max(f(g, e) for f in args)
        if name == "top":
            def top(g, e):
                atts = g.atts.get(a0(g, e))
                return (atts[-1],) if atts else ()
            return top
        if name == "first":
            def first(g, e):
                cs = as_cards(a0(g, e))
                return cs[0] if cs else -1
            return first
        if name == "score":
            return lambda g, e: g.rules.score_of(g, a0(g, e))
        if name == "goal":
            return lambda g, e: g.rules.goal_of(g, a0(g, e))
        if name == "can_play":
            return lambda g, e: g.rules.can_play(g, e["me"], as_cards(a0(g, e)))
        if name == "marked":
            a1 = args[1]
            return lambda g, e: g.is_marked(a0(g, e), a1(g, e))
        if name == "same_rank":
            return lambda g, e: len({RANK_OF[c] for c in as_cards(a0(g, e))}) <= 1
        return lambda g, e: 1 - a0(g, e)  # other

    def _expand(self, node: A.Node, name: str, args: tuple[A.Node, ...], bound) -> Fn:
        params, body, span = self.ctx.defines[name]
        if len(args) != len(params):
            raise self.error(node, f"'{name}' takes {len(params)} argument(s), got {len(args)}", "E206")
        if name in self._expanding:
            raise self.error(node, f"definition '{name}' refers to itself ("
                                   f"{' -> '.join(self._expanding + [name])}); definitions cannot recurse",
                             "E207")
        argf = [self.expr(a, bound) for a in args]
        self._expanding.append(name)
        saved_span, self.span = self.span, span
        try:
            bodyf = self.expr(body, frozenset(params) | {"me", "opponent"})
        finally:
            self.span = saved_span
            self._expanding.pop()
        if not params:
            return bodyf
        plist = tuple(params)

        def call(g, e):
            vals = [f(g, e) for f in argf]
            old = [e.get(p) for p in plist]
            for p, v in zip(plist, vals, strict=True):
                e[p] = v
            try:
                return bodyf(g, e)
            finally:
                for p, v in zip(plist, old, strict=True):
                    e[p] = v
        return call

    # -- statements ---------------------------------------------------------------------------
    def program(self, prog: A.Program | tuple[A.Node, ...], bound: frozenset[str]) -> tuple:
        body = prog.body if isinstance(prog, A.Program) else prog
        out: list = []
        self._block(body, set(bound), out)
        return tuple(tuple(i) for i in out)

    def _block(self, body, bound: set[str], out: list) -> None:
        for stmt in body:
            self._stmt(stmt, bound, out)

    def _stmt(self, node: A.Node, bound: set[str], out: list) -> None:
        fb = frozenset(bound)
        if isinstance(node, A.If):
            cond = self.expr(node.cond, fb)
            jif = [JUMP_IF_NOT, cond, -1]
            out.append(jif)
            self._block(node.then, bound, out)
            if node.orelse:
                j = [JUMP, -1]
                out.append(j)
                jif[2] = len(out)
                self._block(node.orelse, bound, out)
                j[1] = len(out)
            else:
                jif[2] = len(out)
            return
        if isinstance(node, A.Choose):
            count, src, who = self.expr(node.count, fb), self.expr(node.source, fb), self.expr(node.chooser, fb)
            self.ctx.verbs.add(node.verb)
            out.append([CHOOSE, count, src, who, node.verb])
            bound.add(node.verb)
            bound.add("chosen")
            return
        if isinstance(node, A.PlayFrom):
            out.append([PLAY, self.expr(node.source, fb)])
            return
        if isinstance(node, A.Let):
            f = self.expr(node.value, fb)
            name = node.name

            def let(g, e):
                e[name] = f(g, e)
            out.append([EXEC, let])
            bound.add(name)
            return
        out.append([EXEC, self.simple(node, fb)])

    def simple(self, node: A.Node, bound: frozenset[str]) -> Fn:
        """A statement that cannot suspend, as one closure."""
        method = _STMT.get(type(node))
        if method is None:
            if isinstance(node, (A.Choose, A.PlayFrom)):
                raise self.error(node, "'choose' and 'play from' cannot stand inside 'for each'", "E208")
            raise self.error(node, f"{type(node).__name__} is not a statement")
        return method(self, node, bound)

    def _s_scrap(self, node: A.Scrap, bound) -> Fn:
        f = self.expr(node.cards, bound)

        def scrap(g, e):
            for c in as_cards(f(g, e)):
                g.move(c, SCRAP)
        return scrap

    def _s_move(self, node: A.Move, bound) -> Fn:
        f = self.expr(node.cards, bound)
        d = node.dest
        if d.zone == "deck top":
            return lambda g, e: [g.move(c, DECK) for c in as_cards(f(g, e))] and None
        if d.zone == "deck bottom":
            return lambda g, e: [g.move(c, DECK, bottom=True) for c in as_cards(f(g, e))] and None
        if d.zone == "scrap":
            return lambda g, e: [g.move(c, SCRAP) for c in as_cards(f(g, e))] and None
        if d.zone == "shown":
            return lambda g, e: [g.move(c, SHOWN) for c in as_cards(f(g, e))] and None
        pf = self.expr(d.player, bound)
        if d.zone == "hand":
            return lambda g, e: [g.move(c, HAND0 + pf(g, e)) for c in as_cards(f(g, e))] and None
        role = d.role
        self.ctx.roles.add(role)
        return lambda g, e: [g.put_in_play(c, pf(g, e), role) for c in as_cards(f(g, e))] and None

    def _s_attach(self, node: A.Attach, bound) -> Fn:
        cf, hf = self.expr(node.card, bound), self.expr(node.host, bound)
        role = node.role
        self.ctx.roles.add(role)

        def attach(g, e):
            hosts = as_cards(hf(g, e))
            for c in as_cards(cf(g, e)):
                if hosts:
                    g.attach(c, hosts[0], e["me"], role)
        return attach

    def _s_draw(self, node: A.Draw, bound) -> Fn:
        nf = self.expr(node.count, bound)
        pf = self.expr(node.player, bound) if node.player else None

        def draw(g, e):
            g.draw(pf(g, e) if pf else e["me"], nf(g, e))
        return draw

    def _s_reveal(self, node: A.Reveal, bound) -> Fn:
        nf = self.expr(node.count, bound)

        def reveal(g, e):
            deck = g.zones[DECK]
            for _ in range(min(nf(g, e), len(deck))):
                g.move(deck[-1], SHOWN)
        return reveal

    def _s_shuffle(self, node: A.Shuffle, bound) -> Fn:
        f = self.expr(node.cards, bound)

        def shuffle(g, e):
            for c in as_cards(f(g, e)):
                g.move(c, DECK)
            g.shuffle_deck()
        return shuffle

    def _s_swap(self, node: A.Swap, bound) -> Fn:
        zs = []
        for side in (node.left, node.right):
            if not isinstance(side, A.Zone) or side.zone not in ("hand", "field"):
                raise self.error(side, "swap exchanges two zones: write e.g. swap hand of me with hand of "
                                       "opponent", "E209")
            zs.append((HAND0 if side.zone == "hand" else FIELD0, self.expr(side.player, bound)))
        (b1, p1), (b2, p2) = zs
        return lambda g, e: g.swap_zones(b1 + p1(g, e), b2 + p2(g, e))

    def _s_mark(self, node: A.Mark, bound) -> Fn:
        f, nf = self.expr(node.cards, bound), self.expr(node.turns, bound)
        name = node.mark
        self.ctx.marks.add(name)

        def mark(g, e):
            for c in as_cards(f(g, e)):
                g.mark(c, name, nf(g, e))
        return mark

    def _s_for(self, node: A.ForEach, bound) -> Fn:
        src = self.expr(node.source, bound)
        inner = bound | {node.var}
        body = [self.simple(s, inner) for s in node.body]
        var = node.var

        def for_each(g, e):
            old = e.get(var)
            for c in as_cards(src(g, e)):
                e[var] = c
                for s in body:
                    s(g, e)
            e[var] = old
        return for_each

    def _s_if(self, node: A.If, bound) -> Fn:  # an `if` inside `for each`
        cond = self.expr(node.cond, bound)
        then = [self.simple(s, bound) for s in node.then]
        orelse = [self.simple(s, bound) for s in node.orelse]

        def if_(g, e):
            for s in (then if cond(g, e) else orelse):
                s(g, e)
        return if_

    def _s_let(self, node: A.Let, bound) -> Fn:
        raise self.error(node, "'let' cannot stand inside 'for each'", "E208")

    def _s_pass(self, node: A.Pass, bound) -> Fn:
        def pass_(g, e):
            g.passed = True
        return pass_

    def _s_win(self, node: A.Win, bound) -> Fn:
        pf = self.expr(node.player, bound)

        def win(g, e):
            g.declare_winner(pf(g, e), "a rule declared the winner")
        return win

    def _s_nothing(self, node: A.Nothing, bound) -> Fn:
        return lambda g, e: None


_EXPR = {
    A.Num: Compiler._num, A.Str: Compiler._str, A.Name: Compiler._name, A.ListLit: Compiler._list,
    A.Zone: Compiler._zone, A.Where: Compiler._where, A.BinOp: Compiler._binop, A.Not: Compiler._not,
    A.Neg: Compiler._neg, A.Index: Compiler._index, A.Attr: Compiler._attr, A.Call: Compiler._call,
}
_STMT = {
    A.Scrap: Compiler._s_scrap, A.Move: Compiler._s_move, A.Attach: Compiler._s_attach,
    A.Draw: Compiler._s_draw, A.Reveal: Compiler._s_reveal, A.Shuffle: Compiler._s_shuffle,
    A.Swap: Compiler._s_swap, A.Mark: Compiler._s_mark, A.ForEach: Compiler._s_for, A.If: Compiler._s_if,
    A.Let: Compiler._s_let, A.Pass: Compiler._s_pass, A.Win: Compiler._s_win, A.Nothing: Compiler._s_nothing,
}

__all__ = ["Compiler", "Context", "as_cards", "EXEC", "JUMP_IF_NOT", "JUMP", "CHOOSE", "PLAY", "BUILTIN",
           "itertools"]
