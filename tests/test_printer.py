"""The printer is the exact inverse of the parser: parse(to_text(parse(src))) == parse(src)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter.language import tree as A
from interpreter.language.node import ATOM, POSTFIX
from interpreter.language.parser import parse_expr, parse_program
from interpreter.language.printer import to_text
from interpreter.rules.schema import RULESET

ROOT = Path(__file__).resolve().parent.parent
RULESET_FILES = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples" / "house").glob("*.yaml"))


def effect_texts(data: Any, schema: dict, path: tuple = ()) -> Iterator[tuple[tuple, str, str]]:
    """Every (path, 'expr' | 'program', text) of a ruleset document, found through the schema."""
    if not isinstance(data, dict):
        return
    for key, value in data.items():
        spec = schema.get("*", schema.get(key))
        if spec is None:
            continue
        if isinstance(spec, dict) and not isinstance(spec, tuple):
            yield from effect_texts(value, spec, path + (key,))
            continue
        typ = spec[0]
        if isinstance(typ, dict):
            yield from effect_texts(value, typ, path + (key,))
        elif typ in ("expr", "program") and isinstance(value, str):
            yield path + (key,), typ, value


def all_texts() -> list[tuple[str, str, str]]:
    out = []
    for f in RULESET_FILES:
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "name" not in data and "extends" not in data:
            continue  # a scenario, not a ruleset
        for path, typ, text in effect_texts(data, RULESET):
            out.append((f"{f.name}:{'.'.join(map(str, path))}", typ, text))
    return out


TEXTS = all_texts()


def roundtrip(src: str, program: bool) -> None:
    parse = parse_program if program else parse_expr
    tree = parse(src)
    printed = to_text(tree)
    assert parse(printed) == tree, f"{src!r} printed as {printed!r}"
    assert to_text(parse(printed)) == printed  # printing is stable
    if program:
        pretty = to_text(tree, multiline=True)
        assert parse(pretty) == tree, f"{src!r} printed on lines as {pretty!r}"


def test_the_shipped_rulesets_have_effect_texts() -> None:
    assert len(TEXTS) >= 40
    assert any(t == "program" for _, t, _ in TEXTS) and any(t == "expr" for _, t, _ in TEXTS)


@pytest.mark.parametrize("where,typ,src", TEXTS, ids=[w for w, _, _ in TEXTS])
def test_every_shipped_text_round_trips(where: str, typ: str, src: str) -> None:
    roundtrip(src, typ == "program")


TRICKY_EXPRS = [
    "a - (b - c) - -d * (e + f)",
    "(a - b) - c",
    "a - (b + c)",
    "a / (b * c)",
    "a * b / c",
    "(a where b) where c",
    "a where (b where c)",
    "a where b or c and d",
    "(a or b) and not (c and d)",
    "a or (b or c)",
    "(a and b) and c",
    "a and (b and c)",
    "not not a == b",
    "not (a == b)",
    "(not a) == b",
    "(a == b) == c",
    "a == (b == c)",
    "a in (b where c)",
    "a not in [1, 2, b + c]",
    "not a in b",
    "(hand of me)[0] == 1",
    "(field of me).jacks",
    "hand of me.owner",
    "hand of (1 - me)",
    "field of hand of me",
    "hand of (hand of me).x",
    "hand of other(me)",
    "-(a + b).x",
    "(-a).x",
    "--x",
    "-(-x)",
    "- 3 * - 4",
    "f()",
    "f(a, (b where c), [])",
    "[]",
    "[[1], [2, 3]]",
    "goals[count(field of me where it.rank == K and it.role == royal)]",
    "x[a where b]",
    "a[b][c].d[e]",
    '"a string" == it.name',
    "count(scrap where it.rank != 3) > 0",
    "deck",
    "scrap where it.top",
    "play where it.role == point",
    "shown",
    "first(top(target)).owner",
    "a < b",
    "a <= b",
    "a >= b",
    "a > b",
    "a != b",
    "field of opponent where x: count(play where it.value < x.value) > 0",
    "(hand of me where x: x.rank == 3) where y: y != card",
    "count(scrap where a: a.value > 2 or a.suit == 1)",
    "total(field of me, it.heat)",
    "total(play where it.role == point, it.value * 2 + 1)",
    "a where b",
]

TRICKY_PROGRAMS = [
    "",
    "nothing",
    "pass",
    "draw 1; for each x in deck do scrap x end",
    "draw 1 for me; for each x in deck do scrap x end",
    "draw min(2, hand_limit - count(hand of me))",
    "if a then end",
    "if a then else end",
    "if a then draw 1; scrap b else nothing end",
    "if a then if b then pass else win me end else if c then nothing end",
    "for each x in play where it.role == jack do if x.top then scrap x end end",
    "choose 1 from scrap by me as scrap; scrap chosen",
    "choose count(hand of me) - hand_limit from hand of me by me as discard scrap discard",
    "choose min(2, count(hand of opponent)) from hand of opponent by random as discard",
    "choose up to 1 from scrap where it.rank != 3 by me as take; move take to hand of me",
    "if me agrees to mulligan then let n = count(hand of me); shuffle hand of me into deck; draw n end",
    "if it.last_owner agrees to reclaim then move it to hand of it.last_owner else if a then pass else nothing end",
    "draw 1 for second player; if first player == p1 then pass end",
    "choose a number from 0 to 10 by me as value; set card.value to value",
    "choose a number from -count(hand of me) to goal(me) - 1 by random as n; draw n",
    "let a = 2; choose a from hand of me by opponent as discard",
    "add 1 to target.value; set it.value to 3 for 2 turns",
    "move card to field of me as point",
    "move top(target) to hand of first(top(target)).owner",
    "move x to hand of (hand of me)[0].owner",
    "move shown to deck top; move a to deck bottom; move b to scrap; move c to shown",
    "attach card to target as jack",
    "reveal 2; play from shown",
    "shuffle scrap into deck; draw 1",
    "swap hand of me with hand of opponent",
    "let n = count(hand of me); draw n",
    "mark target as frozen for 1 turns",
    "win opponent",
    "scrap target; scrap card # a comment",
]


@pytest.mark.parametrize("src", TRICKY_EXPRS)
def test_tricky_expressions_round_trip(src: str) -> None:
    roundtrip(src, program=False)


@pytest.mark.parametrize("src", TRICKY_PROGRAMS)
def test_tricky_programs_round_trip(src: str) -> None:
    roundtrip(src, program=True)


@pytest.mark.parametrize(
    "src,expected",
    [
        ("a - (b - c)", "a - (b - c)"),
        ("((a - b)) - c", "a - b - c"),
        ("(a * b) + c", "a * b + c"),
        ("a and (b or c)", "a and (b or c)"),
        ("(a and b) or c", "a and b or c"),
        ("not (a in b)", "not a in b"),
        ("((hand of me))", "hand of me"),
        ("(it.rank) == (3)", "it.rank == 3"),
        ("(field of opponent where (it.role == point))", "field of opponent where it.role == point"),
        ("(not a) and b", "not a and b"),
        ("(-a) * b", "-a * b"),
        ("(a where b) + c", "(a where b) + c"),
    ],
)
def test_parentheses_are_minimal(src: str, expected: str) -> None:
    assert to_text(parse_expr(src)) == expected


@pytest.mark.parametrize(
    "src,need",
    [("goals[1]", POSTFIX), ("it.rank", POSTFIX), ("count(x)", ATOM), ("[x]", ATOM), ('"Q"', ATOM), ("x", ATOM)],
)
def test_the_precedence_of_postfix_forms_and_atoms(src: str, need: int) -> None:
    node = parse_expr(src)
    assert isinstance(node, A.Expression) and node.level() == need


def test_multiline_layout() -> None:
    src = (
        "reveal 2 if can_play(shown) then play from shown else choose 1 from shown by me as scrap "
        "scrap chosen end move shown to deck top"
    )
    assert to_text(parse_program(src), multiline=True) == (
        "reveal 2\n"
        "if can_play(shown) then\n"
        "  play from shown\n"
        "else\n"
        "  choose 1 from shown by me as scrap\n"
        "  scrap chosen\n"
        "end\n"
        "move shown to deck top"
    )
    assert to_text(parse_program(src)) == (
        "reveal 2; if can_play(shown) then play from shown else choose 1 "
        "from shown by me as scrap; scrap chosen end; move shown to deck top"
    )


def test_built_trees_print() -> None:
    """Trees made by hand (not by the parser) print too, with the parentheses they need."""
    tree = A.BinOp("-", A.Name("a"), A.BinOp("-", A.Name("b"), A.Num(1)))
    assert to_text(tree) == "a - (b - 1)"
    where = A.Where(A.Where(A.Zone("play"), A.Name("x")), A.Name("y"))
    assert to_text(where) == "(play where x) where y"
    assert to_text(A.Attr(A.Zone("hand", A.Name("me")), "top")) == "(hand of me).top"
    assert to_text(A.Dest("field", A.Name("me"), "royal")) == "field of me as royal"
    assert (
        to_text(A.Program((A.Draw(A.Num(1)), A.ForEach("x", A.Zone("deck"), (A.Scrap(A.Name("x")),)))), multiline=True)
        == "draw 1;\nfor each x in deck do\n  scrap x\nend"
    )
