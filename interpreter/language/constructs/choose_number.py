"""The construct ChooseNumber."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class ChooseNumber(Statement):
    """`choose a number from LOW to HIGH by P as NAME`: P names a whole number from LOW to HIGH (the move
    `NAME 7`); NAME is that number for the rest of the program."""

    low: Node
    high: Node
    chooser: Node
    verb: str
