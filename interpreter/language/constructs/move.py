"""`move CARDS to DEST`: the cards go, one after another, to the deck's top or bottom, the scrap, the
shown cards, a player's hand or a player's field in a role (Dest, where they go)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.zones import DECK, HANDS, SCRAP, SHOWN

from ..node import POSTFIX, Example, Node, Pos, Statement
from ..phrasing import a, role_noun
from ..pyast import _call, _Code, _const, _g
from ..values import _player, cards
from .attribute import Attr

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Dest(Node):
    """Where `move` puts cards: deck top/bottom, scrap, shown, hand of P, field of P as ROLE."""

    zone: str
    player: Node | None = None
    role: str | None = None
    reversed: bool = False  # deck top/bottom: the last card ends topmost (by default the first does)
    face: str | None = None  # field: "down" (face down, its owner sees it), "unseen" (nobody does)

    RULES = ("to_deck_top", "to_deck_bottom", "to_scrap", "to_shown", "to_hand", "to_field")
    EXAMPLES = (
        Example("deck top", "dest"),
        Example("deck bottom", "dest"),
        Example("deck top reversed", "dest"),
        Example("scrap", "dest"),
        Example("shown", "dest"),
        Example("hand of {player}", "dest"),
        Example("field of {player} as point", "dest"),
        Example("field of {player} as point face down", "dest"),
        Example("field of {player} as vault face down unseen", "dest"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Dest:
        if rule == "to_deck_top":
            return cls("deck top", None, None, bool(c) and c[0] == "reversed", None, **at)
        if rule == "to_deck_bottom":
            return cls("deck bottom", None, None, bool(c) and c[0] == "reversed", None, **at)
        if rule == "to_scrap":
            return cls("scrap", None, None, False, None, **at)
        if rule == "to_shown":
            return cls("shown", None, None, False, None, **at)
        if rule == "to_hand":
            return cls("hand", c[0], None, False, None, **at)
        return cls("field", c[0], str(c[1]), False, c[2] if len(c) > 2 else None, **at)  # to_field

    def text(self, p: Printer) -> str:
        if self.zone == "hand":
            return f"hand of {p.expr(self.player, POSTFIX)}" if self.player is not None else "hand"
        if self.zone == "field":
            if self.player is None:
                return "field"
            face = {"down": " face down", "unseen": " face down unseen"}.get(self.face or "", "")
            return f"field of {p.expr(self.player, POSTFIX)} as {self.role}{face}"
        return self.zone + (" reversed" if self.reversed else "")  # deck top, deck bottom, scrap, shown

    def english(self, e: English, moved: Node | None = None) -> str:
        """Where the cards go, as words ("on top of the deck"); `moved`: the cards moved."""
        if self.zone == "deck top":
            return "on top of the deck" + (", the last of them on top" if self.reversed else "")
        if self.zone == "deck bottom":
            return "at the bottom of the deck" + (", the last of them nearest the top" if self.reversed else "")
        if self.zone == "scrap":
            return "into the scrap"
        if self.zone == "shown":
            return f"face up where {e.everyone()} can see it"
        if self.zone == "hand":
            if moved is not None and isinstance(self.player, Attr) and self.player.obj == moved:
                return f"into its {self.player.name.replace('_', ' ')}'s hand"
            return f"into {e.possessive(self.player)} hand"
        if self.zone == "field":
            many = moved is not None and e.looks_like_set(moved)  # "every vault card ... as point cards"
            role = role_noun(self.role or "point", many) if many else a(role_noun(self.role or "point"))
            where = f"in front of {e.player(self.player)} as {role}"
            if self.face == "down":  # its owner, the player in front of whom it is, sees it
                return f"face down {where} ({e.player(self.player)} {e.conj('see', self.player)} it)"
            if self.face == "unseen":
                return f"face down {where} (nobody sees it)"
            return where
        return e.code(self)


@dataclass(frozen=True)
class Move(Statement):
    cards: Node
    dest: Dest

    RULES = ("move",)
    EXAMPLES = (Example("move {cards} to {dest}", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Move:
        return cls(c[0], c[1], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"move {p.expr(self.cards)} to {self.dest.text(p)}"

    def english(self, e: English) -> str:
        c, d, subj = self.cards, self.dest, e.ctx.subject
        if d.zone == "hand" and isinstance(d.player, Attr) and e.same_card(d.player.obj, c):
            who = d.player.name
            return f"{e.conj('return', subj)} {e.object(c)} to its {who.replace('_', ' ')}'s hand"
        return f"{e.conj('put', subj)} {e.object(c)} {d.english(e, c)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        cards = c.cards_arg(self.cards, scope, used, "move")
        d = self.dest
        if d.zone in ("deck top", "deck bottom", "scrap", "shown"):
            zone = {"deck top": DECK, "deck bottom": DECK, "scrap": SCRAP, "shown": SHOWN}[d.zone]
            if cards.typ != "card" and (d.zone == "deck top") != d.reversed and d.zone != "scrap" and d.zone != "shown":
                # several cards onto the deck keep their order read from the top: put on the top, the
                # first ends topmost (the last goes first); `reversed` turns it round (docs: ordered moves)
                cards = _Code(_call("_from_top", c._cards_of(cards)), "cards", cards.cost, cards.size)
            if d.zone == "deck bottom":
                return c.each(cards, lambda card: _call(_g("move"), card, _const(zone), _const(True)))
            return c.each(cards, lambda card: _call(_g("move"), card, _const(zone)))
        # the player is worked out for each card (before it moves)
        whose = d.player
        assert whose is not None  # the parser gives a hand or a field its player
        inner, p = c._apart(lambda: c.gen_player(whose, scope, used))
        c.cost = c.cost + p.cost
        player = c._as_player(p, whose, f"'to {d.zone} of'")
        if d.zone == "hand":
            return c.each(cards, lambda card: _call(_g("move"), card, c.player_zone("hand", player)), inner)
        if d.role is not None:
            c.ctx.roles.add(d.role)
        role = c.const(d.role)
        if d.face is not None:  # face down: its owner sees it (`face down`), or nobody (`face down unseen`)
            sees = _const(d.face == "down")
            return c.each(cards, lambda card: _call(_g("put_face_down"), card, player, role, sees), inner)
        return c.each(cards, lambda card: _call(_g("put_in_play"), card, player, role), inner)

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        cs = cards(r.ev(self.cards, g, env, frozenset(bound)))
        d = self.dest
        if d.zone in ("deck top", "deck bottom"):
            if (d.zone == "deck top") != d.reversed:
                cs = cs[::-1]  # onto the top, the first card ends topmost
            for c in cs:
                g.move(c, DECK, d.zone == "deck bottom")
            return
        if d.zone in ("scrap", "shown"):
            for c in cs:
                g.move(c, SCRAP if d.zone == "scrap" else SHOWN)
            return
        assert d.player is not None
        for c in cs:  # the player worked out for each card, before it moves
            p = _player(r.ev(d.player, g, env, frozenset(bound)))
            if d.zone == "hand":
                g.move(c, HANDS[p])
            elif d.face is not None:
                g.put_face_down(c, p, d.role, d.face == "down")
            else:
                g.put_in_play(c, p, d.role)
