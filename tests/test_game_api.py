"""The Python API: seeded games, legal moves, illegal moves that change nothing, undo/redo, views
that hide what a player may not see, outcomes."""

from __future__ import annotations

import pytest

from interpreter import Game, IllegalMoveError, MoveError, load_ruleset
from interpreter.scripting.setup import build_position


def _game(setup: dict, spec: str = "default") -> Game:
    rules = load_ruleset(spec)
    return Game(rules, build_position(rules, setup, 0), 0, setup)


def test_seeded_deal_is_reproducible() -> None:
    rules = load_ruleset("default")
    a, b = Game.new(rules, 42), Game.new(rules, 42)
    assert a.state.key() == b.state.key()
    assert Game.new(rules, 43).state.key() != a.state.key()
    v = a.view(0)
    assert len(v.hand) == 5 and v.opponent_hand_count == 6 and v.deck_count == 41
    assert a.decision.player == 0 and a.decision.kind == "main"


@pytest.mark.parametrize(
    "text", ["points 2C", "oneoff", "frobnicate", "counter 2C 3C", "scuttle 10S", "7H 7H", "oneoff 9X"]
)
def test_a_bad_move_leaves_the_game_exactly_as_it_was(text: str) -> None:
    game = _game({"p1": {"hand": ["7H", "9S"]}, "p2": {"hand": ["2C", "3C"], "points": ["4D"]}})
    before = game.state.key()
    with pytest.raises(MoveError):
        game.play(text)
    assert game.state.key() == before and game.moves == []


def test_undo_and_redo_restore_exact_states() -> None:
    game = Game.new(load_ruleset("default"), 5)
    keys = [game.state.key()]
    for _ in range(12):
        game.play(game.legal_moves()[-1])
        keys.append(game.state.key())
    for k in reversed(keys[:-1]):
        game.undo()
        assert game.state.key() == k
    for k in keys[1:]:
        game.redo()
        assert game.state.key() == k
    with pytest.raises(IllegalMoveError):
        game.redo()


def test_the_opponent_hand_is_hidden_until_glasses_or_deck_out() -> None:
    game = _game({"p1": {"hand": ["8H", "7C"]}, "p2": {"hand": ["2C", "3D"]}})
    assert game.view(0).opponent_hand is None and game.view(0).opponent_hand_count == 2
    assert game.view(1).opponent_hand is None
    game.play("glasses 8H")
    game.play("resolve")
    assert sorted(game.view(0).opponent_hand) == ["2C", "3D"]
    assert game.view(1).opponent_hand is None  # glasses work for their owner only
    out = _game({"p1": {"hand": ["7C"]}, "p2": {"hand": ["2C"]}, "unplaced": "scrap"})
    assert out.view(0).opponent_hand == ("2C",) and out.view(1).opponent_hand == ("7C",)


def test_view_never_shows_the_deck_order() -> None:
    game = Game.new(load_ruleset("default"), 9)
    view = game.view(0)
    assert not hasattr(view, "deck") and view.deck_count == 41
    assert view.legal_moves is not None and game.view(1).legal_moves is None


def test_outcome_and_no_moves_after_the_end() -> None:
    game = _game({"p1": {"hand": ["10H"], "points": ["10S"]}, "p2": {"hand": ["3C"]}})
    game.play("points 10H")  # 20 points: not yet
    assert game.outcome is None
    game2 = _game({"p1": {"hand": ["AH"], "points": ["10S", "10D"]}, "p2": {"hand": ["3C"]}})
    game2.play("points AH")
    assert game2.outcome is not None and game2.outcome.winner == 0
    assert game2.legal_moves() == []
    with pytest.raises(IllegalMoveError) as e:
        game2.play("draw")
    assert "the game is over" in str(e.value)


def test_explain_names_the_rule() -> None:
    game = _game({"p1": {"hand": ["3H", "5C"]}, "p2": {"hand": ["2C"]}, "unplaced": "deck"})
    assert "count(scrap where it.rank != 3) > 0" in game.explain("oneoff 3H")
    assert game.explain("points 5C") == "'points 5C' is legal"
    game.play("points 5C")  # now p2 decides: explanations are about p2's moves
    assert game.explain("draw") == "'draw' is legal"
    assert game.explain("points 3H") == "3H is not in your hand (p2)"  # p1's hand stays hidden from p2


def test_narration_says_what_moved() -> None:
    game = _game({"p1": {"hand": ["9S"]}, "p2": {"points": ["10C"]}})
    game.play("oneoff 9S 10C")
    game.play("resolve")
    assert "10♣ → deck" in game.narration[-1]


def test_cards_both_players_saw_go_on_the_deck_as_known() -> None:
    game = _game({"p1": {"hand": ["9C", "3D"]}, "p2": {"hand": ["5C", "2H"], "points": ["10S"]}})
    game.play("oneoff 9C 10S")
    game.play("resolve")
    assert game.view(0).deck_top_known == ("10S",) == game.view(1).deck_top_known
    game.play("draw")  # p2 draws it: nothing on the deck is known any more
    assert game.view(0).deck_top_known == ()


def test_narration_written_late_is_the_narration_written_at_once() -> None:
    """Narration is written only when asked for, from the undo snapshots: reading it once at the end
    (after undos and redos too) gives the lines that reading it after every move gives."""
    rules = load_ruleset("default")
    eager, lazy = Game.new(rules, 11), Game.new(rules, 11)
    lines = []
    for i in range(30):
        if eager.outcome is not None:
            break
        move = eager.legal_moves()[i % len(eager.legal_moves())]
        eager.play(move)
        lines.append(eager.narration[-1])
        lazy.play(move)
        if i == 10:
            lazy.undo()
            lazy.undo()
            lazy.redo()
            lazy.redo()
    assert lazy.narration == lines and len(lines) > 12
    assert any("→" in line for line in lines)


def test_a_move_given_as_a_players_is_illegal_while_another_player_decides() -> None:
    game = _game({"turn": "p1", "p1": {"hand": ["5C"]}, "p2": {"hand": ["3D"]}})
    assert str(game.parse_move("draw", player=0)) == "draw"
    with pytest.raises(IllegalMoveError, match="'draw' is illegal for p2: it is p1's turn"):
        game.parse_move("draw", player=1)


@pytest.mark.parametrize("spec", ["default+cutthroat", "default+teams"])
def test_resigning_and_draw_offers_are_refused_at_a_table_of_more_than_two(spec: str) -> None:
    game = Game.new(load_ruleset(spec), 1)
    for verb in ("resign", "draw-agreed"):
        with pytest.raises(IllegalMoveError, match=f"are for two players; this game seats {game.rules.seats}"):
            game.parse_move(verb)


def test_a_counter_costing_two_extra_cards_names_them_in_any_order(tmp_path) -> None:
    from .scenario_util import house_file

    rules = load_ruleset(str(house_file(tmp_path, "responses:\n  counter:\n    extra: 2\n")))
    setup = {"turn": "p1", "p1": {"hand": ["6C"]}, "p2": {"hand": ["2D", "5H", "3S"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("oneoff 6C")
    assert game.parse_move("counter 2D 5H 3S") == game.parse_move("counter 2D 3S 5H")
    game.play("counter 2D 5H 3S")  # the extra cards in the order the player wrote them


def test_an_incomplete_move_lists_what_it_could_be_eight_at_the_most() -> None:
    hand = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"]
    game = _game({"turn": "p1", "p1": {"hand": hand}, "p2": {"hand": ["3D"]}})
    with pytest.raises(MoveError) as e:
        game.parse_move("points")
    text = str(e.value)
    assert text.startswith("'points' is incomplete: it could be 'points AC', ") and text.endswith(" ...")
    assert text.count("'points ") == 8


# -- what a view shows, field by field ---------------------------------------------------------------


def test_a_point_card_a_jack_took_is_shown_on_its_new_side_with_its_owner() -> None:
    game = _game({"p1": {"hand": ["JC"]}, "p2": {"points": ["7H"], "hand": ["3D"]}})
    game.play("jack JC 7H")
    game.play("resolve")
    (stolen,) = game.view(0).you.points
    assert (stolen.card, stolen.jacks, stolen.owner) == ("7H", ("JC",), "p2")
    assert game.view(1).opponent.points == (stolen,) and game.view(1).you.points == ()


def test_a_card_on_the_stack_is_named_with_its_target_even_the_first_card_of_the_deck() -> None:
    """AC is card 0: a play waiting on the chain names its target whatever its number."""
    game = _game({"p1": {"hand": ["JC"]}, "p2": {"points": ["AC"], "hand": ["2C"]}})
    game.play("jack JC AC")
    assert game.view(1).chain == ("jack JC AC",) and game.view(1).chain_by == ("p1",)


def test_a_hand_shown_face_up_lists_no_known_cards_apart() -> None:
    """With glasses p1 sees p2's hand: the cards p1 knew of it are in the hand, not listed again."""
    game = _game({"p1": {"hand": ["9C"], "royals": ["8S"], "knows": ["3C"]}, "p2": {"hand": ["2C", "3C"]}})
    assert game.view(0).opponent_hand == ("2C", "3C") and game.view(0).opponent_hand_known == ()
    hidden = _game({"p1": {"hand": ["9C"], "knows": ["3C"]}, "p2": {"hand": ["2C", "3C"]}})
    assert hidden.view(0).opponent_hand is None and hidden.view(0).opponent_hand_known == ("3C",)
    three = _game(
        {
            "p1": {"hand": ["9C"], "royals": ["8S"], "knows": ["3C"]},
            "p2": {"hand": ["2C", "3C"]},
            "p3": {"hand": ["4D"]},
        },
        "default+cutthroat",
    )
    assert [(o.player, o.hand, o.hand_known) for o in three.view(0).others] == [
        ("p2", ("2C", "3C"), ()),
        ("p3", ("4D",), ()),
    ]


def test_at_a_table_of_three_the_opponent_of_a_view_is_the_next_player() -> None:
    game = _game(
        {"p1": {"hand": ["5C"]}, "p2": {"hand": ["2C", "3C", "4C"], "points": ["9H"]}, "p3": {"hand": ["9C"]}},
        "default+cutthroat",
    )
    view = game.view(0)
    assert view.opponent_hand_count == 3 and [p.card for p in view.opponent.points] == ["9H"]
    assert [(o.player, o.hand_count) for o in view.others] == [("p2", 3), ("p3", 1)]
    assert game.view(2).opponent_hand_count == 1  # p3's next player is p1


def test_the_move_that_wins_a_hand_of_a_match_is_told_with_the_hand_and_the_match_score() -> None:
    game = _game({"p1": {"hand": ["10C"], "points": ["10H", "9S"]}, "p2": {"hand": ["3D"]}}, "default+best-of-5")
    game.play("points 10C")
    line = game.narration[-1]
    assert line.startswith("p1: points 10♣ (") and line.endswith(
        " — hand 1 won by p1 (p1 reached the goal); match 1-0; hand 2 dealt, p2 to move"
    )


@pytest.mark.parametrize("shortcuts", [True, False])
def test_the_end_of_a_turn_after_an_answered_play_reads_the_opponent(tmp_path, shortcuts: bool) -> None:
    """A direct play that opened a window (the engine's shortcut for it, and the general way): once it
    resolves, `turn.end` runs with `opponent` bound, as after any action (here it deals the opponent a
    card while they hold fewer than 3)."""
    from interpreter.engine.machine import set_shortcuts
    from interpreter.rules import Rules, compose

    path = tmp_path / "turn-end.yaml"
    end = "turn:\n  end: |\n    if count(hand of opponent) < 3 then\n      draw 1 for opponent\n    end\n"
    path.write_text("name: turn-end\nextends: default\n" + end, encoding="utf-8")
    rules = Rules(compose(str(path)))
    set_shortcuts(rules, shortcuts)
    setup = {"p1": {"hand": ["6S", "4C"], "royals": ["KH"]}, "p2": {"hand": ["2C"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("oneoff 6S")
    game.play("resolve")
    assert game.view(0).opponent_hand_count == 2 and game.decision.player == 1


def test_an_answer_with_its_own_window_is_offered_alone_where_the_play_cannot_be_countered(tmp_path) -> None:
    """Two seats: one-offs may be countered only while the opponent holds more than 2 cards, and a 9 may
    answer any one-off (`window: true`); with 2 cards only the answer is offered, with 3 both are."""
    path = tmp_path / "answers.yaml"
    path.write_text(
        "name: answers\nextends: default\nkinds:\n  oneoff:\n    counterable: count(hand of opponent) > 2\n"
        "responses:\n  nine answer:\n    verb: answer\n    ranks: ['9']\n    answers: [oneoff]\n    kind: oneoff\n"
        "    window: 'true'\n    effect: scrap cards\n",
        encoding="utf-8",
    )
    moves = []
    for hand in (["2C", "9D"], ["2C", "9D", "3H"]):
        game = _game({"p1": {"hand": ["5S", "4C"]}, "p2": {"hand": hand}}, str(path))
        game.play("oneoff 5S")
        moves.append([str(m) for m in game.legal_moves()])
    assert moves == [["answer 9D", "resolve"], ["counter 2C 3H", "counter 2C 9D", "answer 9D", "resolve"]]
