"""What `set` and `add` share: their target, a counter (`X.NAME`, declared in `counters:`) or a card's
own value (`X.value`)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from interpreter.core.errors import suggest

from ..node import Node
from ..pyast import _call
from ..values import _first, _player
from .attribute import Attr

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


def _counter_target(c: Compiler, node: Node, scope: Scope, used: dict[str, str]) -> tuple[ast.expr, ast.expr]:
    if not isinstance(node, Attr) or node.name not in c.ctx.counters:
        name = node.name if isinstance(node, Attr) else None
        near = suggest(name, c.ctx.counters) if name else None
        raise c.error(
            node,
            f"unknown counter '{name}'" if name else "'set'/'add' need X.COUNTER (a counter declared in `counters:`)",
            "E216",
            f"did you mean '{near}'?"
            if near
            else f"counters: {', '.join(c.ctx.counters) or 'none declared (add a `counters:` section)'}",
        )
    obj = c.gen(node.obj, scope, used)
    c.cost = c.cost + obj.cost
    return c._counter_key(obj, node, node.name), c.const(node.name)


def _value_card(c: Compiler, node: Node, scope: Scope, used: dict[str, str]) -> ast.expr | None:
    """The card of `X.value` as the target of `set`/`add` (a card's own value), or None when the
    target is a counter."""
    if not (isinstance(node, Attr) and node.name == "value"):
        return None
    obj = c.gen(node.obj, scope, used)
    c._expect(obj, ("card", "cards"), node.obj, "'.value'")
    c.cost = c.cost + obj.cost
    return obj.node if obj.typ == "card" else _call("_first", obj.node)


def _counter_key(
    r: Reference, target: Node, g: ReferenceState, env: dict[str, Any], bound: set[str]
) -> tuple[int, str]:
    """Where the reference evaluator keeps counter `X.NAME`: the card, or -1 - player."""
    assert isinstance(target, Attr)
    obj = r.ev(target.obj, g, env, frozenset(bound))
    key = -1 - _player(obj) if r.ctx.counters[target.name] == "player" else _first(obj)
    return key, target.name


def _value_card_of(r: Reference, target: Node, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> int | None:
    """The card of `X.value` as the target of `set`/`add`; None when the target is a counter."""
    if isinstance(target, Attr) and target.name == "value":
        return _first(r.ev(target.obj, g, env, frozenset(bound)))
    return None
