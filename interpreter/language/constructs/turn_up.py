"""`turn up CARDS`: cards face down in play are turned face up, for both players to see (a card that is
not face down stays as it is)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _g
from ..values import cards

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class TurnUp(Statement):
    cards: Node

    RULES = ("turn_up",)
    EXAMPLES = (
        Example("turn up {cards}", "statement"),
        Example(
            "move card to field of me as point face down unseen\nturn up field of me where it.face_down", "statement"
        ),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> TurnUp:
        return cls(c[0], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"turn up {p.expr(self.cards)}"

    def english(self, e: English) -> str:
        return f"{e.conj('turn', e.ctx.subject)} {e.object(self.cards)} face up for {e.everyone()} to see"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        """`g.turn_up(card, RULE)` for each card (the rule noted in the log, as `show` notes it)."""
        cs = c.cards_arg(self.cards, scope, used, "turn up")
        rule = c.rule()
        if not rule:
            return c.each(cs, lambda card: _call(_g("turn_up"), card))
        name = c.const(rule)
        return c.each(cs, lambda card: _call(_g("turn_up"), card, name))

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        for c in cards(r.ev(self.cards, g, env, frozenset(bound))):
            g.turn_up(c)
