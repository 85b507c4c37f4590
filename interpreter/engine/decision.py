"""Decisions: who must decide now, and what kind of decision it is."""

from __future__ import annotations

from typing import NamedTuple

from .moves import Move

MAIN, RESPOND, CHOOSE_D, PLAY_D = "main", "respond", "choose", "play"
RESOLVE = Move("resolve", ())


class Decision(NamedTuple):
    """Who must decide now, and what kind of decision it is."""

    player: int
    kind: str  # main | respond | choose | play
    verb: str = ""  # choose: the verb of the move (discard, take...)
    count: int = 0  # type: ignore[assignment]  # choose: how many cards (a field named like tuple.count)
    options: tuple[int, ...] = ()  # choose/play: the cards to pick from
    ordered: bool = False  # choose order of: every option, in an order the player names


# The decisions that carry nothing but a player, made once (they are immutable values).
MAIN_OF = (Decision(0, MAIN), Decision(1, MAIN))
RESPOND_OF = (Decision(0, RESPOND), Decision(1, RESPOND))


__all__ = ["Decision", "MAIN", "RESPOND", "CHOOSE_D", "PLAY_D", "RESOLVE", "MAIN_OF", "RESPOND_OF"]
