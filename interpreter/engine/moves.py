"""Moves: a small immutable value whose text form round-trips (`Move.parse(str(m)) == m`).

Parsing has two layers, as in python-chess: `Move.parse` checks the syntax only (Lark grammar
`move.lark`); `Game.parse_move` then checks the move against the position's legal moves.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import NamedTuple

from lark import Lark
from lark.exceptions import UnexpectedInput

from interpreter.core.cards import NAMES, card_symbol, parse_card
from interpreter.core.errors import InvalidMoveError


@cache
def _parser() -> Lark:
    grammar = resources.files("interpreter.engine").joinpath("move.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr")


# What the grammar's VERB token matches, and the canonical text of every card.
_VERB = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_CANONICAL = {name: i for i, name in enumerate(NAMES)}


_NUMBER = re.compile(r"-?[0-9]{1,19}\Z")
_SEAT = re.compile(r"[pP]([1-9])\Z")  # a player a move names: p1 to p4 (any other seat number is refused by the game)


class Move(NamedTuple):
    """A verb and the cards it names: `scuttle 9H 9D` is Move("scuttle", (9H, 9D)); or a verb and a
    number, for a number a player names (`choose a number ... as value`): `value 7` is
    Move("value", (), 7). At a table of more than two seats a play may also name a player, last:
    `oneoff 4C p3` is Move("oneoff", (4C,), None, 2) (the seat, 0 for p1)."""

    verb: str
    cards: tuple[int, ...] = ()
    number: int | None = None
    player: int | None = None

    def __str__(self) -> str:
        if self.number is not None:
            return f"{self.verb} {self.number}"
        if self.player is not None:
            return " ".join([self.verb, *(NAMES[c] for c in self.cards), f"p{self.player + 1}"])
        return " ".join([self.verb, *(NAMES[c] for c in self.cards)])

    def pretty(self) -> str:
        if self.number is not None:
            return f"{self.verb} {self.number}"
        named = () if self.player is None else (f"P{self.player + 1}",)
        return " ".join([self.verb, *(card_symbol(c) for c in self.cards), *named])

    @classmethod
    def parse(cls, text: str) -> Move:
        """The syntax layer: raises InvalidMoveError quoting the text, with a caret."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidMoveError("empty move: type a move such as 'draw' or 'points 7H' ('moves' lists them)")
        # a move in canonical form (`points 7H`, `counter 2D 10S`: what str(Move) writes) is read
        # directly; any other text goes through the grammar, which reads it the same or says why not
        words = text.split()
        if len(words) == 2 and _VERB.match(words[0]) and _NUMBER.match(words[1]):  # `value 7`: a number
            return cls(words[0].lower(), (), int(words[1]))
        named = _SEAT.match(words[-1]) if len(words) > 1 else None  # a player named last (`oneoff 4C p3`)
        if named:
            words = words[:-1]
        if _VERB.match(words[0]) and all(w in _CANONICAL for w in words[1:]):
            cards = tuple(_CANONICAL[w] for w in words[1:])
            return cls(words[0].lower(), cards, None, int(named.group(1)) - 1 if named else None)
        move = cls.parse_with_grammar(" ".join(words) if named else text)
        return move._replace(player=int(named.group(1)) - 1) if named else move

    @classmethod
    def parse_with_grammar(cls, text: str) -> Move:
        """`parse` for any text, through the Lark grammar `move.lark`."""
        try:
            tree = _parser().parse(text.strip())
        except UnexpectedInput as e:
            col = getattr(e, "column", 1) or 1
            stripped = text.strip()
            bad = stripped[col - 1 :].split()[0] if stripped[col - 1 :].split() else stripped
            raise InvalidMoveError(
                f"'{stripped}' is not a move: '{bad}' is not a card (write 7H, 10S, QC, 7♥)\n"
                f"    {stripped}\n    {' ' * (col - 1)}^"
            ) from None
        verb, *cards = [str(t) for t in tree.children]
        return cls(verb.lower(), tuple(parse_card(c) for c in cards))
