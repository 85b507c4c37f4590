"""The construct Ask."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Ask(Statement):
    """`if P agrees to VERB then ... else ... end`: P is asked; the move VERB agrees, `decline` does not."""

    player: Node
    verb: str
    then: tuple[Node, ...]
    orelse: tuple[Node, ...] = ()
