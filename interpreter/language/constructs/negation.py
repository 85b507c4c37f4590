"""The construct Neg."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression, Node


@dataclass(frozen=True)
class Neg(Expression):
    operand: Node
