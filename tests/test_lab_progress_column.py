"""The column `progress`: each player's points and goal after each turn of a lab game, stored as
JSON that SQL can read, equal to what an independent walk of the same seeded game sees."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.lab.job import game_seed, player_seed
from interpreter.lab.sim import simulate
from interpreter.players import make_player
from interpreter.rules import load_ruleset


def walked(spec: str, seed: int) -> list[tuple[int, int, int, int]]:
    """Replay the random game of `seed` through the Game API and note the points and goals by hand
    whenever the turn (or the hand) changes, and once more at the end if it ends inside a turn."""
    rules = load_ruleset(spec)
    game = Game.new(rules, seed)
    seats = [make_player("random", seed=player_seed(seed, s)) for s in (0, 1)]
    seen: list[tuple[int, int, int, int]] = []
    changed = False
    while game.decision is not None:
        before = (game.state.turn_no, len(game.state.hands))
        game.push(seats[game.decision.player].choose(game))
        g = game.state
        changed = (g.turn_no, len(g.hands)) != before
        if changed:
            seen.append((rules.score_of(g, 0), rules.goal_of(g, 0), rules.score_of(g, 1), rules.goal_of(g, 1)))
    if not changed:
        g = game.state
        seen.append((rules.score_of(g, 0), rules.goal_of(g, 0), rules.score_of(g, 1), rules.goal_of(g, 1)))
    return seen


@pytest.mark.parametrize("spec", ["default", "default+best-of-5", "micro", "published"])
def test_the_stored_progress_read_with_sql_is_what_the_game_went_through(spec: str, tmp_path: Path) -> None:
    simulate([spec], 4, ("random", "random"), seed=5, jobs=1, out=tmp_path)
    with sqlite3.connect(tmp_path / "games.sqlite") as conn:
        for idx, seed, turns in conn.execute("SELECT idx, seed, turns FROM games ORDER BY idx").fetchall():
            assert seed == game_seed(5, idx)
            stored = conn.execute(
                "SELECT json_extract(t.value, '$[0]'), json_extract(t.value, '$[1]'), "
                "json_extract(t.value, '$[2]'), json_extract(t.value, '$[3]') "
                "FROM games, json_each(games.progress) AS t WHERE idx = ? ORDER BY t.key",
                (idx,),
            ).fetchall()
            assert stored == walked(spec, seed), (spec, idx)
            # one entry per turn played (a match's `turns` also counts the hand begun by its last move)
            assert len(stored) == turns or (spec == "default+best-of-5" and len(stored) == turns - 1)
