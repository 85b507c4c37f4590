"""The construct Let."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Let(Statement):
    name: str
    value: Node
