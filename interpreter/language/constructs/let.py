"""`let NAME = VALUE`: NAME is the value for the rest of the program (a zone's cards as they are now)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..instructions import EXEC
from ..node import Example, Node, Pos, Statement
from ..phrasing import words
from ..pyast import _call, _Code, _load, _store
from .choose import not_in_loop

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Let(Statement):
    name: str
    value: Node

    RULES = ("let",)
    EXAMPLES = (
        Example("let kept = {cards}\nscrap kept", "statement"),
        Example("let n = {int}\ndraw n", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Let:
        return cls(str(c[0]), c[1], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"let {self.name} = {p.expr(self.value)}"

    def english(self, e: English) -> str:
        return f"let {words(self.name)} be {e.value(self.value)}"

    def instructions(self, c: Compiler, bound: set[str], out: list[Any]) -> None:
        fb = frozenset(bound)
        used: dict[str, str] = {}
        pre, code = c._apart(lambda: c.gen(self.value, {n: None for n in fb}, used))
        c.cost = c.cost + code.cost
        c._let_sizes[self.name] = code.size
        fn = c._function(pre + [ast.Assign(targets=[_env_item(c, self.name)], value=_snapshot(code))], used)
        if fn is not None:  # (every plain step of a program is known by its statements)
            c.ctx.programs[fn] = ((self,), fb)
        out.append([EXEC, fn])
        bound.add(self.name)

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        if c._in_loop:
            raise not_in_loop(c, self)
        code = c.gen(self.value, scope, used)
        c.cost = c.cost + code.cost
        scope[self.name] = None
        c._let_sizes[self.name] = code.size
        local = c._env(self.name, used)
        return [ast.Assign(targets=[_env_item(c, self.name), _store(local.id)], value=_snapshot(code))]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        v = r.ev(self.value, g, env, frozenset(bound))
        env[self.name] = tuple(v) if isinstance(v, list) else v
        bound.add(self.name)


def _env_item(c: Compiler, name: str) -> ast.Subscript:
    return ast.Subscript(value=_load("e"), slice=c.const(name), ctx=ast.Store())


def _snapshot(code: _Code) -> ast.expr:
    """A `let` names a value: the cards of a zone as they are now, not the zone as it changes."""
    return _call("tuple", code.node) if code.typ == "cards" else code.node
