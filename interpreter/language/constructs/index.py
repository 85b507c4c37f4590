"""The construct Index."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression, Node


@dataclass(frozen=True)
class Index(Expression):
    obj: Node
    index: Node
