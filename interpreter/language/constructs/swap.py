"""`swap ZONE with ZONE`: two hands or fields (`hand of me`, `field of opponent`) exchange their cards."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.zones import FIELDS, HANDS

from ..cost import Cost
from ..node import Example, Node, Pos, Statement
from ..pyast import _call, _g, _stmt
from ..values import _player
from .zone import Zone

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Swap(Statement):
    left: Node
    right: Node

    RULES = ("swap",)
    EXAMPLES = (
        Example("swap hand of {player} with field of {player}", "statement"),
        Example("swap hand of {player} with hand of {player}", "statement"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Swap:
        return cls(c[0], c[1], **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        return f"swap {p.expr(self.left)} with {p.expr(self.right)}"

    def english(self, e: English) -> str:
        return f"{e.conj('swap', e.ctx.subject)} {e.value(self.left)} with {e.value(self.right)}"

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        zs = []
        for side in (self.left, self.right):
            if not isinstance(side, Zone) or side.zone not in ("hand", "field"):
                raise c.error(
                    side, "swap exchanges two zones: write e.g. swap hand of me with hand of opponent", "E209"
                )
            base = side.zone
            owner = side.player
            assert owner is not None  # a hand or a field has its player
            p = c.gen(owner, scope, used)
            c.cost = c.cost + p.cost
            zs.append(c.player_zone(base, c._as_player(p, owner, f"'{side.zone} of'")))
        c.cost = c.cost + Cost(c.ctx.deck_size)
        return [_stmt(_call(_g("swap_zones"), zs[0], zs[1]))]

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        zs = []
        for side in (self.left, self.right):
            assert isinstance(side, Zone) and side.player is not None
            zs.append((HANDS if side.zone == "hand" else FIELDS)[_player(r.ev(side.player, g, env, frozenset(bound)))])
        g.swap_zones(zs[0], zs[1])
