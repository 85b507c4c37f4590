"""A ruleset run by the reference evaluator: the same `Rules`, every compiled function replaced by one
that walks its syntax tree with interpreter/language/reference.py, and the engine's generated shortcuts
(direct plays, the win check and the plays' rules written in place) turned off.

A game of these rules and a game of the compiled rules, dealt with the same seed and given the same
actions, must offer the same legal moves and reach the same states: that is the meaning check of the
conformance harness (tests/test_conformance_meaning.py). What the two share is the machine's own steps
(the stack, windows, frames, turns) and the state's operations; what differs is everything the compiler,
its run-time helpers and the engine's generated code decide: the value of every `legal`, `target`,
`end.goal`, `end.score`, visibility and trigger condition, and the effect of every statement.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from interpreter.engine.decision import Decision
from interpreter.engine.machine import set_shortcuts
from interpreter.language.compiler import CHOOSE, EXEC, JUMP_IF_NOT, PLAY
from interpreter.language.reference import Reference
from interpreter.rules import PlayDef, ResponseDef, Rules
from interpreter.rules.defs import TriggerDef


def plain(v: Any) -> Any:
    """A reference value as the engine's values are: plain ints (not Card/Player), tuples of them."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, (list, tuple)):
        return tuple(plain(x) for x in v)
    return v


class _Wrapper:
    """Turns the compiled functions of one ruleset into reference ones (each function and program once)."""

    def __init__(self, rules: Rules) -> None:
        self.ctx = rules.ctx
        self.ref = Reference(rules.ctx)
        self.done: dict[int, Any] = {}
        self.missing: list[str] = []  # compiled functions with no tree (kept as they are)

    def expr(self, fn: Any) -> Any:
        if fn is None:
            return None
        if id(fn) in self.done:
            return self.done[id(fn)]
        found = self.ctx.trees.get(fn)
        if found is None:  # a constant (a condition written true/false, a default): nothing to compare
            self.missing.append(getattr(fn, "__qualname__", repr(fn)))
            return fn
        node, bound = found
        ref = self.ref

        def reference(g: Any, e: dict) -> Any:
            return plain(ref.ev(node, g, e, bound | {"me", "opponent"}))

        self.done[id(fn)] = reference
        return reference

    def statements(self, fn: Any) -> Any:
        found = self.ctx.programs.get(fn)
        if found is None:
            raise AssertionError(f"a compiled step with no statements known: {fn}")
        body, bound = found
        ref = self.ref

        def reference(g: Any, e: dict) -> None:
            ref.run(body, g, e, set(bound) | {"me", "opponent"})
            for k, v in list(e.items()):  # (a `let` binds the value as compiled code does: plain)
                e[k] = plain(v) if isinstance(v, (tuple, int)) and not isinstance(v, bool) else v

        return reference

    def program(self, prog: tuple) -> tuple:
        if id(prog) in self.done:
            return self.done[id(prog)]
        out = []
        for ins in prog:
            op = ins[0]
            if op == EXEC:
                out.append((EXEC, self.statements(ins[1])))
            elif op == JUMP_IF_NOT:
                out.append((JUMP_IF_NOT, self.expr(ins[1]), ins[2]))
            elif op == CHOOSE:
                out.append((CHOOSE, self.expr(ins[1]), self.expr(ins[2]), self.expr(ins[3]), *ins[4:]))
            elif op == PLAY:
                out.append((PLAY, self.expr(ins[1])))
            else:  # JUMP and the engine's own steps
                out.append(ins)
        new = tuple(out)
        self.done[id(prog)] = new
        return new


def reference_rules(rules: Rules) -> Rules:
    """A copy of `rules` whose every rule is evaluated by the reference evaluator (see the module)."""
    w = _Wrapper(rules)
    r = copy.copy(rules)
    r.engine_cache = {}
    for name in ("goal_fn", "score_fn", "visible_fn", "playable_fn", "deck_top_fn", "card_visible_fn", "on_passes_fn"):
        setattr(r, name, w.expr(getattr(rules, name)))
    r.turn_end = w.program(rules.turn_end)
    r.plays = [
        dataclasses.replace(
            p,
            legal=w.expr(p.legal),
            target=w.expr(p.target),
            program=w.program(p.program),
            countered=w.program(p.countered),
            counterable=w.expr(p.counterable),
            player=w.expr(p.player),
        )
        for p in rules.plays
    ]
    r.responses = [
        dataclasses.replace(
            x,
            legal=w.expr(x.legal),
            program=w.program(x.program),
            counterable=w.expr(x.counterable),
            window=w.expr(x.window),
            instead=w.program(x.instead),
        )
        for x in rules.responses
    ]
    r.triggers = tuple(
        dataclasses.replace(t, when=w.expr(t.when), program=w.program(t.program)) for t in rules.triggers
    )
    r.answering = {}
    for x in r.responses:
        for a in x.answers:
            r.answering.setdefault(a, []).append(x)
    r.by_rank = {rank: [p for p in r.plays if rank in p.ranks and p.ncards > 0] for rank in rules.by_rank}
    r.cardless = [p for p in r.plays if p.ncards == 0]
    set_shortcuts(r, False)  # every program through the machine's frames, every rule called, none in place
    return r


def normal(v: Any) -> Any:
    """A state's key (or an action) with what differs between the two rulesets' objects taken out: a
    play, response or trigger by its name, a compiled or reference function as 'fn'."""
    if isinstance(v, (PlayDef, ResponseDef, TriggerDef)):
        return (type(v).__name__, v.name)
    if isinstance(v, Decision):
        return tuple(normal(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((str(k), normal(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return tuple(normal(x) for x in v)
    if callable(v) and not isinstance(v, type):
        return "fn"
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return int(v)
    return v
