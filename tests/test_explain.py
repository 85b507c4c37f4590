"""`explain`: why a move is illegal, in words a player reads first, the rule's own text after."""

from __future__ import annotations

from interpreter import Game, load_ruleset
from interpreter.scripting.setup import build_position


def game(spec: str, setup: dict) -> Game:
    rules = load_ruleset(spec)
    return Game(rules, build_position(rules, setup, 0), 0, setup)


def test_a_scuttle_on_a_higher_card_says_which_card_does_not_beat_which() -> None:
    g = game("default", {"p1": {"hand": ["5S"]}, "p2": {"points": ["8C"], "royals": ["KD"]}})
    why = g.explain("scuttle 5S 8C")
    assert why.startswith("5♠ does not beat 8♣ (a scuttle needs a higher value, or the same value and a higher suit)")
    assert why.endswith("the rule: `field of opponent where it.role == point and beats(card, it)`")
    assert g.explain("scuttle 5S KD").startswith("K♦ is not a point card")


def test_a_protected_target_is_named() -> None:
    g = game("default", {"p1": {"hand": ["JC"]}, "p2": {"points": ["7C"], "royals": ["QD"]}})
    assert g.explain("jack JC 7C").startswith("7♣ is protected")


def test_no_window_under_classic_2s_names_the_option() -> None:
    g = game("default+classic-2s", {"p1": {"hand": ["KS"]}, "p2": {"hand": ["2C", "3D"]}})
    g.play("royal KS")
    why = g.explain("resolve")
    assert why.startswith(
        "there is nothing to resolve: P1's royal K♠ cannot be countered: Royals cannot be countered under classic-2s"
    )
    assert "counter" in g.explain("counter 2C") and "classic-2s" in g.explain("counter 2C")


def test_no_window_because_of_the_players_queen() -> None:
    g = game("default", {"p1": {"hand": ["KS"], "royals": ["QH"]}, "p2": {"hand": ["2C", "3D"]}})
    g.play("royal KS")
    assert "P1's royal K♠ could not be countered, because your opponent has a Queen" in g.explain("counter 2C 3D")


def test_a_counter_by_a_queen_holder_cannot_be_answered_and_says_why() -> None:
    g = game("default", {"p1": {"hand": ["6S"]}, "p2": {"hand": ["2C", "3D"], "royals": ["QH"]}})
    g.play("oneoff 6S")
    g.play("counter 2C 3D")
    assert g.decision.player == 1 and g.decision.kind == "main"  # the chain settled at once
    assert "P2's counter 2♣ 3♦ could not be countered, because you have a Queen" in g.explain("counter 2C 3D")


def test_points_cannot_be_countered_and_it_says_so() -> None:
    g = game("default", {"p1": {"hand": ["10S"]}, "p2": {"hand": ["2C", "3D"]}})
    g.play("points 10S")
    assert "P1's points 10♠ cannot be countered (only one-offs" in g.explain("counter 2C 3D")


def test_tens_cannot_be_twinned() -> None:
    g = game("default+twinned", {"p1": {"hand": ["10C", "10D", "KS", "KH"]}, "p2": {"hand": ["2C"]}})
    assert g.explain("points 10C 10D") == "10s cannot be twinned: no play takes 2 10s together"
    assert g.explain("oneoff 10C 10D") == "10s cannot be twinned: no play takes 2 10s together"
    assert g.explain("points KS KH") == "'points' does not take 2 Kings together (that is: royal)"
    assert g.explain("royal KS KH") == "'royal KS KH' is legal"


def test_at_three_seats_the_reason_reads_the_opponent_the_engine_read(tmp_path) -> None:
    """A kind's `counterable` that reads `opponent`: at a table of three, a play aimed at P3 binds
    `opponent` to P3, as the engine binds it (not to P1, the other player of a two-seat game); the
    reason is told from P3's Queen, and the same play aimed at P1 opens the window."""
    opt = tmp_path / "their-queen.yaml"
    opt.write_text(
        "name: their-queen\nkind: option\nkinds:\n  oneoff:\n    counterable: not uncounterable(opponent)\n",
        encoding="utf-8",
    )
    g = game(
        f"default+cutthroat+{opt}",
        {"p1": {"hand": ["2C"]}, "p2": {"hand": ["6S", "2D"]}, "p3": {"hand": ["2H"], "royals": ["QH"]}, "turn": "p2"},
    )
    g.play("oneoff 6S p1")
    assert g.decision.kind == "respond"  # P1 has no Queen: the window opens
    g.undo()
    g.play("oneoff 6S p3")
    assert g.decision.kind != "respond"  # P3, the opponent aimed at, has a Queen: no window
    why = g.explain("counter 2C")
    assert "P2's oneoff 6♠ P3 could not be countered, because you have a Queen" in why, why  # told to P3


def test_a_counter_that_costs_more_cards_than_the_hand_holds_says_how_many() -> None:
    g = game("default+teams", {"p1": {"hand": ["KS"]}, "p2": {"hand": ["2C"]}})
    g.play("royal KS")
    assert g.explain("counter 2C") == "counter costs a 2 and 1 more card of p2's choice; p2 holds only 1"


def test_a_card_not_in_the_hand_is_not_taken_for_a_twin() -> None:
    g = game("default", {"p1": {"hand": ["5C", "5D"]}})
    assert g.explain("oneoff 5C 5H") == "that combination is not allowed; legal: oneoff 5C, oneoff 5D"
    assert g.explain("oneoff 5C 5D") == "5s cannot be twinned: no play takes 2 5s together"


def test_a_target_outside_a_plain_set_is_explained_by_the_rule_and_the_targets_there_are(tmp_path) -> None:
    f = tmp_path / "dig.yaml"
    f.write_text(
        "name: dig\nextends: default\nplays:\n  dig:\n    verb: dig\n    cards: 0\n    target: scrap\n"
        "    effect: move target to hand of me\n",
        encoding="utf-8",
    )
    g = game(str(f), {"p1": {"hand": ["10C"]}, "scrap": ["KS", "5H"]})
    assert g.explain("dig 3S") == (
        "3S is not a legal target: dig may target one of the scrap (rule: `scrap`); legal targets now: KS, 5H"
    )
