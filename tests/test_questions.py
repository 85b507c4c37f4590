"""Questions (issue 25 item 1): `if P agrees to VERB then ... end` asks player P, whose moves are VERB
(yes) and `decline` (no); a trigger's `for: each player` runs it once for each player in turn order,
the game-start mulligan's case. The house rules of examples/house/ that use them, their scenarios, and
how the question is offered, explained, told and refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import parse_card
from interpreter.rules import check
from interpreter.rules.page import rules_page
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position

from .scenario_util import assert_passes, cases, house_file

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "examples" / "house"
QUESTION_CASES = cases("mulligan.test.yaml", "jack-reclaim.test.yaml", under=HOUSE, by=__name__)


@pytest.mark.parametrize("path", QUESTION_CASES)
def test_the_question_house_rules_pass_their_scenarios_and_fail_without_them(path: Path) -> None:
    assert_passes(path)
    assert not run_file(path, ruleset_override="default").ok


def _reclaim_asked() -> Game:
    """p1's 2 has scrapped p2's Jack: p2 is asked, on p1's turn."""
    rules = load_ruleset(str(HOUSE / "jack-reclaim.yaml"))
    setup = {"p1": {"hand": ["2D", "5S"]}, "p2": {"hand": ["4C"], "points": ["8H+JC"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.play("oneoff 2D JC")
    game.play("resolve")
    return game


def test_a_question_goes_to_the_player_it_names_and_is_offered_explained_and_told() -> None:
    from repl.narrate import Teller
    from repl.render import decision_text

    game = _reclaim_asked()
    d = game.decision
    assert d is not None and (d.player, d.ask, game.state.turn) == (1, True, 0)
    assert [str(m) for m in game.legal_moves()] == ["reclaim", "decline"]
    view = game.view(1)
    assert view["decision"]["ask"] and view["decision"]["verb"] == "reclaim"
    assert decision_text(view, True) == "you may reclaim ('reclaim' or 'decline')"
    assert decision_text(game.view(0), False) == "P2 may reclaim or decline"
    assert "answer 'reclaim' (yes) or 'decline' (no)" in game.explain("reclaim JC")
    before = game.view(0)
    game.play("decline")
    assert Teller(0).tell(before, game.view(0), game.moves[-1]).startswith("P2 declines to reclaim")
    assert parse_card("JC") in game.state.zones[1]  # the scrap
    page = rules_page(game.rules)
    assert "its last owner may reclaim (or decline); if they do, return it to its last owner's hand" in page


def test_each_player_is_asked_in_turn_order_the_first_player_first() -> None:
    """`for: each player` on `game starts`: the first player's question, then the second's, then the first
    turn; when p2 moves first (a scenario's setup), p2 is asked first."""
    rules = load_ruleset(str(HOUSE / "mulligan.yaml"))
    game = Game.new(rules, 11)
    asked = []
    while game.decision is not None and game.decision.ask:
        asked.append(game.decision.player)
        game.play("decline")
    assert asked == [0, 1] and game.decision is not None and (game.decision.player, game.decision.kind) == (0, "main")
    setup = {"turn": "p2", "game_starts": True, "p1": {"hand": ["9S"]}, "p2": {"hand": ["3D"]}}
    state = build_position(rules, setup, 0)
    assert state.pending is not None and (state.pending.player, state.pending.ask) == (1, True)
    page = rules_page(rules)
    assert "When the game starts, for each player in turn (first the player who moves first, then the other" in page
    assert "you may mulligan (or decline): let n be the number of cards in your hand" in page


@pytest.mark.parametrize(
    "body, code, says",
    [
        (
            "triggers:\n  t:\n    event: turn starts\n    effect: if me agrees to decline then draw 1 end\n",
            "E217",
            "decline",
        ),
        (
            "triggers:\n  t:\n    event: turn starts\n"
            "    effect: for each c in scrap do if me agrees to x then pass end end\n",
            "E208",
            "if ... agrees",
        ),
        ("triggers:\n  t:\n    event: game starts\n    for: every player\n    effect: draw 1\n", "E026", "each player"),
        ("triggers:\n  t:\n    event: game starts\n    effect: if scrap agrees to x then draw 1 end\n", "E2", "player"),
    ],
)
def test_a_wrong_question_is_a_clear_error(tmp_path: Path, body: str, code: str, says: str) -> None:
    (e,) = check(str(house_file(tmp_path, body)))
    assert e.code.startswith(code) and says in str(e) and e.where is not None
