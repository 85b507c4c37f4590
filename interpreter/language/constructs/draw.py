"""The construct Draw."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Draw(Statement):
    count: Node
    player: Node | None = None
