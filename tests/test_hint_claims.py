"""Every claim `hint` makes is checked by playing it: near the end of seeded games (where moves end
the game, in a win, a loss or a draw), the move hinted is legal; 'it wins at once' wins at once for
the player asking; 'the only legal move' is the only one; and asking changes nothing."""

from __future__ import annotations

import random
import re

import pytest

from interpreter import Game, load_ruleset
from interpreter.players.hint import hint


def _endgame_positions(spec: str, games: int) -> list[Game]:
    """The positions of the last few moves of seeded random games (where moves end the game)."""
    out = []
    rules = load_ruleset(spec)
    for seed in range(games):
        game = Game.new(rules, seed)
        rnd = random.Random(seed)
        while game.outcome is None:
            legal = game.legal_moves()
            game.play(legal[rnd.randrange(len(legal))])
        for back in range(1, 4):
            if len(game.moves) >= back:
                at = Game.new(rules, seed)
                for m in game.moves[:-back]:
                    at.push(m)
                out.append(at)
    return out


@pytest.mark.parametrize("spec, games", [("micro", 30), ("default", 12)])
def test_each_claim_of_a_hint_holds_when_played(spec: str, games: int) -> None:
    claims = set()
    for game in _endgame_positions(spec, games):
        d = game.decision
        before = game.state.key()
        said = hint(game, seed=1, seconds=0.05, iterations=20)
        assert game.state.key() == before, f"asking for a hint changed the game: {said}"
        m = re.match(r"hint: (.+?) — (.*)$", said)
        assert m, said
        move, why = m.groups()
        assert game.is_legal(move), said
        game.play(move)
        if why == "it wins at once":
            claims.add("wins")
            assert game.outcome is not None and game.outcome.winner == d.player, f"{said}, but: {game.outcome}"
        elif why == "the only legal move":
            claims.add("only")
            game.undo()
            assert [str(x) for x in game.legal_moves()] == [move]
        else:
            claims.add("other")
    assert "wins" in claims and "other" in claims
