"""Generated code you can read: each generated function is named after its rule and knows where the
rule is written, so a failure inside it names the rule and its line; `cuttle code` lists the code.

A compiled function's code object is renamed after the rule (`plays.scuttle.target` becomes the
function `plays_scuttle_target`) and compiled with the ruleset's file name and the rule's line, so a
traceback reads `File "house.yaml", line 12, in plays_scuttle_target`, and `core.origins.rule_at`
finds the innermost generated function of a traceback and says which rule it was. `recording()`
collects the generated code (as Python text printed from the syntax tree that was compiled, never
text that was run) while a ruleset is built, for `cuttle code`.

Names from a file only ever become a label and a code object's `co_name` (letters, digits and `_`,
see `python_name`): nothing from a file is parsed or compiled as Python.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from types import CodeType
from typing import Any

from interpreter.core.origins import Origin, register


@dataclass(frozen=True)
class Listing:
    """One generated function: the rule it was made for, where that rule is written, its Python text."""

    label: str  # "plays.scuttle.target", "engine: main decisions"
    file: str
    line: int
    text: str


_RECORDING: ContextVar[list[Listing] | None] = ContextVar("cuttle_listing", default=None)


@contextmanager
def recording() -> Iterator[list[Listing]]:
    """Collect the listings of every function generated inside the block (load the ruleset uncached
    and prepare its engine inside it)."""
    found: list[Listing] = []
    token = _RECORDING.set(found)
    try:
        yield found
    finally:
        _RECORDING.reset(token)


def label_of(path: tuple[Any, ...]) -> str:
    """A ruleset field's path as the rule's label: ('plays', 'scuttle', 'target') -> 'plays.scuttle.target'."""
    return ".".join(str(p) for p in path)


def python_name(label: str) -> str:
    """A label as a Python identifier for the function's name: letters, digits and `_` only."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", label).strip("_") or "rule"
    return "_" + name if name[0].isdigit() else name


def name_function(
    fn: Any,
    label: str,
    file: str,
    line: int,
    tree: ast.Module | None = None,
    ns: dict[str, Any] | None = None,
    lines: dict[int, Origin] | None = None,
) -> Any:
    """Rename `fn` after its rule and remember where the rule is; record its listing when recording
    (`tree`: the module compiled; `ns`: its namespace, whose constants the listing shows)."""
    code: CodeType = fn.__code__
    name = python_name(label)
    fn.__code__ = code.replace(co_name=name, co_qualname=name)
    fn.__name__ = fn.__qualname__ = name
    register(fn.__code__, label, file, line, lines)
    found = _RECORDING.get()
    if found is not None and tree is not None:
        found.append(Listing(label, file, line, _constants(tree, ns or {}) + ast.unparse(_renamed(tree, name))))
    return fn


def _constants(tree: ast.Module, ns: dict[str, Any]) -> str:
    """The values of the constants table the function reads (`K3`: a word, a list from the file), as
    comments above it."""
    used = sorted(
        {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and _CONSTANT.match(n.id) and n.id in ns},
        key=lambda k: int(k[1:]),
    )
    lines = []
    for k in used:
        text = repr(ns[k])
        lines.append(f"# {k} = {text if len(text) <= 100 else text[:97] + '...'}\n")
    return "".join(lines)


_CONSTANT = re.compile(r"^K[0-9]+$")


def _renamed(tree: ast.Module, name: str) -> ast.Module:
    """A copy of the module whose one function bears the rule's name (what the code object says)."""
    body: list[ast.stmt] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            stmt = copy.copy(stmt)
            stmt.name = name
        body.append(stmt)
    return ast.Module(body=body, type_ignores=[])


__all__ = ["Listing", "recording", "label_of", "python_name", "name_function"]
