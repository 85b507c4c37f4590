"""An attribute: `X.NAME`, a card's rank, suit, value, role, owner, host, Jacks..., a player's turns,
or a counter declared in `counters:` (of cards or of players)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import NAMES, RANK_OF
from interpreter.core.errors import RuleRuntimeError, suggest
from interpreter.core.zones import CONTROLLER, IS_FIELD

from ..context import CARD_ATTRS, PLAYER_ATTRS
from ..cost import ONE
from ..node import POSTFIX, Example, Expression, Node, Pos
from ..phrasing import NP
from ..pyast import _attr, _call, _Code, _compare, _const, _g, _item, _load
from ..values import Card, Nobody, _first, _nobody_or, _player

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference

# what the attributes of `none` (no card) are: nothing, nobody's, nowhere
_OF_NONE: dict[str, Any] = {
    "rank": None,
    "suit": -1,
    "value": 0,
    "name": "none",
    "role": None,
    "owner": Nobody(-1),
    "controller": Nobody(-1),
    "last_owner": Nobody(-1),
    "last_controller": Nobody(-1),
    "host": Card(-1),
    "jacks": (),
    "top": False,
    "attached": False,
    "face_down": False,
}


@dataclass(frozen=True)
class Attr(Expression):
    obj: Node
    name: str

    RULES = ("attr",)
    EXAMPLES = (
        Example("{card}.owner", "player"),
        Example("{card}.controller", "player"),
        Example("{card}.last_owner", "player"),
        Example("{card}.last_controller", "player"),
        Example("{card}.jacks", "cards"),
        Example("{card}.host", "card"),
        Example("{card}.top", "bool"),
        Example("{player}.turns", "int"),
        Example("{card}.rank == {card}.rank", "bool"),
        Example("{card}.role == point", "bool"),
        Example("{card}.suit", "int"),
        Example("{card}.value", "int"),
        Example("{card}.tokens", "int"),
        Example("{player}.debt", "int"),
        Example("{card}.attached", "bool"),
        Example("{card}.face_down", "bool"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Attr:
        return cls(c[0], str(c[1]), **at)

    def level(self) -> int:
        return POSTFIX

    def text(self, p: Printer) -> str:
        return f"{p.postfix_obj(self.obj)}.{self.name}"

    def value_words(self, e: English) -> str:
        match self:
            case Attr(obj=o, name="owner" | "controller" | "last_owner" | "last_controller"):
                return e.player(self)
            case Attr(obj=o, name="host"):
                return f"the card {e.value(o)} is on"
            case Attr(obj=o, name="jacks"):
                return f"the Jacks on {e.value(o)}"
            case Attr(obj=o, name="top" | "attached" | "face_down"):
                return e.cond(self)
            case Attr(obj=o, name="turns"):
                who = e.player(o)
                return f"the number of turns {who} {'have' if who == 'you' else 'has'} had"
            case Attr(obj=o, name=attr) if attr in CARD_ATTRS:
                return f"{e.possessive(o)} {attr}"
            case Attr(obj=o, name=attr):  # a counter (`counters:`): "your scuttles count"
                return f"{e.possessive(o)} {attr} count"
        return e.code(self)

    def condition_words(self, e: English, negated: bool) -> str | None:
        match self:
            case Attr(obj=o, name="top"):
                return f"{e.value(o)} is {'not ' if negated else ''}the top card of its pile"
            case Attr(obj=o, name="attached"):
                return f"{e.value(o)} is {'not ' if negated else ''}attached to another card"
            case Attr(obj=o, name="face_down"):
                return f"{e.value(o)} is {'not ' if negated else ''}face down"
        return None

    def noun(self, e: English) -> NP | None:
        match self:
            case Attr(obj=o, name="jacks"):
                return NP(role="jack", place=f"on {e.value(o)}", source=f"the Jacks on {e.value(o)}")
        return None

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        a = self.name
        if a in c.ctx.counters:
            obj = c.gen(self.obj, scope, used)
            return _Code(_call(_g("counter"), c._counter_key(obj, self, a), c.const(a)), "int", obj.cost + ONE)
        if a in PLAYER_ATTRS:
            obj = c.gen(self.obj, scope, used)
            p = c._as_player(obj, self.obj, f"'.{a}'")
            c.ctx.reads_turns = True
            return _Code(_call(_g("turns_of"), p), "int", obj.cost + ONE)
        obj = c.gen(self.obj, scope, used)
        if a not in CARD_ATTRS:
            raise _no_attribute(c, self, obj.typ)
        c._expect(obj, ("card", "cards"), self.obj, f"'.{a}'")
        x = obj.node if obj.typ == "card" else _call("_first", obj.node)
        cost = obj.cost + ONE
        if a == "rank":
            return _Code(_item(_load("RANK_OF"), x), "str", cost)
        if a == "suit":
            return _Code(_item(_load("SUITR"), x), "int", cost)
        if a == "value":
            return _Code(c._value_of(x), "int", cost)
        if a == "name":
            return _Code(_item(_load("NAMES"), x), "str", cost)
        if a == "role":
            return _Code(_item(_g("role"), x), "str", cost)
        if a in ("owner", "controller"):  # (nobody's, -1, for none or a card in the deck: checked where used)
            if a == "owner":
                who = _Code(_item(_g("owner"), x), "player", cost)
            elif not c.plain:  # what State.controller reads: the player whose hand or field holds it
                who = _Code(_item(_load("CONTROLLER"), _item(_g("zone_of"), x)), "player", cost)
            else:
                who = _Code(_call(_g("controller"), x), "player", cost)
            who.nobody = True
            return who
        if a in ("last_owner", "last_controller"):  # in play: now; else when it last left play (or nobody)
            who = _Code(_call(_g(a + "_of"), x), "player", cost)
            who.nobody = True
            return who
        if a == "host":
            return _Code(_item(_g("host"), x), "card", cost)
        if a == "jacks":
            return _Code(
                _call("tuple", _call(_attr(_g("atts"), "get"), x, ast.Tuple(elts=[], ctx=ast.Load()))),
                "cards",
                cost,
                c.ctx.deck_size,
            )
        if a == "top":
            return _Code(_call(_g("is_top"), x), "bool", cost)
        if a == "face_down":
            return _Code(_call(_g("is_face_down"), x), "bool", cost)
        return _Code(_compare(_item(_g("host"), x), ast.GtE(), _const(0)), "bool", cost)  # attached

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        a = self.name
        obj = r.ev(self.obj, g, env, bound)
        if a in r.ctx.counters:
            key = -1 - _player(obj) if r.ctx.counters[a] == "player" else _first(obj)
            return g.counter(key, a)
        if a == "turns":
            return g.turns_of(_player(obj))
        c = _first(obj)
        if c < 0 and a in _OF_NONE:
            return _OF_NONE[a]
        attrs: dict[str, Callable[[], Any]] = {
            "rank": lambda: RANK_OF[c],
            "suit": lambda: r.suit[c],
            "value": lambda: r._value(g, c),
            "name": lambda: NAMES[c],
            "role": lambda: g.role[c],
            "owner": lambda: _nobody_or(g.owner[c]),
            "controller": lambda: _nobody_or(CONTROLLER[g.zone_of[c]]),
            # in play: its owner (the player whose field holds it) now; else when it last left play
            # (State.last_seats: (owner + 1) * 5 + controller + 1 when it last left play; 0, nobody's)
            "last_owner": lambda: _nobody_or(g.owner[c] if g.owner[c] >= 0 else divmod(g.last_seats[c], 5)[0] - 1),
            "last_controller": lambda: _nobody_or(
                CONTROLLER[g.zone_of[c]] if IS_FIELD[g.zone_of[c]] else divmod(g.last_seats[c], 5)[1] - 1
            ),
            "host": lambda: Card(g.host[c]),
            "jacks": lambda: tuple(g.atts.get(c, ())),
            "top": lambda: g.is_top(c),
            "attached": lambda: g.host[c] >= 0,
            "face_down": lambda: g.is_face_down(c),
        }
        if a not in attrs:
            raise RuleRuntimeError(f"line {self.line}: a card has no attribute '{a}'")
        return attrs[a]()


def _no_attribute(c: Compiler, node: Attr, kind: str) -> Exception:
    """E204 for `X.NAME` that names nothing: said of a player or of a card, as X is, with the names that
    one has (its attributes and the counters declared for it) to suggest from."""
    a = node.name
    counters = c.ctx.counters
    if kind == "player":
        names = PLAYER_ATTRS + tuple(k for k, of in counters.items() if of == "player")
        what, listed = "a player", f"a player's attributes: {', '.join(PLAYER_ATTRS)}"
        counter_note = " (and no counter of players of that name is declared in `counters:`)"
    elif kind in ("card", "cards"):
        names = CARD_ATTRS + tuple(k for k, of in counters.items() if of == "card")
        what, listed = "a card", f"attributes: {', '.join(CARD_ATTRS)}"
        counter_note = " (and no counter of cards of that name is declared in `counters:`)"
    else:  # a value whose kind is known only at run time: either
        names = CARD_ATTRS + PLAYER_ATTRS + tuple(counters)
        what, listed = "a card or a player", f"attributes: {', '.join(CARD_ATTRS + PLAYER_ATTRS)}"
        counter_note = " (and no counter of that name is declared in `counters:`)"
    near = suggest(a, names)
    return c.error(
        node,
        f"{what} has no attribute '{a}'" + (counter_note if counters else ""),
        "E204",
        f"did you mean '{near}'?" if near else listed,
    )
