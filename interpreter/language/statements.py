"""Compiling statements: a program that never waits for a player becomes one generated function; one
that may (`choose`, `play from`, a question) becomes a flat list of instructions (instructions.py)
around generated functions. Each statement's own code is its construct's `lines` (and, at the top of
a program, its `instructions`; constructs/); here are the services they call through the `Compiler`
at work (`c.plain_step`, `c.sub_expr`, `c.branches`, `c.each`...)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interpreter.core.limits import MAX_EXPR_DEPTH

from . import tree as A
from .analysis import _suspends
from .cost import ZERO, Cost
from .instructions import EXEC, JUMP, JUMP_IF_NOT
from .pyast import Fn, Scope, _call, _Code, _compare, _const, _for, _load, _stmt

if TYPE_CHECKING:
    from .compiler import Compiler


# -- statements ---------------------------------------------------------------------------
def compile_program(c: Compiler, prog: A.Program | tuple[A.Node, ...], bound: frozenset[str]) -> tuple[Any, ...]:
    body = prog.body if isinstance(prog, A.Program) else prog
    c.cost = ZERO
    if not body:
        return ()
    if not any(_suspends(stmt) for stmt in body):
        # nothing in it waits for a player: the whole program is one generated function
        used: dict[str, str] = {}
        scope: Scope = {n: None for n in bound}
        lines: list[ast.stmt] = []
        for stmt in body:
            lines += stmt_lines(c, stmt, scope, used)
        fn = c._function(lines, used)
        if fn is not None:
            c.ctx.programs[fn] = (tuple(body), frozenset(bound))
        return ((EXEC, fn),)
    out: list[Any] = []
    block(c, body, set(bound), out)
    return tuple(tuple(i) for i in out)


def block(c: Compiler, body, bound: set[str], out: list[Any]) -> None:
    for stmt in body:
        stmt.instructions(c, bound, out)


def branches(c: Compiler, test: Any, then: Any, orelse: Any, bound: set[str], out: list[Any]) -> None:
    """The instructions of `if`: a jump past `then` unless `test` holds, then `orelse` (if any) jumped
    over after `then`."""
    jif = [JUMP_IF_NOT, test, -1]
    out.append(jif)
    block(c, then, bound, out)
    if orelse:
        j = [JUMP, -1]
        out.append(j)
        jif[2] = len(out)
        block(c, orelse, bound, out)
        j[1] = len(out)
    else:
        jif[2] = len(out)


def sub_expr(c: Compiler, node: A.Node, bound: frozenset[str], need: str | None = None) -> tuple[Fn, _Code]:
    """An expression of a suspending statement as a function of its own; `need`: "player" for a player
    (an unknown name is suggested from the players'), else the words of what needs it to be a number
    (a condition then counts 1 or 0, anything else is E210)."""
    used: dict[str, str] = {}

    def gen() -> _Code:
        if need == "player":  # (a chooser, the player asked: an unknown name is suggested from players)
            return c.gen_player(node, {n: None for n in bound}, used)
        code = c.gen(node, {n: None for n in bound}, used)
        return c.number(code, node, need) if need is not None else code

    pre, code = c._apart(gen)
    c.cost = c.cost + code.cost
    fn = c._function(pre + [ast.Return(value=code.node)], used)
    if fn is not None:
        c.ctx.trees[fn] = (node, bound)
    return fn, code


def plain_step(c: Compiler, node: A.Node, bound: set[str], out: list[Any]) -> None:
    """A statement that cannot suspend, at the top of a program: one EXEC of its lines."""
    fb = frozenset(bound)
    used: dict[str, str] = {}
    lines = stmt_lines(c, node, {n: None for n in fb}, used)
    fn = c._function(lines, used)
    if fn is not None:
        c.ctx.programs[fn] = ((node,), fb)
    out.append([EXEC, fn])


def stmt_lines(c: Compiler, node: A.Node, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
    """The Python statements of a statement that cannot suspend (its work is added to `cost`):
    those its expressions need first, then its own."""
    pre, lines = c._apart(lambda: _stmt_lines(c, node, scope, used))
    return pre + lines


def _stmt_lines(c: Compiler, node: A.Node, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
    c._depth += 1
    try:
        if c._depth > 2 * MAX_EXPR_DEPTH:
            raise c.error(node, f"this is nested more than {2 * MAX_EXPR_DEPTH} deep (MAX_EXPR_DEPTH)", "E212")
        if not isinstance(node, A.Statement):
            raise c.error(node, f"{type(node).__name__} is not a statement")
        return node.lines(c, scope, used)
    finally:
        c._depth -= 1


def each(
    c: Compiler, cards: _Code, call: Callable[[ast.expr], ast.expr], inner: list[ast.stmt] | None = None
) -> list[ast.stmt]:
    """`call(card)` for each of the cards (a copy: the calls may move them); `inner`: statements the
    call needs, run before each."""
    c.cost = c.cost + cards.cost + Cost(cards.size)
    if cards.typ == "card" and not c.plain:  # a card, or none (-1): no set to build
        x = cards.node
        if not isinstance(x, ast.Name):
            x = c._local(x)
        return [ast.If(test=_compare(x, ast.GtE(), _const(0)), body=(inner or []) + [_stmt(call(x))], orelse=[])]
    var = c._fresh()
    source = c._cards_of(cards) if cards.typ == "card" else _call("tuple", c._cards_of(cards))
    return [_for(var, source, (inner or []) + [_stmt(call(_load(var)))])]


def cards_arg(c: Compiler, node: A.Node, scope, used, what: str) -> _Code:
    code = c.gen(node, scope, used)
    c._expect(code, ("card", "cards"), node, what)
    return code


def rule_name(c: Compiler) -> str:
    """The rule being compiled, as the lab names it ('plays.three', 'triggers.NAME', 'turn.end'):
    its label less a last `.effect`; '' when the code is made for no rule."""
    label = c.label  # a definition's statements belong to the rule that uses it
    if not label:
        return ""
    return label[: -len(".effect")] if label.endswith(".effect") else label
