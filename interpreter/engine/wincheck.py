"""The win check of a ruleset as one generated function: `won(g, me)`, whether `me`'s score has
reached their goal, with `end.score` and `end.goal` written in place (engine/inline.py) instead of
two compiled functions called with a bindings dict.

Its source is engine-made (names and nothing from a file); the two expressions are the compiler's
own trees, each checked against its allow-list before it is put in (`Inliner`). A ruleset whose score
or goal cannot be written in place (it calls a definition's own function) keeps the two calls.
"""

from __future__ import annotations

from typing import Any

from interpreter.core.errors import RulesetError
from interpreter.rules import Rules

from .generated import define
from .inline import Inliner


def win_function(rules: Rules) -> Any:
    """`won(g, me) -> bool`, or None when the score and goal must stay calls."""
    if rules.score_fn is None or rules.goal_fn is None:
        return None
    inl = Inliner(rules)
    score, goal = inl.place(rules.score_fn), inl.place(rules.goal_fn)
    if score is None or goal is None:
        return None
    ns: dict[str, Any] = {}
    for k, v in inl.namespace().items():
        if ns.setdefault(k, v) is not v:  # pragma: no cover - one namespace, no clash possible
            raise RulesetError(f"internal error: the win check and the compiler both name {k!r}")
    source = "\n".join(
        ["def won(g, me):", "    opp = 1 - me", f"    s = {score}", f"    w = {goal}", "    return s >= w"]
    )
    return define(
        source,
        "won",
        ns,
        "<win check of a ruleset>",
        splice=inl.splice,
        placeholders=frozenset(inl.parts),
        label="engine.win_check",
        line_origins=inl.line_origins,
    )


__all__ = ["win_function"]
