"""Compiling the effect-language tree into Python functions and a flat instruction list.

Each expression, and each statement that cannot suspend, is turned into Python source and compiled
once when the ruleset loads (`f(state, env)`); programs become tuples of instructions run by the
engine (`engine.run`). `choose` and `play from` are the only instructions that suspend for a
player's decision, so everything else (including `for each` bodies) compiles to plain functions.
One dispatch over the node types (`_GEN`, `_SGEN`) and a table of primitives (`PRIMITIVE_ARITY`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.core.cards import ALL_RANKS, NAMES, RANK_OF, SUIT_OF
from interpreter.core.errors import RulesetError, suggest
from interpreter.core.source import Span
from interpreter.core.zones import DECK, FIELD0, HAND0, RANDOM, SCRAP, SHOWN

from . import tree as A
from .runtime import SAFE_BUILTINS, _div, _first, _index, _top, as_cards

Fn = Callable[[Any, dict], Any]

# instruction op codes
EXEC, JUMP_IF_NOT, JUMP, CHOOSE, PLAY, BUILTIN = range(6)

CARD_ATTRS = ("rank", "suit", "value", "role", "owner", "controller", "host", "jacks", "top", "attached",
              "name")
BOUND_ALWAYS = frozenset({"me", "opponent", "random", "none", "true", "false"})


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
    namespace: dict[str, Any] | None = None          # the generated code's globals
    used_names: set[str] = field(default_factory=set)  # constants the expressions refer to
    define_fns: dict[str, tuple[str, str]] = field(default_factory=dict)  # definition → (function, type)


PRIMITIVE_ARITY: dict[str, tuple[int, int]] = {
    "count": (1, 1), "total": (1, 1), "min": (1, 9), "max": (1, 9), "top": (1, 1), "score": (1, 1),
    "goal": (1, 1), "can_play": (1, 1), "marked": (2, 2), "other": (1, 1), "any": (1, 1),
    "first": (1, 1), "same_rank": (1, 1),
}


def reads_only_fields(node: Any, ctx: Context, seen: frozenset[str] = frozenset()) -> bool:
    """True if an expression reads nothing but cards in play (so it can only change when a field does)."""
    if isinstance(node, A.Zone):
        if node.zone not in ("field", "play"):
            return False
    elif isinstance(node, A.Call):
        if node.func in ("score", "goal", "can_play", "marked"):
            return False
        if node.func in ctx.defines and node.func not in seen:
            if not reads_only_fields(ctx.defines[node.func][1], ctx, seen | {node.func}):
                return False
    elif isinstance(node, A.Name) and node.name in ctx.defines and node.name not in seen:
        if not reads_only_fields(ctx.defines[node.name][1], ctx, seen | {node.name}):
            return False
    if isinstance(node, A.Node):
        for f in node.__dataclass_fields__:
            if not reads_only_fields(getattr(node, f), ctx, seen):
                return False
    elif isinstance(node, tuple):
        return all(reads_only_fields(x, ctx, seen) for x in node)
    return True


def _suspends(node: Any) -> bool:
    """Whether a statement can wait for a player's decision (choose, play from)."""
    return any(isinstance(n, (A.Choose, A.PlayFrom)) for n in A.walk(node))


def reads_only_own_field(node: Any, ctx: Context, seen: frozenset[str] = frozenset()) -> bool:
    """True if an expression about `me` reads only `field of me` (so only that field can change it)."""
    for n in A.walk(node):
        if isinstance(n, A.Zone) and not (n.zone == "field" and isinstance(n.player, A.Name)
                                          and n.player.name == "me"):
            return False
        name = n.func if isinstance(n, A.Call) else n.name if isinstance(n, A.Name) else None
        if name in ctx.defines and name not in seen:
            if not reads_only_own_field(ctx.defines[name][1], ctx, seen | {name}):
                return False
    return reads_only_fields(node, ctx, seen)


class _Code:
    """A generated Python expression and what kind of value it yields."""

    __slots__ = ("src", "typ")

    def __init__(self, src: str, typ: str) -> None:
        self.src = src
        self.typ = typ  # card | cards | int | bool | str | player | any


_VAR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SIMPLE = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+)$")


class Compiler:
    """Generates Python source from the tree and compiles it once, when the ruleset loads.

    The generated code only ever names the helpers in `self.ns` and mangled variables (`v_NAME`),
    and writes literals with repr(): user text cannot become code. Expressions run as
    `f(state, env)`; each simple statement becomes one such function.
    """

    def __init__(self, ctx: Context, span: Span | None = None) -> None:
        self.ctx = ctx
        self.span = span
        self._expanding: list[str] = []
        self._uid = 0
        self._in_loop = 0
        self._local_types: dict[str, str] = {}  # generated parameter name -> kind of value
        if ctx.namespace is None:
            values = [ctx.values.get(RANK_OF[c], 0) for c in range(len(RANK_OF))]
            suits = [ctx.suit_rank.get(SUIT_OF[c], -1) if SUIT_OF[c] else -1 for c in range(len(RANK_OF))]
            ctx.namespace = {
                "__builtins__": SAFE_BUILTINS, "RANK_OF": RANK_OF, "NAMES": NAMES, "VAL": values,
                "SUITR": suits, "_cards": as_cards, "_div": _div, "_index": _index, "_top": _top,
                "_first": _first, "RANDOM": RANDOM,
            }
        self.ns = ctx.namespace

    # -- errors -------------------------------------------------------------------------------
    def error(self, node: A.Node, message: str, code: str = "E201", hint: str | None = None) -> RulesetError:
        where = self.span.locate(node.line or 1, node.column or 1) if self.span else None
        return RulesetError(message, where, code=code, hint=hint)

    _KIND_WORDS = {"int": "a number", "str": "a word (a rank or role name)", "card": "a card", "cards": "cards",
                   "bool": "a condition", "player": "a player", "any": "a value"}

    def _expect(self, code: _Code, allowed: tuple[str, ...], node: A.Node, what: str) -> None:
        """A type check at load time: `what` needs one of `allowed` kinds of value."""
        if code.typ != "any" and code.typ not in allowed:
            raise self.error(node, f"{what} needs {' or '.join(self._KIND_WORDS[a] for a in allowed)}, "
                                   f"but this is {self._KIND_WORDS[code.typ]}", "E210")

    def _fresh(self, base: str) -> str:
        self._uid += 1
        return f"_{base}{self._uid}"

    # -- building functions -------------------------------------------------------------------
    def _function(self, body_lines: list[str], used: set[str], name: str = "f") -> Fn:
        prologue = [f"    v_{n} = e.get({n!r})" for n in sorted(used)]
        src = f"def {name}(g, e):\n" + "\n".join(prologue + ["    " + ln for ln in body_lines] or ["    pass"])
        ns = self.ns
        local: dict[str, Any] = {}
        exec(compile(src, f"<ruleset {name}>", "exec"), ns, local)  # noqa: S102 - generated from the tree
        fn = local[name]
        fn.__cuttle_source__ = src
        return fn

    def expr(self, node: A.Node, bound: frozenset[str]) -> Fn:
        used: set[str] = set()
        code = self.gen(node, {n: None for n in bound}, used)
        return self._function([f"return {code.src}"], used, "expr")

    # -- expressions --------------------------------------------------------------------------
    def gen(self, node: A.Node, scope: dict[str, str | None], used: set[str]) -> _Code:
        """`scope` maps DSL names to Python locals (None: read from the env as v_NAME)."""
        method = _GEN.get(type(node))
        if method is None:
            raise self.error(node, f"{type(node).__name__} is not an expression")
        return method(self, node, scope, used)

    def _cards_of(self, code: _Code) -> str:
        if code.typ == "cards":
            return code.src
        if code.typ == "card":
            return f"_cards({code.src})"
        return f"_cards({code.src})"

    def _g_num(self, node: A.Num, scope, used) -> _Code:
        return _Code(repr(node.value), "int")

    def _g_str(self, node: A.Str, scope, used) -> _Code:
        return _Code(repr(node.value), "str")

    _TYPES = {"me": "player", "opponent": "player", "card": "card", "target": "card", "it": "card",
              "cards": "cards", "extra": "cards", "chosen": "cards", "answered": "cards"}

    def _g_name(self, node: A.Name, scope, used) -> _Code:
        n = node.name
        if n == "random":
            return _Code("RANDOM", "player")
        if n == "none":
            return _Code("-1", "card")
        if n in ("true", "false"):
            return _Code(str(n == "true"), "bool")
        if n in scope or n in BOUND_ALWAYS:
            local = scope.get(n)
            if local is not None:
                return _Code(local, self._local_types.get(local) or self._TYPES.get(n, "any"))
            if not _VAR.match(n):  # pragma: no cover - the grammar only makes such names
                raise self.error(node, f"bad name '{n}'")
            used.add(n)
            typ = self._TYPES.get(n, "cards" if n in self.ctx.verbs else "any")
            return _Code(f"v_{n}", typ)
        if n in self.ctx.defines:
            params, _, _ = self.ctx.defines[n]
            if params:
                raise self.error(node, f"'{n}' takes {len(params)} argument(s): write {n}(...)", "E206")
            return self._expand(node, n, (), scope, used)
        if n in self.ctx.constants:
            self.ctx.used_names.add(n)
            v = self.ctx.constants[n]
            v = tuple(v) if isinstance(v, list) else v
            return _Code(repr(v), "any")
        if n in self.ctx.ranks:
            return _Code(repr(n), "str")
        if n in self.ctx.roles or n in self.ctx.marks:
            return _Code(repr(n), "str")
        known = set(scope) | BOUND_ALWAYS | set(self.ctx.defines) | set(self.ctx.constants) | set(
            self.ctx.ranks) | self.ctx.roles
        near = suggest(n, known)
        raise self.error(node, f"unknown name '{n}'", "E202", f"did you mean '{near}'?" if near else
                         "names are bound variables (me, opponent, card, target, it...), definitions, "
                         "constants, ranks and roles")

    def _g_list(self, node: A.ListLit, scope, used) -> _Code:
        items = [self.gen(i, scope, used) for i in node.items]
        return _Code("(" + "".join(i.src + ", " for i in items) + ")", "any")

    def _g_zone(self, node: A.Zone, scope, used) -> _Code:
        z = node.zone
        if z == "deck":
            return _Code(f"g.zones[{DECK}]", "cards")
        if z == "scrap":
            return _Code(f"g.zones[{SCRAP}]", "cards")
        if z == "shown":
            return _Code(f"g.zones[{SHOWN}]", "cards")
        if z == "play":
            return _Code(f"(g.zones[{FIELD0}] + g.zones[{FIELD0 + 1}])", "cards")
        p = self.gen(node.player, scope, used)
        self._expect(p, ("player",), node.player, f"'{z} of'")
        base = HAND0 if z == "hand" else FIELD0
        return _Code(f"g.zones[{base} + {p.src}]", "cards")

    def _g_where(self, node: A.Where, scope, used) -> _Code:
        src = self.gen(node.source, scope, used)
        var = self._fresh("it")
        cond = self.gen(node.cond, {**scope, "it": var}, used)
        return _Code(f"[{var} for {var} in {self._cards_of(src)} if {cond.src}]", "cards")

    def _coerce_rank(self, node: A.Node, other: A.Node) -> A.Node:
        """`it.rank == 9` compares rank names: a number beside `.rank` means that rank."""
        if isinstance(other, A.Attr) and other.name == "rank":
            if isinstance(node, A.Num):
                node = A.Str(str(node.value), line=node.line, column=node.column)
            elif isinstance(node, A.ListLit):
                return A.ListLit(tuple(self._coerce_rank(i, other) for i in node.items),
                                 line=node.line, column=node.column)
            if isinstance(node, A.Str) and node.value not in self.ctx.ranks:
                near = suggest(node.value, self.ctx.ranks)
                raise self.error(node, f"'{node.value}' is not a rank", "E203",
                                 f"did you mean '{near}'?" if near else f"ranks: {', '.join(self.ctx.ranks)}")
        return node

    _OPS = {"and": "and", "or": "or", "==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
            "+": "+", "-": "-", "*": "*", "in": "in", "not in": "not in"}

    def _g_binop(self, node: A.BinOp, scope, used) -> _Code:
        ln = self._coerce_rank(node.left, node.right)
        rn = self._coerce_rank(node.right, node.left)
        left, right = self.gen(ln, scope, used), self.gen(rn, scope, used)
        op = node.op
        if op in ("<", "<=", ">", ">=", "-", "*", "/"):
            self._expect(left, ("int",), node.left, f"'{op}'")
            self._expect(right, ("int",), node.right, f"'{op}'")
        elif op == "+":
            if not ({left.typ, right.typ} <= {"int", "any"} or {left.typ, right.typ} <= {"cards", "any"}):
                raise self.error(node, f"'+' adds two numbers or joins two sets of cards, not "
                                       f"{self._KIND_WORDS[left.typ]} and {self._KIND_WORDS[right.typ]}", "E210")
        elif op in ("==", "!="):
            kinds = {left.typ, right.typ} - {"any"}
            if len(kinds) == 2 and not kinds <= {"int", "player"} and not kinds <= {"card", "int"}:
                raise self.error(node, f"'{op}' compares {self._KIND_WORDS[left.typ]} with "
                                       f"{self._KIND_WORDS[right.typ]}: it can never hold", "E210")
        elif op in ("in", "not in"):
            self._expect(right, ("cards",), node.right, f"'{op}'")
        if op == "/":
            return _Code(f"_div({left.src}, {right.src})", "int")
        if op in ("in", "not in"):
            rs = right.src if right.typ in ("cards", "any") else self._cards_of(right)
            return _Code(f"({left.src} {op} {rs})", "bool")
        typ = "bool" if op not in "+-*" else "int"
        if op in ("and", "or"):
            return _Code(f"(bool({left.src}) {op} bool({right.src}))", "bool")
        return _Code(f"({left.src} {self._OPS[op]} {right.src})", typ)

    def _g_not(self, node: A.Not, scope, used) -> _Code:
        return _Code(f"(not {self.gen(node.operand, scope, used).src})", "bool")

    def _g_neg(self, node: A.Neg, scope, used) -> _Code:
        return _Code(f"(-{self.gen(node.operand, scope, used).src})", "int")

    def _g_index(self, node: A.Index, scope, used) -> _Code:
        seq, idx = self.gen(node.obj, scope, used), self.gen(node.index, scope, used)
        return _Code(f"_index({seq.src}, {idx.src})", "any")

    _ATTR = {
        "rank": ("RANK_OF[{x}]", "str"), "suit": ("SUITR[{x}]", "int"), "value": ("VAL[{x}]", "int"),
        "name": ("NAMES[{x}]", "str"), "role": ("g.role[{x}]", "str"), "owner": ("g.owner[{x}]", "player"),
        "controller": ("g.controller({x})", "player"), "host": ("g.host[{x}]", "card"),
        "jacks": ("tuple(g.atts.get({x}, ()))", "cards"), "top": ("g.is_top({x})", "bool"),
        "attached": ("(g.host[{x}] >= 0)", "bool"),
    }

    def _g_attr(self, node: A.Attr, scope, used) -> _Code:
        a = node.name
        if a not in CARD_ATTRS:
            near = suggest(a, CARD_ATTRS)
            raise self.error(node, f"a card has no attribute '{a}'", "E204",
                             f"did you mean '{near}'?" if near else f"attributes: {', '.join(CARD_ATTRS)}")
        obj = self.gen(node.obj, scope, used)
        x = obj.src if obj.typ == "card" else f"_first({obj.src})"
        tmpl, typ = self._ATTR[a]
        return _Code(tmpl.format(x=x), typ)

    def _g_call(self, node: A.Call, scope, used) -> _Code:
        name = node.func
        if name in self.ctx.defines:
            return self._expand(node, name, node.args, scope, used)
        if name not in PRIMITIVE_ARITY:
            near = suggest(name, list(PRIMITIVE_ARITY) + list(self.ctx.defines))
            raise self.error(node, f"unknown function '{name}'", "E205",
                             f"did you mean '{near}'?" if near else
                             f"functions: {', '.join(sorted(PRIMITIVE_ARITY))}")
        lo, hi = PRIMITIVE_ARITY[name]
        if not lo <= len(node.args) <= hi:
            raise self.error(node, f"{name}() takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), "
                                   f"got {len(node.args)}", "E206")
        args = [self.gen(x, scope, used) for x in node.args]
        a0 = args[0]
        cs = self._cards_of(a0)
        if name in ("count", "any", "total", "same_rank", "can_play"):
            self._expect(a0, ("card", "cards"), node.args[0], f"{name}()")
        if name == "count":
            return _Code(f"len({cs})", "int")
        if name == "any":
            return _Code(f"(len({cs}) > 0)", "bool")
        if name == "total":
            var = self._fresh("c")
            return _Code(f"sum([VAL[{var}] for {var} in {cs}])", "int")
        if name in ("min", "max"):
            if len(args) == 1:
                return _Code(f"{name}({a0.src}, default=0)", "int")
            return _Code(f"{name}(" + ", ".join(a.src for a in args) + ")", "int")
        if name == "top":
            return _Code(f"_top(g, {a0.src if a0.typ == 'card' else f'_first({a0.src})'})", "cards")
        if name == "first":
            return _Code(f"_first({a0.src})", "card")
        if name == "score":
            return _Code(f"g.rules.score_of(g, {a0.src})", "int")
        if name == "goal":
            return _Code(f"g.rules.goal_of(g, {a0.src})", "int")
        if name == "can_play":
            used.add("me")
            return _Code(f"g.can_play(v_me, {cs})", "bool")
        if name == "marked":
            return _Code(f"g.is_marked({a0.src}, {args[1].src})", "bool")
        if name == "same_rank":
            var = self._fresh("c")
            return _Code(f"(len({{RANK_OF[{var}] for {var} in {cs}}}) <= 1)", "bool")
        return _Code(f"(1 - {a0.src})", "player")  # other

    def _expand(self, node: A.Node, name: str, args: tuple[A.Node, ...], scope, used) -> _Code:
        params, body, span = self.ctx.defines[name]
        if len(args) != len(params):
            raise self.error(node, f"'{name}' takes {len(params)} argument(s), got {len(args)}", "E206")
        if name in self._expanding:
            raise self.error(node, f"definition '{name}' refers to itself ("
                                   f"{' -> '.join(self._expanding + [name])}); definitions cannot recurse",
                             "E207")
        argc = [self.gen(a, scope, used) for a in args]
        if all(_SIMPLE.match(a.src) for a in argc):
            # arguments that are plain variables or numbers: the body is generated in place (no call),
            # its parameters standing for the caller's variables; it sees nothing else of the caller
            self._expanding.append(name)
            saved_span, self.span = self.span, span
            try:
                inner: dict[str, str | None] = {"me": None, "opponent": None}
                for p, a in zip(params, argc, strict=True):
                    inner[p] = a.src
                    if a.typ != "any":
                        self._local_types[a.src] = a.typ
                code = self.gen(body, inner, used)
            finally:
                self.span = saved_span
                self._expanding.pop()
            return _Code(f"({code.src})", code.typ)
        # one generated function per definition and kinds of its arguments: a parameter known to be
        # a single card reads its attributes directly
        kinds = tuple("card" if a.typ == "card" else "any" for a in argc)
        key = name if not params else f"{name}/{'_'.join(kinds)}"
        known = self.ctx.define_fns.get(key)
        if known is None:
            self._expanding.append(name)
            saved_span, self.span = self.span, span
            try:
                inner_used: set[str] = set()
                inner_scope: dict[str, str | None] = {p: f"p_{p}" for p in params}
                inner_scope.update({"me": None, "opponent": None})
                for p, k in zip(params, kinds, strict=True):
                    self._local_types[f"p_{p}"] = k
                code = self.gen(body, inner_scope, inner_used)
            finally:
                self.span = saved_span
                self._expanding.pop()
            fname = f"d_{name}" + (f"__{'_'.join(kinds)}" if params else "")
            prologue = [f"    v_{n} = e.get({n!r})" for n in sorted(inner_used)]
            src = (f"def {fname}(g, e{''.join(', p_' + p for p in params)}):\n" + "\n".join(prologue)
                   + ("\n" if prologue else "") + f"    return {code.src}\n")
            exec(compile(src, f"<define {name}>", "exec"), self.ns)  # noqa: S102 - generated from the tree
            known = self.ctx.define_fns[key] = (fname, code.typ)
        fname, typ = known
        return _Code(f"{fname}(g, e{''.join(', ' + a.src for a in argc)})", typ)

    # -- statements ---------------------------------------------------------------------------
    def program(self, prog: A.Program | tuple[A.Node, ...], bound: frozenset[str]) -> tuple:
        body = prog.body if isinstance(prog, A.Program) else prog
        if not body:
            return ()
        if not any(_suspends(stmt) for stmt in body):
            # nothing in it waits for a player: the whole program is one generated function
            used: set[str] = set()
            scope: dict[str, str | None] = {n: None for n in bound}
            lines: list[str] = []
            for stmt in body:
                lines += self.stmt_lines(stmt, scope, used)
            return ((EXEC, self._function(lines, used, "program")),)
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
            used: set[str] = set()
            code = self.gen(node.value, {n: None for n in fb}, used)
            out.append([EXEC, self._function([f"e[{node.name!r}] = {_snapshot(code)}"], used, "let")])
            bound.add(node.name)
            return
        used = set()
        lines = self.stmt_lines(node, {n: None for n in fb}, used)
        out.append([EXEC, self._function(lines, used, "s_" + type(node).__name__.lower())])

    def stmt_lines(self, node: A.Node, scope: dict[str, str | None], used: set[str]) -> list[str]:
        """The Python lines of a statement that cannot suspend."""
        if isinstance(node, A.Let) and not self._in_loop:
            code = self.gen(node.value, scope, used)
            scope[node.name] = None
            used.add(node.name)
            return [f"e[{node.name!r}] = v_{node.name} = {_snapshot(code)}"]
        method = _SGEN.get(type(node))
        if method is None:
            if isinstance(node, (A.Choose, A.PlayFrom, A.Let)):
                raise self.error(node, "'choose', 'play from' and 'let' cannot stand inside 'for each'", "E208")
            raise self.error(node, f"{type(node).__name__} is not a statement")
        return method(self, node, scope, used)

    def _each(self, cards: _Code, call: str) -> list[str]:
        var = self._fresh("c")
        return [f"for {var} in tuple({self._cards_of(cards)}):", "    " + call.format(c=var)]

    def _cards_arg(self, node: A.Node, scope, used, what: str) -> _Code:
        code = self.gen(node, scope, used)
        self._expect(code, ("card", "cards"), node, what)
        return code

    def _s_scrap(self, node: A.Scrap, scope, used) -> list[str]:
        return self._each(self._cards_arg(node.cards, scope, used, "scrap"), f"g.move({{c}}, {SCRAP})")

    def _s_move(self, node: A.Move, scope, used) -> list[str]:
        cards = self._cards_arg(node.cards, scope, used, "move")
        d = node.dest
        if d.zone == "deck top":
            return self._each(cards, f"g.move({{c}}, {DECK})")
        if d.zone == "deck bottom":
            return self._each(cards, f"g.move({{c}}, {DECK}, bottom=True)")
        if d.zone == "scrap":
            return self._each(cards, f"g.move({{c}}, {SCRAP})")
        if d.zone == "shown":
            return self._each(cards, f"g.move({{c}}, {SHOWN})")
        p = self.gen(d.player, scope, used)
        self._expect(p, ("player",), d.player, f"'to {d.zone} of'")
        if d.zone == "hand":
            return self._each(cards, f"g.move({{c}}, {HAND0} + {p.src})")
        self.ctx.roles.add(d.role)
        return self._each(cards, f"g.put_in_play({{c}}, {p.src}, {d.role!r})")

    def _s_attach(self, node: A.Attach, scope, used) -> list[str]:
        cards, host = self.gen(node.card, scope, used), self.gen(node.host, scope, used)
        self.ctx.roles.add(node.role)
        used.add("me")
        h = self._fresh("h")
        return [f"{h} = _first({host.src})", f"if {h} >= 0:"] + [
            "    " + ln for ln in self._each(cards, f"g.attach({{c}}, {h}, v_me, {node.role!r})")]

    def _s_draw(self, node: A.Draw, scope, used) -> list[str]:
        n = self.gen(node.count, scope, used)
        self._expect(n, ("int",), node.count, "draw")
        if node.player is not None:
            p = self.gen(node.player, scope, used).src
        else:
            used.add("me")
            p = "v_me"
        return [f"g.draw({p}, {n.src})"]

    def _s_reveal(self, node: A.Reveal, scope, used) -> list[str]:
        n = self.gen(node.count, scope, used)
        var = self._fresh("i")
        return [f"for {var} in range(min({n.src}, len(g.zones[{DECK}]))):",
                f"    g.move(g.zones[{DECK}][-1], {SHOWN})"]

    def _s_shuffle(self, node: A.Shuffle, scope, used) -> list[str]:
        return self._each(self.gen(node.cards, scope, used), f"g.move({{c}}, {DECK})") + ["g.shuffle_deck()"]

    def _s_swap(self, node: A.Swap, scope, used) -> list[str]:
        zs = []
        for side in (node.left, node.right):
            if not isinstance(side, A.Zone) or side.zone not in ("hand", "field"):
                raise self.error(side, "swap exchanges two zones: write e.g. swap hand of me with hand of "
                                       "opponent", "E209")
            base = HAND0 if side.zone == "hand" else FIELD0
            zs.append(f"{base} + {self.gen(side.player, scope, used).src}")
        return [f"g.swap_zones({zs[0]}, {zs[1]})"]

    def _s_mark(self, node: A.Mark, scope, used) -> list[str]:
        self.ctx.marks.add(node.mark)
        n = self.gen(node.turns, scope, used)
        return self._each(self.gen(node.cards, scope, used), f"g.mark({{c}}, {node.mark!r}, {n.src})")

    def _s_for(self, node: A.ForEach, scope, used) -> list[str]:
        src = self.gen(node.source, scope, used)
        var = self._fresh("v")
        inner = {**scope, node.var: var}
        body: list[str] = []
        self._in_loop += 1
        try:
            for s in node.body:
                body += self.stmt_lines(s, inner, used)
        finally:
            self._in_loop -= 1
        return [f"for {var} in tuple({self._cards_of(src)}):"] + ["    " + ln for ln in (body or ["pass"])]

    def _s_if(self, node: A.If, scope, used) -> list[str]:  # an `if` inside `for each`
        cond = self.gen(node.cond, scope, used)
        then: list[str] = []
        for s in node.then:
            then += self.stmt_lines(s, scope, used)
        lines = [f"if {cond.src}:"] + ["    " + ln for ln in (then or ["pass"])]
        if node.orelse:
            orelse: list[str] = []
            for s in node.orelse:
                orelse += self.stmt_lines(s, scope, used)
            lines += ["else:"] + ["    " + ln for ln in orelse]
        return lines

    def _s_pass(self, node: A.Pass, scope, used) -> list[str]:
        return ["g.passed = True"]

    def _s_win(self, node: A.Win, scope, used) -> list[str]:
        p = self.gen(node.player, scope, used)
        return [f"g.declare_winner({p.src}, 'a rule declared the winner')"]

    def _s_nothing(self, node: A.Nothing, scope, used) -> list[str]:
        return ["pass"]


def concat(a: tuple, b: tuple) -> tuple:
    """Join two instruction lists, shifting the jump targets of the second."""
    n = len(a)
    out = list(a)
    for ins in b:
        if ins[0] == JUMP_IF_NOT:
            ins = (ins[0], ins[1], ins[2] + n)
        elif ins[0] == JUMP:
            ins = (ins[0], ins[1] + n)
        out.append(ins)
    return tuple(out)


_GEN = {
    A.Num: Compiler._g_num, A.Str: Compiler._g_str, A.Name: Compiler._g_name, A.ListLit: Compiler._g_list,
    A.Zone: Compiler._g_zone, A.Where: Compiler._g_where, A.BinOp: Compiler._g_binop, A.Not: Compiler._g_not,
    A.Neg: Compiler._g_neg, A.Index: Compiler._g_index, A.Attr: Compiler._g_attr, A.Call: Compiler._g_call,
}
def _snapshot(code: _Code) -> str:
    """A `let` names a value: the cards of a zone as they are now, not the zone as it changes."""
    return f"tuple({code.src})" if code.typ == "cards" else code.src


_SGEN = {
    A.Scrap: Compiler._s_scrap, A.Move: Compiler._s_move, A.Attach: Compiler._s_attach,
    A.Draw: Compiler._s_draw, A.Reveal: Compiler._s_reveal, A.Shuffle: Compiler._s_shuffle,
    A.Swap: Compiler._s_swap, A.Mark: Compiler._s_mark, A.ForEach: Compiler._s_for, A.If: Compiler._s_if,
    A.Pass: Compiler._s_pass, A.Win: Compiler._s_win, A.Nothing: Compiler._s_nothing,
}

__all__ = ["Compiler", "Context", "as_cards", "concat", "EXEC", "JUMP_IF_NOT", "JUMP", "CHOOSE", "PLAY", "BUILTIN"]
