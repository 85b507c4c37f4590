"""A negated condition: `not COND`."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import ONE
from ..node import NOT, Example, Expression, Node, Pos
from ..pyast import _Code

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Not(Expression):
    operand: Node

    RULES = ("not_",)
    EXAMPLES = (Example("not {bool}", "bool"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Not:
        return cls(c[0], **at)

    def level(self) -> int:
        return NOT

    def text(self, p: Printer) -> str:
        return f"not {p.expr(self.operand, NOT)}"

    def value_words(self, e: English) -> str:
        return e.cond(self)

    def condition_words(self, e: English, negated: bool) -> str | None:
        return e.cond(self.operand, not negated)

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        x = c.gen(self.operand, scope, used)
        return _Code(ast.UnaryOp(op=ast.Not(), operand=x.node), "bool", x.cost + ONE)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        return not r.ev(self.operand, g, env, bound)
