"""Verdicts that explain (lab/explain.py): balance toward or away from even, the endings that changed
and who won them, the new or changed plays chosen rarely where legal, questions answered yes and no."""

from __future__ import annotations

import json

import pytest

from interpreter.cli import main
from interpreter.lab import explain
from interpreter.lab.sim import simulate

HOUSE = "examples/house"


def test_balance_says_whether_the_edge_moved_toward_even() -> None:
    a = ["p1"] * 600 + ["p2"] * 400  # edge +20 points
    b = ["p1"] * 500 + ["p2"] * 500  # even
    x = explain.balance(a, b, paired=True)
    assert x["a"] == pytest.approx(0.2) and x["b"] == 0 and x["closer_to_even"] == pytest.approx(0.2)
    assert x["detectable"] and x["ci95"][0] > 0
    assert "moves the game toward even: the first player's edge +20.0 → +0.0 pts" in explain.balance_sentence(x, "B")
    back = explain.balance(b, a, paired=True)
    assert back["closer_to_even"] == pytest.approx(-0.2)
    assert "away from even" in explain.balance_sentence(back, "B")
    # an edge that changes side but not size is no closer to even
    mirror = explain.balance(a, ["p2"] * 600 + ["p1"] * 400, paired=False)
    assert mirror["closer_to_even"] == pytest.approx(0.0) and not mirror["detectable"]
    assert explain.balance_sentence(mirror, "B").startswith("no detectable change in balance")


def test_an_ending_is_told_with_who_won_it_and_the_ties() -> None:
    la = ["goal at 21"] * 10
    ga = {"winner": ["p1"] * 6 + ["p2"] * 4, "p1_points": [21] * 10, "p2_points": [3] * 10}
    lb = ["goal at 21"] * 4 + ["round limit"] * 6
    gb = {
        "winner": ["p1"] * 4 + ["p2"] * 6,
        "p1_points": [21] * 4 + [0, 0, 0, 0, 5, 9],
        "p2_points": [3] * 4 + [0, 0, 0, 0, 2, 9],
    }
    shares = {"goal at 21": {"detectable": True}, "round limit": {"detectable": True}}
    found = explain.endings(la, ga, lb, gb, shares)
    assert [e["ending"] for e in found] == ["goal at 21", "round limit"]
    limit = explain.ending_sentence(found[1], "A", "B")
    assert limit == "round limit ended 6 games under B (p2 won 6; 5 of them on a tie in points, 4 at 0–0), none under A"
    assert json.dumps(found)  # JSON as it is
    gone = explain.endings(lb, gb, la, ga, {})  # the ending gone under B is still told (no share given)
    assert [e["ending"] for e in gone] == ["round limit"]
    assert explain.ending_sentence(gone[0], "A", "B").endswith(", none under B")


def test_an_ending_as_common_as_before_whose_winners_changed_is_told_so() -> None:
    """Every game ends at the goal under both, p1 winning 90 of 100 under A and 10 under B: the share
    is the same, the winners are not (`winners_changed`); the same winners under both: not told."""
    la = lb = ["goal at 21"] * 100
    ga = {"winner": ["p1"] * 90 + ["p2"] * 10, "p1_points": [21] * 100, "p2_points": [21] * 100}
    gb = {"winner": ["p1"] * 10 + ["p2"] * 90, "p1_points": [21] * 100, "p2_points": [21] * 100}
    shares = {"goal at 21": {"detectable": False}}
    found = explain.endings(la, ga, lb, gb, shares)
    assert [(e["ending"], e["share_changed"], e["winners_changed"]) for e in found] == [("goal at 21", False, True)]
    assert explain.endings(la, ga, la, ga, shares) == []


def test_a_play_a_rule_adds_that_is_legal_often_but_chosen_rarely_is_named() -> None:
    table = [
        {"kind": "play", "name": "wall", "origin": "from ten-wall", "seat_games_offered": 400, "seat_games_chosen": 3},
        {"kind": "play", "name": "points", "origin": "", "seat_games_offered": 400, "seat_games_chosen": 3},
        {"kind": "play", "name": "nine", "origin": "changed by x", "seat_games_offered": 400, "seat_games_chosen": 80},
        {"kind": "play", "name": "rare", "origin": "from x", "seat_games_offered": 10, "seat_games_chosen": 0},
    ]
    found = explain.rarely_chosen(table, games=200)
    assert [x["name"] for x in found] == ["wall"]  # not the base's own, nor one used, nor one seldom legal
    assert [x["name"] for x in explain.rarely_chosen(table, 200, changed={"points"})] == ["wall", "points"]
    assert "wall (legal in 400 seat-games, chosen in 3)" in explain.rarely_sentence(found)


def test_questions_are_counted_as_answered_yes_and_no() -> None:
    report = simulate([f"{HOUSE}/mulligan.yaml"], games=40, players=("random", "random"), seed=5, jobs=1)
    s = report.summaries["a"]
    q = s["questions"]["the rule mulligan: mulligan"]
    assert q["asked"] == 80  # each player once a game
    assert q["yes"] + q["no"] == 80 and q["yes"] > 10 and q["no"] > 10
    names = {e["name"]: e["used"] for e in s["rules"] if e["kind"] == "choice"}
    assert names["the rule mulligan: mulligan"] == q["yes"]
    assert names["the rule mulligan: mulligan, declined"] == q["no"]


def test_compares_verdict_explains_a_new_ending(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    rule = tmp_path / "limit.yaml"
    rule.write_text(
        "name: limit\nkind: base\nextends: default\ntriggers:\n  limit:\n    event: turn ends\n"
        "    when: turn >= 16\n    effect: win opponent\n"
    )
    assert main(["compare", "default", str(rule), "--games", "150", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    diff = data["differences"]
    new = [e for e in diff["endings_changed"] if e["ending"] == "triggers.limit (a rule's win)"]
    assert (
        new
        and new[0]["a"]["games"] == 0
        and new[0]["b"]["games"] == data["b"]["ends"]["triggers.limit (a rule's win)"]["count"]
    )
    assert "balance" in diff and diff["balance"]["a"] == pytest.approx(data["a"]["quality"]["advantage"]["value"])
    said = [line for line in data["verdict"] if line.startswith("triggers.limit (a rule's win) ended")]
    assert said and said[0].endswith(", none under default")
