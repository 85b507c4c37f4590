"""`if P agrees to VERB then ... else ... end`: a yes-or-no question; P answers VERB (yes) or `decline`,
and the statements of that answer follow."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.errors import RuleRuntimeError
from interpreter.core.zones import RANDOM

from ..instructions import AGREED, ASK, CHOOSE, DECLINE
from ..node import Example, Node, Pos, Statement
from ..phrasing import words
from ..pyast import _load
from ..values import _player
from .choose import not_in_loop
from .if_ import else_chain, else_text

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Ask(Statement):
    """`if P agrees to VERB then ... else ... end`: P is asked; the move VERB agrees, `decline` does not."""

    player: Node
    verb: str
    then: tuple[Node, ...]
    orelse: tuple[Node, ...] = ()

    RULES = ("ask",)
    EXAMPLES = (
        Example("if random agrees to keep then\n{body}\nelse\n{body}\nend", "statement"),
        Example("if {player} agrees to keep then\n{body}\nelse\n{body}\nend", "statement"),
    )
    SUSPENDS = True

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Ask:  # `if P agrees to VERB then ...`: the rest as an `if`'s
        return cls(c[0], str(c[1]), c[2], else_chain(c[3:]), **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        text = f"if {p.expr(self.player)} agrees to {self.verb} then{p.nested(self.then, depth, multiline)}"
        return text + else_text(p, self.orelse, depth, multiline)  # otherwise as an `if`

    def english(self, e: English) -> str:
        """Read as "you may mulligan (or decline): ...", "its last owner may reclaim (or decline); if they do, ..."."""
        who = e.player(self.player)
        then = e.block(self.then)
        text = f"{who} may {words(self.verb)} (or decline)" + (f": {then}" if who == "you" else f"; if they do, {then}")
        declined = "you decline" if who == "you" else "they decline"
        return text + (f"; if {declined}, {e.block(self.orelse)}" if self.orelse else "")

    def instructions(self, c: Compiler, bound: set[str], out: list[Any]) -> None:
        """P answers VERB or `decline` (an ASK), then the jump of an `if` on the answer."""
        who, w = c.sub_expr(self.player, frozenset(bound), "player")
        c._expect(w, ("player",), self.player, "'agrees'")
        refused = f"cannot name the answer yes: a player answers '{self.verb}' or '{DECLINE}'"
        c.typed_word(self, self.verb, refused, "answer", "to mulligan", banned=DECLINE)
        c.ctx.asked.add(self.verb)
        out.append([CHOOSE, None, None, who, self.verb, ASK])
        # the jump's test reads the answer the ASK left in the bindings: generated like every test
        # of a program (confined to the constants table), not a function of the engine's own
        agreed = ast.Subscript(value=_load("e"), slice=c.const(AGREED), ctx=ast.Load())
        c.branches(c._function([ast.Return(value=agreed)], {}), self.then, self.orelse, bound, out)

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        raise not_in_loop(c, self)  # (a program that may wait is made of instructions: `instructions`)

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        """P answers (through `decide("ask", P, VERB)`: True for yes), or the seeded generator for
        `random` (yes or no, even odds)."""
        v = r.ev(self.player, g, env, frozenset(bound))
        asked = RANDOM if v == RANDOM else _player(v)
        if asked == RANDOM:
            yes = g.rng.below(2) == 1
        elif r.decide is None:
            raise RuleRuntimeError(f"line {self.line}: a player must answer here (no `decide` given)")
        else:
            yes = bool(r.decide("ask", asked, self.verb))
        r.run(self.then if yes else self.orelse, g, env, bound)
