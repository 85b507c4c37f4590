"""Every construct of the effect language goes through every pass.

One example text per node type of the syntax tree (`language/tree.py`); the test fails when a node
type has no example (a new construct must come with one), and each example must parse, print back to
the same tree, read as English without falling back to code, compile, and run under the reference
evaluator as the compiled code does. Generated texts (Hypothesis, the typed strategies of the
reference evaluator's tests) are round-tripped through the printer too, so the printer stays the
inverse of the parser on trees no ruleset has written.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings

from interpreter import load_ruleset
from interpreter.core.errors import RuleRuntimeError
from interpreter.engine.machine import deal
from interpreter.language import reference
from interpreter.language import tree as A
from interpreter.language.compiler import Compiler
from interpreter.language.english import Context, english
from interpreter.language.parser import parse_expr, parse_program
from interpreter.language.printer import to_text
from interpreter.language.reference import Reference

from .test_reference_evaluator import _TYPED_EXPR, _statements

# node type -> (text, is a program); every example is written for the default rules with a mark
# `stunned` and the counters `tokens` (on cards) and `debt` (on players)
EXAMPLES: dict[type, tuple[str, bool]] = {
    A.Num: ("3", False),
    A.Str: ('marked(me, "stunned")', False),
    A.Name: ("me", False),
    A.Call: ("count(hand of me)", False),
    A.ListLit: ("[card, target]", False),
    A.Zone: ("field of opponent", False),
    A.Attr: ("target.value", False),
    A.Index: ("goals[1]", False),
    A.Where: ("scrap where it.rank == Q", False),
    A.BinOp: ("count(deck) + 1 > 2", False),
    A.Not: ("not any(scrap)", False),
    A.Neg: ("-count(scrap)", False),
    A.Conditional: ("count(deck) if me == first player else 2 * (count(scrap) > 0)", False),
    A.Scrap: ("scrap target", True),
    A.Move: ("move target to hand of me", True),
    A.Attach: ("attach card to target as jack", True),
    A.Draw: ("draw 2 for opponent", True),
    A.Reveal: ("reveal 2", True),
    A.Shuffle: ("shuffle scrap into deck", True),
    A.ShuffleUnder: ("shuffle hand of me under deck", True),
    A.Swap: ("swap hand of me with hand of opponent", True),
    A.Choose: ("choose 1 from hand of me by me as discard", True),
    A.PlayFrom: ("play from shown", True),
    A.Let: ("let kept = hand of me\nscrap kept", True),
    A.If: ("if count(deck) > 0 then\ndraw 1\nelse\npass\nend", True),
    A.ForEach: ("for each c in field of opponent do\nscrap c\nend", True),
    A.Mark: ("mark target as stunned for 1 turns", True),
    A.Unmark: ("unmark target as stunned", True),
    A.SetCounter: ("set me.debt to 2", True),
    A.AddCounter: ("add 1 to target.tokens", True),
    A.Pass: ("pass", True),
    A.Win: ("win me", True),
    A.Nothing: ("nothing", True),
    A.Show: ("show hand of me to opponent", True),
    A.TurnUp: ("move card to field of me as point face down unseen\nturn up field of me where it.face_down", True),
    A.Ask: ("if opponent agrees to mulligan then\ndraw 1\nend", True),
    A.ChooseNumber: ("choose a number from 0 to 3 by me as value\ndraw value", True),
}


def _first_options(kind: str, chooser: int, verb: str | None, k: int = 1, options: tuple = (), *more: Any, **kw: Any):
    """A decision of the reference evaluator answered with the first options (a question: yes; a
    number: the lowest)."""
    if kind == "number":  # (the lowest number offered)
        return k
    return True if kind == "ask" else tuple(options[:k])


def _node_types() -> set[type]:
    return set(A.CONSTRUCTS) - reference.PARTS


def _rules():
    rules = load_ruleset("default", fresh=True)
    rules.ctx.marks.add("stunned")
    rules.ctx.counters.update({"tokens": "card", "debt": "player"})
    return rules


def _parse(text: str, program: bool) -> A.Node:
    return parse_program(text) if program else parse_expr(text)


def test_every_node_type_has_an_example() -> None:
    missing = _node_types() - set(EXAMPLES)
    assert not missing, f"no example in EXAMPLES for {sorted(k.__name__ for k in missing)}: add one"
    for kind, (text, program) in EXAMPLES.items():  # and each example holds its node type
        assert any(isinstance(n, kind) for n in A.walk(_parse(text, program))), (kind.__name__, text)


@pytest.mark.parametrize("kind", sorted(EXAMPLES, key=lambda k: k.__name__), ids=lambda k: k.__name__)
def test_a_construct_passes_through_every_pass(kind: type) -> None:
    text, program = EXAMPLES[kind]
    rules = _rules()
    node = _parse(text, program)
    # the printer is the parser's inverse
    assert _parse(to_text(node), program) == node, to_text(node)
    # English: the rules page reads it as words, not as the code itself
    words = english(node, Context.from_data(rules.data), condition=not program)
    assert words and "`" not in words, words
    # the compiler compiles it, and it runs as the reference evaluator says
    bound = frozenset({"me", "opponent", "card", "target"})
    g = deal(rules, 3)
    env = {"me": 0, "opponent": 1, "card": g.zones[2][0], "target": g.zones[3][0]}
    if program:
        assert isinstance(node, A.Program)
        compiled = Compiler(rules.ctx).program(node, bound)
        assert compiled
        reference.execute(node, g.copy(), dict(env), rules.ctx, decide=_first_options)
    else:
        fn = Compiler(rules.ctx).expr(node, bound)
        try:
            want = Reference(rules.ctx).ev(node, g.copy(), dict(env), bound)
        except RuleRuntimeError:
            return
        got = fn(g.copy(), dict(env))
        assert got == want or (isinstance(got, list | tuple) and list(got) == list(want)), (text, got, want)


_ROUND = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_ROUND
@given(_TYPED_EXPR)
def test_generated_expressions_print_back_to_their_tree(text: str) -> None:
    node = parse_expr(text)
    assert parse_expr(to_text(node)) == node, (text, to_text(node))
    assert parse_expr(to_text(node, multiline=True)) == node


@_ROUND
@given(_statements(depth=1))
def test_generated_programs_print_back_to_their_tree(text: str) -> None:
    node = parse_program(text)
    assert parse_program(to_text(node)) == node, (text, to_text(node))
    assert parse_program(to_text(node, multiline=True)) == node


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_statements(depth=2))
def test_generated_nested_programs_print_back_to_their_tree(text: str) -> None:
    node = parse_program(text)
    assert parse_program(to_text(node)) == node, (text, to_text(node))
    assert parse_program(to_text(node, multiline=True)) == node


@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # (the strategy's own repr, never shown)
@pytest.mark.parametrize(
    "kind", sorted((k for k, (_, p) in EXAMPLES.items() if not p), key=lambda k: k.__name__), ids=lambda k: k.__name__
)
def test_the_generated_texts_reach_every_expression_type(kind: type) -> None:
    # the strategies the round trips draw from can write this kind of expression node
    find(
        _TYPED_EXPR,
        lambda text: any(isinstance(n, kind) for n in A.walk(parse_expr(text))),
        settings=settings(max_examples=2000, database=None, derandomize=True),
    )
