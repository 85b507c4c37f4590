"""A reference evaluator of the effect language: a plain tree-walking interpreter (each construct's
`evaluate` / `execute` in constructs/, over the values of values.py), written to be obviously right
rather than fast.

It shares nothing with compiler.py but the syntax tree: it reads the ruleset's names from its context
(constants, definitions, ranks, roles, marks, counters, values, suit order) and changes a game only
through the state's own operations (move, put_in_play, attach, draw, mark...). The tests evaluate
expressions and statements with both and compare the values and the states they leave
(tests/test_reference_evaluator.py). `evaluate(node, g, env, ctx)` gives an expression's value;
`execute(body, g, env, ctx)` runs statements (a `choose` by a player, or `play from`, asks `decide`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from interpreter.core.cards import RANK_OF, SUIT_OF

from . import tree as A

if TYPE_CHECKING:
    from .protocol import ReferenceState


class Reference:
    """Evaluates trees of one ruleset (its context `ctx`) on a game state `g`: each construct's
    `evaluate` / `execute` (constructs/) is its meaning, and reaches its children through `ev` / `run`."""

    def __init__(self, ctx: Any, decide: Callable[..., tuple[int, ...]] | None = None) -> None:
        self.ctx = ctx
        self.decide = decide
        self.value = [ctx.values.get(RANK_OF[c], 0) for c in range(len(RANK_OF))]
        self.suit = [ctx.suit_rank.get(s, -1) if s else -1 for s in (SUIT_OF[c] for c in range(len(RANK_OF)))]

    def ev(self, node: A.Node, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        """An expression's value."""
        return cast(A.Expression, node).evaluate(self, g, env, bound)

    def run(self, body: tuple[A.Node, ...], g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        """Statements run one after another."""
        for stmt in body:
            cast(A.Statement, stmt).execute(self, g, env, bound)

    def _define(self, name: str, args: tuple[Any, ...], g, env, bound) -> Any:
        """A definition's value: its body with its parameters bound to the arguments' values."""
        params, body, _ = self.ctx.defines[name]
        values = [self.ev(a, g, env, bound) for a in args]
        inner = {"me": env.get("me"), "opponent": env.get("opponent"), **dict(zip(params, values, strict=True))}
        return self.ev(body, g, inner, frozenset(params))

    def _value(self, g: ReferenceState, c: int) -> int:
        """A card's value: the one an effect gave it while it lasts (`set X.value`), else its rank's."""
        own = g.own_value(c) if c >= 0 else None
        return self.value[c] if own is None else own


# the nodes that are neither an expression nor a statement, but parts of one
PARTS = frozenset({A.Node, A.Dest, A.Program})


def evaluate(
    node: A.Node, g: ReferenceState, env: dict[str, Any], ctx: Any, bound: frozenset[str] | None = None
) -> Any:
    """An expression's value on state `g` with bindings `env` (the names bound: env's, if not given)."""
    return Reference(ctx).ev(node, g, env, frozenset(env) if bound is None else bound)


def execute(
    body: A.Program | tuple[A.Node, ...],
    g: ReferenceState,
    env: dict[str, Any],
    ctx: Any,
    decide: Callable[..., tuple[int, ...]] | None = None,
) -> None:
    """Run statements on `g` (changing it through the state's operations); `env` gets their bindings."""
    stmts = body.body if isinstance(body, A.Program) else body
    Reference(ctx, decide).run(stmts, g, env, set(env))
