"""Knowledge per player (docs/effect-language.md, "Knowledge"): what each player knows of the hidden
cards, kept as cards move; `show CARDS to P|all`, `deck_top(N)`, `visibility.deck_top`; and that
nothing downstream — views, narration, the bots' sampling, records — tells a player a card they do
not know."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import NAMES, parse_card
from interpreter.engine.knowledge import known_hidden, knows
from interpreter.engine.state import DECK, HAND0
from interpreter.players.sampling import determinize
from interpreter.scripting.records import load, save
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position
from repl.narrate import Teller
from repl.render import board

from .scenario_util import assert_passes, cases, house_file

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "examples" / "house"
HOUSE_CASES = cases("glasses-see-deck-top.test.yaml", "peek-three.test.yaml", under=HOUSE, by=__name__)


@pytest.mark.parametrize("path", HOUSE_CASES)
def test_the_knowledge_house_rules_pass_their_scenarios_and_fail_without_them(path: Path) -> None:
    assert_passes(path)
    assert not run_file(path, ruleset_override="default").ok


def _game(ruleset: str, setup: dict, seed: int = 0) -> Game:
    rules = load_ruleset(ruleset)
    return Game(rules, build_position(rules, setup, seed), seed)


def _plain(line: str) -> str:
    return line.translate(str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"}))


def _c(name: str) -> int:
    return parse_card(name)


def test_a_card_put_on_the_deck_from_play_is_known_to_both_and_to_whoever_draws_it() -> None:
    g = _game("default", {"p1": {"hand": ["9S", "2C"]}, "p2": {"hand": ["3D"], "points": ["10C"]}})
    g.play("oneoff 9S 10C")
    g.play("resolve")
    assert g.view(0).deck_top_known == ("10C",) and g.view(1).deck_top_known == ("10C",)
    g.play("draw")  # p2 draws the 10C: p1 still knows it is in p2's hand
    assert g.view(0).opponent_hand_known == ("10C",)
    assert g.view(1).opponent_knows.hand == ("10C",)


def test_a_shuffle_forgets_and_moving_within_the_deck_keeps() -> None:
    g = _game("default", {"p1": {"hand": ["9S"], "knows": ["5S", "9D"]}, "deck": ["5S", "9D"]})
    s = g.state
    assert knows(s, 0, _c("5S")) and not knows(s, 1, _c("5S"))
    s.move(_c("5S"), DECK, bottom=True)  # to the bottom: still known, where it now is
    assert known_hidden(s, 0)[1][-1] == (len(s.zones[DECK]) - 1, _c("5S"))
    s.shuffle_deck()
    assert known_hidden(s, 0)[1] == [] and not knows(s, 0, _c("9D"))


def test_show_to_one_player_teaches_that_player_only() -> None:
    g = _game(
        str(HOUSE / "peek-three.yaml"),
        {"p1": {"hand": ["6S", "2C"]}, "p2": {"hand": ["3D"]}, "deck": ["5S", "9D", "AH", "KC"]},
    )
    g.play("oneoff 6S")
    before = [g.view(0), g.view(1)]
    g.play("resolve")
    assert g.view(0).deck_top_known == ("5S", "9D", "AH")
    assert g.view(1).deck_top_known == () and g.view(1).deck_known == ()
    assert g.view(1).opponent_knows.deck == (0, 1, 2)  # which places, not which cards
    mine = Teller(0).tell(before[0], g.view(0), g.moves[-1])
    theirs = Teller(1).tell(before[1], g.view(1), g.moves[-1])
    assert "you see 5S, 9D and AH (the top of the deck, top first)" in _plain(mine), mine
    assert "P1 looks at 3 cards of the deck" in theirs, theirs
    for card in ("5S", "9D", "AH"):
        assert card not in theirs and card not in board(g.view(1))


def test_show_hand_to_opponent_and_to_all() -> None:
    g = _game(
        str(HOUSE / "peek-three.yaml"), {"p1": {"hand": ["3S", "2C", "7H"]}, "p2": {"hand": ["3D"]}, "scrap": ["9C"]}
    )
    g.play("oneoff 3S")
    g.play("resolve")
    g.play("take 9C")
    # the 2C and 7H were shown; the 9C came from the scrap, where both saw it
    assert sorted(g.view(1).opponent_hand_known) == ["2C", "7H", "9C"]
    assert "P1" in board(g.view(1)) and "you know" in board(g.view(1))
    assert sorted(g.view(0).opponent_knows.hand) == ["2C", "7H", "9C"]


def test_show_to_all(tmp_path: Path) -> None:
    (tmp_path / "four.yaml").write_text(
        "name: four\nextends: default\nplays:\n  four:\n    effect: show hand of opponent to all\n", encoding="utf-8"
    )
    g = _game(str(tmp_path / "four.yaml"), {"p1": {"hand": ["4S", "2C"]}, "p2": {"hand": ["3D", "KH"]}})
    g.play("oneoff 4S")
    g.play("resolve")
    assert sorted(g.view(0).opponent_hand_known) == ["3D", "KH"]
    assert g.view(1).opponent_knows.hand == ("3D", "KH") and g.view(1).opponent_hand_known == ()


def test_the_glasses_house_rule_shows_the_top_card_while_the_glasses_stay() -> None:
    g = _game(
        str(HOUSE / "glasses-see-deck-top.yaml"),
        {"p1": {"hand": ["8S", "2C"]}, "p2": {"hand": ["3D"]}, "deck": ["5S", "9D"]},
    )
    assert g.view(0).deck_top_known == ()
    g.play("glasses 8S")
    g.play("resolve")
    assert g.view(0).deck_top_known == ("5S",) and g.view(1).deck_top_known == ()
    g.play("draw")  # p2 draws the 5S; p1 saw it go, and now sees the 9D
    assert g.view(0).deck_top_known == ("9D",) and g.view(0).opponent_hand is not None


def _views_unchanged_when_unknown_cards_are_dealt_again(game: Game, rnd: random.Random) -> None:
    """The swap test: dealing again every hidden card a player does not know changes nothing they see."""
    for p in (0, 1):
        real = game.view(p)
        for _ in range(2):
            other = determinize(game.state, p, rnd)
            assert Game(game.rules, other, 0).view(p) == real, (p, [str(m) for m in game.moves])
        shown = {
            c
            for c in range(len(game.state.zone_of))
            if game.state.zone_of[c] >= 0
            and (game.state.zone_of[c] not in (DECK, HAND0, HAND0 + 1) or knows(game.state, p, c))
        }
        assert set(real.hand) <= _names_in(real) <= {NAMES[c] for c in shown}  # (the walk reaches in)


def _names_in(x: object) -> set[str]:
    if dataclasses.is_dataclass(x) and not isinstance(x, type):  # a View and its parts, field by field
        x = {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}
    if isinstance(x, dict):
        return set().union(*(_names_in(v) for k, v in x.items() if k not in ("legal_moves", "ruleset")))
    if isinstance(x, list | tuple):
        return set().union(set(), *(_names_in(v) for v in x))
    return {x} if isinstance(x, str) and x in NAMES else set()


@pytest.mark.slow
def test_no_view_or_narration_tells_a_card_its_reader_does_not_know() -> None:
    """Random games of the knowledge house rules: each view is the same whatever the unknown cards are,
    names no unknown card, and so neither does the narration made from it."""
    for ruleset in (HOUSE / "peek-three.yaml", HOUSE / "glasses-see-deck-top.yaml"):
        rules = load_ruleset(str(ruleset))
        for seed in range(3):
            game, rnd = Game.new(rules, seed), random.Random(seed)
            while game.outcome is None and len(game.moves) < 60:
                before = [game.view(0), game.view(1)]
                moves = game.legal_moves()
                game.play(moves[rnd.randrange(len(moves))])
                _views_unchanged_when_unknown_cards_are_dealt_again(game, rnd)
                for p in (0, 1):
                    line = Teller(p).tell(before[p], game.view(p), game.moves[-1])
                    allowed = _names_in(before[p]) | _names_in(game.view(p)) | set(map(str, game.moves[-1].cards))
                    told = {w.strip(".,:;()") for w in _plain(line).split()}
                    assert {w for w in told if w in NAMES} <= allowed | {NAMES[c] for c in game.moves[-1].cards}


def test_a_record_replays_the_same_knowledge(tmp_path: Path) -> None:
    (tmp_path / "peek-three.yaml").write_text(
        (HOUSE / "peek-three.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )  # a record reads its ruleset beside it
    rules = load_ruleset(str(tmp_path / "peek-three.yaml"))
    for seed in range(5, 25):  # random play until someone knows a hidden card (knowledge ends as cards go public)
        g = Game.new(rules, seed)
        rnd = random.Random(seed)
        while g.outcome is None and (len(g.moves) < 20 or not g.state.known):
            moves = g.legal_moves()
            g.play(moves[rnd.randrange(len(moves))])
        if g.state.known:
            break
    assert g.state.known, "the game should have taught someone a hidden card"
    save(g, tmp_path / "game.yaml")
    again = load(tmp_path / "game.yaml")
    assert again.state.known == g.state.known
    assert [again.view(p) for p in (0, 1)] == [g.view(p) for p in (0, 1)]


def _house(tmp_path: Path, body: str) -> str:
    return str(house_file(tmp_path, body))


def test_a_card_rule_shows_single_hidden_cards_wherever_they_are(tmp_path: Path) -> None:
    g = _game(
        _house(tmp_path, "visibility:\n  card: it.rank == K\n"),
        {"p1": {"hand": ["KS", "2C"]}, "p2": {"hand": ["KD", "3D"]}, "deck": ["5S", "KH"], "unplaced": "scrap"},
    )
    assert g.view(0).opponent_hand_known == ("KD",) and g.view(1).opponent_hand_known == ("KS",)
    assert g.view(0).deck_known == ((1, "KH"),) and g.view(0).deck_top_known == ()
    assert "2. K" in board(g.view(0))  # the board shows where in the deck


def test_a_deck_top_condition_shows_the_top_card_while_it_holds(tmp_path: Path) -> None:
    g = _game(
        _house(tmp_path, "visibility:\n  deck_top: count(hand of me) < 2\n"),
        {"p1": {"hand": ["9S"]}, "p2": {"hand": ["3D", "4D"]}, "deck": ["5S", "KH"]},
    )
    assert g.view(0).deck_top_known == ("5S",) and g.view(1).deck_top_known == ()


def test_a_deck_top_rule_below_zero_shows_no_card(tmp_path: Path) -> None:
    from interpreter.engine.knowledge import deck_top_seen

    g = _game(_house(tmp_path, "visibility:\n  deck_top: count(hand of me) - 5\n"), {"p1": {"hand": ["9S"]}})
    assert deck_top_seen(g.state, 0) == 0 and g.view(0).deck_top_known == ()  # (the lab counts it too)


def test_at_a_table_of_three_a_deck_top_rule_takes_the_top_cards_out_of_the_unknown(tmp_path: Path) -> None:
    """What the players' sampling deals again (`unknown_cards`) leaves out the deck's top cards the
    viewer sees, at three seats as at two."""
    from interpreter.engine.knowledge import unknown_cards

    g = _game(
        _house(tmp_path, "seats: {count: 3}\nvisibility:\n  deck_top: 2\n"),
        {"p1": {"hand": ["9S"]}, "p2": {"hand": ["3D"]}, "p3": {"hand": ["4D"]}, "deck": ["5S", "KH", "7C"]},
    )
    unknown = {NAMES[c] for c in unknown_cards(g.state, 0)}
    assert {"7C", "3D", "4D"} <= unknown and not {"5S", "KH", "9S"} & unknown


def test_a_card_a_rule_showed_in_the_deck_is_remembered_in_the_hand_it_is_drawn_into(tmp_path: Path) -> None:
    g = _game(
        _house(tmp_path, "visibility:\n  card: it in deck\n"),
        {"turn": "p2", "p1": {"hand": ["9S"]}, "p2": {"hand": ["3D"]}, "deck": ["5S", "KH"], "unplaced": "scrap"},
    )
    g.play("draw")
    assert g.view(0).opponent_hand_known == ("5S",)  # seen on the deck, remembered in p2's hand
    assert g.view(0).deck_top_known == ("KH",)


def test_a_card_a_rule_showed_in_a_hand_is_remembered_on_the_deck(tmp_path: Path) -> None:
    body = (
        "visibility:\n  card: it in hand of opponent and it.rank == 5\n"
        "plays:\n  stash:\n    verb: stash\n    ranks: [A]\n"
        "    effect: choose 1 from hand of me by me as x; move x to deck top\n"
    )
    g = _game(
        _house(tmp_path, body),
        {"turn": "p2", "p1": {"hand": ["9S"]}, "p2": {"hand": ["AH", "5D", "6D"]}, "deck": ["KH"], "unplaced": "scrap"},
    )
    assert g.view(0).opponent_hand_known == ("5D",)
    g.play("stash AH")
    g.play("x 5D")
    assert g.view(0).deck_top_known == ("5D",)  # seen in p2's hand, remembered on the deck


def test_a_deck_top_rule_must_count_cards(tmp_path: Path) -> None:
    from interpreter.core.errors import RulesetError, RulesetErrors

    with pytest.raises((RulesetError, RulesetErrors)) as e:
        load_ruleset(_house(tmp_path, "visibility:\n  deck_top: hand of me\n"))
    assert "[E210] visibility.deck_top needs a number of cards" in str(e.value)


def test_show_needs_a_player(tmp_path: Path) -> None:
    from interpreter.core.errors import RulesetError, RulesetErrors

    with pytest.raises((RulesetError, RulesetErrors)) as e:
        load_ruleset(_house(tmp_path, "plays:\n  six:\n    effect: show deck_top(2) to random\n"))
    assert "show needs a player" in str(e.value) and "house.yaml:5:" in str(e.value)


def test_a_card_that_goes_public_is_forgotten_so_equal_positions_stay_equal() -> None:
    g = _game("default", {"p1": {"hand": ["5S"]}, "p2": {"hand": ["3D"]}, "deck": ["9H", "KH"], "unplaced": "scrap"})
    before = g.state.key()
    s = g.state.copy()
    s.show(_c("KH"), 3)  # both learn where the King is ...
    assert knows(s, 0, _c("KH")) and s.known
    s.move(_c("KH"), HAND0)  # ... p1 takes it into the hand (p2 still knows) ...
    assert knows(s, 1, _c("KH"))
    s.put_in_play(_c("KH"), 0, "king")  # ... and plays it: nothing hidden is known any more
    assert s.known == 0
    s.move(_c("KH"), DECK)  # back on top, from a public place: known to both again, and only that
    assert s.known == 3 << (_c("KH") << 2)
    assert g.state.key() == before


def _determinize_by_definition(state, me: int, rng: random.Random):
    """The module doc of players/sampling.py, card by card: the unknown cards of the deck and the
    opponent's hand, sorted, shuffled by `rng` into the places they leave; what the opponent knows
    stays with each place; a new game generator drawn from `rng`."""
    from interpreter.engine.state import Rng

    hand, deck = known_hidden(state, me)
    seen = set(hand) | {c for _, c in deck}
    places = [(z, i) for z in (DECK, HAND0 + 1 - me) for i, c in enumerate(state.zones[z]) if c not in seen]
    g = state.copy()
    cards = sorted(g.zones[z][i] for z, i in places)
    held = [g.known >> (g.zones[z][i] << 2) & (2 - me) for z, i in places]
    known = g.known
    for c in cards:
        known &= ~(15 << (c << 2))
    rng.shuffle(cards)
    for (z, i), c, bit in zip(places, cards, held, strict=True):
        g.zones[z][i] = c
        g.zone_of[c] = z
        known |= bit << (c << 2)
    g.known = known
    g.rng = Rng(rng.getrandbits(64))
    return g


@pytest.mark.slow
def test_a_sampler_draws_the_samples_of_the_definition() -> None:
    """`Sampler` works out a view's unknown places once and draws many samples from it: each is the
    sample the definition gives for the same generator, in every position and for both players (so a
    search that reuses one Sampler plays exactly the moves it played with a fresh one per sample)."""
    from interpreter.players.sampling import Sampler

    rnd = random.Random(4)
    checked = held = 0
    # peek-three: a 6 shows its player the deck's top 3 and a 3 shows the hand, so one player knows
    # hidden cards the other does not, and those stay attached to their places in the samples
    for rules, seed in [(load_ruleset("default+twinned"), s) for s in range(6)] + [
        (load_ruleset(str(HOUSE / "peek-three.yaml")), s) for s in range(12)
    ]:
        game = Game.new(rules, seed)
        while game.outcome is None and len(game.moves) < 60:
            if len(game.moves) % 7 == 3:
                for p in (0, 1):
                    sampler = Sampler(game.state, p)
                    held += any(sampler.held)
                    a, b = random.Random(seed), random.Random(seed)
                    for _ in range(3):
                        assert sampler.sample(a).key() == _determinize_by_definition(game.state, p, b).key()
                        checked += 1
                    assert determinize(game.state, p, a).key() == _determinize_by_definition(game.state, p, b).key()
            moves = game.legal_moves()
            game.push(moves[rnd.randrange(len(moves))])
    assert checked > 300 and held > 5, (checked, held)


# -- what knowing is worth to a player (issue 26 item 3) ---------------------------------------------

OPEN_HANDS = "name: open-hands\nkind: base\nextends: default\nvisibility:\n  hand: true\n"


def test_forgetting_re_deals_every_hidden_card_even_one_the_player_sees() -> None:
    from interpreter.players.sampling import Sampler, hidden_zones

    game = Game.new(load_ruleset("micro"), 4)  # hands face up: p1 knows p2's hand
    state = game.state
    assert set(known_hidden(state, 0)[0]) == set(state.zones[HAND0 + 1])
    assert Sampler(state, 0, hidden_zones(state, 0)).places == []
    forgetting = Sampler(state, 0, hidden_zones(state, 0), forget=True)
    assert len(forgetting.places) == len(state.zones[HAND0 + 1]) + len(state.zones[DECK])


@pytest.mark.slow
def test_a_player_who_sees_the_other_hand_does_better_than_one_who_forgets_it(tmp_path: Path) -> None:
    """Both hands face up: `sharp` against the same player told to forget what it sees
    (`sharp?forget=true`), 120 seeded games, seats alternating. The seeing player must win more of
    the decisive games than it loses, beyond chance (a sign test at 95%, one-sided: z > 1.645)."""
    from interpreter.lab.matches import run_matches

    (tmp_path / "open.yaml").write_text(OPEN_HANDS, encoding="utf-8")
    results = run_matches(str(tmp_path / "open.yaml"), "sharp", "sharp?forget=true", 120, seed=0, jobs=2)
    won = sum(1 for r in results if r.winner is not None and r.seats[r.winner] == "sharp")
    lost = sum(1 for r in results if r.winner is not None and r.seats[r.winner] != "sharp")
    z = (won - lost) / (won + lost) ** 0.5
    assert z > 1.645, f"sharp won {won} and lost {lost} against itself forgetting what it sees"


def test_a_sample_keeps_what_the_opponent_knows_where_it_is() -> None:
    """p2 has seen the top card of the deck, p1 has not. In each of p1's samples (the hidden cards dealt
    again) the top card is another, unknown to p1, and p2 still knows whichever card lies there."""
    from interpreter.players.sampling import Sampler

    rules = load_ruleset("default")
    setup = {"deck": ["9D"], "p1": {"hand": ["5C"]}, "p2": {"hand": ["3D"], "knows": ["9D"]}}
    state = build_position(rules, setup, 0)
    sampler = Sampler(state, 0)
    rnd = random.Random(1)
    tops = set()
    for _ in range(20):
        g = sampler.sample(rnd)
        top = g.zones[DECK][-1]
        tops.add(top)
        assert (0, top) in known_hidden(g, 1)[1] and not known_hidden(g, 0)[1]
    assert len(tops) > 1


@pytest.mark.parametrize("ruleset", ["default", "default+cutthroat", "default+teams"])
def test_cards_shuffled_under_the_deck_or_into_it_are_forgotten_by_every_seat(ruleset: str) -> None:
    g = Game.new(load_ruleset(ruleset), 0)
    s = g.state
    seats = g.rules.seats
    every = (1 << seats) - 1
    shown = [s.zones[DECK][-1], s.zones[DECK][-2], s.zones[HAND0][0]]
    for c in shown:  # every seat is told where these are
        s.show(c, every)
    assert all(knows(s, p, c) for c in shown for p in range(seats))
    s.shuffle_under((shown[2],))  # a card from a hand, shuffled under the deck: nobody knows where
    assert not any(knows(s, p, shown[2]) for p in range(seats)), ruleset
    assert all(knows(s, p, c) for c in shown[:2] for p in range(seats))  # the top stays known
    s.shuffle_deck()
    assert not any(knows(s, p, c) for c in shown for p in range(seats)), ruleset
