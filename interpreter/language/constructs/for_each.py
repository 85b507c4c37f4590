"""The construct ForEach."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class ForEach(Statement):
    var: str
    source: Node
    body: tuple[Node, ...]
