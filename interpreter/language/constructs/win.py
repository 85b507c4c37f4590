"""`win P`: the game ends, and player P wins it."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..node import Node, Pos, Statement
from ..pyast import _call, _g, _stmt
from ..values import _player
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

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Win:
        return cls(c[0], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"win {p.expr(self.player)}"

    def english(self, e: English) -> str:
        return f"{e.player(self.player)} {e.conj('win', self.player)} the game"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        p = c.gen(self.player, scope, used)
        if isinstance(self.player, Name) and self.player.name == "random":
            raise c.error(self.player, "win needs a player (me, opponent, a card's owner...), not random", "E210")
        c.cost = c.cost + p.cost
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
        g.win_by_rule(_player(r.ev(self.player, g, env, frozenset(bound))), "")
