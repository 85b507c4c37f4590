"""`cuttle run`: every scenario file passes, and a failing one says what, where and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.scripting.scenario import collect, run_file

from .scenario_util import CLAIMED, ROOT, SCENARIOS

ALL = [f for f, _ in collect([str(SCENARIOS), str(ROOT / "examples")])]


def test_there_are_many_scenarios() -> None:
    assert len([p for p in ALL if "default" in p.parts]) >= 60


def test_every_scenario_file_is_run_once_by_the_test_module_of_its_concern() -> None:
    from . import (  # noqa: F401
        test_abilities,
        test_composition,
        test_conditions_and_endings,
        test_counter_values,
        test_counters,
        test_deckout,
        test_docs,
        test_face_down,
        test_knowledge,
        test_numbers,
        test_ordered_moves,
        test_questions,
        test_rulesets,
        test_solver,
        test_triggers,
        test_turn_rules,
        test_turn_state,
    )

    files = {p.resolve() for p in ALL}
    assert files - set(CLAIMED) == set(), "scenario files no test module runs (add them to one)"
    assert set(CLAIMED) - files == set()


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "case.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_failure_names_the_step_expected_and_got(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        """
setup:
  p1: {hand: [7H, 9S]}
  p2: {hand: [3C]}
moves:
  - points 7H
  - expect: {p1: {score: 9}}
""",
    )
    r = run_file(p)
    assert not r.ok
    text = "\n".join(r.failures)
    assert "step 2 (after step 1 'points 7H')" in text  # steps numbered as in the file's moves:, one way
    assert "expected 9, got 7" in text
    assert f"{p}:7:" in text


def test_an_illegal_move_is_reported_with_its_reason(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        """
setup:
  p1: {hand: [7H]}
moves:
  - points 8H
""",
    )
    r = run_file(p)
    assert not r.ok
    assert "'points 8H' was expected to be legal" in r.failures[0]
    assert "8H is not in your hand (p1)" in r.failures[0]


def test_expected_illegal_with_error_text(tmp_path: Path) -> None:
    ok = _write(
        tmp_path,
        """
setup:
  p1: {hand: [7H]}
  unplaced: scrap
moves:
  - illegal: oneoff 7H
    error: "deck"
""",
    )
    assert run_file(ok).ok  # a 7 needs a deck (ruling 2); the message quotes the rule
    bad = _write(
        tmp_path,
        """
setup:
  p1: {hand: [7H]}
moves:
  - illegal: points 7H
""",
    )
    r = run_file(bad)
    assert not r.ok and "expected to be illegal, but it is legal" in r.failures[0]


@pytest.mark.parametrize(
    "text, message",
    [
        ("setup:\n  p1: {hand: [7X]}\n", "'7X' is not a card"),
        ("setup:\n  p1: {hand: [7H]}\n  p2: {hand: [7H]}\n", "7H is placed twice"),
        ("setup:\n  p1: {hnd: [7H]}\n", "did you mean 'hand'?"),
        ("expect:\n  p1: {scroe: 3}\n", "did you mean 'score'?"),
        ("expect:\n  trun: p2\n", "unknown expectation 'trun'"),
        ("moves:\n  - expect: {scarp: []}\n", "unknown expectation 'scarp'"),
        ("movs: [draw]\n", "did you mean 'moves'?"),
        ("setup: [\n", "not valid YAML"),
        ("ruleset: defualt\n", "did you mean 'default'?"),
    ],
)
def test_broken_scenario_files_get_a_clear_message(tmp_path: Path, text: str, message: str) -> None:
    r = run_file(_write(tmp_path, text))
    assert not r.ok
    assert message in "\n".join(r.failures)
    assert "Traceback" not in "\n".join(r.failures)


def test_cli_exit_status_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = ROOT / "examples" / "example-1-countered.yaml"
    assert main(["run", str(good)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out
    bad = _write(tmp_path, "setup:\n  p1: {hand: [7H]}\nmoves: [points 8H]\n")
    assert main(["run", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "1 passed, 1 failed" in out


def test_a_failed_expectation_names_the_move_where_the_game_diverged(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        """
setup:
  p1: {hand: [7H, 9S, AC]}
  p2: {hand: [3C, 4D]}
moves: [points 7H, draw, oneoff AC, resolve]
expect:
  p1: {score: 7}
""",
    )
    text = "\\n".join(run_file(p).failures)
    assert "p1 score: expected 7, got 0" in text
    assert "(after step 4 'resolve')" in text
    assert "it held after step 3 'oneoff AC' (line 5); step 4 'resolve' (line 5) is where the game diverged" in text
    assert "played" not in text


def test_a_game_record_given_as_a_scenario_points_to_replay(tmp_path: Path) -> None:
    from interpreter import Game, load_ruleset
    from interpreter.scripting.records import save

    game = Game.new(load_ruleset("default"), seed=3)
    game.play("draw")
    save(game, tmp_path / "game.yaml")
    r = run_file(tmp_path / "game.yaml")
    assert not r.ok
    text = "\n".join(r.failures)
    assert "this is a saved game record, not a scenario" in text and "cuttle replay" in text
    assert "unknown key" not in text


def test_a_folder_without_scenarios_is_said_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`cuttle run adir` of an empty folder printed "0 passed, 0 failed" and failed without saying why."""
    (tmp_path / "empty").mkdir()
    assert main(["run", str(tmp_path / "empty")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"cuttle run: no scenario file (*.yaml) in {tmp_path / 'empty'}\n"
