"""Playing games out in tests, always with a cap on the number of moves: an engine bug that keeps a
game going forever fails the test that meets it instead of hanging the suite."""

from __future__ import annotations

import random
from collections.abc import Callable

from interpreter import Game
from interpreter.engine.moves import Move

MAX_MOVES = 2000  # far above any real game (random play ends in a few hundred moves at most)


def play_out(
    game: Game,
    choose: Callable[[Game], Move | str],
    max_moves: int = MAX_MOVES,
    play: Callable[[Move | str], object] | None = None,
) -> Game:
    """Play `choose(game)` until the game is over; fail if it is not over after `max_moves` moves.
    `play` plays a chosen move (default: `game.play`; a REPL session's `handle` in REPL tests)."""
    do = play or game.play
    for _ in range(max_moves):
        if game.outcome is not None:
            return game
        do(choose(game))
    assert game.outcome is not None, f"the game did not end within {max_moves} moves (seed {game.seed})"
    return game


def random_mover(seed: int) -> Callable[[Game], Move]:
    """A chooser of uniformly random legal moves, seeded."""
    rnd = random.Random(seed)

    def choose(game: Game) -> Move:
        moves = game.legal_moves()
        return moves[rnd.randrange(len(moves))]

    return choose
