"""`attach CARD to HOST as ROLE [for P]`: the cards go onto a card in play (a Jack on a point card), in a
role, for the acting player or for player P (the card attached then belongs to P, and the card it is
attached to moves in front of P: a Jack or Joker of `teams` that moves a card to another player)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import Example, Node, Pos, Statement
from ..phrasing import a, role_noun
from ..pyast import _call, _compare, _const, _g, _load, _store
from ..values import _first, _player, cards

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Attach(Statement):
    card: Node
    host: Node
    role: str
    player: Node | None = None  # `for P`: whose the attached card is (default: the acting player)

    RULES = ("attach",)
    EXAMPLES = (Example("attach {card} to {card} as jack", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Attach:
        return cls(c[0], c[1], str(c[2]), c[3] if len(c) > 3 else None, **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        who = f" for {p.expr(self.player)}" if self.player is not None else ""
        return f"attach {p.expr(self.card)} to {p.expr(self.host)} as {self.role}{who}"

    def english(self, e: English) -> str:
        subj = e.ctx.subject
        put = f"{e.conj('put', subj)} {e.object(self.card)} on {e.object(self.host)} as {a(role_noun(self.role))}"
        if self.player is None:
            return put
        return f"{put}, for {e.player(self.player)} (it moves in front of {e.player(self.player)})"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        cards = c.cards_arg(self.card, scope, used, "attach")
        host = c.cards_arg(self.host, scope, used, "'attach ... to'")
        c.cost = c.cost + host.cost
        c.ctx.roles.add(self.role)
        h = c._fresh()
        me: ast.expr = c._env("me", used)
        role = c.const(self.role)
        if self.player is not None:
            pc = c.gen_player(self.player, scope, used)
            c.cost = c.cost + pc.cost
            me = c._as_player(pc, self.player, "'attach ... for'")
        body = c.each(cards, lambda card: _call(_g("attach"), card, _load(h), me, role))
        first = host.node if host.typ == "card" and not c.plain else _call("_first", host.node)
        return [
            ast.Assign(targets=[_store(h)], value=first),
            ast.If(test=_compare(_load(h), ast.GtE(), _const(0)), body=body, orelse=[]),
        ]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        cs = cards(r.ev(self.card, g, env, frozenset(bound)))
        h = _first(r.ev(self.host, g, env, frozenset(bound)))
        who = env["me"] if self.player is None else _player(r.ev(self.player, g, env, frozenset(bound)))
        if h >= 0:
            for c in cs:
                g.attach(c, h, who, self.role)
