"""The `cuttle` command itself: every subcommand answers, bad input gets one clear message and a
non-zero status, never a traceback."""

from __future__ import annotations

import pytest

from interpreter.cli import COMMANDS, main


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for name in COMMANDS:
        with pytest.raises(SystemExit) as e:
            main([name, "--help"])
        assert e.value.code == 0
    out = capsys.readouterr().out
    assert "scenario files" in out and "random-playout" in out


def test_bench_reports_medians(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "5", "--repeat", "3"]) == 0
    out = capsys.readouterr().out
    assert "games/s     median" in out and "decisions/s median" in out


def test_bench_compare_reports_a_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--compare", "--games", "5", "--repeat", "2"]) == 0
    assert "hand-written / interpreter: median ratio" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["rules", "twinned"], "is an option, not a whole ruleset"),
    (["rules", "defualt"], "did you mean 'default'?"),
    (["diff", "default", "nope+twinned"], "no ruleset named 'nope'"),
    (["play", "--ruleset", "micro+micro"], "whole ruleset, not an option"),
    (["replay", "missing.yaml"], "cannot read"),
    (["check", "missing-file.yaml"], "cannot read ruleset file"),
])
def test_bad_input_is_one_clear_message(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) != 0
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert message in text
    assert "Traceback" not in text


def test_run_with_nothing_to_run_fails(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(tmp_path)]) == 1
    assert "0 passed, 0 failed" in capsys.readouterr().out
