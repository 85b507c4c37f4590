"""The construct AddCounter."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class AddCounter(Statement):
    """`add VALUE to X.NAME`."""

    value: Node
    target: Node
