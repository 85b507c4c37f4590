"""Functions the engine generates for a ruleset (the plays of a set of cards, see legal.py; the win
check, wincheck.py; a direct play's common path, direct.py).

Each is a syntax tree from start to end: a function of `templates.py` read as a tree (`template`),
filled with more of them, engine names, integers and placeholders (`fill`), then checked (`define`):
every node, name, attribute and constant must be on the allow-lists below, so a mistake that let
file text in would be refused, not run. Whatever comes from a ruleset file (compiled expressions,
PlayDefs, actions) is passed in the namespace or spliced in place of a placeholder as the compiler's
own checked trees (inline.py), never written as text.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from importlib import resources
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
_WORDS = frozenset({"play", "me", "opponent", "card", "cards", "it", "target", "answering"})
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
        "pg",
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


@functools.cache
def _templates() -> dict[str, ast.FunctionDef]:
    """The functions of templates.py as syntax trees, by name (read once; the module is never run)."""
    text = resources.files(__package__).joinpath("templates.py").read_text(encoding="utf-8")
    tree = ast.parse(text, "templates.py")
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}


def template(name: str) -> ast.FunctionDef:
    """A fresh copy of the template function `name`."""
    return copied(_templates()[name])


def body(name: str, **parts: Part) -> list[ast.stmt]:
    """The statements of template `name`, filled with `parts` (see `fill`)."""
    return fill(template(name).body, **parts)


def loop_body(name: str, **parts: Part) -> list[ast.stmt]:
    """The statements inside the one loop of template `name` (a `continue` must sit in a loop), filled."""
    first = template(name).body[0]
    assert isinstance(first, ast.For)
    return fill(first.body, **parts)


def copied(node: Any, names: dict[str, str] | None = None) -> Any:
    """A copy of `node` (a tree, or a list of them) with every name of `names` renamed. A plain recursive
    copy: `copy.deepcopy` and an `ast.NodeTransformer` took two thirds of preparing a ruleset's engine.
    Every attribute is copied (the location, and the `hold` mark `_fill` looks for); a Load or Store
    context carries nothing and is shared."""
    if isinstance(node, list):
        return [copied(x, names) for x in node]
    if not isinstance(node, ast.AST) or isinstance(node, ast.expr_context):
        return node
    new = node.__class__.__new__(node.__class__)
    new.__dict__.update({k: copied(v, names) for k, v in node.__dict__.items()})
    if names and isinstance(node, ast.Name) and isinstance(new, ast.Name) and node.id in names:
        new.id = names[node.id]
    return new


Part = list[ast.stmt] | ast.expr | str | int
"""What fills a template's name: statements (for a statement that is the name alone), an expression,
another name (a rename: `l_N` -> `l3`) or an integer (a constant)."""


def fill(stmts: list[ast.stmt], **parts: Part) -> list[ast.stmt]:
    """`stmts` with each name of `parts` filled: a statement that is the name alone becomes the given
    statements (none: it is dropped); a name in an expression becomes the given expression (a copy),
    name or integer."""
    return _Filler(parts).stmts(stmts)


class _Filler(ast.NodeTransformer):
    def __init__(self, parts: dict[str, Part]) -> None:
        self.parts = parts

    def stmts(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in stmts:
            new = self.visit(s)
            out += new if isinstance(new, list) else [new]
        return out

    def visit_Expr(self, node: ast.Expr) -> Any:
        if isinstance(node.value, ast.Name) and isinstance(self.parts.get(node.value.id), list):
            return list(self.parts[node.value.id])  # type: ignore[arg-type]
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> Any:
        part = self.parts.get(node.id)
        if part is None or isinstance(part, list):
            return node
        if isinstance(part, str):
            return ast.copy_location(ast.Name(id=part, ctx=node.ctx), node)
        if isinstance(part, int):
            return ast.copy_location(ast.Constant(value=part), node)
        return ast.copy_location(copied(part), node)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in ("body", "orelse"):
            inner = getattr(node, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(node, field, self.stmts(inner) or [ast.Pass()])
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse") and isinstance(value, list):
                continue
            if isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, ast.AST) else v for v in value])
        return node


def function(name: str, fname: str | None = None, **parts: Part) -> ast.Module:
    """A module of one function: template `name` filled with `parts`, named `fname`. The function is a
    copy: statements given in `parts` may be filled into several functions (the splice changes each)."""
    f = template(name)
    f.body = copied(fill(f.body, **parts)) or [ast.Pass()]
    if fname is not None:
        f.name = fname
    return ast.Module(body=[f], type_ignores=[])


def call(fn: str, *args: str) -> ast.Call:
    """`fn(args...)`, of names."""
    return ast.Call(
        func=ast.Name(id=fn, ctx=ast.Load()), args=[ast.Name(id=a, ctx=ast.Load()) for a in args], keywords=[]
    )


def name(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Load())


def define(
    tree: ast.Module,
    name: str,
    namespace: dict[str, Any],
    filename: str,
    splice: Callable[[ast.Module], None] | None = None,
    placeholders: frozenset[str] = frozenset(),
    label: str | None = None,
    line_origins: dict[int, Origin] | None = None,
) -> Any:
    """Compile engine-made `tree` (checked first) defining function `name`, whose globals are
    `namespace` and a few builtins; returns the function. `splice`: replaces the `placeholders` the
    source names by compiled expressions (engine/inline.py, which checks those against the compiler's
    allow-list) once the source is checked. `label`: what the function is, for its name in tracebacks
    and in `cuttle code` (language/listing.py); `line_origins`: the rule written in place at each
    line the splice stamped (so a failure there names that rule, not the engine function)."""
    check(tree, set(namespace) | placeholders)
    if splice is not None:
        splice(tree)
    ast.fix_missing_locations(tree)
    ns = dict(namespace)
    ns["__builtins__"] = dict(_BUILTINS)
    exec(compile(tree, filename, "exec"), ns)  # noqa: S102 - engine-made, checked above
    fn = ns[name]
    return fn if label is None else name_function(fn, label, filename, 0, tree, ns, line_origins)


__all__ = ["define", "check", "GeneratedCodeError", "template", "body", "loop_body", "fill", "function", "call", "name"]
