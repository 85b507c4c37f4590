"""`pass`: the player acting passes (the game counts passes: three in a row end it in a draw)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import ONE
from ..node import Example, Pos, Statement
from ..pyast import _const, _load

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Pass(Statement):
    RULES = ("pass_",)
    EXAMPLES = (Example("pass", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Pass:
        return cls(**at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return "pass"

    def english(self, e: English) -> str:
        return f"{e.conj('pass', e.ctx.subject)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        c.cost = c.cost + ONE
        return [
            ast.Assign(targets=[ast.Attribute(value=_load("g"), attr="passed", ctx=ast.Store())], value=_const(True))
        ]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        g.passed = True
