"""The construct Call."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression, Node


@dataclass(frozen=True)
class Call(Expression):
    func: str
    args: tuple[Node, ...]
