"""The ISMCTS player: blind to hidden cards, deterministic for a seed, legal on every ruleset, and
stronger than random play."""

from __future__ import annotations

import random

import pytest

from interpreter import Game, load_ruleset, make_player
from interpreter.lab.matches import play_game
from interpreter.players.ismcts import ISMCTS
from interpreter.players.sharp import SharpWeights
from tests.rulesets_under_test import RULESETS
from tests.test_bot import permuted


def random_positions(spec: str, seeds: range, every: int = 4, limit: int = 80) -> list[Game]:
    """Positions of random games, each at a decision."""
    rules = load_ruleset(spec)
    out = []
    for seed in seeds:
        game = Game.new(rules, seed)
        rnd = random.Random(seed)
        for n in range(limit):
            if game.decision is None:
                break
            if n % every == every - 1:
                out.append(Game(rules, game.state.copy(), seed))
            moves = game.legal_moves()
            game.push(moves[rnd.randrange(len(moves))])
    return out


@pytest.mark.parametrize(
    "spec", ["default", "published", "default+twinned+random-4s", "default+joker-swap", "default+best-of-5"]
)
def test_the_same_move_whatever_the_hidden_cards(spec: str) -> None:
    rng = random.Random(1)
    checked = 0
    positions = [g for g in random_positions(spec, range(4)) if len(g.legal_moves()) >= 2][:5]
    for game in positions:
        me = game.decision.player
        choice = ISMCTS(7, iterations=60).choose(game)
        for _ in range(2):
            other = permuted(game, me, rng)
            assert other.view(me) == game.view(me)
            assert other.state.key() != game.state.key() or other.view(1 - me) == game.view(1 - me)
            assert ISMCTS(7, iterations=60).choose(other) == choice
            checked += 1
    assert checked >= 8


def test_deterministic_for_a_seed() -> None:
    for game in random_positions("default", range(2))[:6]:
        assert ISMCTS(3, iterations=80).choose(game) == ISMCTS(3, iterations=80).choose(game)
    assert (
        play_game("micro", 4, "ismcts:fast", "random").winner == play_game("micro", 4, "ismcts:fast", "random").winner
    )


@pytest.mark.slow
@pytest.mark.parametrize("spec", RULESETS)
def test_legal_moves_on_every_ruleset(spec: str) -> None:
    player = make_player("ismcts?iterations=25", seed=1)
    kinds = set()
    for game in random_positions(spec, range(2), every=3, limit=45):
        move = player.choose(game)
        assert move in game.legal_moves()
        kinds.add(game.decision.kind)
    assert "main" in kinds


def test_every_shipped_ruleset_is_under_test() -> None:
    from interpreter import shipped_names

    named = {part for spec in RULESETS for part in spec.split("+")}
    assert set(shipped_names()) <= named


def test_a_finished_game_is_refused() -> None:
    rules = load_ruleset("micro")
    game = Game.new(rules, 1)
    while game.outcome is None:
        game.push(game.legal_moves()[0])
    with pytest.raises(ValueError):
        ISMCTS(1).choose(game)


@pytest.mark.slow
def test_stronger_than_random_play() -> None:
    wins = 0
    for i in range(20):
        r = play_game("default", 500 + i, *(("ismcts:fast", "random") if i % 2 == 0 else ("random", "ismcts:fast")))
        wins += r.winner is not None and r.seats[r.winner] == "ismcts:fast"
    assert wins >= 16, f"ismcts:fast won only {wins} of 20 against random play"


def test_the_estimate_is_a_win_rate() -> None:
    game = next(g for g in random_positions("default", range(3)) if len(g.legal_moves()) >= 2)
    p = ISMCTS(2, iterations=120)
    p.choose(game)
    assert p.stats.last_win_rate is not None and 0.0 <= p.stats.last_win_rate <= 1.0
    assert p.stats.iterations == 120 and p.stats.playouts_per_second > 0


def test_progressive_widening_adds_the_best_evaluated_move_first() -> None:
    """With widening, a node's first child is the move whose position evaluates best for its chooser,
    and a node seen n times gets a new child only while it has fewer than 1 + widening * sqrt(n)."""
    from interpreter.engine.machine import apply_action, enumerate_actions

    games = [g for g in random_positions("micro", range(3)) if len(g.legal_moves()) >= 8][:4]
    assert games
    for game in games:
        me = game.decision.player
        p = ISMCTS(5, iterations=1, widening=1.0)
        (only,) = p.search(game.state, me)
        scores = {}
        for m, a in enumerate_actions(game.state):
            c = game.state.copy()
            apply_action(c, a)
            scores[m] = p._result(c, me)
        assert scores[only] == max(scores.values())
        visits = ISMCTS(5, iterations=100, widening=0.5).search(game.state, me)
        assert 2 <= len(visits) <= 2 + 0.5 * 99**0.5 < len(ISMCTS(5, iterations=100).search(game.state, me))


def test_the_reach_term_weighs_a_side_within_one_point_card_of_its_goal() -> None:
    """`reach` counts against a player the opponent being within one point card of its goal (its need
    at most the ruleset's highest card value), and for it the same of itself; nothing else changes."""
    from interpreter.players.heuristic import Weights, evaluate
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")

    def value(p1_points: list[str], p2_points: list[str], reach: float) -> float:
        g = build_position(
            rules, {"p1": {"hand": ["2C"], "points": p1_points}, "p2": {"hand": ["3D"], "points": p2_points}}, 0
        )
        return evaluate(g, 1, Weights(reach=reach))

    # p1 needs 8 (13 of 21): within reach of a 10; p2 needs 18: not
    assert value(["9S", "4H"], ["3C"], 3.0) == pytest.approx(value(["9S", "4H"], ["3C"], 0.0) - 3.0)
    # p1 needs exactly 10, the highest value: within reach; needing 11: out of reach, the term is silent
    assert value(["9S", "2H"], ["3C"], 3.0) == pytest.approx(value(["9S", "2H"], ["3C"], 0.0) - 3.0)
    assert value(["10S"], ["3C"], 3.0) == value(["10S"], ["3C"], 0.0)
    # both within reach: the terms cancel
    assert value(["9S", "4H"], ["9C", "4D"], 3.0) == value(["9S", "4H"], ["9C", "4D"], 0.0)
    # and ISMCTS scores positions with it
    g = build_position(rules, {"p1": {"hand": ["2C"], "points": ["9S", "4H"]}, "p2": {"hand": ["3D"]}}, 0)
    assert ISMCTS(1, weights=SharpWeights(reach=3.0))._result(g, 1) < ISMCTS(1, weights=SharpWeights())._result(g, 1)


def _one_card_from_the_goal() -> Game:
    """p1 at 13 of 21 with a hand of small cards and one 8 (8 points win at once); p2 far behind."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    setup = {
        "p1": {"hand": ["2C", "3D", "4H", "5S", "6C", "8H", "AD"], "points": ["9S", "4C"]},
        "p2": {"hand": ["3C", "5D"], "points": ["2S"]},
    }
    return Game(rules, build_position(rules, setup, 0), 0)


def _wins_at_once(game: Game, player: int) -> set:
    """The legal moves after which `player` has won (each tried on a copy of the game)."""
    out = set()
    for m in game.legal_moves():
        g = Game(game.rules, game.state.copy(), 0)
        g.push(m)
        if g.outcome is not None and g.outcome.winner == player:
            out.add(m)
    return out


def test_a_move_that_wins_at_once_is_played() -> None:
    """Whatever the search would say, a move that ends the game in the player's favour is played."""
    game = _one_card_from_the_goal()
    winning = _wins_at_once(game, 0)
    assert winning and len(winning) < len(game.legal_moves())
    # one iteration without widening expands one move at random: only the check makes it a winning one
    assert all(ISMCTS(seed, iterations=1, widening=0.0).choose(game) in winning for seed in range(8))


def test_in_the_tree_a_move_that_wins_at_once_is_always_taken() -> None:
    """Once a node's move is seen to win at once, every later visit takes it: the other moves keep the
    single visit of their expansion (UCB alone would keep exploring them)."""
    game = _one_card_from_the_goal()
    visits = ISMCTS(3, iterations=300, widening=0.0).search(game.state, 0)
    best = max(visits, key=lambda m: visits[m][0])
    assert visits[best][1] == 1.0
    assert all(n == 1 for m, (n, _) in visits.items() if m != best)
    assert visits[best][0] == 300 - (len(visits) - 1)


def test_in_the_tree_the_opponent_is_not_assumed_to_take_a_win() -> None:
    """Only the searcher's own immediate wins are taken outright in the tree: where the other player
    decides, a move of theirs that wins at once is weighed by UCB with the rest (assuming every
    opponent takes every win cost games against `random` and gained none against `heuristic`).
    Searched from p2's view of a Micro position (hands face up) where p1 decides and can win at once."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("micro")
    setup = {
        "p1": {"hand": ["6D", "AS", "2C", "3D"], "points": ["9S", "4C", "2H"]},
        "p2": {"hand": ["3S", "9C"], "points": ["10C"]},
    }
    game = Game(rules, build_position(rules, setup, 0), 0)
    assert game.decision.player == 0
    wins = _wins_at_once(game, 0)
    assert wins  # `points 6D` reaches 21
    visits = ISMCTS(3, iterations=300, widening=0.0).search(game.state, 1)
    assert max(n for m, (n, _) in visits.items() if m not in wins) > 1


def _ends_the_game(game: Game) -> dict[str, str]:
    """The legal moves after which the game is over, each with its outcome."""
    out = {}
    for m in game.legal_moves():
        g = Game(game.rules, game.state.copy(), 0)
        g.push(m)
        if g.outcome is not None:
            out[str(m)] = str(g.outcome)
    return out


def _a_six_that_loses() -> Game:
    """p1 holds p2's 10D (with a Jack) and a Queen; p1's 6 (uncounterable) scraps the Jack, the 10D goes
    back to p2, who reaches 21 and wins."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    setup = {
        "p1": {"hand": ["6C", "9H"], "royals": ["QH"], "points": ["10D+JC"]},
        "p2": {"hand": ["3S"], "points": ["10S", "AS"]},
    }
    return Game(rules, build_position(rules, setup, 0), 0)


def _a_pass_that_draws() -> Game:
    """The deck is empty, the points equal, two passes made: p1's third pass ends the game in a draw."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    setup = {
        "unplaced": "scrap",
        "p1": {"hand": ["5C", "4D"], "points": ["10S"]},
        "p2": {"hand": ["3D"], "points": ["10H"]},
    }
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.play("pass")
    game.play("pass")
    return game


@pytest.mark.parametrize("position", [_a_six_that_loses, _a_pass_that_draws], ids=["a loss", "a draw"])
def test_a_move_that_ends_the_game_without_a_win_is_not_taken_for_one(position) -> None:
    """A move that ends the game in a loss or a draw is not a decisive win: not played outright, not
    always taken in the tree; the search weighs it by its result (0 for a loss, 1/2 for a draw)."""
    game = position()
    ending = _ends_the_game(game)
    assert len(ending) == 1 and "P1 wins" not in next(iter(ending.values()))
    (move,) = ending
    assert all(str(ISMCTS(seed, iterations=100).choose(game)) != move for seed in range(4))
    visits = {str(m): v for m, v in ISMCTS(3, iterations=200, widening=0.0).search(game.state, 0).items()}
    assert visits[move][1] == (0.0 if "wins" in ending[move] else 0.5)
    assert visits[move][0] < max(n for n, _ in visits.values())


def test_the_leaves_are_scored_by_the_rulesets_learnt_evaluation_or_sharps() -> None:
    """By default a leaf is scored at once (no random playout) by the ruleset's learnt evaluation (the
    default rules ship one), or with `weights=default` by sharp's hand-set evaluation, squashed with one
    logistic unit per `temperature` evaluation units."""
    import math

    from interpreter.players.learnt import lookup
    from interpreter.players.sharp import card_values, evaluate

    p, hand_set = make_player("ismcts"), make_player("ismcts?weights=default")
    assert isinstance(p, ISMCTS) and p.horizon == 0 and p.weights == SharpWeights()
    assert isinstance(hand_set, ISMCTS)
    for game in random_positions("default", range(2))[:6]:
        g = game.state
        learnt = lookup(game.rules)
        assert learnt is not None
        for who in (0, 1):
            v = learnt.linear(game.rules).value(g, who)
            assert p._result(g, who) == pytest.approx(1 / (1 + math.exp(-v / p.temperature)))
            v = evaluate(g, who, SharpWeights(), card_values(game.rules))
            assert hand_set._result(g, who) == pytest.approx(1 / (1 + math.exp(-v / p.temperature)))


def test_in_a_match_the_hands_a_player_has_won_count_for_it() -> None:
    """Issue 43's surviving bug: ISMCTS counted a match's hands won against itself. A position of a
    best-of-5 scores higher for the player who leads the match, lower for the one behind, the rest equal."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default+best-of-5")
    assert rules.match_wins > 1
    g = build_position(rules, {"p1": {"hand": ["2C", "9H"], "points": ["4S"]}, "p2": {"hand": ["3D", "5C"]}}, 0)
    p = ISMCTS(1)

    def scored(wins: tuple[int, int], me: int) -> float:
        c = g.copy()
        c.wins = wins
        return p._result(c, me)

    for me in (0, 1):
        ahead = (1, 0) if me == 0 else (0, 1)
        behind = (ahead[1], ahead[0])
        assert scored(behind, me) < scored((0, 0), me) < scored(ahead, me), me
        assert scored((1, 1), me) == pytest.approx(scored((0, 0), me))


def test_at_a_table_of_three_each_seat_searches_for_its_own_result() -> None:
    """Cutthroat (goal 14), p2 to move with 13 points and the others with none (no move wins at once):
    the search backs up each seat's own result, so p2 rates its chances high, not by another seat's."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default+cutthroat")
    setup = {
        "turn": "p2",
        "deck": ["9S", "9D", "8C", "7C", "6C", "5S", "4S"],
        "unplaced": "scrap",
        "p1": {"hand": ["3C", "4C"]},
        "p2": {"hand": ["QD", "QH"], "points": ["10D", "3D"]},
        "p3": {"hand": ["3H", "4H"]},
    }
    game = Game(rules, build_position(rules, setup, 0), 0)
    assert game.decision is not None and game.decision.player == 1
    player = ISMCTS(1, iterations=200)
    player.choose(game)
    assert player.stats.last_win_rate is not None and player.stats.last_win_rate > 0.7
