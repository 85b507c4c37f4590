"""Additive composition (docs/rulesets.md, "Adding to a rule"): a file that extends another adds steps
before or after a program (`{before: ...}`, `{after: ...}`), a condition to an expression (`{and: ...}`,
`{or: ...}`), or a second play with the same verb and rank; the result reads as one rule on the rules
page and in `cuttle diff`, and an error in any part points into the file that wrote it."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import parse_card
from interpreter.core.errors import RulesetError, RulesetErrors
from interpreter.engine.machine import deal
from interpreter.engine.state import SCRAP
from interpreter.engine.view import PointView
from interpreter.language import tree as A
from interpreter.rules import check
from interpreter.rules.page import diff_rules, rules_page
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position

from .scenario_util import assert_passes, cases

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "examples" / "house"
HOUSE_CASES = cases(
    "jack-steals-king.test.yaml",
    "empty-hand-draws.test.yaml",
    "nines-stand-firm.test.yaml",
    "queens-raise-goal.test.yaml",
    "second-seat-draws-two.test.yaml",
    "no-early-oneoffs.test.yaml",
    "three-may-decline.test.yaml",
    "jacks-come-home.test.yaml",
    "second-player-draws-first.test.yaml",
    "kings-shrug-off-oneoffs.test.yaml",
    under=HOUSE,
    by=__name__,
)


@pytest.mark.parametrize("path", HOUSE_CASES)
def test_the_composition_house_rules_pass_their_scenarios_and_fail_without_them(path: Path) -> None:
    assert_passes(path)
    assert not run_file(path, ruleset_override="default").ok


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _problems(spec: str) -> str:
    with pytest.raises((RulesetError, RulesetErrors)) as e:
        load_ruleset(spec)
    return str(e.value)


def test_before_and_after_join_the_base_program_in_order() -> None:
    rules = load_ruleset(str(HOUSE / "peek-three.yaml"))
    six, three = rules.data["plays"]["six"]["effect"], rules.data["plays"]["three"]["effect"]
    assert six.splitlines() == [
        "scrap play where it.role == jack",
        "scrap play where it.role == royal",
        "show deck_top(3) to me",
    ]
    assert three.splitlines()[0] == "show hand of me to opponent" and three.splitlines()[1].startswith("choose 1")
    page = rules_page(rules)
    assert (
        "One-off: scrap every Jack in play, then scrap every Royal in play, then look at the top 3 cards of the deck."
    ) in page
    assert "One-off: show your hand to your opponent, then you choose 1 card from the scrap" in page


def test_and_joins_a_condition_to_a_play_and_reads_as_one_rule() -> None:
    rules = load_ruleset(str(HOUSE / "empty-hand-draws.yaml"))
    assert rules.data["plays"]["draw"]["legal"] == "count(deck) > 0 and count(hand of me) < hand_limit"
    page = rules_page(rules)
    assert "draw — Draw 1 card. Only if the deck is not empty and your hand holds fewer than the hand limit" in page
    assert "then if your hand is empty and the deck is not empty, draw 1 card." in page
    diff = diff_rules(load_ruleset("default"), rules)
    assert (
        "Draw: can be played: was: only if the deck is not empty; now: only if the deck is not empty and your "
        "hand holds fewer than the hand limit (8) cards"
    ) in diff


def test_or_joins_a_condition(tmp_path: Path) -> None:
    p = _write(
        tmp_path, "h.yaml", "name: h\nextends: default\nplays:\n  pass:\n    legal:\n      or: count(hand of me) == 0\n"
    )
    rules = load_ruleset(str(p))
    assert rules.data["plays"]["pass"]["legal"] == "count(deck) == 0 or count(hand of me) == 0"
    g = Game(rules, build_position(rules, {"p1": {"hand": []}, "p2": {"hand": ["3D"]}}, 0), 0)
    assert "pass" in [str(m) for m in g.legal_moves()]


def test_each_part_of_a_joined_rule_points_into_the_file_that_wrote_it() -> None:
    rules = load_ruleset(str(HOUSE / "peek-three.yaml"))
    from interpreter.rules.compose import compose

    joined = compose(str(HOUSE / "peek-three.yaml")).joined[("plays", "six", "effect")]
    body = joined.tree.body
    first, show = body[0], body[-1]
    assert isinstance(show, A.Show)
    at_show = joined.span.locate(show.line, show.column)
    at_base = joined.span.locate(first.line, first.column)
    assert at_show.file.endswith("peek-three.yaml") and "show deck_top(3) to me" in at_show.text
    assert at_base.file.endswith("default.yaml") and "scrap play where it.role == jack" in at_base.text
    assert rules.data["plays"]["six"]["effect"]  # and the ruleset loads


def test_an_error_in_an_added_text_points_into_its_file(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        "h.yaml",
        """name: h
extends: default
plays:
  six:
    effect:
      after: |
        draw 1
        show deck_top(3) to mee
  draw:
    legal: {and: count(hand of oponent) > 1}
""",
    )
    text = _problems(str(p))
    assert f"{p}:8:29: [E202] unknown name 'mee'" in text
    assert f"{p}:10:32: [E202] unknown name 'oponent'" in text


def test_an_error_of_the_base_of_a_chain_still_points_to_the_base(tmp_path: Path) -> None:
    base = _write(
        tmp_path,
        "base.yaml",
        "name: base\nextends: default\nplays:\n  six:\n    effect: |\n      draw 1\n      draw lots\n",
    )
    top = _write(
        tmp_path, "top.yaml", "name: top\nextends: base.yaml\nplays:\n  six:\n    effect:\n      before: draw 1\n"
    )
    text = _problems(str(top))
    assert f"{base}:7:" in text and "lots" in text


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "plays:\n  six:\n    effect: {and: draw 1}\n",
            "plays.six.effect is a program: write {before: TEXT} and/or {after: TEXT}, not 'and'",
        ),
        (
            "plays:\n  draw:\n    legal: {after: 'true'}\n",
            "plays.draw.legal is an expression: write {and: TEXT} or {or: TEXT} ({add: TEXT} for a number), "
            "not 'after'",
        ),
        (
            "plays:\n  draw:\n    legal: {and: 'true', or: 'false'}\n",
            "plays.draw.legal: write {and: TEXT} or {or: TEXT}, not both",
        ),
        (
            "plays:\n  scuttle:\n    legal: {or: 'true'}\n",
            "plays.scuttle.legal: there is no rule here to add to "
            "(nothing it extends sets plays.scuttle.legal) (without one it always holds: an 'or' would change nothing)",
        ),
        ("plays:\n  six:\n    effect: {after: ''}\n", "plays.six.effect.after must be effect-language text"),
    ],
)
def test_a_wrong_addition_is_a_clear_error(tmp_path: Path, body: str, message: str) -> None:
    p = _write(tmp_path, "h.yaml", "name: h\nextends: default\n" + body)
    text = _problems(str(p))
    assert "[E030] " + message in text and str(p) + ":" in text and "Traceback" not in text


def test_additions_stack_in_order_and_a_later_text_replaces_them(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", "name: a\nextends: default\nplays:\n  draw:\n    effect: {after: pass}\n")
    _write(
        tmp_path, "b.yaml", "name: b\nextends: a.yaml\nplays:\n  draw:\n    effect: {after: draw 2, before: nothing}\n"
    )
    c = _write(tmp_path, "c.yaml", "name: c\nextends: b.yaml\nplays:\n  draw:\n    effect: draw 3\n")
    assert load_ruleset(str(tmp_path / "b.yaml")).data["plays"]["draw"]["effect"].splitlines() == [
        "nothing",
        "draw 1",
        "pass",
        "draw 2",
    ]
    assert load_ruleset(str(c)).data["plays"]["draw"]["effect"] == "draw 3"


# -- a second play with the same verb and rank ------------------------------------------------------


def test_a_second_play_with_the_same_verb_and_rank_adds_moves() -> None:
    rules = load_ruleset(str(HOUSE / "jack-steals-king.yaml"))
    assert rules.shared_moves and not load_ruleset("default").shared_moves
    page = rules_page(rules)
    assert (
        "Jack, targeting one of your opponent's Kings that are not protected: scrap this card, then put the "
        "target in front of you as a Royal." in page
    )


def _jacks(tmp_path: Path, target: str) -> Path:
    return _write(
        tmp_path,
        "j.yaml",
        f"""name: j
extends: default
plays:
  jack-any:
    verb: jack
    ranks: [J]
    kind: jack
    target: {target}
    effect: scrap target
""",
    )


def test_where_two_plays_name_the_same_move_the_first_makes_it(tmp_path: Path) -> None:
    rules = load_ruleset(str(_jacks(tmp_path, "field of opponent where it.role == point or it.rank == K")))
    g = Game(
        rules,
        build_position(
            rules, {"p1": {"hand": ["JS", "2C"]}, "p2": {"hand": ["3D"], "points": ["7H"], "royals": ["KC"]}}, 0
        ),
        0,
    )
    moves = [str(m) for m in g.legal_moves()]
    assert moves.count("jack JS 7H") == 1 and "jack JS KC" in moves
    g.play("jack JS 7H")
    g.play("resolve")
    assert g.view(0).you.points == (PointView("7H", ("JS",), "p2"),)  # the default Jack's


@pytest.mark.parametrize(
    "target, why",
    [
        (None, "neither names a target"),
        ("field of opponent where it.role == point and not protected(it)", "they name their targets by the same rule"),
    ],
)
def test_two_plays_that_always_make_the_same_move_are_refused(tmp_path: Path, target: str | None, why: str) -> None:
    if target is None:
        p = _write(
            tmp_path,
            "j.yaml",
            "name: j\nextends: default\nplays:\n  points-again:\n    verb: points\n"
            "    ranks: [7]\n    effect: scrap card\n",
        )
    else:
        p = _jacks(tmp_path, target)
    text = _problems(str(p))
    assert "[E021]" in text and why in text


def test_an_option_adds_to_its_base_and_two_options_add_in_order(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.yaml", "name: a\nkind: option\nplays:\n  draw:\n    effect: {after: pass}\n")
    b = _write(
        tmp_path,
        "b.yaml",
        "name: b\nkind: option\nplays:\n  draw:\n    effect: {before: nothing}\n    legal: {or: 'false'}\n",
    )
    rules = load_ruleset(f"default+{a}+{b}")
    assert rules.data["plays"]["draw"]["effect"].splitlines() == ["nothing", "draw 1", "pass"]
    assert rules.data["plays"]["draw"]["legal"] == "count(deck) > 0 or false"
    assert "draw — Nothing happens, then draw 1 card, then pass." in rules_page(rules)


def test_frozen_9s_adds_its_marks_before_the_published_nine() -> None:
    rules = load_ruleset("default+published-9s+frozen-9s")
    nine = rules.data["plays"]["nine"]["effect"].splitlines()
    assert nine[0].startswith("if count(target.jacks) > 0 then") and "mark top(target) as frozen" in nine[1]
    assert any("move top(target) to hand of first(top(target)).owner" in line for line in nine)


def test_a_condition_added_where_none_was_written_is_the_condition(tmp_path: Path) -> None:
    """A play without `legal` is always legal: `{and: X}` makes X its condition."""
    p = _write(
        tmp_path,
        "h.yaml",
        "name: h\nextends: default\nplays:\n  scuttle:\n    legal:\n      and: count(hand of me) > 2\n",
    )
    rules = load_ruleset(str(p))
    setup = {"turn": "p1", "p1": {"hand": ["9S", "2C"]}, "p2": {"points": ["5S"], "hand": ["3D"]}}
    assert "scuttle 9S 5S" not in map(str, Game(rules, build_position(rules, setup, 0)).legal_moves())
    setup["p1"]["hand"].append("4C")
    assert "scuttle 9S 5S" in map(str, Game(rules, build_position(rules, setup, 0)).legal_moves())
    assert "Only if your hand holds more than 2 cards" in rules_page(rules)


def test_a_mark_tested_but_never_given_is_named_as_such(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        "h.yaml",
        "name: h\nextends: default\nplays:\n  scuttle:\n    legal:\n      and: not marked(opponent, wronged)\n",
    )
    text = _problems(str(p))
    assert "[E202] no 'mark ... as wronged' in this ruleset gives the mark 'wronged'" in text
    assert str(p) + ":6:" in text


def test_and_on_a_target_keeps_the_cards_for_which_it_holds(tmp_path: Path) -> None:
    """A target is a set of cards: `{and: COND}` filters it (`it` is the card), and reads so."""
    p = _write(
        tmp_path, "h.yaml", "name: h\nextends: default\nplays:\n  scuttle:\n    target:\n      and: it.rank != 9\n"
    )
    rules = load_ruleset(str(p))
    assert (
        rules.data["plays"]["scuttle"]["target"]
        == "(field of opponent where it.role == point and beats(card, it)) where it.rank != 9"
    )
    g = Game(
        rules,
        build_position(rules, {"p1": {"hand": ["10C", "2S"]}, "p2": {"hand": ["3D"], "points": ["9H", "5D"]}}, 0),
        0,
    )
    moves = [str(m) for m in g.legal_moves()]
    assert "scuttle 10C 5D" in moves and "scuttle 10C 9H" not in moves
    assert "Targeting one of your opponent's point cards that this card beats (not a 9)" in rules_page(rules)


def test_or_on_a_target_adds_cards(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        "h.yaml",
        "name: h\nextends: default\nplays:\n  scuttle:\n    target:\n"
        "      or: field of opponent where it.role == royal and beats(card, it)\n",
    )
    rules = load_ruleset(str(p))
    setup = {"p1": {"hand": ["KS", "9C"]}, "p2": {"hand": ["3D"], "points": ["5H"], "royals": ["QD"]}}
    base = load_ruleset("default")
    before = [str(m) for m in Game(base, build_position(base, setup, 0), 0).legal_moves()]
    moves = [str(m) for m in Game(rules, build_position(rules, setup, 0), 0).legal_moves()]
    assert "scuttle 9C 5H" in before and "scuttle 9C QD" not in before  # a Queen has no points to beat
    assert moves.count("scuttle 9C 5H") == 1 and "scuttle 9C QD" in moves
    assert (
        "Targeting one of your opponent's point cards that this card beats or one of your opponent's Royals "
        "that this card beats:"
    ) in rules_page(rules)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (
            "plays:\n  draw:\n    legal: {add: '2'}\n",
            "plays.draw.legal is not a number: 'add' adds only to end.goal and end.score",
        ),
        ("end:\n  goal: {and: 'true'}\n", "end.goal is a number: write {add: TEXT} to add to it"),
    ],
)
def test_add_is_for_numbers_and_only_add_is(tmp_path: Path, body: str, says: str) -> None:
    problems = _problems(str(_write(tmp_path, "h.yaml", "name: h\nkind: base\nextends: default\n" + body)))
    assert "[E030] " + says in problems


def test_an_added_number_reads_as_one_rule() -> None:
    rules = load_ruleset(str(HOUSE / "queens-raise-goal.yaml"))
    assert rules.data["end"]["goal"] == (
        "goals[count(field of me where it.rank == K and it.role == royal)]"
        " + 2 * count(field of me where it.rank == Q and it.role == royal)"
    )
    page = rules_page(rules)
    assert "5 with 3 and 0 with 4; in each case plus 2 times the number of your Queens" in page


def test_a_whole_number_is_the_expression_it_writes(tmp_path: Path) -> None:
    # `goal: 21` and `goal: {add: 3}` as a designer writes them (YAML numbers, not text)
    flat = load_ruleset(
        str(_write(tmp_path, "flat.yaml", "name: flat\nkind: base\nextends: default\nend:\n  goal: 18\n"))
    )
    assert flat.goal_of(deal(flat, 1), 0) == 18
    more = load_ruleset(
        str(_write(tmp_path, "more.yaml", "name: more\nkind: base\nextends: default\nend:\n  goal: {add: 3}\n"))
    )
    assert more.goal_of(deal(more, 1), 0) == 24 and "in each case plus 3" in rules_page(more)
    half = _problems(
        str(_write(tmp_path, "half.yaml", "name: half\nkind: base\nextends: default\nend:\n  goal: 2.5\n"))
    )
    assert "expected an expression (text, a whole number, or true/false), got float" in half


def test_a_seat_is_a_player_in_every_pass() -> None:
    """`p1` and `p2` name the seats: compiled, evaluated by the reference evaluator and told in English."""
    rules = load_ruleset(str(HOUSE / "second-seat-draws-two.yaml"))
    assert "If you are P2 and there is more than 1 card in the deck, draw 2 cards" in rules_page(rules)
    from interpreter.language.english import Context, say

    ctx = Context.from_data(rules.data)
    assert say("me != p1", ctx, condition=True) == "you are not P1"
    assert say("it.owner == p2", ctx, condition=True) == "its owner is P2"


def test_a_kinds_legal_holds_for_every_play_of_that_kind_and_points_into_the_kind() -> None:
    rules = load_ruleset(str(HOUSE / "no-early-oneoffs.yaml"))
    oneoffs = [p for p in rules.data["plays"].values() if p.get("kind") == "oneoff"]
    assert len(oneoffs) >= 8 and all(p["legal"].endswith("turn > 2") for p in oneoffs)
    others = [p for p in rules.data["plays"].values() if p.get("kind") != "oneoff"]
    assert not any("turn > 2" in str(p.get("legal", "")) for p in others)


def test_an_error_in_a_kinds_legal_is_reported_once_at_its_own_line(tmp_path: Path) -> None:
    f = _write(
        tmp_path, "k.yaml", "name: k\nkind: base\nextends: default\nkinds:\n  oneoff:\n    legal: turn > nosuch\n"
    )
    (e,) = check(str(f))
    assert e.code == "E202" and (e.where.line, e.where.column) == (6, 19)


def test_a_kinds_target_filters_the_targets_of_each_targeted_play_of_that_kind() -> None:
    """`kinds.oneoff.target`: a condition on `it` joined to each one-off's own target as {and: ...}
    (the 2's, the 9's); a one-off without a target gets none; another kind's plays are untouched."""
    rules = load_ruleset(str(HOUSE / "kings-shrug-off-oneoffs.yaml"))
    plays = rules.data["plays"]
    assert plays["two"]["target"].endswith("where it.rank != K") and plays["nine"]["target"].endswith("!= K")
    assert "target" not in plays["ace"] and "!= K" not in plays["scuttle"]["target"]
    assert "cards (not a Jack) that are not protected (not a King)" in rules_page(rules)


def test_an_error_in_a_kinds_target_points_at_the_kinds_line(tmp_path: Path) -> None:
    f = _write(tmp_path, "k.yaml", "name: k\nkind: base\nextends: default\nkinds:\n  oneoff:\n    target: it.rnk\n")
    (e,) = check(str(f))
    assert e.code == "E204" and (e.where.line, e.where.column) == (6, 13)


def test_a_twin_gets_its_kinds_rules_once_on_what_it_inherits(tmp_path: Path) -> None:
    """A play `like` another (a twin) keeps the condition it inherits and adds the kind's once."""
    f = _write(
        tmp_path,
        "k.yaml",
        "name: k\nkind: base\nextends: default\noptions: [twinned]\n"
        "kinds:\n  oneoff:\n    legal: turn > 2\n    target: it.rank != K\n",
    )
    plays = load_ruleset(str(f)).data["plays"]
    assert plays["twin-three"]["legal"] == plays["three"]["legal"] == "count(scrap where it.rank != 3) > 0 and turn > 2"
    assert plays["twin-two"]["target"] == plays["two"]["target"] and plays["two"]["target"].count("!= K") == 1


def test_an_option_adds_to_every_play_of_a_kind_at_once(tmp_path: Path) -> None:
    """An option writes `kinds: {oneoff: {legal: {and: ...}}}` (or `target:`): every one-off of the ruleset
    it is applied to gets it, added to what the base's kind already says; its errors point into the option."""
    _write(tmp_path, "base.yaml", "name: base\nkind: base\nextends: no-early-oneoffs-copy\n")
    (tmp_path / "no-early-oneoffs-copy.yaml").write_text(
        (HOUSE / "no-early-oneoffs.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    opt = _write(
        tmp_path,
        "calm.yaml",
        "name: calm\nkind: option\nkinds:\n  oneoff:\n    legal: {and: count(hand of me) > 1}\n"
        "    target: {and: it.rank != K}\n",
    )
    spec = f"{tmp_path / 'no-early-oneoffs-copy.yaml'}+{opt}"
    plays = load_ruleset(spec).data["plays"]
    assert plays["five"]["legal"] == "count(deck) > 0 and (turn > 2 and count(hand of me) > 1)"
    assert plays["ace"]["legal"] == "turn > 2 and count(hand of me) > 1"
    assert plays["nine"]["target"].endswith("where it.rank != K") and "target" not in plays["six"]
    alone = load_ruleset(f"default+{opt}").data["plays"]  # on a base whose kind says nothing: the addition
    assert alone["ace"]["legal"] == "count(hand of me) > 1" and alone["two"]["target"].endswith("it.rank != K")
    bad = _write(tmp_path, "bad.yaml", "name: bad\nkind: option\nkinds:\n  oneoff:\n    legal: {and: turn > nosuch}\n")
    (e,) = check(f"default+{bad}")
    assert e.code == "E202" and e.where.file.endswith("bad.yaml") and e.where.line == 5


def test_an_optional_choice_offers_none_and_says_so() -> None:
    """`choose up to N`: every number of the cards from none to N is a move (the verb alone: none);
    the REPL says 'may', the engine, the reference evaluator and the English agree."""
    from repl.render import decision_text

    rules = load_ruleset(str(HOUSE / "three-may-decline.yaml"))
    state = build_position(rules, {"p1": {"hand": ["3D"]}, "p2": {"hand": ["5C"]}, "scrap": ["9S", "KH", "3H"]}, 0)
    game = Game(rules, state, 0)
    game.play("oneoff 3D")
    game.play("resolve")
    assert sorted(str(m) for m in game.legal_moves()) == ["take", "take 9S", "take KH"]
    assert decision_text(game.view(0), True) == "you may take up to 1 of 9♠ K♥ ('take' alone: none)"
    assert "choose up to 1 different card, or none" in game.explain("take 9S KH")
    assert "you may choose 1 card from the scrap (not a 3)" in rules_page(rules)
    game.play("take")
    assert sorted(game.state.zones[SCRAP]) == sorted(parse_card(c) for c in ("9S", "KH", "3H", "3D"))


def test_a_house_file_without_a_name_or_description_is_named_after_itself(tmp_path: Path) -> None:
    # the page of a file that says nothing of itself must not read as the ruleset it extends
    path = _write(tmp_path, "wild-goal.yaml", "extends: default\nend:\n  goal: 18\n")
    rules = load_ruleset(str(path))
    page = rules_page(rules)
    assert rules.name == "wild-goal" and page.startswith("wild-goal — rules of Cuttle")
    assert "wild-goal.yaml changes default, which reads: The main rules" in page


def test_a_card_remembers_its_last_owner_and_controller_after_it_leaves_play() -> None:
    """`it.last_owner`/`it.last_controller`: in play, its owner and controller now; out of play, those it
    had when it left; never in play, nobody. Kept in the position (its key, its copies), reset for a hand."""
    rules = load_ruleset(str(HOUSE / "jacks-come-home.yaml"))
    state = build_position(rules, {"p1": {"hand": ["2D"]}, "p2": {"hand": ["4C"], "points": ["8H+JC"]}}, 0)
    jc, eh = parse_card("JC"), parse_card("8H")
    assert (state.last_owner_of(jc), state.last_controller_of(jc)) == (1, 1)
    assert (state.last_owner_of(eh), state.last_controller_of(eh)) == (0, 1)  # p1's 8H, held by p2's Jack
    before = state.copy()
    state.move(eh, SCRAP)  # the Jack goes with it
    assert (state.last_owner_of(eh), state.last_controller_of(eh)) == (0, 1)
    assert (state.last_owner_of(jc), state.last_controller_of(jc)) == (1, 1)
    assert (before.last_owner_of(parse_card("2D")), before.key() != state.key()) == (-1, True)
    assert before.last_seats[eh] == 0 and state.copy().key() == state.key()  # the snapshot kept its own
    state.clear()
    assert state.last_owner_of(eh) == -1 == state.last_controller_of(jc)
    from interpreter.language.english import Context, say

    ctx = Context.from_data(rules.data)
    assert say("it.last_owner == second player", ctx, condition=True) == "its last owner is the second player"
    assert "return it to its last owner's hand" in rules_page(rules)


@pytest.mark.parametrize("turn, turn_no, first", [(0, 1, 0), (1, 2, 0), (1, 1, 1), (0, 4, 1), (1, 7, 1)])
def test_the_first_player_is_who_moved_first_in_this_game_or_hand(turn: int, turn_no: int, first: int) -> None:
    """`first player`: whose turn the odd turns are (in a match, per hand); `second player`: the other."""
    from interpreter.language.parser import parse_expr
    from interpreter.language.reference import Reference

    rules = load_ruleset(str(HOUSE / "second-player-draws-first.yaml"))
    setup = {"turn": f"p{turn + 1}", "turn_number": turn_no, "p1": {"hand": ["2D"]}, "p2": {"hand": ["4C"]}}
    state = build_position(rules, setup, 0)  # (a setup without `first:`: the turns alternate from turn 1)
    assert state.first_player() == first
    ref = Reference(rules.ctx)
    assert int(ref.ev(parse_expr("second player"), state, {"me": 0, "opponent": 1}, frozenset())) == 1 - first


def test_in_a_match_the_second_player_of_each_hand_is_named_anew(tmp_path: Path) -> None:
    """Hands alternate who moves first: the game-start rule gives its card to p2 in the first hand and
    to p1 in the second."""
    f = tmp_path / "m.yaml"
    f.write_text(
        "name: m\nkind: base\nextends: default\nmatch: {wins: 2}\ntriggers:\n  head start:\n"
        "    event: game starts\n    effect: draw 1 for second player\n",
        encoding="utf-8",
    )
    rules = load_ruleset(str(f))
    game = Game.new(rules, 3)
    hands = lambda: tuple(len(game.state.zones[z]) for z in (2, 3))  # noqa: E731
    assert hands() == (5, 7)  # p1 moves first: p2 is dealt 6 and draws 1
    while not game.state.hands:
        game.push(game.legal_moves()[0])
    assert game.state.turn == 1 and game.state.turn_no == 1 and hands() == (7, 5)


def test_a_kinds_target_copied_into_its_plays_is_bounded_as_its_legal_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MAX_KIND_RULE_CHARS counts a kind's target too: its copies into the targeted plays of the kind
    (the 2's and the 9's of the default rules: 2 of them) beyond the bound are refused at its line."""
    import sys

    composing = sys.modules["interpreter.rules.compose"]
    text = "it.rank != K and it.rank != Q"  # 29 characters, copied into 2 plays: 58
    f = _write(tmp_path, "k.yaml", f"name: k\nkind: base\nextends: default\nkinds:\n  oneoff:\n    target: {text}\n")
    monkeypatch.setattr(composing, "MAX_KIND_RULE_CHARS", 57)
    (e,) = check(str(f))
    assert e.code == "E212" and "kinds.oneoff.target is added to 2 plays: 58 characters" in e.message
    assert e.where is not None and e.where.line == 6
    monkeypatch.setattr(composing, "MAX_KIND_RULE_CHARS", 58)
    assert check(str(f)) == []


# -- options that change the same rule ------------------------------------------------------------


def test_an_option_may_change_what_an_option_it_requires_set_and_clashes_with_one_it_does_not(
    tmp_path: Path,
) -> None:
    a = _write(tmp_path, "a.yaml", "name: a\nkind: option\nplays:\n  draw:\n    effect: draw 2\n")
    b = _write(tmp_path, "b.yaml", "name: b\nkind: option\nrequires: [a]\nplays:\n  draw:\n    effect: draw 3\n")
    c = _write(tmp_path, "c.yaml", "name: c\nkind: option\nplays:\n  draw:\n    effect: draw 3\n")
    assert load_ruleset(f"default+{a}+{b}").data["plays"]["draw"]["effect"] == "draw 3"
    with pytest.raises(RulesetErrors) as e:
        load_ruleset(f"default+{a}+{c}")
    assert "[E301] options clash: " in str(e.value) and "'a'" in str(e.value), str(e.value)


def test_an_option_that_replaces_a_rule_another_option_changed_inside_clashes(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.yaml", "name: a\nkind: option\nplays:\n  four:\n    effect: draw 2\n")
    c = _write(tmp_path, "c.yaml", "name: c\nkind: option\nplays:\n  four:\n")  # the whole four, removed
    with pytest.raises(RulesetErrors) as e:
        load_ruleset(f"default+{a}+{c}")
    assert "[E301] options clash: 'c' and 'a' both change plays.four differently" in str(e.value), str(e.value)


def test_an_entry_written_with_no_value_is_removed_from_what_the_file_extends(tmp_path: Path) -> None:
    f = _write(tmp_path, "f.yaml", "name: f\nextends: default\nplays:\n  four:\n")
    rules = load_ruleset(str(f))
    assert "four" not in rules.data["plays"] and "four" in load_ruleset("default").data["plays"]


def test_an_error_in_a_text_that_replaced_a_joined_rule_points_into_the_replacing_file(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", "name: a\nextends: default\nplays:\n  draw:\n    effect: {after: pass}\n")
    c = _write(tmp_path, "c.yaml", "name: c\nextends: a.yaml\nplays:\n  draw:\n    effect: draw 3; zork\n")
    with pytest.raises(RulesetErrors) as e:
        load_ruleset(str(c))
    (err,) = e.value.errors
    assert err.where is not None and err.where.file.endswith("c.yaml"), err.render()
    assert (err.where.line, err.where.text[err.where.column - 1 :]) == (5, "zork"), err.render()
