"""Compiling the effect-language tree into Python functions and a flat instruction list.

Each expression, and each statement that cannot suspend, becomes a Python function `f(g, e)`
compiled once when the ruleset loads; programs become tuples of instructions run by the engine.
`choose` and `play from` are the only instructions that suspend for a player's decision, so
everything else (including `for each` bodies) compiles to plain functions. Each construct compiles
itself (constructs/: an expression's `compile`, a statement's `lines` and `instructions`), given the
`Compiler` at work, whose methods are the services they call (`gen` for a child expression, `error`,
`_expect`, `const`...); a function is checked against the table of primitives (`PRIMITIVE_ARITY`,
context.py).

The compiler is five modules of one concern each: this one (the `Compiler`: its state, the
functions it makes, and the dispatch of expressions), `statements.py` (programs into instructions),
`definitions.py` (a `define` in place or as its own function), `analysis.py` (what a tree reads),
`pyast.py` (building Python syntax trees, and the fragments passed around), with `context.py` (what
names mean in a ruleset) and `instructions.py` (what a compiled program is made of).

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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from interpreter.core.cards import MOVE_WORD, RANK_OF, SUIT_OF
from interpreter.core.errors import RulesetError
from interpreter.core.limits import (
    MAX_EXPR_DEPTH,
    MAX_INT,
)
from interpreter.core.source import Span
from interpreter.core.zones import FIELD0, FIELD1, FIELDS, HAND0

from . import tree as A
from .allowlist import ATTR_NAMES, FIXED_GLOBALS, GLOBAL_NAMES, UnsafeCode, check_code, check_tree

# (the compiler's public names, wherever their module: what the engine, the rules and the tests import)
from .analysis import nodes, reads_only_fields, reads_only_own_field
from .context import CARD_ATTRS, FOREVER, PLAYER_ATTRS, PRIMITIVE_ARITY, UNKNOWN_KIND, Context
from .cost import ZERO, Cost
from .definitions import _expand
from .instructions import (
    AGREED,
    ASK,
    BUILTIN,
    CHOOSE,
    DECLINE,
    EXEC,
    JUMP,
    JUMP_IF_NOT,
    NUMBER,
    PLAY,
    UPTO,
    concat,
)
from .listing import name_function
from .pyast import (
    Fn,
    NotInline,
    Scope,
    _attr,
    _call,
    _Code,
    _const,
    _for,
    _item,
    _load,
    _plus,
    _store,
    _unturned,
    _zone,
)
from .runtime import BUILTINS, HELPERS, as_cards
from .statements import (
    branches,
    cards_arg,
    compile_program,
    each,
    plain_step,
    rule_name,
    stmt_lines,
    sub_expr,
)

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
        self.want: str | None = None  # "player" while compiling what must be a player (a name error's hint)
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

    def typed_word(self, node: A.Node, verb: str, refused: str, what: str, example: str, banned: str = "") -> None:
        """A word a player types (a choice's, a number's, a question's answer): lower-case, a letter
        first, and not `banned`; else E217, `'VERB' refused` and how to name the `what`."""
        if not MOVE_WORD.match(verb) or verb == banned:
            other = f", other than {banned}" if banned else ""
            raise self.error(
                node,
                f"'{verb}' {refused}",
                "E217",
                hint=f"name the {what} with a lower-case word, a letter first{other} (e.g. '{example}')",
            )

    _KIND_WORDS = {
        "int": "a number",
        "str": "a word (a rank or role name)",
        "card": "a card",
        "cards": "cards",
        "bool": "a condition",
        "player": "a player",
        "players": "players (a set of them)",
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

    def number(self, code: _Code, node: A.Node, what: str) -> _Code:
        """An expression where a number is needed: a number, or a condition, which counts 1 when it
        holds and 0 when it does not (`3 * (me == first player)`); anything else is E210."""
        if code.typ == "bool":
            known = (1 if code.value else 0) if code.value.__class__ is bool else None
            return _Code(ast.IfExp(test=code.node, body=_const(1), orelse=_const(0)), "int", code.cost, 1, known)
        self._expect(code, ("int",), node, what)
        return code

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
                lines += stmt_lines(self, stmt, scope, used)
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
        if not isinstance(node, A.Expression):
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
            return node.compile(self, scope, used, loop and not self.plain)
        finally:
            self._depth -= 1

    def gen_player(self, node: A.Node, scope: Scope, used: dict[str, str]) -> _Code:
        """`gen` of an expression that must be a player (`hand of P`, `win P`, `draw N for P`...): an
        unknown name in it is suggested from the players' names."""
        saved, self.want = self.want, "player"
        try:
            return self.gen(node, scope, used)
        finally:
            self.want = saved

    def _cards_of(self, code: _Code) -> ast.expr:
        if code.typ == "cards":
            return code.node
        return _call("_cards", code.node)

    def _as_player(self, code: _Code, node: A.Node, what: str) -> ast.expr:
        self._expect(code, ("player",), node, what)
        if code.typ == "player" and not code.nobody:
            return code.node
        if self.ctx.seats != 2:  # (a larger table: a seat up to its last)
            return _call("_player", code.node, _const(self.ctx.seats))
        return _call("_player", code.node)

    def player_zone(self, zone: str, player: ast.expr) -> ast.expr:
        """The number of a player's hand or field (`zone`): `2 + P` or `4 + P` in a two-seat game (the
        numbers of its zones), the seat's entry of HANDS or FIELDS at a larger table (core/zones.py)."""
        if self.ctx.seats == 2:
            return _plus(_const(HAND0 if zone == "hand" else FIELD0), player)
        return _item(_load("HANDS" if zone == "hand" else "FIELDS"), player)

    def in_play(self) -> ast.expr:
        """Every card in play: both fields (every player's, at a larger table)."""
        fields = (FIELD0, FIELD1) if self.ctx.seats == 2 else FIELDS[: self.ctx.seats]
        out: ast.expr = _zone(_const(fields[0]))
        for f in fields[1:]:
            out = _plus(out, _zone(_const(f)))
        return out

    def _env(self, n: str, used: dict[str, str]) -> ast.Name:
        given = self._fixed.get(n)
        if given is not None:
            return _load(given)
        local = used.get(n)
        if local is None:
            local = used[n] = self._fresh()
        return _load(local)

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

    def _value_of(self, card: ast.expr) -> ast.expr:
        """A card's value: its rank's (`VAL`), or, where an effect sets values, its own while it has one."""
        if self.ctx.card_values:
            return _call("_valued", _load("g"), card, _load("VAL"))
        return _item(_load("VAL"), card)

    def _local(self: Compiler, value: ast.expr) -> ast.Name:
        """A value computed once, before the expression being built: a fresh local holding it."""
        var = self._fresh()
        self._pre.append(ast.Assign(targets=[_store(var)], value=value))
        return _load(var)

    def _counter_key(self: Compiler, obj: _Code, node: A.Attr, name: str) -> ast.expr:
        """Where counter `name` of `obj` is kept: the card, or -1 - player (as marks are)."""
        kind = self.ctx.counters[name]
        if kind == UNKNOWN_KIND:  # its declaration was refused: the ruleset does not load, its uses are not judged
            return _const(0)
        if kind == "player":
            return ast.BinOp(left=_const(-1), op=ast.Sub(), right=self._as_player(obj, node.obj, f"'.{name}'"))
        self._expect(obj, ("card", "cards"), node.obj, f"'.{name}' (a counter of cards)")
        return obj.node if obj.typ == "card" else _call("_first", obj.node)

    # -- what statements need (statements.py), for each construct's `lines` and `instructions` --------
    def plain_step(self, node: A.Node, bound: set[str], out: list[Any]) -> None:
        """A statement that cannot suspend, at the top of a program: one step running its lines."""
        plain_step(self, node, bound, out)

    def sub_expr(self, node: A.Node, bound: frozenset[str], need: str | None = None) -> tuple[Fn, _Code]:
        """An expression of a suspending statement, compiled as a function of its own (`need`: "player",
        or what needs it to be a number)."""
        return sub_expr(self, node, bound, need)

    def branches(self, test: Any, then: Any, orelse: Any, bound: set[str], out: list[Any]) -> None:
        """The jumps of an `if` on `test` (a function of the state, or an instruction's answer)."""
        branches(self, test, then, orelse, bound, out)

    def stmt_lines(self, node: A.Node, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        """The Python statements of a nested statement (a `for each` body)."""
        return stmt_lines(self, node, scope, used)

    def each(
        self, cards: _Code, call: Callable[[ast.expr], ast.expr], inner: list[ast.stmt] | None = None
    ) -> list[ast.stmt]:
        """`call(card)` for each of the cards (a copy: the calls may move them)."""
        return each(self, cards, call, inner)

    def cards_arg(self, node: A.Node, scope: Scope, used: dict[str, str], what: str) -> _Code:
        """An expression that must be cards (or a card), compiled."""
        return cards_arg(self, node, scope, used, what)

    def rule(self) -> str:
        """The rule being compiled, as the lab names it ('plays.three', 'triggers.NAME')."""
        return rule_name(self)

    def program(self, prog: A.Program | tuple[A.Node, ...], bound: frozenset[str]) -> tuple[Any, ...]:
        """A program compiled: its instructions (statements.py)."""
        return compile_program(self, prog, bound)

    # -- a definition's use (definitions.py), for a name's and a call's `compile` -----------------
    def expand(
        self, node: A.Node, name: str, args: tuple[A.Node, ...], scope: Scope, used: dict[str, str], loop: bool = False
    ) -> _Code:
        """A use of the definition `name` with arguments `args` (a name or a call): copied in place, or
        a call of its own function (definitions.py)."""
        return _expand(self, node, name, args, scope, used, loop)


__all__ = [
    "Compiler",
    "nodes",
    "reads_only_fields",
    "reads_only_own_field",
    "CARD_ATTRS",
    "FOREVER",
    "PLAYER_ATTRS",
    "PRIMITIVE_ARITY",
    "Fn",
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
