"""The construct Reveal."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Reveal(Statement):
    count: Node
