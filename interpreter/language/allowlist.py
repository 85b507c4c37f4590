"""The allow-list that generated rule code is checked against before it is compiled (`check_tree`)
and after (`check_code`): the node types the compiler makes, names only from the helpers of
runtime.py, the constants table and the compiler's own numbered locals, attributes only the
engine's own on the state and the bindings, no dunder anywhere, literals only small integers,
booleans and None. See docs/security.md."""

from __future__ import annotations

import ast
import re
from typing import Any

from interpreter.core.cards import NAMES, RANK_OF
from interpreter.core.limits import MAX_INT
from interpreter.core.zones import CONTROLLER, FIELDS, HANDS, RANDOM

from .protocol import RuleState, members
from .runtime import BUILTINS, HELPERS

# the per-card tables of generated code end with a slot for `none` (card -1): no rank, named "none"
FIXED_GLOBALS = {
    "RANK_OF": [*RANK_OF, None],
    "NAMES": [*NAMES, "none"],
    "RANDOM": RANDOM,
    "CONTROLLER": CONTROLLER,
    # each seat's hand and field, and the seat after each at a table of 3 and of 4 (core/zones.py)
    "HANDS": HANDS,
    "FIELDS": FIELDS,
    "NEXT_SEAT": ((), (), (1, 0), (1, 2, 0), (1, 2, 3, 0)),
    "SEAT_BIT": (1, 2, 4, 8),  # a seat's bit of the knowledge bits (`show CARDS to P`)
}
GLOBAL_NAMES = frozenset(HELPERS) | frozenset(BUILTINS) | frozenset(FIXED_GLOBALS) | {"VAL", "SUITR"}
_TABLE_NAME = re.compile(r"^[KD][0-9]+$")  # the constants table and the definitions' functions
_LOCAL_NAME = re.compile(r"^(?:g|e|_l[0-9]+|p[0-9]+)$")  # parameters and the compiler's numbered locals
# the state's attributes and methods generated code may use: the members of one declaration, with
# their types (protocol.py's RuleState, which mypy holds the engine's State and the reference to)
STATE_ATTRS = members(RuleState)
# (what the attribute is read from, attribute): the only attribute accesses generated code makes
ALLOWED_ATTRS = frozenset(
    {("g", a) for a in STATE_ATTRS} | {("g.rules", "score_of"), ("g.rules", "goal_of"), ("g.atts", "get"), ("e", "get")}
)
# a list the code builds itself (held by one of its own locals) may be appended to
ATTR_NAMES = frozenset(a for _, a in ALLOWED_ATTRS) | {"append"}
_NODES = (
    ast.Module,
    ast.FunctionDef,
    ast.arguments,
    ast.arg,
    ast.Return,
    ast.Assign,
    ast.AugAssign,
    ast.For,
    ast.Break,
    ast.If,
    ast.Pass,
    ast.Expr,
    ast.Name,
    ast.Load,
    ast.Store,
    ast.Attribute,
    ast.Subscript,
    ast.Call,
    ast.keyword,
    ast.Constant,
    ast.BinOp,
    ast.Add,
    ast.Sub,
    ast.Compare,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.In,
    ast.NotIn,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.UnaryOp,
    ast.IfExp,
    ast.Not,
    ast.USub,
    ast.ListComp,
    ast.SetComp,
    ast.comprehension,
    ast.Tuple,
    ast.List,
)
_OWN_LOCAL = re.compile(r"^_l[0-9]+$")


class UnsafeCode(Exception):
    """Generated code outside the allow-list: a bug of the compiler, never run."""


def _base(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def check_tree(tree: ast.AST, namespace: dict[str, Any]) -> None:
    """Refuse (UnsafeCode) a generated tree with anything but the allowed nodes, names, attributes and
    literals. Iterative (ast.walk), so any depth is safe."""
    for n in ast.walk(tree):
        if not isinstance(n, _NODES):
            raise UnsafeCode(f"node {type(n).__name__}")
        if isinstance(n, ast.Name):
            if not (
                _LOCAL_NAME.match(n.id)
                or (n.id in GLOBAL_NAMES or _TABLE_NAME.match(n.id))
                and n.id in namespace
                and isinstance(n.ctx, ast.Load)
            ):
                raise UnsafeCode(f"name {n.id!r}")
            if n.id in ("g", "e") and isinstance(n.ctx, ast.Store):
                raise UnsafeCode("assignment to a parameter")
        elif isinstance(n, ast.Attribute):
            base = _base(n.value)
            if (base, n.attr) not in ALLOWED_ATTRS and not (
                n.attr == "append" and base is not None and _OWN_LOCAL.match(base)
            ):
                raise UnsafeCode(f"attribute {n.attr!r}")
            if isinstance(n.ctx, ast.Store) and n.attr != "passed":
                raise UnsafeCode(f"assignment to attribute {n.attr!r}")
        elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store):
            if not (isinstance(n.value, ast.Name) and n.value.id == "e"):
                raise UnsafeCode("assignment to an item")
        elif isinstance(n, ast.Constant):
            v = n.value
            if not (v is None or v.__class__ in (int, bool)) or v.__class__ is int and abs(v) > MAX_INT:
                raise UnsafeCode(f"literal of type {type(v).__name__}")
        elif isinstance(n, ast.FunctionDef):
            if n.decorator_list or n.returns or not (n.name == "f" or _TABLE_NAME.match(n.name)):
                raise UnsafeCode(f"function {n.name!r}")
            a = n.args
            if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults or a.kw_defaults:
                raise UnsafeCode("function arguments")
            if any(not _LOCAL_NAME.match(x.arg) for x in a.args):
                raise UnsafeCode("argument name")
        elif isinstance(n, ast.keyword):
            if n.arg not in ("default", "bottom"):
                raise UnsafeCode(f"keyword {n.arg!r}")
        elif isinstance(n, ast.Module):
            if n is not tree or not all(isinstance(s, ast.FunctionDef) for s in n.body):
                raise UnsafeCode("module")


def _small_literal(k: Any) -> bool:
    if k.__class__ is tuple:  # CPython folds a tuple of literals (`(-1, -1)`, `()`) into one constant
        return all(_small_literal(x) for x in k)
    return k is None or k.__class__ is bool or k.__class__ is int and abs(k) <= MAX_INT


def check_code(code: Any) -> None:
    """The compiled code objects, checked again: names only from the allow-list, literals only small
    integers, booleans and None (nested code objects are checked in turn)."""
    todo = [code]
    while todo:
        c = todo.pop()
        for name in c.co_names:
            if name not in GLOBAL_NAMES and name not in ATTR_NAMES and not _TABLE_NAME.match(name) and name != "f":
                raise UnsafeCode(f"code names {name!r}")
        for k in c.co_consts:
            if hasattr(k, "co_code"):
                todo.append(k)
            elif not _small_literal(k):
                raise UnsafeCode(f"code constant of type {type(k).__name__}")
        for name in c.co_varnames + c.co_cellvars + c.co_freevars:
            if not _LOCAL_NAME.match(name) and not name.startswith("."):  # `.0`: a comprehension's input
                raise UnsafeCode(f"code variable {name!r}")


__all__ = [
    "check_tree",
    "check_code",
    "UnsafeCode",
    "GLOBAL_NAMES",
    "ATTR_NAMES",
    "ALLOWED_ATTRS",
    "STATE_ATTRS",
    "FIXED_GLOBALS",
]
