"""`play from CARDS`: the player plays one of the cards, in any way it can be played, as if from their
hand, once the rest of the effect is done."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.errors import RuleRuntimeError

from ..cost import Cost
from ..instructions import PLAY
from ..node import Example, Node, Pos, Statement
from ..values import cards
from .choose import not_in_loop

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class PlayFrom(Statement):
    source: Node

    RULES = ("play",)
    EXAMPLES = (Example("play from {cards}", "statement", fuzz=False),)
    SUSPENDS = True

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> PlayFrom:
        return cls(c[0], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"play from {p.expr(self.source)}"

    def english(self, e: English) -> str:
        subj = e.ctx.subject
        np = e.noun(self.source)
        what = f"one of {np.definite}" if np and np.definite else (np.one() if np else e.value(self.source))
        return (
            f"{e.conj('play', subj)} {what} in any way it can be played, as if from {e.possessive(subj)} "
            "hand, once the rest of this effect is done (this effect ends only when that play has resolved)"
        )

    def instructions(self, c: Compiler, bound: set[str], out: list[Any]) -> None:
        src, s = c.sub_expr(self.source, frozenset(bound))
        c.cost = c.cost + Cost(0, plays=s.size)
        out.append([PLAY, src])

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        raise not_in_loop(c, self)  # (a program that may wait is made of instructions: `instructions`)

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        options = cards(r.ev(self.source, g, env, frozenset(bound)))
        if r.decide is None:
            raise RuleRuntimeError(f"line {self.line}: a player may play here (no `decide` given)")
        r.decide("play", env.get("me"), None, 1, options, False)
