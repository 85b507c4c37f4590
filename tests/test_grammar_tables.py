"""The effect grammar's stored LALR tables (language/tables.py): current with the grammar, read only
when their stamp matches, and any other file ignored in favour of building the tables."""

from __future__ import annotations

import json

import pytest
from lark import Tree
from lark.exceptions import UnexpectedInput

from interpreter.language import tables
from interpreter.language.parser import _parser, parse_program
from interpreter.rules import load_ruleset, shipped_names
from interpreter.rules.load import on_its_base

SAMPLE = "if count(hand of me) > 2 then draw 1 else choose 1 from scrap by me as take; move chosen to hand of me end"


def _texts(x: object) -> list[str]:
    if isinstance(x, dict):
        return [t for v in x.values() for t in _texts(v)]
    if isinstance(x, list):
        return [t for v in x for t in _texts(v)]
    return [x] if isinstance(x, str) else []


def _same_lark() -> None:
    made_with = json.loads(tables.stored() or "{}").get("stamp", {}).get("lark")
    if made_with != tables.stamp("")["lark"]:  # (the tables are then built from the grammar, as before)
        pytest.skip(f"the stored tables were made with Lark {made_with}, this is Lark {tables.stamp('')['lark']}")


def test_the_stored_tables_are_stamped_with_this_grammar() -> None:
    doc = json.loads(tables.stored() or "{}")
    assert doc.get("stamp", {}).get("grammar_sha256") == tables.stamp(tables.grammar_text())["grammar_sha256"], (
        "effect.lark changed: run `python tools/grammar_tables.py` to write the tables anew"
    )


def test_the_parser_in_use_reads_every_shipped_text_as_a_built_one_does() -> None:
    """Lark builds its tables in an order that varies from run to run, so the stored tables are
    compared by what they parse: every text of every shipped ruleset, as a program and as an
    expression, gives the same tree or fails at the same place."""
    _same_lark()
    assert _parser().source_path == "<deserialized>"
    built = tables.build(tables.grammar_text())
    texts = {t for name in shipped_names() for t in _texts(load_ruleset(on_its_base(name)).data)} | {SAMPLE}
    compared = 0
    for text in sorted(texts):
        for start in ("start", "cexpr"):
            try:
                want: object = built.parse(text, start=start)
            except UnexpectedInput as e:
                want = (type(e).__name__, e.line, e.column)
            try:
                got: object = _parser().parse(text, start=start)
            except UnexpectedInput as e:
                got = (type(e).__name__, e.line, e.column)
            assert got == want, (text, start)
            compared += isinstance(want, Tree)
    assert compared >= 100  # (every effect, condition and target of the shipped rulesets)


@pytest.mark.parametrize(
    "damage",
    [
        lambda doc: {**doc, "stamp": {**doc["stamp"], "grammar_sha256": "0" * 64}},  # another grammar
        lambda doc: {**doc, "stamp": {**doc["stamp"], "lark": "0.0"}},  # another Lark
        lambda doc: {**doc, "tables": {"data": {}, "memo": {}}},  # damaged
        lambda doc: [],
    ],
    ids=["stale-grammar", "other-lark", "damaged", "not-a-mapping"],
)
def test_any_other_tables_file_is_ignored(damage) -> None:
    _same_lark()
    text = tables.stored()
    assert text is not None
    grammar = tables.grammar_text()
    assert tables.load(grammar, text) is not None
    assert tables.load(grammar, json.dumps(damage(json.loads(text)))) is None
    assert tables.load(grammar, "not json {") is None
    assert tables.load(grammar, None) is None


def test_effects_parse_the_same_either_way() -> None:
    assert parse_program(SAMPLE) == parse_program(SAMPLE)  # cached parser; positions and nodes intact
    tree = parse_program("draw 1\nscrap card")
    assert (tree.body[1].line, tree.body[1].column) == (2, 1)


def test_the_tables_written_are_compact_json_that_loads_back_as_a_parser() -> None:
    """`python tools/grammar_tables.py` writes `tables.document`: one line of JSON with no spaces, stamped
    with the grammar and Lark, that `tables.load` takes as the parser's tables."""
    grammar = tables.grammar_text()
    doc = tables.document(grammar)
    assert doc.endswith("}\n") and doc.count("\n") == 1 and '": ' not in doc and '", "' not in doc
    assert json.loads(doc)["stamp"] == tables.stamp(grammar)
    assert tables.load(grammar, doc) is not None
