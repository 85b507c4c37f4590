"""Numbers in the effect language (issue 25 item 2): a number a player names (`choose a number from A
to B by P as NAME`, the move `NAME 7`), a card's own value (`set X.value to N`, kept while the card
stays in play), and sums over any expression (`total(CARDS, EXPR)`); the wild Jokers written the new
way play exactly like their old trick form (tests/rulesets/trick/wild-jokers-trick.yaml)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import NAMES
from interpreter.core.errors import IllegalMoveError, RuleRuntimeError
from interpreter.engine.moves import Move
from interpreter.engine.state import HAND0, SHOWN
from interpreter.language.compiler import Compiler
from interpreter.language.parser import parse_expr
from interpreter.language.reference import Reference
from interpreter.players.registry import make_player
from interpreter.rules import check
from interpreter.rules.page import rules_page
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position

from .scenario_util import assert_passes, cases, house_file

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "examples" / "house"
WILD = str(HOUSE / "wild-jokers.yaml")
TRICK = str(ROOT / "tests" / "rulesets" / "trick" / "wild-jokers-trick.yaml")
NUMBER_CASES = cases(
    "wild-jokers.test.yaml", "jacks-steal-up.test.yaml", "stolen-cards-double.test.yaml", under=HOUSE, by=__name__
)


@pytest.mark.parametrize("path", NUMBER_CASES)
def test_the_house_rules_pass_their_scenarios_and_fail_without_them(path: Path) -> None:
    assert_passes(path)
    assert not run_file(path, ruleset_override="default").ok


def _wild_game(hand: list[str], other: list[str] | None = None, points: list[str] | None = None) -> Game:
    rules = load_ruleset(WILD)
    setup = {"p1": {"hand": hand, "points": points or []}, "p2": {"hand": other or ["5C"]}}
    return Game(rules, build_position(rules, setup, 0), 0)


# -- choose a number -----------------------------------------------------------------------------


def test_a_number_is_one_move_per_number_written_verb_then_number() -> None:
    game = _wild_game(["RJ", "7H"])
    game.play("wild RJ")
    assert [str(m) for m in game.legal_moves()] == [f"value {n}" for n in range(11)]
    assert game.decision.numbers == (0, 10) and game.decision.player == 0
    assert Move.parse("value 7") == Move("value", (), 7) and str(Move("value", (), -3)) == "value -3"
    assert Move.parse(str(Move("value", (), -3))) == Move("value", (), -3)
    assert "11 is not offered: p1 names a number from 0 to 10" in game.explain("value 11")
    assert "write 'value 0'" in game.explain("points 7H")
    with pytest.raises(IllegalMoveError):
        game.play("value 11")
    game.play("value 7")
    assert game.score(0) == 7 and game.decision.player == 1
    assert game.narration[-1].startswith("p1: value 7")


def test_both_players_see_what_is_being_named_and_the_repl_offers_it() -> None:
    from repl.completion import CompletionContext, complete
    from repl.narrate import Teller
    from repl.render import decision_text

    game = _wild_game(["RJ", "7H"])
    game.play("wild RJ")
    mine, theirs = game.view(0), game.view(1)
    assert theirs.decision is not None and theirs.decision.numbers == (0, 10) and theirs.decision.verb == "value"
    assert decision_text(mine, True) == "you must name a number from 0 to 10 (value): 'value 0' to 'value 10'"
    assert decision_text(theirs, False) == "P1 must name a number from 0 to 10 (value)"
    moves = tuple((str(m), m.pretty()) for m in game.legal_moves())
    offered = [s.text for s in complete("value 1", CompletionContext(moves=moves))]
    assert offered == ["value 1", "value 10"]
    before = game.view(1)
    game.play("value 4")
    assert "names 4 (value)" in Teller(viewer=1).tell(before, game.view(1), Move("value", (), 4))


def test_a_random_chooser_names_a_number_from_the_games_generator() -> None:
    f = house_file(
        Path(__import__("tempfile").mkdtemp()),
        "plays:\n  draw:\n    effect: choose a number from 1 to 3 by random as n; draw n\n",
    )
    rules = load_ruleset(str(f))
    drawn = set()
    for seed in range(30):
        game = Game.new(rules, seed)
        hand = game.state.zones[HAND0 + game.decision.player]
        before = len(hand)
        game.play("draw")
        drawn.add(len(game.state.zones[HAND0 + 1 - game.decision.player]) - before)
    assert drawn == {1, 2, 3}


@pytest.mark.parametrize("low", ["0", "-600"])
def test_a_range_too_large_is_refused_at_load_naming_its_line(tmp_path: Path, low: str) -> None:
    high = "1000000000" if low == "0" else "600"
    f = house_file(
        tmp_path,
        f"plays:\n  draw:\n    effect: |\n      draw 1\n      choose a number from {low} to {high} by me as n\n",
    )
    (e,) = check(str(f))
    assert e.code == "E214" and e.where.line == 7 and "MAX_NUMBERS" in str(e)


def test_a_range_known_only_in_play_is_refused_then_and_the_game_unchanged(tmp_path: Path) -> None:
    f = house_file(tmp_path, "plays:\n  draw:\n    effect: choose a number from 0 to score(me) * 999 by me as n\n")
    rules = load_ruleset(str(f))
    state = build_position(rules, {"p1": {"hand": ["3C"], "points": ["9H"]}, "p2": {"hand": ["5C"]}}, 0)
    game = Game(rules, state, 0)
    key = game.state.key()
    with pytest.raises(RuleRuntimeError, match="MAX_NUMBERS"):
        game.play("draw")
    assert game.state.key() == key
    f2 = house_file(tmp_path, "plays:\n  draw:\n    effect: choose a number from 3 to 2 by me as n\n", "empty")
    game = Game(load_ruleset(str(f2)), build_position(load_ruleset(str(f2)), {"p1": {"hand": ["3C"]}}, 0), 0)
    with pytest.raises(RuleRuntimeError, match="no number is offered"):
        game.play("draw")


def test_a_range_of_exactly_max_numbers_is_offered_and_one_more_is_refused(tmp_path: Path) -> None:
    """MAX_NUMBERS numbers are offered, one more is not: at load (both ends known) and in play (known
    only then: p1's score is 9), the game unchanged when refused."""
    from interpreter.core.limits import MAX_NUMBERS

    ok = house_file(tmp_path, f"plays:\n  draw:\n    effect: choose a number from 1 to {MAX_NUMBERS} by me as n\n")
    assert check(str(ok)) == []
    over = house_file(
        tmp_path, f"plays:\n  draw:\n    effect: choose a number from 0 to {MAX_NUMBERS} by me as n\n", "over"
    )
    (e,) = check(str(over))
    assert e.code == "E214" and "MAX_NUMBERS" in str(e)
    for low, offered in ((1, True), (0, False)):
        effect = f"choose a number from {low} to score(me) + {MAX_NUMBERS - 9} by me as n"
        rules = load_ruleset(str(house_file(tmp_path, f"plays:\n  draw:\n    effect: {effect}\n", f"in-play-{low}")))
        game = Game(
            rules, build_position(rules, {"p1": {"hand": ["3C"], "points": ["9H"]}, "p2": {"hand": ["5C"]}}, 0), 0
        )
        key = game.state.key()
        if offered:
            game.play("draw")
            assert game.decision is not None and game.decision.numbers == (1, MAX_NUMBERS)
        else:
            with pytest.raises(RuleRuntimeError, match="MAX_NUMBERS"):
                game.play("draw")
            assert game.state.key() == key


def test_a_random_choice_of_up_to_n_cards_picks_each_number_from_none_to_n(tmp_path: Path) -> None:
    """`choose up to 2 ... by random`: over seeds, none, one and both of the cards are picked."""
    f = house_file(
        tmp_path,
        "plays:\n  draw:\n    effect: choose up to 2 from hand of me by random as pick; move pick to shown\n",
    )
    rules = load_ruleset(str(f))
    picked = set()
    for seed in range(30):
        game = Game.new(rules, seed)
        game.play("draw")
        picked.add(len(game.state.zones[SHOWN]))
    assert picked == {0, 1, 2}


def test_nobody_cannot_name_a_number_and_no_number_is_named_inside_for_each(tmp_path: Path) -> None:
    f = house_file(tmp_path, "plays:\n  draw:\n    effect: choose a number from 0 to 3 by first(scrap).owner as n\n")
    rules = load_ruleset(str(f))
    game = Game(rules, build_position(rules, {"p1": {"hand": ["3C"]}}, 0), 0)
    with pytest.raises(RuleRuntimeError, match="nobody as a player"):
        game.play("draw")
    loop = house_file(
        tmp_path,
        "plays:\n  draw:\n    effect: for each c in hand of me do choose a number from 0 to 3 by me as n end\n",
        "loop",
    )
    assert [e.code for e in check(str(loop))] == ["E208"]


@pytest.mark.parametrize(
    "effect", ["choose a number from 1 to 2 by me as a; draw a", "choose 1 from hand of me by me as x; scrap x"]
)
def test_a_choice_may_share_its_word_with_a_definitions_parameter(tmp_path: Path, effect: str) -> None:
    """The default rules define beats(a, b) and protected(x): a number named `a` or cards chosen as `x`
    elsewhere leave those parameters what each use passes (they were taken for a number, for cards)."""
    rules = load_ruleset(str(house_file(tmp_path, f"plays:\n  draw:\n    effect: {effect}\n")))
    game = Game(rules, build_position(rules, {"p1": {"hand": ["3C", "4C"]}}, 0), 0)
    game.play("draw")
    assert len(game.legal_moves()) == 2


def test_a_number_name_must_begin_a_move_and_be_used_as_a_number(tmp_path: Path) -> None:
    bad = house_file(tmp_path, "plays:\n  draw:\n    effect: choose a number from 0 to 3 by me as Value\n")
    assert [e.code for e in check(str(bad))] == ["E217"]
    cards = house_file(
        tmp_path, "plays:\n  draw:\n    effect: choose a number from 0 to 3 by me as n; scrap n\n", "cards"
    )
    assert [e.code for e in check(str(cards))] == ["E210"]


# -- a card's own value --------------------------------------------------------------------------

_DOUBLER = """
plays:
  five:
    verb: oneoff
    ranks: ["5"]
    kind: oneoff
    target: field of me where it.role == point
    effect: set target.value to target.value * 2
"""


def test_a_cards_value_lasts_while_it_stays_in_play_and_is_lost_when_it_leaves(tmp_path: Path) -> None:
    rules = load_ruleset(str(house_file(tmp_path, _DOUBLER)))
    setup = {"p1": {"hand": ["5C", "JD"], "points": ["7H"]}, "p2": {"hand": ["9S", "2C"], "points": ["4D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.play("oneoff 5C 7H")
    game.play("resolve")
    assert game.score(0) == 14
    game.play("points 2C")
    game.play("jack JD 4D")  # p1's Jack takes p2's 4: a card that moves between the fields keeps its value
    game.play("resolve")
    assert game.score(0) == 18
    game.play("oneoff 9S 7H")  # p2's 9 puts the doubled 7 on top of the deck: it leaves play
    game.play("resolve")
    assert game.score(0) == 4
    game.play("draw")
    game.play("draw")
    game.play("points 7H")  # back in play: its rank's value again
    assert game.score(0) == 11


def test_a_card_whose_value_was_set_to_0_is_worth_0(tmp_path: Path) -> None:
    """0 is a value like any other: the card is worth 0, not its rank's value (the score, `.value` and
    `total` read it), until it leaves play."""
    rules = load_ruleset(str(house_file(tmp_path, _DOUBLER.replace("target.value * 2", "0"))))
    setup = {"p1": {"hand": ["5C", "3C"], "points": ["7H", "2H"]}, "p2": {"hand": ["9S", "9D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.play("oneoff 5C 7H")
    game.play("resolve")
    assert game.score(0) == 2
    g = game.state.copy()
    node = parse_expr("count(field of me where it.value == 0) * 100 + first(field of me where it.rank == 7).value")
    assert Compiler(rules.ctx).expr(node, frozenset({"me"}))(g, {"me": 0}) == 100
    assert Reference(rules.ctx).ev(node, g, {"me": 0}, frozenset({"me"})) == 100


@pytest.mark.parametrize(
    "effect, worth",
    [
        ("9 for 1 turns", 9),
        # `add N to X.value` on a value set for some turns: the sum lasts as long as the set value would
        # have (then the card is worth its rank's value again), not for the rest of the game
        ("9 for 1 turns; add 1 to target.value", 10),
    ],
)
def test_a_value_set_for_some_turns_reads_its_ranks_value_afterwards(tmp_path: Path, effect: str, worth: int) -> None:
    rules = load_ruleset(str(house_file(tmp_path, _DOUBLER.replace("target.value * 2", effect))))
    setup = {"p1": {"hand": ["5C"], "points": ["2H"]}, "p2": {"hand": ["9S", "9D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.play("oneoff 5C 2H")
    game.play("resolve")
    assert game.score(0) == worth
    game.play("draw")  # the end of the next turn: the value is over
    assert game.score(0) == 2


def test_total_of_an_expression_sums_it_over_the_cards(tmp_path: Path) -> None:
    f = house_file(
        tmp_path,
        "counters:\n  heat:\n    of: card\n"
        "plays:\n  points:\n    effect: move card to field of me as point; add card.value to card.heat\n"
        "end:\n  score: total(field of me, it.heat * 2) + total(field of me where it.value > 5, 1)\n",
    )
    rules = load_ruleset(str(f))
    game = Game(rules, build_position(rules, {"p1": {"hand": ["7H", "3C"]}, "p2": {"hand": ["2D", "4D"]}}, 0), 0)
    game.play("points 7H")
    game.play("points 2D")
    game.play("points 3C")
    assert game.score(0) == 2 * (7 + 3) + 1
    assert "Your points: the sum of each card's heat count times 2 over your cards plus" in rules_page(rules)


@pytest.mark.parametrize(
    "body",
    [
        _DOUBLER.replace("target.value * 2", "25"),
        "counters:\n  heat:\n    of: card\nend:\n  score: total(field of me, it.value + it.heat)\n"
        + _DOUBLER.replace("target.value to target.value * 2", "target.heat to 25"),
    ],
    ids=["own value", "counter summed"],
)
def test_a_score_raised_without_moving_a_card_wins_at_once(tmp_path: Path, body: str) -> None:
    """The win check is skipped while no field changed only when the score reads nothing but the fields
    (no counter, no own value)."""
    rules = load_ruleset(str(house_file(tmp_path, body)))
    state = build_position(rules, {"p1": {"hand": ["5C", "3C"], "points": ["9H"]}, "p2": {"hand": ["4D"]}}, 0)
    game = Game(rules, state, 0)
    for move in ("points 3C", "draw", "oneoff 5C 9H", "resolve"):
        game.play(move)
    assert game.score(0) >= 21 and str(game.outcome) == "P1 wins: P1 reached the goal"


# -- names for nested cards ----------------------------------------------------------------------


def test_a_named_card_is_told_apart_from_the_card_of_a_nested_where(tmp_path: Path) -> None:
    f = house_file(
        tmp_path,
        "plays:\n  scuttle:\n"
        "    target: 'field of opponent where x: x.role == point and not any(field of me where it.value > x.value)'\n",
    )
    rules = load_ruleset(str(f))
    page = rules_page(rules)
    assert "whose value is more than that card's value" in page
    assert "its value is more than its value" not in page
    state = build_position(rules, {"p1": {"hand": ["3C"], "points": ["6H"]}, "p2": {"points": ["7D", "5S"]}}, 0)
    game = Game(rules, state, 0)
    assert sorted(str(m) for m in game.legal_moves() if m.verb == "scuttle") == ["scuttle 3C 7D"]


def test_a_named_card_on_one_unquoted_yaml_line_gets_a_hint(tmp_path: Path) -> None:
    f = house_file(tmp_path, "plays:\n  scuttle:\n    target: field of opponent where x: x.role == point\n")
    (e,) = check(str(f))
    assert e.code == "E001" and "quoted, or written on the next lines after `|`" in str(e)


def test_a_definition_with_a_parameter_reads_in_english() -> None:
    """A number defined with a parameter reads as a noun ("x's value plus x's wild count"), not as its
    code again, and a use of it as "a's worth" (the trick form defines worth(x) and beats(a, b))."""
    terms = rules_page(load_ruleset(TRICK)).split("\nTerms\n")[1]
    assert "  worth(x): x's value plus x's wild count  [x.value + x.wild]" in terms
    assert "  beats(a, b): a's worth is more than b's worth or (a's worth is b's worth and" in terms


def test_the_rules_page_tells_the_wild_joker() -> None:
    page = rules_page(load_ruleset(WILD))
    assert (
        "Wild: you name a number from 0 to 10, then put this card in front of you as a point card, then "
        "this card is worth the number named until it leaves play." in page
    )


# -- the wild Jokers, new and old --------------------------------------------------------------


def _expanded(game: Game) -> set[str]:
    """The new form's legal moves, each `wild X` standing for the trick's `wild0 X` ... `wild10 X`."""
    out = set()
    for m in game.legal_moves():
        if m.verb == "wild":
            out |= {f"wild{n} {NAMES[m.cards[0]]}" for n in range(11)}
        else:
            out.add(str(m))
    return out


def _same_games(seeds: range) -> int:
    """Play seeded random games of the trick form and the same moves in the new form (`wildN X` as
    `wild X` then `value N`); the legal moves, the scores and the outcome agree at every step. The
    number of wild Jokers played."""
    new_rules, old_rules = load_ruleset(WILD), load_ruleset(TRICK)
    wilds = 0
    for seed in seeds:
        new, old = Game.new(new_rules, seed), Game.new(old_rules, seed)
        rnd = random.Random(seed)
        for _ in range(300):
            if old.outcome is not None:
                break
            legal = sorted(str(m) for m in old.legal_moves())
            assert _expanded(new) == set(legal), f"seed {seed}, after {[str(m) for m in old.moves]}"
            move = rnd.choice(legal)
            old.play(move)
            if move.startswith("wild"):
                verb, card = move.split()
                new.play(f"wild {card}")
                new.play(f"value {verb[4:]}")
                wilds += 1
            else:
                new.play(move)
            assert (new.score(0), new.score(1)) == (old.score(0), old.score(1)), f"seed {seed}: {move}"
            assert new.decision == old.decision or new.outcome is not None, f"seed {seed}: {move}"
        assert str(new.outcome) == str(old.outcome), f"seed {seed}"
    return wilds


def test_the_wild_jokers_play_exactly_like_their_trick_form() -> None:
    assert _same_games(range(100)) > 20


@pytest.mark.slow
def test_the_wild_jokers_play_exactly_like_their_trick_form_on_many_games() -> None:
    assert _same_games(range(100, 2100)) > 500


@pytest.mark.parametrize("name", ["random", "heuristic", "sharp", "ismcts?iterations=40"])
def test_the_players_name_numbers(name: str) -> None:
    rules = load_ruleset(WILD)
    game = _wild_game(["RJ", "7H", "3C"], ["5C", "BJ"], ["9H"])
    players = [make_player(name, seed=1), make_player(name, seed=2)]
    named = 0
    for _ in range(200):
        if game.outcome is not None:
            break
        decision = game.decision
        move = players[decision.player].choose(game)
        move = game.parse_move(move) if isinstance(move, str) else move
        named += move.number is not None
        game.play(move)
    assert named >= 1 and rules.name == "wild-jokers"


def test_the_environment_plays_a_number_as_its_characters() -> None:
    from interpreter.env.cuttle import raw_env

    e = raw_env(ruleset=WILD)
    assert e.tokens[-11:] == ["-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
    assert raw_env(ruleset="default").tokens[-1] == "BJ"  # (a ruleset naming no number: no digits)
    assert e.move_tokens(Move("value", (), 10)) == [e.index["value"], e.index["1"], e.index["0"]]
    rnd, named = random.Random(3), 0
    for seed in range(6):
        e.reset(seed=seed)
        for _ in range(150):
            game = e.game
            assert game is not None
            if game.outcome is not None:
                break
            legal = game.legal_moves()
            wild = [m for m in legal if m.verb == "wild" or m.number is not None]
            move = rnd.choice(wild or legal)
            if move.number is not None:  # `value 1` is also the start of `value 10`: `end` is offered
                named += 1
                e.step(e.index["value"])
                assert e.action_mask()[e.index["1"]] == 1
                e.prefix = []
            before = len(game.moves)
            while len(game.moves) == before:
                e.step(e.next_token(move))
            assert game.moves[-1] == move
    assert named > 0
