"""`reveal N`: the top N cards of the deck (as many as it holds) are turned up among the shown cards."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.zones import DECK, SHOWN

from ..cost import Cost
from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _const, _for, _g, _item, _stmt, _zone
from ..values import _count
from .draw import _count_of
from .number import Num

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Reveal(Statement):
    count: Node

    RULES = ("reveal",)
    EXAMPLES = (Example("reveal {int}", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Reveal:
        return cls(c[0], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"reveal {p.expr(self.count)}"

    def english(self, e: English) -> str:
        subj = e.ctx.subject
        if isinstance(self.count, Num) and self.count.value == 1:
            return f"{e.conj('turn', subj)} up the top card of the deck for {e.everyone()} to see"
        return f"{e.conj('turn', subj)} up the top {e.cards(self.count)} of the deck for {e.everyone()} to see"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        n = c.gen(self.count, scope, used)
        n = c.number(n, self.count, "reveal")
        c.cost = c.cost + n.cost + Cost(c.ctx.deck_size)
        deck = _zone(_const(DECK))
        top = _item(_zone(_const(DECK)), _const(-1))
        return [
            _for(
                c._fresh(),
                _call("range", _call("min", _count_of(n), _call("len", deck))),
                [_stmt(_call(_g("move"), top, _const(SHOWN)))],
            )
        ]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        for _ in range(min(_count(r.ev(self.count, g, env, frozenset(bound))), len(g.zones[DECK]))):
            g.move(g.zones[DECK][-1], SHOWN)
