"""Triggers (`triggers:`): rules that run when something happens. The scenario cases of a house
ruleset written with triggers are in tests/scenarios/triggers-house/ (run by tests/test_rulesets.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import parse_card
from interpreter.core.errors import CuttleError, RulesetErrors
from interpreter.core.limits import MAX_STEP_COST
from interpreter.core.zones import SHOWN
from interpreter.engine.state import EventState, MoveEventState, State
from interpreter.scripting.setup import build_position

from .playout import play_out, random_mover
from .scenario_util import ROOT, assert_passes, claim, house_file

EXAMPLE = ROOT / "examples" / "house" / "scuttled-draw.yaml"
EXAMPLE_CASE = claim([ROOT / "examples" / "house" / "scuttled-draw.test.yaml"], by=__name__)[0]

HOUSE = Path(__file__).parent / "scenarios" / "triggers-house" / "rules" / "triggers-house.yaml"


def _rules(tmp_path: Path, body: str, name: str = "house"):
    return load_ruleset(str(house_file(tmp_path, body, name)))


def _errors(tmp_path: Path, body: str) -> str:
    with pytest.raises(RulesetErrors) as e:
        _rules(tmp_path, body)
    return str(e.value)


def _cards(names: str) -> list[int]:
    return [parse_card(n) for n in names.split()]


# -- the worked example of docs/effect-language.md ----------------------------------------------


def test_the_docs_show_the_example_house_rule_and_its_scenario_passes() -> None:
    doc = (ROOT / "docs" / "effect-language.md").read_text(encoding="utf-8")
    assert EXAMPLE.read_text(encoding="utf-8") in doc
    assert_passes(EXAMPLE_CASE)


def test_the_example_scenario_fails_without_the_trigger(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main

    assert main(["run", "--ruleset", "default", str(EXAMPLE_CASE)]) == 1
    assert "p2 hand: expected [4D, KC], got [4D]" in capsys.readouterr().out


def test_the_rules_page_and_the_diff_say_the_trigger_in_words() -> None:
    from interpreter.rules.page import diff_rules, rules_page

    rules = load_ruleset(str(EXAMPLE))
    line = (
        'When a card leaves your field, if the cause is "scuttle" and it is not a Jack: you draw 1 card. '
        "(When your card is scuttled, draw a card.)"
    )
    assert f"When things happen\n------------------\n  * {line}" in rules_page(rules)
    assert f"* New rule: {line}" in diff_rules(load_ruleset("default"), rules)


# -- load-time checks --------------------------------------------------------------------------


def test_an_unknown_event_is_refused_with_its_place_and_a_suggestion(tmp_path: Path) -> None:
    text = _errors(tmp_path, "triggers:\n  t:\n    event: card leaves feild\n    effect: draw 1 for me\n")
    assert "[E026]" in text and "unknown event 'card leaves feild'" in text
    assert "house.yaml:5:12" in text and "did you mean 'card leaves field'?" in text


def test_a_bare_on_key_gets_told_the_key_is_event(tmp_path: Path) -> None:
    text = _errors(tmp_path, "triggers:\n  t:\n    on: turn starts\n    effect: draw 1 for me\n")
    assert "needs `event: EVENT`" in text and "YAML reads a bare `on:` as true" in text


def test_a_trigger_may_read_only_its_events_bindings(tmp_path: Path) -> None:
    text = _errors(tmp_path, "triggers:\n  t:\n    event: turn starts\n    effect: move it to scrap\n")
    assert "unknown name 'it'" in text
    text = _errors(
        tmp_path, "triggers:\n  t:\n    event: card enters scrap\n    when: cause > 3\n    effect: draw 1 for me\n"
    )
    assert "[E210]" in text  # cause is a word, not a number


# -- zero cost when unused -----------------------------------------------------------------------


def test_rules_without_triggers_play_with_the_plain_state_and_programs() -> None:
    rules = load_ruleset("default")
    assert rules.triggers == () and type(Game.new(rules, 1).state) is State
    assert not any(ins[1] == "fire" for p in rules.plays for ins in p.program if len(ins) > 1)
    house = load_ruleset(str(HOUSE))
    assert type(Game.new(house, 1).state) is MoveEventState
    assert all(any(ins[1] == "fire" for ins in p.program if len(ins) > 1) for p in house.plays)


def test_rules_listening_to_no_card_event_do_not_track_moves(tmp_path: Path) -> None:
    rules = _rules(tmp_path, "triggers:\n  t:\n    event: turn starts\n    when: false\n    effect: nothing\n")
    assert type(Game.new(rules, 1).state) is EventState


# -- order and chains ------------------------------------------------------------------------------

ORDER = """triggers:
  fives:
    event: turn ends
    effect: move hand of me where it.rank == 5 to shown
  sixes:
    event: turn ends
    effect: move hand of me where it.rank == 6 to shown
  after a five:
    event: card enters shown
    when: it.rank == 5 and cause == "fives" and from_zone == "hand" and to_zone == "shown"
    effect: move hand of me where it.rank == 7 to shown
"""


def test_triggers_run_in_file_order_and_their_own_events_queue_behind(tmp_path: Path) -> None:
    rules = _rules(tmp_path, ORDER)
    g = Game(
        rules,
        build_position(rules, {"turn": "p1", "p1": {"hand": ["5C", "6C", "7C", "AH"]}, "p2": {"hand": ["2D"]}}, 1),
    )
    g.play("points AH")
    # the turn's end: `fives` then `sixes` (file order); `after a five` reacts to the 5C entering
    # the shown cards, but only once both have run (a depth-first order would show 5C 7C 6C)
    assert g.state.zones[SHOWN] == _cards("5C 6C 7C")
    assert g.state.turn == 1


def test_a_trigger_that_sets_itself_off_forever_is_refused_and_the_game_unchanged(tmp_path: Path) -> None:
    rules = _rules(
        tmp_path,
        """triggers:
  start:
    event: turn ends
    effect: move hand of me where it.rank == 5 to shown
  there:
    event: card enters shown
    effect: move it to scrap
  back:
    event: card enters scrap
    effect: move it to shown
""",
    )
    g = Game(
        rules, build_position(rules, {"turn": "p1", "p1": {"hand": ["5C", "AH"]}, "p2": {"hand": ["2D", "3D"]}}, 1)
    )
    before = g.state.key()
    with pytest.raises(CuttleError) as e:
        g.play("points AH")  # the turn's end sends the 5C between the shown cards and the scrap for ever
    assert "MAX_TRIGGERED" in str(e.value)
    assert g.state.key() == before


def test_a_chain_of_costly_triggers_is_stopped_by_the_budget_of_the_step(tmp_path: Path) -> None:
    # each test of `heavy`'s condition may visit 52**4 cards (the opponent's field, empty here, counted
    # as holding the whole deck): far within MAX_COST alone and within MAX_TRIGGERED's 1,000 links, but
    # the step's budget counts every test of the chain and refuses the move after a few dozen links
    nested = "count(field of opponent where count(field of opponent where count(field of opponent where "
    nested += "count(field of opponent where it.rank == 5) > 0) > 0) > 0) >= 0"
    rules = _rules(
        tmp_path,
        f"""triggers:
  start:
    event: turn ends
    effect: move hand of me where it.rank == 5 to shown
  there:
    event: card enters shown
    when: {nested}
    effect: move it to scrap
  back:
    event: card enters scrap
    effect: move it to shown
""",
    )
    heavy = next(t for t in rules.triggers if t.name == "there")
    assert heavy.when_cost > 52**4
    g = Game(
        rules, build_position(rules, {"turn": "p1", "p1": {"hand": ["5C", "AH"]}, "p2": {"hand": ["2D", "3D"]}}, 1)
    )
    before = g.state.key()
    with pytest.raises(CuttleError) as e:
        g.play("points AH")
    assert "MAX_STEP_COST" in str(e.value) and "the last: there" in str(e.value)
    assert g.state.key() == before


def test_the_budget_of_a_step_starts_again_at_each_move(tmp_path: Path) -> None:
    # one costly test per turn's end: many moves in a row each stay within their own step's budget
    nested = "count(field of opponent where count(field of opponent where count(field of opponent where "
    nested += "count(field of opponent where it.rank == 5) > 0) > 0) > 0) >= 0"
    rules = _rules(tmp_path, f"triggers:\n  noted:\n    event: turn ends\n    when: {nested}\n    effect: nothing\n")
    (noted,) = rules.triggers
    turns = MAX_STEP_COST // noted.when_cost + 5  # more turns than one budget pays for
    g = Game.new(rules, 3)
    mover = random_mover(3)
    while g.state.turn_no < turns:
        assert g.outcome is None, "the game ended too soon to show it: pick another seed"
        g.play(mover(g))


# -- whole games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_games_with_triggers_end_undo_exactly_and_replay_the_same(seed: int) -> None:
    rules = load_ruleset(str(HOUSE))
    a = play_out(Game.new(rules, seed), random_mover(seed))
    b = play_out(Game.new(rules, seed), random_mover(seed))
    assert a.state.key() == b.state.key()
    while a.can_undo:
        a.undo()
    assert a.state.key() == Game.new(rules, seed).state.key()


@pytest.mark.parametrize("seats", [3, 4])
def test_a_card_entering_or_leaving_any_seats_hand_or_field_fires_the_trigger(tmp_path: Path, seats: int) -> None:
    """`card enters field` and `card leaves hand` watch every seat's field and hand, at a table of three
    or four as at two (they watched p1's and p2's only)."""
    body = (
        f"seats: {{count: {seats}}}\ncounters:\n  entered: {{of: player}}\n  left: {{of: player}}\n"
        "triggers:\n"
        "  entered:\n    event: card enters field\n    effect: add 1 to it.controller.entered\n"
        "  left:\n    event: card leaves hand\n    effect: add 1 to it.owner.left\n"
    )
    rules = _rules(tmp_path, body)
    hands = {f"p{p + 1}": {"hand": [f"{p + 5}C"]} for p in range(seats)}
    for p in range(seats):
        game = Game(rules, build_position(rules, {"turn": f"p{p + 1}", **hands}, 0), 0)
        game.play(f"points {p + 5}C")
        s = game.state
        assert [s.counter(-1 - q, "entered") for q in range(seats)] == [int(q == p) for q in range(seats)], p
        assert [s.counter(-1 - q, "left") for q in range(seats)] == [int(q == p) for q in range(seats)], p


def test_a_card_taken_from_field_to_field_leaves_a_field_but_not_play(tmp_path: Path) -> None:
    body = (
        "counters:\n  fields: {of: player}\n  plays: {of: player}\n"
        "triggers:\n"
        "  left field:\n    event: card leaves field\n    when: it.rank == 9\n    effect: add 1 to me.fields\n"
        "  left play:\n    event: card leaves play\n    when: it.rank == 9\n    effect: add 1 to me.plays\n"
    )
    rules = _rules(tmp_path, body)
    setup = {"turn": "p1", "p1": {"hand": ["JC", "5C"]}, "p2": {"hand": ["3D"], "points": ["9D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.play("jack JC 9D")
    game.play("resolve")  # p2 lets it go: the 9 moves from p2's field to p1's
    s = game.state
    fired = [sum(s.counter(-1 - p, name) for p in (0, 1)) for name in ("fields", "plays")]
    assert fired == [1, 0]  # once, for the field it left; never for play, which it did not leave
