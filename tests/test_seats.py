"""Seats as data (SPEC rulings 21-26): a table of three or four, partners, turn order, the deal, answers
going round the table, passes, goals checked in turn order, and plays aimed at each opponent.

The rulesets are tests/rulesets/seats/*.yaml: the default rules at a table of three, and of four in two
teams (partners across)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import NAMES, parse_card
from interpreter.core.errors import RulesetErrors
from interpreter.core.zones import DECK, FIELDS, HANDS, SCRAP, STACK
from interpreter.engine.machine import apply_action, check_win, deal, legal_actions, run
from interpreter.engine.outcome import Outcome, Termination
from interpreter.engine.state import State

from .scenario_util import house_file

HERE = Path(__file__).parent / "rulesets" / "seats"
THREE, FOUR, MATCH = (str(HERE / f) for f in ("three.yaml", "four-teams.yaml", "three-match.yaml"))


def _c(name: str) -> int:
    return parse_card(name)


def _position(
    spec: str,
    hands: dict[int, list[str]],
    points: dict[int, list[str]] | None = None,
    turn: int = 0,
    deck: list[str] | None = None,
) -> Game:
    """A game of `spec` at a position: these hands and point cards, the rest in the deck (or the deck
    exactly `deck`, top card first, and the rest in the scrap), `turn`'s main decision."""
    rules = load_ruleset(spec)
    g = deal(rules, 0)
    g.clear()
    g.pending = None
    placed = set()
    for p, cards in hands.items():
        for n in cards:
            g.zones[HANDS[p]].append(_c(n))
            g.zone_of[_c(n)] = HANDS[p]
            placed.add(_c(n))
    for p, cards in (points or {}).items():
        for n in cards:
            g.zones[SCRAP].append(_c(n))
            g.zone_of[_c(n)] = SCRAP
            g.put_in_play(_c(n), p, "point")
            placed.add(_c(n))
    rest = [c for c in rules.deck_cards if c not in placed]
    if deck is not None:
        top = [_c(n) for n in deck]
        g.zones[DECK] = list(reversed(top))
        g.zones[SCRAP] += [c for c in rest if c not in top]
    else:
        g.zones[DECK] = rest
    for z in (DECK, SCRAP):
        for c in g.zones[z]:
            g.zone_of[c] = z
    g.turn, g.turn_no = turn, 1
    run(g)
    return Game(rules, g)


def _moves(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


# -- seats as data --------------------------------------------------------------------------------


def test_a_ruleset_without_seats_has_two_each_playing_alone() -> None:
    rules = load_ruleset("default")
    assert (rules.seats, rules.teams, rules.opponents_of) == (2, (0, 1), ((1,), (0,)))
    assert "seats" not in rules.data  # (so its hash, and every record's, is what it was)


def test_a_table_of_four_in_teams_knows_partners_and_opponents() -> None:
    rules = load_ruleset(FOUR)
    assert rules.seats == 4 and rules.teams == (0, 1, 0, 1)
    assert rules.partners_of[0] == (2,) and rules.opponents_of[0] == (1, 3)
    assert rules.opponents_of[1] == (2, 0)  # clockwise from the seat
    assert rules.opponent_of == (1, 2, 3, 0)


@pytest.mark.parametrize(
    "seats, message",
    [
        ("{count: 5}", "seats.count: a table seats 2 to 4 players, not 5"),
        ("{count: 1}", "seats.count: a table seats 2 to 4 players, not 1"),
        ("{count: 3, teams: [[p1, p4], [p2, p3]]}", "'p4' is not a seat of this table (p1, p2, p3)"),
        ("{count: 4, teams: [[p1, p3], [p2, p3, p4]]}", "seats.teams: p3 is in two teams"),
        ("{count: 4, teams: [[p1, p3], [p2]]}", "seats.teams: p4 in no team"),
        ("{count: 3, teams: [[p1, p2, p3]]}", "seats.teams: at least two teams"),
        ("{count: 4, teams: [p1, p2]}", "seats.teams: expected a list of teams"),
    ],
)
def test_seats_that_do_not_fit_are_refused_at_their_line(tmp_path: Path, seats: str, message: str) -> None:
    f = house_file(tmp_path, f"kind: base\nseats: {seats}\n")
    with pytest.raises(RulesetErrors) as info:
        load_ruleset(str(f), fresh=True)
    text = str(info.value)
    assert message in text and "[E028]" in text and "house.yaml:4:" in text


def test_extra_cards_for_a_seat_the_table_lacks_are_refused(tmp_path: Path) -> None:
    f = house_file(tmp_path, "kind: base\ndeal:\n  extra: {p3: [AS]}\n")
    with pytest.raises(RulesetErrors) as info:
        load_ruleset(str(f), fresh=True)
    assert "deal.extra.p3: this table has 2 seats, no p3" in str(info.value)


# -- the deal and the turns -------------------------------------------------------------------------


@pytest.mark.parametrize("spec, seats", [(THREE, 3), (FOUR, 4)])
def test_every_seat_is_dealt_and_p1_moves_first(spec: str, seats: int) -> None:
    g = deal(load_ruleset(spec), 7)
    assert [len(g.zones[HANDS[p]]) for p in range(seats)] == [5] * seats
    assert len(g.zones[DECK]) == 52 - 5 * seats
    assert g.turn == 0 and g.pending.player == 0


def test_the_turns_go_clockwise_round_the_table() -> None:
    game = Game.new(load_ruleset(FOUR), 3)
    seen = []
    for _ in range(6):
        seen.append(game.state.turn)
        game.play("draw")
    assert seen == [0, 1, 2, 3, 0, 1]
    assert [game.state.turns_of(p) for p in range(4)] == [2, 2, 2, 1]  # p3's third turn... p1 and p2 had two
    assert game.state.first_player() == 0


def test_a_match_moves_the_dealer_one_seat_clockwise_each_hand() -> None:
    g = deal(load_ruleset(MATCH), 1)
    firsts = [g.turn]
    for hand in range(2):
        g.pending = None
        g.declare_winner(hand, Outcome(hand, Termination.RULE, "test"))  # p1 wins hand 1, p2 hand 2
        run(g)
        firsts.append(g.turn)
    assert firsts == [0, 1, 2]  # the player to the dealer's left moves first
    assert g.wins == (1, 1, 0) and g.outcome is None


def test_in_a_match_of_teams_a_hand_won_counts_for_both_partners_and_so_does_the_match(tmp_path: Path) -> None:
    body = "kind: base\nseats: {count: 4, teams: [[p1, p3], [p2, p4]]}\ndeal: {first: 5, second: 5}\nmatch: {wins: 2}\n"
    g = deal(load_ruleset(str(house_file(tmp_path, body))), 1)
    g.pending = None
    g.win_by_rule(2, "test")  # p3 wins the first hand, with p1
    run(g)
    assert g.wins == (1, 0, 1, 0) and g.outcome is None
    g.pending = None
    g.win_by_rule(0, "test")  # p1 wins the second: p1's team has won the match
    run(g)
    assert g.wins == (2, 0, 2, 0)
    assert g.outcome is not None and g.outcome.termination is Termination.MATCH
    assert g.outcome.winner == 0 and g.outcome.winners == (0, 2)  # the team won the match
    assert str(g.outcome).startswith("P1 and P3 win: P1 and P3 win the match 2-0-2-0 (hand 2: ")


# -- answers go round the table (ruling 23) ---------------------------------------------------------


def test_a_play_stands_once_every_other_player_has_let_it_go() -> None:
    game = _position(THREE, {0: ["6C", "9S"], 1: ["2D", "4C"], 2: ["2H", "5C"]})
    game.play("oneoff 6C")
    assert (game.decision.player, str(game.decision.kind)) == (1, "respond")
    game.play("resolve")
    assert (game.decision.player, str(game.decision.kind)) == (2, "respond")
    game.play("resolve")
    assert game.state.zone_of[_c("6C")] == SCRAP and game.state.turn == 1  # it resolved; p2's turn


def test_an_answer_starts_the_round_again_from_the_player_after_it() -> None:
    game = _position(THREE, {0: ["6C", "2S", "9S"], 1: ["2D", "4C"], 2: ["2H", "5C"]})
    game.play("oneoff 6C")
    game.play("resolve")  # p2 lets it go
    game.play("counter 2H 5C")  # p3 counters
    assert game.decision.player == 0  # the round starts again after p3: p1, then p2
    game.play("resolve")
    assert game.decision.player == 1
    game.play("resolve")  # everyone let the counter go: it stands, the 6 is countered
    g = game.state
    assert g.zone_of[_c("6C")] == SCRAP and not g.zones[STACK] and g.turn == 1
    assert g.zones[HANDS[1]] == [_c("2D"), _c("4C")]


def test_at_four_seats_each_other_player_is_asked_in_turn() -> None:
    game = _position(FOUR, {0: ["6C"], 1: ["4C"], 2: ["5C"], 3: ["4D"]}, turn=2)
    game.play("oneoff 5C")
    asked = []
    while str(game.decision.kind) == "respond":
        asked.append(game.decision.player)
        game.play("resolve")
    assert asked == [3, 0, 1]


def test_where_a_play_cannot_be_countered_only_an_answer_with_a_window_of_its_own_is_offered(tmp_path: Path) -> None:
    """Teams, with a house option under which a Royal may be countered only once the deck is empty: a
    9 may still answer it (its own `window:`); the round offers the answer and not the counter the 2
    could otherwise make. On the teams rules alone, both are offered."""
    late = tmp_path / "late-counters.yaml"
    late.write_text(
        "name: late-counters\nkind: option\nkinds:\n  royal:\n    counterable: count(deck) == 0\n", encoding="utf-8"
    )
    hands = {0: ["KS", "3C"], 1: ["2C", "9D"], 2: ["4C"], 3: ["2D"]}
    game = _position(f"default+teams+{late}", hands)
    game.play("royal KS")
    assert (game.decision.player, str(game.decision.kind)) == (1, "respond")
    assert _moves(game) == ["answer 9D", "resolve"]
    plain = _position("default+teams", hands)
    plain.play("royal KS")
    assert _moves(plain) == ["counter 2C 9D", "answer 9D", "resolve"]


def test_a_card_that_may_not_be_played_is_not_played_as_a_twin_either() -> None:
    """Teams with twins: a frozen 5 (`turn.playable`) is left out of the twins of the other 5s, as of
    its own plays."""
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default+teams+twinned")
    setup = {"p1": {"hand": ["5C", "5D", "5H"]}, "cards": {"5D": {"marks": ["frozen"]}}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    fives = [m for m in _moves(game) if "5" in m]
    assert fives == ["points 5C", "oneoff 5C", "oneoff 5C 5H", "points 5H", "oneoff 5H"]


# -- plays aimed at each opponent (ruling 22) -------------------------------------------------------


def test_a_play_aimed_at_a_card_may_aim_at_any_opponents_side() -> None:
    game = _position(THREE, {0: ["10S", "4C"], 1: ["3D"], 2: ["3H"]}, points={1: ["9H"], 2: ["9D"]})
    moves = _moves(game)
    assert "scuttle 10S 9H" in moves and "scuttle 10S 9D" in moves  # the target says whose side
    assert "oneoff 4C p2" in moves and "oneoff 4C p3" in moves  # a 4 names the opponent who discards
    game.play("oneoff 4C p3")
    for _ in range(2):
        game.play("resolve")
    assert game.decision.player == 2 and game.decision.verb == "discard"  # p3 discards, not p2


def test_a_play_needing_something_of_its_opponent_is_aimed_only_where_it_is() -> None:
    game = _position(THREE, {0: ["4C", "9S"], 1: [], 2: ["3H"]})
    assert [m for m in _moves(game) if m.startswith("oneoff 4C")] == ["oneoff 4C p3"]  # p2's hand is empty


def test_a_partner_is_not_an_opponent() -> None:
    game = _position(FOUR, {0: ["10S", "4C"], 1: ["3D"], 2: ["3H"], 3: ["3S"]}, points={1: ["9D"], 2: ["9H"]})
    moves = _moves(game)
    assert "scuttle 10S 9D" in moves and "scuttle 10S 9H" not in moves  # p3 is p1's partner
    assert [m for m in moves if m.startswith("oneoff 4C")] == ["oneoff 4C p2", "oneoff 4C p4"]


# -- passes, goals and winners (rulings 24, 25) ------------------------------------------------------


def _deck_out(spec: str, points: dict[int, list[str]]) -> Game:
    seats = load_ruleset(spec).seats
    return _position(spec, {p: ["3C"] if p == 0 else [] for p in range(seats)}, points=points, deck=[])


def test_n_plus_one_passes_end_the_game_and_the_most_points_win() -> None:
    game = _deck_out(THREE, {0: ["5C"], 1: ["9C"], 2: ["7C"]})
    for i in range(4):
        assert game.outcome is None, i
        game.play("pass")
    assert game.outcome.termination is Termination.PASSES and game.outcome.winner == 1
    assert game.outcome.points == (5, 9, 7)
    assert str(game.outcome) == "P2 wins: 4 passes in a row: points 5-9-7"


def test_a_tie_for_the_most_points_is_a_draw() -> None:
    game = _deck_out(THREE, {0: ["9H"], 1: ["9C"], 2: ["7C"]})
    for _ in range(4):
        game.play("pass")
    assert game.outcome.winner is None and game.state.winner is not None


def test_in_teams_the_player_with_the_most_points_wins_with_their_partner() -> None:
    game = _deck_out(FOUR, {0: ["5C"], 1: ["2C"], 2: ["9C"], 3: ["7C"]})
    for _ in range(5):
        game.play("pass")
    out = game.outcome
    assert (out.winner, out.side, out.winners) == (2, (0, 2), (0, 2))
    assert str(out) == "P1 and P3 win: 5 passes in a row: points 5-2-9-7"


def test_goals_are_checked_in_turn_order_from_the_player_whose_turn_it_is() -> None:
    rules = load_ruleset(THREE)
    g: State = deal(rules, 0)
    for p, cards in ((0, ["10C", "10D", "AC"]), (1, ["10H", "10S", "AD"])):  # p1 and p2 both at 21
        for n in cards:
            g.move(_c(n), SCRAP)
            g.put_in_play(_c(n), p, "point")
    g.turn = 1
    check_win(g)
    assert g.outcome == Outcome(1, Termination.GOAL, "end.goal", 1)  # p2's turn: p2 first
    g2: State = deal(rules, 0)
    for p, cards in ((0, ["10C", "10D", "AC"]), (1, ["10H", "10S", "AD"])):
        for n in cards:
            g2.move(_c(n), SCRAP)
            g2.put_in_play(_c(n), p, "point")
    g2.turn = 2  # p3's turn: p3, then p1
    check_win(g2)
    assert g2.outcome.winner == 0


def test_a_team_wins_when_either_partner_reaches_their_goal() -> None:
    game = _position(FOUR, {0: ["3C"], 1: ["3D"], 2: ["AC"], 3: ["3S"]}, points={2: ["10C", "10D"]}, turn=2)
    game.play("points AC")
    out = game.outcome
    assert (out.winner, out.side) == (2, (0, 2))
    assert str(out) == "P1 and P3 win: P3 reached the goal"


# -- seeded random games: the invariants --------------------------------------------------------------


@pytest.mark.parametrize("spec", [THREE, FOUR])
def test_random_games_keep_every_card_in_one_place_and_end(spec: str) -> None:
    rules = load_ruleset(spec)
    for seed in range(25):
        g = deal(rules, seed)
        rng = random.Random(seed)
        while g.winner is None:
            apply_action(g, rng.choice(legal_actions(g)))
            where = [c for z in g.zones for c in z]
            assert sorted(where) == sorted(rules.deck_cards), seed
            assert all(g.zone_of[c] == z for z, cards in enumerate(g.zones) for c in cards)
        assert g.outcome is not None and not g.zones[STACK]
        assert all(not g.zones[FIELDS[p]] or p < rules.seats for p in range(4))
        assert NAMES  # (the names of cards are what moves print)


def test_the_larger_tables_under_test_are_those_of_more_seats() -> None:
    """tests/rulesets_under_test.py's LARGER_TABLES (left out of the generated two-seat paths' checks in
    test_engine_paths.py) are exactly the rulesets under test that seat more than two."""
    from tests.rulesets_under_test import LARGER_TABLES, RULESETS

    assert [s for s in RULESETS if load_ruleset(s).seats > 2] == list(LARGER_TABLES)


@pytest.mark.parametrize("spec", ["default+twinned", "default+twinned+cutthroat", "default+twinned+teams"])
def test_a_twin_whose_first_card_matters_is_offered_in_both_orders_at_any_table(spec: str) -> None:
    """The twinned 8 (its first card is the one played as glasses) is listed for each card first, at a
    table of three or four as at two (the plain loops of engine/seating.py list what legal.py does)."""
    seats = load_ruleset(spec).seats
    hands = {0: ["8C", "8H"], **{p: [f"{p + 2}D"] for p in range(1, seats)}}
    moves = {str(m) for m in _position(spec, hands).legal_moves()}
    assert {"glasses 8C 8H", "glasses 8H 8C", "glasses 8C", "glasses 8H"} <= moves, moves


def test_a_play_whose_player_key_names_nobody_is_not_offered(tmp_path: Path) -> None:
    from interpreter.scripting.setup import build_position

    body = (
        "seats: {count: 3}\nplays:\n  gift:\n    verb: gift\n    cards: 0\n"
        "    player: (first(field of p3)).owner\n    effect: draw 1 for player\n"
    )
    rules = load_ruleset(str(house_file(tmp_path, body)))
    setup = {"turn": "p1", "p1": {"hand": ["5C"]}, "p2": {"hand": ["6C"]}, "p3": {"hand": ["7C"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    assert not any(m.verb == "gift" for m in game.legal_moves())  # p3 has no card in play: nobody is named
    setup["p3"]["points"] = ["9H"]
    game = Game(rules, build_position(rules, setup, 0), 0)
    assert [str(m) for m in game.legal_moves() if m.verb == "gift"] == ["gift p3"]


# -- rules run for each player, and ends decided by a rule, at a larger table --------------------------


def test_a_rule_run_for_each_player_binds_each_ones_own_opponent(tmp_path: Path) -> None:
    """`for: each player` at three seats: each player in turn, from the event's, with `opponent` their own
    next player (p2 marks p3, p3 marks p1, p1 marks p2), never the event's player."""
    body = (
        "seats: {count: 3}\ncounters:\n  watched: {of: player}\n"
        "triggers:\n  watch:\n    event: turn starts\n    for: each player\n    effect: add 1 to opponent.watched\n"
    )
    game = _position(str(house_file(tmp_path, body)), {0: ["5C"], 1: ["6C"], 2: ["7C"]})
    game.play("draw")  # p2's turn starts
    assert [game.state.counter(-1 - p, "watched") for p in range(3)] == [1, 1, 1]


def test_passes_ended_by_a_rule_naming_the_winner_credit_the_team_and_every_seats_points(tmp_path: Path) -> None:
    """`end.on_passes` naming a winner at a table of teams: both partners win, and the outcome holds the
    points of all four seats."""
    body = (
        "kind: base\nseats: {count: 4, teams: [[p1, p3], [p2, p4]]}\ndeal: {first: 5, second: 5}\n"
        "end:\n  passes: 1\n  on_passes: p3\n"
    )
    game = _position(str(house_file(tmp_path, body)), {0: ["5C"], 1: ["6C"], 2: ["7C"], 3: ["8C"]}, deck=[])
    game.play("pass")
    outcome = game.outcome
    assert outcome is not None and outcome.rule == "end.on_passes"
    assert outcome.winner == 2 and outcome.winners == (0, 2) and len(outcome.points) == 4
