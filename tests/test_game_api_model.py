"""The `Game` API against a model of its history (a Hypothesis state machine): play, an illegal
move, undo, redo, save and load in any order must keep the game where the model says it is.

The model is the list of moves played (each with the exact position it led to) and the list of
moves undone that `redo` would play again. A new move after an undo forgets what could be redone;
undo and redo restore the exact positions; an illegal move changes nothing; a saved record loads
back into the same moves and position; the outcome is the one the position holds.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from interpreter import Game, IllegalMoveError, load_ruleset
from interpreter.core.errors import MoveError
from interpreter.scripting import records

# a plain game, a match (hands end and new ones are dealt), the open-handed micro game
SPECS = ("default", "default+best-of-5", "micro+jokers")


class GameHistory(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.played: list[tuple[str, tuple]] = []  # (move, position after it)
        self.undone: list[tuple[str, tuple]] = []  # what redo plays again, the next one last
        self.start: tuple = ()

    @initialize(spec=st.sampled_from(SPECS), seed=st.integers(0, 50))
    def deal(self, spec: str, seed: int) -> None:
        self.game = Game.new(load_ruleset(spec), seed)
        self.start = self.game.state.key()

    def _game(self) -> Game:
        assert self.game is not None
        return self.game

    @rule(pick=st.integers(0, 10_000))
    def play(self, pick: int) -> None:
        game = self._game()
        moves = game.legal_moves()
        if not moves:
            return
        move = str(moves[pick % len(moves)])
        game.play(move)
        self.played.append((move, game.state.key()))
        self.undone.clear()  # a new move forgets what could be redone

    @rule(text=st.sampled_from(["draw", "pass", "points 7H", "scuttle 9H 9D", "resolve", "discard 3H 5C", "royal KS"]))
    def try_a_move(self, text: str) -> None:
        game = self._game()
        if game.is_legal(text):
            return
        before, redo = game.state.key(), game.can_redo
        with pytest.raises(MoveError):
            game.play(text)
        assert game.state.key() == before and game.can_redo == redo, f"'{text}' failed but changed the game"

    @rule()
    def undo(self) -> None:
        game = self._game()
        if not self.played:
            with pytest.raises(IllegalMoveError):
                game.undo()
            return
        move = game.undo()
        entry = self.played.pop()
        assert str(move) == entry[0]
        self.undone.append(entry)

    @precondition(lambda self: self.game is not None)
    @rule()
    def redo(self) -> None:
        game = self._game()
        if not self.undone:
            with pytest.raises(IllegalMoveError):
                game.redo()
            return
        move = game.redo()
        entry = self.undone.pop()
        assert str(move) == entry[0] and game.state.key() == entry[1], "redo did not play the move undone"
        self.played.append(entry)

    @rule()
    def save_and_load(self) -> None:
        game = self._game()
        again = records.replay(records.record_of(game))
        assert [str(m) for m in again.moves] == [m for m, _ in self.played]
        assert again.state.key() == game.state.key() and again.outcome == game.outcome

    @invariant()
    def where_the_model_says(self) -> None:
        if self.game is None:
            return
        game = self.game
        assert [str(m) for m in game.moves] == [m for m, _ in self.played]
        assert game.state.key() == (self.played[-1][1] if self.played else self.start)
        assert game.can_undo == bool(self.played) and game.can_redo == bool(self.undone)
        assert (game.outcome is None) == (game.state.winner is None)
        assert (game.outcome is None) == bool(game.legal_moves())


GameHistory.TestCase.settings = settings(
    max_examples=25, stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_the_game_api_keeps_to_its_history = GameHistory.TestCase
