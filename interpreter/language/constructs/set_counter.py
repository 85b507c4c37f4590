"""The construct SetCounter."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class SetCounter(Statement):
    """`set X.NAME to VALUE [for N turns]` (a counter declared in `counters:`)."""

    target: Node  # X.NAME: an Attr
    value: Node
    turns: Node | None  # None: until set again
