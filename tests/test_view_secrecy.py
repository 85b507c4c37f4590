"""Views hold only what their player may see: no view names a card its player does not know, the
options of the other player's decision included (the count, not the cards, when they are hidden)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import NAMES, parse_card
from interpreter.core.zones import CONTROLLER, HANDS, IS_HAND
from interpreter.engine.knowledge import knows
from interpreter.engine.state import DECK
from interpreter.scripting.setup import build_position
from repl.render import Painter, decision_text

from .rulesets_under_test import RULESETS


def _names(x: object) -> set[str]:
    """Every card name anywhere in a view (legal moves excepted: they are the viewer's own)."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):  # a View and its parts, field by field
        x = {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}
    if isinstance(x, dict):
        return set().union(set(), *(_names(v) for k, v in x.items() if k not in ("legal_moves", "ruleset")))
    if isinstance(x, list | tuple):
        return set().union(set(), *(_names(v) for v in x))
    if isinstance(x, str):
        return {w for w in x.split() if w in NAMES}
    return set()


def _known(game: Game, p: int) -> set[str]:
    """The cards `p` may name, from the state: every card outside the hidden zones (a card face down in
    play is hidden), the hidden ones `p` knows (its own hand, a card shown or seen), and a hand a rule
    turns face up."""
    g, rules = game.state, game.rules
    out = set()
    for c, z in enumerate(g.zone_of):
        if z < 0:
            continue
        hidden = z == DECK or IS_HAND[z] or g.is_face_down(c)
        shown = IS_HAND[z] and z != HANDS[p] and rules.hand_visible(g, p, CONTROLLER[z])
        if not hidden or z == HANDS[p] or shown or knows(g, p, c):
            out.add(NAMES[c])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("spec", RULESETS)
def test_no_view_names_a_card_its_player_does_not_know(spec: str) -> None:
    rules = load_ruleset(spec)
    for seed in range(2):
        game, rnd = Game.new(rules, seed), random.Random(seed)
        while game.outcome is None and len(game.moves) < 120:
            for p in range(rules.seats):
                view = game.view(p)
                assert set(view.hand) <= _names(view)  # (the walk reaches into the view)
                leaked = _names(view) - _known(game, p)
                assert not leaked, f"{spec} seed {seed} after {[str(m) for m in game.moves]}: p{p + 1} sees {leaked}"
            moves = game.legal_moves()
            game.play(moves[rnd.randrange(len(moves))])


def test_a_four_s_victim_picks_from_a_hand_the_other_player_sees_only_as_a_count() -> None:
    rules = load_ruleset("default")
    setup = {"p1": {"hand": ["4S", "2C"]}, "p2": {"hand": ["3D", "KH", "9C"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("oneoff 4S")
    game.play("resolve")
    theirs, mine = game.view(0).decision, game.view(1).decision
    assert theirs.player == "p2" and theirs.options == () and theirs.option_count == 3
    assert sorted(mine.options) == ["3D", "9C", "KH"]
    assert decision_text(game.view(0), False, Painter(False)).startswith("P2 must discard 2 cards")


@pytest.mark.parametrize("seats", [2, 3])
def test_another_players_choice_shows_every_option_the_viewer_can_see(tmp_path, seats: int) -> None:
    """While p1 chooses, p2 is shown the options that p2's own view shows: a Jack on a point card, a card
    of p1's hand that p2 knows; never one p2 does not know (at three seats p1 is not p2's first opponent)."""
    from .scenario_util import house_file

    body = "plays:\n  draw:\n    effect: choose 1 from (field of me + hand of me) by me as pick; scrap pick\n"
    body += f"seats: {{count: {seats}}}\n"
    rules = load_ruleset(str(house_file(tmp_path, body)))
    setup = {"turn": "p1", "p1": {"hand": ["5C", "6C"], "points": ["8H+JD"]}, "p2": {"hand": ["4H"]}}
    if seats == 3:
        setup["p3"] = {"hand": ["4S"]}
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.state.show(parse_card("5C"), 2)  # p2 has seen p1's 5♣
    game.play("draw")
    mine = game.view(0).decision
    theirs = game.view(1).decision
    assert mine is not None and theirs is not None
    assert set(mine.options) == {"8H", "JD", "5C", "6C"}
    assert set(theirs.options) == {"8H", "JD", "5C"}  # not 6C, which p2 does not know


def test_a_deck_card_the_viewer_knows_is_shown_among_another_players_options(tmp_path) -> None:
    """p2 chooses from the deck: p1, who knows one card of it, is shown that card among the options and
    the count of the rest."""
    from .scenario_util import house_file

    body = "plays:\n  dig:\n    verb: dig\n    ranks: [A]\n"
    body += "    effect: choose 1 from deck by opponent as x; move x to hand of opponent\n"
    rules = load_ruleset(str(house_file(tmp_path, body)))
    setup = {"p1": {"hand": ["AS", "3C"], "knows": ["6C"]}, "deck": ["5C", "6C", "7C"], "unplaced": "scrap"}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("dig AS")
    theirs = game.view(0).decision
    assert theirs is not None and theirs.player == "p2"
    assert theirs.options == ("6C",) and theirs.option_count == 3


def test_a_card_put_face_down_on_your_side_by_another_player_stays_hidden_from_you(tmp_path) -> None:
    """p1 puts a card of their hand face down, unseen, in front of p2: p1 knows it and p2 does not, so
    p2's view names it nowhere, not even as a card p1 knows of p2's; p1's view names it."""
    from .scenario_util import house_file

    body = (
        "plays:\n  plant:\n    verb: plant\n    ranks: [A]\n    effect: |\n"
        "      choose 1 from hand of me by me as pick\n"
        "      move pick to field of opponent as point face down unseen\n"
    )
    rules = load_ruleset(str(house_file(tmp_path, body)))
    setup = {"p1": {"hand": ["AS", "3C"]}, "p2": {"hand": ["2C", "3D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("plant AS")
    game.play("pick 3C")
    p2, p1 = game.view(1), game.view(0)
    assert [f.card for f in p2.you.face_down] == [None] and p2.opponent_knows.face_down == ()
    assert "3C" not in _names(p2)
    assert [f.card for f in p1.opponent.face_down] == ["3C"]
