"""Turn state and marks: `turn`, `P.turns`, marks on cards and players (several at once), `unmark`."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import parse_card
from interpreter.core.errors import RulesetErrors
from interpreter.scripting.setup import build_position

from .scenario_util import ROOT, assert_passes, claim, house_file

EXAMPLE = ROOT / "examples" / "house" / "first-turn-no-scuttle.yaml"
EXAMPLE_CASE = claim([ROOT / "examples" / "house" / "first-turn-no-scuttle.test.yaml"], by=__name__)[0]


def _rules(tmp_path: Path, body: str):
    return load_ruleset(str(house_file(tmp_path, body)))


def test_the_docs_show_the_example_and_its_scenario_passes() -> None:
    assert EXAMPLE.read_text(encoding="utf-8") in (ROOT / "docs" / "effect-language.md").read_text(encoding="utf-8")
    assert_passes(EXAMPLE_CASE)


def test_the_example_scenario_fails_under_the_default_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main

    assert main(["run", "--ruleset", "default", str(EXAMPLE_CASE)]) == 1
    assert "'scuttle 9S 8H' to be illegal: expected illegal, got legal" in capsys.readouterr().out


TURNS = """plays:
  points:
    legal: turn == 2 * me.turns - 1 or turn == 2 * me.turns
"""


@pytest.mark.parametrize("first", ["p1", "p2"])
def test_turn_counts_the_game_and_each_player_counts_their_own(tmp_path: Path, first: str) -> None:
    rules = _rules(tmp_path, TURNS)
    g = Game(
        rules,
        build_position(
            rules, {"turn": first, "p1": {"hand": ["AC", "2C", "3C"]}, "p2": {"hand": ["AD", "2D", "3D"]}}, 1
        ),
    )
    mover = g.state.turn
    for n in range(1, 6):
        s = g.state
        assert s.turn_no == n
        assert s.turns_of(mover) == (n + 1) // 2 and s.turns_of(1 - mover) == n // 2
        assert [str(m) for m in g.legal_moves() if str(m).startswith("points")]  # the `legal` above holds
        g.play(next(str(m) for m in g.legal_moves() if str(m).startswith("points")))


def test_a_wrong_turn_count_would_forbid_the_play(tmp_path: Path) -> None:
    rules = _rules(tmp_path, "plays:\n  points:\n    legal: me.turns == turn\n")
    g = Game(rules, build_position(rules, {"turn": "p2", "p1": {"hand": ["AC"]}, "p2": {"hand": ["AD"]}}, 1))
    assert "points AD" in [str(m) for m in g.legal_moves()]  # turn 1: p2's first turn
    g.play("points AD")
    assert not [m for m in g.legal_moves() if str(m).startswith("points")]  # turn 2, p1's first: 1 != 2


MARKS = """plays:
  ace:
    effect: mark target as cold for 1 turns; mark target as wet; mark me as lucky; unmark me as lucky; \
mark opponent as sore for 1 turns
    target: field of opponent where it.role == point
  points:
    legal: not marked(me, sore) and not (marked(card, cold) and marked(card, wet))
"""


def test_a_card_and_a_player_carry_several_marks_and_unmark_takes_one_off(tmp_path: Path) -> None:
    rules = _rules(tmp_path, MARKS)
    g = Game(
        rules,
        build_position(
            rules, {"turn": "p1", "p1": {"hand": ["AC", "5C"]}, "p2": {"hand": ["2D", "3D"], "points": ["9D"]}}, 1
        ),
    )
    g.play("oneoff AC 9D")
    g.play("resolve")
    s = g.state
    nine = parse_card("9D")
    assert s.is_marked(nine, "cold") and s.is_marked(nine, "wet")
    assert not s.is_marked(-1, "lucky") and s.is_marked(-2, "sore")  # p1 unmarked; p2 (key -2) is sore
    assert not [m for m in g.legal_moves() if str(m).startswith("points")]  # p2 is sore this turn
    g.play("draw")
    g.play("draw")
    s = g.state
    assert not s.is_marked(nine, "cold") and s.is_marked(nine, "wet")  # `for 1 turns` is over; wet stays


def test_a_mark_of_a_player_needs_a_player_or_cards(tmp_path: Path) -> None:
    with pytest.raises(RulesetErrors) as e:
        _rules(tmp_path, "plays:\n  ace:\n    effect: mark 3 as odd for 1 turns\n")
    assert "[E210]" in str(e.value)
    with pytest.raises(RulesetErrors) as e:
        _rules(tmp_path, "plays:\n  points:\n    legal: me.turn > 1\n")
    assert "did you mean 'turns'?" in str(e.value)


def test_the_rules_page_says_turns_and_marks_in_words() -> None:
    from interpreter.rules.page import rules_page

    page = rules_page(load_ruleset(str(EXAMPLE)))
    assert "such that your opponent is not marked wronged" in page
    assert "then your opponent is marked wronged for 2 turns" in page
    assert "Only if the number of turns you have had is more than 1." in page


def test_a_setup_marks_single_cards_and_the_rules_read_the_marks() -> None:
    rules = load_ruleset("default+published-9s+frozen-9s")
    setup = {"turn": "p1", "p1": {"hand": ["9S", "5C"]}, "p2": {"hand": ["3D"]}}
    assert "points 9S" in map(str, Game(rules, build_position(rules, setup, 0)).legal_moves())
    setup["cards"] = {"9S": {"marks": ["frozen"]}}
    moves = list(map(str, Game(rules, build_position(rules, setup, 0)).legal_moves()))
    assert "points 9S" not in moves and "points 5C" in moves  # a frozen card cannot be played


@pytest.mark.parametrize(
    "cards, message",
    [
        ({"9S": {"counters": {"uses": 1}}}, "'uses' is not a counter of cards in ruleset"),
        ({"9S": {"mark": ["frozen"]}}, "setup.cards.9S must be a mapping of marks: and/or counters:"),
        ({"9S": {"marks": "frozen"}}, "setup.cards.9S.marks must be a list of mark names"),
        ({"ZZ": {"marks": []}}, "'ZZ' is not a card"),
    ],
)
def test_a_wrong_card_setup_is_a_clear_error(cards: dict, message: str) -> None:
    from interpreter.core.errors import ScenarioError

    rules = load_ruleset("default")
    with pytest.raises(ScenarioError) as e:
        build_position(rules, {"p1": {"hand": ["9S"]}, "cards": cards}, 0)
    assert message in str(e.value)


def test_a_misspelt_player_counter_in_a_setup_is_named_with_a_suggestion() -> None:
    from interpreter.core.errors import ScenarioError

    rules = load_ruleset(str(ROOT / "examples" / "house" / "scuttle-quota.yaml"))
    with pytest.raises(ScenarioError) as e:
        build_position(rules, {"p1": {"hand": ["9S"], "counters": {"scuttle": 1}}}, 0)
    assert "'scuttle' is not a counter of players in ruleset 'scuttle-quota'" in str(e.value)
    assert "did you mean 'scuttles'?" in str(e.value.hint)
    state = build_position(rules, {"p1": {"hand": ["9S"], "counters": {"scuttles": 1}}}, 0)
    assert state.counter(-1, "scuttles") == 1
