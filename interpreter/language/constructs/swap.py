"""The construct Swap."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Swap(Statement):
    left: Node
    right: Node
