"""`cuttle sweep RULESET --set KEY=V1,V2,...` (issue 27 item 5): one summary per value, on the same
seeds for every value, each value's ruleset the one a file extending the ruleset would make, a grid of
several --set, resumable with --out, a report against the value, and bad keys or values refused
with the loader's own message naming them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.core.errors import CuttleError
from interpreter.lab import report
from interpreter.lab.sweep import sweep
from interpreter.rules.overrides import parse_setting, split_values
from tests.scenario_util import house_file

ROOT = Path(__file__).resolve().parent.parent


def sweep_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict]:
    assert main(["sweep", *argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_one_summary_per_value_with_its_value(capsys: pytest.CaptureFixture[str]) -> None:
    got = sweep_json(["default", "--set", "end.goal=14,21", "--games", "12", "--seed", "3", "--jobs", "1"], capsys)
    assert [s["set"] for s in got] == [{"end.goal": 14}, {"end.goal": 21}]
    assert [s["label"] for s in got] == ["end.goal=14", "end.goal=21"]
    assert all(s["games"] == 12 and s["p1_wins"] + s["p2_wins"] + s["draws"] + s["unfinished"] == 12 for s in got)
    ends = [set(s["ends"]) for s in got]
    assert {k for k in ends[0] if k.startswith("goal")} == {"goal at 14"}  # the value did set the goal
    assert {k for k in ends[1] if k.startswith("goal")} == {"goal at 21"}


def test_a_value_plays_as_the_file_that_extends_the_ruleset_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The variant is built as data, and plays exactly the games of a house rule file that sets the
    same value (same seeds: game i of each value is game i of `cuttle sim` of that file)."""
    got = sweep_json(["default", "--set", "constants.hand_limit=3,8", "--games", "15", "--jobs", "1"], capsys)
    house = house_file(tmp_path, "constants:\n  hand_limit: 3\n")
    assert main(["sim", str(house), "--games", "15", "--jobs", "1", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    keys = ("p1_wins", "p2_wins", "draws", "turns", "real_choices", "plays", "ends", "quality")
    assert {k: got[0][k] for k in keys} == {k: alone[k] for k in keys}
    assert main(["sim", "default", "--games", "15", "--jobs", "1", "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert {k: got[1][k] for k in keys} == {k: default[k] for k in keys}  # 8 is the default's own limit
    assert got[0]["turns"] != got[1]["turns"]


def test_every_value_plays_the_same_seeds_and_a_rerun_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["default", "--set", "end.goal=12,16,21", "--seed", "5", "--jobs", "1", "--out", str(out)]
    sweep_json([*args, "--games", "6"], capsys)
    resumed = sweep("default", ["end.goal=12,16,21"], 10, ("random", "random"), seed=5, jobs=1, out=out)
    assert (resumed.resumed, resumed.played) == (6, 4)
    line = next(h for h in report.header(resumed) if h.startswith("played"))
    assert line.startswith("played 12 games (4 per value) in") and "; 6 per value were already in" in line, line
    con = sqlite3.connect(out / "games.sqlite")
    try:
        per_idx = con.execute("SELECT idx, COUNT(*), COUNT(DISTINCT seed) FROM games GROUP BY idx").fetchall()
        sides = con.execute("SELECT side, spec FROM rulesets ORDER BY side").fetchall()
    finally:
        con.close()
    assert per_idx == [(i, 3, 1) for i in range(10)]  # every game number once per value, one seed
    assert sides == [(f"v{i}", f"default --set end.goal={g}") for i, g in ((1, 12), (2, 16), (3, 21))]
    fresh = sweep("default", ["end.goal=12,16,21"], 10, ("random", "random"), seed=5, jobs=1)
    assert resumed.json() == fresh.json()
    assert {"report.html", "report.md", "games.sqlite"} <= {p.name for p in out.iterdir()}


def test_several_sets_make_a_grid(capsys: pytest.CaptureFixture[str]) -> None:
    got = sweep_json(
        ["default", "--set", "end.goal=14,21", "--set", "constants.hand_limit=4,8", "--games", "4", "--jobs", "1"],
        capsys,
    )
    assert [s["set"] for s in got] == [
        {"end.goal": 14, "constants.hand_limit": 4},
        {"end.goal": 14, "constants.hand_limit": 8},
        {"end.goal": 21, "constants.hand_limit": 4},
        {"end.goal": 21, "constants.hand_limit": 8},
    ]
    assert {s["pairing"] for s in got} == {"paired: game i of every value starts from the same deal (the same seeds)"}


def test_a_sweep_over_the_deal_says_in_its_json_that_its_games_are_not_paired(
    capsys: pytest.CaptureFixture[str],
) -> None:
    got = sweep_json(["default", "--set", "deal.first=4,5", "--games", "2", "--jobs", "1"], capsys)
    assert all(s["pairing"].startswith("the same seeds for every value, but some values deal differently") for s in got)


def test_the_same_numbers_with_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["default", "--set", "end.goal=14,21", "--games", "20", "--seed", "2"]
    assert sweep_json([*args, "--jobs", "1"], capsys) == sweep_json([*args, "--jobs", "2"], capsys)


def test_values_with_commas_inside_brackets_are_one_value() -> None:
    assert split_values("[21, 14, 10],[18, 12, 9]") == ["[21, 14, 10]", "[18, 12, 9]"]
    assert parse_setting("constants.goals=[21, 14],[18, 12]").values == ("[21, 14]", "[18, 12]")
    # and commas inside quotes (an effect text), whichever quote, with the other quote inside
    assert split_values("'draw 1, then 2',\"say 'a, b'\",x") == ["'draw 1, then 2'", "\"say 'a, b'\"", "x"]


def test_a_trigger_named_with_spaces_or_a_dot_is_a_key_path(capsys: pytest.CaptureFixture[str]) -> None:
    """Trigger names are free text ("two jacks"): a key path takes them as written, or in double
    quotes when they hold a dot; sweeping the trigger's condition off leaves it dead."""
    assert parse_setting("triggers.two jacks.when=false").path == ("triggers", "two jacks", "when")
    assert parse_setting('triggers."a.b".when=false').path == ("triggers", "a.b", "when")
    visible = str(ROOT / "examples" / "house" / "every-rule-visible.yaml")
    on = "count(field of me where it.rank == J) >= 2"
    off_, on_ = sweep_json(
        [visible, "--set", f"triggers.two jacks.when=false,{on}", "--games", "30", "--seed", "2"], capsys
    )
    assert off_["triggers"]["two jacks"]["fired"] == 0 and "two jacks" in off_["dead"]
    assert on_["triggers"]["two jacks"]["fired"] > 0 and on_["ends"]["triggers.two jacks (a rule's win)"]["count"] > 0


def test_the_report_shows_each_number_against_the_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sweep", "default", "--set", "end.goal=14,21", "--games", "10", "--jobs", "1", "--out", str(tmp_path)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert text.index("At a glance") < text.index("Results and length by value") < text.index("Game quality by value")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    for title in ("First player&#x27;s win rate (95% CI)", "Turns a game: mean (95% CI)", "lead changes per game"):
        assert title in html
    # win rate, draws, turns, real choices and every quality figure but drawishness (the draw rate again)
    assert html.count("<polyline") == 9 and "Game quality: drawishness" not in html
    assert "<script" not in html.lower()
    assert "| end.goal=14 |" in md and "## Game quality by value" in md


@pytest.mark.parametrize(
    "sets, words",
    [
        (["end.gaol=14"], ["--set end.gaol=14", "unknown key 'gaol' in end", "did you mean 'goal'?"]),
        (["constants.hand_limt=4"], ["--set constants.hand_limt", "has no constants.hand_limt", "hand_limit"]),
        (["deal.first=x,5"], ["--set deal.first=x", "deal.first: expected a whole number"]),
        (["end.goal=abc(", "deal.first=5"], ["--set end.goal=abc(", "--set end.goal:1:5"]),
        (["end.goal"], ["--set 'end.goal': write KEY=V1,V2,..."]),
        (["end.go!al=1"], ["is not a key path"]),
        (["end goal=1"], ["'default' has no end goal"]),
        (['triggers."a.b=1'], ["is not a key path"]),
        (["end.goal=14,,21"], ["a value is empty"]),
        (["end.goal=14,21,14"], ["a value is given twice"]),
        (["end.goal=14,21,14,21"], ["a value is given twice"]),
        (["end.goal=14,2\r1"], ["may not hold a line break"]),
        (['triggers."".when=false'], ["is not a key path"]),
        (['triggers."  ".when=false'], ["is not a key path"]),
        (["end.goal=14", "end.goal=21"], ["--set end.goal is given twice"]),
        ([], ["give at least one --set"]),
        # keys that say what the ruleset is made of were dropped without a word, the variants labelled
        # with them (issue 42.7)
        (["extends=micro,published"], ["--set extends: 'extends' says what the ruleset is made of"]),
        (["options=[twinned],[jokers]"], ["--set options: 'options' says what", "default+twinned"]),
        (["kind=option"], ["--set kind: 'kind' says what"]),
        (["requires=[twinned]"], ["--set requires:"]),
        (["conflicts=[twinned]"], ["--set conflicts:"]),
        # a value's own error, not what it sets off in rulesets/default.yaml (issue 42.12)
        (["plays.points.effect=draw 1000000000000000000000"], ["--set plays.points.effect:1:6: [E213]"]),
    ],
)
def test_a_bad_key_or_value_is_named_in_a_clear_message(
    sets: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["sweep", "default", "--games", "3", "--jobs", "1"]
    for s in sets:
        argv += ["--set", s]
    assert main(argv) == 1
    err = capsys.readouterr().err
    for w in words:
        assert w in err, err
    assert "Traceback" not in err and "internal error" not in err
    assert "rulesets/default.yaml" not in err, err  # a caret only in what the user wrote


def test_a_sweep_of_the_name_applies_it(capsys: pytest.CaptureFixture[str]) -> None:
    """`name` is a value of the ruleset the sweep can set: each variant is called by it."""
    argv = ["sweep", "default", "--set", "name=first,second", "--games", "2", "--jobs", "1", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert [v["ruleset"] for v in out] == ["first", "second"]


def test_nothing_is_played_before_every_value_is_checked(tmp_path: Path) -> None:
    with pytest.raises(CuttleError, match="deal.first=-1"):
        sweep("default", ["deal.first=5,-1"], 3, ("random", "random"), jobs=1, out=tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_an_addition_joins_the_rule_it_extends(capsys: pytest.CaptureFixture[str]) -> None:
    """`{add: 3}` adds to the default goal rule (Kings still lower it: 24, 17, 13 ...) rather than
    replacing it, as the same addition in a house rule file that extends default would."""
    got = sweep_json(["default", "--set", "end.goal={add: 3},{add: -3}", "--games", "40", "--jobs", "1"], capsys)
    assert [s["set"] for s in got] == [{"end.goal": {"add": 3}}, {"end.goal": {"add": -3}}]
    assert {"goal at 24", "goal at 17"} <= set(got[0]["ends"]) and {"goal at 18", "goal at 11"} <= set(got[1]["ends"])


def test_each_value_against_the_one_before_paired_with_intervals_and_identical_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The steps of a sweep: B − A of the first player's win rate with its paired interval (the same as
    computed from the stored games), "identical play" where every game was played alike (a hand limit
    of 10 and 12 is never reached by random players), the values named on the headline cards."""
    from interpreter.lab import stats

    argv = ["sweep", "default", "--set", "constants.hand_limit=6,10,12", "--games", "40", "--seed", "2"]
    assert main([*argv, "--jobs", "1", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    section = text.split("Each value against the one before")[1].split("Game quality by value")[0]
    rows = [ln.split() for ln in section.splitlines()[2:4]]
    assert rows[0][:3] == ["6", "→", "10"] and rows[1][:3] == ["10", "→", "12"]
    assert section.splitlines()[3].endswith("identical play")
    assert "constants.hand_limit 6 … 12" in text.split("Results and length")[0]  # the cards name the values
    con = sqlite3.connect(tmp_path / "games.sqlite")
    try:
        won = {
            side: [
                1.0 if w == "p1" else 0.0
                for (w,) in con.execute("SELECT winner FROM games WHERE side = ? ORDER BY idx", (side,))
            ]
            for side in ("v1", "v2")
        }
    finally:
        con.close()
    d, lo, hi = stats.paired_diff(won["v1"], won["v2"])
    steps = sweep_json([*argv[1:], "--jobs", "1"], capsys)
    first = steps[1]["from_previous"]
    assert first["paired"] and (first["p1_win_rate"]["difference"], first["p1_win_rate"]["ci95"]) == (d, [lo, hi])
    assert steps[2]["from_previous"]["identical"] == 40 and "from_previous" not in steps[0]
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "First player&#x27;s win rate, each value against the one before" in html


def test_values_of_a_grid_are_named_by_their_keys_on_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sweep", "default", "--set", "end.passes=2,3", "--set", "deal.first=5,6", "--games", "6", "--jobs", "1"]
    assert main(argv) == 0
    cards = capsys.readouterr().out.split("At a glance")[1].split("Results and length")[0]
    assert "end.passes × deal.first passes=2, first=5 … passes=3, first=6" in cards and "v1" not in cards
