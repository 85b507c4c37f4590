"""What `mark` and `unmark` share: a player marked instead of cards (a player's key among the marks)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..node import Node
from ..pyast import _const
from ..values import Player, _player, cards

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


def _marked_player(c: Compiler, node: Node, scope: Scope, used: dict[str, str]) -> ast.expr | None:
    """A player being marked (or tested for a mark): their key among the marks, -1 - player; None
    for cards. (Players and cards share the marks: a player's key is negative.)"""
    pre, x = c._apart(lambda: c.gen(node, scope, used))
    if x.typ != "player":
        return None  # cards: the caller builds them itself
    c._pre.extend(pre)
    c.cost = c.cost + x.cost
    return ast.BinOp(left=_const(-1), op=ast.Sub(), right=c._as_player(x, node, "mark"))


def _marks(
    r: Reference, marked: Node, g: ReferenceState, env: dict[str, Any], bound: set[str], do: Callable[[int], None]
) -> None:
    """`do(key)` for the player marked (their key, -1 - player), or for each of the cards marked."""
    who = r.ev(marked, g, env, frozenset(bound))
    if isinstance(who, Player):
        do(-1 - _player(who))
    else:
        for c in cards(who):
            do(c)
