"""The order of cards: the deck read from the top, several cards moved keep their order (`in order`,
`reversed`), and `shuffle CARDS under deck` (docs/effect-language.md, "The order of cards")."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import NAMES, parse_card
from interpreter.core.zones import DECK, SCRAP
from interpreter.engine.knowledge import knows
from interpreter.scripting.setup import build_position

DECK_TOP = ["KC", "QH", "8S", "2H"]  # top first


def _game(tmp_path: Path, effect: str, seed: int = 1, scrap: list[str] | None = None) -> Game:
    p = tmp_path / "house.yaml"
    p.write_text(f"name: house\nextends: default\nplays:\n  ace:\n    effect: {effect}\n", encoding="utf-8")
    rules = load_ruleset(str(p))
    setup = {"turn": "p1", "p1": {"hand": ["AC", "5C"]}, "p2": {"hand": ["3D"]}, "deck": DECK_TOP}
    if scrap:
        setup["scrap"] = scrap
    return Game(rules, build_position(rules, setup, seed))


def _top(g: Game, n: int) -> list[str]:
    return [NAMES[c] for c in reversed(g.state.zones[DECK][-n:])]


def _ace(g: Game) -> None:
    g.play("oneoff AC")
    g.play("resolve")


def test_revealing_cards_and_putting_them_back_restores_the_deck(tmp_path: Path) -> None:
    g = _game(tmp_path, "reveal 3; move shown to deck top")
    _ace(g)
    assert _top(g, 4) == DECK_TOP
    assert all(knows(g.state, p, parse_card(c)) for c in DECK_TOP[:3] for p in (0, 1))  # both saw them go back
    assert not knows(g.state, 0, parse_card(DECK_TOP[3]))


@pytest.mark.parametrize("words", ["", " in order"])
def test_the_first_of_several_cards_ends_on_top(tmp_path: Path, words: str) -> None:
    g = _game(tmp_path, f"reveal 2; move shown to deck top{words}")
    _ace(g)
    assert _top(g, 2) == ["KC", "QH"]


def test_reversed_puts_the_last_on_top(tmp_path: Path) -> None:
    g = _game(tmp_path, "reveal 3; move shown to deck top reversed")
    _ace(g)
    assert _top(g, 4) == ["8S", "QH", "KC", "2H"]


def test_the_bottom_keeps_the_order_read_from_the_top(tmp_path: Path) -> None:
    g = _game(tmp_path, "reveal 2; move shown to deck bottom")
    _ace(g)
    bottom = [NAMES[c] for c in g.state.zones[DECK][:2]]  # the zone's list starts at the bottom
    assert bottom == ["QH", "KC"]  # KC (first) nearest the top, QH the bottom card
    g = _game(tmp_path, "reveal 2; move shown to deck bottom reversed")
    _ace(g)
    assert [NAMES[c] for c in g.state.zones[DECK][:2]] == ["KC", "QH"]


def test_the_deck_is_read_from_the_top(tmp_path: Path) -> None:
    g = _game(tmp_path, "move first(deck) to hand of me; move deck[0] to hand of me")
    _ace(g)
    assert [NAMES[c] for c in g.state.zones[2]][-2:] == ["KC", "QH"]


@pytest.mark.slow
def test_shuffle_under_keeps_the_deck_on_top_and_shuffles_only_those_cards(tmp_path: Path) -> None:
    scrap = ["9C", "9D", "2C", "3S", "4S", "6H"]
    orders = set()
    for seed in range(6):
        g = _game(tmp_path, "shuffle scrap under deck", seed=seed, scrap=scrap)
        known = g.state.zones[DECK][-2:]
        for c in known:  # say both players know the top two (a 9's targets)
            g.state.show(c, 3)
        before = list(g.state.zones[DECK])
        _ace(g)
        deck = g.state.zones[DECK]
        assert deck[-len(before) :] == before  # the deck as it was, on top
        under = deck[: len(deck) - len(before)]
        assert sorted(under) == sorted(parse_card(c) for c in scrap + ["AC"]) or sorted(under) == sorted(
            parse_card(c) for c in scrap
        )
        assert all(knows(g.state, p, c) for c in known for p in (0, 1))
        assert not any(knows(g.state, p, c) for c in under for p in (0, 1))  # shuffled: nobody knows where
        orders.add(tuple(under))
    assert len(orders) > 1  # shuffled, by the seed
    a, b = (_game(tmp_path, "shuffle scrap under deck", seed=3, scrap=scrap) for _ in range(2))
    _ace(a)
    _ace(b)
    assert a.state.zones[DECK] == b.state.zones[DECK]


def test_the_joker_keeps_what_both_players_know_on_top() -> None:
    rules = load_ruleset("micro+jokers")
    g = Game(
        rules,
        build_position(
            rules,
            {
                "turn": "p1",
                "p1": {"hand": ["RJ", "AS", "2H", "3S"], "points": ["9S"]},
                "p2": {"hand": ["BJ", "4C", "6D", "JS", "QH", "KC", "9H"]},
                "deck": ["10H", "10C"],
                "scrap": ["9C", "9D", "2C", "3D"],
            },
            1,
        ),
    )
    for c in list(g.state.zones[DECK]):  # a 9 put both there
        g.state.show(c, 3)
    g.play("oneoff RJ")
    g.play("resolve")
    assert _top(g, 1) == ["10C"]  # one drawn, the other still known; the shuffled scrap under it is not
    deck = g.state.zones[DECK]
    assert [knows(g.state, p, deck[-1]) for p in (0, 1)] == [True, True]
    assert not any(knows(g.state, p, c) for c in deck[:-1] for p in (0, 1))
    assert len(g.state.zones[SCRAP]) == 1


# -- a put-back in the order a player names: `choose order of CARDS by P as VERB` ----------------------

from interpreter.core.errors import CuttleError  # noqa: E402

from .playout import play_out, random_mover  # noqa: E402
from .scenario_util import ROOT, assert_passes, claim  # noqa: E402

ARRANGE = ROOT / "examples" / "house" / "ten-arranges.yaml"
ARRANGE_CASE = claim([ROOT / "examples" / "house" / "ten-arranges.test.yaml"], by=__name__)[0]


def test_the_docs_show_the_arrange_example_and_its_scenario_passes() -> None:
    assert ARRANGE.read_text(encoding="utf-8") in (ROOT / "docs" / "effect-language.md").read_text(encoding="utf-8")
    assert_passes(ARRANGE_CASE)


def test_the_arrange_scenario_fails_under_the_default_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main

    assert main(["run", "--ruleset", "default", str(ARRANGE_CASE)]) == 1


def test_every_order_is_a_move_and_the_first_named_ends_on_top(tmp_path: Path) -> None:
    g = _game(tmp_path, "reveal 3; choose order of shown by me as arrange; move arrange to deck top")
    _ace(g)
    moves = [str(m) for m in g.legal_moves()]
    assert len(moves) == 6 and all(m.startswith("arrange ") for m in moves)
    g.play("arrange 8S KC QH")
    assert _top(g, 4) == ["8S", "KC", "QH", "2H"]


def test_one_card_or_none_has_one_order_and_nobody_is_asked(tmp_path: Path) -> None:
    for n in (1, 0):
        g = _game(tmp_path, f"reveal {n}; choose order of shown by me as arrange; move arrange to deck top")
        _ace(g)
        assert g.state.turn == 1 and not any(str(m).startswith("arrange") for m in g.legal_moves()), n
        assert _top(g, 1) == DECK_TOP[:1]


@pytest.mark.slow
def test_a_random_order_comes_from_the_seed(tmp_path: Path) -> None:
    tops = set()
    for seed in range(8):
        g = _game(tmp_path, "reveal 3; choose order of shown by random as arrange; move arrange to deck top", seed=seed)
        _ace(g)
        tops.add(tuple(_top(g, 3)))
        again = _game(
            tmp_path, "reveal 3; choose order of shown by random as arrange; move arrange to deck top", seed=seed
        )
        _ace(again)
        assert _top(again, 3) == _top(g, 3)
    assert len(tops) > 1 and all(sorted(t) == sorted(DECK_TOP[:3]) for t in tops)


def test_too_many_orders_are_refused_and_the_game_unchanged(tmp_path: Path) -> None:
    g = _game(tmp_path, "reveal 9; choose order of shown by me as arrange")
    g.play("oneoff AC")
    before = g.state.key()
    with pytest.raises(CuttleError) as e:
        g.play("resolve")
    assert "MAX_CHOICES" in str(e.value) and g.state.key() == before


@pytest.mark.parametrize("seed", range(3))
def test_games_with_a_put_back_end_and_undo_exactly(seed: int) -> None:
    rules = load_ruleset(str(ARRANGE))
    g = play_out(Game.new(rules, seed), random_mover(seed))
    while g.can_undo:
        g.undo()
    assert g.state.key() == Game.new(rules, seed).state.key()
