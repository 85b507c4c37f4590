"""The typed outcome (engine/outcome.py): the engine says how a game ended as data, and the English
every command prints is written from it. Games of several rulesets are played out and each ending is
checked against the position it left: who won, how, and the rule that did it."""

from __future__ import annotations

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.outcome import Outcome, Termination
from interpreter.engine.state import DRAW

from .playout import play_out, random_mover

# rulesets that end each way: goals, passes (points or no winner), a match
SPECS = ["default", "published", "micro", "default+best-of-5", "micro+jokers"]


def _endings(spec: str, games: int) -> list[Game]:
    rules = load_ruleset(spec)
    return [play_out(Game.new(rules, seed), random_mover(seed)) for seed in range(games)]


def _check(game: Game) -> None:
    g, o = game.state, game.outcome
    assert o is not None and o is g.outcome
    assert o.winner == (None if g.winner == DRAW else g.winner)
    rules = game.rules
    if o.termination is Termination.MATCH:
        assert o.rule == "match.wins" and o.hand is not None and o.hand is g.hands[-1]
        assert o.wins == g.wins and o.wins[o.winner] == rules.match_wins and o.count == len(g.hands)
        assert o.hand.winner == o.winner
        o = o.hand
    if o.termination is Termination.GOAL:
        assert o.rule == "end.goal" and o.seat == o.winner is not None
        assert rules.score_of(g, o.seat) >= rules.goal_of(g, o.seat)
    elif o.termination is Termination.PASSES:
        assert o.rule == "end.passes" and o.count == rules.passes_to_end == g.passes
        if rules.on_passes == "most_points":
            a, b = o.points
            assert (a, b) == (rules.score_of(g, 0), rules.score_of(g, 1))
            assert o.winner == (0 if a > b else 1 if b > a else None)
        else:
            assert o.points == () and o.winner is None
    elif o.termination is Termination.NO_LEGAL_MOVE:
        assert o.winner is None and o.seat == g.turn and not game.legal_moves()
    else:
        raise AssertionError(f"an unexpected ending in random play: {o}")


@pytest.mark.parametrize("spec", SPECS)
def test_every_ending_says_who_won_how_and_by_which_rule(spec: str) -> None:
    seen = set()
    for game in _endings(spec, 12):
        _check(game)
        seen.add(game.outcome.termination)
    assert seen, spec


def test_the_english_is_written_from_the_outcome() -> None:
    """The wording every command prints (records, the REPL, the lab's `reason` column) is the one
    written before the outcome was typed, byte for byte."""
    goal, stuck = Outcome(1, Termination.GOAL, "end.goal", 1), Outcome(None, Termination.NO_LEGAL_MOVE, None, 0)
    on_points = Outcome(0, Termination.PASSES, "end.passes", points=(12, 9), count=3)
    no_winner = Outcome(None, Termination.PASSES, "end.passes", count=3)
    rule = Outcome(0, Termination.RULE, "triggers.two jacks")
    match = Outcome(0, Termination.MATCH, "match.wins", count=5, wins=(3, 2), hand=rule)
    cases = {
        goal: "P2 wins: P2 reached the goal",
        stuck: "Draw: P1 has no legal move",
        on_points: "P1 wins: 3 passes in a row: points 12-9",
        no_winner: "Draw: 3 passes in a row end the game with no winner",
        rule: "P1 wins: a rule declared the winner (triggers.two jacks)",
        match: "P1 wins: P1 wins the match 3-2 (hand 5: a rule declared the winner (triggers.two jacks))",
        Outcome(None, Termination.MOVE_LIMIT): "Draw: the game reached 100,000 moves (MAX_MOVES)",
        Outcome(None, Termination.HAND_LIMIT, wins=(4, 4), hand=stuck): (
            "Draw: the match reached 1,000 hands (MAX_HANDS) at 4-4"
        ),
    }
    for o, text in cases.items():
        assert str(o) == text
        assert o.reason == text.partition(": ")[2].replace("P1", "p1").replace("P2", "p2")
    # a rule's own name is not rewritten as a seat (the old wording capitalised 'p1' inside it)
    assert str(Outcome(1, Termination.RULE, "triggers.p1 gives up")).endswith("(triggers.p1 gives up)")


def test_a_win_statement_names_its_rule_in_the_outcome(tmp_path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(
        "name: house\nextends: default\ntriggers:\n  at once:\n    event: game starts\n    effect: win opponent\n"
    )
    game = Game.new(load_ruleset(str(path)), 1)
    o = game.outcome
    assert o == Outcome(1, Termination.RULE, "triggers.at once")
    assert str(o) == "P2 wins: a rule declared the winner (triggers.at once)"
