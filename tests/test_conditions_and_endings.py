"""Conditions as numbers and endings as expressions (issue 44 item 2): a condition where a number is
needed counts 1 when it holds and 0 when not (`3 * (me == first player)`, `[0, 3][C]`); `A if C else
B` chooses a value; `end.on_passes` may name the winner with an expression (`nobody`: a draw), and a
rule's `win nobody` ends the game in a draw. The house rules examples/house/deckout-tiebreak.yaml and
examples/house/second-player-goal.yaml run their scenarios here."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.errors import RuleRuntimeError
from interpreter.engine.outcome import Termination
from interpreter.language.english import say
from interpreter.rules import check
from interpreter.rules.page import diff_rules, rules_page
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position

from .scenario_util import assert_passes, cases, house_file

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "examples" / "house"
HOUSE_CASES = cases(
    "deckout-tiebreak.test.yaml",
    "deckout-tiebreak-full-tie.test.yaml",
    "second-player-goal.test.yaml",
    under=HOUSE,
    by=__name__,
)


@pytest.mark.parametrize("path", HOUSE_CASES)
def test_the_house_rules_pass_their_scenarios_and_fail_without_them(path: Path) -> None:
    assert_passes(path)
    assert not run_file(path, ruleset_override="default").ok


def _scores(tmp_path: Path, score: str, turn: int = 0, turn_number: int = 1) -> tuple[int, int]:
    """Each player's points under `end.score: SCORE`, in a position where `turn` moves on `turn_number`."""
    rules = load_ruleset(str(house_file(tmp_path, f"end:\n  score: '{score}'\n")))
    setup = {"turn": f"p{turn + 1}", "turn_number": turn_number, "p1": {"hand": ["2C"]}, "p2": {"hand": ["3D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    return game.score(0), game.score(1)


@pytest.mark.parametrize(
    "score, expected",
    [
        ("3 * (me == first player)", (3, 0)),
        ("(me == second player) * 3", (0, 3)),
        ("[0, 3][me == first player]", (3, 0)),
        ("10 + (me == p2)", (10, 11)),
        ("-(me == p1)", (-1, 0)),
        ("min(5, 7 * (me == p2))", (0, 5)),
        ("7 if me == p2 else 2", (2, 7)),
        ("total(field of me) + (4 if count(hand of me) > 0 else 0)", (4, 4)),
        # whole-number division rounds down (-7 / 2 is -4), and dividing by 0 gives 0
        ("(0 - 7) / 2 + 10 * (me == p2)", (-4, 6)),
        ("7 / (me == p2)", (0, 7)),
        # beside a constant (a value of any kind until play), a condition still counts 1 or 0
        ("(hand_limit if me == p1 else me == p2) + 1", (9, 2)),
        ("(me == p2 if me == p2 else hand_limit) + (me == p2)", (8, 2)),
    ],
)
def test_a_condition_counts_one_or_zero_where_a_number_is_needed(tmp_path: Path, score: str, expected) -> None:
    assert _scores(tmp_path, score) == expected


def test_the_first_player_follows_the_turn_so_the_bonus_does(tmp_path: Path) -> None:
    # p2 to move on turn 2: p1 moved first
    assert _scores(tmp_path, "3 * (me == first player)", turn=1, turn_number=2) == (3, 0)
    assert _scores(tmp_path, "3 * (me == first player)", turn=1, turn_number=1) == (0, 3)


def test_a_condition_is_still_refused_where_cards_or_a_player_are_needed(tmp_path: Path) -> None:
    f = house_file(tmp_path, "plays:\n  draw:\n    effect: scrap (me == p1)\n")
    (e,) = check(str(f))
    assert e.code == "E210" and "needs a card or cards" in e.message and "a condition" in e.message
    f = house_file(tmp_path, "plays:\n  draw:\n    effect: draw 1 for (count(deck) > 0)\n", "other")
    (e,) = check(str(f))
    assert e.code == "E210" and "a player" in e.message


def test_the_two_values_of_an_if_must_be_of_one_kind(tmp_path: Path) -> None:
    f = house_file(tmp_path, "end:\n  score: 'me if count(deck) > 0 else 3'\n")
    (e,) = check(str(f))
    assert e.code == "E210" and "'... if ... else ...' must be of one kind" in e.message
    assert "a player" in e.message and "a number" in e.message


def test_an_if_inside_a_statement_is_written_in_parentheses(tmp_path: Path) -> None:
    rules = load_ruleset(
        str(house_file(tmp_path, "plays:\n  draw:\n    effect: draw (2 if me == second player else 1)\n"))
    )
    game = Game(rules, build_position(rules, {"turn": "p2", "turn_number": 2, "p2": {"hand": ["3D"]}}, 0), 0)
    game.play("draw")
    assert len(game.view(1).hand) == 3  # the second player draws 2
    f = house_file(tmp_path, "plays:\n  draw:\n    effect: draw 2 if me == second player else 1\n", "bare")
    (e,) = check(str(f))
    assert e.code == "E101"  # `if` after a statement's expression begins the next statement


def test_the_rules_page_reads_conditions_and_ifs_as_numbers() -> None:
    assert (
        say("draw (2 if me == second player else 1)") == "draw 2 cards if you are the second player, otherwise 1 card"
    )
    assert say("score(me) + 3 * (me == first player)", condition=False, program=False) == (
        "your points plus 3 if you are the first player (else 0)"
    )
    assert say("[0, 3][me == first player]", program=False) == "3 if you are the first player, otherwise 0"
    page = rules_page(load_ruleset(str(HOUSE / "second-player-goal.yaml")))
    assert "0 with 4; in each case minus 3 if you are the second player (else 0)." in page


# -- endings -------------------------------------------------------------------------------------


def test_the_tiebreak_ending_reads_on_the_page_and_in_the_diff() -> None:
    rules = load_ruleset(str(HOUSE / "deckout-tiebreak.yaml"))
    page = rules_page(rules)
    assert (
        "3 passes in a row end the game: you being the player who made the last pass, if your points are more "
        "than your opponent's points, you win the game; otherwise if your opponent's points are more than your "
        "points, your opponent wins the game; otherwise if your hand holds fewer cards than your opponent's hand, "
        "you win the game;"
    ) in page
    assert page.rstrip().count("otherwise the second player wins the game.") == 1
    diff = diff_rules(load_ruleset("default"), rules)
    assert "* When 3 passes in a row end the game: was: the player with more points wins" in diff


def test_an_ending_names_a_player_or_nobody(tmp_path: Path) -> None:
    slip = house_file(tmp_path, "end:\n  on_passes: most_point\n")
    (e,) = check(str(slip))
    assert (
        e.code == "E012" and "most_points or draw, or an expression" in e.message and "'most_points'" in (e.hint or "")
    )
    number = house_file(tmp_path, "end:\n  on_passes: score(me)\n", "number")
    (e,) = check(str(number))
    assert e.code == "E210" and "needs a player" in e.message and "nobody for a draw" in e.message
    nobody = house_file(tmp_path, "end:\n  on_passes: 'me if score(me) > score(opponent) else nobody'\n", "nobody")
    rules = load_ruleset(str(nobody))
    setup = {"p1": {"hand": ["2C"], "points": ["9H"]}, "p2": {"hand": ["3D"], "points": ["9S"]}, "deck": []}
    game = Game(rules, build_position(rules, {**setup, "unplaced": "scrap"}, 0), 0)
    for _ in range(3):
        game.play("pass")
    assert game.outcome is not None and game.outcome.winner is None
    assert "end.on_passes decides" in game.outcome.reason


def test_win_nobody_ends_the_game_in_a_draw_named_after_its_rule(tmp_path: Path) -> None:
    f = house_file(
        tmp_path,
        "triggers:\n  stalemate:\n    event: turn ends\n    when: turn >= 2\n"
        "    effect: win (me if score(me) > score(opponent) else nobody)\n",
    )
    rules = load_ruleset(str(f))
    game = Game(rules, build_position(rules, {"p1": {"hand": ["2C"]}, "p2": {"hand": ["3D"]}}, 0), 0)
    game.play("draw")
    assert game.outcome is None
    game.play("draw")
    assert game.outcome is not None and game.outcome.winner is None
    assert game.outcome.reason == "a rule declared a draw (triggers.stalemate)"
    assert game.outcome.termination is Termination.RULE and game.outcome.rule == "triggers.stalemate"
    page = rules_page(rules)
    assert (
        "if your points are more than your opponent's points, you win the game; otherwise the game ends in a draw"
        in page
    )


def test_a_player_who_turns_out_to_be_nobody_is_still_an_error_not_a_draw(tmp_path: Path) -> None:
    rules = load_ruleset(str(house_file(tmp_path, "plays:\n  draw:\n    effect: draw 1; win first(deck).owner\n")))
    game = Game(rules, build_position(rules, {"p1": {"hand": ["2C"]}, "p2": {"hand": ["3D"]}}, 0), 0)
    before = game.state.key()
    with pytest.raises(RuleRuntimeError, match="nobody as a player"):
        game.play("draw")
    assert game.outcome is None and game.state.key() == before


def test_a_condition_counts_one_or_zero_cards_to_draw(tmp_path: Path) -> None:
    # p1 draws 2 if its hand is empty, else as many as the condition `count(deck) > 99` counts: none
    body = "plays:\n  draw:\n    effect: draw (2 if count(hand of me) == 0 else count(deck) > 99)\n"
    rules = load_ruleset(str(house_file(tmp_path, body)))
    game = Game(rules, build_position(rules, {"turn": "p1", "p1": {"hand": ["3D"]}}, 0), 0)
    game.play("draw")
    assert len(game.view(0).hand) == 1  # false counts 0 cards, not an error
    game = Game(rules, build_position(rules, {"turn": "p1", "p1": {"hand": []}}, 0), 0)
    game.play("draw")
    assert len(game.view(0).hand) == 2
    rules = load_ruleset(
        str(
            house_file(
                tmp_path,
                body.replace("(2 if count(hand of me) == 0 else count(deck) > 99)", "(count(hand of me) == 0)"),
                "bare",
            )
        )
    )
    for hand, drawn in ((["3D"], 0), ([], 1)):  # a bare condition: one card if it holds, none if not
        game = Game(rules, build_position(rules, {"turn": "p1", "p1": {"hand": hand}}, 0), 0)
        game.play("draw")
        assert len(game.view(0).hand) == len(hand) + drawn
