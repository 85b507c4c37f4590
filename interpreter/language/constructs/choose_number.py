"""`choose a number from LOW to HIGH by P as NAME`: P names a whole number from LOW to HIGH (the move
`NAME 7`); NAME is that number for the rest of the program."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.errors import RuleRuntimeError
from interpreter.core.limits import MAX_NUMBERS
from interpreter.core.zones import RANDOM

from ..cost import Cost
from ..instructions import CHOOSE, NUMBER
from ..node import Example, Node, Pos, Statement
from ..values import _player
from .choose import not_in_loop

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class ChooseNumber(Statement):
    """`choose a number from LOW to HIGH by P as NAME`: P names a whole number from LOW to HIGH (the move
    `NAME 7`); NAME is that number for the rest of the program."""

    low: Node
    high: Node
    chooser: Node
    verb: str

    RULES = ("choose_number",)
    EXAMPLES = (
        Example("choose a number from {int} to {int} by random as num\ndraw num", "statement"),
        Example("choose a number from 0 to 3 by me as num\ndraw num", "statement", fuzz=False),
    )
    SUSPENDS = True

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> ChooseNumber:
        return cls(c[0], c[1], c[2], c[3], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        e = p.expr
        return f"choose a number from {e(self.low)} to {e(self.high)} by {e(self.chooser)} as {self.verb}"

    def english(self, e: English) -> str:
        """Read as "you name a number from 0 to 10"."""
        lo, hi, who = e.value(self.low), e.value(self.high), self.chooser
        if e.is_name(who, "random"):
            return f"the game names a number from {lo} to {hi} at random"
        return f"{e.player(who)} {e.conj('name', who)} a number from {lo} to {hi}"

    def instructions(self, c: Compiler, bound: set[str], out: list[Any]) -> None:
        """One move per number (`NAME 7`), at most MAX_NUMBERS of them (refused here when both ends are
        known, else when it is played)."""
        fb = frozenset(bound)
        (low, lo) = c.sub_expr(self.low, fb, "'choose a number from'")
        (high, hi) = c.sub_expr(self.high, fb, "'choose a number ... to'")
        who, w = c.sub_expr(self.chooser, fb, "player")
        c._expect(w, ("player",), self.chooser, "'choose a number ... by'")
        c.typed_word(
            self, self.verb, f"cannot begin a move: a player types the number as '{self.verb} 7'", "number", "as value"
        )
        if self.verb in c.ctx.verbs:
            raise c.error(self, f"'{self.verb}' already names a choice of cards; name the number otherwise", "E217")
        if lo.value.__class__ is int and hi.value.__class__ is int and hi.value - lo.value + 1 > MAX_NUMBERS:
            raise c.error(
                self,
                f"choosing a number from {lo.value} to {hi.value} offers {hi.value - lo.value + 1:,} moves; "
                f"at most {MAX_NUMBERS:,} (MAX_NUMBERS)",
                "E214",
            )
        known = lo.value.__class__ is int and hi.value.__class__ is int
        c.cost = c.cost + Cost(max(1, hi.value - lo.value + 1) if known else MAX_NUMBERS)  # the moves offered
        out.append([CHOOSE, low, high, who, self.verb, NUMBER])
        bound.add(self.verb)

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        raise not_in_loop(c, self)  # (a program that may wait is made of instructions: `instructions`)

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        # (a condition where a number is needed counts 1 or 0)
        low, high = (
            int(v) if isinstance(v, bool) else v
            for v in (r.ev(n, g, env, frozenset(bound)) for n in (self.low, self.high))
        )
        bound |= {self.verb}
        if not isinstance(low, int) or not isinstance(high, int) or high < low:
            raise RuleRuntimeError(f"line {self.line}: no number from {low!r} to {high!r}")
        if high - low + 1 > MAX_NUMBERS:
            raise RuleRuntimeError(f"line {self.line}: more than MAX_NUMBERS numbers from {low} to {high}")
        chooser = r.ev(self.chooser, g, env, frozenset(bound))
        if chooser == RANDOM:
            env[self.verb] = low + g.rng.below(high - low + 1)
            return
        chooser = _player(chooser)
        if r.decide is None:
            raise RuleRuntimeError(f"line {self.line}: a player must name a number here (no `decide` given)")
        else:
            env[self.verb] = r.decide("number", chooser, self.verb, low, high)
