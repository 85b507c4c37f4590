"""The reference evaluator (interpreter/language/reference.py) against the compiled code: every
expression each shipped ruleset compiled, on states reached by seeded random play, gives the same
value both ways; and the reference has a case for every node type of the syntax tree."""

from __future__ import annotations

import dataclasses
import random

import pytest

from interpreter import load_ruleset
from interpreter.engine.machine import apply_action, deal, legal_actions
from interpreter.language import reference, tree
from interpreter.language.reference import Reference

from .rulesets_under_test import RULESETS


def test_every_node_type_has_a_case() -> None:
    kinds = {
        c
        for c in vars(tree).values()
        if isinstance(c, type) and dataclasses.is_dataclass(c) and issubclass(c, tree.Node)
    }
    missing = kinds - set(reference._EXPR) - set(reference._STMT) - reference.PARTS
    assert not missing, f"the reference evaluator has no case for {sorted(k.__name__ for k in missing)}"


def _norm(v):
    if isinstance(v, (list, tuple)):
        return ("cards", tuple(_norm(x) for x in v))
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", int(v))
    return ("other", v)


def _env(g, rnd: random.Random, bound: frozenset[str]) -> dict:
    me = g.turn
    env: dict = {"me": me, "opponent": 1 - me}
    live = [c for z in g.zones for c in z]
    for name in bound - {"me", "opponent"}:
        if name in ("card", "target", "it"):
            env[name] = rnd.choice(live) if live else -1
        else:
            env[name] = tuple(rnd.sample(live, min(len(live), rnd.randint(0, 3))))
    return env


@pytest.mark.parametrize("name", RULESETS)
def test_compiled_expressions_agree_with_the_reference(name: str) -> None:
    rules = load_ruleset(name)
    ref = Reference(rules.ctx)
    rnd = random.Random(name)
    checked = 0
    for seed in range(2):
        g = deal(rules, seed)
        for _ in range(rnd.randint(5, 60)):
            if g.winner is not None:
                break
            real, g = g, g.copy()  # the evaluations run on a copy (a cache they fill stays out of the game)
            for fn, (node, bound) in list(rules.ctx.trees.items()):
                env = _env(g, rnd, frozenset(bound))
                before = g.key()
                try:
                    want = _norm(fn(g, dict(env)))
                except Exception as e:  # noqa: BLE001 - the reference must fail too
                    with pytest.raises(Exception):  # noqa: B017
                        ref.ev(node, g, dict(env), frozenset(bound) | {"me", "opponent"})
                    del e
                    continue
                got = _norm(ref.ev(node, g, dict(env), frozenset(bound) | {"me", "opponent"}))
                assert got == want, f"{name} seed {seed}: {node} gave {got}, compiled {want}"
                assert g.key() == before
                checked += 1
            g = real
            acts = legal_actions(g)
            if not acts:
                break
            apply_action(g, rnd.choice(acts))
    assert checked > 0
