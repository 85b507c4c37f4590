"""Cards as small integers, and their text forms (`7H`, `10S`/`TS`, `7♥`, `RJ`).

Every card of every ruleset comes from one universe: the 52 standard cards and two Jokers.
A ruleset chooses which of them make its deck; the engine only ever handles the integer ids.
"""

from __future__ import annotations

import re

from .errors import CuttleError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
JOKER_RANK = "Joker"
JOKERS: tuple[str, ...] = ("RJ", "BJ")

NAMES: list[str] = [r + s for r in RANKS for s in SUITS] + list(JOKERS)
CARD_COUNT = len(NAMES)
RANK_OF: list[str] = [r for r in RANKS for _ in SUITS] + [JOKER_RANK] * len(JOKERS)
SUIT_OF: list[str | None] = [s for _ in RANKS for s in SUITS] + [None] * len(JOKERS)
ALL_RANKS: tuple[str, ...] = RANKS + (JOKER_RANK,)

_BY_NAME = {n: i for i, n in enumerate(NAMES)}
_SYMBOL_TO_SUIT = {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"}
# A word a move can begin with: what move.lark's VERB matches, in the lower case `Move.parse` gives
# every verb. A ruleset's verbs and choice names are checked against it when it loads, so every move
# the engine lists is one a player can type.
MOVE_WORD = re.compile(r"[a-z][a-z0-9_-]*\Z")
_CARD_RE = re.compile(r"^(10|[2-9]|[AJQKT])([CDHS♣♧♦♢♥♡♠♤])$", re.IGNORECASE)


class UnknownCardError(CuttleError):
    """Text that names no card."""


def parse_card(text: str) -> int:
    """The id of a card written `7H`, `10S`, `TS`, `7♥`, `qs` or `RJ`; raises UnknownCardError."""
    t = text.strip()
    if t.upper() in _BY_NAME:
        return _BY_NAME[t.upper()]
    m = _CARD_RE.match(t)
    if not m:
        raise UnknownCardError(
            f"'{text}' is not a card (write a rank A,2-10,J,Q,K then a suit C,D,H,S: 7H, 10S, QC, 7♥; "
            f"Jokers are RJ and BJ)"
        )
    rank, suit = m.group(1).upper(), m.group(2).upper()
    rank = "10" if rank == "T" else rank
    suit = _SYMBOL_TO_SUIT.get(suit, suit)
    return _BY_NAME[rank + suit]


def card_name(card: int) -> str:
    """The canonical text of a card: `7H`, `10S`, `RJ`."""
    return NAMES[card]


def card_symbol(card: int) -> str:
    """A card with its suit symbol: `7♥`."""
    suit = SUIT_OF[card]
    return NAMES[card] if suit is None else RANK_OF[card] + SUIT_SYMBOLS[suit]


def is_red(card: int) -> bool:
    return SUIT_OF[card] in ("D", "H") or NAMES[card] == "RJ"
