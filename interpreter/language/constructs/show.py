"""The construct Show."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Show(Statement):
    """`show CARDS to P` (player None: `to all`): the players learn where those hidden cards are."""

    cards: Node
    player: Node | None = None
