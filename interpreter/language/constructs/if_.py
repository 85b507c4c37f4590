"""The construct If."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class If(Statement):
    cond: Node
    then: tuple[Node, ...]
    orelse: tuple[Node, ...] = ()
