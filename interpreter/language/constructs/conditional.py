"""`A if C else B`: the value A when condition C holds, else B (a number, a player, cards...). Written
in parentheses inside a statement (`draw (2 if me == second player else 1)`), or alone as a whole
expression text (`end.on_passes: p1 if score(p1) > score(p2) else p2`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import ONE
from ..node import CONDITIONAL, WHERE, Example, Expression, Node, Pos
from ..pyast import _call, _Code, _load, _store
from .binary import _a_player
from .name import Name

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Conditional(Expression):
    then: Node
    cond: Node
    orelse: Node

    RULES = ("conditional",)
    EXAMPLES = (
        Example("{player} if {bool} else {player}", "player"),
        Example("{cards} if {bool} else [{card}]", "cards"),
        Example("{int} if {bool} else {bool}", "int"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Conditional:
        return cls(c[0], c[1], c[2], **at)

    def level(self) -> int:
        return CONDITIONAL

    def text(self, p: Printer) -> str:
        return f"{p.expr(self.then, WHERE)} if {p.expr(self.cond, WHERE)} else {p.expr(self.orelse, CONDITIONAL)}"

    # -- English ------------------------------------------------------------------------------
    def value_words(self, e: English) -> str:
        return f"{_side(e, self.then)} if {e.cond(self.cond)}, otherwise {_side(e, self.orelse)}"

    # -- code ---------------------------------------------------------------------------------
    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        test = c.gen(self.cond, scope, used)
        pre_a, a = c._apart(lambda: c.gen(self.then, scope, used))
        pre_b, b = c._apart(lambda: c.gen(self.orelse, scope, used))
        typ = _joined(c, self, a, b)
        if typ == "int":  # a condition on one side counts 1 or 0 (a number where a number is needed)
            a, b = c.number(a, self.then, "'if ... else'"), c.number(b, self.orelse, "'if ... else'")
        elif typ == "any":  # beside a value known only in play (a constant), a condition counts 1 or 0 too
            a = c.number(a, self.then, "'if ... else'") if a.typ == "bool" else a
            b = c.number(b, self.orelse, "'if ... else'") if b.typ == "bool" else b
        cost = test.cost + a.cost + b.cost + ONE  # (both sides counted: the budget holds whichever runs)
        test_node = test.node if test.typ == "bool" else _call("bool", test.node)
        if not pre_a and not pre_b:
            node: ast.expr = ast.IfExp(test=test_node, body=a.node, orelse=b.node)
        else:  # a side that needs statements runs them only when it is the one chosen
            v = c._fresh()
            c._pre.append(
                ast.If(
                    test=test_node,
                    body=pre_a + [ast.Assign(targets=[_store(v)], value=a.node)],
                    orelse=pre_b + [ast.Assign(targets=[_store(v)], value=b.node)],
                )
            )
            node = _load(v)
        out = _Code(node, typ, cost, max(a.size, b.size))
        out.nobody = a.nobody or b.nobody
        return out

    # -- meaning ------------------------------------------------------------------------------
    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        return r.ev(self.then if r.ev(self.cond, g, env, bound) else self.orelse, g, env, bound)


def _side(e: English, x: Node) -> str:
    """A value of the `if`: a player as a player ("P1", "your opponent"), a number as a number."""
    if _a_player(x) or isinstance(x, Name) and x.name == "nobody":
        return e.player(x)
    return e.number(x)


def _joined(c: Compiler, node: Conditional, a: _Code, b: _Code) -> str:
    """The kind of value of both sides: the same kind, or a number and a condition (a number); else E210
    (a card and cards too: write the card as a set of one, `[target]`)."""
    kinds = {a.typ, b.typ}
    if len(kinds) == 1:
        return a.typ
    if "any" in kinds:
        return "any"
    if kinds == {"int", "bool"}:
        return "int"
    raise c.error(
        node,
        f"the two values of '... if ... else ...' must be of one kind, but one is {c._KIND_WORDS[a.typ]} "
        f"and the other {c._KIND_WORDS[b.typ]}",
        "E210",
    )


def names_nobody(node: Node) -> bool:
    """Whether an expression can give `nobody` as its value (the name itself, or a side of an `if`)."""
    if isinstance(node, Name):
        return node.name == "nobody"
    if isinstance(node, Conditional):
        return names_nobody(node.then) or names_nobody(node.orelse)
    return False
