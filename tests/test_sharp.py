"""The `sharp` player: registered, legal on every shipped ruleset, deterministic for a seed, blind to
the cards it cannot see."""

from __future__ import annotations

import random

import pytest

from interpreter.engine.game import Game
from interpreter.engine.state import HAND0
from interpreter.players.registry import make_player, players
from interpreter.players.sampling import determinize
from interpreter.players.sharp import Sharp
from interpreter.rules import load_ruleset


def test_sharp_is_registered() -> None:
    assert "sharp" in players()
    assert type(make_player("sharp", seed=1)).__name__ == "Sharp"
    strong, plain = make_player("sharp:strong", seed=1), make_player("sharp", seed=1)
    assert isinstance(strong, Sharp) and isinstance(plain, Sharp)
    assert strong.reply > plain.reply and strong.max_nodes > plain.max_nodes  # the strong level looks further


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


def _positions(seeds: range, every: int = 3) -> list[Game]:
    """Games of sharp against heuristic stopped every few moves, each at a decision."""
    rules = load_ruleset("default")
    out = []
    for seed in seeds:
        game = Game.new(rules, seed)
        bots = (make_player("sharp", seed=seed), make_player("heuristic", seed=seed))
        n = 0
        while game.decision is not None and n < 45:
            if n % every == 0:
                out.append(Game(rules, game.state.copy(), seed))
            game.play(bots[game.decision.player].choose(game))
            n += 1
    return out


def test_sharp_does_not_peek_at_hidden_cards() -> None:
    """The opponent's hidden hand and the deck dealt again among the cards the seat does not know
    (players/sampling.py `determinize`, which keeps its view): the same move."""
    rng = random.Random(11)
    checked = changed = 0
    for game in _positions(range(4)):
        me = game.decision.player
        choice = make_player("sharp", seed=2).choose(game)
        for _ in range(2):
            other = Game(game.rules, determinize(game.state, me, rng), game.seed)
            assert other.view(me) == game.view(me)
            changed += other.state.zones[HAND0 + 1 - me] != game.state.zones[HAND0 + 1 - me]
            assert make_player("sharp", seed=2).choose(other) == choice
            checked += 1
    assert checked > 40 and changed > checked // 2  # the swaps did change the opponent's hand
