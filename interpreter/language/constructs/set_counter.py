"""`set X.NAME to VALUE [for N turns]`: a counter declared in `counters:` (or a card's own value,
`X.value`, while it stays in play) is set, until set again or for N turns."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..context import FOREVER
from ..node import POSTFIX, Example, Node, Pos, Statement
from ..pyast import _call, _Code, _const, _g, _load, _stmt
from ..values import REST_OF_GAME, _number
from ._counters import _counter_key, _counter_target, _value_card, _value_card_of
from .attribute import Attr
from .number import Num

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class SetCounter(Statement):
    """`set X.NAME to VALUE [for N turns]` (a counter declared in `counters:`)."""

    target: Node  # X.NAME: an Attr
    value: Node
    turns: Node | None  # None: until set again

    RULES = ("set_counter",)
    EXAMPLES = (
        Example("set {card}.tokens to {int}", "statement"),
        Example("set {player}.debt to {int}", "statement"),
        Example("set {card}.value to {int}", "statement"),
        Example("set {card}.value to {int} for {int} turns", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> SetCounter:
        return cls(c[0], c[1], c[2] if len(c) > 2 else None, **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        n = self.turns
        return f"set {p.expr(self.target, POSTFIX)} to {p.expr(self.value)}" + (
            f" for {p.expr(n)} turns" if n is not None else ""
        )

    def english(self, e: English) -> str:
        """`set X.NAME to V [for N turns]`; a card's value reads "X is worth V until it leaves play"."""
        t, v, n = self.target, e.value(self.value), self.turns
        turns = "" if n is None else f" for {e.value(n)} turn{'' if isinstance(n, Num) and n.value == 1 else 's'}"
        if isinstance(t, Attr) and t.name == "value":
            card = e.object(t.obj)
            return f"{card} {'is' if card != 'them' else 'are'} worth {v}{turns or ' until it leaves play'}"
        return f"{e.conj('set', e.ctx.subject)} {e.value(t)} to {v}{turns}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        card = _value_card(c, self.target, scope, used)
        if card is None:
            key, name = _counter_target(c, self.target, scope, used)
        v = c.gen(self.value, scope, used)
        v = c.number(v, self.value, "'set ... to'")
        if self.turns is None:
            n = _Code(_const(FOREVER), "int")
        else:
            n = c.gen(self.turns, scope, used)
            n = c.number(n, self.turns, "'set ... for'")
        c.cost = c.cost + v.cost + n.cost
        if card is not None:  # a card's own value: it keeps it while it stays in play
            return [_stmt(_call("_set_value", _load("g"), card, v.node, n.node))]
        return [_stmt(_call(_g("set_counter"), key, name, v.node, n.node))]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        card = _value_card_of(r, self.target, g, env, bound)
        if card is None:
            key, name = _counter_key(r, self.target, g, env, bound)
        v = r.ev(self.value, g, env, frozenset(bound))
        n = REST_OF_GAME if self.turns is None else r.ev(self.turns, g, env, frozenset(bound))
        if card is None:
            g.set_counter(key, name, v, n)
        elif card >= 0:  # (none has no value to set)
            g.set_counter(card, "value", _number(v), n)
