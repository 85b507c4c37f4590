"""Cards face down in play (issue 44 item 1): `move ... as ROLE face down` (seen by its owner) and
`face down unseen` (by nobody), `turn up`, `.face_down`; who knows such a card as it moves (the rules of
knowledge of docs/effect-language.md); the views, the REPL's board and narration, the players' sampling,
the solver and the scenario keys that place and check them. The house rule examples/house/vault.yaml
runs its two scenarios here."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import NAMES, parse_card
from interpreter.core.errors import ScenarioErrors
from interpreter.engine.knowledge import face_down, known_bit, knows
from interpreter.engine.state import FIELD0
from interpreter.players.sampling import Sampler, unseen_places
from interpreter.players.solver import hidden_reason
from interpreter.rules.page import rules_page
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position
from repl.export import position_scenario
from repl.narrate import Teller
from repl.render import board

from .scenario_util import assert_passes, cases, house_file
from .test_view_secrecy import _known, _names

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "examples" / "house"
VAULT = str(HOUSE / "vault.yaml")
VAULT_CASES = cases("vault.test.yaml", "vault-setup.test.yaml", under=HOUSE, by=__name__)

# a house rule for the tests: `hide` puts the chosen hand card face down (seen by its owner), `bury`
# the top card of the deck face down unseen, `bury2` a card of the scrap face down unseen, `peek` shows
# p's face-down cards to the opponent, `flip` turns them all up, `back` returns them to the hand
RULES = """\
plays:
  hide:
    verb: hide
    cards: 0
    effect: choose 1 from hand of me by me as pick; move pick to field of me as vault face down
  bury:
    verb: bury
    cards: 0
    legal: count(deck) > 0
    effect: move first(deck) to field of me as vault face down unseen
  dig:
    verb: dig
    cards: 0
    legal: any(scrap)
    effect: move first(scrap) to field of me as vault face down unseen
  hidehand:
    verb: hidehand
    cards: 0
    effect: choose 1 from hand of me by me as pick; move pick to field of me as vault face down unseen
  peek:
    verb: peek
    cards: 0
    effect: show field of me where it.face_down to opponent
  flip:
    verb: flip
    cards: 0
    effect: turn up field of me where it.face_down
  back:
    verb: back
    cards: 0
    effect: move field of me where it.face_down to hand of me
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory):
    return load_ruleset(str(house_file(tmp_path_factory.mktemp("fd"), RULES)))


def _game(rules, **setup) -> Game:
    setup.setdefault("p1", {"hand": ["7H", "2C"]})
    setup.setdefault("p2", {"hand": ["3S"]})
    return Game(rules, build_position(rules, setup, 0), 0)


def _who_knows(game: Game, card: str) -> tuple[bool, bool]:
    c = parse_card(card)
    return knows(game.state, 0, c), knows(game.state, 1, c)


@pytest.mark.parametrize("path", VAULT_CASES)
def test_the_vault_passes_its_scenarios_and_fails_without_it(path: Path) -> None:
    assert_passes(path)
    assert not run_file(path, ruleset_override="default").ok


def test_a_card_from_the_hand_face_down_is_known_to_its_owner_only(rules) -> None:
    game = _game(rules)
    game.play("hide")
    game.play("pick 7H")
    g = game.state
    assert face_down(g, 0) == [parse_card("7H")] and g.is_face_down(parse_card("7H"))
    assert _who_knows(game, "7H") == (True, False)
    assert game.view(1).opponent.face_down[0].card is None and game.view(0).you.face_down[0].card == "7H"
    assert game.view(1).opponent.face_down[0].role == "vault" and not game.view(1).opponent.royals


def test_a_player_is_told_which_of_their_face_down_cards_the_opponent_knows(rules) -> None:
    game = _game(rules)
    game.play("hide")
    game.play("pick 7H")  # known to p1 only: p1 is not told that p2 knows it
    assert game.view(0).opponent_knows.face_down == ()
    game.play("draw")  # p2
    game.play("peek")  # p1 shows it to p2: now p1's view says p2 knows it
    assert game.view(0).opponent_knows.face_down == ("7H",)


def test_the_cards_a_player_does_not_know_leave_out_the_face_down_cards_they_know(rules) -> None:
    from interpreter.engine.knowledge import unknown_cards

    game = _game(rules)
    game.play("hide")
    game.play("pick 7H")  # face down in front of p1, known to p1 only
    seven = parse_card("7H")
    assert seven not in unknown_cards(game.state, 0)  # what p1's sampling re-deals: not its own vault
    assert seven in unknown_cards(game.state, 1)


def test_unseen_is_known_to_nobody_unless_they_saw_the_card_where_it_came_from(rules) -> None:
    game = _game(rules, deck=["9D"])
    game.play("bury")  # the deck's top card: nobody saw it
    assert _who_knows(game, "9D") == (False, False)
    game = _game(rules)
    game.play("hidehand")
    game.play("pick 2C")  # from p1's hand: p1 saw it, even unseen
    assert _who_knows(game, "2C") == (True, False)
    game = _game(rules, scrap=["5H"])
    game.play("dig")  # from the scrap, a public zone: both saw it go face down
    assert _who_knows(game, "5H") == (True, True)


def test_show_teaches_turn_up_makes_public_and_a_return_to_hand_keeps_what_was_known(rules) -> None:
    game = _game(rules, deck=["9D", "8D"])
    game.play("bury")
    game.play("draw")  # p2
    game.play("peek")  # p1 shows its face-down cards to p2
    assert _who_knows(game, "9D") == (False, True)
    game.play("draw")  # p2
    game.play("back")  # 9D into p1's hand: p1 holds it, p2 still knows it is there
    assert game.view(1).opponent_hand_known == ("9D",) and not game.state.is_face_down(parse_card("9D"))
    game = _game(rules)
    game.play("hide")
    game.play("pick 7H")
    game.play("draw")
    game.play("flip")
    g = game.state
    assert not g.is_face_down(parse_card("7H")) and _who_knows(game, "7H") == (True, True)
    assert "7H" in game.view(1).opponent.royals  # face up in its role: in play for both to see
    assert g.log.get(("shown", "plays.flip")) == 1  # the lab counts a turn up as a show of its rule


def test_no_view_of_a_vault_game_names_a_card_its_player_does_not_know() -> None:
    rules = load_ruleset(VAULT)
    stashed = 0
    for seed in range(6):
        game, rnd = Game.new(rules, seed), random.Random(seed)
        while game.outcome is None and len(game.moves) < 120:
            stashed += bool(game.state.down)
            for p in (0, 1):
                view = game.view(p)
                leaked = _names(view) - _known(game, p)
                assert not leaked, f"seed {seed} after {[str(m) for m in game.moves]}: p{p + 1} sees {leaked}"
            moves = game.legal_moves()
            game.play(moves[rnd.randrange(len(moves))])
    assert stashed > 20  # (the walk did reach positions with cards face down)


def test_the_board_and_the_narration_tell_each_player_only_what_they_know() -> None:
    rules = load_ruleset(VAULT)
    game = _game(rules, p1={"hand": ["7H", "KD", "2C"]})
    game.play("stash")
    before = [game.view(0), game.view(1)]
    move = game.play("pick 7H")
    assert Teller(0).tell(before[0], game.view(0), move) == "You pick 7♥: 7♥ goes face down in front of you (vault)"
    assert Teller(1).tell(before[1], game.view(1), move) == (
        "P1 picks a hidden card: a card goes face down in front of P1 (vault)"
    )
    assert "face down  ?(vault)" in board(game.view(1)) and "7♥" not in board(game.view(1))
    assert "face down  7♥(vault)" in board(game.view(0))
    before = [game.view(0), game.view(1)]
    move = game.play("draw")
    game.play("open")
    assert "7♥" in board(game.view(1))


def test_you_stash_and_you_scry_not_you_stashe() -> None:
    from interpreter.engine.moves import Move
    from repl.narrate import _as_you

    assert _as_you("stashes", "stash") == "stash" and _as_you("scries", "scry") == "scry"
    assert _as_you("draws 7♥", "draw") == "draw 7♥"  # (the shipped verbs read as before)
    rules = load_ruleset(VAULT)
    game = _game(rules)
    before = game.view(0)
    move = game.play("stash")
    assert Teller(0).tell(before, game.view(0), move) == "You stash" and move == Move("stash", ())


def test_sampling_deals_an_unseen_face_down_card_again_and_keeps_its_place(rules) -> None:
    game = _game(rules, p1={"hand": ["7H", "2C"]}, p2={"hand": ["3S", "4S"]})
    game.play("hide")
    game.play("pick 7H")
    g = game.state
    c = parse_card("7H")
    assert (FIELD0, 0) in unseen_places(g, 1) and (FIELD0, 0) not in unseen_places(g, 0)
    sampler = Sampler(g, 1)
    dealt = set()
    for seed in range(40):
        s = sampler.sample(random.Random(seed))
        card = s.zones[FIELD0][0]
        dealt.add(card)
        assert s.is_face_down(card) and s.role[card] == "vault" and s.owner[card] == 0
        assert knows(s, 0, card) and not knows(s, 1, card)  # what each knows stays with the place
        if card != c:
            assert not s.is_face_down(c) and s.role[c] is None and s.owner[c] == -1
        assert s.zones[FIELD0 + 1] == g.zones[FIELD0 + 1]
    assert len(dealt) > 5  # another card each time, among the cards p2 cannot see


def test_sampling_keeps_every_fact_of_a_face_down_place_with_the_place(rules) -> None:
    """A face-down card carrying a Jack is dealt again like any unseen card, the Jack staying on its
    place; the marks, counters and history (`last_seats`) of a card dealt again stay with its place, not
    with the real card wherever it is dealt (issue 44, left over: the card was never dealt again, and
    its facts went with it)."""
    game = _game(rules, p1={"hand": ["2C"]}, p2={"hand": ["3S"], "points": ["8H+JC", "5D"]})
    g = game.state
    real, jack, other = parse_card("8H"), parse_card("JC"), parse_card("5D")
    g.down |= 1 << real  # 8H face down under p1's Jack, p2's (its owner's) alone to know
    g.known &= ~known_bit(real, 0)
    g.known |= known_bit(real, 1)
    g.marks[(real, "frozen")] = g.turn_no + 1
    g.counters = {**g.counters, (real, "charge"): (3, g.turn_no + 5)}
    g.last_seats[real] = 7
    assert game.legal_moves() and g.actions is not None  # (the legal moves of the real position, kept)
    assert g.host[jack] == real and (FIELD0 + 1, 0) in unseen_places(g, 0)
    sampler = Sampler(g, 0)
    dealt = set()
    for seed in range(40):
        s = sampler.sample(random.Random(seed))
        card = s.zones[FIELD0 + 1][0]
        dealt.add(card)
        assert s.host[jack] == card and s.atts[card] == [jack] and s.zones[FIELD0 + 1][1:] == g.zones[FIELD0 + 1][1:]
        assert (s.role[card], s.owner[card], s.is_face_down(card)) == (g.role[real], g.owner[real], True)
        assert s.marks.get((card, "frozen")) == g.turn_no + 1 and s.counters.get((card, "charge")) == (3, g.turn_no + 5)
        assert s.last_seats[card] == 7 and s.host[other] == -1
        if card != real:
            assert s.host[real] == -1 and real not in s.atts and s.role[real] is None and s.owner[real] == -1
            assert (real, "frozen") not in s.marks and (real, "charge") not in s.counters and s.last_seats[real] == 0
            assert not s.is_face_down(real)
    assert len(dealt) > 5
    assert sampler.sample(random.Random(1)).actions is None  # (the real position's legal moves are not kept)


def test_the_solver_refuses_a_position_with_a_face_down_card_a_player_does_not_know(rules) -> None:
    # the deck is empty: the hands are face up (a card hidden from the hand is then seen by both)
    game = _game(rules, deck=[], unplaced="scrap")
    game.play("hide")
    game.play("pick 7H")
    assert _who_knows(game, "7H") == (True, True) and hidden_reason(game.state) is None
    game = _game(rules, deck=[], unplaced="scrap", p2={"hand": ["3S"], "face_down": {"vault": ["9S"]}})
    assert hidden_reason(game.state) == "a card face down in front of p2 is hidden from p1"


def test_face_down_reads_on_the_rules_page() -> None:
    page = rules_page(load_ruleset(VAULT))
    assert "You choose 1 card from your hand and put it face down in front of you as a vault card (you see it)." in page
    assert "Turn all of your vault cards face up for both players to see" in page


def test_a_setup_places_face_down_cards_and_refuses_a_role_the_rules_do_not_use(rules) -> None:
    game = _game(
        rules,
        p1={"hand": ["2C"], "face_down": {"vault": ["9S"]}, "knows": []},
        p2={"hand": ["3S"], "unseen": {"vault": ["4D"]}, "knows": ["9S"]},
    )
    assert _who_knows(game, "9S") == (True, True) and _who_knows(game, "4D") == (False, False)
    with pytest.raises(ScenarioErrors, match="'vaults' is not a role of ruleset"):
        _game(rules, p1={"hand": ["2C"], "face_down": {"vaults": ["9S"]}})
    with pytest.raises(ScenarioErrors, match="write point cards under points"):
        _game(rules, p1={"hand": ["2C"], "roles": {"point": ["9S"]}})


def test_scenario_here_writes_face_down_cards_and_the_first_player(rules) -> None:
    game = _game(rules, turn="p1", turn_number=3, first="p2", p2={"hand": ["3S"], "unseen": {"vault": ["4D"]}})
    game.play("hide")
    game.play("pick 7H")
    doc = position_scenario(game)
    setup, expect = doc["setup"], doc["expect"]
    assert setup["first"] == "p2" and setup["p1"]["face_down"] == {"vault": ["7H"]}
    assert setup["p2"]["unseen"] == {"vault": ["4D"]}
    assert expect["p1"]["face_down"] == {"vault": ["7H"]} and expect["p2"]["face_down"] == {"vault": ["4D"]}
    again = Game(rules, build_position(rules, setup, 0), 0)
    assert again.state.down == game.state.down and again.state.known == game.state.known
    assert NAMES[again.state.zones[FIELD0][0]] == "7H"
