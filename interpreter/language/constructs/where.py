"""The construct Where."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression, Node


@dataclass(frozen=True)
class Where(Expression):
    source: Node
    cond: Node
    var: str | None = None  # `where x: COND`: the card tested is named x (else `it`)
