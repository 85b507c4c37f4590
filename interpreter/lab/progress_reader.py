"""A player's points and goal in a position as one generated function, `points_goal(g, me) ->
(points, goal)`, with the ruleset's `end.score` and `end.goal` written in place (engine/inline.py, as
the engine's win check is: engine/wincheck.py) instead of two compiled functions called with a
bindings dict. The lab reads it after every turn of every game
(the column `progress`), where the four calls cost several percent of a random game.

A ruleset whose score or goal cannot be written in place keeps the calls (`playing.progress_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.generated import define
from interpreter.engine.inline import Inliner
from interpreter.engine.state import State
from interpreter.rules import Rules

Reader = Callable[[State, int], tuple[int, int]]  # (g, player) -> that player's points and goal

_made: dict[int, tuple[Rules, Reader | None]] = {}  # id(rules) -> (the rules, kept alive; its reader)


def generated_reader(rules: Rules) -> Reader | None:
    """The generated `points_goal(g, me)` of `rules` (made once per ruleset), or None when it must
    stay calls."""
    known = _made.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    fn = _generate(rules)
    if len(_made) > 64:  # a process sees a few rulesets; bound the cache all the same
        _made.clear()
    _made[id(rules)] = (rules, fn)
    return fn


def _generate(rules: Rules) -> Reader | None:
    if rules.score_fn is None or rules.goal_fn is None:
        return None
    inl = Inliner(rules)
    score, goal = inl.place(rules.score_fn), inl.place(rules.goal_fn)
    if score is None or goal is None:
        return None
    ns: dict[str, Any] = dict(inl.namespace())
    source = "\n".join(
        ["def points_goal(g, me):", "    opp = 1 - me", f"    s = {score}", f"    w = {goal}", "    return (s, w)"]
    )
    fn: Reader = define(
        source,
        "points_goal",
        ns,
        "<progress reader of a ruleset>",
        splice=inl.splice,
        placeholders=frozenset(inl.parts),
        label="lab.points_goal",
        line_origins=inl.line_origins,
    )
    return fn
