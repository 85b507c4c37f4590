"""`shuffle CARDS into deck`: the cards go into the deck, and the whole deck is shuffled."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.zones import DECK

from ..cost import Cost
from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _const, _g, _stmt
from ..values import cards

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Shuffle(Statement):
    cards: Node

    RULES = ("shuffle",)
    EXAMPLES = (Example("shuffle {cards} into deck", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Shuffle:
        return cls(c[0], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"shuffle {p.expr(self.cards)} into deck"

    def english(self, e: English) -> str:
        return f"{e.conj('shuffle', e.ctx.subject)} {e.object(self.cards)} into the deck"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        cards = c.cards_arg(self.cards, scope, used, "shuffle")
        c.cost = c.cost + Cost(c.ctx.deck_size)
        return c.each(cards, lambda card: _call(_g("move"), card, _const(DECK))) + [_stmt(_call(_g("shuffle_deck")))]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        for c in cards(r.ev(self.cards, g, env, frozenset(bound))):
            g.move(c, DECK)
        g.shuffle_deck()
