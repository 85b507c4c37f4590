"""Length in real choices (issue 27 item 3): a decision with one legal move (a forced `resolve`)
is no choice. The fast random path and the Game-API loop count the same, and an independent count
over a replay of the game agrees."""

from __future__ import annotations

from interpreter.engine.game import Game
from interpreter.engine.legal import legal_actions
from interpreter.lab.columns import row_maker
from interpreter.lab.games import play_game
from interpreter.lab.job import game_seed, player_factory, player_seed
from interpreter.rules import load_ruleset

PLAYERS = ("random", "random")


def replayed_choices(spec: str, seed: int) -> tuple[int, int]:
    """(real choices, decisions) of the game of `seed`, counted here on a replay through Game."""
    rules = load_ruleset(spec)
    game = Game.new(rules, seed)
    seats = [player_factory(PLAYERS[s])(player_seed(seed, s)) for s in (0, 1)]
    real = n = 0
    while game.state.winner is None:
        g = game.state
        real += len(legal_actions(g)) > 1
        move = seats[g.pending.player].choose(game)
        game.play(move) if isinstance(move, str) else game.push(move)
        n += 1
    return real, n


def test_real_choices_are_decisions_with_more_than_one_legal_move() -> None:
    rules = load_ruleset("default")
    forced = 0
    for i in range(12):
        seed = game_seed(0, i)
        fast = play_game(rules, i, seed, PLAYERS)
        slow = play_game(rules, i, seed, PLAYERS, through_game=True)
        counted = replayed_choices("default", seed)
        assert (fast.real_choices, fast.decisions) == (slow.real_choices, slow.decisions) == counted
        assert row_maker()(fast) == row_maker()(slow)  # every column, those computed from the recorder too
        assert 0 < fast.real_choices <= fast.decisions
        forced += fast.decisions - fast.real_choices
    assert forced > 0  # some decisions were forced: the two lengths differ


def test_a_database_of_the_format_before_real_choices_is_refused_with_a_message(tmp_path) -> None:
    import sqlite3

    import pytest

    from interpreter.core.errors import CuttleError
    from interpreter.lab import store
    from interpreter.lab.sim import simulate

    out = tmp_path / "run"
    simulate(["default"], 3, PLAYERS, jobs=1, out=out)
    with sqlite3.connect(out / "games.sqlite") as conn:
        conn.execute("UPDATE run SET value = '2' WHERE key = 'format'")
    with pytest.raises(CuttleError, match=f"database format 2, this one writes {store.FORMAT}"):
        simulate(["default"], 3, PLAYERS, jobs=1, out=out)
