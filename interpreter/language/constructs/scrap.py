"""`scrap CARDS`: the cards go to the scrap pile, one after another."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.zones import SCRAP

from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _const, _g
from ..values import cards

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Scrap(Statement):
    cards: Node

    RULES = ("scrap",)
    EXAMPLES = (Example("scrap {cards}", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Scrap:
        return cls(c[0], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"scrap {p.expr(self.cards)}"

    def english(self, e: English) -> str:
        return f"{e.conj('scrap', e.ctx.subject)} {e.object(self.cards)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        moved = c.cards_arg(self.cards, scope, used, "scrap")
        return c.each(moved, lambda card: _call(_g("move"), card, _const(SCRAP)))

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        for card in cards(r.ev(self.cards, g, env, frozenset(bound))):
            g.move(card, SCRAP)
