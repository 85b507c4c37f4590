"""The effect language: parse errors with positions and carets, name checks with suggestions,
safety (no recursion, no reach into Python), and programs compiled once at load time."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import RulesetError, RulesetErrors, load_ruleset
from interpreter.language.parser import parse_expr, parse_program

from .scenario_util import house_file


def _load(tmp_path: Path, body: str):
    p = house_file(tmp_path, body)
    return load_ruleset(str(p)), p


def _errors(tmp_path: Path, body: str) -> list[RulesetError]:
    with pytest.raises((RulesetErrors, RulesetError)) as e:
        _load(tmp_path, body)
    return e.value.errors if isinstance(e.value, RulesetErrors) else [e.value]


def test_programs_parse_to_trees() -> None:
    prog = parse_program("scrap play where it.role == point; draw 1")
    assert [type(s).__name__ for s in prog.body] == ["Scrap", "Draw"]
    assert type(parse_expr("count(hand of me) > 0 and not (1 + 2 * 3 == 7)")).__name__ == "BinOp"


def test_syntax_error_inside_an_effect_string_points_into_the_file(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "plays:\n  ace:\n    effect: scrap play whre it.role == point\n")
    e = errs[0]
    assert e.code == "E101"
    assert e.where.line == 5 and e.where.column == 24
    assert "scrap play whre" in e.render() and "^" in e.render()


def test_error_in_a_block_string_gets_its_own_line(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "plays:\n  five:\n    effect: |\n      draw 1\n      mve card to scrap\n")
    e = errs[0]
    assert e.where.line == 7 and e.where.column == 7
    assert "did you mean 'move'?" in e.render()


def test_unknown_name_suggests_the_nearest(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "plays:\n  ace:\n    effect: scrap play where it.role == pont\n")
    assert errs[0].code == "E202"
    assert "unknown name 'pont'" in errs[0].message and "did you mean 'point'?" in errs[0].render()


def test_unknown_attribute_and_function(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "plays:\n  ace:\n    effect: scrap play where it.rnak == 3\n")
    assert errs[0].code == "E204" and "did you mean 'rank'?" in errs[0].render()
    errs = _errors(tmp_path, "plays:\n  ace:\n    legal: cuont(deck) > 0\n")
    assert errs[0].code == "E205" and "did you mean 'count'?" in errs[0].render()


def test_unknown_rank_in_a_comparison(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "plays:\n  ace:\n    legal: count(scrap where it.rank == 11) > 0\n")
    assert errs[0].code == "E203"


def test_definitions_cannot_recurse(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "define:\n  loop(x): loop(x)\nplays:\n  ace:\n    legal: loop(1)\n")
    assert errs[0].code == "E207" and "cannot recurse" in errs[0].message


def test_choose_cannot_hide_in_a_loop(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "plays:\n  ace:\n    effect: for each c in deck do choose 1 from deck by me as take end\n")
    assert errs[0].code == "E208"


@pytest.mark.parametrize("text", ["__import__", "open", "eval", "g", "e", "exec"])
def test_python_names_are_not_reachable(tmp_path: Path, text: str) -> None:
    errs = _errors(tmp_path, f"plays:\n  ace:\n    legal: {text}\n")
    assert errs[0].code == "E202"


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "plays:\n  ace:\n    legal: nope\n  two:\n    legal: nada\n")
    assert len(errs) == 2


def test_compiled_once_per_ruleset() -> None:
    a = load_ruleset("default")
    assert load_ruleset("default") is a
    assert all(callable(ins[1]) for p in a.plays for ins in p.program if ins[0] == 0)


def test_a_house_rule_works_without_code(tmp_path: Path) -> None:
    from interpreter import Game
    from interpreter.scripting.setup import build_position

    rules, _ = _load(tmp_path, "plays:\n  ace:\n    effect: scrap field of opponent where it.role == point\n")
    setup = {"p1": {"hand": ["AC"], "points": ["7H"]}, "p2": {"points": ["9D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("oneoff AC")
    game.play("resolve")
    assert game.view(0).you.points[0].card == "7H"
    assert game.view(0).opponent.points == ()


def test_let_names_the_cards_as_they_were(tmp_path: Path) -> None:
    """`let kept = hand of me` keeps the cards held then, not the hand as it changes afterwards."""
    from interpreter import Game
    from interpreter.scripting.setup import build_position

    rules, _ = _load(
        tmp_path, "plays:\n  ace:\n    effect: |\n      let kept = hand of me\n      draw 1\n      scrap kept\n"
    )
    setup = {"p1": {"hand": ["AC", "7H"]}, "p2": {"hand": ["9D"]}, "deck": ["5S"]}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("oneoff AC")
    game.play("resolve")
    assert game.view(0).hand == ("5S",)  # the drawn card stays: it was not in the hand when `let` ran
    assert "7H" in game.view(0).scrap


@pytest.mark.parametrize(
    "line",
    [
        'legal: count(hand of opponent) > "x"',
        'effect: draw "abc"',
        "effect: draw hand of me",
        "effect: move card to hand of 7",
        "effect: scrap 3",
        "legal: count(3) > 0",
        "effect: scrap play where it.rank > 3",
    ],
)
def test_values_of_the_wrong_kind_are_caught_at_load(tmp_path: Path, line: str) -> None:
    errs = _errors(tmp_path, f"plays:\n  ace:\n    {line}\n")
    assert errs[0].code == "E210" and errs[0].where.line == 5


def test_a_rule_failing_at_run_time_is_an_error_and_changes_nothing(tmp_path: Path) -> None:
    from interpreter import CuttleError, Game
    from interpreter.scripting.setup import build_position

    rules, _ = _load(tmp_path, "constants: {goals: 7}\n")  # `goals[...]` now indexes a number
    setup = {"p1": {"hand": ["7H"]}, "p2": {"hand": ["3C"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    before = game.state.key()
    with pytest.raises(CuttleError) as e:
        game.play("points 7H")  # the win check after it reads the goal
    # the goal rule (written in place in the play's generated function) is named, with its line
    assert "failed in the rule end.goal (rulesets/default.yaml, line 54) while playing 'points 7H'" in str(e.value)
    assert "TypeError" in str(e.value)
    assert game.state.key() == before and game.moves == []


def test_errors_in_folded_and_escaped_strings_point_at_the_right_place(tmp_path: Path) -> None:
    errs = _errors(
        tmp_path,
        "plays:\n  ace:\n    effect: scrap field of opponent\n      where it.role == pont\n"
        "  two:\n    effect: >\n      scrap field of opponent\n      where it.role == pnt\n",
    )
    assert [(e.where.line, e.where.column) for e in errs] == [(6, 24), (10, 24)]


def test_a_folded_text_cut_short_points_just_past_its_last_character(tmp_path: Path) -> None:
    # "unexpected end of the text": the caret stands after the last word, on the file line it ends
    errs = _errors(tmp_path, "plays:\n  ace:\n    effect: scrap field\n      of\n")
    [end] = [e for e in errs if e.code == "E101"]
    assert (end.where.line, end.where.column) == (6, 9)  # '      of' ends at column 8


def test_an_error_on_a_later_line_of_an_escaped_text_points_at_its_place_in_the_file(tmp_path: Path) -> None:
    # a quoted value whose escape starts a new line of effect text: line 2's error is on the file's line 5
    errs = _errors(tmp_path, 'plays:\n  ace:\n    effect: "draw 1\\nscrap zork"\n')
    [zork] = [e for e in errs if e.code == "E202"]
    w = zork.where
    assert w.text.strip().startswith("effect:") and w.text[w.column - 1 :].startswith('zork"'), (w.line, w.column)


def test_every_definition_is_checked_even_unused(tmp_path: Path) -> None:
    errs = _errors(tmp_path, "define:\n  a: b + 1\n  b: a + 1\n  c: nope\n")
    assert {e.code for e in errs} == {"E207", "E202"} and len(errs) == 3


@pytest.mark.parametrize(
    "text, word, near",
    [
        ("scrapp discard", "scrapp", "scrap"),
        ("scrap card\n  drw 1", "drw", "draw"),
        ("scrap play whre it.role == point", "whre", "where"),
    ],
)
def test_a_misspelled_keyword_is_named_and_suggested(text: str, word: str, near: str) -> None:
    with pytest.raises(RulesetError) as e:
        parse_program(text)
    assert f"unexpected '{word}'" in e.value.message and f"did you mean '{near}'?" in e.value.render()
    line = text.splitlines()[e.value.where.line - 1]
    assert line[e.value.where.column - 1 :].startswith(word)


def test_cards_joined_with_plus_are_each_counted_once(tmp_path: Path) -> None:
    """`A + B` on cards is the cards of either, each once: a target named twice is one move, not two."""
    from interpreter import Game
    from interpreter.scripting.setup import build_position

    twice = "(field of opponent where it.role == point and beats(card, it))"
    rules, _ = _load(
        tmp_path,
        f"plays:\n  scuttle:\n    target: {twice} + {twice}\n  draw:\n    legal: count(hand of me + hand of me) == 2\n",
    )
    g = Game(
        rules, build_position(rules, {"p1": {"hand": ["9C", "8S"]}, "p2": {"hand": ["3D"], "points": ["5H"]}}, 0), 0
    )
    moves = [str(m) for m in g.legal_moves()]
    assert moves.count("scuttle 9C 5H") == 1 and moves.count("scuttle 8S 5H") == 1
    assert "draw" in moves  # two cards in hand, counted once each


def test_two_cards_joined_with_plus_are_a_set_of_two_not_a_sum(tmp_path: Path) -> None:
    """`card + target` are two cards (a set), never their numbers added; `card + card` is one card."""
    from interpreter import Game
    from interpreter.scripting.setup import build_position

    rules, _ = _load(
        tmp_path,
        "plays:\n  nine:\n    effect: |\n      if count(card + target) == 2 and count(card + card) == 1 then\n"
        "        move target to shown\n      end\n",
    )
    g = Game(rules, build_position(rules, {"p1": {"hand": ["9C"]}, "p2": {"hand": ["3D"], "points": ["5H"]}}, 0), 0)
    g.play("oneoff 9C 5H")
    g.play("resolve")
    assert g.view(0).shown == ("5H",)


def test_else_if_is_the_nested_if_with_one_end(tmp_path: Path) -> None:
    from interpreter import Game
    from interpreter.language.parser import parse_program
    from interpreter.language.printer import to_text
    from interpreter.scripting.setup import build_position

    chain = "if count(hand of opponent) == 0 then draw 2 else if count(hand of opponent) < 3 then draw 1 else pass end"
    nested = (
        "if count(hand of opponent) == 0 then draw 2 else\n"
        "  if count(hand of opponent) < 3 then draw 1 else pass end\nend"
    )
    assert parse_program(chain) == parse_program(nested)
    assert to_text(parse_program(nested)) == chain  # the printer writes the chain back
    rules, _ = _load(tmp_path, f"plays:\n  four:\n    effect: {chain}\n")
    setup = {"p1": {"hand": ["4S", "2C"]}, "p2": {"hand": ["3D", "KH"]}, "deck": ["5S", "9D", "7C"]}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("oneoff 4S")
    game.play("resolve")  # p2 holds 2 cards: the middle branch draws p1 one card
    assert sorted(game.view(0).hand) == ["2C", "5S"]


@pytest.mark.parametrize("first", ["draw 1", "draw 1 for opponent", "mark me as stunned", "set me.debt to 2"])
def test_a_for_each_on_the_next_line_starts_a_statement(first: str) -> None:
    # `draw N`, `mark X as M` and `set X to N` may end in `for ...`: a `for each` after them is a new
    # statement, not the rest of theirs (the Hypothesis comparison with the reference found it)
    program = parse_program(f"{first}\nfor each c in hand of me do\nscrap c\nend")
    assert [type(s).__name__ for s in program.body][-1] == "ForEach" and len(program.body) == 2
