"""`show CARDS to P` (`to all`: both players): the players learn where those hidden cards are."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _const, _g, _item, _load, _plus, _store
from ..values import _player, cards
from .name import Name

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Show(Statement):
    """`show CARDS to P` (player None: `to all`): the players learn where those hidden cards are."""

    cards: Node
    player: Node | None = None

    RULES = ("show", "show_all")
    EXAMPLES = (
        Example("show {cards} to {player}", "statement"),
        Example("show {cards} to all", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Show:
        if rule == "show_all":
            return cls(c[0], None, **at)
        return cls(c[0], c[1], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"show {p.expr(self.cards)} to {p.expr(self.player) if self.player is not None else 'all'}"

    def english(self, e: English) -> str:
        p, subj = self.player, e.ctx.subject
        what = e.object(self.cards)
        if p is None:
            return f"{e.conj('show', subj)} {what} to {e.everyone()}"
        if e.is_name(p, "me") and not e.third_person(subj):
            return f"{e.conj('look', subj)} at {what}"
        if subj is not None and p == subj:
            return f"{e.conj('look', subj)} at {what}"
        return f"{e.conj('show', subj)} {what} to {e.player(p)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        """`show CARDS to P`: g.show(card, bits), bits 1 + P (1: p1, 2: p2) or 3 (`to all`); at a larger
        table the seat's bit (SEAT_BIT[P]: 1, 2, 4, 8), or every seat's."""
        cards = c.cards_arg(self.cards, scope, used, "show")
        if self.player is None:
            bits: ast.expr = _const((1 << c.ctx.seats) - 1)
        else:
            if isinstance(self.player, Name) and self.player.name == "random":
                raise c.error(
                    self.player, "show needs a player (me, opponent, a card's owner...) or all, not random", "E210"
                )
            p = c.gen_player(self.player, scope, used)
            c.cost = c.cost + p.cost
            seat = c._as_player(p, self.player, "'show ... to'")
            bits = _plus(_const(1), seat) if c.ctx.seats == 2 else _item(_load("SEAT_BIT"), seat)
        who = c._fresh()  # (the player worked out once, before the cards are shown: none shown, none spared)
        first = [ast.Assign(targets=[_store(who)], value=bits)]
        rule = c.rule()
        if not rule:
            return first + c.each(cards, lambda card: _call(_g("show"), card, _load(who)))
        name = c.const(rule)
        return first + c.each(cards, lambda card: _call(_g("show"), card, _load(who), name))

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        shown = cards(r.ev(self.cards, g, env, frozenset(bound)))
        every = (1 << r.ctx.seats) - 1
        bits = every if self.player is None else 1 << _player(r.ev(self.player, g, env, frozenset(bound)))
        for c in shown:
            g.show(c, bits)
