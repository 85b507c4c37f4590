"""A hint for the player who must decide, from that player's own view only.

When nothing is hidden (every card of the deck known, both hands face up) the exact solver is tried
with a small budget; its value and best move are the hint. Otherwise — something hidden, a random
event ahead, or the budget too small — ISMCTS searches from the player's view and its move is the
hint, with the win rate it estimates.
"""

from __future__ import annotations

from interpreter.engine.game import Game

from .ismcts import ISMCTS
from .solver import NotSolvable, hidden_reason, solve

WORDS = {1: "a win for you", 0: "a draw", -1: "a loss for you"}


def hint(game: Game, seed: int = 0, seconds: float = 1.5, iterations: int = 400) -> str:
    d = game.decision
    if d is None:
        return f"the game is over ({game.outcome})"
    legal = game.legal_moves()
    if len(legal) == 1:
        return f"hint: {legal[0]} — the only legal move"
    for m in legal:  # a move that wins at once needs no search
        game.push(m)
        won = game.outcome is not None and d.player in game.outcome.winners
        game.pop()
        if won:
            return f"hint: {m} — it wins at once"
    why = hidden_reason(game.state)
    if why is None:
        try:
            s = solve(game, max_nodes=200_000, max_seconds=seconds)
        except NotSolvable as e:
            why = str(e).removeprefix("cannot solve: ")
        else:
            if s.complete:
                return (
                    f"hint: {s.move} — solved: {WORDS[s.value]} under perfect play "  # type: ignore[index]
                    f"({s.nodes:,} positions searched)"
                )
            why = f"not solved within {seconds:g} s"
    player = ISMCTS(seed, iterations=iterations)
    move = player.choose(game, d.player)
    rate = player.stats.last_win_rate
    estimate = (
        f"ISMCTS estimates a {100 * rate:.0f}% win rate over {player.stats.iterations:,} playouts"
        if rate is not None and player.stats.iterations
        else "ISMCTS's pick"
    )
    return f"hint: {move} — {estimate} (not solved exactly: {why})"
