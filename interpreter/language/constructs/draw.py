"""`draw N [for P]`: a player (the one acting, unless named) draws N cards from the deck."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cost import Cost
from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _Code, _g, _stmt
from ..values import _count, _player

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


def _count_of(n: _Code) -> ast.expr:
    """A number of cards: checked when it runs if the checks at load time could not prove it one."""
    return n.node if n.typ == "int" else _call("_count", n.node)


@dataclass(frozen=True)
class Draw(Statement):
    count: Node
    player: Node | None = None

    RULES = ("draw",)
    EXAMPLES = (
        Example("draw {int}", "statement"),
        Example("draw {int} for {player}", "statement"),
        Example("draw {bool}", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Draw:
        return cls(c[0], c[1] if len(c) > 1 else None, **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"draw {p.expr(self.count)}" + (f" for {p.expr(self.player)}" if self.player is not None else "")

    def english(self, e: English) -> str:
        n, p = self.count, self.player
        actor = p if p is not None else e.ctx.subject
        prefix = f"{e.player(p)} " if p is not None else ""
        return f"{prefix}{e.conj('draw', actor)} {e.cards(n)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        n = c.gen(self.count, scope, used)
        n = c.number(n, self.count, "draw")
        if self.player is not None:
            pc = c.gen_player(self.player, scope, used)
            c.cost = c.cost + pc.cost
            p = c._as_player(pc, self.player, "'draw ... for'")
        else:
            p = c._env("me", used)
        c.cost = c.cost + n.cost + Cost(c.ctx.deck_size)
        return [_stmt(_call(_g("draw"), p, _count_of(n)))]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        n = _count(r.ev(self.count, g, env, frozenset(bound)))
        p = env["me"] if self.player is None else _player(r.ev(self.player, g, env, frozenset(bound)))
        g.draw(p, n)
