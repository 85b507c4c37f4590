"""`mark CARDS as NAME [for N turns]`: the cards (or a player) carry a mark, for N turns or for the rest
of the game (`marked(X, "NAME")` reads it)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..context import FOREVER
from ..node import Example, Node, Pos, Statement
from ..phrasing import words
from ..pyast import _call, _Code, _const, _g, _stmt
from ..values import REST_OF_GAME
from ._marks import _marked_player, _marks
from .call import Call
from .name import Name
from .number import Num

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Mark(Statement):
    cards: Node  # cards, or a player
    mark: str
    turns: Node | None  # None: for the rest of the game

    RULES = ("mark",)
    EXAMPLES = (
        Example("mark {cards} as stunned for {int} turns", "statement"),
        Example("mark {cards} as stunned", "statement"),
        Example("mark {player} as stunned", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Mark:
        return cls(c[0], str(c[1]), c[2] if len(c) > 2 else None, **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        if self.turns is None:
            return f"mark {p.expr(self.cards)} as {self.mark}"
        return f"mark {p.expr(self.cards)} as {self.mark} for {p.expr(self.turns)} turns"

    def english(self, e: English) -> str:
        c, m, t, subj = self.cards, self.mark, self.turns, e.ctx.subject
        if isinstance(c, Name) and c.name in ("me", "opponent"):  # a player: said passively
            who = e.player(c)
            how = (
                "for the rest of the game"
                if t is None
                else f"for {e.value(t)} {'turn' if isinstance(t, Num) and t.value == 1 else 'turns'}"
            )
            return f"{who} {'are' if who == 'you' else 'is'} marked {words(m)} {how}"
        if t is None:
            return f"{e.conj('mark', subj)} {e.object(c)} as {words(m)} for the rest of the game"
        if isinstance(t, Call) and t.func == "turns_until" and len(t.args) == 1:  # `for turns_until(P) turns`
            until = f"until the end of {e.possessive(t.args[0])} next turn"
            return f"{e.conj('mark', subj)} {e.object(c)} as {words(m)} {until}"
        turns = "turn" if isinstance(t, Num) and t.value == 1 else "turns"
        return f"{e.conj('mark', subj)} {e.object(c)} as {words(m)} for {e.value(t)} {turns}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        c.ctx.marks.add(self.mark)
        turns = self.turns
        inner: list[ast.stmt]
        if turns is None:  # for the rest of the game
            inner, n = [], _Code(_const(FOREVER), "int")
        else:
            inner, n = c._apart(lambda: c.gen(turns, scope, used))  # worked out for each card
            n = c.number(n, turns, "'mark ... for'")
        c.cost = c.cost + n.cost
        mark = c.const(self.mark)
        who = _marked_player(c, self.cards, scope, used)
        if who is not None:
            return inner + [_stmt(_call(_g("mark"), who, mark, n.node))]
        return c.each(
            c.cards_arg(self.cards, scope, used, "mark"), lambda card: _call(_g("mark"), card, mark, n.node), inner
        )

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        turns = self.turns

        def mark(key: int) -> None:
            g.mark(key, self.mark, REST_OF_GAME if turns is None else r.ev(turns, g, env, frozenset(bound)))

        _marks(r, self.cards, g, env, bound, mark)
