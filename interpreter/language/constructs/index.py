"""An item of a list or of cards: `goals[count(...)]`, `chosen[0]` (the index kept within the list)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.errors import RuleRuntimeError

from ..cost import ONE
from ..node import POSTFIX, Example, Expression, Node, Pos
from ..pyast import _call, _Code, _compare, _const, _item, _store
from ..values import Card
from .call import Call
from .list_literal import ListLit
from .name import Name

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Index(Expression):
    obj: Node
    index: Node

    RULES = ("index",)
    EXAMPLES = (
        Example("{cards}[{int}]", "card"),
        Example("{cards}[-{int}]", "card"),
        Example("goals[{int}]", "int"),
        Example("goals[-{int}]", "int"),
        Example("[{int}, {int}][{bool}]", "int"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Index:
        return cls(c[0], c[1], **at)

    def level(self) -> int:
        return POSTFIX

    def text(self, p: Printer) -> str:
        return f"{p.postfix_obj(self.obj)}[{p.expr(self.index)}]"

    def value_words(self, e: English) -> str:
        o, i = self.obj, self.index
        if (
            isinstance(o, Name)
            and isinstance(i, Call)
            and i.func == "count"
            and len(i.args) == 1
            and isinstance(e.ctx.constants.get(o.name), list)
        ):  # a table by a count: `goals[count(S)]`
            return e.table(e.ctx.constants[o.name], i.args[0]) or f"{e.value(o)} by {e.value(i)}"
        if e.yes_no(i):  # `[0, 3][me == first player]`: the second entry if it holds, else the first
            first, second = (
                (e.value(o.items[0]), e.value(o.items[1]))
                if isinstance(o, ListLit) and len(o.items) == 2
                else (f"entry 0 of {e.value(o)}", f"entry 1 of {e.value(o)}")
            )
            return f"{second} if {e.cond(i)}, otherwise {first}"
        return f"entry {e.value(i)} of {e.value(o)} (from 0)"

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        seq, idx = c.gen(self.obj, scope, used), c.gen(self.index, scope, used)
        idx = c.number(idx, self.index, "'[...]'")
        cost = seq.cost + idx.cost + ONE
        if seq.value.__class__ is tuple and seq.value and idx.typ == "int" and not c.plain:
            # a constant list (`goals[...]`): the index kept within it, as `_index` does, without a call
            i = c._local(idx.node)
            last = len(seq.value) - 1
            c._pre += [
                ast.If(
                    test=_compare(i, ast.Gt(), _const(last)),
                    body=[ast.Assign(targets=[_store(i.id)], value=_const(last))],
                    orelse=[
                        ast.If(
                            test=_compare(i, ast.Lt(), _const(0)),
                            body=[ast.Assign(targets=[_store(i.id)], value=_const(0))],
                            orelse=[],
                        )
                    ],
                )
            ]
            return _Code(_item(seq.node, i), "any", cost, seq.size)
        return _Code(_call("_index", seq.node, idx.node), "any", cost, seq.size)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        seq, i = r.ev(self.obj, g, env, bound), r.ev(self.index, g, env, bound)
        if not isinstance(seq, (list, tuple)):
            if not seq:
                return Card(-1)
            raise RuleRuntimeError(f"line {self.line}: only a list or cards can be indexed")
        if not seq:
            return Card(-1)  # an item of an empty list or set: none
        return seq[max(0, min(i, len(seq) - 1))]
