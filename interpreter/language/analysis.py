"""What a tree reads and does, found by walking it: its nodes, the definitions it uses, whether it
reads only cards in play, whether a statement can wait for a player's decision."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from . import tree as A
from .context import PLAYER_ATTRS, Context
from .node import parts


def nodes(tree: Any) -> Iterator[A.Node]:
    """Every node of a tree, without recursion (so any depth is safe)."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
        elif isinstance(n, A.Node):
            yield n
            for f in reversed(parts(n)):
                stack.append(getattr(n, f))


def _refs(n: A.Node, ctx: Context) -> str | None:
    """The definition a node refers to, if any."""
    name = n.func if isinstance(n, A.Call) else n.name if isinstance(n, A.Name) else None
    return name if name in ctx.defines else None


def _reads(node: Any, ctx: Context, ok: Callable[[A.Node], bool]) -> bool:
    """Whether `ok` holds for every node of an expression and of the definitions it uses."""
    todo, seen = [node], set()
    while todo:
        for n in nodes(todo.pop()):
            if not ok(n):
                return False
            d = _refs(n, ctx)
            if d is not None and d not in seen:
                seen.add(d)
                todo.append(ctx.defines[d][1])
    return True


def reads_only_fields(node: Any, ctx: Context) -> bool:
    """True if an expression reads nothing but cards in play (so it can only change when a field does):
    not another zone, a mark, a counter, the turn, nor, where effects set them, cards' own values."""
    return _reads(
        node,
        ctx,
        lambda n: (
            not (
                isinstance(n, A.Zone)
                and n.zone not in ("field", "play")
                or isinstance(n, A.Call)
                and (
                    n.func in ("score", "goal", "can_play", "marked", "deck_top")
                    or n.func == "total"
                    and ctx.card_values
                )
                or isinstance(n, A.Attr)
                and (n.name in ctx.counters or n.name in PLAYER_ATTRS or n.name == "value" and ctx.card_values)
                or isinstance(n, A.Name)
                and n.name == "turn"
            )
        ),
    )


def reads_only_own_field(node: Any, ctx: Context) -> bool:
    """True if an expression about `me` reads only `field of me` (so only that field can change it)."""
    return reads_only_fields(node, ctx) and _reads(
        node,
        ctx,
        lambda n: (
            not isinstance(n, A.Zone) or (n.zone == "field" and isinstance(n.player, A.Name) and n.player.name == "me")
        ),
    )


def reads_name(node: Any, ctx: Context, name: str) -> bool:
    """True if an expression or program (or a definition it uses) reads the bound name `name`."""
    return not _reads(node, ctx, lambda n: not (isinstance(n, A.Name) and n.name == name))


def _suspends(node: Any) -> bool:
    """Whether a statement can wait for a player's decision (choose, play from...: its `SUSPENDS`)."""
    return any(isinstance(n, A.Statement) and n.SUSPENDS for n in nodes(node))
