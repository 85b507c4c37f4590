"""Counters (`counters:`): numbers kept on players and cards, set, added to and read by the rules.
(tests/test_counters.py is about countering plays.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import parse_card
from interpreter.core.errors import RulesetErrors
from interpreter.scripting.setup import build_position

from .scenario_util import ROOT, assert_passes, claim, house_file

EXAMPLE = ROOT / "examples" / "house" / "scuttle-quota.yaml"
EXAMPLE_CASE = claim([ROOT / "examples" / "house" / "scuttle-quota.test.yaml"], by=__name__)[0]


def _rules(tmp_path: Path, body: str):
    return load_ruleset(str(house_file(tmp_path, body)))


def _errors(tmp_path: Path, body: str) -> str:
    with pytest.raises(RulesetErrors) as e:
        _rules(tmp_path, body)
    return str(e.value)


def test_the_docs_show_the_example_and_its_scenario_passes() -> None:
    doc = (ROOT / "docs" / "effect-language.md").read_text(encoding="utf-8")
    assert EXAMPLE.read_text(encoding="utf-8").split("\n", 1)[1] in doc
    assert_passes(EXAMPLE_CASE)


def test_the_example_scenario_fails_under_the_default_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main

    assert main(["run", "--ruleset", "default", str(EXAMPLE_CASE)]) == 1
    assert "p1 counters: 'scuttles' is not a counter of players" in capsys.readouterr().out


HEAT = """counters:
  heat: {of: card, text: how hot a card is}
  tally: {of: player}
plays:
  ace:
    effect: set target.heat to 3 for 1 turns; add 2 to target.heat; add count(hand of me) to me.tally
    target: field of opponent where it.role == point
  points:
    legal: card.heat == 0 and opponent.tally < 3
"""


def test_a_card_counter_is_set_added_to_read_and_over_after_its_turns(tmp_path: Path) -> None:
    rules = _rules(tmp_path, HEAT)
    g = Game(
        rules,
        build_position(
            rules, {"turn": "p1", "p1": {"hand": ["AC", "5C", "6C"]}, "p2": {"hand": ["2D", "3D"], "points": ["9D"]}}, 1
        ),
    )
    before = g.state.copy()
    g.play("oneoff AC 9D")
    g.play("resolve")
    s = g.state
    nine = parse_card("9D")
    assert s.counter(nine, "heat") == 5 and s.counter(-1, "tally") == 2
    assert before.counter(nine, "heat") == 0  # the snapshot shares nothing that changed
    g.play("draw")
    g.play("draw")
    assert g.state.counter(nine, "heat") == 0  # set for 1 turns (turns 1-2): over on turn 3


def test_the_opponents_tally_forbids_points(tmp_path: Path) -> None:
    rules = _rules(tmp_path, HEAT)
    g = Game(
        rules,
        build_position(
            rules, {"turn": "p2", "p1": {"hand": ["2C"], "counters": {"tally": 3}}, "p2": {"hand": ["AD"]}}, 1
        ),
    )
    assert "points AD" not in [str(m) for m in g.legal_moves()]
    g = Game(
        rules,
        build_position(
            rules, {"turn": "p2", "p1": {"hand": ["2C"], "counters": {"tally": 2}}, "p2": {"hand": ["AD"]}}, 1
        ),
    )
    assert "points AD" in [str(m) for m in g.legal_moves()]


def test_a_misspelt_counter_is_caught_with_a_suggestion(tmp_path: Path) -> None:
    text = _errors(tmp_path, "counters:\n  tally: {of: player}\nplays:\n  draw:\n    effect: add 1 to me.taly\n")
    assert "[E216] unknown counter 'taly'" in text and "did you mean 'tally'?" in text
    text = _errors(tmp_path, "counters:\n  tally: {of: player}\nplays:\n  draw:\n    legal: me.taly < 2\n")
    assert "did you mean 'tally'?" in text
    text = _errors(tmp_path, "counters:\n  tally: {of: player}\nplays:\n  ace:\n    effect: add 1 to card.tally\n")
    assert "[E210]" in text  # a counter of players, given a card
    text = _errors(tmp_path, "counters:\n  rank: {of: card}\n")
    assert "[E027]" in text
    text = _errors(tmp_path, "counters:\n  tally: {of: plyer}\n")
    assert "tally" in text and "plyer" in text


def test_a_counter_whose_kind_is_refused_is_one_error_not_one_more_per_use(tmp_path: Path) -> None:
    """`of: dog` is the error; the uses of the counter (as a player's, or a card's) add none of their own."""
    for use in ("add 1 to me.tally", "add 1 to card.tally", "if me.tally > 1 then draw 1 end"):
        text = _errors(tmp_path, f"counters:\n  tally: {{of: dog}}\nplays:\n  ace:\n    effect: {use}\n")
        assert "[E012] counters.tally.of: expected one of player, card, got 'dog'" in text, text
        assert text.count("[E") == 1, text


def test_a_counter_set_back_to_zero_is_a_change_the_history_counts(tmp_path: Path) -> None:
    """The game's log counts each change of a counter (what the lab reports as counters changed): a
    counter set from 3 back to 0 changed; set again to the value it has did not."""
    rules = _rules(tmp_path, HEAT)
    g = Game(rules, build_position(rules, {"p1": {"hand": ["AC"], "counters": {"tally": 3}}}, 1))
    s = g.state
    before = s.log.get(("counter", "tally"), 0)
    s.set_counter(-1, "tally", 3, 5)
    assert s.log.get(("counter", "tally"), 0) == before
    s.set_counter(-1, "tally", 0, 5)
    assert s.log.get(("counter", "tally"), 0) == before + 1 and s.counter(-1, "tally") == 0
