"""`win P`: the game ends, and player P wins it (`win nobody`: the game ends in a draw)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.zones import DRAW

from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _g, _stmt
from ..values import Nobody, _player
from .conditional import names_nobody
from .name import Name

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Win(Statement):
    player: Node

    RULES = ("win",)
    EXAMPLES = (
        Example("win {player}", "statement"),
        Example("win nobody", "statement"),
        Example("win ({player} if {bool} else nobody)", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Win:
        return cls(c[0], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"win {p.expr(self.player)}"

    def english(self, e: English) -> str:
        return e.outcome(self.player)

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        p = c.gen_player(self.player, scope, used)
        if isinstance(self.player, Name) and self.player.name == "random":
            raise c.error(self.player, "win needs a player (me, opponent, a card's owner...), not random", "E210")
        c.cost = c.cost + p.cost
        if names_nobody(self.player):  # `win nobody` (or a side of an `if` naming nobody): a draw
            c._expect(p, ("player",), self.player, "win")
            return [_stmt(_call(_g("win_by_rule"), _call("_winner", p.node), c.const(c.rule())))]
        return [
            _stmt(
                _call(
                    _g("win_by_rule"),
                    c._as_player(p, self.player, "win"),
                    c.const(c.rule()),
                )
            )
        ]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        p = r.ev(self.player, g, env, frozenset(bound))
        if names_nobody(self.player) and isinstance(p, Nobody):  # `win nobody`: a draw
            g.win_by_rule(DRAW, "")
            return
        g.win_by_rule(_player(p), "")
