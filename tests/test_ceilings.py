"""Ceilings on every number from the command line (issue 42.5): each numeric option of every command,
and each option of a player's spec, is checked against its range in one place (core/ceilings.py)
and refused with one line naming the option and the range; worker processes are never more than
four a core nor more than the games; a player that fails while choosing is said to be at fault,
not the ruleset."""

from __future__ import annotations

import pytest

from interpreter.cli import main
from interpreter.core.ceilings import OptionError, real, whole
from interpreter.lab import parallel
from interpreter.players import registry

HUGE = str(10**20)


def _one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's refusal (exit status 2), said in one line of ours
        code = e.code
    out = capsys.readouterr()
    assert code not in (0, None), (argv, out)
    err = out.err
    assert err.count("\n") == 1 and err.startswith("cuttle "), (argv, err)
    assert "Traceback" not in err and "internal error" not in err and "usage:" not in err, err
    return err


@pytest.mark.parametrize(
    "argv, option, limit",
    [
        (["sim", "default", "--games", HUGE], "--games", "MAX_GAMES"),  # was internal error: OverflowError
        (["sim", "default", "--games", str(10**12)], "--games", "MAX_GAMES"),  # ran out of memory
        (["sim", "default", "--jobs", "99999"], "--jobs", "MAX_JOBS"),
        (["sim", "default", "--seed", HUGE], "--seed", "MAX_SEED"),
        (["sim", "default", "--max-decisions", "0"], "--max-decisions", "MAX_MOVES"),
        (["compare", "default", "micro", "--games", "-3"], "--games", "MAX_GAMES"),
        (["sweep", "default", "--set", "end.goal=18,21", "--jobs", "1e9"], "--jobs", "MAX_JOBS"),
        (["match", "--games", HUGE], "--games", "MAX_GAMES"),
        (["match", "--jobs", "0"], "--jobs", "MAX_JOBS"),
        (["match", "--seed", "x"], "--seed", "MAX_SEED"),
        (["ladder", "--players", "random,random", "--games", HUGE], "--games", "MAX_GAMES"),
        (["ladder", "--players", "random,random", "--jobs", "99999"], "--jobs", "MAX_JOBS"),
        (["bench", "--games", "0"], "--games", "MAX_GAMES"),
        (["bench", "--repeat", HUGE], "--repeat", "MAX_REPEAT"),
        (["bench", "--jobs", "99999"], "--jobs", "MAX_JOBS"),
        (["solve", "default", "--nodes", "0"], "--nodes", "MAX_NODES"),
        (["solve", "default", "--seconds", "nan"], "--seconds", "MAX_SECONDS"),
        (["solve", "default", "--seconds", "inf"], "--seconds", "MAX_SECONDS"),
        (["solve", "default", "--seconds", "-1"], "--seconds", "MAX_SECONDS"),
        (["play", "--seed", "9" * 5000], "--seed", "MAX_SEED"),  # not even read as a number
    ],
)
def test_every_numeric_option_is_refused_out_of_its_range_in_one_line(
    argv: list[str], option: str, limit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _one_line(argv, capsys)
    assert f"{option} " in err and " from " in err and f"({limit})" in err, err
    assert len(err) < 300, err  # a number of 5,000 digits is not echoed whole


@pytest.mark.parametrize(
    "spec, words",
    [
        ("ismcts?exploration=nan", "option exploration must be a number from 0.0 to 100.0, not nan"),
        ("ismcts?exploration=-1e308", "option exploration must be a number from 0.0 to 100.0"),
        ("ismcts?temperature=0", "option temperature must be a number from 0.001"),
        ("ismcts?iterations=-5", "option iterations must be a whole number from 1 to 10,000,000, not -5"),
        ("ismcts?seconds=inf", "option seconds must be a number from 0.0 to 3,600.0"),
        ("heuristic?samples=0", "option samples must be a whole number from 1 to 1,000"),
        ("sharp?depth=100000", "option depth must be a whole number from 0 to 64"),
        ("sharp?need=1e300", "option need must be a number from -1,000,000"),  # a weight: any sane number
    ],
)
def test_player_options_are_range_checked_before_a_game(
    spec: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (
        ["sim", "default", "--games", "2", "--jobs", "1", "--p1", spec],
        ["match", "--p1", spec, "--games", "2"],
    ):
        err = _one_line(argv, capsys)
        assert words in err and "rules of" not in err, err
    with pytest.raises(registry.PlayerError, match=r"(must be|takes) a (whole )?number from"):
        registry.make_player(spec.split("?")[0], **{spec.split("?")[1].split("=")[0]: float("nan")})


def test_the_one_checker_reads_numbers_and_refuses_the_rest() -> None:
    assert whole("12", "--games") == 12 and whole(" 1_000 ", "--games") == 1000
    assert real("0.5", "--seconds") == 0.5
    for bad in ("1.5", "", "0x10", "nan", None, True):
        with pytest.raises(OptionError, match="--games takes a whole number from 1 to 1,000,000"):
            whole(bad, "--games")
    for bad in ("nan", "-inf", "1e999", "x"):
        with pytest.raises(OptionError, match="--seconds"):
            real(bad, "--seconds")
    for bad in (True, False):  # a yes/no (from a file's options) is not the number 1 or 0
        with pytest.raises(OptionError, match="takes a number"):
            real(bad, "--seconds", 0.0, 5.0)


def test_workers_are_capped_by_cores_and_by_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert parallel.backend(1000, None, 60).workers == 8  # four a core (was: 61 processes for 60 games)
    assert parallel.backend(1000, None, 3).workers == 3  # never more than the games
    assert isinstance(parallel.backend(1000, None, 1), parallel.Serial)


class _Broken:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: object) -> object:
        return 1 / 0  # a bug of the player's own


@pytest.fixture
def broken_player() -> object:
    registry.register("broken", "a player that fails while it chooses", _Broken)
    yield
    registry._REGISTRY.pop("broken", None)


@pytest.mark.parametrize("command", ["sim", "match"])
def test_a_player_that_fails_is_said_to_be_at_fault_not_the_ruleset(
    command: str, broken_player: object, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["sim", "default", "--games", "1", "--jobs", "1"] if command == "sim" else ["match", "--games", "1"]
    err = _one_line([*argv, "--p1", "broken"], capsys)
    assert "player 'broken' failed while choosing a move: ZeroDivisionError" in err, err
    assert "the rules of" not in err and "check the ruleset" not in err, err


def test_the_repl_s_numbers_have_their_ranges_too() -> None:
    from types import SimpleNamespace

    from repl.app import new_session

    lines: list[str] = []
    s = new_session(
        SimpleNamespace(seed=1, ruleset="default", vs="human", as_player="1"), out=lines.append, color=False
    )
    for command, words in (
        ("new " + "9" * 5000, "new SEED takes a whole number"),
        ("new 10000000000000000000", "(MAX_SEED)"),
    ):
        s.handle(command)  # 5,000 digits: an internal ValueError of Python's integer parsing before
        assert lines[-1].startswith("error: ") and words in lines[-1] and "internal" not in lines[-1], lines[-1]
    s.handle("new 12")
    assert s.game.seed == 12


def test_a_refused_number_is_shown_shortened_when_it_is_long() -> None:
    with pytest.raises(OptionError) as e:
        whole("x" * 100, "--games")
    assert f"not '{'x' * 37}...'" in str(e.value)  # 40 characters at the most
    with pytest.raises(OptionError) as e:
        whole(10**60, "--games")
    assert f"not {str(10**60)[:20]}... (61 digits)" in str(e.value)
    with pytest.raises(OptionError) as e:
        whole(10**20, "--games")
    assert "not 100,000,000,000,000,000,000" in str(e.value)  # short enough to show whole
    with pytest.raises(OptionError) as e:
        real("y" * 100, "--seconds")
    assert f"not '{'y' * 37}...'" in str(e.value)
    with pytest.raises(OptionError) as e:
        real("9" * 50, "--seconds")
    assert "not 1e+50" in str(e.value)  # 50 digits: shown as the number read
    with pytest.raises(OptionError) as e:
        real(" 1_000_000 ", "--seconds")
    assert str(e.value).endswith("not 1_000_000")  # a short one as it was typed
    with pytest.raises(OptionError) as e:
        real(10**400, "--seconds")  # beyond a float: refused as infinite, not an OverflowError
    assert "--seconds must be a number" in str(e.value)


@pytest.mark.parametrize("option", ["--seconds", "--games"])
def test_a_bad_number_on_the_command_line_names_its_option(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    command = ["solve", "default", option, "lots"] if option == "--seconds" else ["sim", "default", option, "lots"]
    err = _one_line(command, capsys)
    assert f"{option} takes a" in err and "'lots'" in err, err
