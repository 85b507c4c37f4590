"""A whole number: `3`, `0` (a negative one is `-` and a number: Neg)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.limits import MAX_INT

from ..node import Example, Expression, Pos
from ..pyast import _Code, _const

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Num(Expression):
    value: int

    RULES = ("number",)
    EXAMPLES = (
        Example("0", "int"),
        Example("1", "int"),
        Example("2", "int"),
        Example("3", "int"),
        Example("8", "int"),
        Example("13", "int"),
        Example("52", "int"),
        Example("99", "int"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Num:
        return cls(int(c[0]), **at)

    def text(self, p: Printer) -> str:
        return str(self.value)

    def value_words(self, e: English) -> str:
        return str(self.value)

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        if abs(self.value) > MAX_INT:
            raise c.error(self, f"the number is beyond the limit of {MAX_INT:.0e} (MAX_INT)", "E213")
        return _Code(_const(self.value), "int", value=self.value)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        return self.value
