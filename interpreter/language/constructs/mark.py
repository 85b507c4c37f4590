"""The construct Mark."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Mark(Statement):
    cards: Node  # cards, or a player
    mark: str
    turns: Node | None  # None: for the rest of the game
