"""`cuttle check`: every problem of a malformed ruleset, each with its code, file, line, column,
the line with a caret, and the nearest valid name (files in tests/rulesets/bad/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.rules import check, shipped_names

BAD = Path(__file__).resolve().parent / "rulesets" / "bad"
GOOD = Path(__file__).resolve().parent / "rulesets" / "good"


def problems(name: str) -> list[tuple[str, int, int, str | None]]:
    """(code, line, column, suggestion) of every problem, in file order."""
    out = []
    for e in check(str(BAD / name)):
        hint = e.hint.split("'")[1] if e.hint and "did you mean" in e.hint else None
        out.append((e.code, e.where.line if e.where else 0, e.where.column if e.where else 0, hint))
    return out


# (file, [(code, line, column, suggestion), ...]) -- every problem of the file, in order
CASES = [
    ("unknown-key.yaml", [("E011", 5, 3, "jokers"), ("E011", 8, 5, "effect")]),
    ("wrong-types.yaml", [("E012", 4, 15, None), ("E012", 9, 11, None), ("E012", 11, 12, None)]),
    ("unknown-rank.yaml", [("E013", 6, 13, "A"), ("E203", 8, 41, "3"), ("E203", 10, 41, "J")]),
    ("unknown-card.yaml", [("E014", 5, 19, "10H"), ("E014", 9, 41, None)]),
    (
        "unknown-names.yaml",
        [
            ("E202", 6, 48, "royal"),
            ("E019", 8, 11, "oneoff"),
            ("E205", 14, 14, "count"),
            ("E020", 16, 3, None),
            ("E022", 17, 11, "ace"),
            ("E019", 21, 23, "royal"),
        ],
    ),
    ("syntax.yaml", [("E101", 10, 9, "move")]),
    ("jokers-on-default.yaml", [("E303", 4, 11, None)]),
]


@pytest.mark.parametrize(("name", "expected"), CASES, ids=[c[0] for c in CASES])
def test_every_problem_with_code_place_and_suggestion(name: str, expected: list) -> None:
    assert problems(name) == expected


@pytest.mark.parametrize(("written", "meant"), [("!==", "!="), ("===", "==")])
def test_a_third_equals_sign_suggests_the_comparison_meant(tmp_path: Path, written: str, meant: str) -> None:
    """`it.rank !== 9` once got "did you mean '=='?", which reverses its meaning."""
    f = tmp_path / "eq3.yaml"
    f.write_text(
        f"extends: default\nname: eq3\nplays:\n  scuttle:\n    target: field of opponent where it.rank {written} 9\n",
        encoding="utf-8",
    )
    (e,) = check(str(f))
    assert e.hint is not None and e.hint.startswith(f"did you mean '{meant}'?")


def test_a_single_equals_sign_in_a_condition_suggests_double(tmp_path: Path) -> None:
    f = tmp_path / "eq.yaml"
    f.write_text(
        "extends: default\nname: eq\nplays:\n  scuttle:\n    target: field of opponent where it.role = point\n",
        encoding="utf-8",
    )
    (e,) = check(str(f))
    assert e.code == "E101" and e.hint is not None and e.hint.startswith("did you mean '=='?")
    first, line, caret, _ = e.render().splitlines()
    assert first.startswith(f"{f}:5:45:") and caret.index("^") == line.index(" = ") + 1


def test_problem_shows_file_line_and_caret() -> None:
    (e, *_) = check(str(BAD / "syntax.yaml"))
    text = e.render()
    first, line, caret, hint = text.splitlines()
    assert first.startswith(f"{BAD / 'syntax.yaml'}:10:9: [E101] unexpected 'mvoe'")
    assert line.strip() == "mvoe target to deck top"
    assert caret.index("^") == line.index("mvoe")
    assert hint.strip() == "did you mean 'move'?"


def test_position_inside_an_effect_string_on_one_line() -> None:
    (e,) = [x for x in check(str(BAD / "unknown-rank.yaml")) if x.where and x.where.line == 10]
    assert e.where.text[e.where.column - 1 :].startswith("Jack")


def test_clash_names_both_options() -> None:
    (e,) = check(str(BAD / "clash.yaml"))
    assert e.code == "E301"
    assert "random-4s" in e.message and "my-fours" in e.message
    assert (e.where.file.endswith("my-fours.yaml"), e.where.line, e.where.column) == (True, 6, 7)


@pytest.mark.parametrize(
    "spec, code, words",
    [
        ("default+jokers", "E303", ["jokers", "micro"]),
        ("micro+joker-swap", "E303", ["joker-swap", "micro"]),
        ("micro+jokers+joker-swap", "E303", ["joker-swap", "jokers"]),
        ("default+frozen-9s", "E303", ["frozen-9s", "published-9s"]),
        ("published+classic-2s", "E303", ["classic-2s", "published"]),
        ("default+twinned+twinned", "E303", ["twinned"]),
        ("default+micro", "E302", ["micro"]),
        ("defualt", "E002", ["defualt"]),
    ],
)
def test_refused_combinations_name_their_parts(spec: str, code: str, words: list[str]) -> None:
    errors = check(spec)
    assert errors and errors[0].code == code
    text = errors[0].render()
    for w in words:
        assert w in text


def test_option_file_alone_is_checked_on_its_base() -> None:
    assert check(str(BAD / "my-fours.yaml")) == []
    assert check("jokers") == [] and check("frozen-9s") == []  # on micro; on default+published-9s


@pytest.mark.parametrize("name", shipped_names())
def test_shipped_rulesets_check_clean(name: str) -> None:
    assert check(name) == []


def test_cli_exit_status_and_every_problem(capsys) -> None:
    assert main(["check", str(BAD / "unknown-names.yaml")]) == 1
    out = capsys.readouterr().out
    assert out.count("[E") == 6 and "6 problems" in out
    assert main(["check", str(GOOD / "my-house.yaml"), "default+classic-2s+twinned"]) == 0


def test_a_misspelled_constant_is_not_silently_ignored(tmp_path) -> None:
    p = tmp_path / "c.yaml"
    p.write_text("name: c\nextends: default\nconstants: {hand_limt: 7}\n", encoding="utf-8")
    (e,) = check(str(p))
    assert e.code == "E025" and "did you mean 'hand_limit'?" in e.render()


def test_a_scenario_given_to_check_is_named_as_such() -> None:
    from pathlib import Path

    (e,) = check(str(Path(__file__).resolve().parent.parent / "examples" / "example-1-countered.yaml"))
    assert e.code == "E004" and "cuttle run" in e.message


def test_an_empty_file_is_reported_with_its_name_and_position(tmp_path, capsys) -> None:
    for name, text in (("empty.yaml", ""), ("comment.yaml", "# nothing but a comment\n")):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        assert main(["check", str(p)]) == 1
        out = capsys.readouterr().out
        assert out.startswith(f"{p}:1:1: [E004]"), out


def test_an_error_in_a_long_line_shows_a_window_of_it_with_the_caret_under_its_place() -> None:
    from interpreter.core.errors import CARET_WIDTH, Location

    words = " ".join(f"w{i:03d}" for i in range(100))  # 499 characters, far wider than the window
    for target in ("w000", "w050", "w099"):
        col = words.index(target) + 1
        shown, caret = Location("f.yaml", 3, col, words).caret().splitlines()
        assert shown[caret.index("^") :].startswith(target), (target, shown, caret)
        body = shown[4:]
        assert len(body.strip(".")) == CARET_WIDTH  # the window, without the marks of what is left out
        assert body.startswith("...") == (target != "w000")  # text cut before it is marked
        assert body.endswith("...") == (target != "w099")  # and text cut after it


def test_an_error_in_a_short_line_shows_it_whole_with_the_caret_under_its_place() -> None:
    from interpreter.core.errors import Location

    shown, caret = Location("f.yaml", 1, 1, "mvoe target").caret().splitlines()
    assert shown == "    mvoe target" and caret == "    ^"


@pytest.mark.parametrize(
    "body, words",
    [
        ("deck:\n  jokers: true\n", ["[E012] deck.jokers: expected a whole number 0 or more"]),
        ("deck:\n  jokers: -1\n", ["[E012] deck.jokers: expected a whole number 0 or more"]),
        ("deck:\n  jokers: 1000001\n", ["[E012] deck.jokers: expected a whole number up to 1,000,000 (MAX_SETTING)"]),
        ("deck:\n  suits: [C, D, 7]\n", ["[E012] deck.suits: expected words"]),
        ("setup:\n  turn: p1\n", ["unknown key 'setup' in the ruleset", "this looks like a scenario file"]),
    ],
)
def test_a_value_of_the_wrong_kind_is_named_with_what_was_expected(tmp_path: Path, body: str, words: list[str]) -> None:
    f = tmp_path / "house.yaml"
    f.write_text("name: house\nextends: default\n" + body, encoding="utf-8")
    text = "\n".join(e.render() for e in check(str(f)))
    for w in words:
        assert w in text, text


def test_the_largest_setting_is_accepted_and_a_scenario_word_deeper_down_is_just_an_unknown_key(tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text("name: house\nextends: default\nvalues:\n  '7': 1000000\nend:\n  moves: 3\n", encoding="utf-8")
    (e,) = check(str(f))  # the value is fine; `moves` under `end` is not a scenario's
    assert e.code == "E011" and "unknown key 'moves' in end" in e.message and "scenario" not in (e.hint or ""), (
        e.render()
    )
