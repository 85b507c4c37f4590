"""A program: the statements of an effect, one after another (the grammar's `start`).

A program is a part, not a statement: the passes take it whole (the printer's `to_text`, English's
`english`, the compiler's `program`, the reference's `execute` read its `body`), so it has no other
pass of its own than its parse action."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..node import Example, Node, Pos


@dataclass(frozen=True)
class Program(Node):
    body: tuple[Node, ...]

    RULES = ("start",)
    EXAMPLES = (Example("draw {int}; scrap {cards}", "statement"),)

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Program:
        return cls(tuple(c[0]), **at)
