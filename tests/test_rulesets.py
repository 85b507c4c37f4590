"""The shipped rulesets: each loads and plays its rules, options compose where they fit and are
refused where they do not, `like` plays inherit, a user's own file anywhere on disk works with
every command, and a match of several hands replays exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from interpreter import Game, RulesetError, RulesetErrors, load_ruleset, shipped_names
from interpreter.cli import main
from interpreter.core.cards import RANK_OF, parse_card
from interpreter.rules import compose
from interpreter.scripting.records import record_of, replay
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position

from .playout import play_out, random_mover
from .rulesets_under_test import RULESETS
from .scenario_util import ROOT, SCENARIOS, assert_passes, cases

BASES = ["default", "micro", "published", "cuttle-cards"]
OPTIONS = [
    "classic-2s",
    "published-9s",
    "jokers",
    "twinned",
    "random-4s",
    "eights-oneoff",
    "frozen-9s",
    "tens-block",
    "joker-swap",
    "best-of-5",
    "queen-window",
]


def test_every_ruleset_of_the_spec_is_shipped() -> None:
    assert set(BASES + OPTIONS) <= set(shipped_names())


@pytest.mark.parametrize("name", BASES)
def test_bases_load(name: str) -> None:
    rules = load_ruleset(name)
    assert rules.name == name and rules.plays


@pytest.mark.parametrize("spec", RULESETS)
def test_harness_combinations_load_and_deal(spec: str) -> None:
    game = Game.new(load_ruleset(spec), 1)
    assert game.legal_moves()


@pytest.mark.parametrize("option", OPTIONS)
def test_every_option_is_an_option(option: str) -> None:
    with pytest.raises(RulesetError) as e:
        load_ruleset(option)
    assert e.value.code == "E302"


@pytest.mark.parametrize(
    "spec, words",
    [
        ("default+jokers", ["jokers", "micro"]),
        ("published+jokers", ["jokers", "micro"]),
        ("default+joker-swap+micro", ["micro"]),
        ("micro+joker-swap", ["joker-swap", "micro"]),
        ("micro+jokers+joker-swap", ["joker-swap", "jokers"]),
        ("default+frozen-9s", ["frozen-9s", "published-9s"]),
        ("published+published-9s", ["published-9s", "published"]),
    ],
)
def test_combinations_that_make_no_sense_are_refused(spec: str, words: list[str]) -> None:
    with pytest.raises((RulesetErrors, RulesetError)) as e:
        load_ruleset(spec)
    for w in words:
        assert w in str(e.value)


def test_micro_deck_and_deal() -> None:
    rules = load_ruleset("micro")
    ranks = sorted(RANK_OF[c] for c in rules.deck_cards)
    assert len(rules.deck_cards) == 16
    assert ranks == sorted(["A", "2", "2", "3", "3", "4", "6", "9", "9", "9", "9", "10", "10", "J", "Q", "K"])
    game = Game.new(rules, 0)
    v = game.view(0)
    assert len(v.hand) == 8 and v.opponent_hand is not None and v.deck_count == 0


def test_micro_with_jokers_deals_each_player_a_joker() -> None:
    for seed in range(5):
        v = Game.new(load_ruleset("micro+jokers"), seed).view(0)
        assert "RJ" in v.hand and len(v.hand) == 9 and "BJ" in v.opponent_hand


def test_twins_are_like_their_single_play() -> None:
    rules = load_ruleset("default+twinned")
    twins = {p.name: p for p in rules.plays if p.ncards == 2}
    single = {p.name: p for p in rules.plays}
    assert "twin-ten" not in twins and len(twins) == 11
    for name, p in twins.items():
        model = single[name.removeprefix("twin-")]
        assert p.free and p.verb == model.verb and p.ranks == model.ranks and p.kind == model.kind
        assert p.source["effect"] == model.source["effect"]


def test_a_twin_follows_an_option_that_changes_its_model() -> None:
    rules = load_ruleset("default+random-4s+twinned")
    twin = next(p for p in rules.plays if p.name == "twin-four")
    assert "by random" in twin.source["effect"]


def test_twin_cards_in_any_order() -> None:
    rules = load_ruleset("default+twinned")
    game = Game(rules, build_position(rules, {"p1": {"hand": ["6C", "6D"]}, "p2": {"hand": ["3H"]}}, 0))
    assert str(game.play("oneoff 6D 6C")) == "oneoff 6C 6D"


def test_published_composes_classic_2s_and_published_9s() -> None:
    rules = load_ruleset("published")
    assert {"classic-2s", "published-9s"} <= set(rules.parts)
    counter = next(r for r in rules.responses if r.verb == "counter")
    assert counter.extra == 0 and counter.answers == {"oneoff", "counter"}
    assert rules.data["constants"]["goals"] == [21, 14, 10, 7, 5]
    assert rules.on_passes == "draw"


# -- a user's own ruleset file, anywhere on disk --------------------------------------------------

HOUSE = """\
name: my-house
kind: base
extends: {extends}
options: [twinned]
plays:
  ace:
    effect: scrap field of opponent where it.role == point
"""

SCENARIO = """\
ruleset: {ruleset}
setup:
  p1: {{hand: [AS, 3D], points: [10C]}}
  p2: {{hand: [4C], points: [9C]}}
moves: [oneoff AS, resolve]
expect:
  p1: {{points: [10C]}}
  p2: {{points: []}}
"""


def test_user_file_extends_applies_options_and_overrides(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    base = tmp_path / "sub" / "my-base.yaml"
    base.write_text("name: my-base\nkind: base\nextends: micro\n")
    house = tmp_path / "my-house.yaml"
    house.write_text(HOUSE.format(extends="sub/my-base.yaml"))  # relative to the file
    rules = load_ruleset(str(house))
    assert rules.name == "my-house" and len(rules.deck_cards) == 16
    assert any(p.name == "twin-nine" for p in rules.plays)
    assert load_ruleset(str(house) + "+jokers").deal_extra[0]


def test_user_file_with_every_command(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    Path("my.yaml").write_text(HOUSE.format(extends="default"))
    Path("scen.yaml").write_text(SCENARIO.format(ruleset="./my.yaml"))
    Path("other.yaml").write_text(SCENARIO.format(ruleset="default"))
    assert main(["check", "./my.yaml"]) == 0
    assert main(["run", "scen.yaml"]) == 0
    assert main(["run", "--ruleset", "./my.yaml", "other.yaml"]) == 0
    assert main(["run", "--ruleset", "./my.yaml+classic-2s", "other.yaml"]) == 0
    assert main(["run", "other.yaml"]) == 1  # under default the Ace scraps both sides
    capsys.readouterr()


def test_user_file_problem_points_into_it(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("name: bad\nkind: base\nextends: default\nplays:\n  ace:\n    effect: scrap feild of me\n")
    with pytest.raises(RulesetErrors) as e:
        load_ruleset(str(f))
    err = e.value.errors[0]
    assert (err.where.file, err.where.line) == (str(f), 6)


def test_composition_records_who_set_what() -> None:
    c = compose("default+classic-2s+twinned")
    assert c.parts == ["default"] and c.options == ["classic-2s", "twinned"]
    assert c.setters[("responses", "counter", "extra")] == "classic-2s"


# -- a match of several hands -----------------------------------------------------------------------


def _play_out(spec: str, seed: int) -> Game:
    return play_out(Game.new(load_ruleset(spec), seed), random_mover(seed))


@pytest.mark.parametrize("spec", ["default+best-of-5", "published+best-of-5"])
def test_match_until_three_wins_and_replays_exactly(spec: str) -> None:
    for seed in range(10):
        game = _play_out(spec, seed)
        m = game.view(0).match
        assert max(m.wins.values()) == 3 and m.needed == 3
        assert len(m.hands) >= 3 and "wins the match" in game.outcome.reason
        assert m.hand == len(m.hands)  # over: the hand shown is the last one played, not one more
        again = replay(record_of(game))
        assert again.state.key() == game.state.key() and again.view(0).match == m


def test_match_undo_across_a_new_hand() -> None:
    rules = load_ruleset("default+best-of-5")
    setup = {"p1": {"hand": ["2C"], "points": ["10H", "9H"]}, "p2": {"hand": ["4D"]}}
    game = Game(rules, build_position(rules, setup, 9), 9, setup=setup)
    before = game.state.key()
    game.play("points 2C")
    assert game.view(0).match.wins == {"p1": 1, "p2": 0} and game.state.turn == 1
    assert game.view(0).match.hand == 2  # the second hand is being played
    game.undo()
    assert game.state.key() == before


def test_deal_extra_cards_are_not_in_the_deck_of_a_new_hand() -> None:
    game = _play_out("micro+jokers+best-of-5", 3)
    assert all(h.winner in (0, 1, None) for h in game.state.hands)
    assert parse_card("RJ") in game.rules.deal_extra[0]


# -- the scenario cases of every ruleset -------------------------------------------------------------

DIRS = sorted(p for p in SCENARIOS.iterdir() if p.is_dir() and p.name != "default")
RULESET_CASES = [case for d in DIRS for case in cases("*.yaml", under=d.name, by=__name__)]
HOLDS_WITHOUT = re.compile(r"^# holds without the option: \S", re.MULTILINE)


def _is_option(name: str) -> bool:
    path = ROOT / "rulesets" / f"{name}.yaml"
    return path.exists() and (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("kind") == "option"


OPTION_CASES = [case for case in RULESET_CASES if _is_option(case.values[0].parent.name)]


def _extends_default(name: str) -> bool:
    path = ROOT / "rulesets" / f"{name}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    return (data or {}).get("kind") == "base" and data.get("extends") == "default"


BASE_CASES = [case for case in RULESET_CASES if _extends_default(case.values[0].parent.name)]
HOLDS_UNDER_DEFAULT = re.compile(r"^# holds under default: \S", re.MULTILINE)


def test_five_scenarios_per_ruleset() -> None:
    names = {p.name for p in DIRS}
    assert set(BASES[1:] + OPTIONS) <= names
    for d in DIRS:
        assert len(list(d.glob("*.yaml"))) >= 5, d.name
    assert len(OPTION_CASES) >= 5 * len(OPTIONS)


@pytest.mark.parametrize("path", RULESET_CASES)
def test_ruleset_scenario(path: Path) -> None:
    assert_passes(path)


@pytest.mark.parametrize("path", BASE_CASES)
def test_a_base_scenario_fails_under_default(path: Path) -> None:
    """A scenario under tests/scenarios/<base>/, of a base that extends default (published,
    cuttle-cards), tests what that base changes: under default in its place, it fails (unless the file
    says, in a line `# holds under default: REASON`, that it pins a rule the base keeps)."""
    base = path.parent.name
    text = path.read_text(encoding="utf-8")
    parts = str(yaml.safe_load(text).get("ruleset", "default")).split("+")
    assert parts[0] == base, f"{path.name} is under {base}/ but its ruleset {'+'.join(parts)} is not on {base}"
    under = "+".join(["default", *parts[1:]])
    result = run_file(path, under)
    if HOLDS_UNDER_DEFAULT.search(text):
        assert result.ok, f"{path.name} says it holds under default, but under {under}:\n" + "\n".join(result.failures)
    else:
        assert not result.ok, (
            f"{path.name} passes under {under} too, so it does not test {base}: make it fail under "
            "default, or say why it holds there in a line '# holds under default: REASON'"
        )


@pytest.mark.parametrize("path", OPTION_CASES)
def test_an_option_scenario_fails_without_its_option(path: Path) -> None:
    """A scenario under tests/scenarios/<option>/ tests that option: without it, it fails (unless the
    file says, in a line `# holds without the option: REASON`, that it is meant to hold under both)."""
    option = path.parent.name
    text = path.read_text(encoding="utf-8")
    spec = str(yaml.safe_load(text).get("ruleset", "default"))
    parts = spec.split("+")
    assert option in parts, f"{path.name} is under {option}/ but its ruleset {spec} lacks {option}"
    without = "+".join(p for p in parts if p != option)
    result = run_file(path, without)
    if HOLDS_WITHOUT.search(text):
        assert result.ok, f"{path.name} says it holds without {option}, but under {without}:\n" + "\n".join(
            result.failures
        )
    else:
        assert not result.ok, (
            f"{path.name} passes under {without} too, so it does not test {option}: make it "
            "fail without the option, or say why it holds under both in a line "
            "'# holds without the option: REASON'"
        )
