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


@pytest.mark.parametrize("spec", ["sharp", "sharp?hand_value=0.4&reach=4"])
def test_sharp_does_not_peek_at_hidden_cards(spec: str) -> None:
    """The opponent's hidden hand and the deck dealt again among the cards the seat does not know
    (players/sampling.py `determinize`, which keeps its view): the same move. Also with the terms
    that read the cards in hand (`hand_value`) and the goals (`reach`)."""
    rng = random.Random(11)
    checked = changed = 0
    for game in _positions(range(4)):
        me = game.decision.player
        choice = make_player(spec, seed=2).choose(game)
        for _ in range(2):
            other = Game(game.rules, determinize(game.state, me, rng), game.seed)
            assert other.view(me) == game.view(me)
            changed += other.state.zones[HAND0 + 1 - me] != game.state.zones[HAND0 + 1 - me]
            assert make_player(spec, seed=2).choose(other) == choice
            checked += 1
    assert checked > 40 and changed > checked // 2  # the swaps did change the opponent's hand


def test_the_evaluation_terms_are_generic_features() -> None:
    """`hand_value` weighs the point values (the ruleset's `values:`) of the cards in each hand, `reach`
    a side within one point card of its goal; each is silent at weight 0."""
    from interpreter.players.sharp import SharpWeights, card_values, evaluate
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    vals = card_values(rules)
    assert vals[-1] == 10  # the highest value, after the cards' own
    g = build_position(rules, {"p1": {"hand": ["9C", "AD"], "points": ["9S", "4H"]}, "p2": {"hand": ["3D"]}}, 0)

    def value(**w: float) -> float:
        return evaluate(g, 0, SharpWeights(**w), vals)

    assert value(hand_value=1.0) == pytest.approx(value() + (9 + 1) - 3)
    assert value(reach=4.0) == pytest.approx(value() + 4.0)  # p1 needs 8, p2 needs 21
    assert value(need=2.0) == pytest.approx(value() + 21 - 8)  # points still missing, p2's less p1's
    # tempo: the point cards each side still needs from its hand, highest first (p1: the 9 covers its 8;
    # p2: its 3 does not cover 21); short: a side whose hand cannot cover what it lacks (p2, not p1)
    assert value(tempo=1.0) == pytest.approx(value() + 1 - 1)
    assert value(short=1.0) == pytest.approx(value() + 1 - 0)
    assert value(tempo=2.0, short=3.0) == pytest.approx(value() + 3.0)


@pytest.mark.parametrize("spec", ["default", "micro+jokers", "default+best-of-5"])
def test_a_position_is_worth_to_one_player_what_it_costs_the_other(spec: str) -> None:
    """A two-player game is zero-sum: at every position of random play, the heuristic's and sharp's
    evaluations (every term on) for p1 are those for p2 with the sign changed."""
    from interpreter.players import heuristic
    from interpreter.players.sharp import SharpWeights, card_values, evaluate

    rules = load_ruleset(spec)
    vals = card_values(rules)
    every = SharpWeights(tempo=1.5, short=2.5, reach=3.0, hand_value=0.5)
    rng = random.Random(4)
    checked = 0
    for seed in range(3):
        game = Game.new(rules, seed)
        while game.decision is not None and len(game.moves) < 80:
            g = game.state
            assert heuristic.evaluate(g, 0) == pytest.approx(-heuristic.evaluate(g, 1))
            assert evaluate(g, 0, every, vals) == pytest.approx(-evaluate(g, 1, every, vals))
            checked += 1
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
    assert checked > 100


def test_the_weights_are_player_options() -> None:
    for name in ("sharp", "ismcts"):
        p = make_player(f"{name}?hand=3&urgency=20&in_play=1&sees=2&reach=1&hand_value=0.5")
        w = p.w if isinstance(p, Sharp) else p.weights  # type: ignore[attr-defined]
        assert (w.hand, w.urgency, w.in_play, w.sees_hand, w.reach, w.hand_value) == (3, 20, 1, 2, 1, 0.5)


def _evaluations(rules) -> dict:  # type: ignore[no-untyped-def]
    """The two hand-set evaluations of a position from a seat's side: the heuristic's and sharp's."""
    from interpreter.players import heuristic
    from interpreter.players.sharp import DEFAULT_SHARP, card_values, evaluate

    vals = card_values(rules)
    return {"heuristic": heuristic.evaluate, "sharp": lambda g, me: evaluate(g, me, DEFAULT_SHARP, vals)}


@pytest.mark.parametrize("name", ["heuristic", "sharp"])
def test_seeing_the_other_hand_is_worth_something_to_the_one_who_sees_it(name: str) -> None:
    """p1's Royal an 8 (glasses: p2 plays with their hand face up to p1) against a Queen (no glasses,
    as much in play): better for p1, worse for p2, by the evaluation's weight of seeing the other hand."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    evaluate = _evaluations(rules)[name]

    def position(royal: str):  # type: ignore[no-untyped-def]
        p1 = {"hand": ["3C", "4C"], "points": ["5C"], "royals": [royal]}
        setup = {"unplaced": "scrap", "deck": ["9S", "9D"], "p1": p1, "p2": {"hand": ["3D", "4D"], "points": ["6D"]}}
        return build_position(rules, setup, 0)

    glasses, queen = position("8S"), position("QS")
    assert rules.hand_visible(glasses, 0) and not rules.hand_visible(queen, 0)
    assert not rules.hand_visible(glasses, 1)
    assert evaluate(glasses, 0) == pytest.approx(evaluate(queen, 0) + 0.4)
    assert evaluate(glasses, 1) == pytest.approx(evaluate(queen, 1) - 0.4)


@pytest.mark.parametrize("name", ["heuristic", "sharp"])
def test_at_a_table_of_three_a_side_is_weighed_against_the_opponent_nearest_its_goal(name: str) -> None:
    """Cutthroat (goal 14): p2 has 10 points, p3 has 2. p2 coming nearer makes p1's position worse;
    p3 gaining points while still furthest behind changes nothing for p1; p1's own points help it."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default+cutthroat")
    evaluate = _evaluations(rules)[name]

    def value(p1: list[str], p2: list[str], p3: list[str]) -> float:
        hands = {f"p{i}": {"hand": [f"3{s}", f"4{s}"]} for i, s in ((1, "C"), (2, "D"), (3, "H"))}
        setup = {"unplaced": "scrap", "deck": ["9S", "9D"], **hands}
        for seat, points in (("p1", p1), ("p2", p2), ("p3", p3)):
            setup[seat] = {**setup[seat], "points": points}
        return evaluate(build_position(rules, setup, 0), 0)

    base = value(["5C"], ["10D"], ["2H"])
    assert value(["5C"], ["10D", "2D"], ["2H"]) < base
    assert value(["5C"], ["10D"], ["2H", "2S"]) == pytest.approx(base)
    assert value(["5C", "2C"], ["10D"], ["2H"]) > base


@pytest.mark.parametrize("name", ["heuristic", "sharp"])
def test_in_teams_a_side_counts_the_points_its_partner_still_needs(name: str) -> None:
    """Teams (p1 with p3): a team wins when either partner does, so p1's position is its partner p3's
    when p3 is nearer the goal: p3's points help p1, p1's own (still behind p3) change nothing."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default+teams")
    evaluate = _evaluations(rules)[name]

    def value(p1: list[str], p3: list[str]) -> float:
        setup: dict = {"unplaced": "scrap", "deck": ["9S", "9D"]}
        for i, s in ((1, "C"), (2, "D"), (3, "H"), (4, "S")):
            setup[f"p{i}"] = {"hand": [f"3{s}"], "points": {1: p1, 2: ["6D"], 3: p3, 4: ["5S"]}[i]}
        return evaluate(build_position(rules, setup, 0), 0)

    base = value(["2C"], ["10H"])
    assert value(["2C"], ["10H", "2H"]) > base
    assert value(["2C", "4C"], ["10H"]) == pytest.approx(base)


def test_a_won_team_game_is_a_win_for_both_partners_and_a_loss_for_the_others() -> None:
    """Teams (p1 and p3 against p2 and p4): once p2 reaches the goal, both evaluations give p2 and its
    partner p4 the value of a win, and p1 and p3 that of a loss."""
    from interpreter.players.sides import WIN
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default+teams")
    setup = {
        "turn": "p2",
        "unplaced": "scrap",
        "deck": ["9S", "9D"],
        **{f"p{i}": {"hand": [f"3{s}"]} for i, s in ((1, "C"), (3, "H"), (4, "S"))},
        "p2": {"hand": ["10D"], "points": ["10H", "8H"]},
    }
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.play("points 10D")
    assert game.outcome is not None and game.outcome.winners == (1, 3)
    for name, evaluate in _evaluations(rules).items():
        assert [evaluate(game.state, s) for s in range(4)] == [-WIN, WIN, -WIN, WIN], name
