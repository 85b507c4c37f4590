"""Generated code you can read: each function is named after its rule and carries the rule's file and
line, a failure inside one names the rule, and `cuttle code` prints the Python of a ruleset."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.cli import main
from interpreter.core.errors import rule_failure

from .scenario_util import house_file

# line 3 of the file: `end:`, line 4: its `goal`
GOAL = "end:\n  goal: 10 + count(field of me)\n"


def test_a_rule_function_is_named_after_its_rule_and_knows_its_line(tmp_path: Path) -> None:
    path = house_file(tmp_path, GOAL)
    rules = load_ruleset(str(path))
    fn = rules.goal_fn
    assert fn.__name__ == "end_goal"
    assert fn.__code__.co_filename == str(path)
    assert fn.__code__.co_firstlineno == 4


def test_a_failure_inside_a_rule_names_the_rule_and_its_line(tmp_path: Path) -> None:
    path = house_file(tmp_path, GOAL)
    rules = load_ruleset(str(path))
    game = Game.new(rules, seed=1)
    with pytest.raises(TypeError) as info:
        rules.goal_fn(game.state, {})  # no `me` bound: the rule's own code fails
    message = str(rule_failure("house", "checking a win", info.value))
    assert f"failed in the rule end.goal ({path}, line 4) while checking a win" in message


def test_cuttle_code_prints_one_rule_as_python(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = house_file(tmp_path, GOAL)
    assert main(["code", str(path), "end.goal"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"# end.goal — {path}, line 4\n")
    assert "def end_goal(g, e):" in out and "def end_score" not in out
    ast.parse(out)  # the listing is Python


def test_cuttle_code_lists_every_rule_and_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["code", "default"]) == 0
    out = capsys.readouterr().out
    tree = ast.parse(out)
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"plays_scuttle_target", "end_goal", "engine_main_decisions", "engine_win_check"} <= names
    # the constants a function reads are shown above it
    assert "# K" in out and "'point'" in out


def test_cuttle_code_of_an_unknown_rule_suggests_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["code", "default", "plays.scutle"]) == 1
    err = capsys.readouterr().err
    assert "no generated code for 'plays.scutle'" in err and "did you mean 'plays.scuttle'" in err
