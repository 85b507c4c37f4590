"""The table of constructs: every construct of the effect language is one unit that owns its passes.

A construct is a node class in `language/constructs/`, registered in `CONSTRUCTS`. These tests read
the table and the grammar and fail when a construct lacks a pass of its own (a method defined in its
own module, not inherited from `node.py`'s defaults or from another construct), or when a grammar
rule that builds a node is claimed by no construct or by two. Whether each pass then does the right
thing is checked per construct by tests/test_every_construct.py and the language's own tests.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from interpreter.language import parser
from interpreter.language import tree as A
from interpreter.language.node import Expression, Node, Statement

#: the passes every construct must define itself: parse action, printed form, English, code, meaning
REQUIRED = {
    Expression: ("parse", "text", "value_words", "compile", "evaluate"),
    Statement: ("parse", "text", "english", "lines", "execute"),
    # a part of another construct (a program's body, a move's destination): its parent's passes read
    # it, so it owns its parse action (and whatever its parent asks of it, checked by the parent's tests)
    Node: ("parse",),
}

#: grammar rules that build no node of their own (`stmts` is a list of statements, `verb` a word,
#: `in_order`/`reversed_` the order of a destination): the parser's few helper actions, their parents read them
HELPER_RULES = {name for name in vars(parser._Helpers) if not name.startswith("_")}


def _kind(cls: type) -> type:
    return next(kind for kind in (Expression, Statement, Node) if issubclass(cls, kind))


@pytest.mark.parametrize("cls", A.CONSTRUCTS, ids=lambda c: c.__name__)
def test_a_construct_defines_every_pass_in_its_own_module(cls: type) -> None:
    assert cls.RULES, f"{cls.__name__} names no grammar rule (RULES) it is parsed from"
    for method in REQUIRED[_kind(cls)]:
        fn = getattr(cls, method)
        fn = getattr(fn, "__func__", fn)  # a classmethod's function
        assert fn.__module__ == cls.__module__, (
            f"{cls.__name__}.{method} comes from {fn.__module__}, not from its own module {cls.__module__}"
        )


def _grammar_rules() -> set[str]:
    """The names the parser's transformer is called with: each rule's alias, or its name."""
    names = set()
    for rule in parser._parser().rules:
        if rule.options.expand1 and not rule.alias:
            continue  # `?rule` with one child is inlined: no callback
        name = str(rule.alias or rule.origin.name)
        if not name.startswith("_"):
            names.add(name)
    return names


def test_every_grammar_rule_that_builds_a_node_is_claimed_by_one_construct() -> None:
    claims = Counter(rule for cls in A.CONSTRUCTS for rule in cls.RULES)
    twice = sorted(rule for rule, n in claims.items() if n > 1)
    assert not twice, f"grammar rules claimed by two constructs: {twice}"
    grammar = _grammar_rules()
    unclaimed = sorted(grammar - set(claims) - HELPER_RULES)
    assert not unclaimed, f"grammar rules no construct parses (add them to a construct's RULES): {unclaimed}"
    unknown = sorted(set(claims) - grammar)
    assert not unknown, f"RULES naming no rule of effect.lark: {unknown}"
    transformer = parser._transformer()
    assert all(callable(getattr(transformer, rule, None)) for rule in claims), "a claimed rule has no parse action"


def test_every_construct_module_is_in_the_table() -> None:
    """A module written in constructs/ but not registered in CONSTRUCTS would never be parsed."""
    import interpreter.language.constructs as package

    folder = Path(package.__file__).parent
    modules = {f"{package.__name__}.{f.stem}" for f in folder.glob("*.py") if not f.stem.startswith("_")}
    registered = {cls.__module__ for cls in A.CONSTRUCTS}
    assert modules - registered == set(), f"construct modules not in CONSTRUCTS: {sorted(modules - registered)}"


def test_the_tree_exports_every_construct_of_the_table() -> None:
    """`tree.py` re-exports the package's `__all__` (`A.Scrap`): it must name every construct."""
    import interpreter.language.constructs as package

    assert sorted(package.__all__) == sorted(["CONSTRUCTS", *(cls.__name__ for cls in A.CONSTRUCTS)])
    assert all(getattr(A, cls.__name__) is cls for cls in A.CONSTRUCTS)
