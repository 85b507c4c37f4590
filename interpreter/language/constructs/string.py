"""A word in quotes: `"stunned"`, `"Q"` (a rank, a role or a mark written as text)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import Example, Expression, Pos
from ..pyast import _Code

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Str(Expression):
    value: str

    RULES = ("string",)
    EXAMPLES = (Example('marked({card}, "stunned")', "bool"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Str:
        return cls(str(c[0])[1:-1], **at)

    def text(self, p: Printer) -> str:
        return f'"{self.value}"'

    def value_words(self, e: English) -> str:
        return f'"{self.value}"'

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        return _Code(c.const(self.value), "str", value=self.value)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        return self.value
