"""The values of the reference evaluator (reference.py): cards, players and nobody as the tree-walking
interpreter knows them, and the checks every construct's `evaluate` / `execute` makes on them."""

from __future__ import annotations

from typing import Any

from interpreter.core.errors import RuleRuntimeError
from interpreter.core.limits import MAX_INT

REST_OF_GAME = 10**12  # the turns of a mark or counter made without `for N turns`


class Card(int):
    """A value known to be one card (or none, -1): `+` joins it with other cards."""


class Player(int):
    """A value known to be a player (0, 1; RANDOM for `random`)."""


class Players(tuple[Player, ...]):
    """A set of players (`opponents`, `others`, `players`): seats, clockwise from the player after `me`."""


class Nobody(Player):
    """The owner or controller of no card, or of a card nobody holds (-1): a player value that cannot
    be used as one (`hand of`, `score`, `mark` of it are the rules' runtime error)."""


def cards(v: Any) -> tuple[int, ...]:
    """A set of cards from a set, one card (none: no card) or nothing."""
    if isinstance(v, (list, tuple)):  # (none in a list is no card)
        return tuple(c for c in v if not (isinstance(c, int) and not isinstance(c, bool) and c < 0))
    if v is None:
        return ()
    if isinstance(v, int) and not isinstance(v, bool):
        return () if v < 0 else (int(v),)
    raise RuleRuntimeError(f"the rules used {v!r} as cards")


def _first(v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, (list, tuple)):
        return int(v)
    cs = cards(v)
    return cs[0] if cs else -1


def _number(n: int) -> int:
    if -MAX_INT <= n <= MAX_INT:
        return n
    raise RuleRuntimeError(f"a number in the rules grew beyond the limit of {MAX_INT:.0e} (MAX_INT)")


def _player(v: Any) -> int:
    if isinstance(v, Nobody):
        raise RuleRuntimeError("the rules used nobody as a player")
    if isinstance(v, Player) or v == 0 or v == 1:  # (a larger table's seats are Players: from names)
        return int(v)
    raise RuleRuntimeError(f"the rules used {v!r} as a player")


def _count(n: Any) -> int:
    if isinstance(n, int):  # (a condition where a number is needed counts 1 or 0)
        return int(n)
    raise RuleRuntimeError(f"the rules used {n!r} as a number of cards")


def _nobody_or(p: int) -> Any:
    """A card's owner or controller: a player, or nobody."""
    return Player(p) if p >= 0 else Nobody(p)


def _is_cards(v: Any) -> bool:
    return isinstance(v, (list, tuple, Card))
