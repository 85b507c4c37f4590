"""The construct Choose."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Node, Statement


@dataclass(frozen=True)
class Choose(Statement):
    count: Node
    source: Node
    chooser: Node
    verb: str
    ordered: bool = False  # `choose order of CARDS by P as VERB`: all of them, in the order P names them
    upto: bool = False  # `choose up to N from ...`: any number from none to N (the move `VERB` alone: none)
