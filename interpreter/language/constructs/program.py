"""The construct Program."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node


@dataclass(frozen=True)
class Program(Node):
    body: tuple[Node, ...]
