"""The construct Zone."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression, Node


@dataclass(frozen=True)
class Zone(Expression):
    """A zone: `deck`, `scrap`, `shown`, `play` (both fields), or `hand of P` / `field of P`."""

    zone: str
    player: Node | None = None
