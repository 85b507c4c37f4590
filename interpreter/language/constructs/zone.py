"""A zone, the cards it holds: `deck` (from the top), `scrap`, `shown`, `play` (both fields), and a
player's `hand of P` / `field of P`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.zones import DECK, FIELDS, HANDS, SCRAP, SHOWN

from ..context import PLAYER_SETS
from ..cost import ONE
from ..node import POSTFIX, Example, Expression, Node, Pos
from ..phrasing import NP
from ..pyast import _call, _Code, _const, _load, _zone
from ..values import Players, _player
from .name import Name

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


def _hand(p: Node | None) -> str:
    """`hand`, or `hands` of a set of players (`hand of opponents`)."""
    return "hands" if isinstance(p, Name) and p.name in PLAYER_SETS else "hand"


@dataclass(frozen=True)
class Zone(Expression):
    """A zone: `deck`, `scrap`, `shown`, `play` (every field), or `hand of P` / `field of P` (P a player or a set of
    players: `field of opponents`)."""

    zone: str
    player: Node | None = None

    RULES = ("hand", "field", "deck", "scrap_zone", "shown", "in_play")
    EXAMPLES = (
        Example("deck", "cards"),
        Example("scrap", "cards"),
        Example("shown", "cards"),
        Example("play", "cards"),
        Example("hand of me", "cards"),
        Example("field of opponent", "cards"),
        Example("hand of {player}", "cards"),
        Example("field of {player}", "cards"),
        Example("field of opponents", "cards"),
        Example("hand of others", "cards"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Zone:
        if rule == "hand":
            return cls("hand", c[0], **at)
        if rule == "field":
            return cls("field", c[0], **at)
        if rule == "deck":
            return cls("deck", None, **at)
        if rule == "scrap_zone":
            return cls("scrap", None, **at)
        if rule == "shown":
            return cls("shown", None, **at)
        return cls("play", None, **at)  # in_play

    def text(self, p: Printer) -> str:
        return self.zone if self.player is None else f"{self.zone} of {p.expr(self.player, POSTFIX)}"

    def value_words(self, e: English) -> str:
        match self:
            case Zone(zone="deck"):
                return "the deck"
            case Zone(zone="scrap"):
                return "the scrap"
            case Zone(zone="shown"):
                return "the revealed cards"
            case Zone(zone="play"):
                return "the cards in play"
            case Zone(zone="hand", player=p):
                return f"{e.possessive(p)} {_hand(p)}"
            case Zone(zone="field", player=p):
                return f"{e.possessive(p)} cards in play"
        return e.code(self)

    def noun(self, e: English) -> NP | None:
        match self:
            case Zone(zone="deck"):
                return NP(place="in the deck", source="the deck")
            case Zone(zone="scrap"):
                return NP(place="in the scrap", source="the scrap")
            case Zone(zone="shown"):
                return NP(place="among the revealed cards", source="the revealed cards")
            case Zone(zone="play"):
                return NP(place="in play", source="the cards in play")
            case Zone(zone="hand", player=p):
                return NP(place=f"in {e.possessive(p)} {_hand(p)}", source=f"{e.possessive(p)} {_hand(p)}")
            case Zone(zone="field", player=p):
                return NP(
                    owner=e.possessive(p),
                    holder=p,
                    place=f"in front of {e.player(p)}",
                    source=f"{e.possessive(p)} cards in play",
                )
        return None

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        z, n = self.zone, c.ctx.deck_size
        if z == "deck":  # read from the top: the first card is the top card (the zone's list ends with it)
            return _Code(_call("_from_top", _zone(_const(DECK))), "cards", ONE, n)
        if z == "scrap":
            return _Code(_zone(_const(SCRAP)), "cards", ONE, n)
        if z == "shown":
            return _Code(_zone(_const(SHOWN)), "cards", ONE, n)
        if z == "play":
            return _Code(c.in_play(), "cards", ONE, n)
        owner = self.player
        assert owner is not None  # the parser gives a hand or a field its player
        p = c.gen_player(owner, scope, used)
        if p.typ == "players":  # several players' (`field of opponents`): their cards in their order
            zones = _load("HANDS" if z == "hand" else "FIELDS")
            return _Code(_call("_sides", _load("g"), zones, p.node), "cards", p.cost + ONE, n)
        return _Code(_zone(c.player_zone(z, c._as_player(p, owner, f"'{z} of'"))), "cards", p.cost + ONE, n)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        if self.zone == "deck":
            return tuple(reversed(g.zones[DECK]))
        if self.zone == "scrap":
            return tuple(g.zones[SCRAP])
        if self.zone == "shown":
            return tuple(g.zones[SHOWN])
        if self.zone == "play":
            return tuple(c for f in FIELDS[: r.ctx.seats] for c in g.zones[f])
        assert self.player is not None
        who = r.ev(self.player, g, env, bound)
        zones = HANDS if self.zone == "hand" else FIELDS
        if isinstance(who, Players):
            return tuple(c for p in who for c in g.zones[zones[p]])
        return tuple(g.zones[zones[_player(who)]])
