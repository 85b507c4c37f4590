"""The construct Unmark."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Unmark(Statement):
    cards: Node  # cards, or a player
    mark: str
