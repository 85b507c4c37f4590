"""Functions the engine generates for a ruleset (the plays of a set of cards, see legal.py; the win
check, wincheck.py; a direct play's common path, direct.py).

Their source is assembled by the engine from its own names and integers only; whatever comes
from a ruleset file (compiled expressions, PlayDefs, actions) is passed in the namespace, never
written into the text. `define` checks that before compiling: the source is parsed and every node,
name, attribute and constant must be on the allow-lists below, so a mistake that let file text in
would be refused, not run.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from interpreter.core.origins import Origin
from interpreter.language.listing import name_function

# The shapes of Python the engine's generated functions are made of.
_NODES = (
    ast.Module,
    ast.FunctionDef,
    ast.arguments,
    ast.arg,
    ast.Assign,
    ast.Expr,
    ast.Call,
    ast.Name,
    ast.Load,
    ast.Store,
    ast.Constant,
    ast.Subscript,
    ast.Attribute,
    ast.If,
    ast.For,
    ast.Compare,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.Tuple,
    ast.List,
    ast.Dict,
    ast.Return,
    ast.Continue,
    ast.Pass,
    ast.BinOp,
    ast.Add,
    ast.Sub,
    ast.Is,
    ast.IsNot,
    ast.Lt,
    ast.GtE,
    ast.Eq,
    ast.NotEq,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.BitAnd,
)
# The only words (string constants) they may contain: the keys of the bindings and the action kind.
_WORDS = frozenset({"play", "me", "opponent", "card", "cards", "it", "target"})
_ATTRS = frozenset(
    {
        "append",
        "zones",
        "zone_of",
        "__class__",
        # the state's own slots and moves, which a direct play's function reads and sets (direct.py)
        "remove",
        "move",
        "known",
        "chain",
        "pending",
        "frames",
        "winner",
        "fv",
        "checked_fv",
        "declare_winner",
        "passed",
        "marks",
        "passes",
        "turn",
        "turn_no",
        "actions",
    }
)
_BUILTINS = {"enumerate": enumerate, "len": len}


class GeneratedCodeError(Exception):
    """Generated source that is not on the allow-lists (an engine bug, never a user error)."""


def check(tree: ast.AST, known: set[str]) -> None:
    """Raise GeneratedCodeError unless every node, name, attribute and constant is allowed."""
    bound = set(known) | set(_BUILTINS)
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise GeneratedCodeError(f"generated code may not contain {type(node).__name__}")
        if isinstance(node, ast.Name) and node.id not in bound:
            raise GeneratedCodeError(f"generated code names '{node.id}', which the engine did not provide")
        if isinstance(node, ast.Attribute) and node.attr not in _ATTRS:
            raise GeneratedCodeError(f"generated code may not use the attribute '{node.attr}'")
        if isinstance(node, ast.Constant) and not (
            node.value is None or type(node.value) in (int, bool) or node.value in _WORDS
        ):
            raise GeneratedCodeError(f"generated code may not contain the constant {node.value!r}")


def define(
    source: str,
    name: str,
    namespace: dict[str, Any],
    filename: str,
    splice: Callable[[ast.Module], None] | None = None,
    placeholders: frozenset[str] = frozenset(),
    label: str | None = None,
    line_origins: dict[int, Origin] | None = None,
) -> Any:
    """Compile engine-made `source` (checked first) defining function `name`, whose globals are
    `namespace` and a few builtins; returns the function. `splice`: replaces the `placeholders` the
    source names by compiled expressions (engine/inline.py, which checks those against the compiler's
    allow-list) once the source is checked. `label`: what the function is, for its name in tracebacks
    and in `cuttle code` (language/listing.py); `line_origins`: the rule written in place at each
    line the splice stamped (so a failure there names that rule, not the engine function)."""
    tree = ast.parse(source, filename)
    check(tree, set(namespace) | placeholders)
    if splice is not None:
        splice(tree)
        ast.fix_missing_locations(tree)
    ns = dict(namespace)
    ns["__builtins__"] = dict(_BUILTINS)
    exec(compile(tree, filename, "exec"), ns)  # noqa: S102 - engine-made, checked above
    fn = ns[name]
    return fn if label is None else name_function(fn, label, filename, 0, tree, ns, line_origins)


__all__ = ["define", "check", "GeneratedCodeError"]
