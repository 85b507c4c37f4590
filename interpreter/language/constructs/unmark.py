"""`unmark CARDS as NAME`: the cards (or a player) no longer carry the mark."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import Example, Node, Pos, Statement
from ..phrasing import words
from ..pyast import _call, _g, _stmt
from ._marks import _marked_player, _marks
from .name import Name

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Unmark(Statement):
    cards: Node  # cards, or a player
    mark: str

    RULES = ("unmark",)
    EXAMPLES = (
        Example("unmark {cards} as stunned", "statement"),
        Example("unmark {player} as stunned", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Unmark:
        return cls(c[0], str(c[1]), **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"unmark {p.expr(self.cards)} as {self.mark}"

    def english(self, e: English) -> str:
        c, m = self.cards, self.mark
        if isinstance(c, Name) and c.name in ("me", "opponent"):  # a player: said passively
            who = e.player(c)
            return f"{who} {'are' if who == 'you' else 'is'} no longer marked {words(m)}"
        return f"{e.conj('stop', e.ctx.subject)} {e.object(c)} being marked as {words(m)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        c.ctx.marks.add(self.mark)
        mark = c.const(self.mark)
        who = _marked_player(c, self.cards, scope, used)
        if who is not None:
            return [_stmt(_call(_g("unmark"), who, mark))]
        return c.each(c.cards_arg(self.cards, scope, used, "unmark"), lambda card: _call(_g("unmark"), card, mark))

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        _marks(r, self.cards, g, env, bound, lambda key: g.unmark(key, self.mark))
