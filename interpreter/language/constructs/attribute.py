"""The construct Attr."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression, Node


@dataclass(frozen=True)
class Attr(Expression):
    obj: Node
    name: str
