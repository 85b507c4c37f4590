"""`nothing`: a step that does nothing (an effect or a branch that has no effect)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import Example, Pos, Statement

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Nothing(Statement):
    RULES = ("nothing",)
    EXAMPLES = (Example("nothing", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Nothing:
        return cls(**at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return "nothing"

    def english(self, e: English) -> str:
        return "nothing happens"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        return [ast.Pass()]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        return None
