"""Compiling the effect-language tree into Python functions and a flat instruction list.

Each expression, and each statement that cannot suspend, becomes a Python function `f(g, e)`
compiled once when the ruleset loads; programs become tuples of instructions run by the engine.
`choose` and `play from` are the only instructions that suspend for a player's decision, so
everything else (including `for each` bodies) compiles to plain functions. One dispatch over the
node types (`_GEN` here for expressions, `_SGEN` in statements.py) and a table of primitives
(`PRIMITIVE_ARITY`, context.py).

The compiler is five modules of one concern each: this one (the `Compiler`: its state, the
functions it makes, and expressions), `statements.py` (statements and programs into instructions),
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
from typing import Any, cast

from interpreter.core.cards import RANK_OF, SUIT_OF
from interpreter.core.errors import RulesetError, suggest
from interpreter.core.limits import (
    MAX_EXPR_DEPTH,
    MAX_INT,
)
from interpreter.core.source import Span
from interpreter.core.zones import DECK, FIELD0, HAND0, SCRAP, SHOWN

from . import tree as A
from .allowlist import ATTR_NAMES, FIXED_GLOBALS, GLOBAL_NAMES, UnsafeCode, check_code, check_tree

# (the compiler's public names, wherever their module: what the engine, the rules and the tests import)
from .analysis import _conjuncts, nodes, reads_only_fields, reads_only_own_field
from .context import BOUND_ALWAYS, CARD_ATTRS, FOREVER, ORDER_SEATS, PLAYER_ATTRS, PRIMITIVE_ARITY, SEATS, Context
from .cost import ONE, ZERO, Cost
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
    win_reason,
    win_rule,
)
from .listing import name_function
from .pyast import (
    _CMP,
    Fn,
    NotInline,
    Scope,
    _attr,
    _call,
    _Code,
    _compare,
    _const,
    _for,
    _g,
    _item,
    _load,
    _Loop,
    _plus,
    _stmt,
    _store,
    _unturned,
    _zone,
)
from .runtime import BUILTINS, HELPERS, as_cards
from .statements import (
    block,
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
        own = isinstance(node, A.Expression) and type(node).compile is not A.Expression.compile
        method = _GEN.get(type(node))
        if method is None and not own:
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
            if own:
                return cast(A.Expression, node).compile(self, scope, used, loop and not self.plain)
            assert method is not None
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
            return _expand(self, node, n, (), scope, used, loop)
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
            return _expand(self, node, name, node.args, scope, used, loop)
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

    def _local(self: Compiler, value: ast.expr) -> ast.Name:
        """A value computed once, before the expression being built: a fresh local holding it."""
        var = self._fresh()
        self._pre.append(ast.Assign(targets=[_store(var)], value=value))
        return _load(var)

    def _counter_key(self: Compiler, obj: _Code, node: A.Attr, name: str) -> ast.expr:
        """Where counter `name` of `obj` is kept: the card, or -1 - player (as marks are)."""
        kind = self.ctx.counters[name]
        if kind == "player":
            return ast.BinOp(left=_const(-1), op=ast.Sub(), right=self._as_player(obj, node.obj, f"'.{name}'"))
        self._expect(obj, ("card", "cards"), node.obj, f"'.{name}' (a counter of cards)")
        return obj.node if obj.typ == "card" else _call("_first", obj.node)

    # -- what statements need (statements.py), for each construct's `lines` and `instructions` --------
    def plain_step(self, node: A.Node, bound: set[str], out: list) -> None:
        """A statement that cannot suspend, at the top of a program: one step running its lines."""
        plain_step(self, node, bound, out)

    def sub_expr(self, node: A.Node, bound: frozenset[str]) -> tuple[Fn, _Code]:
        """An expression of a suspending statement, compiled as a function of its own."""
        return sub_expr(self, node, bound)

    def block(self, body: tuple[A.Node, ...], bound: set[str], out: list) -> None:
        """The instructions of statements nested in a suspending one (an `if`'s branches)."""
        block(self, body, bound, out)

    def branches(self, test: Any, then: Any, orelse: Any, bound: set[str], out: list) -> None:
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

    def program(self, prog: A.Program | tuple[A.Node, ...], bound: frozenset[str]) -> tuple:
        """A program compiled: its instructions (statements.py)."""
        return compile_program(self, prog, bound)

    # -- added for constructs (cx-names)
    def expand(
        self, node: A.Node, name: str, args: tuple[A.Node, ...], scope: Scope, used: dict[str, str], loop: bool = False
    ) -> _Code:
        """A use of the definition `name` with arguments `args` (a name or a call): copied in place, or
        a call of its own function (definitions.py)."""
        return _expand(self, node, name, args, scope, used, loop)


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


__all__ = [
    "Compiler",
    "nodes",
    "reads_only_fields",
    "reads_only_own_field",
    "CARD_ATTRS",
    "FOREVER",
    "PLAYER_ATTRS",
    "PRIMITIVE_ARITY",
    "win_reason",
    "win_rule",
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
