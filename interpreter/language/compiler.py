"""Compiling the effect-language tree into Python functions and a flat instruction list.

Each expression, and each statement that cannot suspend, becomes a Python function `f(g, e)`
compiled once when the ruleset loads; programs become tuples of instructions run by the engine.
`choose` and `play from` are the only instructions that suspend for a player's decision, so
everything else (including `for each` bodies) compiles to plain functions. One dispatch over the
node types (`_GEN`, `_SGEN`) and a table of primitives (`PRIMITIVE_ARITY`).

Safe by construction (docs/security.md):
- the code is built as `ast` nodes, never as text: nothing from a file is ever parsed as Python;
- every value from a file (names, words, lists) lives in a constants table (`K0`, `K1`, ... in the
  generated code's namespace); the tree holds only small integers, booleans and None as literals,
  and its local variables are numbered by the compiler (`_l1`, `p0`), never named after file text;
- before `compile()`, the finished tree is checked against an allow-list (`check_tree`): node
  types, names (the helpers of runtime.py, the constants table, the compiler's own locals),
  attributes (only the engine's own, on the state and the bindings), no dunder anywhere; the
  compiled code objects are checked again (`check_code`);
- the namespace has an empty `__builtins__`: the code can call only what the namespace holds.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from interpreter.core.cards import ALL_RANKS, CARD_COUNT, MOVE_WORD, RANK_OF, SUIT_OF
from interpreter.core.errors import RulesetError, suggest
from interpreter.core.limits import (
    MAX_CHOICES,
    MAX_DEFINE_DEPTH,
    MAX_EXPR_DEPTH,
    MAX_INLINE_NODES,
    MAX_INT,
    MAX_NUMBERS,
)
from interpreter.core.source import Span
from interpreter.core.zones import DECK, FIELD0, HAND0, SCRAP, SHOWN

from . import tree as A
from .allowlist import ATTR_NAMES, FIXED_GLOBALS, GLOBAL_NAMES, UnsafeCode, check_code, check_tree
from .cost import ONE, ZERO, Cost
from .listing import name_function
from .runtime import BUILTINS, HELPERS, as_cards, choices

Fn = Callable[[Any, dict], Any]

# instruction op codes
EXEC, JUMP_IF_NOT, JUMP, CHOOSE, PLAY, BUILTIN = range(6)
UPTO = "up to"  # the last item of a CHOOSE instruction of `choose up to N` (`choose order of` has True)
ASK = "agrees"  # the last item of a CHOOSE instruction of `if P agrees to VERB` (a question: VERB or decline)
DECLINE = "decline"  # the move that answers a question no
AGREED = " agreed"  # the binding a question's answer is kept in, read by the jump after it (not a name)
NUMBER = "a number"  # the last item of a CHOOSE instruction of `choose a number from A to B`

CARD_ATTRS = (
    "rank",
    "suit",
    "value",
    "role",
    "owner",
    "controller",
    "host",
    "jacks",
    "top",
    "attached",
    "name",
    "last_owner",
    "last_controller",
)
BOUND_ALWAYS = frozenset({"me", "opponent", "random", "none", "true", "false"})
SEATS = {"p1": 0, "p2": 1}  # player expressions naming a seat (a ruleset's own name of that spelling wins)
ORDER_SEATS = ("first player", "second player")  # one token each (effect.lark): the seats in turn order
PLAYER_ATTRS = ("turns",)  # `me.turns`: the turns a player has had, this one included
FOREVER = 10**12  # the turns of a mark made without `for N turns` (it lasts for the rest of the game)


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
    counters: dict[str, str] = field(default_factory=dict)  # `counters:` name -> "player" or "card"
    verbs: set[str] = field(default_factory=set)
    asked: set[str] = field(default_factory=set)  # the answers yes of `if P agrees to VERB` (moves, not names)
    numbers: set[str] = field(default_factory=set)  # the names of chosen numbers (`choose a number ... as NAME`)
    card_values: bool = False  # whether an effect sets a card's value (`set X.value to N`): `.value` reads it
    deck_size: int = CARD_COUNT  # the most cards any zone (or set of cards) can hold
    namespace: dict[str, Any] | None = None  # the generated code's globals
    used_names: set[str] = field(default_factory=set)  # constants the expressions refer to
    reads_turns: bool = False  # whether an expression reads `turn` or `P.turns` (the turn number matters)
    # each expression function made by `Compiler.expr` -> its tree and bound names (for the engine, which
    # writes the hot ones into the functions it generates; weak: a function compiled once and dropped,
    # as `explain` does, leaves nothing behind)
    trees: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary)
    # each function of plain statements made by `Compiler.program` -> its statements and bound names (the
    # engine writes a direct play's effect into the function it generates for that play; weak, as `trees`)
    programs: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary)
    # definition (with the kinds and sizes of its arguments) -> (function name, type, cost, size)
    define_fns: dict[str, tuple[str, str, Cost, int]] = field(default_factory=dict)
    define_sizes: dict[str, int] = field(default_factory=dict)  # definition -> nodes once expanded
    const_names: dict[tuple[type, Any], str] = field(default_factory=dict)  # value -> its K name


PRIMITIVE_ARITY: dict[str, tuple[int, int]] = {
    "count": (1, 1),
    "total": (1, 2),
    "min": (1, 9),
    "max": (1, 9),
    "top": (1, 1),
    "score": (1, 1),
    "goal": (1, 1),
    "can_play": (1, 1),
    "marked": (2, 2),
    "other": (1, 1),
    "any": (1, 1),
    "first": (1, 1),
    "same_rank": (1, 1),
    "deck_top": (1, 1),
}


def nodes(tree: Any) -> Iterator[A.Node]:
    """Every node of a tree, without recursion (so any depth is safe)."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
        elif isinstance(n, A.Node):
            yield n
            for f in reversed(tuple(n.__dataclass_fields__)):
                if f not in ("line", "column"):
                    stack.append(getattr(n, f))


def _refs(n: A.Node, ctx: Context) -> str | None:
    """The definition a node refers to, if any."""
    name = n.func if isinstance(n, A.Call) else n.name if isinstance(n, A.Name) else None
    return name if name in ctx.defines else None


def _reads(node: Any, ctx: Context, ok: Callable[[A.Node], bool]) -> bool:
    """Whether `ok` holds for every node of an expression and of the definitions it uses."""
    todo, seen = [node], set()
    while todo:
        for n in nodes(todo.pop()):
            if not ok(n):
                return False
            d = _refs(n, ctx)
            if d is not None and d not in seen:
                seen.add(d)
                todo.append(ctx.defines[d][1])
    return True


def reads_only_fields(node: Any, ctx: Context) -> bool:
    """True if an expression reads nothing but cards in play (so it can only change when a field does):
    not another zone, a mark, a counter, the turn, nor, where effects set them, cards' own values."""
    return _reads(
        node,
        ctx,
        lambda n: (
            not (
                isinstance(n, A.Zone)
                and n.zone not in ("field", "play")
                or isinstance(n, A.Call)
                and (
                    n.func in ("score", "goal", "can_play", "marked", "deck_top")
                    or n.func == "total"
                    and ctx.card_values
                )
                or isinstance(n, A.Attr)
                and (n.name in ctx.counters or n.name in PLAYER_ATTRS or n.name == "value" and ctx.card_values)
                or isinstance(n, A.Name)
                and n.name == "turn"
            )
        ),
    )


def reads_only_own_field(node: Any, ctx: Context) -> bool:
    """True if an expression about `me` reads only `field of me` (so only that field can change it)."""
    return reads_only_fields(node, ctx) and _reads(
        node,
        ctx,
        lambda n: (
            not isinstance(n, A.Zone) or (n.zone == "field" and isinstance(n.player, A.Name) and n.player.name == "me")
        ),
    )


def _suspends(node: Any) -> bool:
    """Whether a statement can wait for a player's decision (choose, play from)."""
    return any(isinstance(n, (A.Choose, A.ChooseNumber, A.PlayFrom, A.Ask)) for n in nodes(node))


def _agreed(g: Any, env: dict) -> bool:
    """Whether the question just asked was answered yes (the condition of the jump after an ASK)."""
    return env[AGREED]


# -- building syntax trees -------------------------------------------------------------------------


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())


def _store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store())


def _const(value: int | bool | None) -> ast.Constant:
    return ast.Constant(value=value)


def _attr(obj: ast.expr, name: str) -> ast.Attribute:
    return ast.Attribute(value=obj, attr=name, ctx=ast.Load())


def _g(name: str) -> ast.Attribute:
    return _attr(_load("g"), name)


def _unturned(node: ast.expr) -> ast.expr:
    """Cards whose order does not matter (counted, tested for any): a deck read from the top is the
    deck itself, not a reversed copy."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_from_top"
        and len(node.args) == 1
    ):
        return node.args[0]
    return node


def _call(fn: ast.expr | str, *args: ast.expr, **kw: ast.expr) -> ast.Call:
    return ast.Call(
        func=_load(fn) if isinstance(fn, str) else fn,
        args=list(args),
        keywords=[ast.keyword(arg=k, value=v) for k, v in kw.items()],
    )


def _item(obj: ast.expr, index: ast.expr) -> ast.Subscript:
    return ast.Subscript(value=obj, slice=index, ctx=ast.Load())


def _zone(index: ast.expr) -> ast.Subscript:
    return _item(_g("zones"), index)


def _plus(a: ast.expr, b: ast.expr) -> ast.BinOp:
    return ast.BinOp(left=a, op=ast.Add(), right=b)


def _compare(a: ast.expr, op: ast.cmpop, b: ast.expr) -> ast.Compare:
    return ast.Compare(left=a, ops=[op], comparators=[b])


def _stmt(e: ast.expr) -> ast.Expr:
    return ast.Expr(value=e)


def _for(var: str, iterable: ast.expr, body: list[ast.stmt]) -> ast.For:
    return ast.For(target=_store(var), iter=iterable, body=body or [ast.Pass()], orelse=[])


_CMP = {
    "==": ast.Eq,
    "!=": ast.NotEq,
    "<": ast.Lt,
    "<=": ast.LtE,
    ">": ast.Gt,
    ">=": ast.GtE,
    "in": ast.In,
    "not in": ast.NotIn,
}


class _Code:
    """A generated Python expression, the kind of value it yields, the work of evaluating it, and the
    most cards it can hold (for a set of cards; 1 otherwise)."""

    __slots__ = ("node", "typ", "cost", "size", "value", "loop", "nobody")

    def __init__(
        self, node: ast.expr, typ: str, cost: Cost = ONE, size: int = 1, value: Any = None, loop: _Loop | None = None
    ) -> None:
        self.node = node
        self.typ = typ  # card | cards | int | bool | str | player | any
        self.cost = cost
        self.size = size
        self.value = value  # the value, when it is known at load time (a literal, a constant)
        # a set of cards made by `where` (one, or several in a row): the loop that lists it, for the
        # consumers that can run it in place (count, any, total, the engine's lists of targets);
        # `node` is then the list built in one expression, or None when a test needs statements
        self.loop = loop
        self.nobody = False  # a player that may be nobody (-1: the owner of no card, of a card in the deck)

    def like(self, other: _Code) -> _Code:
        """This code, marked as `other` is: a player that may be nobody stays checked where it is used."""
        self.nobody = other.nobody
        return self

    def simple(self) -> bool:
        """A variable or a literal: can stand for a definition's parameter in place."""
        return isinstance(self.node, (ast.Name, ast.Constant))


Scope = dict[str, "_Code | None"]


class _Loop:
    """The cards of `source` (each as the local `var`) for which every test holds, in order. A test is
    its statements (run first, and only once the earlier tests hold) and its expression."""

    __slots__ = ("source", "var", "tests")

    def __init__(self, source: ast.expr, var: str, tests: list[tuple[list[ast.stmt], ast.expr]]) -> None:
        self.source = source
        self.var = var
        self.tests = tests

    def plain(self) -> bool:
        """No test needs a statement: the loop fits in one comprehension."""
        return not any(stmts for stmts, _ in self.tests)

    def body(self, inner: list[ast.stmt]) -> list[ast.stmt]:
        """`inner` under the tests (tests with no statements between them joined with `and`)."""
        groups: list[tuple[list[ast.stmt], list[ast.expr]]] = []
        for stmts, test in self.tests:
            if stmts or not groups:
                groups.append((stmts, [test]))
            else:
                groups[-1][1].append(test)
        for stmts, tests in reversed(groups):
            test = tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=list(tests))
            inner = stmts + [ast.If(test=test, body=inner, orelse=[])]
        return inner

    def run(self, inner: list[ast.stmt]) -> ast.For:
        """`for var in source:` with `inner` under the tests."""
        return _for(self.var, self.source, self.body(inner))


_PLAIN = [False]  # set by `plain_compilation` (tests)


@contextmanager
def plain_compilation() -> Iterator[None]:
    """Every Compiler made inside compiles plainly (see `Compiler.plain`): the tests load a ruleset so
    and compare its games with the same ruleset compiled as usual."""
    saved, _PLAIN[0] = _PLAIN[0], True
    try:
        yield
    finally:
        _PLAIN[0] = saved


class NotInline(Exception):
    """An expression that cannot be written into another function (it reads a binding the caller did
    not provide, or calls a definition that is a function of its own): the caller calls it instead."""


class Compiler:
    """Builds Python functions from the tree, once, when the ruleset loads.

    The generated code only ever names the helpers in the namespace, the constants table and its
    own numbered locals. Expressions run as `f(state, env)`; each simple statement becomes one such
    function. `cost` holds the work of the last expression or program compiled.
    """

    def __init__(
        self, ctx: Context, span: Span | None = None, dry: bool = False, plain: bool = False, label: str | None = None
    ) -> None:
        self.ctx = ctx
        self.span = span
        self.label = label  # the rule being compiled ("plays.scuttle.target"): each function is named after it
        self.dry = dry  # only count the work (see rules/builder.py): no code is compiled
        # plain: every expression as one Python expression (comprehensions, helper calls), none of the
        # loops and shortcuts below; the tests compare the two on many positions (same values)
        self.plain = plain or _PLAIN[0]
        self._pre: list[ast.stmt] = []  # statements that run before the expression being built
        self._fixed: dict[str, str] = {}  # a fragment's bindings: the caller's local for each
        self._expanding: list[str] = []
        self._uid = 0
        self._in_loop = 0
        self._depth = 0
        self._let_sizes: dict[str, int] = {}
        self.cost: Cost = ZERO
        self.size = 1  # the most cards the last expression compiled can yield
        if ctx.namespace is None:
            # (each table ends with the slot of `none`, card -1: value 0, no suit)
            values = [ctx.values.get(RANK_OF[c], 0) for c in range(len(RANK_OF))] + [0]
            suits = [ctx.suit_rank.get(s, -1) if s else -1 for s in (SUIT_OF[c] for c in range(len(RANK_OF)))] + [-1]
            ctx.namespace = {"__builtins__": {}, **HELPERS, **BUILTINS, **FIXED_GLOBALS, "VAL": values, "SUITR": suits}
        self.ns = ctx.namespace

    # -- errors -------------------------------------------------------------------------------
    def error(self, node: A.Node, message: str, code: str = "E201", hint: str | None = None) -> RulesetError:
        where = self.span.locate(node.line or 1, node.column or 1) if self.span else None
        return RulesetError(message, where, code=code, hint=hint)

    _KIND_WORDS = {
        "int": "a number",
        "str": "a word (a rank or role name)",
        "card": "a card",
        "cards": "cards",
        "bool": "a condition",
        "player": "a player",
        "any": "a value",
    }

    def _expect(self, code: _Code, allowed: tuple[str, ...], node: A.Node, what: str) -> None:
        """A type check at load time: `what` needs one of `allowed` kinds of value."""
        if code.typ != "any" and code.typ not in allowed:
            raise self.error(
                node,
                f"{what} needs {' or '.join(self._KIND_WORDS[a] for a in allowed)}, "
                f"but this is {self._KIND_WORDS[code.typ]}",
                "E210",
            )

    def _fresh(self) -> str:
        self._uid += 1
        return f"_l{self._uid}"

    def const(self, value: Any) -> ast.expr:
        """A value from the ruleset as a reference to the constants table (small ints stay literals)."""
        if value.__class__ in (int, bool) or value is None:
            if value.__class__ is int and abs(value) > MAX_INT:
                raise RulesetError(
                    f"the number {str(value)[:20]}... is beyond the limit of {MAX_INT:.0e}",
                    self.span.here() if self.span else None,
                    code="E213",
                )
            return _const(value)
        key = (value.__class__, value)
        name = self.ctx.const_names.get(key)
        if name is None:
            name = self.ctx.const_names[key] = f"K{len(self.ctx.const_names)}"
            self.ns[name] = value
        return _load(name)

    # -- building functions -------------------------------------------------------------------
    def _compile(self, module: ast.Module, name: str, into: dict[str, Any]) -> Any:
        if self.dry:
            return None
        ast.fix_missing_locations(module)
        where = self.span.here() if self.span is not None else None  # a rule several files wrote: its first
        file = where.file if where is not None else "<built-in default>"
        line = where.line if where is not None else 0
        label = f"define {self._expanding[-1]}" if self._expanding else self.label
        if line > 1:
            ast.increment_lineno(module, line - 1)
        try:
            check_tree(module, self.ns)
            code = compile(module, file if label else "<ruleset>", "exec")
            check_code(code)
        except UnsafeCode as e:  # pragma: no cover - the compiler only builds allowed trees
            raise RulesetError(
                f"internal error: refused to build unsafe code ({e})",
                self.span.here() if self.span else None,
                code="E200",
            ) from None
        except (RecursionError, MemoryError, SyntaxError, ValueError):
            raise RulesetError(
                "this effect is nested too deeply to compile", self.span.here() if self.span else None, code="E212"
            ) from None
        exec(code, self.ns, into)  # noqa: S102 - an allow-listed tree built by this compiler, never text
        fn = into[name]
        if label is not None:
            name_function(fn, label, file, line, module, self.ns)
        return fn

    def _prologue(self, used: dict[str, str]) -> list[ast.stmt]:
        return [
            ast.Assign(targets=[_store(local)], value=_call(_attr(_load("e"), "get"), self.const(n)))
            for n, local in sorted(used.items())
        ]

    def _function(self, body: list[ast.stmt], used: dict[str, str]) -> Fn:
        args = ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg="g"), ast.arg(arg="e")],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        )
        fn = ast.FunctionDef(
            name="f",
            args=args,
            body=self._prologue(used) + body or [ast.Pass()],
            decorator_list=[],
            returns=None,
            type_comment=None,
        )
        return self._compile(ast.Module(body=[fn], type_ignores=[]), "f", {})

    def expr(self, node: A.Node, bound: frozenset[str]) -> Fn:
        used: dict[str, str] = {}
        pre, code = self._apart(lambda: self.gen(node, {n: None for n in bound}, used))
        self.cost, self.size = code.cost, code.size
        fn = self._function(pre + [ast.Return(value=code.node)], used)
        if fn is not None:
            self.ctx.trees[fn] = (node, frozenset(bound))
        return fn

    def fragment(
        self, node: A.Node, bound: frozenset[str], given: dict[str, str], loop: bool = False
    ) -> tuple[list[ast.stmt], _Code]:
        """An expression to be written into a function the engine generates: its statements and its
        value, the bindings it reads standing for the caller's expressions in `given` (names the
        engine chose). Raises NotInline if it reads a binding not given, or needs a definition's
        function (which takes the bindings as a dict). One Compiler numbers the locals of all the
        fragments it makes, so fragments of one function never share a local. `loop`: the value is a
        set of cards the caller runs through with `loop_of` (a `where` is then not built as a list)."""
        used: dict[str, str] = {}
        saved, self._fixed = self._fixed, given
        try:
            pre, code = self._apart(lambda: self.gen(node, {n: None for n in bound}, used, loop))
        finally:
            self._fixed = saved
        if used:
            raise NotInline(f"reads {', '.join(sorted(used))}")
        return pre, code

    def statements(self, body: tuple[A.Node, ...], bound: frozenset[str], given: dict[str, str]) -> list[ast.stmt]:
        """Statements that cannot suspend, to be written into a function the engine generates (a direct
        play's effect): their Python statements, the bindings they read standing for the caller's locals
        in `given`, as `fragment` does for an expression. Raises NotInline if they read a binding not
        given, call a definition's function, or write a binding (`let`: the bindings are not a dict here)."""
        used: dict[str, str] = {}
        saved, self._fixed = self._fixed, given
        try:
            scope: Scope = {n: None for n in bound}
            lines: list[ast.stmt] = []
            for stmt in body:
                lines += self.stmt_lines(stmt, scope, used)
        finally:
            self._fixed = saved
        if used:
            raise NotInline(f"reads {', '.join(sorted(used))}")
        if any(isinstance(n, ast.Name) and n.id == "e" for s in lines for n in ast.walk(s)):
            raise NotInline("writes a binding")
        return lines

    def loop_of(self, code: _Code, body: Callable[[ast.expr], list[ast.stmt]]) -> list[ast.stmt]:
        """Statements running `body(card)` for each card of a set (a fragment's value): in place over
        its zone when it is made by `where`, else over the list it evaluates to (or a single card)."""
        if code.loop is not None:
            return [code.loop.run(body(_load(code.loop.var)))]
        var = self._fresh()
        return [_for(var, self._cards_of(code), body(_load(var)))]

    def _apart(self, build: Callable[[], Any]) -> tuple[list[ast.stmt], Any]:
        """What `build()` returns, and the statements it needed, collected apart from the current ones."""
        saved, self._pre = self._pre, []
        try:
            out = build()
            return self._pre, out
        finally:
            self._pre = saved

    # -- expressions --------------------------------------------------------------------------
    def gen(self, node: A.Node, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        """`scope` maps DSL names to generated code (None: read from the bindings `e`). Statements the
        value needs first go to the current block (`_pre`). `loop`: the caller runs a set made by
        `where` as a loop of its own (see `_Code.loop`), so it need not be built as a list."""
        method = _GEN.get(type(node))
        if method is None:
            raise self.error(node, f"{type(node).__name__} is not an expression")
        self._depth += 1
        try:
            if self._depth > 2 * MAX_EXPR_DEPTH:
                raise self.error(
                    node,
                    f"this is nested more than {2 * MAX_EXPR_DEPTH} deep once its definitions "
                    f"are expanded (MAX_EXPR_DEPTH)",
                    "E212",
                )
            if loop and not self.plain and method in _LOOPING:
                return method(self, node, scope, used, True)
            return method(self, node, scope, used)
        finally:
            self._depth -= 1

    def _cards_of(self, code: _Code) -> ast.expr:
        if code.typ == "cards":
            return code.node
        return _call("_cards", code.node)

    def _as_player(self, code: _Code, node: A.Node, what: str) -> ast.expr:
        self._expect(code, ("player",), node, what)
        return code.node if code.typ == "player" and not code.nobody else _call("_player", code.node)

    def _env(self, n: str, used: dict[str, str]) -> ast.Name:
        given = self._fixed.get(n)
        if given is not None:
            return _load(given)
        local = used.get(n)
        if local is None:
            local = used[n] = self._fresh()
        return _load(local)

    def _g_num(self, node: A.Num, scope, used) -> _Code:
        if abs(node.value) > MAX_INT:
            raise self.error(node, f"the number is beyond the limit of {MAX_INT:.0e} (MAX_INT)", "E213")
        return _Code(_const(node.value), "int", value=node.value)

    def _g_str(self, node: A.Str, scope, used) -> _Code:
        return _Code(self.const(node.value), "str", value=node.value)

    _TYPES = {
        "me": "player",
        "opponent": "player",
        "card": "card",
        "target": "card",
        "it": "card",
        "cards": "cards",
        "extra": "cards",
        "chosen": "cards",
        "answered": "cards",
        # bound by triggers (rules/triggers.py)
        "from_zone": "str",
        "to_zone": "str",
        "cause": "str",
        "countered": "bool",
    }

    def _g_name(self, node: A.Name, scope, used, loop: bool = False) -> _Code:
        n = node.name
        if n == "random":
            return _Code(_load("RANDOM"), "player")
        if n == "none":
            return _Code(_const(-1), "card")
        if n in ("true", "false"):
            return _Code(_const(n == "true"), "bool", value=n == "true")
        if n in scope or n in BOUND_ALWAYS:
            bound = scope.get(n)
            if bound is not None:
                typ = bound.typ if bound.typ != "any" else self._TYPES.get(n, "any")
                return _Code(
                    _load(bound.node.id) if isinstance(bound.node, ast.Name) else _const(bound.node.value),
                    typ,
                    ONE,
                    bound.size,
                    bound.value,
                ).like(bound)
            typ = self._TYPES.get(n, "cards" if n in self.ctx.verbs else "int" if n in self.ctx.numbers else "any")
            size = self._let_sizes.get(n, self.ctx.deck_size) if typ in ("cards", "any") else 1
            return _Code(self._env(n, used), typ, ONE, size)
        if n in self.ctx.defines:
            params, _, _ = self.ctx.defines[n]
            if params:
                raise self.error(node, f"'{n}' takes {len(params)} argument(s): write {n}(...)", "E206")
            return self._expand(node, n, (), scope, used, loop)
        if n in self.ctx.constants:
            self.ctx.used_names.add(n)
            v = self.ctx.constants[n]
            if isinstance(v, list):
                v = tuple(v)
                return _Code(self.const(v), "any", ONE, max(1, len(v)), v)
            return _Code(self.const(v), "any", value=v)
        if n in self.ctx.ranks or n in self.ctx.roles or n in self.ctx.marks:
            return _Code(self.const(n), "str", value=n)
        if n == "turn":  # the game's turn number: 1 for the first turn, then 2, 3...
            self.ctx.reads_turns = True
            return _Code(_g("turn_no"), "int")
        if n in SEATS:  # the seats: p1 (the first dealt, who moves first in a single game) and p2
            return _Code(_const(SEATS[n]), "player")
        if n in ORDER_SEATS:  # who moved first in this game (this hand of a match), and the other
            first = _call(_g("first_player"))
            return _Code(first if n == "first player" else ast.BinOp(_const(1), ast.Sub(), first), "player")
        known = (
            set(scope)
            | BOUND_ALWAYS
            | set(self.ctx.defines)
            | set(self.ctx.constants)
            | set(self.ctx.ranks)
            | self.ctx.roles
        )
        near = suggest(n, known)
        raise self.error(
            node,
            f"unknown name '{n}'",
            "E202",
            f"did you mean '{near}'?"
            if near
            else "names are bound variables (me, opponent, card, target, it...), definitions, "
            "constants, ranks and roles",
        )

    def _g_list(self, node: A.ListLit, scope, used) -> _Code:
        items = [self.gen(i, scope, used) for i in node.items]
        cost = sum((i.cost for i in items), ONE)
        size = max(1, sum(i.size for i in items))
        if all(i.value is not None and i.value.__class__ in (int, str) for i in items):
            value = tuple(i.value for i in items)  # a list of literals is one constant
            return _Code(self.const(value), "any", cost, size, value)
        return _Code(ast.Tuple(elts=[i.node for i in items], ctx=ast.Load()), "any", cost, size)

    def _g_zone(self, node: A.Zone, scope, used) -> _Code:
        z, n = node.zone, self.ctx.deck_size
        if z == "deck":  # read from the top: the first card is the top card (the zone's list ends with it)
            return _Code(_call("_from_top", _zone(_const(DECK))), "cards", ONE, n)
        if z == "scrap":
            return _Code(_zone(_const(SCRAP)), "cards", ONE, n)
        if z == "shown":
            return _Code(_zone(_const(SHOWN)), "cards", ONE, n)
        if z == "play":
            return _Code(_plus(_zone(_const(FIELD0)), _zone(_const(FIELD0 + 1))), "cards", ONE, n)
        owner = node.player
        assert owner is not None  # the parser gives a hand or a field its player
        p = self.gen(owner, scope, used)
        base = HAND0 if z == "hand" else FIELD0
        return _Code(_zone(_plus(_const(base), self._as_player(p, owner, f"'{z} of'"))), "cards", p.cost + ONE, n)

    def _g_where(self, node: A.Where, scope, used, loop: bool = False) -> _Code:
        name = node.var or "it"  # `where x: COND` names the card x (and leaves `it` what it was)
        if self.plain:
            src = self.gen(node.source, scope, used)
            var = self._fresh()
            cond = self.gen(node.cond, {**scope, name: _Code(_load(var), "card")}, used)
            comp = ast.comprehension(target=_store(var), iter=self._cards_of(src), ifs=[cond.node], is_async=0)
            return _Code(
                ast.ListComp(elt=_load(var), generators=[comp]),
                "cards",
                src.cost + (cond.cost + ONE).times(src.size),
                src.size,
            )
        # `S where A where B` is one loop over S testing A then B; the test's statements (a count
        # inside it...) run for each card, and only once the earlier tests hold
        src = self.gen(node.source, scope, used, loop=True)
        if src.loop is not None:
            source, var, tests = src.loop.source, src.loop.var, list(src.loop.tests)
        else:
            source, var, tests = self._cards_of(src), self._fresh(), []
        inner = {**scope, name: _Code(_load(var), "card")}
        cost = ZERO
        for part in _conjuncts(node.cond):  # `A and B`: two tests (B's statements run only if A holds)

            def test(part: A.Node = part) -> _Code:
                return self.gen(part, inner, used)

            stmts, cond = self._apart(test)
            tests.append((stmts, cond.node if cond.typ == "bool" else _call("bool", cond.node)))
            cost = cost + cond.cost
        cost = cost + ONE.times(len(_conjuncts(node.cond)) - 1)  # the `and`s, as counted for one condition
        found = _Loop(source, var, tests)
        code = _Code(
            None,  # type: ignore[arg-type]  # a loop (`loop=`), not a value
            "cards",
            src.cost + (cost + ONE).times(src.size),
            src.size,
            loop=found,
        )
        if found.plain():
            comp = ast.comprehension(target=_store(var), iter=source, ifs=[t for _, t in tests], is_async=0)
            code.node = ast.ListComp(elt=_load(var), generators=[comp])
        elif not loop:  # a list built by statements, for a consumer that needs the list itself
            code.node = self._listed(found)
            code.loop = None
        return code

    def _listed(self, found: _Loop) -> ast.Name:
        """The cards of a loop as a new list, built by statements in the current block."""
        out = self._fresh()
        self._pre += [
            ast.Assign(targets=[_store(out)], value=ast.List(elts=[], ctx=ast.Load())),
            found.run([_stmt(_call(_attr(_load(out), "append"), _load(found.var)))]),
        ]
        return _load(out)

    def _found(self, a0: _Code) -> ast.expr:
        """Whether a set of cards has any: by a loop that stops at the first when it is made by
        `where` (no list built)."""
        if a0.loop is None:  # `not not S`: whether S has a card, as a bool, without calling len()
            inner = ast.UnaryOp(op=ast.Not(), operand=_unturned(self._cards_of(a0)))
            return ast.UnaryOp(op=ast.Not(), operand=inner)
        found = self._fresh()
        self._pre += [
            ast.Assign(targets=[_store(found)], value=_const(False)),
            a0.loop.run([ast.Assign(targets=[_store(found)], value=_const(True)), ast.Break()]),
        ]
        return _load(found)

    def _counted(self, a0: _Code) -> ast.expr:
        """How many cards a set has: counted by a loop when it is made by `where` (no list built)."""
        if a0.loop is None:
            return _call("len", _unturned(self._cards_of(a0)))
        n = self._fresh()
        self._pre += [
            ast.Assign(targets=[_store(n)], value=_const(0)),
            a0.loop.run([ast.AugAssign(target=_store(n), op=ast.Add(), value=_const(1))]),
        ]
        return _load(n)

    def _value_of(self, card: ast.expr) -> ast.expr:
        """A card's value: its rank's (`VAL`), or, where an effect sets values, its own while it has one."""
        if self.ctx.card_values:
            return _call("_valued", _load("g"), card, _load("VAL"))
        return _item(_load("VAL"), card)

    def _totalled(
        self, a0: _Code, each: Callable[[ast.expr], tuple[list[ast.stmt], ast.expr]] | None = None
    ) -> ast.expr:
        """The total of a set of cards, summed by a loop (no list built): of their values, or of
        `each(card)` (its statements and its value: `total(CARDS, EXPR)`)."""
        t = self._fresh()

        def add(v: ast.expr) -> list[ast.stmt]:
            if each is None:
                return [ast.AugAssign(target=_store(t), op=ast.Add(), value=self._value_of(v))]
            stmts, x = each(v)
            return stmts + [ast.Assign(targets=[_store(t)], value=_call("_add", _load(t), x))]

        self._pre.append(ast.Assign(targets=[_store(t)], value=_const(0)))
        if a0.loop is not None:
            self._pre.append(a0.loop.run(add(_load(a0.loop.var))))
        else:
            var = self._fresh()
            self._pre.append(_for(var, self._cards_of(a0), add(_load(var))))
        return _load(t)

    def _coerce_rank(self, node: A.Node, other: A.Node) -> A.Node:
        """`it.rank == 9` compares rank names: a number beside `.rank` means that rank."""
        if isinstance(other, A.Attr) and other.name == "rank":
            if isinstance(node, A.Num):
                node = A.Str(str(node.value), line=node.line, column=node.column)
            elif isinstance(node, A.ListLit):
                return A.ListLit(
                    tuple(self._coerce_rank(i, other) for i in node.items), line=node.line, column=node.column
                )
            if isinstance(node, A.Str) and node.value not in self.ctx.ranks:
                near = suggest(node.value, self.ctx.ranks)
                raise self.error(
                    node,
                    f"'{node.value}' is not a rank",
                    "E203",
                    f"did you mean '{near}'?" if near else f"ranks: {', '.join(self.ctx.ranks)}",
                )
        return node

    def _bool(self, code: _Code) -> ast.expr:
        return code.node if code.typ == "bool" else _call("bool", code.node)

    # `count(S) OP k` that only asks whether S has any card: (OP, k) -> whether it is `any(S)` (else `not`)
    _ANY_TESTS = {(">", 0): True, (">=", 1): True, ("!=", 0): True, ("==", 0): False, ("<", 1): False, ("<=", 0): False}
    _MIRROR = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!="}

    def _any_test(self, node: A.BinOp) -> tuple[A.Node, bool] | None:
        """(S, True) if `node` is `count(S) > 0` or the like, (S, False) for `count(S) == 0`..."""
        for call, k, op in ((node.left, node.right, node.op), (node.right, node.left, self._MIRROR.get(node.op))):
            if (
                isinstance(call, A.Call)
                and call.func == "count"
                and len(call.args) == 1
                and call.func not in self.ctx.defines
                and isinstance(k, A.Num)
            ):
                positive = self._ANY_TESTS.get((op, k.value)) if op is not None else None
                if positive is not None:
                    return call.args[0], positive
        return None

    def _g_binop(self, node: A.BinOp, scope, used) -> _Code:
        test = None if self.plain else self._any_test(node)
        if test is not None:  # by a loop that stops at the first card (the same checks and cost as below)
            a0 = self.gen(test[0], scope, used, loop=True)
            self._expect(a0, ("card", "cards"), test[0], "count()")
            found = self._found(a0)
            return _Code(
                found if test[1] else ast.UnaryOp(op=ast.Not(), operand=found), "bool", a0.cost + ONE + ONE + ONE
            )
        ln = self._coerce_rank(node.left, node.right)
        rn = self._coerce_rank(node.right, node.left)
        op = node.op
        left = self.gen(ln, scope, used)
        # the right side of `and`/`or` runs only when the left does not decide: its statements too
        rstmts, right = (
            self._apart(lambda: self.gen(rn, scope, used)) if op in ("and", "or") else ([], self.gen(rn, scope, used))
        )
        cost = left.cost + right.cost + ONE
        if op in ("<", "<=", ">", ">=", "-", "*", "/"):
            self._expect(left, ("int",), node.left, f"'{op}'")
            self._expect(right, ("int",), node.right, f"'{op}'")
        elif op == "+":
            if not ({left.typ, right.typ} <= {"int", "any"} or {left.typ, right.typ} <= {"cards", "card", "any"}):
                raise self.error(
                    node,
                    f"'+' adds two numbers or joins two sets of cards, not "
                    f"{self._KIND_WORDS[left.typ]} and {self._KIND_WORDS[right.typ]}",
                    "E210",
                )
        elif op in ("==", "!="):
            kinds = {left.typ, right.typ} - {"any"}
            if len(kinds) == 2 and not kinds <= {"int", "player"} and not kinds <= {"card", "int"}:
                raise self.error(
                    node,
                    f"'{op}' compares {self._KIND_WORDS[left.typ]} with "
                    f"{self._KIND_WORDS[right.typ]}: it can never hold",
                    "E210",
                )
        elif op in ("in", "not in"):
            self._expect(right, ("cards", "card"), node.right, f"'{op}'")
        if op in ("and", "or"):
            if not rstmts:
                return _Code(
                    ast.BoolOp(op=ast.And() if op == "and" else ast.Or(), values=[self._bool(left), self._bool(right)]),
                    "bool",
                    cost,
                )
            v = self._fresh()
            self._pre += [
                ast.Assign(targets=[_store(v)], value=self._bool(left)),
                ast.If(
                    test=_load(v) if op == "and" else ast.UnaryOp(op=ast.Not(), operand=_load(v)),
                    body=rstmts + [ast.Assign(targets=[_store(v)], value=self._bool(right))],
                    orelse=[],
                ),
            ]
            return _Code(_load(v), "bool", cost)
        if op in ("in", "not in"):
            rs = (
                right.node
                if right.typ == "cards" or isinstance(right.node, ast.Tuple) or isinstance(right.value, tuple)
                else self._cards_of(right)
            )
            return _Code(_compare(left.node, _CMP[op](), rs), "bool", cost + Cost(right.size))
        if op in _CMP:
            return _Code(_compare(left.node, _CMP[op](), right.node), "bool", cost)
        if op == "+":
            if "cards" in (left.typ, right.typ) or "card" in (left.typ, right.typ):
                return _Code(
                    _call("_join", left.node, right.node),
                    "cards",
                    cost + Cost(left.size + right.size),
                    left.size + right.size,
                )
            return _Code(
                _call("_add", left.node, right.node),
                "any" if "any" in (left.typ, right.typ) else "int",
                cost + Cost(left.size + right.size),
                left.size + right.size,
            )
        helper = {"-": "_sub", "*": "_mul", "/": "_div"}[op]
        return _Code(_call(helper, left.node, right.node), "int", cost)

    def _g_not(self, node: A.Not, scope, used) -> _Code:
        x = self.gen(node.operand, scope, used)
        return _Code(ast.UnaryOp(op=ast.Not(), operand=x.node), "bool", x.cost + ONE)

    def _g_neg(self, node: A.Neg, scope, used) -> _Code:
        x = self.gen(node.operand, scope, used)
        self._expect(x, ("int",), node.operand, "'-'")
        known = -x.value if x.value.__class__ is int else None  # (`-3` is known at load, as `3` is)
        return _Code(ast.UnaryOp(op=ast.USub(), operand=x.node), "int", x.cost + ONE, value=known)

    def _g_index(self, node: A.Index, scope, used) -> _Code:
        seq, idx = self.gen(node.obj, scope, used), self.gen(node.index, scope, used)
        self._expect(idx, ("int",), node.index, "'[...]'")
        cost = seq.cost + idx.cost + ONE
        if seq.value.__class__ is tuple and seq.value and idx.typ == "int" and not self.plain:
            # a constant list (`goals[...]`): the index kept within it, as `_index` does, without a call
            i = self._local(idx.node)
            last = len(seq.value) - 1
            self._pre += [
                ast.If(
                    test=_compare(i, ast.Gt(), _const(last)),
                    body=[ast.Assign(targets=[_store(i.id)], value=_const(last))],
                    orelse=[
                        ast.If(
                            test=_compare(i, ast.Lt(), _const(0)),
                            body=[ast.Assign(targets=[_store(i.id)], value=_const(0))],
                            orelse=[],
                        )
                    ],
                )
            ]
            return _Code(_item(seq.node, i), "any", cost, seq.size)
        return _Code(_call("_index", seq.node, idx.node), "any", cost, seq.size)

    def _g_attr(self, node: A.Attr, scope, used) -> _Code:
        a = node.name
        if a in self.ctx.counters:
            obj = self.gen(node.obj, scope, used)
            return _Code(_call(_g("counter"), self._counter_key(obj, node, a), self.const(a)), "int", obj.cost + ONE)
        if a in PLAYER_ATTRS:
            obj = self.gen(node.obj, scope, used)
            p = self._as_player(obj, node.obj, f"'.{a}'")
            self.ctx.reads_turns = True
            return _Code(_call(_g("turns_of"), p), "int", obj.cost + ONE)
        if a not in CARD_ATTRS:
            near = suggest(a, CARD_ATTRS + PLAYER_ATTRS + tuple(self.ctx.counters))
            raise self.error(
                node,
                f"a card has no attribute '{a}'"
                + (" (and no counter of that name is declared in `counters:`)" if self.ctx.counters else ""),
                "E204",
                f"did you mean '{near}'?" if near else f"attributes: {', '.join(CARD_ATTRS)}",
            )
        obj = self.gen(node.obj, scope, used)
        self._expect(obj, ("card", "cards"), node.obj, f"'.{a}'")
        x = obj.node if obj.typ == "card" else _call("_first", obj.node)
        cost = obj.cost + ONE
        if a == "rank":
            return _Code(_item(_load("RANK_OF"), x), "str", cost)
        if a == "suit":
            return _Code(_item(_load("SUITR"), x), "int", cost)
        if a == "value":
            return _Code(self._value_of(x), "int", cost)
        if a == "name":
            return _Code(_item(_load("NAMES"), x), "str", cost)
        if a == "role":
            return _Code(_item(_g("role"), x), "str", cost)
        if a in ("owner", "controller"):  # (nobody's, -1, for none or a card in the deck: checked where used)
            if a == "owner":
                who = _Code(_item(_g("owner"), x), "player", cost)
            elif not self.plain:  # what State.controller reads: the player whose hand or field holds it
                who = _Code(_item(_load("CONTROLLER"), _item(_g("zone_of"), x)), "player", cost)
            else:
                who = _Code(_call(_g("controller"), x), "player", cost)
            who.nobody = True
            return who
        if a in ("last_owner", "last_controller"):  # in play: now; else when it last left play (or nobody)
            who = _Code(_call(_g(a + "_of"), x), "player", cost)
            who.nobody = True
            return who
        if a == "host":
            return _Code(_item(_g("host"), x), "card", cost)
        if a == "jacks":
            return _Code(
                _call("tuple", _call(_attr(_g("atts"), "get"), x, ast.Tuple(elts=[], ctx=ast.Load()))),
                "cards",
                cost,
                self.ctx.deck_size,
            )
        if a == "top":
            return _Code(_call(_g("is_top"), x), "bool", cost)
        return _Code(_compare(_item(_g("host"), x), ast.GtE(), _const(0)), "bool", cost)  # attached

    def _check_call(self, node: A.Call, scope) -> None:
        """A call of a primitive: a function that exists, the right number of arguments, and a mark
        that some `mark` of the ruleset gives."""
        name = node.func
        if name not in PRIMITIVE_ARITY:
            near = suggest(name, list(PRIMITIVE_ARITY) + list(self.ctx.defines))
            raise self.error(
                node,
                f"unknown function '{name}'",
                "E205",
                f"did you mean '{near}'?" if near else f"functions: {', '.join(sorted(PRIMITIVE_ARITY))}",
            )
        lo, hi = PRIMITIVE_ARITY[name]
        if not lo <= len(node.args) <= hi:
            raise self.error(
                node, f"{name}() takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), got {len(node.args)}", "E206"
            )
        if (
            name == "marked"
            and isinstance(node.args[1], A.Name)
            and node.args[1].name not in self.ctx.marks
            and node.args[1].name not in scope
            and node.args[1].name not in self.ctx.defines
            and node.args[1].name not in self.ctx.constants
        ):
            mark = node.args[1].name  # a mark is a name once some `mark` of the ruleset gives it
            near = suggest(mark, self.ctx.marks)
            raise self.error(
                node.args[1],
                f"no 'mark ... as {mark}' in this ruleset gives the mark '{mark}'",
                "E202",
                f"did you mean '{near}'?"
                if near
                else f"a mark is a name once a 'mark X as {mark}' statement of the ruleset uses it",
            )

    def _g_call(self, node: A.Call, scope, used, loop: bool = False) -> _Code:
        name = node.func
        if name in self.ctx.defines:
            return self._expand(node, name, node.args, scope, used, loop)
        self._check_call(node, scope)
        if name == "total" and len(node.args) == 2:
            return self._total_of(node, scope, used)
        # count, any and total run a `where` as a loop of their own
        fused = name in ("count", "any", "total") and not self.plain
        args = [self.gen(x, scope, used, loop=fused) for x in node.args]
        a0 = args[0]
        cost = sum((a.cost for a in args), ONE)
        if name in ("count", "any", "total", "same_rank", "can_play"):
            self._expect(a0, ("card", "cards"), node.args[0], f"{name}()")
        if fused:
            if name == "count":
                return _Code(self._counted(a0), "int", cost)
            if name == "total":
                return _Code(self._totalled(a0), "int", cost + Cost(a0.size))
            return _Code(self._found(a0), "bool", cost)
        if name in ("min", "max"):
            for a, x in zip(args, node.args, strict=True):
                self._expect(a, ("int",) if len(args) > 1 else ("int", "cards"), x, f"{name}()")
        if name in ("score", "goal", "other"):
            p = self._as_player(a0, node.args[0], f"{name}()")
        if name == "count":
            if isinstance(node.args[0], A.Zone) and node.args[0].zone == "deck":  # no need to turn it round
                return _Code(_call("len", _zone(_const(DECK))), "int", cost)
            return _Code(_call("len", self._cards_of(a0)), "int", cost)
        if name == "any":
            return _Code(_compare(_call("len", self._cards_of(a0)), ast.Gt(), _const(0)), "bool", cost)
        if name == "total":
            var = self._fresh()
            comp = ast.comprehension(target=_store(var), iter=self._cards_of(a0), ifs=[], is_async=0)
            return _Code(
                _call("sum", ast.ListComp(elt=self._value_of(_load(var)), generators=[comp])),
                "int",
                cost + Cost(a0.size),
            )
        if name in ("min", "max"):
            if len(args) == 1:
                # (a helper: a call with a keyword compiles to a tuple of names, which check_code refuses)
                helper = "_least" if name == "min" else "_most"
                return _Code(_call(helper, a0.node), "int", cost + Cost(a0.size))
            return _Code(_call(name, *(a.node for a in args)), "int", cost)
        if name == "top":
            one = a0.node if a0.typ == "card" else _call("_first", a0.node)
            return _Code(_call("_top", _load("g"), one), "cards", cost)
        if name == "first":
            return _Code(_call("_first", a0.node), "card", cost)
        if name == "score":
            return _Code(_call(_attr(_g("rules"), "score_of"), _load("g"), p), "int", cost + Cost(0, score=1))
        if name == "goal":
            return _Code(_call(_attr(_g("rules"), "goal_of"), _load("g"), p), "int", cost + Cost(0, goal=1))
        if name == "can_play":
            return _Code(
                _call(_g("can_play"), self._env("me", used), self._cards_of(a0)), "bool", cost + Cost(0, plays=a0.size)
            )
        if name == "marked":
            self._expect(args[1], ("str",), node.args[1], "marked()")
            if a0.typ == "player":
                return _Code(
                    _call(_g("is_marked"), ast.BinOp(left=_const(-1), op=ast.Sub(), right=a0.node), args[1].node),
                    "bool",
                    cost,
                )
            one = a0.node if a0.typ == "card" else _call("_first", a0.node)
            return _Code(_call(_g("is_marked"), one, args[1].node), "bool", cost)
        if name == "deck_top":
            self._expect(a0, ("int",), node.args[0], "deck_top()")
            n = self.ctx.deck_size if a0.value.__class__ is not int else max(0, min(a0.value, self.ctx.deck_size))
            return _Code(_call("_deck_top", _load("g"), a0.node), "cards", cost + Cost(n), max(1, n))
        if name == "same_rank":
            var = self._fresh()
            comp = ast.comprehension(target=_store(var), iter=self._cards_of(a0), ifs=[], is_async=0)
            ranks = ast.SetComp(elt=_item(_load("RANK_OF"), _load(var)), generators=[comp])
            return _Code(_compare(_call("len", ranks), ast.LtE(), _const(1)), "bool", cost + Cost(a0.size))
        return _Code(ast.BinOp(left=_const(1), op=ast.Sub(), right=p), "player", cost)  # other

    def _total_of(self, node: A.Call, scope, used) -> _Code:
        """`total(CARDS, EXPR)`: the sum of EXPR for each of the cards, `it` in EXPR being the card."""
        cards, per = node.args
        a0 = self.gen(cards, scope, used, loop=not self.plain)
        self._expect(a0, ("card", "cards"), cards, "total()")
        costs: list[Cost] = []

        def each(card: ast.expr) -> tuple[list[ast.stmt], ast.expr]:
            assert isinstance(card, ast.Name)
            inner = {**scope, "it": _Code(_load(card.id), "card")}
            stmts, x = self._apart(lambda: self.gen(per, inner, used))
            self._expect(x, ("int",), per, "total(CARDS, EXPR): EXPR")
            costs.append(x.cost)
            return stmts, x.node

        total = self._totalled(a0, each)
        return _Code(total, "int", a0.cost + (costs[0] + ONE).times(a0.size) + ONE)

    # -- definitions --------------------------------------------------------------------------
    def define_size(self, name: str, chain: tuple[str, ...] = ()) -> int:
        """The nodes of a definition once the definitions it copies in place are expanded (a cycle, or
        a chain deeper than MAX_DEFINE_DEPTH, counts as too large to copy: the compiler reports it)."""
        known = self.ctx.define_sizes.get(name)
        if known is not None:
            return known
        if name in chain or len(chain) >= MAX_DEFINE_DEPTH:
            return MAX_INLINE_NODES + 1
        params, body, _ = self.ctx.defines[name]
        size = 0
        for n in nodes(body):
            d = _refs(n, self.ctx)
            if d is not None and d not in params:
                inner = self.define_size(d, chain + (name,))
                size += inner if inner <= MAX_INLINE_NODES else 1
            else:
                size += 1
            if size > MAX_INLINE_NODES:
                break
        self.ctx.define_sizes[name] = size
        return size

    def _expand(self, node: A.Node, name: str, args: tuple[A.Node, ...], scope, used, loop: bool = False) -> _Code:
        params, body, span = self.ctx.defines[name]
        if len(args) != len(params):
            raise self.error(node, f"'{name}' takes {len(params)} argument(s), got {len(args)}", "E206")
        if name in self._expanding:
            raise self.error(
                node,
                f"definition '{name}' refers to itself ("
                f"{' -> '.join(self._expanding + [name])}); definitions cannot recurse",
                "E207",
            )
        if len(self._expanding) >= MAX_DEFINE_DEPTH:
            raise self.error(
                node,
                f"definitions refer to definitions more than {MAX_DEFINE_DEPTH} deep here "
                f"({' -> '.join(self._expanding[:3] + ['...', name])}) (MAX_DEFINE_DEPTH)",
                "E207",
            )
        argc = [self.gen(a, scope, used) for a in args]
        arg_cost = sum((a.cost for a in argc), ZERO)
        self._expanding.append(name)
        saved_span, self.span = self.span, span
        saved_lets, self._let_sizes = self._let_sizes, {}
        try:
            small = self.define_size(name) <= MAX_INLINE_NODES
            if small and not self.plain and not all(a.simple() for a in argc):
                # small, its arguments worked out first into locals (as a call would): in place too
                argc = [a if a.simple() else self._in_local(a) for a in argc]
            if small and all(a.simple() for a in argc):
                # small, and its arguments are plain variables or numbers: the body is generated in
                # place (no call), its parameters standing for the caller's variables; it sees
                # nothing else of the caller
                inner: Scope = {"me": None, "opponent": None}
                inner.update(zip(params, argc, strict=True))
                code = self.gen(body, inner, used, loop)
                return _Code(code.node, code.typ, code.cost + arg_cost, code.size, code.value, code.loop).like(code)
            if self._fixed:  # a definition's function reads the bindings from `e`, which a fragment has not
                raise NotInline(f"calls the function of definition '{name}'")
            # otherwise one generated function per definition and kinds and sizes of its arguments:
            # a parameter known to be a single card reads its attributes directly
            kinds = tuple("card" if a.typ == "card" else "any" for a in argc)
            sizes = tuple(1 if k == "card" else a.size for a, k in zip(argc, kinds, strict=True))
            key = f"{name}/{kinds}/{sizes}"
            known = self.ctx.define_fns.get(key)
            if known is None:
                known = self.ctx.define_fns[key] = self._define_function(params, body, kinds, sizes)
        finally:
            self.span = saved_span
            self._let_sizes = saved_lets
            self._expanding.pop()
        fname, typ, cost, size = known
        out = _Code(_call(fname, _load("g"), _load("e"), *(a.node for a in argc)), typ, cost + arg_cost + ONE, size)
        out.nobody = typ == "player"  # (what the function returns is not known here: checked where used)
        return out

    def _in_local(self, a: _Code) -> _Code:
        """`a` worked out once into a local, read from there."""
        return _Code(self._local(a.node), a.typ, a.cost, a.size, a.value).like(a)

    def _define_function(
        self, params: tuple[str, ...], body: A.Node, kinds: tuple[str, ...], sizes: tuple[int, ...]
    ) -> tuple[str, str, Cost, int]:
        inner_used: dict[str, str] = {}
        inner: Scope = {"me": None, "opponent": None}
        for i, (p, k, s) in enumerate(zip(params, kinds, sizes, strict=True)):
            inner[p] = _Code(_load(f"p{i}"), k, ONE, s)
        saved_fixed, self._fixed = self._fixed, {}  # a function of its own reads its bindings from `e`
        try:
            pre, code = self._apart(lambda: self.gen(body, inner, inner_used))
        finally:
            self._fixed = saved_fixed
        fname = f"D{sum(1 for k in self.ns if k.startswith('D'))}"
        args = ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=a) for a in ["g", "e"] + [f"p{i}" for i in range(len(params))]],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        )
        fn = ast.FunctionDef(
            name=fname,
            args=args,
            body=self._prologue(inner_used) + pre + [ast.Return(value=code.node)],
            decorator_list=[],
            returns=None,
            type_comment=None,
        )
        self._compile(ast.Module(body=[fn], type_ignores=[]), fname, self.ns)
        return fname, code.typ, code.cost, code.size

    # -- statements ---------------------------------------------------------------------------
    def program(self, prog: A.Program | tuple[A.Node, ...], bound: frozenset[str]) -> tuple:
        body = prog.body if isinstance(prog, A.Program) else prog
        self.cost = ZERO
        if not body:
            return ()
        if not any(_suspends(stmt) for stmt in body):
            # nothing in it waits for a player: the whole program is one generated function
            used: dict[str, str] = {}
            scope: Scope = {n: None for n in bound}
            lines: list[ast.stmt] = []
            for stmt in body:
                lines += self.stmt_lines(stmt, scope, used)
            fn = self._function(lines, used)
            if fn is not None:
                self.ctx.programs[fn] = (tuple(body), frozenset(bound))
            return ((EXEC, fn),)
        out: list = []
        self._block(body, set(bound), out)
        return tuple(tuple(i) for i in out)

    def _block(self, body, bound: set[str], out: list) -> None:
        for stmt in body:
            self._stmt(stmt, bound, out)

    def _ask(self, node: A.Ask, fb: frozenset[str], bound: set[str], out: list) -> None:
        """`if P agrees to VERB then ... else ... end`: P answers VERB or `decline` (an ASK), then the
        jump of an `if` on the answer."""
        who, w = self._sub_expr(node.player, fb)
        self._expect(w, ("player",), node.player, "'agrees'")
        if not MOVE_WORD.match(node.verb) or node.verb == DECLINE:
            raise self.error(
                node,
                f"'{node.verb}' cannot name the answer yes: a player answers '{node.verb}' or '{DECLINE}'",
                "E217",
                hint="name the answer with a lower-case word, a letter first, other than decline (e.g. 'to mulligan')",
            )
        self.ctx.asked.add(node.verb)
        out.append([CHOOSE, None, None, who, node.verb, ASK])
        jif = [JUMP_IF_NOT, _agreed, -1]
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

    def _sub_expr(self, node: A.Node, bound: frozenset[str]) -> tuple[Fn, _Code]:
        used: dict[str, str] = {}
        pre, code = self._apart(lambda: self.gen(node, {n: None for n in bound}, used))
        self.cost = self.cost + code.cost
        fn = self._function(pre + [ast.Return(value=code.node)], used)
        if fn is not None:
            self.ctx.trees[fn] = (node, bound)
        return fn, code

    def _stmt(self, node: A.Node, bound: set[str], out: list) -> None:
        fb = frozenset(bound)
        if isinstance(node, A.If):
            cond, _ = self._sub_expr(node.cond, fb)
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
        if isinstance(node, A.Ask):
            self._ask(node, fb, bound, out)
            return
        if isinstance(node, A.Choose):
            (count, n), (src, s) = self._sub_expr(node.count, fb), self._sub_expr(node.source, fb)
            who, w = self._sub_expr(node.chooser, fb)
            self._expect(n, ("int",), node.count, "choose")
            self._expect(s, ("card", "cards"), node.source, "'choose ... from'")
            self._expect(w, ("player",), node.chooser, "'choose ... by'")
            if not MOVE_WORD.match(node.verb):
                raise self.error(
                    node,
                    f"'{node.verb}' cannot begin a move: a player types the choice as '{node.verb} CARD'",
                    "E217",
                    hint="name the choice with a lower-case word, a letter first (e.g. 'as pick')",
                )
            if node.ordered:  # all the cards, in an order the chooser names (k! moves: bounded when played)
                self.ctx.verbs.add(node.verb)
                out.append([CHOOSE, count, src, who, node.verb, True])
                bound.add(node.verb)
                bound.add("chosen")
                return
            offered = choices(s.size, n.value) if n.value.__class__ is int else 0
            if node.upto and n.value.__class__ is int:  # any number from none to N
                offered = sum(choices(s.size, k) for k in range(min(n.value, s.size) + 1))
            if offered > MAX_CHOICES:
                raise self.error(
                    node,
                    f"choosing {n.value} of up to {s.size} cards offers more than "
                    f"{MAX_CHOICES:,} choices (MAX_CHOICES)",
                    "E214",
                )
            self.ctx.verbs.add(node.verb)
            out.append([CHOOSE, count, src, who, node.verb] + ([UPTO] if node.upto else []))
            bound.add(node.verb)
            bound.add("chosen")
            return
        if isinstance(node, A.ChooseNumber):
            self._choose_number(node, fb, out)
            bound.add(node.verb)
            return
        if isinstance(node, A.PlayFrom):
            src, s = self._sub_expr(node.source, fb)
            self.cost = self.cost + Cost(0, plays=s.size)
            out.append([PLAY, src])
            return
        if isinstance(node, A.Let):
            used: dict[str, str] = {}
            pre, code = self._apart(lambda: self.gen(node.value, {n: None for n in fb}, used))
            self.cost = self.cost + code.cost
            self._let_sizes[node.name] = code.size
            fn = self._function(pre + [ast.Assign(targets=[self._env_item(node.name)], value=_snapshot(code))], used)
            if fn is not None:  # (every plain step of a program is known by its statements)
                self.ctx.programs[fn] = ((node,), fb)
            out.append([EXEC, fn])
            bound.add(node.name)
            return
        used = {}
        lines = self.stmt_lines(node, {n: None for n in fb}, used)
        fn = self._function(lines, used)
        if fn is not None:
            self.ctx.programs[fn] = ((node,), fb)
        out.append([EXEC, fn])

    def _choose_number(self, node: A.ChooseNumber, fb: frozenset[str], out: list) -> None:
        """`choose a number from LOW to HIGH by P as NAME`: one move per number (`NAME 7`), at most
        MAX_NUMBERS of them (refused here when both ends are known, else when it is played)."""
        (low, lo), (high, hi) = self._sub_expr(node.low, fb), self._sub_expr(node.high, fb)
        who, w = self._sub_expr(node.chooser, fb)
        self._expect(lo, ("int",), node.low, "'choose a number from'")
        self._expect(hi, ("int",), node.high, "'choose a number ... to'")
        self._expect(w, ("player",), node.chooser, "'choose a number ... by'")
        if not MOVE_WORD.match(node.verb):
            raise self.error(
                node,
                f"'{node.verb}' cannot begin a move: a player types the number as '{node.verb} 7'",
                "E217",
                hint="name the number with a lower-case word, a letter first (e.g. 'as value')",
            )
        if node.verb in self.ctx.verbs:
            raise self.error(node, f"'{node.verb}' already names a choice of cards; name the number otherwise", "E217")
        if lo.value.__class__ is int and hi.value.__class__ is int and hi.value - lo.value + 1 > MAX_NUMBERS:
            raise self.error(
                node,
                f"choosing a number from {lo.value} to {hi.value} offers {hi.value - lo.value + 1:,} moves; "
                f"at most {MAX_NUMBERS:,} (MAX_NUMBERS)",
                "E214",
            )
        known = lo.value.__class__ is int and hi.value.__class__ is int
        self.cost = self.cost + Cost(max(1, hi.value - lo.value + 1) if known else MAX_NUMBERS)  # the moves offered
        out.append([CHOOSE, low, high, who, node.verb, NUMBER])

    def _env_item(self, name: str) -> ast.Subscript:
        return ast.Subscript(value=_load("e"), slice=self.const(name), ctx=ast.Store())

    def stmt_lines(self, node: A.Node, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        """The Python statements of a statement that cannot suspend (its work is added to `cost`):
        those its expressions need first, then its own."""
        pre, lines = self._apart(lambda: self._stmt_lines(node, scope, used))
        return pre + lines

    def _stmt_lines(self, node: A.Node, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        self._depth += 1
        try:
            if self._depth > 2 * MAX_EXPR_DEPTH:
                raise self.error(node, f"this is nested more than {2 * MAX_EXPR_DEPTH} deep (MAX_EXPR_DEPTH)", "E212")
            if isinstance(node, A.Let) and not self._in_loop:
                code = self.gen(node.value, scope, used)
                self.cost = self.cost + code.cost
                scope[node.name] = None
                self._let_sizes[node.name] = code.size
                local = self._env(node.name, used)
                return [ast.Assign(targets=[self._env_item(node.name), _store(local.id)], value=_snapshot(code))]
            method = _SGEN.get(type(node))
            if method is None:
                if isinstance(node, (A.Choose, A.ChooseNumber, A.PlayFrom, A.Let, A.Ask)):
                    raise self.error(
                        node,
                        "'choose', 'choose a number', 'play from', 'let' and 'if ... agrees' "
                        "cannot stand inside 'for each'",
                        "E208",
                    )
                raise self.error(node, f"{type(node).__name__} is not a statement")
            return method(self, node, scope, used)
        finally:
            self._depth -= 1

    def _each(
        self, cards: _Code, call: Callable[[ast.expr], ast.expr], inner: list[ast.stmt] | None = None
    ) -> list[ast.stmt]:
        """`call(card)` for each of the cards (a copy: the calls may move them); `inner`: statements the
        call needs, run before each."""
        self.cost = self.cost + cards.cost + Cost(cards.size)
        if cards.typ == "card" and not self.plain:  # a card, or none (-1): no set to build
            x = cards.node
            if not isinstance(x, ast.Name):
                x = self._local(x)
            return [ast.If(test=_compare(x, ast.GtE(), _const(0)), body=(inner or []) + [_stmt(call(x))], orelse=[])]
        var = self._fresh()
        source = self._cards_of(cards) if cards.typ == "card" else _call("tuple", self._cards_of(cards))
        return [_for(var, source, (inner or []) + [_stmt(call(_load(var)))])]

    def _local(self, value: ast.expr) -> ast.Name:
        """A value computed once, before the expression being built: a fresh local holding it."""
        var = self._fresh()
        self._pre.append(ast.Assign(targets=[_store(var)], value=value))
        return _load(var)

    def _cards_arg(self, node: A.Node, scope, used, what: str) -> _Code:
        code = self.gen(node, scope, used)
        self._expect(code, ("card", "cards"), node, what)
        return code

    def _s_scrap(self, node: A.Scrap, scope, used) -> list[ast.stmt]:
        return self._each(
            self._cards_arg(node.cards, scope, used, "scrap"), lambda c: _call(_g("move"), c, _const(SCRAP))
        )

    def _s_move(self, node: A.Move, scope, used) -> list[ast.stmt]:
        cards = self._cards_arg(node.cards, scope, used, "move")
        d = node.dest
        if d.zone in ("deck top", "deck bottom", "scrap", "shown"):
            zone = {"deck top": DECK, "deck bottom": DECK, "scrap": SCRAP, "shown": SHOWN}[d.zone]
            if cards.typ != "card" and (d.zone == "deck top") != d.reversed and d.zone != "scrap" and d.zone != "shown":
                # several cards onto the deck keep their order read from the top: put on the top, the
                # first ends topmost (the last goes first); `reversed` turns it round (docs: ordered moves)
                cards = _Code(_call("_from_top", self._cards_of(cards)), "cards", cards.cost, cards.size)
            if d.zone == "deck bottom":
                return self._each(cards, lambda c: _call(_g("move"), c, _const(zone), _const(True)))
            return self._each(cards, lambda c: _call(_g("move"), c, _const(zone)))
        # the player is worked out for each card (before it moves)
        whose = d.player
        assert whose is not None  # the parser gives a hand or a field its player
        inner, p = self._apart(lambda: self.gen(whose, scope, used))
        self.cost = self.cost + p.cost
        player = self._as_player(p, whose, f"'to {d.zone} of'")
        if d.zone == "hand":
            return self._each(cards, lambda c: _call(_g("move"), c, _plus(_const(HAND0), player)), inner)
        if d.role is not None:
            self.ctx.roles.add(d.role)
        role = self.const(d.role)
        return self._each(cards, lambda c: _call(_g("put_in_play"), c, player, role), inner)

    def _s_attach(self, node: A.Attach, scope, used) -> list[ast.stmt]:
        cards = self._cards_arg(node.card, scope, used, "attach")
        host = self._cards_arg(node.host, scope, used, "'attach ... to'")
        self.cost = self.cost + host.cost
        self.ctx.roles.add(node.role)
        h = self._fresh()
        me, role = self._env("me", used), self.const(node.role)
        body = self._each(cards, lambda c: _call(_g("attach"), c, _load(h), me, role))
        first = host.node if host.typ == "card" and not self.plain else _call("_first", host.node)
        return [
            ast.Assign(targets=[_store(h)], value=first),
            ast.If(test=_compare(_load(h), ast.GtE(), _const(0)), body=body, orelse=[]),
        ]

    def _s_draw(self, node: A.Draw, scope, used) -> list[ast.stmt]:
        n = self.gen(node.count, scope, used)
        self._expect(n, ("int",), node.count, "draw")
        if node.player is not None:
            pc = self.gen(node.player, scope, used)
            self.cost = self.cost + pc.cost
            p = self._as_player(pc, node.player, "'draw ... for'")
        else:
            p = self._env("me", used)
        self.cost = self.cost + n.cost + Cost(self.ctx.deck_size)
        return [_stmt(_call(_g("draw"), p, self._count_of(n)))]

    @staticmethod
    def _count_of(n: _Code) -> ast.expr:
        """A number of cards: checked when it runs if the checks at load time could not prove it one."""
        return n.node if n.typ == "int" else _call("_count", n.node)

    def _s_reveal(self, node: A.Reveal, scope, used) -> list[ast.stmt]:
        n = self.gen(node.count, scope, used)
        self._expect(n, ("int",), node.count, "reveal")
        self.cost = self.cost + n.cost + Cost(self.ctx.deck_size)
        deck = _zone(_const(DECK))
        top = _item(_zone(_const(DECK)), _const(-1))
        return [
            _for(
                self._fresh(),
                _call("range", _call("min", self._count_of(n), _call("len", deck))),
                [_stmt(_call(_g("move"), top, _const(SHOWN)))],
            )
        ]

    def _s_shuffle(self, node: A.Shuffle, scope, used) -> list[ast.stmt]:
        cards = self._cards_arg(node.cards, scope, used, "shuffle")
        self.cost = self.cost + Cost(self.ctx.deck_size)
        return self._each(cards, lambda c: _call(_g("move"), c, _const(DECK))) + [_stmt(_call(_g("shuffle_deck")))]

    def _s_shuffle_under(self, node: A.ShuffleUnder, scope, used) -> list[ast.stmt]:
        cards = self._cards_arg(node.cards, scope, used, "shuffle")
        self.cost = self.cost + cards.cost + Cost(cards.size)
        return [_stmt(_call(_g("shuffle_under"), _call("tuple", self._cards_of(cards))))]

    def _s_swap(self, node: A.Swap, scope, used) -> list[ast.stmt]:
        zs = []
        for side in (node.left, node.right):
            if not isinstance(side, A.Zone) or side.zone not in ("hand", "field"):
                raise self.error(
                    side, "swap exchanges two zones: write e.g. swap hand of me with hand of opponent", "E209"
                )
            base = HAND0 if side.zone == "hand" else FIELD0
            owner = side.player
            assert owner is not None  # a hand or a field has its player
            p = self.gen(owner, scope, used)
            self.cost = self.cost + p.cost
            zs.append(_plus(_const(base), self._as_player(p, owner, f"'{side.zone} of'")))
        self.cost = self.cost + Cost(self.ctx.deck_size)
        return [_stmt(_call(_g("swap_zones"), zs[0], zs[1]))]

    def _s_mark(self, node: A.Mark, scope, used) -> list[ast.stmt]:
        self.ctx.marks.add(node.mark)
        turns = node.turns
        inner: list[ast.stmt]
        if turns is None:  # for the rest of the game
            inner, n = [], _Code(_const(FOREVER), "int")
        else:
            inner, n = self._apart(lambda: self.gen(turns, scope, used))  # worked out for each card
            self._expect(n, ("int",), turns, "'mark ... for'")
        self.cost = self.cost + n.cost
        mark = self.const(node.mark)
        who = self._marked_player(node.cards, scope, used)
        if who is not None:
            return inner + [_stmt(_call(_g("mark"), who, mark, n.node))]
        return self._each(
            self._cards_arg(node.cards, scope, used, "mark"), lambda c: _call(_g("mark"), c, mark, n.node), inner
        )

    def _counter_key(self, obj: _Code, node: A.Attr, name: str) -> ast.expr:
        """Where counter `name` of `obj` is kept: the card, or -1 - player (as marks are)."""
        kind = self.ctx.counters[name]
        if kind == "player":
            return ast.BinOp(left=_const(-1), op=ast.Sub(), right=self._as_player(obj, node.obj, f"'.{name}'"))
        self._expect(obj, ("card", "cards"), node.obj, f"'.{name}' (a counter of cards)")
        return obj.node if obj.typ == "card" else _call("_first", obj.node)

    def _counter_target(self, node: A.Node, scope, used) -> tuple[ast.expr, ast.expr]:
        if not isinstance(node, A.Attr) or node.name not in self.ctx.counters:
            name = node.name if isinstance(node, A.Attr) else None
            near = suggest(name, self.ctx.counters) if name else None
            raise self.error(
                node,
                f"unknown counter '{name}'"
                if name
                else "'set'/'add' need X.COUNTER (a counter declared in `counters:`)",
                "E216",
                f"did you mean '{near}'?"
                if near
                else f"counters: {', '.join(self.ctx.counters) or 'none declared (add a `counters:` section)'}",
            )
        obj = self.gen(node.obj, scope, used)
        self.cost = self.cost + obj.cost
        return self._counter_key(obj, node, node.name), self.const(node.name)

    def _value_card(self, node: A.Node, scope, used) -> ast.expr | None:
        """The card of `X.value` as the target of `set`/`add` (a card's own value), or None when the
        target is a counter."""
        if not (isinstance(node, A.Attr) and node.name == "value"):
            return None
        obj = self.gen(node.obj, scope, used)
        self._expect(obj, ("card", "cards"), node.obj, "'.value'")
        self.cost = self.cost + obj.cost
        return obj.node if obj.typ == "card" else _call("_first", obj.node)

    def _s_set_counter(self, node: A.SetCounter, scope, used) -> list[ast.stmt]:
        card = self._value_card(node.target, scope, used)
        if card is None:
            key, name = self._counter_target(node.target, scope, used)
        v = self.gen(node.value, scope, used)
        self._expect(v, ("int",), node.value, "'set ... to'")
        if node.turns is None:
            n = _Code(_const(FOREVER), "int")
        else:
            n = self.gen(node.turns, scope, used)
            self._expect(n, ("int",), node.turns, "'set ... for'")
        self.cost = self.cost + v.cost + n.cost
        if card is not None:  # a card's own value: it keeps it while it stays in play
            return [_stmt(_call("_set_value", _load("g"), card, v.node, n.node))]
        return [_stmt(_call(_g("set_counter"), key, name, v.node, n.node))]

    def _s_add_counter(self, node: A.AddCounter, scope, used) -> list[ast.stmt]:
        card = self._value_card(node.target, scope, used)
        if card is None:
            key, name = self._counter_target(node.target, scope, used)
        v = self.gen(node.value, scope, used)
        self._expect(v, ("int",), node.value, "'add'")
        self.cost = self.cost + v.cost
        if card is not None:
            return [_stmt(_call("_add_value", _load("g"), card, v.node, _load("VAL")))]
        return [_stmt(_call(_g("add_counter"), key, name, v.node))]

    def _s_unmark(self, node: A.Unmark, scope, used) -> list[ast.stmt]:
        self.ctx.marks.add(node.mark)
        mark = self.const(node.mark)
        who = self._marked_player(node.cards, scope, used)
        if who is not None:
            return [_stmt(_call(_g("unmark"), who, mark))]
        return self._each(self._cards_arg(node.cards, scope, used, "unmark"), lambda c: _call(_g("unmark"), c, mark))

    def _marked_player(self, node: A.Node, scope, used) -> ast.expr | None:
        """A player being marked (or tested for a mark): their key among the marks, -1 - player; None
        for cards. (Players and cards share the marks: a player's key is negative.)"""
        pre, x = self._apart(lambda: self.gen(node, scope, used))
        if x.typ != "player":
            return None  # cards: the caller builds them itself
        self._pre.extend(pre)
        self.cost = self.cost + x.cost
        return ast.BinOp(left=_const(-1), op=ast.Sub(), right=self._as_player(x, node, "mark"))

    def _s_for(self, node: A.ForEach, scope, used) -> list[ast.stmt]:
        src = self._cards_arg(node.source, scope, used, "for each")
        var = self._fresh()
        inner = {**scope, node.var: _Code(_load(var), self._TYPES.get(node.var, "any"))}
        body: list[ast.stmt] = []
        saved, self.cost = self.cost, ZERO
        self._in_loop += 1
        try:
            for s in node.body:
                body += self.stmt_lines(s, inner, used)
        finally:
            self._in_loop -= 1
            self.cost = saved + src.cost + (self.cost + ONE).times(src.size)
        return [_for(var, _call("tuple", self._cards_of(src)), body)]

    def _s_if(self, node: A.If, scope, used) -> list[ast.stmt]:  # an `if` inside `for each`
        cond = self.gen(node.cond, scope, used)
        self.cost = self.cost + cond.cost
        then: list[ast.stmt] = []
        for s in node.then:
            then += self.stmt_lines(s, scope, used)
        orelse: list[ast.stmt] = []
        for s in node.orelse:
            orelse += self.stmt_lines(s, scope, used)
        return [ast.If(test=cond.node, body=then or [ast.Pass()], orelse=orelse)]

    def _s_pass(self, node: A.Pass, scope, used) -> list[ast.stmt]:
        self.cost = self.cost + ONE
        return [
            ast.Assign(targets=[ast.Attribute(value=_load("g"), attr="passed", ctx=ast.Store())], value=_const(True))
        ]

    def _s_win(self, node: A.Win, scope, used) -> list[ast.stmt]:
        p = self.gen(node.player, scope, used)
        if isinstance(node.player, A.Name) and node.player.name == "random":
            raise self.error(node.player, "win needs a player (me, opponent, a card's owner...), not random", "E210")
        self.cost = self.cost + p.cost
        return [
            _stmt(
                _call(
                    _g("declare_winner"),
                    self._as_player(p, node.player, "win"),
                    self.const(win_reason(self._rule())),
                )
            )
        ]

    def _s_nothing(self, node: A.Nothing, scope, used) -> list[ast.stmt]:
        return [ast.Pass()]

    def _s_show(self, node: A.Show, scope, used) -> list[ast.stmt]:
        """`show CARDS to P`: g.show(card, bits), bits 1 + P (1: p1, 2: p2) or 3 (`to all`)."""
        cards = self._cards_arg(node.cards, scope, used, "show")
        if node.player is None:
            bits: ast.expr = _const(3)
        else:
            if isinstance(node.player, A.Name) and node.player.name == "random":
                raise self.error(
                    node.player, "show needs a player (me, opponent, a card's owner...) or all, not random", "E210"
                )
            p = self.gen(node.player, scope, used)
            self.cost = self.cost + p.cost
            bits = _plus(_const(1), self._as_player(p, node.player, "'show ... to'"))
        rule = self._rule()
        if not rule:
            return self._each(cards, lambda c: _call(_g("show"), c, bits))
        name = self.const(rule)
        return self._each(cards, lambda c: _call(_g("show"), c, bits, name))

    def _rule(self) -> str:
        """The rule being compiled, as the lab names it ('plays.three', 'triggers.NAME', 'turn.end'):
        its label less a last `.effect`; '' when the code is made for no rule."""
        label = self.label  # a definition's statements belong to the rule that uses it
        if not label:
            return ""
        return label[: -len(".effect")] if label.endswith(".effect") else label


WIN_REASON = "a rule declared the winner"


def win_reason(rule: str) -> str:
    """The reason of a game won by a `win` statement: names the rule when it is known
    ('a rule declared the winner (triggers.NAME)'); the lab reads it back (`win_rule`)."""
    return f"{WIN_REASON} ({rule})" if rule else WIN_REASON


def win_rule(reason: str) -> str | None:
    """The rule named by a `win_reason` (None: the reason is not a rule's win; '' for no name)."""
    at = reason.rfind(WIN_REASON)
    if at < 0:
        return None
    rest = reason[at + len(WIN_REASON) :]
    if not rest.startswith(" ("):
        return ""
    depth = 0  # the parenthesis that closes the name (a match's reason wraps the hand's in its own)
    for i, ch in enumerate(rest[1:], 1):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return rest[2:i]
    return ""


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


def _conjuncts(node: A.Node) -> list[A.Node]:
    """`A and B and C` as [A, B, C] (anything else: itself)."""
    if isinstance(node, A.BinOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _snapshot(code: _Code) -> ast.expr:
    """A `let` names a value: the cards of a zone as they are now, not the zone as it changes."""
    return _call("tuple", code.node) if code.typ == "cards" else code.node


_GEN: dict[type, Callable[..., _Code]] = {
    A.Num: Compiler._g_num,
    A.Str: Compiler._g_str,
    A.Name: Compiler._g_name,
    A.ListLit: Compiler._g_list,
    A.Zone: Compiler._g_zone,
    A.Where: Compiler._g_where,
    A.BinOp: Compiler._g_binop,
    A.Not: Compiler._g_not,
    A.Neg: Compiler._g_neg,
    A.Index: Compiler._g_index,
    A.Attr: Compiler._g_attr,
    A.Call: Compiler._g_call,
}
_LOOPING = (Compiler._g_where, Compiler._g_call, Compiler._g_name)  # may hand a `where` on as a loop
_SGEN: dict[type, Callable[..., list[ast.stmt]]] = {
    A.Scrap: Compiler._s_scrap,
    A.Move: Compiler._s_move,
    A.Attach: Compiler._s_attach,
    A.Draw: Compiler._s_draw,
    A.Reveal: Compiler._s_reveal,
    A.Shuffle: Compiler._s_shuffle,
    A.ShuffleUnder: Compiler._s_shuffle_under,
    A.Swap: Compiler._s_swap,
    A.Mark: Compiler._s_mark,
    A.Unmark: Compiler._s_unmark,
    A.SetCounter: Compiler._s_set_counter,
    A.AddCounter: Compiler._s_add_counter,
    A.ForEach: Compiler._s_for,
    A.If: Compiler._s_if,
    A.Pass: Compiler._s_pass,
    A.Win: Compiler._s_win,
    A.Nothing: Compiler._s_nothing,
    A.Show: Compiler._s_show,
}

__all__ = [
    "Compiler",
    "NotInline",
    "plain_compilation",
    "Context",
    "Cost",
    "ZERO",
    "as_cards",
    "concat",
    "check_tree",
    "check_code",
    "UnsafeCode",
    "GLOBAL_NAMES",
    "ATTR_NAMES",
    "EXEC",
    "JUMP_IF_NOT",
    "JUMP",
    "CHOOSE",
    "UPTO",
    "ASK",
    "AGREED",
    "DECLINE",
    "NUMBER",
    "PLAY",
    "BUILTIN",
]
