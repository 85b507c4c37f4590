"""`add VALUE to X.NAME`: a counter declared in `counters:` (or a card's own value, `X.value`) grows by
VALUE (or shrinks, if it is negative)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import POSTFIX, Example, Node, Pos, Statement
from ..pyast import _call, _g, _load, _stmt
from ..values import REST_OF_GAME, _number
from ._counters import _counter_key, _counter_target, _value_card, _value_card_of

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class AddCounter(Statement):
    """`add VALUE to X.NAME`."""

    value: Node
    target: Node

    RULES = ("add_to_counter",)
    EXAMPLES = (
        Example("add {int} to {card}.tokens", "statement"),
        Example("add {int} to {player}.debt", "statement"),
        Example("add {int} to {card}.value", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> AddCounter:
        return cls(c[0], c[1], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"add {p.expr(self.value)} to {p.expr(self.target, POSTFIX)}"

    def english(self, e: English) -> str:
        return f"{e.conj('add', e.ctx.subject)} {e.value(self.value)} to {e.value(self.target)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        card = _value_card(c, self.target, scope, used)
        if card is None:
            key, name = _counter_target(c, self.target, scope, used)
        v = c.gen(self.value, scope, used)
        v = c.number(v, self.value, "'add'")
        c.cost = c.cost + v.cost
        if card is not None:
            return [_stmt(_call("_add_value", _load("g"), card, v.node, _load("VAL")))]
        return [_stmt(_call(_g("add_counter"), key, name, v.node))]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        card = _value_card_of(r, self.target, g, env, bound)
        if card is None:
            key, name = _counter_key(r, self.target, g, env, bound)
            g.add_counter(key, name, r.ev(self.value, g, env, frozenset(bound)))
            return
        v = _number(r.ev(self.value, g, env, frozenset(bound)))
        if card >= 0:
            own = g.own_value(card)
            if own is None:
                g.set_counter(card, "value", _number(r.value[card] + v), REST_OF_GAME)
            else:
                g.add_counter(card, "value", v)
