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


def test_bench_plays_an_option_on_its_base(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--ruleset", "jokers", "--games", "3", "--repeat", "1"]) == 0
    assert "jokers (an option, played as micro+jokers)" in capsys.readouterr().out


@pytest.mark.slow
def test_bench_all_lists_every_shipped_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.rules import shipped_names

    assert main(["bench", "--all", "--games", "2", "--repeat", "1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert sorted(r[0] for r in rows) == shipped_names()
    assert ["frozen-9s", "default+published-9s+frozen-9s"] in [r[:2] for r in rows]
    assert all(float(r[-1]) > 5 for r in rows)  # decisions per game: real games were played


@pytest.mark.parametrize("flag, says", [("--api", "through the Game API"), ("--search", "playouts/s  median")])
def test_bench_other_paths(flag: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", flag, "--games", "3", "--repeat", "1"]) == 0
    assert says in capsys.readouterr().out


def test_bench_jobs_reports_aggregate_and_per_process_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--jobs", "2", "--games", "3", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 processes at once" in out and "aggregate    median" in out and "per process  median" in out


def test_bench_refuses_zero_processes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["bench", "--jobs", "0"])
    err = capsys.readouterr().err
    assert (
        e.value.code == 2 and err == "cuttle bench: --jobs must be a whole number from 1 to 1,024 (MAX_JOBS), not 0\n"
    )


def test_bench_compare_reports_a_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--compare", "--games", "5", "--repeat", "2"]) == 0
    assert "hand-written / interpreter: median ratio" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["rules", "twinned"], "is an option, not a whole ruleset"),
        (["rules", "defualt"], "did you mean 'default'?"),
        (["diff", "default", "nope+twinned"], "no ruleset named 'nope'"),
        (["play", "--ruleset", "micro+micro"], "whole ruleset, not an option"),
        (["replay", "missing.yaml"], "cannot read"),
        (["check", "missing-file.yaml"], "cannot read ruleset file"),
        (["bench", "--ruleset", "nope"], "no ruleset named 'nope'"),
        (["bench", "--jobs", "2", "--ruleset", "nope"], "no ruleset named 'nope'"),
        (["bench", "--jobs", "2", "--api"], "--api and --jobs cannot be combined"),
    ],
)
def test_bad_input_is_one_clear_message(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) != 0
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert message in text
    assert "Traceback" not in text


def test_run_with_nothing_to_run_fails(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"cuttle run: no scenario file (*.yaml) in {tmp_path}\n"
