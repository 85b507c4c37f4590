"""The yardstick opponent of benchmarks/open_hand.py (it reads the true state, hidden cards too): it
takes a move that wins at once, and its match runner reports a win rate with an interval."""

from __future__ import annotations

import re

from benchmarks.open_hand import OpenHandPlayer, main
from interpreter import Game, load_ruleset
from interpreter.engine.moves import Move
from interpreter.scripting.setup import build_position


def game_at(setup: dict) -> Game:
    rules = load_ruleset("default")
    return Game(rules, build_position(rules, setup, 0))


def test_it_plays_a_move_that_wins_at_once() -> None:
    game = game_at({"p1": {"hand": ["6H", "2C", "3S"], "points": ["9S", "6D"]}, "p2": {"hand": ["4D"]}})
    assert OpenHandPlayer(1, playouts=4).choose(game) == Move.parse("points 6H")


def test_the_match_runner_reports_a_win_rate_with_its_interval(capsys) -> None:
    assert main(["--player", "random", "--games", "2", "--playouts", "1", "--ruleset", "micro"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"random: won \d/2 \(\d+\.\d%, 95% interval \d+\.\d-\d+\.\d%\)", out), out
    assert main(["--player", "nobody", "--games", "2"]) == 2
