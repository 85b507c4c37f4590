"""The conformance harness: many seeded random games on every shipped ruleset, checking after
every move that every card is in exactly one place, that undo restores the exact previous state,
and at the end that a record replays to the same final state and that the game ended."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.state import FIELD0
from interpreter.scripting.records import record_of, replay

from .rulesets_under_test import GAMES as GAMES_FOR
from .rulesets_under_test import RULESETS

GAMES = int(os.environ.get("CUTTLE_HARNESS_GAMES", "0")) or None  # a cap for quick local runs
UNDO_CHECKED_GAMES = int(os.environ.get("CUTTLE_HARNESS_UNDO_GAMES", "150"))
MAX_MOVES = 5000


def _places(game: Game) -> Counter:
    g = game.state
    seen: Counter = Counter()
    for zone, cards in enumerate(g.zones):
        for c in cards:
            seen[c] += 1
            assert g.zone_of[c] == zone, f"card {c} listed in zone {zone} but zone_of says {g.zone_of[c]}"
    return seen


def _check_cards(game: Game) -> None:
    seen = _places(game)
    deck = set(game.rules.deck_cards)
    assert set(seen) == deck, f"cards missing {deck - set(seen)} or foreign {set(seen) - deck}"
    doubled = [c for c, n in seen.items() if n != 1]
    assert not doubled, f"cards in more than one place: {doubled}"
    g = game.state
    for host, atts in g.atts.items():
        for j in atts:
            assert g.host[j] == host
            assert g.zone_of[j] in (FIELD0, FIELD0 + 1), "an attached card must be in play"
        if atts:
            assert g.zone_of[host] == FIELD0 + g.owner[atts[-1]], "the top attachment's owner controls the host"


def play_random_game(spec: str, seed: int, check_undo: bool) -> Game:
    rules = load_ruleset(spec)
    game = Game.new(rules, seed)
    rnd = random.Random(seed)
    _check_cards(game)
    for _ in range(MAX_MOVES):
        if game.outcome is not None:
            break
        moves = game.legal_moves()
        assert moves, "a game that is not over must have a legal move"
        move = moves[rnd.randrange(len(moves))]
        assert game.parse_move(str(move)) == move, f"'{move}' does not round-trip through its text"
        if check_undo:
            before = game.state.key()
            game.play(move)
            after = game.state.key()
            game.pop()
            assert game.state.key() == before, f"undo of '{move}' did not restore the state"
            game.play(move)
            assert game.state.key() == after, f"replaying '{move}' after undo gave a different state"
        else:
            game.play(move)
        _check_cards(game)
    assert game.outcome is not None, f"game {spec} seed {seed} did not end within {MAX_MOVES} moves"
    return game


@pytest.mark.parametrize("spec", RULESETS)
def test_random_games_keep_invariants_and_end(spec: str) -> None:
    games = GAMES_FOR.get(spec, 1000)
    if GAMES is not None:
        games = min(games, GAMES)
    undo_games = min(UNDO_CHECKED_GAMES, max(1, games // 5))
    for seed in range(games):
        game = play_random_game(spec, seed, check_undo=seed < undo_games)
        if seed % 10 == 0:
            again = replay(record_of(game))
            assert again.state.key() == game.state.key(), f"seed {seed}: the record does not replay exactly"


@pytest.mark.parametrize("spec", RULESETS)
def test_same_seed_same_game(spec: str) -> None:
    a = play_random_game(spec, 12345, check_undo=False)
    b = play_random_game(spec, 12345, check_undo=False)
    assert a.moves == b.moves and a.state.key() == b.state.key()
