"""The Python syntax trees the compiler builds (never text): small builders of `ast` nodes, and the
fragments it passes around while compiling (`_Code`: an expression with its kind, cost and size;
`_Loop`: a `where` that its consumer can run as a loop in place)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .cost import ONE, Cost

Fn = Callable[[Any, dict[str, Any]], Any]  # a generated function: f(state, bindings)

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


class NotInline(Exception):
    """An expression that cannot be written into another function (it reads a binding the caller did
    not provide, or calls a definition that is a function of its own): the caller calls it instead."""
