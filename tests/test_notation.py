"""Move notation: cards in every form, the syntax layer, the position layer, canonical round-trips."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import AmbiguousMoveError, Game, IllegalMoveError, InvalidMoveError, Move, load_ruleset, parse_card
from interpreter.cli import main
from interpreter.core.cards import MOVE_WORD, card_name, card_symbol
from interpreter.rules import check


@pytest.mark.parametrize(
    "text, name",
    [
        ("7H", "7H"),
        ("7h", "7H"),
        ("10S", "10S"),
        ("TS", "10S"),
        ("ts", "10S"),
        ("7♥", "7H"),
        ("Q♠", "QS"),
        ("A♣", "AC"),
        ("10♦", "10D"),
        ("RJ", "RJ"),
        ("bj", "BJ"),
    ],
)
def test_card_forms(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


def test_symbols() -> None:
    assert card_symbol(parse_card("7H")) == "7♥"
    assert card_symbol(parse_card("10S")) == "10♠"


@pytest.mark.parametrize(
    "text",
    [
        "draw",
        "pass",
        "points 7H",
        "scuttle 9H 9D",
        "royal KS",
        "glasses 8H",
        "jack JC 7H",
        "oneoff 2C KS",
        "counter 2D 4C",
        "resolve",
        "discard 3H 5C",
        "take 7S",
        "scrap JD",
    ],
)
def test_spec_examples_round_trip(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert Move.parse(str(move)) == move


def test_other_forms_print_canonically() -> None:
    assert str(Move.parse("Scuttle ts 9♦")) == "scuttle 10S 9D"
    assert Move.parse("points 7♥").pretty() == "points 7♥"


@pytest.mark.parametrize(
    "text, quoted", [("oneoff 9X", "9X"), ("points 7H 1Z", "1Z"), ("", "empty move"), ("123", "123")]
)
def test_invalid_syntax_quotes_the_input(text: str, quoted: str) -> None:
    with pytest.raises(InvalidMoveError) as e:
        Move.parse(text)
    assert quoted in str(e.value)


def _game(setup: dict) -> Game:
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    return Game(rules, build_position(rules, setup, 0), 0, setup)


def test_illegal_is_distinct_and_explained() -> None:
    game = _game({"p1": {"hand": ["7H"]}, "p2": {"hand": ["3C"]}})
    with pytest.raises(IllegalMoveError) as e:
        game.play("points 3C")
    assert "'points 3C'" in str(e.value) and "not in your hand (p1)" in str(e.value)
    with pytest.raises(IllegalMoveError) as e:
        game.play("royal 7H")
    assert "a 7 cannot be played as 'royal'" in str(e.value)
    with pytest.raises(InvalidMoveError) as e:  # an unknown verb is not a move at all
        game.play("drwa 7H")
    assert "there is no move 'drwa'" in str(e.value) and "did you mean 'draw'" in str(e.value)


def test_incomplete_move_is_ambiguous() -> None:
    game = _game({"p1": {"hand": ["9S"]}, "p2": {"points": ["10C", "4D"]}})
    with pytest.raises(AmbiguousMoveError) as e:
        game.play("oneoff 9S")
    assert "'oneoff 9S 10C'" in str(e.value) and "'oneoff 9S 4D'" in str(e.value)


def test_set_choices_are_order_free() -> None:
    game = _game({"p1": {"hand": ["4C"]}, "p2": {"hand": ["3H", "5C", "9D"]}})
    game.play("oneoff 4C")
    game.play("resolve")
    assert game.decision.kind == "choose"
    game.play("discard 5C 3H")
    assert str(game.moves[-1]) == "discard 3H 5C"


def test_every_legal_move_round_trips_through_text() -> None:
    rules = load_ruleset("default")
    rnd = random.Random(3)
    for seed in range(40):
        game = Game.new(rules, seed)
        while game.outcome is None and len(game.moves) < 400:
            moves = game.legal_moves()
            for m in moves:
                assert game.parse_move(str(m)) == m
                assert game.parse_move(m.pretty()) == m
            game.play(moves[rnd.randrange(len(moves))])


@pytest.mark.parametrize("spec", ["default", "micro+jokers", "default+twinned+tens-block"])
def test_canonical_text_is_read_as_the_grammar_reads_it(spec: str) -> None:
    """Canonical move text skips the grammar (a fast path): it must give the grammar's Move."""
    rules = load_ruleset(spec)
    rnd = random.Random(3)
    seen = 0
    for seed in range(15):
        game = Game.new(rules, seed)
        while game.outcome is None:
            moves = game.legal_moves()
            for m in moves:
                text = str(m)
                assert Move.parse(text) == Move.parse_with_grammar(text) == m
                assert Move.parse(text.lower()) == Move.parse_with_grammar(text.lower())
                seen += 1
            game.play(str(moves[rnd.randrange(len(moves))]))
    assert seen > 1000


# -- names a ruleset gives that end up in moves (issue 23.5) ---------------------------------------


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Z", "Cc")), max_size=8))
def test_a_move_word_is_exactly_what_a_player_can_type_as_a_verb(word: str) -> None:
    """MOVE_WORD, which every verb and choice name is checked against at load, accepts a word iff
    typing it gives back a move with that verb (the notation lower-cases verbs as it reads them)."""
    try:
        typed = Move.parse(word) == Move(word, ())
    except InvalidMoveError:
        typed = False
    assert bool(MOVE_WORD.match(word)) == typed


def _choice_named(tmp_path: Path, verb: str) -> Path:
    f = tmp_path / "choice.yaml"
    f.write_text(
        "extends: default\nname: choice\nplays:\n  four:\n    effect: |\n"
        f"      choose 1 from hand of opponent by opponent as {verb}\n      scrap chosen\n",
        encoding="utf-8",
    )
    return f


@pytest.mark.parametrize("verb", ["__builtins__", "MyPick", "_pick", "Pick"])
def test_a_choice_a_player_cannot_type_is_refused_at_load(tmp_path: Path, verb: str, capsys) -> None:
    f = _choice_named(tmp_path, verb)
    (e,) = check(str(f))
    assert e.code == "E217" and verb in e.message
    assert (e.where.line, e.where.column) == (6, 7)  # at the `choose`, shown with a caret
    assert main(["check", str(f)]) == 1
    out = capsys.readouterr()
    assert "E217" in out.out + out.err and "^" in out.out + out.err


def test_a_lower_case_choice_name_loads_and_is_offered_as_typed(tmp_path: Path) -> None:
    assert check(str(_choice_named(tmp_path, "give_up"))) == []


@pytest.mark.parametrize("verb", ["Scuttle", "my verb", "-x", "7s", "über"])
def test_a_play_verb_a_player_cannot_type_is_refused_at_load(tmp_path: Path, verb: str) -> None:
    f = tmp_path / "verb.yaml"
    f.write_text(f'extends: default\nname: verb\nplays:\n  points:\n    verb: "{verb}"\n', encoding="utf-8")
    (e,) = check(str(f))
    assert e.code == "E012" and "lower-case word" in e.message and e.where.line == 5


def test_a_move_naming_a_player_reads_and_prints_the_player_in_any_spelling() -> None:
    four = parse_card("4C")
    want = Move("oneoff", (four,), None, 2)
    for text in ("oneoff 4C p3", "oneoff 4c p3", "ONEOFF 4♣ P3", "oneoff  4C   p3"):
        assert Move.parse(text) == want, text  # canonical text read directly, any other by the grammar
    assert str(want) == "oneoff 4C p3" and want.pretty() == "oneoff 4♣ P3"
    assert Move.parse(want.pretty()) == want


def test_a_number_move_is_read_in_any_case() -> None:
    assert Move.parse("VALUE 7") == Move("value", (), 7) == Move.parse("Value 7")


def test_a_bad_card_in_a_move_is_named_with_a_caret_under_it() -> None:
    with pytest.raises(InvalidMoveError) as e:
        Move.parse("scuttle 9H 9Z")
    first, line, caret = str(e.value).splitlines()
    assert first == "'scuttle 9H 9Z' is not a move: '9Z' is not a card (write 7H, 10S, QC, 7♥)"
    assert line.strip() == "scuttle 9H 9Z" and caret.index("^") == line.index("9Z")
