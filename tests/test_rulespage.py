"""Rules pages and diffs are rendered from the data: they follow every change to it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from interpreter.cli import main
from interpreter.language.english import Context, say
from interpreter.language.parser import parse_program
from interpreter.rules import load_ruleset, shipped_names
from interpreter.rules.page import diff_rules, rank_list, rules_page

ROOT = Path(__file__).resolve().parent.parent
RANK_WORDS = ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"]


@pytest.fixture(scope="module")
def default():
    return load_ruleset("default")


@pytest.fixture(scope="module")
def ctx(default) -> Context:
    return Context.from_data(default.data)


@pytest.fixture(scope="module")
def teams() -> Context:
    """A table of four in two teams: sets of players (`opponents`, `others`, `players`) and `partner`."""
    return Context.from_data(load_ruleset("default+teams").data)


def _house(tmp_path: Path, body: str, name: str = "house.yaml") -> Path:
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return p


# -- English ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src,english",
    [
        ("scrap play where it.role == point", "scrap every point card in play"),
        (
            "choose 1 from scrap where it.rank != 3 by me as take; move take to hand of me",
            "you choose 1 card from the scrap (not a 3) and put it into your hand",
        ),
        (
            "choose min(2, count(hand of opponent)) from hand of opponent by opponent as discard; scrap discard",
            "your opponent chooses 2 (or all of them, if fewer) cards from their hand and scraps them",
        ),
        ("move target to deck top", "put the target on top of the deck"),
        ("move target to hand of target.owner", "return the target to its owner's hand"),
        (
            "scrap play where it.role == jack; scrap play where it.role == royal",
            "scrap every Jack in play, then scrap every Royal in play",
        ),
        ("move card to field of me as point", "put this card in front of you as a point card"),
        ("draw 1", "draw 1 card"),
        ("swap hand of me with hand of opponent", "swap your hand with your opponent's hand"),
        ("shuffle scrap into deck; draw 1", "shuffle the scrap into the deck, then draw 1 card"),
        ("mark target as frozen for 1 turns", "mark the target as frozen for 1 turn"),
        ("win me", "you win the game"),
        ("nothing", "nothing happens"),
    ],
)
def test_programs_in_english(ctx: Context, src: str, english: str) -> None:
    assert say(src, ctx) == english


@pytest.mark.parametrize(
    "dest,zone,english",
    [
        ("deck top", "deck top", "put the target on top of the deck"),
        ("deck top in order", "deck top", "put the target on top of the deck"),
        ("deck top reversed", "deck top", "put the target on top of the deck, the last of them on top"),
        ("deck bottom", "deck bottom", "put the target at the bottom of the deck"),
        (
            "deck bottom reversed",
            "deck bottom",
            "put the target at the bottom of the deck, the last of them nearest the top",
        ),
        ("scrap", "scrap", "put the target into the scrap"),
        ("shown", "shown", "put the target face up where both players can see it"),
        ("hand of opponent", "hand", "put the target into your opponent's hand"),
        ("field of opponent as royal", "field", "put the target in front of your opponent as a Royal"),
    ],
)
def test_every_destination_of_move_is_its_own_place(ctx: Context, dest: str, zone: str, english: str) -> None:
    # (a destination read as another prints back as that other one: only its zone and its words tell)
    (move,) = parse_program(f"move target to {dest}").body
    assert move.dest.zone == zone
    assert move.dest.reversed == dest.endswith("reversed")
    assert say(f"move target to {dest}", ctx) == english


@pytest.mark.parametrize(
    "src,english",
    [
        ("attach card to target as jack", "put this card on the target as a Jack"),
        ("set target.value to 3", "the target is worth 3 until it leaves play"),
        ("set target.value to 3 for 1 turns", "the target is worth 3 for 1 turn"),
        ("set me.debt to 2 for 2 turns", "set your debt count to 2 for 2 turns"),
        ("pass", "pass"),
        (
            "choose 1 from hand of me by opponent as x; scrap x",
            "your opponent chooses 1 card from your hand and scraps it",
        ),
    ],
)
def test_attach_set_and_pass_in_english(ctx: Context, src: str, english: str) -> None:
    assert say(src, ctx) == english


@pytest.mark.parametrize(
    "src,english",
    [
        ("count(deck) > 0", "the deck is not empty"),
        ("count(deck) == 0", "the deck is empty"),
        ("count(hand of opponent) > 0", "your opponent's hand is not empty"),
        ("not uncounterable(me)", "you have no Queens"),
        ("count(scrap where it.rank != 3) > 0", "there is a card in the scrap (not a 3)"),
        ("not marked(it, frozen)", "it is not marked frozen"),
        ("score(me) > 10", "your points are more than 10"),
        ("me == p2", "you are P2"),
        ("it.owner != opponent", "its owner is not your opponent"),
        ("it.owner == other(opponent)", "its owner is you"),
        ("it.owner == other(me)", "its owner is your opponent"),
        ("count(field of opponent) != 0", "your opponent has a card in play"),
        ("me == first player", "you are the first player"),
        # an `or` inside an `and` is said with "either", an `and` inside an `or` in parentheses
        (
            "(count(deck) > 0 or count(scrap) > 0) and score(me) > 3",
            "either the deck is not empty or the scrap is not empty and your points are more than 3",
        ),
        (
            "(count(deck) > 0 and count(scrap) > 0) or score(me) > 3",
            "(the deck is not empty and the scrap is not empty) or your points are more than 3",
        ),
        ("score(target.owner) > 3", "the target's owner's points are more than 3"),
        ("it.owner == target.controller", "its owner is the target's controller"),
    ],
)
def test_conditions_in_english(ctx: Context, src: str, english: str) -> None:
    assert say(src, ctx, condition=True) == english


@pytest.mark.parametrize(
    "src,english",
    [
        # a set of players' cards are counted together: some of them, none of them, or all between them
        ("count(hand of players) != 0", "there is a card in the players' hands"),
        ("count(hand of opponents) == 0", "your opponents' hands are empty"),
        ("count(hand of others) > 2", "there are more than 2 cards in the other players' hands"),
        ("count(field of players) != 0", "a player has a card in play"),
        ("count(field of opponents) == 0", "none of your opponents has a card in play"),
        ("count(field of opponents where it.role == point) >= 1", "one of your opponents has a point card"),
        ("count(field of others) > 2", "the other players have more than 2 cards in play between them"),
        ("count(field of players where it.rank == Q) == 1", "the players have exactly 1 Queen between them"),
        ("count(hand of partner) != 0", "your partner's hand is not empty"),
    ],
)
def test_a_set_of_players_is_counted_together(teams: Context, src: str, english: str) -> None:
    assert say(src, teams, condition=True) == english


def test_targets_and_values_in_english(ctx: Context) -> None:
    assert (
        say("field of opponent where it.role == point and beats(card, it)", ctx, program=False)
        == "your opponent's point cards that this card beats"
    )
    assert (
        say("goals[count(field of me where it.rank == K and it.role == royal)]", ctx, program=False)
        == "21 with no King in front of you, 14 with 1, 10 with 2, 5 with 3 and 0 with 4"
    )


def test_not_and_minus_read_as_values(ctx: Context) -> None:
    assert say("-count(scrap)", ctx, program=False) == "minus the number of cards in the scrap"
    assert say("not any(scrap)", ctx, program=False) == "the scrap is empty"


def test_unknown_shapes_fall_back_to_readable_text(ctx: Context) -> None:
    assert say("x[1] * y", ctx, program=False) == "entry 1 of x (from 0) times y"
    assert say("x[1] * (a where b)", ctx, program=False) == "entry 1 of x (from 0) times cards in a such that b"


@pytest.mark.parametrize(
    "src,words,condition",
    [
        ("let kept = [card, target]", "let kept be this card and the target", False),
        ("let kept = []", "let kept be no cards", False),
        ('let word = "Q"', 'let word be "Q"', False),
        ("count(cards) == 0", "there are none of the played cards", True),
    ],
)
def test_lists_words_and_bound_names_in_english(ctx: Context, src: str, words: str, condition: bool) -> None:
    assert say(src, ctx, condition=condition) == words


def test_a_definition_without_parameters_reads_as_its_cards() -> None:
    ctx = Context.from_data({"define": {"mine": "field of me where it.role == point"}})
    assert say("count(mine) > 0", ctx, condition=True) == "you have a point card"
    assert say("let n = count(mine)", ctx) == "let n be the number of your point cards"


def test_rank_list() -> None:
    assert rank_list(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]) == "A–10"
    assert rank_list(["K", "Q"]) == "Q, K"
    assert rank_list(["9"]) == "9"


# -- the rules page -----------------------------------------------------------------------------


def test_the_page_mentions_every_rank_and_section(default) -> None:
    page = rules_page(default)
    for word in RANK_WORDS:
        assert f"\n{word}:" in page, word
    for section in (
        "The cards",
        "The deal",
        "Winning",
        "What you can see",
        "Your turn",
        "Responses and counters",
        "Card by card",
        "Terms",
    ):
        assert section in page
    assert "scrap every point card in play" in page
    assert "hand limit (8)" in page
    assert "a 2 plus 1 more card of your choice" in page
    assert "`" not in page  # everything of the default ruleset reads as English


def test_changing_an_effect_changes_the_page(tmp_path: Path, default) -> None:
    p = _house(tmp_path, "extends: default\nplays:\n  six:\n    effect: scrap play where it.role == jack\n")
    page = rules_page(load_ruleset(str(p))).split("\nThe cards\n")[1]  # (the note on cuttle.cards quotes their 6)
    assert "scrap every Jack in play, then scrap every Royal in play" in rules_page(default)
    assert "scrap every Jack in play, then" not in page
    assert "One-off: scrap every Jack in play." in page


def test_a_text_note_is_shown_beside_the_generated_sentence(tmp_path: Path) -> None:
    p = _house(tmp_path, "extends: default\nplays:\n  ace:\n    text: Boom.\n")
    page = rules_page(load_ruleset(str(p)))
    assert 'One-off: scrap every point card in play. ("Boom.")' in page


def _spec(name: str) -> str:
    """A shipped name as something that loads: a base alone, an option on default (or what it requires)."""
    data = yaml.safe_load((ROOT / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8")) or {}
    if data.get("kind") != "option":
        return name
    needs = [str(r) for r in data.get("requires") or []]
    base = next((r for r in needs if r in ("micro", "published")), "default")
    return "+".join([base, *[r for r in needs if r != base], name])


SHIPPED = shipped_names()


def test_the_shipped_rulesets_are_found() -> None:
    assert {"default", "micro", "published", "twinned", "frozen-9s", "jokers"} <= set(SHIPPED)


def test_rules_without_a_name_lists_every_base_and_option_with_its_description(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    bases, options = out.split("Options")
    for name in SHIPPED:
        data = yaml.safe_load((Path(__file__).parents[1] / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8"))
        line = next(x for x in out.splitlines() if x.split()[:1] == [name])
        assert " ".join(str(data["description"]).split())[:40] in " ".join(line.split()), name
        assert (name in bases.split()) == (data.get("kind", "base") == "base"), name


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_has_a_page(name: str) -> None:
    rules = load_ruleset(_spec(name))  # an option on the base it needs, with the options it requires
    page = rules_page(rules)
    assert "Card by card" in page
    assert diff_rules(rules, rules).endswith(
        "no differences — " + rules.name + " plays exactly like " + rules.name + ".\n"
    )


# -- diff ---------------------------------------------------------------------------------------


def test_diff_of_a_ruleset_with_itself(default) -> None:
    assert "no differences" in diff_rules(default, default)


def test_diff_names_the_changed_card(tmp_path: Path, default) -> None:
    p = _house(tmp_path, "extends: default\nplays:\n  nine:\n    effect: move target to hand of target.owner\n")
    d = diff_rules(default, load_ruleset(str(p)))
    assert "9 (one-off): was: if there is a Jack on the target" in d
    assert "now: return the target to its owner's hand" in d
    assert "1 change" in d


def test_diff_of_rules_and_constants(tmp_path: Path, default) -> None:
    p = _house(
        tmp_path, "extends: default\nconstants: {hand_limit: 7}\nend: {on_passes: draw}\ndeal: {first: 6, second: 6}\n"
    )
    d = diff_rules(default, load_ruleset(str(p)))
    assert "The hand limit: was: 8; now: 7" in d
    assert "the game is a draw" in d
    assert "The deal: was: 5 and 6 cards; now: 6 and 6 cards" in d


def test_diff_counters(tmp_path: Path, default) -> None:
    p = _house(tmp_path, "extends: default\nresponses:\n  counter:\n    extra: 0\n    answers: [oneoff, counter]\n")
    d = diff_rules(default, load_ruleset(str(p)))
    assert "a 2 no longer costs an extra card" in d
    assert "a 2 can no longer counter Royals or Jacks" in d


def test_diff_added_and_removed_plays(tmp_path: Path, default) -> None:
    p = _house(
        tmp_path,
        "extends: default\nplays:\n  ten:\n    verb: oneoff\n    ranks: ['10']\n    kind: oneoff\n    effect: draw 2\n",
    )
    d = diff_rules(default, load_ruleset(str(p)))
    assert "New play, 10: One-off: draw 2 cards." in d
    d = diff_rules(load_ruleset(str(p)), default)
    assert "No more one-off play for 10" in d


def test_diff_of_a_value_and_a_term_that_come_and_go(tmp_path: Path, default) -> None:
    p = _house(tmp_path, "extends: default\nvalues:\n  '9':\ndefine:\n  newdef: 3\n")
    house = load_ruleset(str(p))
    d = diff_rules(default, house)
    assert "The value of a 9: was: 9 points; now: no points" in d
    assert "The term newdef: was: not defined; now: newdef: 3" in d
    d = diff_rules(house, default)
    assert "The value of a 9: was: no points; now: 9 points" in d
    assert "The term newdef: was: newdef: 3  [3]; now: not defined" in d


def test_the_page_of_a_game_with_no_deck_says_so() -> None:
    assert "and 8 to the second player. There is no deck: every card is dealt." in rules_page(load_ruleset("micro"))
    assert "The other " in rules_page(load_ruleset("default"))


def test_diff_default_published_reads_like_000() -> None:
    d = diff_rules(load_ruleset("default"), load_ruleset("published"))
    assert "9 (one-off)" in d and "its owner's hand" in d
    assert "no longer costs an extra card" in d
    assert "can no longer counter Royals or Jacks" in d
    assert "passes in a row" in d and "draw" in d
    assert "You see your opponent's hand" in d


def test_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "default"]) == 0
    assert "Card by card" in capsys.readouterr().out
    assert main(["diff", "default", "default"]) == 0
    assert "no differences" in capsys.readouterr().out


def test_english_reads_every_shape_without_failing(ctx: Context) -> None:
    from .test_printer import TEXTS, TRICKY_EXPRS, TRICKY_PROGRAMS

    for src in TRICKY_EXPRS:
        assert say(src, ctx, program=False) and say(src, ctx, condition=True)
    for src in TRICKY_PROGRAMS:
        assert say(src, ctx)
    for _, typ, src in TEXTS:
        assert say(src, ctx, condition=typ == "expr")


# -- pages players read (issue 13) ---------------------------------------------------------------

PAGES = [
    "default",
    "published",
    "micro",
    "micro+jokers",
    "default+twinned",
    "default+classic-2s",
    "published+best-of-5",
    "default+published-9s+frozen-9s",
    "default+joker-swap",
]


@pytest.mark.parametrize("spec", PAGES)
def test_pages_speak_to_players_not_to_the_sources(spec: str) -> None:
    page = rules_page(load_ruleset(spec))
    for word in ("000", "SPEC", "ruling", "Source:"):
        assert word not in page, (spec, word)


def test_a_kind_that_cannot_be_countered_says_nothing_about_being_countered() -> None:
    lines = {ln.split(":")[0]: ln for ln in rules_page(load_ruleset("published")).splitlines() if ln.startswith("A ")}
    assert lines["A Royal"] == "A Royal: it cannot be countered."
    assert lines["A Jack"] == "A Jack: it cannot be countered."
    assert "when it is countered" in lines["A one-off"]


def test_a_kind_no_response_answers_cannot_be_countered(tmp_path: Path) -> None:
    p = _house(tmp_path, "extends: default\nresponses:\n  counter:\n    answers: [oneoff, counter]\n")
    page = rules_page(load_ruleset(str(p)))
    assert "A Royal: it cannot be countered: no response answers it." in page
    assert "A Royal: it cannot be countered: no response answers it; when" not in page


def test_whose_queens(default) -> None:
    page = rules_page(default)
    assert "A one-off: when you play one, your opponent can counter it only if you have no Queens" in page
    assert "Your opponent can answer it in turn only if you have no Queens" in page


def _familiar(spec: str) -> str:
    page = rules_page(load_ruleset(spec))
    head = "If you know Cuttle from cuttle.cards"
    return page.split(head)[1].split("The cards")[0] if head in page else ""


def test_the_default_page_names_the_familiar_rules_where_it_differs() -> None:
    section = _familiar("default")
    assert "cuttle-cards ruleset" in section and "--ruleset cuttle-cards" in section
    # the option cuttle.cards plays, with the ruleset that adds it; then the rest, as the diff says it
    assert "A 2 alone counters a one-off; Royals and Jacks cannot be countered (play default+classic-2s" in section
    assert "now: the game is a draw, whatever the points" in section  # the stalemate
    assert "return the target to its controller's hand" in section  # their 9
    assert "it answers a play or it is not marked frozen" in section  # frozen, except to counter
    assert "cuttle diff default cuttle-cards" in section
    assert "Here, unlike on cuttle.cards" not in section and "published" not in section


def test_the_familiar_rules_have_no_note_and_twins_are_named_on_either_side() -> None:
    assert _familiar("cuttle-cards") == ""
    twins = _familiar("default+twinned")
    assert "Here, unlike on cuttle.cards:\n  * Two cards of a rank played together" in twins
    assert "(the twinned option)" in twins and "9 (one-off, 2 cards together)" in twins
    only_twins = _familiar("cuttle-cards+twinned")
    assert "(the twinned option)" in only_twins and "On cuttle.cards, unlike here" not in only_twins


def test_a_house_rule_is_told_as_a_house_rule_on_its_base_not_against_cuttle_cards(tmp_path: Path) -> None:
    """The note on a house rule's page names its base and lists only how that base differs from
    cuttle.cards: the house rule's own rules are its point, not a difference to list (issue 45, left over)."""
    house = "examples/house/jack-reclaim.yaml"
    section = _familiar(house)
    assert f"This is a house rule on default ('cuttle diff default {house}' says what it changes)" in section
    assert "On cuttle.cards, unlike default:" in section and "No more rule" not in section
    assert "A 2 alone counters a one-off" in section and f"(play {house}+classic-2s for that)" in section
    assert "now: the game is a draw, whatever the points" in section  # default's stalemate, told as on default
    assert "as 'cuttle diff default cuttle-cards' says it" in section
    assert _familiar(f"{house}+classic-2s").count("A 2 alone counters") == 0  # an option given is the base's too
    on_familiar = _house(tmp_path, "name: mine\nextends: cuttle-cards\nconstants:\n  hand_limit: 7\n")
    mine = _familiar(str(on_familiar))
    assert (
        f"This is a house rule on cuttle-cards, the rules of cuttle.cards ('cuttle diff cuttle-cards {on_familiar}'"
        in (" ".join(mine.split()))
    )
    assert "unlike" not in mine
    from repl.app import familiar_note

    intro = familiar_note(load_ruleset(house))
    assert (
        intro.startswith("\nA house rule on default, not the rules most online players know") and "No more" not in intro
    )
    assert "(--ruleset examples/house/jack-reclaim.yaml+classic-2s)" in intro and "(was" not in intro
    assert familiar_note(load_ruleset(str(on_familiar))).startswith("\nA house rule on cuttle-cards, the rules")


def test_the_published_page_says_how_cuttle_cards_differs_from_it() -> None:
    section = _familiar("published")
    assert "The goals: was: 21, 14, 10, 7, 5; now: 21, 14, 10, 5, 0" in section
    assert "classic-2s" not in section  # both play it


def test_an_option_is_described_beside_its_base() -> None:
    page = rules_page(load_ruleset("micro+jokers"))
    head = page.split("The cards")[0]
    assert "sixteen cards" in head and "With jokers: Each player also gets a Joker" in head


def test_diff_tells_a_change_to_the_deal_of_particular_cards() -> None:
    d = diff_rules(load_ruleset("micro"), load_ruleset("micro+jokers"))
    assert "The deal: was: 8 and 8 cards; now: 8 and 8 cards, plus RJ to the first player and BJ to the second" in d


def test_twins_say_which_card_goes_into_play_and_that_they_are_not_passes() -> None:
    page = rules_page(load_ruleset("default+twinned"))
    assert (
        "Royal (2 cards of the same rank together): put the first card you name in front of you as a Royal. "
        "The other card is scrapped."
    ) in page
    assert "it neither counts as a pass nor breaks a run of passes" in page
    assert "One-off (2 cards of the same rank together): scrap every point card in play. It does" in page


def test_a_seven_says_its_card_is_played_once_the_rest_is_done(default) -> None:
    seven = next(ln for ln in rules_page(default).splitlines() if "turn up the top 2 cards" in ln)
    assert "once the rest of this effect is done (this effect ends only when that play has resolved)" in seven


def test_the_joker_shuffles_the_scrap_under_the_deck() -> None:
    page = rules_page(load_ruleset("micro+jokers"))
    assert "shuffle the scrap and put it under the deck, then draw 1 card" in page


# -- English of the issue-9 examples ----------------------------------------------------------------


def test_a_third_person_chooser_scraps_in_the_third_person() -> None:
    page = rules_page(load_ruleset("default+random-4s"))
    assert (
        "the game, at random, chooses 2 (or all of them, if fewer) cards from your opponent's hand and "
        "scraps them" in page
    )
    assert "and scrap them" not in page.replace(
        "you choose cards from your hand, down to the hand limit (8), and scrap them", ""
    )


@pytest.mark.parametrize(
    "src, words",
    [
        ("count(hand of me) > 1", "your hand holds more than 1 card"),
        ("count(hand of me) > 2", "your hand holds more than 2 cards"),
        ("count(deck) > 1", "there is more than 1 card in the deck"),
        ("count(deck) >= 3", "there are at least 3 cards in the deck"),
    ],
)
def test_counts_agree_with_their_noun(src: str, words: str) -> None:
    assert say(src, condition=True, program=False) == words


@pytest.mark.parametrize(
    "src, words",
    [
        ("show deck_top(3) to me", "look at the top 3 cards of the deck"),
        ("show deck_top(1) to opponent", "show the top card of the deck to your opponent"),
        ("show hand of me to all", "show your hand to both players"),
    ],
)
def test_show_reads_as_looking_or_showing(src: str, words: str) -> None:
    assert say(src) == words


@pytest.mark.parametrize(
    "src, words",
    [
        ("mark me as wronged for 2 turns", "you are marked wronged for 2 turns"),
        ("mark opponent as cursed", "your opponent is marked cursed for the rest of the game"),
        ("unmark me as wronged", "you are no longer marked wronged"),
        ("mark hand of me as hot for 1 turns", "mark your hand as hot for 1 turn"),
    ],
)
def test_a_marked_player_reads_passively(src: str, words: str) -> None:
    assert say(src) == words


@pytest.mark.parametrize(
    "src, words, condition",
    [
        ("me.scuttles < 2", "your scuttles count is less than 2", True),
        ("add 1 to me.scuttles", "add 1 to your scuttles count", False),
        ("it.value > 3", "its value is more than 3", True),  # a card's own attribute is no count
    ],
)
def test_a_counter_reads_as_a_count(src: str, words: str, condition: bool) -> None:
    assert say(src, condition=condition, program=not condition) == words


@pytest.mark.parametrize(
    ("spec", "goal"),
    [
        ("micro", "Your goal (in points): 21 with no King in front of you and 14 with 1."),  # one King dealt
        (
            "default",
            "Your goal (in points): 21 with no King in front of you, 14 with 1, 10 with 2, 5 with 3 and 0 with 4.",
        ),
    ],
)
def test_the_goal_is_told_only_for_the_kings_the_deck_holds(spec: str, goal: str) -> None:
    assert goal in rules_page(load_ruleset(spec)).splitlines()


def test_plays_named_with_numbers_are_listed_in_number_order(tmp_path: Path) -> None:
    f = tmp_path / "wild.yaml"
    plays = "".join(
        f"  wild{n}:\n    verb: wild{n}\n    ranks: [K]\n    effect: move card to field of me as point\n"
        for n in (10, 2, 1)
    )
    f.write_text(f"name: wild\nkind: base\nextends: default\nplays:\n{plays}", encoding="utf-8")
    page = rules_page(load_ruleset(str(f)))
    line = next(x for x in page.splitlines() if x.startswith("  * or play a card for its ability"))
    assert line.index("wild1,") < line.index("wild2") < line.index("wild10")


def test_an_ordered_put_back_reads_as_an_order_you_name() -> None:
    page = rules_page(
        load_ruleset(str(Path(__file__).resolve().parents[1] / "examples" / "house" / "ten-arranges.yaml"))
    )
    assert (
        "you put the revealed cards in the order of your choice, naming them one after another; then put "
        "those cards in the order named on top of the deck" in page
    )
    assert "(first named, first)" not in page


@pytest.mark.parametrize(
    "src,english",
    [
        ("draw 1 for opponents", "your opponents draw 1 card"),
        ("draw 1 for others", "the other players draw 1 card"),
        ("draw 1 for players", "every player draws 1 card"),
        ("draw 1 for partner", "your partner draws 1 card"),
    ],
)
def test_a_set_of_players_takes_the_plural_verb(teams: Context, src: str, english: str) -> None:
    assert say(src, teams) == english


@pytest.mark.parametrize(
    "word, said",
    [("one-eyed Jack", "a one-eyed Jack"), ("unique card", "a unique card"), ("user", "a user"), ("ace", "an ace")],
)
def test_a_or_an_goes_by_the_sound_of_the_word(word: str, said: str) -> None:
    from interpreter.language.phrasing import a

    assert a(word) == said


def test_play_from_says_when_the_play_is_made_and_when_the_effect_ends(ctx: Context) -> None:
    later = (
        " in any way it can be played, as if from your hand, once the rest of this effect is done (this effect "
        "ends only when that play has resolved)"
    )
    assert say("play from hand of me", ctx) == "play one of your hand" + later
    assert say("play from scrap where it.rank == 3", ctx) == "play a 3 in the scrap" + later  # (where it is)


@pytest.mark.parametrize(
    "src, two, more",
    [
        ("reveal 2", "turn up the top 2 cards of the deck for both players to see", "for every player to see"),
        ("show hand of me to all", "show your hand to both players", "show your hand to every player"),
        ("turn up field of me", "turn your cards in play face up for both players to see", "for every player to see"),
        ("move target to shown", "put the target face up where both players can see it", "where every player can"),
    ],
)
def test_what_everyone_sees_is_said_for_the_players_at_the_table(src: str, two: str, more: str) -> None:
    assert say(src, Context.from_data(load_ruleset("default").data)) == two
    assert more in say(src, Context.from_data(load_ruleset("default+cutthroat").data))


@pytest.mark.parametrize(
    "src, english",
    [
        ("scrap deck_top(2)", "scrap the top 2 cards of the deck"),
        ("move deck_top(1) to hand of me", "put the top card of the deck into your hand"),
    ],
)
def test_the_top_cards_of_the_deck_are_named_as_such(ctx: Context, src: str, english: str) -> None:
    assert say(src, ctx) == english
    king = say("count(deck_top(3) where it.rank == K) > 0", ctx, condition=True)
    assert king == "there is a King in the top 3 cards of the deck"


def test_a_sentence_ends_with_one_stop() -> None:
    from interpreter.language.phrasing import sentence

    assert (sentence("do you agree?"), sentence("draw 1"), sentence("draw 1.")) == (
        "Do you agree?",
        "Draw 1.",
        "Draw 1.",
    )
