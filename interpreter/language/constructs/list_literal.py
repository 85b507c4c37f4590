"""The construct ListLit."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression, Node


@dataclass(frozen=True)
class ListLit(Expression):
    items: tuple[Node, ...]
