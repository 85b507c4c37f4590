"""Each player's points and goal in a position as one generated function, `progress(g) -> (p1
points, p1 goal, p2 points, p2 goal)`, with the ruleset's `end.score` and `end.goal` written in place
for each player (engine/inline.py, as the engine's win check is: engine/wincheck.py) instead of four
compiled functions called with a bindings dict. The lab reads it after every turn of every game
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

Reader = Callable[[State], tuple[int, int, int, int]]

_made: dict[int, tuple[Rules, Reader | None]] = {}  # id(rules) -> (the rules, kept alive; its reader)


def generated_reader(rules: Rules) -> Reader | None:
    """The generated `progress(g)` of `rules` (made once per ruleset), or None when it must stay calls."""
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
    parts = [inl.place(rules.score_fn), inl.place(rules.goal_fn)]
    parts += [inl.place(rules.score_fn, swapped=True), inl.place(rules.goal_fn, swapped=True)]
    if any(p is None for p in parts):
        return None
    ns: dict[str, Any] = dict(inl.namespace())
    s0, w0, s1, w1 = parts
    source = "\n".join(
        [
            "def progress(g):",
            "    me = 0",
            "    opp = 1",
            f"    s0 = {s0}",
            f"    w0 = {w0}",
            f"    s1 = {s1}",
            f"    w1 = {w1}",
            "    return (s0, w0, s1, w1)",
        ]
    )
    fn: Reader = define(
        source,
        "progress",
        ns,
        "<progress reader of a ruleset>",
        splice=inl.splice,
        placeholders=frozenset(inl.parts),
        label="lab.progress",
        line_origins=inl.line_origins,
    )
    return fn
