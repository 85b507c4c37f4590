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


@pytest.mark.slow
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


EDGE_EXPRESSIONS = [
    "count(hand of me) != 0",
    "count(field of opponent where it.rank == 9) == 0",
    "any(play where it.attached)",
    "count(play where it.attached and it.host == first(play))",
    "same_rank(hand of me where it.value > 99)",
    "same_rank(deck_top(3))",
    "(hand of me)[-1]",
    "(hand of me)[99]",
    "(scrap)[0]",
    "deck_top(0)",
    "deck_top(-2)",
    "deck_top(3)",
    "(deck)[0]",
    "total(hand of me) - total(hand of opponent) * 2 / 3",
    "[first(hand of me), none] + hand of opponent",
    "other(me) == opponent",
    "score(me) >= goal(opponent)",
    "first(play).owner",
    "top(first(play where count(it.jacks) > 0))",
    "min(hand of me) + max(scrap)",  # of one list; 0 when it is empty (a call with a keyword was refused)
    "max(field of opponent where it.value > 99)",
]
EDGE_STATEMENTS = [
    "move deck_top(3) to deck bottom",
    "move hand of me to deck top",
    "move field of opponent to hand of me",
    "reveal 2",
    "reveal -1",
    "draw 0",
    "draw 2 for opponent",
    "for each c in hand of opponent do if c.rank == 7 then scrap c else move c to shown end end",
    "mark hand of me as stunned for 2 turns\nunmark first(hand of me) as stunned",
    "mark opponent as stunned",
    "swap hand of me with hand of opponent",
    "shuffle scrap into deck",
    "shuffle hand of opponent under deck",
    "show hand of me to opponent",
    "let kept = hand of me\ndraw 1\nscrap kept",
    "move first(hand of me) to field of me as point",
    "attach first(hand of opponent) to first(field of me) as jack",
    "pass",
    "nothing",
    "win opponent",
]


def _states(rules, n: int):
    rnd = random.Random(7)
    for seed in range(n):
        g = deal(rules, seed)
        for _ in range(rnd.randint(0, 40)):
            acts = legal_actions(g) if g.winner is None else []
            if not acts:
                break
            apply_action(g, rnd.choice(acts))
        yield g


def test_edge_expressions_and_statements_agree() -> None:
    from interpreter.language.compiler import EXEC, Compiler
    from interpreter.language.parser import parse_expr, parse_program

    rules = load_ruleset("default", fresh=True)
    ctx = rules.ctx
    ctx.marks.add("stunned")
    bound = frozenset({"me", "opponent"})
    exprs = [(parse_expr(t), t) for t in EDGE_EXPRESSIONS]
    fns = [(Compiler(ctx).expr(node, bound), node, t) for node, t in exprs]
    progs = [(Compiler(ctx).program(parse_program(t), bound), parse_program(t), t) for t in EDGE_STATEMENTS]
    for g in _states(rules, 12):
        env = {"me": g.turn, "opponent": 1 - g.turn}
        for fn, node, text in fns:
            assert _norm(Reference(ctx).ev(node, g.copy(), dict(env), bound)) == _norm(fn(g.copy(), dict(env))), text
        for prog, tree_, text in progs:
            assert all(ins[0] == EXEC for ins in prog)
            a, b = g.copy(), g.copy()
            for ins in prog:
                ins[1](a, dict(env))
            reference.execute(tree_, b, dict(env), ctx)
            assert a.key() == b.key(), text
