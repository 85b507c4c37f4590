"""`shuffle CARDS under deck`: only those cards are shuffled, then put under the deck."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import Cost
from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _g, _stmt
from ..values import cards
from .zone import Zone

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class ShuffleUnder(Statement):
    """`shuffle CARDS under deck`: only those cards are shuffled, then put under the deck."""

    cards: Node

    RULES = ("shuffle_under",)
    EXAMPLES = (Example("shuffle {cards} under deck", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> ShuffleUnder:
        return cls(c[0], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"shuffle {p.expr(self.cards)} under deck"

    def english(self, e: English) -> str:
        subj = e.ctx.subject
        what = e.object(self.cards)
        if e.one_card(self.cards):  # one card: nothing to shuffle ("put the chosen card under the deck")
            return f"{e.conj('put', subj)} {what} under the deck"
        them = "it" if isinstance(self.cards, Zone) else "them"  # the scrap: it; the chosen cards: them
        return f"{e.conj('shuffle', subj)} {what} and {e.conj('put', subj)} {them} under the deck"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        cards = c.cards_arg(self.cards, scope, used, "shuffle")
        c.cost = c.cost + cards.cost + Cost(cards.size)
        return [_stmt(_call(_g("shuffle_under"), _call("tuple", c._cards_of(cards))))]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        g.shuffle_under(cards(r.ev(self.cards, g, env, frozenset(bound))))
