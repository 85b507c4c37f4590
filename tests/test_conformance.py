"""The conformance harness: many seeded random games on every shipped ruleset, checking after every
move that every card is in exactly one place, and that each game ends, with nothing left on the
stack (ruling 20). On a sample of the games,
spread over all the seeds, every move is also undone and played again (undo restores the exact
previous state, and the move gives the same state again), and the finished game's record replays to
the same final state. "The same state" is `State.key()`, which covers every field of the state."""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.zones import FIELDS, IS_FIELD
from interpreter.engine.state import STACK, Rng, State
from interpreter.scripting.records import record_of, replay

from .rulesets_under_test import GAMES as GAMES_FOR
from .rulesets_under_test import RULESETS

pytestmark = pytest.mark.slow  # a harness of many seeded games: the full tier only

GAMES = int(os.environ.get("CUTTLE_HARNESS_GAMES", "0")) or None  # a cap for quick local runs
CHECK_EVERY = 5  # undo and replay are checked on every 5th game (seeds 0, 5, 10, ...)
MAX_MOVES = 5000


def _check_cards(game: Game, deck: list[int]) -> None:
    """Every card of the ruleset (`deck`, sorted) in exactly one zone, where `zone_of` says; attachments
    consistent."""
    g = game.state
    zone_of = g.zone_of
    placed: list[int] = []
    for zone, cards in enumerate(g.zones):
        wrong = [c for c in cards if zone_of[c] != zone]
        assert not wrong, f"cards {wrong} listed in zone {zone} but zone_of says {[zone_of[c] for c in wrong]}"
        placed += cards
    if sorted(placed) != deck:
        seen, deck = Counter(placed), set(game.rules.deck_cards)
        assert set(seen) == deck, f"cards missing {deck - set(seen)} or foreign {set(seen) - deck}"
        raise AssertionError(f"cards in more than one place: {[c for c, n in seen.items() if n != 1]}")
    for host, atts in g.atts.items():
        for j in atts:
            assert g.host[j] == host
            assert IS_FIELD[zone_of[j]], "an attached card must be in play"
        if atts:
            assert zone_of[host] == FIELDS[g.owner[atts[-1]]], "the top attachment's owner controls the host"


def play_random_game(spec: str, seed: int, check_undo: bool) -> Game:
    """One random game to its end, the invariants checked after every move; with `check_undo`, every
    move is also written and read back, undone, and played again."""
    rules = load_ruleset(spec)
    deck = sorted(rules.deck_cards)
    game = Game.new(rules, seed)
    rnd = random.Random(seed)
    _check_cards(game, deck)
    for _ in range(MAX_MOVES):
        if game.outcome is not None:
            break
        moves = game.legal_moves()
        assert moves, "a game that is not over must have a legal move"
        move = moves[rnd.randrange(len(moves))]
        if check_undo:
            assert game.parse_move(str(move)) == move, f"'{move}' does not round-trip through its text"
            before = game.state.key()
            game.play(move)
            after = game.state.key()
            game.pop()
            assert game.state.key() == before, f"undo of '{move}' did not restore the state"
            game.play(move)
            assert game.state.key() == after, f"replaying '{move}' after undo gave a different state"
        else:
            game.play(move)
        _check_cards(game, deck)
    assert game.outcome is not None, f"game {spec} seed {seed} did not end within {MAX_MOVES} moves"
    stack = game.state.zones[STACK]
    assert not stack, f"game {spec} seed {seed} ended with {stack} still on the stack (ruling 20)"
    return game


@pytest.mark.parametrize("spec", RULESETS)
def test_random_games_keep_invariants_and_end(spec: str) -> None:
    games = GAMES_FOR.get(spec, 1000)
    if GAMES is not None:
        games = min(games, GAMES)
    checked = 0
    for seed in range(games):
        sampled = seed % CHECK_EVERY == 0
        game = play_random_game(spec, seed, check_undo=sampled)
        if sampled:
            again = replay(record_of(game))
            assert _replay_key(again) == _replay_key(game), f"seed {seed}: the record does not replay exactly"
            checked += 1
    assert checked == -(-games // CHECK_EVERY) and checked >= 1


def _replay_key(game: Game) -> tuple:
    """The state's key, with each waiting frame's program named by its length: a ruleset given by its
    path is built again when a record is replayed, so its compiled functions are other objects."""
    frames = game.state.frames
    return tuple(
        tuple((len(f[0]), f[1], tuple(sorted(f[2].items()))) for f in frames) if v is frames else v
        for v in _key_parts(game)
    )


def _key_parts(game: Game) -> tuple:
    key = game.state.key()
    i = State.__slots__.index("frames") - 1  # key() lists the slots in their order, less `rules` (the first)
    return key[:i] + (game.state.frames,) + key[i + 1 :]


def _changed(value: Any) -> Any:
    """A different value of the same shape, for any slot of the state."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "!"
    if isinstance(value, list):
        return [_changed(value[0]), *value[1:]] if value else [0]
    if isinstance(value, tuple):
        return (*value, (0, "x"))
    if isinstance(value, dict):
        return {**value, 99: [98] if not value or isinstance(next(iter(value.values())), list) else ("x", 9)}
    if value is None:
        return (0, "changed")
    if isinstance(value, Rng):
        return Rng(value.s + 1)
    raise AssertionError(f"no way to change a {type(value).__name__}")


def test_the_position_key_covers_every_field_of_the_state() -> None:
    game = Game.new(load_ruleset("default"), 3)
    game.play("draw")
    state = game.state
    for slot in State.__slots__:
        if slot in State.NOT_IN_KEY:
            continue
        other = state.copy()
        value = getattr(state, slot)
        setattr(other, slot, [*value, [(), 0, {}]] if slot == "frames" else _changed(value))
        assert other.key() != state.key(), f"State.key() misses the slot '{slot}'"
    # the ruleset, the cache of legal actions, the bindings of the running program (read only to name
    # what caused a move: the events it makes are in the key, below), and the log of what the game's
    # history did (triggers fired, counters changed, cards shown: the lab's counts, not the position)
    assert set(State.NOT_IN_KEY) == {"rules", "actions", "cur", "log", "pg"}  # pg: the win check's note, a cache


def test_the_position_key_covers_the_events_of_a_ruleset_with_triggers() -> None:
    from .test_triggers import HOUSE

    game = Game.new(load_ruleset(str(HOUSE)), 3)
    other = game.state.copy()
    other.events.append(("turn starts", 0))
    assert other.key() != game.state.key() and game.state.events == []


@pytest.mark.parametrize("spec", RULESETS)
def test_same_seed_same_game(spec: str) -> None:
    a = play_random_game(spec, 12345, check_undo=False)
    b = play_random_game(spec, 12345, check_undo=False)
    assert a.moves == b.moves and _replay_key(a) == _replay_key(b)
