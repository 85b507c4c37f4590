"""A negative number: `-X` (minus a number, a count, ...)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import ONE
from ..node import UNARY, Example, Expression, Node, Pos
from ..pyast import _Code

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Neg(Expression):
    operand: Node

    RULES = ("neg",)
    EXAMPLES = (Example("-{int}", "int"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Neg:
        return cls(c[0], **at)

    def level(self) -> int:
        return UNARY

    def text(self, p: Printer) -> str:
        return f"-{p.expr(self.operand, UNARY)}"

    def value_words(self, e: English) -> str:
        return f"minus {e.number(self.operand)}"

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        x = c.gen(self.operand, scope, used)
        x = c.number(x, self.operand, "'-'")
        known = -x.value if x.value.__class__ is int else None  # (`-3` is known at load, as `3` is)
        return _Code(ast.UnaryOp(op=ast.USub(), operand=x.node), "int", x.cost + ONE, value=known)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        return -r.ev(self.operand, g, env, bound)
