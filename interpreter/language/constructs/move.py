"""The construct Dest, Move."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Dest(Node):
    """Where `move` puts cards: deck top/bottom, scrap, shown, hand of P, field of P as ROLE."""

    zone: str
    player: Node | None = None
    role: str | None = None
    reversed: bool = False  # deck top/bottom: the last card ends topmost (by default the first does)


@dataclass(frozen=True)
class Move(Statement):
    cards: Node
    dest: Dest
