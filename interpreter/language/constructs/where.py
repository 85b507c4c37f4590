"""A set narrowed by a condition: `CARDS where COND` (the card tested is `it`), or `CARDS where x: COND`
(the card is named x, and `it` keeps its meaning)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import ONE, ZERO
from ..node import OR, WHERE, Example, Expression, Node, Pos
from ..phrasing import NP
from ..pyast import _attr, _call, _Code, _load, _Loop, _stmt, _store
from ..values import Card, cards
from .binary import conjuncts

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Where(Expression):
    source: Node
    cond: Node
    var: str | None = None  # `where x: COND`: the card tested is named x (else `it`)

    RULES = ("where", "where_named")
    EXAMPLES = (
        Example("{cards} where {it:bool}", "cards"),
        Example("{cards} where x: {x:bool}", "cards"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Where:
        if rule == "where_named":
            return cls(c[0], c[2], str(c[1]), **at)
        return cls(c[0], c[1], None, **at)

    def level(self) -> int:
        return WHERE

    def text(self, p: Printer) -> str:
        v = self.var
        return f"{p.expr(self.source, OR)} where {v + ': ' if v else ''}{p.expr(self.cond, OR)}"

    def value_words(self, e: English) -> str:
        np = e.noun(self)
        return np.plural() if np else e.code(self)

    def noun(self, e: English) -> NP | None:
        s, c, v = self.source, self.cond, self.var
        np = e.noun(s)
        if np is None or np.definite:
            np = NP(place=f"in {e.value(s)}", source=e.value(s))
        if v:  # `where x: COND`: read as `it` where that is unambiguous, else "that card"
            c, e = e.named_card(c, v)
        e.restrict(np, c)
        return np

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        name = self.var or "it"  # `where x: COND` names the card x (and leaves `it` what it was)
        if c.plain:
            src = c.gen(self.source, scope, used)
            var = c._fresh()
            cond = c.gen(self.cond, {**scope, name: _Code(_load(var), "card")}, used)
            comp = ast.comprehension(target=_store(var), iter=c._cards_of(src), ifs=[cond.node], is_async=0)
            return _Code(
                ast.ListComp(elt=_load(var), generators=[comp]),
                "cards",
                src.cost + (cond.cost + ONE).times(src.size),
                src.size,
            )
        # `S where A where B` is one loop over S testing A then B; the test's statements (a count
        # inside it...) run for each card, and only once the earlier tests hold
        src = c.gen(self.source, scope, used, loop=True)
        if src.loop is not None:
            source, var, tests = src.loop.source, src.loop.var, list(src.loop.tests)
        else:
            source, var, tests = c._cards_of(src), c._fresh(), []
        inner = {**scope, name: _Code(_load(var), "card")}
        cost = ZERO
        for part in conjuncts(self.cond):  # `A and B`: two tests (B's statements run only if A holds)

            def test(part: Node = part) -> _Code:
                return c.gen(part, inner, used)

            stmts, cond = c._apart(test)
            tests.append((stmts, cond.node if cond.typ == "bool" else _call("bool", cond.node)))
            cost = cost + cond.cost
        cost = cost + ONE.times(len(conjuncts(self.cond)) - 1)  # the `and`s, as counted for one condition
        found = _Loop(source, var, tests)
        code = _Code(
            None,  # type: ignore[arg-type]  # a loop (`loop=`), not a value
            "cards",
            src.cost + (cost + ONE).times(src.size),
            src.size,
            loop=found,
        )
        if found.plain():
            comp = ast.comprehension(target=_store(var), iter=source, ifs=[t for _, t in tests], is_async=0)
            code.node = ast.ListComp(elt=_load(var), generators=[comp])
        elif not loop:  # a list built by statements, for a consumer that needs the list itself
            code.node = _listed(c, found)
            code.loop = None
        return code

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        name = self.var or "it"  # `where x: COND`: the card is x (`it` keeps its meaning)
        out = []
        for c in cards(r.ev(self.source, g, env, bound)):
            if r.ev(self.cond, g, {**env, name: Card(c)}, bound | {name}):
                out.append(c)
        return tuple(out)


def _listed(c: Compiler, found: _Loop) -> ast.Name:
    """The cards of a loop as a new list, built by statements in the current block."""
    out = c._fresh()
    c._pre += [
        ast.Assign(targets=[_store(out)], value=ast.List(elts=[], ctx=ast.Load())),
        found.run([_stmt(_call(_attr(_load(out), "append"), _load(found.var)))]),
    ]
    return _load(out)
