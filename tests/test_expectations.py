"""The scenario runner's own comparisons: for every expectation key it accepts, a right value passes and
a wrong one fails with a message saying what was expected and what is so. The table below must have a
row for every key of the runner (`EXPECT_KEYS`, `SIDE_EXPECT`): a new key without its rows fails here.

Exact where docs/scenarios.md says exact: `scrap`, `hand`, `points`, `royals` fail on a missing card
and on an extra one; `deck_top` fails on the wrong order.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter.scripting.expectations import EXPECT_KEYS, SIDE_EXPECT
from interpreter.scripting.scenario import run_file

# p1: 12 points (3H, and 9C stolen with JD), a King (goal 14), 2 cards; p2: 10 points, 2 cards.
# 52 cards - 11 placed = 41 in the deck, 5S on top, then 9D.
BASE = """\
ruleset: default
setup:
  turn: p1
  p1: {hand: [9S, 2C], points: [3H, "9C+JD"], royals: [KS]}
  p2: {hand: [3D, 5C], points: [10C]}
  deck: [5S, 9D]
  scrap: [3C, 4C]
"""

# knowledge: p1 knows the deck's top card and one card of p2's hand; p2 knows nothing hidden
KNOW = """\
ruleset: default
setup:
  turn: p1
  p1: {hand: [9S, 2C], knows: [5S, 3D]}
  p2: {hand: [3D, 5C]}
  deck: [5S, 9D]
"""

KNOWS = "p1 knows (the hidden cards of the deck, the opponent's hand and face down in play): "

# a match: p1 has won the first hand, the second is being played
MATCH = """\
ruleset: default+best-of-5
setup:
  turn: p2
  p1: {hand: [9S]}
  p2: {hand: [3D]}
  match: {p1: 1, p2: 0}
"""

# turn state, marks and counters (a house ruleset written beside the case: COUNTED_RULES); each player's
# marks and counters differ, so a check that reads the other seat's fails
COUNTED = """\
ruleset: counted.yaml
setup:
  turn: p1
  turn_number: 5
  p1: {hand: [9S], marks: [wronged], counters: {tally: 2}}
  p2: {hand: [3D], marks: [slighted], counters: {tally: 1}}
  cards:
    9S: {marks: [hot], counters: {uses: 3}}
"""
COUNTED_RULES = "name: counted\nkind: base\nextends: default\ncounters:\n  tally: {of: player}\n  uses: {of: card}\n"

# cards in other roles (a house ruleset written beside the case: VAULTED_RULES): p1 has 7H face up in its
# vault and 9S face down (seen by p1); p2 has 4D face down, unseen by anyone, and p1 knows it
VAULTED = """\
ruleset: vaulted.yaml
setup:
  turn: p1
  p1: {hand: [2C], roles: {vault: [7H]}, face_down: {vault: [9S]}, knows: [4D]}
  p2: {hand: [3D], unseen: {vault: [4D]}}
"""
VAULTED_RULES = (
    "name: vaulted\nkind: base\nextends: default\nplays:\n  stash:\n    verb: stash\n    cards: 0\n"
    "    effect: choose 1 from hand of me by me as pick; move pick to field of me as vault face down\n"
)

# (key, position, values that hold, [(a value that does not hold, what the failure says)])
Row = tuple[str, str, list[Any], list[tuple[Any, str]]]
GAME_ROWS: list[Row] = [
    ("turn", BASE, ["p1"], [("p2", "turn: expected p2, got p1")]),
    ("decider", BASE, ["p1"], [("p2", "decider: expected p2, got p1"), ("nobody", "decider: expected nobody, got p1")]),
    (
        "decision",
        BASE,
        ["main"],
        [("respond", "decision: expected respond, got main"), ("none", "decision: expected none, got main")],
    ),
    (
        "winner",
        BASE,
        ["none"],
        [
            ("p1", "winner: expected p1, got none (the game goes on)"),
            ("draw", "winner: expected draw, got none (the game goes on)"),
        ],
    ),
    ("winners", BASE, [[]], [(["p1"], "winners: expected [p1], got []")]),
    (
        "scrap",
        BASE,
        [["3C", "4C"], ["4C", "3C"]],
        [
            (["3C"], "scrap: expected [3C], got [3C, 4C]: 4C is there but not expected"),
            (["3C", "4C", "5D"], "scrap: expected [3C, 4C, 5D], got [3C, 4C]: 5D is missing (in the deck)"),
            (["3C", "9S"], "scrap: expected [3C, 9S], got [3C, 4C]: 9S is missing (in p1's hand); 4C is there but"),
            ([], "scrap: expected [], got [3C, 4C]"),
        ],
    ),
    (
        "scrap_has",
        BASE,
        [["4C"], ["3C", "4C"]],
        [
            (["5D"], "scrap to contain [5D], but [5D] not in it"),
            (["3C", "9D"], "scrap to contain [3C, 9D], but [9D] not in it"),
        ],
    ),
    (
        "deck_top",
        BASE,
        [["5S"], ["5S", "9D"]],
        [
            (["9D", "5S"], "deck top (top card first): expected [9D, 5S], got [5S, 9D]: the same cards, in another"),
            (["9D"], "deck top (top card first): expected [9D], got [5S]: 9D is in the deck, card 2 from the top; 5S"),
            (["3D", "5S"], "deck top (top card first): expected [3D, 5S], got [5S, 9D]: 3D is in p2's hand; 9D is"),
        ],
    ),
    (  # (a stack of cards resolving, bottom first: tests/scenarios/default/ruling-20-*.yaml)
        "stack",
        BASE,
        [[]],
        [
            (["9S"], "stack (bottom first): expected [9S], got []: 9S is missing (in p1's hand)"),
            (["9S", "2C"], "stack (bottom first): expected [9S, 2C], got []"),
        ],
    ),
    ("deck_count", BASE, [41], [(40, "deck count: expected 40, got 41"), (0, "deck count: expected 0, got 41")]),
    (
        "legal",
        BASE,
        ["points 9S", ["draw", "oneoff 9S 10C"], [{"move": "draw", "by": "p1"}]],
        [
            ("oneoff 2C 10C", "'oneoff 2C 10C' to be legal: expected legal, got illegal ("),
            (["draw", "resolve"], "'resolve' to be legal: expected legal, got illegal"),
            (
                [{"move": "draw", "by": "p2"}],
                "'draw' by p2 to be legal: expected legal, got illegal ('draw' is illegal for p2: it is p1's turn, "
                "not p2's)",
            ),
        ],
    ),
    (
        "illegal",
        BASE,
        [
            "oneoff 2C 10C",
            ["resolve", "points 3D"],
            [{"move": "points 3D", "error": "not in your hand"}],
            [{"move": "oneoff 2C 10C", "error": "NOT A LEGAL TARGET"}, "resolve"],
            [{"move": "draw", "by": "p2"}, {"move": "points 5C", "by": "p2", "error": "it is p1's turn"}],
            [{"move": "points 3D", "by": "p1", "error": "not in your hand"}],  # p1's turn: as without `by`
        ],
        [
            ("points 9S", "'points 9S' to be illegal: expected illegal, got legal"),
            ([{"move": "draw", "by": "p1"}], "'draw' by p1 to be illegal: expected illegal, got legal"),
            (["resolve", "draw"], "'draw' to be illegal: expected illegal, got legal"),
            (
                [{"move": "points 3D", "error": "queen"}],
                "'points 3D' to be illegal with an error containing 'queen', but its error is: ",
            ),
        ],
    ),
    (
        "hand_visible",
        BASE,
        [{"p1": False, "p2": False}, {"p2": False}],
        [
            ({"p1": True}, "p1 to see the opponent's hand: expected True, got False"),
            ({"p1": False, "p2": True}, "p2 to see the opponent's hand: expected True, got False"),
        ],
    ),
    (
        "match",
        MATCH,
        [{"p1": 1, "p2": 0}, {"p1": 1}],
        [
            ({"p1": 0}, "hands won: expected {'p1': 0}, got {'p1': 1, 'p2': 0}"),
            ({"p2": 1}, "hands won: expected {'p2': 1}, got {'p1': 1, 'p2': 0}"),
        ],
    ),
    ("hand_number", MATCH, [2], [(1, "hand number: expected 1, got 2"), (3, "hand number: expected 3, got 2")]),
    (
        "legal_exactly",
        BASE,
        [["draw", "points 9S", "points 2C", "oneoff 9S 10C"], ["oneoff 9s 10c", "points 2C", "draw", "points 9S"]],
        [
            (["draw", "points 9S"], "legal moves exactly [draw, points 9S], but also legal: oneoff 9S 10C, points 2C"),
            (
                ["draw", "points 9S", "points 2C", "oneoff 9S 10C", "scuttle 9S 10C"],
                "legal moves exactly [draw, points 9S, points 2C, oneoff 9S 10C, scuttle 9S 10C], but not legal: "
                "scuttle 9S 10C",
            ),
        ],
    ),
    (
        "owner",
        BASE,
        [{"3H": "p1", "KS": "p1", "10C": "p2", "JD": "p1"}, {"9C": "p2", "5S": "nobody"}],
        [
            ({"9C": "p1"}, "owner of 9C: expected p1, got p2 (controlled by p1)"),
            ({"3D": "p2"}, "owner of 3D: expected p2, got nobody (not in play)"),
        ],
    ),
    ("turn_number", COUNTED, [5], [(1, "turn number: expected 1, got 5")]),
    (
        "cards",
        COUNTED,
        [
            {"9S": {"marks": ["hot"]}},
            {"9S": {"counters": {"uses": 3}}, "3D": {"marks": []}},
            {"9s": {"marks": ["hot"], "counters": {"uses": 3}}},
        ],
        [
            ({"9S": {"marks": []}}, "9S marks: expected [], got [hot]"),
            ({"3D": {"marks": ["hot"]}}, "3D marks: expected [hot], got []"),
            ({"9S": {"counters": {"uses": 2}}}, "9S counters: expected {'uses': 2}, got {'uses': 3}"),
            ({"9S": {"counters": {"tally": 2}}}, "9S counters: 'tally' is not a counter of cards in this ruleset"),
        ],
    ),
]

SIDE_ROWS: list[Row] = [
    (
        "p1.hand",
        BASE,
        [["9S", "2C"], ["2C", "9S"]],
        [
            (["9S"], "p1 hand: expected [9S], got [2C, 9S]"),
            (["9S", "2C", "3D"], "p1 hand: expected [2C, 3D, 9S], got [2C, 9S]: 3D is missing (in p2's hand)"),
        ],
    ),
    ("p2.hand", BASE, [["3D", "5C"]], [([], "p2 hand: expected [], got [3D, 5C]")]),
    ("p1.hand_has", BASE, [["9S"], ["2C", "9S"]], [(["3D"], "p1 hand to contain [3D], but [3D] not in it")]),
    ("p2.hand_has", BASE, [["5C"]], [(["9S", "5C"], "p2 hand to contain [9S, 5C], but [9S] not in it")]),
    ("p1.hand_count", BASE, [2], [(3, "p1 hand count: expected 3, got 2"), (0, "p1 hand count: expected 0, got 2")]),
    ("p2.hand_count", BASE, [2], [(1, "p2 hand count: expected 1, got 2")]),
    (
        "p1.points",
        BASE,
        [["3H", "9C+JD"], ["9C+JD", "3H"], ["3H", "9C+*"]],
        [
            (["3H"], "p1 points: expected [3H], got [3H, 9C+JD]"),
            (["3H", "9C"], "p1 points: expected [3H, 9C], got [3H, 9C+JD]: 9C has the Jacks 9C+JD"),  # no Jack on it
            (["3H+*", "9C+JD"], "p1 points: expected [3H+*, 9C+JD], got [3H, 9C+JD]: 3H has no Jack"),
            (
                ["3H", "9C", "10C"],
                "p1 points: expected [10C, 3H, 9C], got [3H, 9C+JD]: 10C is missing (a point card of p2)",
            ),
            (["3H", "9C+JH"], "p1 points: expected [3H, 9C+JH], got [3H, 9C+JD]"),
            (["3H", "9C+JD+JH"], "p1 points: expected [3H, 9C+JD+JH], got [3H, 9C+JD]"),
        ],
    ),
    (
        "p2.points",
        BASE,
        [["10C"]],
        [([], "p2 points: expected [], got [10C]"), (["10C", "9C"], "p2 points: expected [10C, 9C], got [10C]")],
    ),
    (
        "p1.royals",
        BASE,
        [["KS"]],
        [
            ([], "p1 royals: expected [], got [KS]: KS is there but not expected"),
            (["KS", "QH"], "p1 royals: expected [QH, KS], got [KS]: QH is missing (in the deck)"),
        ],
    ),
    ("p2.royals", BASE, [[]], [(["KS"], "p2 royals: expected [KS], got []")]),
    ("p1.score", BASE, [12], [(3, "p1 score: expected 3, got 12"), (21, "p1 score: expected 21, got 12")]),
    ("p2.score", BASE, [10], [(0, "p2 score: expected 0, got 10")]),
    ("p1.goal", BASE, [14], [(21, "p1 goal: expected 21, got 14")]),
    ("p2.goal", BASE, [21], [(14, "p2 goal: expected 14, got 21")]),
    (
        "p1.knows",
        KNOW,
        [["5S", "3D"], ["3D", "5S"]],
        [
            (["5S"], KNOWS + "expected [5S], got [3D, 5S]"),
            (["5S", "3D", "9D"], KNOWS + "expected [3D, 5S, 9D], got [3D, 5S]"),
            (
                ["5S", "3D", "2C"],
                KNOWS + "expected [2C, 3D, 5S], got [3D, 5S]: 2C is not hidden from p1 (in p1's hand)",
            ),
        ],
    ),
    (
        "p2.knows",
        KNOW,
        [[]],
        [
            (
                ["5S"],
                KNOWS.replace("p1", "p2") + "expected [5S], got []",
            )
        ],
    ),
    (
        "p1.does_not_know",
        KNOW,
        [["9D"], ["9D", "5C"]],
        [
            (["5S"], "p1 not to know [5S], but p1 sees or knows 5S (in the deck)"),
            (["9D", "9S"], "p1 not to know [9D, 9S], but p1 sees or knows 9S (in p1's hand)"),
        ],
    ),
    (
        "p2.does_not_know",
        KNOW,
        [["5S", "9D", "9S", "2C"]],
        [(["5C"], "p2 not to know [5C], but p2 sees or knows 5C (in p2's hand)")],
    ),
    (
        "p1.roles",
        VAULTED,
        [{"vault": ["7H"]}],
        [
            ({"vault": []}, "p1 face-up vault cards: expected [], got [7H]: 7H is there but not expected"),
            (
                {"vault": ["9S"]},
                "p1 face-up vault cards: expected [9S], got [7H]: 9S is missing (face down in play (p1))",
            ),
        ],
    ),
    ("p2.roles", VAULTED, [{"vault": []}], [({"vault": ["4D"]}, "p2 face-up vault cards: expected [4D], got []")]),
    (
        "p1.face_down",
        VAULTED,
        [{"vault": ["9S"]}],
        [
            (
                {"vault": ["9S", "7H"]},
                "p1 face-down vault cards: expected [7H, 9S], got [9S]: 7H is missing (in play (p1))",
            )
        ],
    ),
    (
        "p2.face_down",
        VAULTED,
        [{"vault": ["4D"]}],
        [({"vault": []}, "p2 face-down vault cards: expected [], got [4D]")],
    ),
    ("p1.marks", COUNTED, [["wronged"]], [([], "p1 marks: expected [], got [wronged]")]),
    ("p2.marks", COUNTED, [["slighted"]], [([], "p2 marks: expected [], got [slighted]")]),
    ("p1.counters", COUNTED, [{"tally": 2}], [({"tally": 1}, "p1 counters: expected {'tally': 1}, got {'tally': 2}")]),
    ("p2.counters", COUNTED, [{"tally": 1}], [({"tally": 2}, "p2 counters: expected {'tally': 2}, got {'tally': 1}")]),
]
ROWS = GAME_ROWS + SIDE_ROWS


def _expect(key: str, value: Any) -> dict:
    if "." in key:
        side, k = key.split(".")
        return {side: {k: value}}
    return {key: value}


def _scenario(tmp_path: Path, position: str, expect: Any, moves: list | None = None) -> Path:
    p = tmp_path / "case.yaml"
    if position is COUNTED:
        (tmp_path / "counted.yaml").write_text(COUNTED_RULES, encoding="utf-8")
    if position is VAULTED:
        (tmp_path / "vaulted.yaml").write_text(VAULTED_RULES, encoding="utf-8")
    doc = {"moves": moves} if moves else {}
    doc["expect"] = expect
    p.write_text(position + yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return p


def test_the_table_has_a_row_for_every_key_of_the_runner() -> None:
    game_keys = {k for k, *_ in GAME_ROWS}
    assert game_keys == set(EXPECT_KEYS) - {"p1", "p2", "p3", "p4"}, (
        "add a row to GAME_ROWS for each new expectation key"
    )
    for side in ("p1", "p2"):
        assert {k.split(".")[1] for k, *_ in SIDE_ROWS if k.startswith(side + ".")} == set(SIDE_EXPECT), side
    assert {"p1", "p2"} <= set(EXPECT_KEYS)


@pytest.mark.parametrize("key,position,right,wrong", ROWS, ids=[r[0] for r in ROWS])
def test_a_right_value_passes_and_a_wrong_one_fails(
    tmp_path: Path, key: str, position: str, right: list, wrong: list
) -> None:
    for value in right:
        result = run_file(_scenario(tmp_path, position, _expect(key, value)))
        assert result.ok, f"{key}: {value!r} should hold:\n" + "\n".join(result.failures)
    for value, message in wrong:
        result = run_file(_scenario(tmp_path, position, _expect(key, value)))
        assert not result.ok, f"{key}: {value!r} should not hold"
        assert "final expectations (after the start): " + message in result.failures[0], result.failures


@pytest.mark.parametrize("key,position,right,wrong", ROWS, ids=[r[0] for r in ROWS])
def test_a_wrong_value_at_a_checkpoint_stops_the_scenario(
    tmp_path: Path, key: str, position: str, right: list, wrong: list
) -> None:
    value, message = wrong[0]
    moves = [{"expect": _expect(key, value)}, "this move is never played"]
    result = run_file(_scenario(tmp_path, position, {"turn": "p1"}, moves))
    assert not result.ok and "step 1 (after the start): " + message in result.failures[0], result.failures
    assert not any("never played" in f for f in result.failures)


# -- values of the wrong kind are errors of the file, not mismatches ------------------------------------

# (key, a value of the wrong kind, what the error says)
WRONG_KIND: list[tuple[str, Any, str]] = [
    ("turn", "p3", "turn must be one of p1, p2, not the text 'p3'"),
    ("decider", 1, "decider must be one of p1, p2, nobody, not 1"),
    ("decision", "mian", "decision must be one of main, respond, choose, play, none, not the text 'mian'"),
    ("winner", "nobody", "winner must be one of p1, p2, draw, none, not the text 'nobody'"),
    ("winners", ["p1", "p3"], "winners must be a list of players such as [p1, p3], not a list"),
    ("scrap", "3C", "scrap must be a list of cards, e.g. [7H, 10S], not the text '3C'"),
    ("scrap_has", ["3X"], "'3X' is not a card"),
    ("deck_top", ["5S", "5S"], "5S is listed twice in deck_top"),
    ("stack", "9S", "stack must be a list of cards, e.g. [7H, 10S], not the text '9S'"),
    ("deck_count", "41", "deck_count must be a whole number (0 or more), not the text '41'"),
    (
        "legal",
        [["draw"]],
        "legal must be a move or a list of moves, e.g. [draw, points 7H], or {move: MOVE, by: p1}, not a list",
    ),
    (
        "illegal",
        7,
        "illegal must be a move or a list of moves, e.g. [draw, points 7H], or {move: MOVE, error: TEXT, by: p1}, "
        "not 7",
    ),
    ("legal_exactly", "", "legal_exactly must be a move or a list of moves"),
    ("owner", ["7H"], "owner must be a mapping of cards to p1, p2 or nobody, e.g. {7H: p1, KS: p2}, not a list"),
    ("hand_visible", {"p1": "yes"}, "hand_visible.p1 must be true or false, not the text 'yes'"),
    ("match", {"p3": 1}, "match has a key 'p3': its keys are p1 and p2"),
    ("hand_number", -1, "hand_number must be a whole number (0 or more), not -1"),
    ("p1.hand", None, "p1.hand must be a list of cards, e.g. [7H, 10S], not nothing"),
    ("p2.hand_has", "9S", "p2.hand_has must be a list of cards, e.g. [7H, 10S], not the text '9S'"),
    ("p1.hand_count", "1", "p1.hand_count must be a whole number (0 or more), not the text '1'"),
    ("p2.points", "10C", "p2.points must be a list of point cards, e.g. [7H, \"9C+JD\"], not the text '10C'"),
    ("p1.royals", ["KS", "KS"], "KS is listed twice in p1.royals"),
    ("p1.score", 12.0, "p1.score must be a whole number (0 or more), not 12.0"),
    ("p2.goal", True, "p2.goal must be a whole number (0 or more), not true (yes/no)"),
    ("p1.knows", "5S", "p1.knows must be a list of cards, e.g. [7H, 10S], not the text '5S'"),
    ("p2.does_not_know", [], "p2.does_not_know is empty, so it checks nothing"),
    ("turn_number", "5", "turn_number must be a whole number (0 or more), not the text '5'"),
    ("cards", {"9S": []}, "cards.9S must be a mapping of marks: and/or counters:, e.g. {9S: {marks: [frozen]}}"),
    ("cards", {"9X": {"marks": []}}, "'9X' is not a card"),
    ("cards", [], "cards must map cards to their marks and counters"),
    ("cards", {"9S": {"marks": "hot"}}, "cards.9S.marks must be a list of mark names ([] for none)"),
    ("p1.marks", "wronged", "p1.marks must be a list of mark names, e.g. [wronged] ([] for none)"),
    ("p2.counters", {"tally": "2"}, "p2.counters must map counter names to numbers, e.g. {scuttles: 2}"),
    ("p1.roles", ["7H"], "p1.roles must map roles to cards, e.g. {vault: [7H]}, not a list"),
    ("p2.face_down", {}, "p2.face_down must map roles to cards, e.g. {vault: [7H]}, and this one is empty"),
]


def test_every_key_has_a_wrong_kind_case() -> None:
    keys = {k.split(".")[-1] for k, _, _ in WRONG_KIND}
    assert keys == (set(EXPECT_KEYS) - {"p1", "p2", "p3", "p4"}) | set(SIDE_EXPECT)


@pytest.mark.parametrize("key,value,message", WRONG_KIND, ids=[k for k, _, _ in WRONG_KIND])
def test_a_value_of_the_wrong_kind_is_a_clear_error(tmp_path: Path, key: str, value: Any, message: str) -> None:
    result = run_file(_scenario(tmp_path, BASE, _expect(key, value)))
    assert not result.ok and len(result.failures) == 1
    text = result.failures[0]
    assert "[S005] " + message in text and "expected" not in text.split("[S005]")[1].split("\n")[0], text
    # it names the file and the line of the wrong value: under its key, in the `expect:`
    lines = (tmp_path / "case.yaml").read_text(encoding="utf-8").splitlines()
    at = re.match(re.escape(str(tmp_path / "case.yaml")) + r":(\d+):\d+: \[S005\]", text)
    assert at, text
    expect_line = lines.index("expect:") + 1
    key_line = next(
        n for n, line in enumerate(lines, 1) if n > expect_line and line.strip().startswith(f"{key.split('.')[-1]}:")
    )
    assert int(at[1]) >= key_line, (text, lines[int(at[1]) - 1])


@pytest.mark.parametrize(
    "expect, at",
    [
        ("cards: {9S: {marks: hot}}", "hot"),
        ("cards: {9S: {counters: {uses: x}}}", "{uses: x}"),
        ("cards: {9X: {marks: []}}", "9X"),  # a card that is not one: at the card
        ("owner: {7H: p1, 9X: p2}", "9X"),
        ("owner: {7H: p3}", "p3"),
        ("match: {p1: 1, p3: 1}", "p3: 1"),  # a key that is not a player: at the key
        ("hand_visible: {p1: 'yes'}", "yes"),
        ("p2: {score: 1, hand_count: '1'}", "1"),
    ],
)
def test_an_error_deep_in_an_expectation_points_at_what_is_wrong(tmp_path: Path, expect: str, at: str) -> None:
    p = tmp_path / "case.yaml"
    p.write_text(f"{BASE}expect:\n  turn: p1\n  {expect}\n", encoding="utf-8")
    result = run_file(p)
    where = re.match(re.escape(f"{p}:") + r"(\d+):(\d+): \[S005\]", result.failures[0])
    assert where and int(where[1]) == len(BASE.splitlines()) + 3, result.failures
    assert f"  {expect}"[int(where[2]) - 1 :].startswith(at), result.failures[0]


def test_a_number_written_in_quotes_is_told_to_lose_them(tmp_path: Path) -> None:
    result = run_file(_scenario(tmp_path, BASE, {"deck_count": "41"}))
    assert not result.ok and result.failures[0].endswith("\n    write the number without quotes"), result.failures
    result = run_file(_scenario(tmp_path, BASE, {"deck_count": "many"}))
    assert not result.ok and "without quotes" not in result.failures[0]  # (not a number in quotes: no hint)


def test_a_wrong_kind_is_found_before_any_move_is_played(tmp_path: Path) -> None:
    """The final `expect:` is read first: a broken one is reported even when a move before it fails."""
    result = run_file(_scenario(tmp_path, BASE, {"p1": {"hand_count": "1"}}, moves=["points 8D"]))
    assert len(result.failures) == 1 and "p1.hand_count must be a whole number" in result.failures[0]


# -- expectations of nothing are refused -----------------------------------------------------------------


@pytest.mark.parametrize(
    "expect,message",
    [
        ({}, "expect is empty, so it checks nothing"),
        (None, "expect must be a mapping of expectations, e.g. {turn: p2, p1: {score: 7}}, not nothing"),
        ({"p1": {}}, "p1 must be a mapping of expectations (hand:, points:, score: ...), and this one is empty"),
        ({"legal": []}, "legal is empty, so it checks nothing"),
        ({"illegal": []}, "illegal is empty, so it checks nothing"),
        ({"scrap_has": []}, "scrap_has is empty, so it checks nothing"),
        ({"deck_top": []}, "deck_top is empty, so it checks nothing"),
        ({"p2": {"hand_has": []}}, "p2.hand_has is empty, so it checks nothing"),
        ({"match": {}}, "match must be a mapping such as {p1: 1, p2: 0} (hands won), and this one is empty"),
        ({"hand_visible": {}}, "hand_visible must be a mapping such as {p1: true, p2: false}"),
    ],
)
def test_an_expectation_of_nothing_is_refused(tmp_path: Path, expect: Any, message: str) -> None:
    for where in ("final", "step"):
        moves = [{"expect": expect}] if where == "step" else None
        result = run_file(_scenario(tmp_path, BASE, expect if where == "final" else {"turn": "p1"}, moves))
        assert not result.ok and message in result.failures[0], (where, result.failures)


# -- turns and decisions of a finished game --------------------------------------------------------------


def test_turn_and_decider_of_a_finished_game_say_that_it_is_over(tmp_path: Path) -> None:
    position = BASE.replace("hand: [9S, 2C]", "hand: [9S, 2C, 2D]")  # 12 + 2 = 14 points, the goal
    for key, message in [
        ("turn", "turn: expected p2, got p1 (the game is over; P1 wins: P1 reached the goal)"),
        ("decider", "decider: expected p1, got nobody (the game is over; P1 wins: P1 reached the goal)"),
        ("decision", "decision: expected main, got none (the game is over; P1 wins"),
    ]:
        want = "p2" if key == "turn" else "p1" if key == "decider" else "main"
        result = run_file(_scenario(tmp_path, position, {key: want}, moves=["points 2D"]))
        assert not result.ok and message in result.failures[0], result.failures
    result = run_file(_scenario(tmp_path, position, {"winner": "p1", "decider": "nobody"}, moves=["points 2D"]))
    assert result.ok, result.failures


# -- `{illegal: MOVE, error: TEXT}` steps ------------------------------------------------------------------


def test_an_illegal_step_checks_its_move_and_its_error_text(tmp_path: Path) -> None:
    def run(step: dict) -> list[str]:
        return run_file(_scenario(tmp_path, BASE, {"turn": "p1"}, moves=[step])).failures

    assert run({"illegal": "oneoff 2C 10C", "error": "NOT A LEGAL TARGET"}) == []  # any case
    assert run({"illegal": "oneoff 2C 10C"}) == []
    wrong = run({"illegal": "oneoff 2C 10C", "error": "not your turn"})
    assert len(wrong) == 1 and "is illegal as expected, but its error" in wrong[0]
    assert "10C is not a legal target" in wrong[0] and "does not contain 'not your turn'" in wrong[0]
    legal = run({"illegal": "points 9S"})
    assert len(legal) == 1 and "'points 9S' was expected to be illegal, but it is legal" in legal[0]
    typo = run({"illegal": "ponts 9S"})
    assert len(typo) == 1 and "but it is not a move of this ruleset, so this step tests nothing" in typo[0]
    assert "did you mean 'points'?" in typo[0]
    for bad, message in [
        ({"illegal": "points 9S", "error": ""}, "an empty one matches every error"),
        ({"illegal": None}, "illegal: must be a move"),
        ({"illegal": "points 9S", "eror": "x"}, "did you mean 'error'?"),
    ]:
        failures = run(bad)
        assert len(failures) == 1 and message in failures[0], failures


def test_an_expected_illegal_that_is_not_a_move_tests_nothing(tmp_path: Path) -> None:
    result = run_file(_scenario(tmp_path, BASE, {"illegal": ["scutle 9S 10C"]}))
    assert not result.ok and "is not a move of this ruleset, so it tests nothing" in result.failures[0]
    incomplete = run_file(_scenario(tmp_path, BASE, {"illegal": ["oneoff 9S"]}))
    assert incomplete.ok, "an incomplete move is illegal as written (`discard 3H` where two are due)"


def test_an_illegal_step_can_name_whose_move_it_is(tmp_path: Path) -> None:
    """`by: p1`: p1's draw is illegal while p2 decides, whatever p2 could do; without `by` the move is
    the decider's, so a check of p1 at p2's turn tested p2's move instead."""
    case = BASE.replace("turn: p1", "turn: p2")

    def run(step: dict) -> list[str]:
        result = run_file(_scenario(tmp_path, case, {"turn": "p2"}, [step]))
        return result.failures

    assert run({"illegal": "draw", "by": "p1", "error": "it is p2's turn, not p1's"}) == []
    assert run({"illegal": "points 9S", "by": "p1"}) == []  # p1 holds the 9S: illegal only out of turn
    wrong = run({"illegal": "draw", "by": "p2"})
    assert len(wrong) == 1 and "'draw' was expected to be illegal for p2, but it is legal" in wrong[0]
    mistyped = run({"illegal": "draw", "by": "p3"})
    assert len(mistyped) == 1 and "by: must be p1 or p2 (whose move it is), not 'p3'" in mistyped[0]


def test_every_problem_of_a_file_is_reported_at_once_each_at_its_line(tmp_path: Path) -> None:
    """Three typos, one run: each problem with its own file:line:col, in the order of the file."""
    p = tmp_path / "typos.yaml"
    p.write_text(
        "ruleset: default\n"
        "setup:\n"
        "  p1: {hand: [9S, 7X]}\n"  # line 3: no such card
        "moves:\n"
        "  - points 9S\n"
        "  - expect: {decidr: p2}\n"  # line 6: an unknown expectation
        "expect:\n"
        "  p1: {scroe: 9}\n"  # line 8
        "  winner: p3\n",  # line 9
        encoding="utf-8",
    )
    result = run_file(p)
    heads = [f.splitlines()[0] for f in result.failures]
    assert [h.split(": [")[0] for h in heads] == [f"{p}:3:19", f"{p}:6:14", f"{p}:8:8", f"{p}:9:11"], heads
    assert "'7X' is not a card" in heads[0] and "unknown expectation 'decidr'" in heads[1]
    assert "unknown expectation 'scroe' for p1" in heads[2] and "winner must be one of" in heads[3]


def test_each_failing_final_expectation_points_at_its_own_line(tmp_path: Path) -> None:
    p = _scenario(tmp_path, BASE, {"turn": "p2", "deck_count": 41, "p1": {"score": 3}})
    result = run_file(p)
    lines = [int(f.split(":")[1]) for f in result.failures if "final expectations" in f]
    text = p.read_text(encoding="utf-8").splitlines()
    assert [text[n - 1].strip().split(":")[0] for n in lines] == ["turn", "score"], result.failures
