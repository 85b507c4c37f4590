"""Every construct of the effect language goes through every pass, from its own examples.

Each construct class carries its examples (`EXAMPLES`, language/node.py's `Example`, after Ludii's
`@example`); the test fails when a construct of the table has none (a new construct must come with
one). Each example, its holes filled plainly, must hold its construct, parse, print back to the same
tree, read as English without falling back to code, compile, and run under the reference evaluator as
the compiled code does. docs/effect-language.md's table of constructs is written from the same
examples (`python tools/construct_table.py`) and must be current. Generated texts (Hypothesis, the
strategies of the reference evaluator's tests, themselves made from the examples) are round-tripped
through the printer too, so the printer stays the inverse of the parser on trees no ruleset has written.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings

from interpreter import load_ruleset
from interpreter.engine.machine import deal
from interpreter.language import reference
from interpreter.language import tree as A
from interpreter.language.compiler import Compiler
from interpreter.language.english import Context, english
from interpreter.language.node import HOLES, KINDS, Example
from interpreter.language.parser import parse_expr, parse_program
from interpreter.language.printer import to_text
from interpreter.language.reference import Reference

from .ids import plain_id
from .scenario_util import tool_module
from .test_reference_evaluator import _TYPED_EXPR, _both, _norm, _run_compiled, _statements, _yes

ROOT = Path(__file__).resolve().parent.parent

#: every example of every construct: (construct, example)
EXAMPLES = [(cls, ex) for cls in A.CONSTRUCTS for ex in cls.EXAMPLES]


def _first_options(kind: str, chooser: int, verb: str | None, k: int = 1, options: tuple = (), *more: Any, **kw: Any):
    """A decision of the reference evaluator answered with the first options (a question: yes; a
    number: the lowest)."""
    if kind == "number":  # (the lowest number offered)
        return k
    return True if kind == "ask" else tuple(options[:k])


@functools.cache
def _rules():
    """The default rules with what the examples are written for (`Example`): a mark `stunned`, a number
    `num`, the counters `tokens` (of cards) and `debt` (of players), cards' own values."""
    rules = load_ruleset("default", fresh=True)
    rules.ctx.marks.add("stunned")
    rules.ctx.numbers.add("num")
    rules.ctx.counters.update({"tokens": "card", "debt": "player"})
    rules.ctx.card_values = True
    return rules


def _text(ex: Example) -> tuple[str, bool]:
    """An example filled plainly, as a text to parse, and whether it is a program (a destination is
    written as the `move` it ends)."""
    if ex.kind == "dest":
        return f"move card to {ex.plain()}", True
    return ex.plain(), ex.kind == "statement"


def _parse(text: str, program: bool) -> A.Node:
    return parse_program(text) if program else parse_expr(text)


def _name(item: tuple[type, Example]) -> str:
    cls, ex = item
    return plain_id(f"{cls.__name__}:{ex.form}")


def test_every_construct_has_an_example() -> None:
    missing = [cls.__name__ for cls in A.CONSTRUCTS if not cls.EXAMPLES]
    assert not missing, f"no EXAMPLES in {missing}: give each construct class at least one Example"
    for cls, ex in EXAMPLES:
        assert ex.kind in KINDS, (cls.__name__, ex)
        assert set(ex.holes()) <= set(HOLES), (cls.__name__, ex)


@pytest.mark.parametrize("item", EXAMPLES, ids=_name)
def test_an_example_passes_through_every_pass(item: tuple[type, Example]) -> None:
    cls, ex = item
    text, program = _text(ex)
    rules = _rules()
    node = _parse(text, program)
    assert any(isinstance(n, cls) for n in A.walk(node)), f"{ex.form!r} holds no {cls.__name__}"
    # the printer is the parser's inverse
    assert _parse(to_text(node), program) == node, to_text(node)
    # English: the rules page reads it as words, not as the code itself
    words = english(node, Context.from_data(rules.data), condition=ex.kind == "bool")
    assert words and "`" not in words, words
    # the compiler compiles it, and it runs as the reference evaluator says
    bound = frozenset({"me", "opponent", "card", "target"})
    g = deal(rules, 3)
    env = {"me": 0, "opponent": 1, "card": g.zones[2][0], "target": g.zones[3][0]}
    g.put_in_play(env["target"], 1, "point")  # (the target a play names: a card in play, a Jack's point card)
    if program:
        assert isinstance(node, A.Program)
        compiled = Compiler(rules.ctx).program(node, bound)
        assert compiled
        if not ex.fuzz:  # a player decides: the reference alone, answering with the first options
            reference.execute(node, g.copy(), dict(env), rules.ctx, decide=_first_options)
            return
        a, b = g.copy(), g.copy()
        (ka, _), (kb, _) = _both(
            lambda: _run_compiled(compiled, a, dict(env)),
            lambda: reference.execute(node, b, dict(env), rules.ctx, _yes),
        )
        assert ka == kb == "ok" and a.key() == b.key(), (text, ka, kb)
    else:
        fn = Compiler(rules.ctx).expr(node, bound)
        (ka, va), (kb, vb) = _both(
            lambda: _norm(fn(g.copy(), dict(env))),
            lambda: _norm(Reference(rules.ctx).ev(node, g.copy(), dict(env), bound)),
        )
        assert (ka, va) == (kb, vb), (text, ka, va, kb, vb)


def _construct_table():
    return tool_module("construct_table")


def test_the_docs_table_of_constructs_is_written_from_the_examples() -> None:
    tool = _construct_table()
    doc = tool.DOC.read_text(encoding="utf-8")
    assert doc.count(tool.MARK) == 2, "docs/effect-language.md lost the marks of its table of constructs"
    assert tool.written(doc) == doc, "the table of constructs is out of date: run `python tools/construct_table.py`"
    assert all(f"| `{cls.__name__}` |" in doc for cls in A.CONSTRUCTS)


_ROUND = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_ROUND
@given(_TYPED_EXPR)
def test_generated_expressions_print_back_to_their_tree(text: str) -> None:
    node = parse_expr(text)
    assert parse_expr(to_text(node)) == node, (text, to_text(node))
    assert parse_expr(to_text(node, multiline=True)) == node


@_ROUND
@given(_statements(depth=1))
@example("if true then\npass\nelse\nif random agrees to keep then\npass\nend\nend")  # (not `else if` on one line)
@example("if true then\ndraw 1\nelse\nif false then\ndraw 2\nend\ndraw 3\nend")
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


def _fuzzed(kinds: tuple[str, ...]) -> list[type]:
    """The constructs with an example of one of `kinds` that the fuzzing may generate."""
    return [cls for cls in A.CONSTRUCTS if any(ex.fuzz and ex.kind in kinds for ex in cls.EXAMPLES)]


@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # (the strategy's own repr, never shown)
def test_the_generated_texts_reach_every_construct() -> None:
    """The strategies the property tests draw from, made from the examples, write every construct that
    has an example they may generate (drawn without shrinking, the same draws on every run)."""
    seen: set[type] = set()

    def draws(n: int) -> settings:
        return settings(max_examples=n, derandomize=True, database=None, phases=[Phase.generate], deadline=None)

    @draws(300)
    @given(_TYPED_EXPR)
    def expressions(text: str) -> None:
        seen.update(type(n) for n in A.walk(parse_expr(text)))

    @draws(600)  # (each statement form is one of some fifty: about 25 draws of each)
    @given(_statements(1))
    def programs(text: str) -> None:
        seen.update(type(n) for n in A.walk(parse_program(text)))

    expressions()
    programs()
    kinds = ("player", "card", "cards", "int", "bool", "statement", "dest")
    missing = [cls.__name__ for cls in _fuzzed(kinds) if cls not in seen]
    assert not missing, f"the generated texts never hold {missing}"
