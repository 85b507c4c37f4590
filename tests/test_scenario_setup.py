"""A scenario's `setup:`: where the cards it does not place go, and positions it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.core.errors import ScenarioError
from interpreter.engine.state import DECK, HAND0, SCRAP
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "case.yaml"
    p.write_text(text, encoding="utf-8")
    return p


# -- a player already at their goal -------------------------------------------------------------------


@pytest.mark.parametrize(
    "side, message",
    [
        ("{points: [10S, 10H, AC]}", "p1 already stands at their goal (21 points, goal 21)"),
        ("{points: [10S, 5H], royals: [KS]}", "p1 already stands at their goal (15 points, goal 14)"),
        ("{royals: [KS, KH, KD, KC]}", "p1 already stands at their goal (0 points, goal 0)"),
    ],
)
def test_a_setup_with_a_player_at_their_goal_is_refused(tmp_path: Path, side: str, message: str) -> None:
    p = _write(tmp_path, f"setup:\n  p2: {{hand: [3C]}}\n  p1: {side}\nexpect: {{winner: p1}}\n")
    result = run_file(p)
    assert not result.ok and len(result.failures) == 1
    assert f"{p}:3:" in result.failures[0] and "[S002] " + message in result.failures[0]
    assert "a setup is not checked for a win" in result.failures[0]


def test_one_point_below_the_goal_is_a_position() -> None:
    rules = load_ruleset("default")
    g = build_position(rules, {"p1": {"points": ["10S", "10H"], "hand": ["AC"]}}, 0)
    assert rules.score_of(g, 0) == 20 and g.winner is None


# -- the cards a setup does not place -------------------------------------------------------------------


def test_unplaced_cards_go_into_the_deck_by_default() -> None:
    rules = load_ruleset("default")
    g = build_position(rules, {"p1": {"hand": ["7H"]}, "p2": {"hand": ["3C"]}, "deck": ["5S"]}, 3)
    assert len(g.zones[DECK]) == 50 and g.zones[DECK][-1] == parse("5S") and not g.zones[SCRAP]
    assert [len(g.zones[HAND0]), len(g.zones[HAND0 + 1])] == [1, 1]


def test_micro_deals_unplaced_cards_to_the_hands_and_makes_no_deck() -> None:
    rules = load_ruleset("micro")
    setup = {"p1": {"hand": ["9C", "3D"]}, "p2": {"hand": ["4C"], "points": ["10H"]}}
    g = build_position(rules, setup, 5)
    hands = [g.zones[HAND0], g.zones[HAND0 + 1]]
    assert g.zones[DECK] == [] and g.zones[SCRAP] == []
    assert [len(h) for h in hands] == [8, 7]  # 16 cards: 10H in play, the rest in the hands, 8 at most
    assert hands[0][:2] == [parse("9C"), parse("3D")] and hands[1][0] == parse("4C")
    again = build_position(rules, setup, 5)
    other = build_position(rules, setup, 6)
    assert again.zones == g.zones and other.zones != g.zones  # the seed decides who gets what


def test_micro_with_jokers_keeps_each_joker_in_its_hand() -> None:
    rules = load_ruleset("micro+jokers")
    g = build_position(rules, {"p1": {"hand": ["9C"]}}, 1)
    assert g.zones[DECK] == [] and g.zones[SCRAP] == []
    assert [len(g.zones[HAND0]), len(g.zones[HAND0 + 1])] == [9, 9]
    assert parse("RJ") in g.zones[HAND0] and parse("BJ") in g.zones[HAND0 + 1]


def test_cards_left_over_after_the_hands_are_full_go_to_the_scrap() -> None:
    rules = load_ruleset("micro")
    hand = ["AS", "2C", "2H", "3D", "3S", "4C", "6D", "9C", "9D", "9H"]  # 10 cards: more than the deal's 8
    g = build_position(rules, {"p1": {"hand": hand}}, 0)
    assert len(g.zones[HAND0]) == 10 and len(g.zones[HAND0 + 1]) == 6 and g.zones[DECK] == []


def test_unplaced_can_be_chosen() -> None:
    micro = load_ruleset("micro")
    to_deck = build_position(micro, {"p1": {"hand": ["9C"]}, "unplaced": "deck"}, 0)
    assert len(to_deck.zones[DECK]) == 15
    to_scrap = build_position(micro, {"p1": {"hand": ["9C"]}, "unplaced": "scrap"}, 0)
    assert len(to_scrap.zones[SCRAP]) == 15 and to_scrap.zones[DECK] == []
    default = build_position(load_ruleset("default"), {"p1": {"hand": ["9C"]}, "unplaced": "hands"}, 0)
    assert [len(default.zones[HAND0]), len(default.zones[HAND0 + 1])] == [5, 6]
    assert default.zones[DECK] == [] and len(default.zones[SCRAP]) == 41


def test_an_unknown_unplaced_is_refused() -> None:
    with pytest.raises(ScenarioError) as e:
        build_position(load_ruleset("micro"), {"unplaced": "hand"}, 0)
    assert "setup.unplaced must be deck, scrap or hands" in str(e.value)


# -- a file of the wrong shape: one error naming the line, the column, the code and what is wrong ---------

COUNTED = "name: counted\nextends: default\ncounters:\n  tally: {of: player}\n  uses: {of: card}\n"


@pytest.mark.parametrize(
    "text, error",
    [
        ("setup:\n  p1: {hand: 7H}\n", "3:14: [S002] setup.p1.hand must be a list of cards, e.g. [7H, 10S]"),
        ("setup:\n  p1: {roles: [7H]}\n", "3:15: [S002] setup.p1.roles must map roles to cards, e.g. {vault: [7H]}"),
        ("setup:\n  match: {p1: -1}\n", "3:10: [S002] setup.match must be the hands won so far (and drawn)"),
        ("setup:\n  match: {p1: true}\n", "3:10: [S002] setup.match must be the hands won so far (and drawn)"),
        ("setup:\n  p1: {counters: {tally: x}}\n", "3:26: [S002] setup.p1.counters.tally must be a whole number"),
        ("setup:\n  cards: {9S: {counters: {uses: x}}}\n", "3:33: [S002] setup.cards.9S.counters.uses must be a whole"),
        ("setup:\n  cards: {9S: {marks: frozen}}\n", "3:23: [S002] setup.cards.9S.marks must be a list of mark names"),
        # a key that is wrong itself is pointed at, not its value (the line after, for a block mapping)
        ("setup:\n  cards:\n    9X:\n      marks: [frozen]\n", "4:5: [S002] '9X' is not a card"),
        ("setup:\n  cards: {9S: {counters: {nosuch: 1}}}\n", "3:27: [S002] 'nosuch' is not a counter of cards"),
        ("setup:\n  p1: {counters: {nosuch: 1}}\n", "3:19: [S002] 'nosuch' is not a counter of players"),
        ("setup:\n  colour: 1\n", "3:3: [S002] unknown key 'colour' in setup"),
        ("setup:\n  p3:\n    hand: [7H]\n", "3:3: [S002] setup.p3: this table has 2 players, p1 to p2"),
        ("setup:\n  p1:\n    handz: [7H]\n", "4:5: [S002] unknown key 'handz' in setup.p1"),
        ("setup:\n  p1: {roles: {vaultz: [7H]}}\n", "3:16: [S002] setup.p1.roles: 'vaultz' is not a role"),
        ("seed: x\n", "2:7: [S003] seed must be a whole number"),
        ("moves: 3\n", "2:8: [S003] moves must be a list"),
        (f"moves: [{', '.join(['draw'] * 10_001)}]\n", "2:8: [S003] more than 10,000 steps (MAX_SCENARIO_STEPS)"),
    ],
)
def test_a_scenario_of_the_wrong_shape_says_where_and_what(tmp_path: Path, text: str, error: str) -> None:
    (tmp_path / "counted.yaml").write_text(COUNTED, encoding="utf-8")
    p = _write(tmp_path, "ruleset: counted.yaml\n" + text)
    result = run_file(p)
    assert not result.ok and result.failures[0].startswith(f"{p}:{error}"), result.failures


def test_a_scenario_without_a_setup_plays_the_deal_of_its_seed(tmp_path: Path) -> None:
    from interpreter import Game
    from interpreter.core.cards import NAMES

    for seed in (0, 5):
        hand = [NAMES[c] for c in Game.new(load_ruleset("default"), seed).state.zones[HAND0 + 1]]
        p = _write(tmp_path, f"seed: {seed}\nexpect:\n  p2: {{hand: [{', '.join(hand)}]}}\n")
        assert run_file(p).ok, (seed, run_file(p).failures)
    assert not run_file(_write(tmp_path, f"seed: 6\nexpect:\n  p2: {{hand: [{', '.join(hand)}]}}\n")).ok


def parse(text: str) -> int:
    from interpreter.core.cards import parse_card

    return parse_card(text)
