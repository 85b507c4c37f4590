"""`for each NAME in CARDS do ... end`: the statements once for each of the cards (a copy taken first),
NAME being the card."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import ONE, ZERO
from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _Code, _for, _load
from ..values import cards
from .name import _TYPES

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class ForEach(Statement):
    var: str
    source: Node
    body: tuple[Node, ...]

    RULES = ("for_each",)
    EXAMPLES = (Example("for each c in {cards} do\nscrap c\n{body}\nend", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> ForEach:
        return cls(str(c[0]), c[1], c[2], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"for each {self.var} in {p.expr(self.source)} do{p.nested(self.body, depth, multiline)}end"

    def english(self, e: English) -> str:
        np = e.noun(self.source)
        each = (
            f"each {np.head()}{' ' + np.place if np.place and not np.owner else ''}{np.tail()}"
            if np and not np.definite
            else f"each of {e.value(self.source)}"
        )
        if np and np.owner and not np.definite:
            each = f"each of {np.owner} {np.head(True)}{np.tail()}"
        inner = e.with_(aliases={**e.ctx.aliases, self.var: "it"})
        return f"for {each}: {inner.block(self.body)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        src = c.cards_arg(self.source, scope, used, "for each")
        var = c._fresh()
        inner = {**scope, self.var: _Code(_load(var), _TYPES.get(self.var, "any"))}
        body: list[ast.stmt] = []
        saved, c.cost = c.cost, ZERO
        c._in_loop += 1
        try:
            for s in self.body:
                body += c.stmt_lines(s, inner, used)
        finally:
            c._in_loop -= 1
            c.cost = saved + src.cost + (c.cost + ONE).times(src.size)
        return [_for(var, _call("tuple", c._cards_of(src)), body)]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        for card in cards(r.ev(self.source, g, env, frozenset(bound))):
            r.run(self.body, g, {**env, self.var: card}, bound | {self.var})
