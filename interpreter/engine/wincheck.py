"""The win check of a ruleset as one generated function: `won(g, me)`, whether `me`'s score has
reached their goal, with `end.score` and `end.goal` written in place (engine/inline.py) instead of
two compiled functions called with a bindings dict.

It is a template of templates.py filled with engine names (nothing from a file); the two expressions are the compiler's
own trees, each checked against its allow-list before it is put in (`Inliner`). A ruleset whose score
or goal cannot be written in place (it calls a definition's own function) keeps the two calls.
"""

from __future__ import annotations

import ast
from typing import Any

from interpreter.core.errors import RulesetError
from interpreter.rules import Rules

from .generated import body, define, function
from .inline import Inliner


def win_function(rules: Rules) -> Any:
    """`won(g, me) -> bool`, or None when the score and goal must stay calls."""
    return _score_and_goal(rules, "won", "<win check of a ruleset>", "engine.win_check")


_KEEPS = "keeps points"  # rules.engine_cache: whether the generated win check notes points and goals


def keep_points(rules: Rules) -> None:
    """Have the generated win check note each player's points and goal on the state as it works them
    out (`State.pg`, tagged with the field's version): what the lab records after every turn, read
    there instead of worked out again. Other tools do not pay for the note. Call it before the first
    game (code the engine made without the note is dropped and made again)."""
    if not rules.engine_cache.get(_KEEPS):
        rules.engine_cache.pop("machine", None)
        rules.engine_cache[_KEEPS] = True


def keep(rules: Rules, me: str = "me") -> list[ast.stmt]:
    """The win check's note of player `me`'s points and goal (template `keep`), if the rules keep them."""
    return body("keep", me=me) if rules.engine_cache.get(_KEEPS) else []


def points_goal_function(rules: Rules) -> Any:
    """`points_goal(g, me) -> (points, goal)`, made once per ruleset (kept in `rules.engine_cache`),
    or None when the score and goal must stay calls: what the lab records after every turn."""
    if "points_goal" not in rules.engine_cache:
        rules.engine_cache["points_goal"] = _score_and_goal(
            rules, "points_goal", "<points and goal of a ruleset>", "engine.points_goal"
        )
    return rules.engine_cache["points_goal"]


def _score_and_goal(rules: Rules, name: str, filename: str, label: str) -> Any:
    """The template `name(g, me)` (templates.py) with `s` (me's score) and `w` (me's goal) both
    written in place; None when either must stay a call."""
    if rules.score_fn is None or rules.goal_fn is None:
        return None
    inl = Inliner(rules)
    score, goal = inl.place(rules.score_fn), inl.place(rules.goal_fn)
    if score is None or goal is None:
        return None
    ns: dict[str, Any] = {}
    for k, v in inl.namespace().items():
        if ns.setdefault(k, v) is not v:  # pragma: no cover - one namespace, no clash possible
            raise RulesetError(f"internal error: the {label} and the compiler both name {k!r}")
    return define(
        function(name, SCORE=score, GOAL=goal, KEEP=keep(rules)),
        name,
        ns,
        filename,
        splice=inl.splice,
        placeholders=frozenset(inl.parts),
        label=label,
        line_origins=inl.line_origins,
    )


__all__ = ["win_function", "points_goal_function", "keep_points", "keep"]
