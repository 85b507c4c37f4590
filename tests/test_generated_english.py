"""The generated text read for slips (issue 44 item 4): every rules page, diff (against the default
rules, both ways) and narration (a seeded game told from both seats, with the decision each player is
shown) of the shipped rulesets and the house-rule examples, searched for the slips a designer met:
doubled nouns ("... hand cards", "the number named cards"), two relative clauses chained without
"and", "only if always", "plus minus", "0 passes in a row", one card put back as "them", a "(see ...)"
pointing at a section that does not list the play, a second person made by cutting an -s off a verb
("You stashe", "You scrie"), and a rule's `win` missing from the Winning section."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.language import tree as A
from interpreter.language.parser import parse_program
from interpreter.rules.page import diff_rules, play_label, resolved_plays, rules_page
from repl.narrate import SECOND_PERSON, Teller
from repl.render import decision_text

from .rulesets_under_test import RULESETS

ROOT = Path(__file__).resolve().parents[1]
HOUSE = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples" / "house").glob("*.yaml") if ".test." not in p.name)
# a ruleset with a rule of every shape that once read with a slip (free plays open to any card, a rule's
# `win`, a chosen number of cards, ...): the checks below can fail on it where no shipped ruleset reaches
SHAPES = "tests/fixtures/english/slip-shapes.yaml"
SPECS = sorted(set(RULESETS) | {"cuttle-cards", "default+classic-2s+queen-window"}) + HOUSE + [SHAPES]

# (what the slip is, the pattern that finds it)
SLIPS: list[tuple[str, re.Pattern[str]]] = [
    ("a word twice", re.compile(r"\b([A-Za-z]+) \1\b")),
    ("a doubled noun ('... hand cards', '... hand point cards')", re.compile(r"\b(?:hand|deck) (?:\w+ )?cards?\b")),
    ("a doubled noun ('the number named cards')", re.compile(r"\bnamed cards\b")),
    ("two relative clauses chained without 'and'", re.compile(r"\bwhose\b[^.;:,()]*? (?<!and )whose\b")),
    ("'only if always'", re.compile(r"\bonly if (?:always|never)\b")),
    ("'and always'", re.compile(r"\b(?:and always|or never)\b")),
    ("'plus minus'", re.compile(r"\b(?:plus|minus) minus\b")),
    ("'0 passes in a row'", re.compile(r"\b0 passes in a row\b")),
    ("one card called 'them'", re.compile(r"\b(?:it|this card|the target|the chosen card) and put them\b")),
    ("a Python truth value", re.compile(r"\b(?:True|False|None)\b")),
]


def slips_in(text: str) -> list[str]:
    """Each slip found in `text`, with the words around it."""
    found = []
    for what, pattern in SLIPS:
        for m in pattern.finditer(text):
            found.append(f"{what}: ...{text[max(0, m.start() - 60) : m.end() + 30]}...")
    return found


@cache
def _rules(spec: str):
    return load_ruleset(spec)


@cache
def _page(spec: str) -> str:
    return rules_page(_rules(spec))


def _section(page: str, title: str) -> list[str]:
    """The lines of one section of a rules page (under its title and its underline)."""
    lines = page.splitlines()
    if title not in lines:
        return []
    start = lines.index(title) + 2
    end = next((i for i in range(start, len(lines)) if lines[i] and set(lines[i]) == {"-"}), len(lines) + 1) - 1
    return lines[start:end]


@pytest.mark.parametrize("spec", SPECS)
def test_a_rules_page_has_no_slip(spec: str) -> None:
    page = _page(spec)
    assert not slips_in(page), "\n".join(slips_in(page))


@pytest.mark.parametrize("spec", SPECS)
def test_the_diffs_with_the_default_rules_have_no_slip(spec: str) -> None:
    rules, default = _rules(spec), _rules("default")
    for text in (diff_rules(default, rules), diff_rules(rules, default)):
        assert not slips_in(text), "\n".join(slips_in(text))


@pytest.mark.parametrize("spec", SPECS)
def test_a_see_points_at_a_section_that_lists_the_play(spec: str) -> None:
    page = _page(spec)
    turn = _section(page, "Your turn")
    listed = {m.group(1) for ln in turn if (m := re.match(r"  \* (.+?)(?: \(with [^)]*\))? — ", ln))}
    for ln in turn:
        m = re.search(r"\(see Card by card\): ([^.]+)\.", ln)
        for label in m.group(1).split(", ") if m else ():
            assert label not in listed, f"{spec}: '{label}' is listed under Your turn, not Card by card:\n{ln}"
    for ln in _section(page, "Card by card"):
        m = re.match(r"[^:]+: (.+?) \(see Your turn\)", ln)
        for label in re.split(r", | or ", m.group(1)) if m else ():
            assert label in listed, f"{spec}: '{label}' is not listed under Your turn:\n{ln}"


def _wins(text: object) -> bool:
    return isinstance(text, str) and any(isinstance(n, A.Win) for n in A.walk(parse_program(text)))


@pytest.mark.parametrize("spec", SPECS)
def test_every_ending_a_rule_makes_is_in_the_winning_section(spec: str) -> None:
    rules = _rules(spec)
    winning = "\n".join(_section(_page(spec), "Winning"))
    for name, t in (rules.data.get("triggers") or {}).items():
        if _wins(t.get("effect")):
            assert f"The rule '{name}' can also end the game" in winning, f"{spec}: trigger {name}\n{winning}"
    for p in resolved_plays(rules.data).values():
        if _wins(p.get("effect")):
            assert f"The play '{play_label(p)}' can also end the game" in winning, f"{spec}\n{winning}"


def _told(rules, seed: int, moves: int) -> list[str]:
    """A seeded game of random legal moves, each move told from both seats, with what each seat is
    shown of the decision before it."""
    game, rnd = Game.new(rules, seed), random.Random(seed)
    out: list[str] = []
    while game.outcome is None and len(game.moves) < moves:
        before = [game.view(0), game.view(1)]
        d = game.decision
        for p in (0, 1):
            out.append(decision_text(before[p], d is not None and d.player == p))
        legal = game.legal_moves()
        move = game.play(legal[rnd.randrange(len(legal))])
        out += [Teller(p).tell(before[p], game.view(p), move) for p in (0, 1)]
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_the_narration_has_no_slip_and_says_you_with_the_moves_own_verb(spec: str) -> None:
    rules = _rules(spec)
    verbs = {m for p in rules.plays for m in (p.verb,)} | {r.verb for r in rules.responses}
    verbs |= {v for tree in (parse_program(str(x)) for x in _programs(rules.data)) for v in _choice_verbs(tree)}
    yours = verbs | set(SECOND_PERSON.values()) | {"name", "decline", "resolve"}
    for line in _told(rules, 7, 50):
        assert not slips_in(line), f"{spec}: {slips_in(line)}"
        m = re.match(r"You (\w+)", line)
        assert m is None or m.group(1) in yours, f"{spec}: 'You {m.group(1)}' is no verb of the game: {line}"


def _programs(data: dict) -> list[str]:
    """Every program text of a ruleset's plays, triggers and turn end (where choices are written)."""
    texts = [p.get("effect") for p in resolved_plays(data).values()]
    texts += [t.get("effect") for t in (data.get("triggers") or {}).values() if isinstance(t, dict)]
    texts.append((data.get("turn") or {}).get("end"))
    return [t for t in texts if isinstance(t, str)]


def _choice_verbs(tree: A.Node) -> set[str]:
    return {n.verb for n in A.walk(tree) if isinstance(n, (A.Choose, A.Ask, A.ChooseNumber))}


def test_the_check_finds_the_slips_it_names() -> None:
    """Each pattern finds the slip it was written for (a check that cannot fail is no check)."""
    for bad in [
        "if your hand holds fewer than the number of cards in your opponent's hand cards",
        "you have fewer than the number of cards in your opponent's hand point cards",
        "Only if your hand is not empty and always.",
        "you choose the number named cards from your hand",
        "one of your cards whose value is more than 3 whose suit is more than 1",
        "Draw: can be played: was: only if always",
        "in each case plus minus 3",
        "0 passes in a row end the game",
        "shuffle the chosen card and put them under the deck",
        "scrap the the target",
        "draw True cards",
    ]:
        assert slips_in(bad), bad
    assert not slips_in("one of your cards whose value is more than 3 and whose suit is more than 1")


def test_the_shapes_told_move_by_move() -> None:
    """The fixture's plays told to both seats: the verb's own second person, where a chosen card went,
    the question with what agreeing does."""
    from interpreter.scripting.setup import build_position

    rules = _rules(SHAPES)
    setup = {"p1": {"hand": ["7H", "2C", "3C"]}, "p2": {"hand": ["3S"]}, "deck": ["KC", "QC", "9D", "8D"]}
    game = Game(rules, build_position(rules, setup, 0), 0)
    lines = []
    for move in ["scry", "draw", "draft", "draft QC", "draw", "bribe", "n 1", "discard 3C"]:
        before = [game.view(0), game.view(1)]
        played = game.play(move)
        lines.append([Teller(p).tell(before[p], game.view(p), played) for p in (0, 1)])
    assert lines[0] == [
        "You scry: you see K♣ and Q♣ (the top of the deck, top first)",
        "P1 scries: P1 looks at 2 cards of the deck",
    ]
    assert lines[3][0] == "You draft Q♣: Q♣ goes to your hand; 9♦ goes to the scrap"
    assert decision_text(game.view(1), True) == "you may accept: you draw 1 card ('accept' or 'decline')"
    assert decision_text(game.view(0), False) == "P2 may accept or decline"
    for pair in lines:
        for line in pair:
            assert not slips_in(line), line


def test_made_of_lists_the_parts_in_the_order_they_win() -> None:
    """A file's own keys override the options it applies: they come after them (published was 'default
    + published + classic-2s + published-9s', as if its options won over it)."""
    assert "Made of: default + classic-2s + published-9s + published\n" in _page("published")
    assert "Made of: default + classic-2s + published-9s + published + frozen-9s\n" in _page("published+frozen-9s")


def test_the_diff_of_turn_playable_says_always_not_only_if_always() -> None:
    text = diff_rules(_rules("default+classic-2s"), _rules("cuttle-cards"))
    assert "* A card can be played: was: always; now: only if it answers a play or it is not marked frozen" in text


# -- errors that say what was meant ----------------------------------------------------------------


def _errors(tmp_path: Path, body: str) -> list[tuple[str, str, str | None]]:
    from interpreter.rules import check

    f = tmp_path / "house.yaml"
    f.write_text("name: house\nextends: default\n" + body, encoding="utf-8")
    return [(e.code, e.message, e.hint) for e in check(str(f))]


@pytest.mark.parametrize(
    "body, code, message, hint",
    [
        ("plays:\n  draw:\n    effect: win second\n", "E202", "unknown name 'second'", "did you mean 'second player'?"),
        ("plays:\n  draw:\n    effect: draw 1 for p3\n", "E202", "unknown name 'p3'", "a player is me, opponent, p1"),
        ("plays:\n  draw:\n    effect: scrap hand of oponent\n", "E202", "unknown name 'oponent'", "'opponent'"),
        (
            "counters:\n  tax: {of: player}\nplays:\n  draw:\n    legal: me.taxx < 2\n",
            "E204",
            "a player has no attribute 'taxx'",
            "did you mean 'tax'?",
        ),
        ("plays:\n  draw:\n    legal: card.rnak == 7\n", "E204", "a card has no attribute 'rnak'", "'rank'"),
        # a constant's item is a card or a player until play: the error says both, and suggests from both
        ("plays:\n  draw:\n    effect: draw goals[0].rnak\n", "E204", "a card or a player has no attribute", "'rank'"),
        (
            "plays:\n  scuttle:\n    legal: {and: not marked(card, frozen)}\n",
            "E030",
            "the comma in {and: not marked(card, frozen)} ended the text",
            "quote the text",
        ),
    ],
)
def test_a_name_error_knows_what_was_meant(tmp_path: Path, body: str, code: str, message: str, hint: str) -> None:
    (got,) = _errors(tmp_path, body)
    assert got[0] == code and message in got[1] and hint in (got[2] or ""), got
