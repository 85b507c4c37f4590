"""The generic features of a position (players/features.py): derived from the ruleset, read as the
plain definitions say, and the fast evaluation equal to the weights times the features."""

from __future__ import annotations

import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.knowledge import known_bit
from interpreter.engine.state import DECK
from interpreter.players.evaluation import DEFAULT_SHARP, card_values, evaluate
from interpreter.players.features import Linear, extract, feature_names, hand_set

HOUSE = "examples/house"


def positions(spec: str, games: int = 6, moves: int = 70, seed: int = 0):
    """States of seeded random play (both sides' decisions), each with whoever decides."""
    rules = load_ruleset(spec)
    rng = random.Random(seed)
    for s in range(games):
        game = Game.new(rules, 1000 + s)
        for _ in range(moves):
            if game.decision is None:
                break
            yield game.state
            game.play(rng.choice(game.legal_moves()))


def test_the_features_come_from_the_ruleset() -> None:
    default = feature_names(load_ruleset("default"))
    assert "hand:K" in default and "play:8" in default and "top:9" in default
    assert not any(n.startswith(("counter:", "mark:")) for n in default)
    micro = feature_names(load_ruleset("micro"))  # A 2 3 4 6 9 10 J Q K: no 5, 7, 8 in its deck
    assert "hand:9" in micro and "hand:5" not in micro and "play:8" not in micro
    assert "hand:Joker" in feature_names(load_ruleset("micro+jokers"))
    assert "counter:scuttles" in feature_names(load_ruleset(f"{HOUSE}/scuttle-quota.yaml"))
    assert "mark:wronged" in feature_names(load_ruleset(f"{HOUSE}/first-turn-no-scuttle.yaml"))


@pytest.mark.parametrize("spec", ["default", "micro", "published"])
def test_the_hand_set_weights_are_todays_evaluation(spec: str) -> None:
    rules = load_ruleset(spec)
    lin, vals = hand_set(rules), card_values(rules)
    for g in positions(spec):
        for me in (0, 1):
            assert lin.value(g, me) == pytest.approx(evaluate(g, me, DEFAULT_SHARP, vals), abs=1e-9)


@pytest.mark.parametrize(
    "spec", ["default", "micro+jokers", f"{HOUSE}/scuttle-quota.yaml", f"{HOUSE}/first-turn-no-scuttle.yaml"]
)
def test_the_fast_value_is_the_weights_times_the_features(spec: str) -> None:
    rules = load_ruleset(spec)
    names = feature_names(rules)
    rng = random.Random(3)
    weights = {n: rng.uniform(-3, 3) for n in names}
    lin = Linear(rules, weights, horizon=25)
    seen_nonzero: set[str] = set()
    for g in positions(spec):
        for me in (0, 1):
            f = extract(g, me, names, 25)
            assert lin.value(g, me) == pytest.approx(sum(weights[n] * x for n, x in zip(names, f, strict=True)))
            # every feature is a difference between the sides: the other side sees its negation
            assert extract(g, 1 - me, names, 25) == pytest.approx([-x for x in f])
            seen_nonzero |= {n for n, x in zip(names, f, strict=True) if x}
    assert {"need", "hand", "hand:K", "late:points"} <= seen_nonzero  # (the walk reached real positions)


def test_a_known_top_card_counts_for_the_next_to_draw_only_when_known() -> None:
    rules = load_ruleset("default")
    game = Game.new(rules, 5)
    g = game.state.copy()
    top = g.zones[DECK][-1]
    rank = {
        c: r
        for r, c in zip(
            ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), range(0, 52, 4), strict=True
        )
    }
    name = f"top:{rank[top - top % 4]}"
    names = feature_names(rules)
    i = names.index(name)
    assert extract(g, 0, names, 30)[i] == 0  # nobody knows the deck's top
    g.known |= known_bit(top, 0)  # p1 saw it (as after a 9 put it there)
    assert extract(g, 0, names, 30)[i] == 1  # p1 moves first: the next to draw
    assert extract(g, 1, names, 30)[i] == -1
