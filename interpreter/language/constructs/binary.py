"""The construct BinOp."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression, Node


@dataclass(frozen=True)
class BinOp(Expression):
    op: str  # or and == != < <= > >= in notin + - * /
    left: Node
    right: Node
