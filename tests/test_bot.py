"""The bot: deterministic, legal, blind to hidden cards, and much stronger than random play."""

from __future__ import annotations

import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.knowledge import known_hidden
from interpreter.engine.state import DECK, HAND0
from interpreter.lab.matches import run_matches
from interpreter.players.heuristic import Bot, RandomPlayer

from .playout import play_out


def positions(seeds: range, every: int = 3) -> list[Game]:
    """Games stopped at various points (bot against random), each at a decision."""
    rules = load_ruleset("default")
    out = []
    for seed in seeds:
        game = Game.new(rules, seed)
        players = [Bot(seed), RandomPlayer(seed)]
        n = 0
        while game.decision is not None and n < 60:
            if n % every == 0:
                snap = Game(rules, game.state.copy(), seed)
                out.append(snap)
            game.push(players[game.decision.player].choose(game))
            n += 1
    return out


def permuted(game: Game, player: int, rng: random.Random) -> Game:
    """The same position with the cards `player` cannot see dealt again among their zones."""
    state = game.state.copy()
    hand, deck = known_hidden(state, player)  # what the player knows stays where it is
    known = set(hand) | {c for _, c in deck}
    places = [(z, i) for z in (DECK, HAND0 + 1 - player) for i, c in enumerate(state.zones[z]) if c not in known]
    cards = [state.zones[z][i] for z, i in places]
    bits = [state.known >> (c << 2) & 3 for c in cards]  # what the opponent knows goes with the place
    for c in cards:
        state.known &= ~(15 << (c << 2))
    rng.shuffle(cards)
    for (z, i), c, b in zip(places, cards, bits, strict=True):
        state.zones[z][i] = c
        state.zone_of[c] = z
        state.known |= b << (c << 2)
    state.rng.s ^= rng.getrandbits(64)  # the game's own generator is hidden too
    return Game(game.rules, state, game.seed)


def _bot_game(seed: int, bot_seed: int) -> Game:
    """The bot (p1) against random play, to the end."""
    bot, rnd = Bot(bot_seed), RandomPlayer(seed)
    return play_out(
        Game.new(load_ruleset("default"), seed), lambda g: (bot if g.decision.player == 0 else rnd).choose(g)
    )


@pytest.mark.slow
def test_deterministic_for_a_seed() -> None:
    a, b = _bot_game(2, 5), _bot_game(2, 5)
    assert a.moves == b.moves and a.state.key() == b.state.key() and len(a.moves) > 10
    assert _bot_game(2, 8).moves != a.moves  # the bot's seed matters: the comparison can fail
    for game in positions(range(3)):
        assert Bot(5).choose(game) == Bot(5).choose(game)


@pytest.mark.slow
def test_moves_are_legal_in_every_kind_of_decision() -> None:
    kinds = set()
    for game in positions(range(6), every=1):
        d = game.decision
        kinds.add(d.kind)
        move = Bot(1).choose(game)
        assert move in game.legal_moves()
    assert {"main", "respond"} <= kinds


@pytest.mark.slow
def test_does_not_peek_at_hidden_cards() -> None:
    rng = random.Random(0)
    checked = 0
    for game in positions(range(8), every=2):
        me = game.decision.player
        choice = Bot(3).choose(game)
        for _ in range(2):
            other = permuted(game, me, rng)
            assert game.view(me) == other.view(me)
            assert Bot(3).choose(other) == choice
            checked += 1
    assert checked > 50


def test_refuses_a_finished_game() -> None:
    game = play_out(Game.new(load_ruleset("default"), 1), Bot(1).choose)
    with pytest.raises(ValueError):
        Bot(1).choose(game)


@pytest.mark.slow
def test_beats_random_play() -> None:
    """As `cuttle match --p1 heuristic --p2 random --games 60 --seed 1000` plays it (seats alternating)."""
    results = run_matches("default", "heuristic", "random", 60, seed=1000)
    wins = sum(1 for r in results if r.winner is not None and r.seats[r.winner] == "heuristic")
    assert wins / len(results) >= 0.7, f"the bot won only {wins} of {len(results)}"


def test_a_card_more_in_hand_is_worth_more_to_its_holder() -> None:
    """The heuristic's view of a position: the same position with one more card in p1's hand (the top
    of the deck drawn) is better for p1 and worse for p2, whatever else is on the table."""
    from interpreter.engine.machine import deal
    from interpreter.players.heuristic import evaluate

    rules = load_ruleset("default")
    for seed in range(6):
        g = deal(rules, seed)
        more = g.copy()
        more.draw(0, 1)
        assert evaluate(more, 0) > evaluate(g, 0) and evaluate(more, 1) < evaluate(g, 1), seed


def test_its_own_follow_up_choices_are_taken_at_best() -> None:
    """p1 has 12 points (goal 21) and knows the deck's top two cards, a 10 and a 4: a 7 reveals them and
    p1 plays one, so the 7 wins if p1 then plays the 10 for points. The heuristic takes its own
    choices inside its turn at best, so it plays the 7 (not the 7 for points, its best move else)."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    setup = {
        "turn": "p1",
        "unplaced": "scrap",
        "deck": ["10H", "4S", "9C", "8D"],
        "p1": {"hand": ["7C", "2C"], "points": ["9S", "3S"], "knows": ["10H", "4S"]},
        "p2": {"hand": ["3D", "5D"], "points": ["6D"], "knows": ["10H", "4S"]},
    }
    game = Game(rules, build_position(rules, setup, 0), 0)
    assert {str(Bot(seed).choose(game)) for seed in range(3)} == {"oneoff 7C"}
