"""`if COND then ... else if COND then ... else ... end`: the statements of the first branch whose
condition holds (an `else if` is an else holding one `if`)."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import Example, Node, Pos, Statement

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


def else_chain(rest: list[Any]) -> tuple[Any, ...]:
    """What follows an `if`'s statements (or a question's): each `else if` (an If with no else yet),
    then the else's statements if there is an else; the chain is nested from the last: each `else if`
    is an else."""
    chain = [x for x in rest if isinstance(x, If)]
    tail = [x for x in rest if not isinstance(x, If) and x is not None]
    orelse = tail[0] if tail else ()
    for link in reversed(chain):
        orelse = (If(link.cond, link.then, orelse, line=link.line, column=link.column),)
    return orelse


def else_text(p: Printer, orelse: Sequence[Node], depth: int, multiline: bool) -> str:
    """The printed rest of an `if` (or a question) after its statements: an else that is one `if` as
    `else if`, then `else` if any, and `end`."""
    text = ""
    o = orelse
    while len(o) == 1 and isinstance(o[0], If):  # an else that is one `if`: `else if`
        link = o[0]
        text += f"else if {p.expr(link.cond)} then{p.nested(link.then, depth, multiline)}"
        o = link.orelse
    if o:
        body = p.nested(o, depth, multiline)
        if body.startswith(" if "):  # (on one line, `else if` would read as a link of the chain: not so)
            body = "\n" + body[1:]
        text += f"else{body}"
    return text + "end"


@dataclass(frozen=True)
class If(Statement):
    cond: Node
    then: tuple[Node, ...]
    orelse: tuple[Node, ...] = ()

    RULES = ("if_", "else_if")
    EXAMPLES = (
        Example("if {bool} then\n{body}\nend", "statement"),
        Example("if {bool} then\n{body}\nelse\n{body}\nend", "statement"),
        Example("if {bool} then\n{body}\nelse if {bool} then\n{body}\nend", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> If:
        if rule == "else_if":  # a link of the chain, its else added by `else_chain`
            return cls(c[0], c[1], (), **at)
        return cls(c[0], c[1], else_chain(c[2:]), **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        text = f"if {p.expr(self.cond)} then{p.nested(self.then, depth, multiline)}"
        return text + else_text(p, self.orelse, depth, multiline)

    def english(self, e: English) -> str:
        c, t, o = self.cond, self.then, self.orelse
        text = f"if {e.cond(c)}, {e.block(t)}"
        if o:
            if len(o) == 1 and isinstance(o[0], If):
                return f"{text}; otherwise {e.block(o)}"
            text += f"; otherwise, {e.block(o)}"
        return text

    def instructions(self, c: Compiler, bound: set[str], out: list[Any]) -> None:
        cond, _ = c.sub_expr(self.cond, frozenset(bound))
        c.branches(cond, self.then, self.orelse, bound, out)

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        """An `if` inside `for each`: Python's own."""
        cond = c.gen(self.cond, scope, used)
        c.cost = c.cost + cond.cost
        then: list[ast.stmt] = []
        for s in self.then:
            then += c.stmt_lines(s, scope, used)
        orelse: list[ast.stmt] = []
        for s in self.orelse:
            orelse += c.stmt_lines(s, scope, used)
        return [ast.If(test=cond.node, body=then or [ast.Pass()], orelse=orelse)]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        r.run(self.then if r.ev(self.cond, g, env, frozenset(bound)) else self.orelse, g, env, bound)
