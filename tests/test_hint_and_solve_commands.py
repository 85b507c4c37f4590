"""The players at the user's side: `hint` in the REPL, `cuttle solve`, `cuttle play --vs NAME`,
`cuttle players` and `cuttle match`."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.cli import main
from interpreter.players.ismcts import ISMCTS
from repl.session import Session

ENDGAME = """name: a Micro endgame, everything face up
ruleset: micro
setup:
  turn: p1
  p1:
    hand: [3D, 10C]
    points: [9C]
  p2:
    hand: [2C, 9H]
    points: [10H, 4C]
  unplaced: scrap
moves:
  - points 10C
"""


def session(game: Game, vs: str = "human") -> tuple[Session, list[str]]:
    lines: list[str] = []
    return Session(game, vs, 0, out=lines.append), lines


def test_hint_solves_an_open_position(tmp_path: Path) -> None:
    f = tmp_path / "endgame.yaml"
    f.write_text(ENDGAME.replace("9H", "6D"), encoding="utf-8")  # (with the 9H p2 would win at once)
    from interpreter.scripting.scenario import scenario_game

    game = scenario_game(f)
    s, lines = session(game)
    before = game.state.key()
    s.handle("hint")
    assert lines[-1].startswith("hint: ") and "solved:" in lines[-1] and "under perfect play" in lines[-1]
    move = lines[-1].split()[1:3]
    assert " ".join(m for m in move if m != "—") in {str(m) for m in game.legal_moves()}
    assert game.state.key() == before


def test_hint_falls_back_to_ismcts_when_cards_are_hidden() -> None:
    game = Game.new(load_ruleset("default"), 3)
    s, lines = session(game, "bot")
    s.handle("hint")
    assert "ISMCTS estimates a" in lines[-1] and "% win rate" in lines[-1] and "nobody has seen" in lines[-1]
    words = lines[-1].removeprefix("hint: ").split(" — ")[0]
    assert words in {str(m) for m in game.legal_moves()}
    # the hint uses only the user's view: the same as ISMCTS's own choice for p1
    assert words == str(ISMCTS(game.seed, iterations=400).choose(game))


def test_hint_only_on_your_decision() -> None:
    game = Game.new(load_ruleset("default"), 4)
    s, lines = session(game, "bot")
    s.human = 1
    s.handle("hint")
    assert lines[-1] == "error: it is not your decision"


def test_the_opponent_is_any_player_name() -> None:
    game = Game.new(load_ruleset("micro"), 2)
    s, lines = session(game, "ismcts?iterations=30")
    assert isinstance(s.bot, ISMCTS) and s.vs == "bot" and s.opponent == "ismcts?iterations=30"
    s.human = 1
    s.advance()
    assert game.moves and (game.decision is None or game.decision.player == 1)
    s2, _ = session(Game.new(load_ruleset("micro"), 2), "bot")
    assert type(s2.bot).__name__ == "Bot"


def test_play_refuses_an_unknown_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--vs", "ismcts:hardest"]) == 1
    assert "has no level 'hardest'" in capsys.readouterr().err


def test_players_lists_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["players"]) == 0
    out = capsys.readouterr().out
    assert "ismcts:strong" in out and "heuristic" in out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert "also called bot" in lines["heuristic"]  # the alias `--vs bot` takes is named
    assert "(default)" not in out and "plain 'ismcts' plays this level" in lines["ismcts:default"]


def test_players_counts_the_evaluations_trained_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here = tmp_path / "evaluations"
    monkeypatch.setenv("CUTTLE_EVALUATIONS", str(here))
    main(["players"])
    assert f"; 0 trained here ({here});" in capsys.readouterr().out  # no folder yet: none
    here.mkdir()
    for name in ("a.json", "b.json", "notes.txt"):
        (here / name).write_text("{}", encoding="utf-8")
    main(["players"])
    assert f"; 2 trained here ({here});" in capsys.readouterr().out  # the evaluations, not other files


def test_solve_a_scenario_and_refuse_a_hidden_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "endgame.yaml"
    f.write_text(ENDGAME, encoding="utf-8")
    assert main(["solve", str(f), "--all"]) == 0
    out = capsys.readouterr().out
    assert "p2 to decide" in out and "result: win for p2" in out and "best move: points 9H" in out
    values = [line.split() for line in out.splitlines() if line.startswith("    ")]  # --all: each move's value
    assert values[0] == ["points", "9H", "win"] and len(values) == 6
    assert all(v[-1] == "loss" for v in values[1:]), values
    assert main(["solve", "default", "--seed", "2"]) == 1
    assert "cannot solve: the deck holds" in capsys.readouterr().err
    assert main(["solve", "micro", "--seed", "2", "--nodes", "10"]) == 1
    assert "budget ran out after 11 nodes" in capsys.readouterr().out
    main(["solve", "micro", "--nodes", "10"])  # without --seed: the deal of seed 0, as cuttle run and replay
    assert capsys.readouterr().out.startswith("micro, seed 0: p1 to decide")


def test_match_command_takes_player_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--p1", "ismcts:fast", "--p2", "random", "--games", "2", "--ruleset", "micro"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ruleset micro: ismcts:fast against random, 2 games, seats alternating, seeds 0..1 (")
    assert "ismcts:fast: won" in out and "as p1" in out and "playouts/s" in out
    assert main(["match", "--p1", "nobody", "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cuttle match: no player named 'nobody'") and err.count("\n") == 1


def test_a_match_summary_gives_the_interval_and_the_seeds_the_first_player_did_not_win() -> None:
    from interpreter.lab.matches import GameResult, summary

    results = [
        GameResult(10, ("a", "b"), 0),
        GameResult(11, ("b", "a"), 0),
        GameResult(12, ("a", "b"), None),
        GameResult(13, ("b", "a"), 1),
    ]
    text = "\n".join(summary(results, "a", "b"))
    assert "a: won 2/4 (50.0%, 95% interval 15.0-85.0%), drawn 1; as p1 1/2, as p2 1/2" in text
    assert "b: won 1/4 (25.0%, 95% interval 4.6-69.9%), drawn 1; as p1 1/2, as p2 0/2" in text
    assert "a lost or drew the games of seeds: 11 (as p2), 12 (as p1)" in text


def test_a_match_alternates_the_seats_over_consecutive_seeds() -> None:
    from interpreter.lab.matches import run_matches

    results = run_matches("micro", "random", "heuristic", 4, seed=7)
    assert [(r.seed, r.seats) for r in results] == [
        (7, ("random", "heuristic")),
        (8, ("heuristic", "random")),
        (9, ("random", "heuristic")),
        (10, ("heuristic", "random")),
    ]


def test_a_match_of_one_player_against_itself_is_summed_up_per_seat() -> None:
    """The same player in both seats: its merged 'won 45/50' said nothing; the seats are what differ."""
    from interpreter.lab.matches import GameResult, summary

    results = [GameResult(10, ("r", "r"), 0), GameResult(11, ("r", "r"), 0), GameResult(12, ("r", "r"), None)]
    results.append(GameResult(13, ("r", "r"), 1))
    text = "\n".join(summary(results, "r", "r"))
    assert "p1 (r): won 2/4 (50.0%, 95% interval 15.0-85.0%)" in text and "p2 (r): won 1/4" in text
    assert "drawn 1 (seeds 12); the same player in both seats measures the seats" in text
    assert "lost or drew" not in text


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_match_game_that_fails_is_one_line_naming_its_seed(
    jobs: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game the rules cannot play on (here: made to fail) stops the match with one line, in one process
    or in worker processes (forked from this one, so they see the failure too)."""
    import interpreter.lab.matches as matches

    if jobs == "2" and multiprocessing.get_start_method() != "fork":
        pytest.skip("the broken game reaches worker processes only when they are forked from this one")

    def broken(ruleset: str, seed: int, p1: str, p2: str) -> matches.GameResult:
        if seed == 3:
            raise ZeroDivisionError("division by zero")
        return matches.GameResult(seed, (p1, p2), 0)

    monkeypatch.setattr(matches, "play_game", broken)
    assert main(["match", "--p1", "random", "--p2", "random", "--games", "4", "--jobs", jobs]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (
        "cuttle match: the game of seed 3 (random against random) failed: ZeroDivisionError: division by zero"
    )


def playing(pid: int, timeout: float = 60) -> None:
    """Wait until the match of process `pid` plays in its workers: it has child processes and no
    longer ignores Ctrl-C (it does while it starts them), however long starting took on this machine."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
        except OSError:
            return  # not Linux (or the process ended): the assertions below say what happened
        ignored = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:")), 16)
        children = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(p) == pid]
        if children and not ignored & (1 << (signal.SIGINT - 1)):
            return
        time.sleep(0.1)
    raise AssertionError(f"the match did not start its workers within {timeout} s")


def _parent(proc: Path) -> int | None:
    try:
        return int((proc / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def test_ctrl_c_during_a_match_is_one_line_from_the_parent() -> None:
    """Ctrl-C reaches the whole process group, as a terminal sends it: the worker processes ignore it
    and the parent stops the match with one line (no traceback from anyone)."""
    root = Path(__file__).resolve().parent.parent
    cmd = [
        sys.executable,
        "-m",
        "interpreter.cli",
        "match",
        "--p1",
        "heuristic",
        "--p2",
        "heuristic",
        "--games",
        "400",
        "--jobs",
        "2",
    ]
    ignored = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal (see test_lab_sim)
    try:
        proc = subprocess.Popen(
            cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
    finally:
        signal.signal(signal.SIGINT, ignored)
    playing(proc.pid)  # (400 games of the bot take far longer than the test)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "cuttle match: interrupted; no summary (the games are played again on a rerun)\n"
    assert out == ""


def _at(setup: dict, spec: str = "default") -> Game:
    from interpreter.scripting.setup import build_position

    rules = load_ruleset(spec)
    return Game(rules, build_position(rules, setup, 0), 0, setup)


def test_hint_names_a_move_that_wins_at_once_without_a_search() -> None:
    game = _at({"p1": {"hand": ["2H", "9S"], "points": ["10C", "9D"]}, "p2": {"hand": ["5C"]}})
    s, lines = session(game)
    s.handle("hint")
    assert lines[-1] in ("hint: points 2H — it wins at once", "hint: points 9S — it wins at once")
    assert game.outcome is None and not game.moves  # only tried


def test_hint_for_a_forced_move_says_it_is_the_only_one() -> None:
    game = _at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}})
    game.play("oneoff 6D")
    s, lines = session(game)
    s.human = 1
    s.handle("hint")
    assert lines[-1] == "hint: resolve — the only legal move"
