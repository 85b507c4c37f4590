"""The construct ShuffleUnder."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class ShuffleUnder(Statement):
    """`shuffle CARDS under deck`: only those cards are shuffled, then put under the deck."""

    cards: Node
