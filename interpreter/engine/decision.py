"""Decisions: who must decide now, and what kind of decision it is."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from interpreter.core.zones import MAX_SEATS

from .moves import Move


class DecisionKind(StrEnum):
    """What a player is asked: the turn's action (or free plays), whether to answer a play, which
    cards to choose for an effect, or which of some cards to play. Each is its word, so a kind
    compares equal to the text a view, a record or a scenario holds ("main", "respond", ...)."""

    MAIN = "main"
    RESPOND = "respond"
    CHOOSE = "choose"
    PLAY = "play"


MAIN, RESPOND, CHOOSE_D, PLAY_D = DecisionKind.MAIN, DecisionKind.RESPOND, DecisionKind.CHOOSE, DecisionKind.PLAY
RESOLVE = Move("resolve", ())


class Decision(NamedTuple):
    """Who must decide now, and what kind of decision it is."""

    player: int
    kind: DecisionKind
    verb: str = ""  # choose: the verb of the move (discard, take...)
    count: int = 0  # type: ignore[assignment]  # choose: how many cards (a field named like tuple.count)
    options: tuple[int, ...] = ()  # choose/play: the cards to pick from
    ordered: bool = False  # choose order of: every option, in an order the player names
    upto: bool = False  # choose up to: any number of the options from none to `count`
    ask: bool = False  # `if P agrees to VERB`: a question, answered `VERB` (yes) or `decline` (no)
    numbers: tuple[int, int] | None = None  # choose a number: from the first to the second (the move `VERB 7`)


# The decisions that carry nothing but a player, made once (they are immutable values).
MAIN_OF = tuple(Decision(p, MAIN) for p in range(MAX_SEATS))
RESPOND_OF = tuple(Decision(p, RESPOND) for p in range(MAX_SEATS))


__all__ = ["Decision", "DecisionKind", "MAIN", "RESPOND", "CHOOSE_D", "PLAY_D", "RESOLVE", "MAIN_OF", "RESPOND_OF"]
