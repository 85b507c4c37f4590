"""The construct Attach."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Attach(Statement):
    card: Node
    host: Node
    role: str
