"""A list in brackets: `[card, target]`, `[Q, K]` (a list of literals is one constant)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import ONE
from ..node import Example, Expression, Node, Pos
from ..phrasing import join_or
from ..pyast import _Code

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class ListLit(Expression):
    items: tuple[Node, ...]

    RULES = ("list",)
    EXAMPLES = (
        Example("[]", "cards"),
        Example("[{card}]", "cards"),
        Example("[{card}, {card}, {card}]", "cards"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> ListLit:
        return cls(tuple(a for a in c if a is not None), **at)

    def text(self, p: Printer) -> str:
        return f"[{', '.join(p.expr(a) for a in self.items)}]"

    def value_words(self, e: English) -> str:
        if not self.items:
            return "no cards"
        return join_or([e.value(i) for i in self.items], "and")

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        items = [c.gen(i, scope, used) for i in self.items]
        cost = sum((i.cost for i in items), ONE)
        size = max(1, sum(i.size for i in items))
        if all(i.value is not None and i.value.__class__ in (int, str) for i in items):
            value = tuple(i.value for i in items)  # a list of literals is one constant
            return _Code(c.const(value), "any", cost, size, value)
        return _Code(ast.Tuple(elts=[i.node for i in items], ctx=ast.Load()), "any", cost, size)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        return tuple(r.ev(i, g, env, bound) for i in self.items)
