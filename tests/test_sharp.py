"""The `sharp` player: registered, legal on every shipped ruleset, deterministic for a seed."""

from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.players.registry import make_player, players
from interpreter.rules import load_ruleset


def test_sharp_is_registered() -> None:
    assert "sharp" in players()
    assert type(make_player("sharp", seed=1)).__name__ == "Sharp"


def _play(ruleset: str, seed: int) -> list[str]:
    game = Game.new(load_ruleset(ruleset), seed)
    bots = (make_player("sharp", seed=seed), make_player("sharp", seed=seed + 1))
    moves: list[str] = []
    while game.decision is not None and len(moves) < 400:
        m = bots[game.decision.player].choose(game)
        assert m in game.legal_moves()
        moves.append(str(m))
        game.play(m)
    return moves


@pytest.mark.parametrize("ruleset", ["default", "micro", "micro+jokers", "default+classic-2s", "default+best-of-5"])
def test_sharp_plays_legal_moves(ruleset: str) -> None:
    assert _play(ruleset, 3)


def test_sharp_is_deterministic() -> None:
    assert _play("default", 5) == _play("default", 5)
