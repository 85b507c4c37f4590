"""Export, then run, gives back the position: for any position reached by play, the scenario the
REPL writes (`scenario FILE --here`, and `scenario FILE` of the whole game) passes `cuttle run`, and
the game `cuttle solve FILE` reads from it stands exactly where the game stood: every card where it
was, roles, owners, Jacks, whose turn and decision, marks, counters, the generator, and what each
player knows of the hidden cards."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import Game, load_ruleset
from interpreter.core.zones import DECK, FIELDS, HAND0, HANDS
from interpreter.engine.state import State
from interpreter.engine.view import View
from interpreter.scripting.scenario import run_file, scenario_game
from interpreter.scripting.setup import build_position
from repl.export import write_scenario

# 7s reveal cards (default), knowledge of hidden cards (published: a 9 puts a card on the deck
# top), marks (frozen 9s), the open-handed micro game with a reshuffle and passes, a match
SPECS = (
    "default",
    "published",
    "default+published-9s+frozen-9s",
    "micro+jokers",
    "default+random-4s",
    "micro+best-of-5",
    # three and four seats: a first player the turn does not give, Jokers on Royals, p3's and p4's knowledge
    "default+cutthroat",
    "cuttle-cards+teams",
    # cards face down in play (a vault), known to their owner or to nobody, and to a player shown them
    "vault.yaml",
)
VAULT = Path(__file__).resolve().parents[1] / "examples" / "house" / "vault.yaml"


def _knowledge(g: State) -> frozenset[tuple[int, int]]:
    """(player, card) for each hidden card a player knows the place of: in the deck, or in another
    player's hand (a bit about a card in one's own hand, or in play, means nothing)."""
    seats = g.rules.seats
    return frozenset(
        (p, c)
        for c in range(len(g.zone_of))
        for p in range(seats)
        if g.known >> ((c << 2) + p) & 1
        and (g.zone_of[c] == DECK or g.zone_of[c] in HANDS[:seats] and g.zone_of[c] != HANDS[p])
    )


def _position(g: State) -> tuple:
    return (
        # a field's cards as a set: a setup lists a point card before its Jacks, whatever order they came in
        tuple(tuple(sorted(z)) if i in FIELDS else tuple(z) for i, z in enumerate(g.zones)),
        tuple(g.zone_of),
        tuple(g.role),
        tuple(g.owner),
        tuple(g.host),
        tuple(sorted((k, tuple(v)) for k, v in g.atts.items() if v)),
        g.turn,
        g.turn_no,
        g.pending,
        g.chain,
        g.rng.s,
        _knowledge(g),
        tuple(sorted((k, m) for (k, m) in g.marks if g.is_marked(k, m))),
        tuple(sorted((k, n, g.counter(k, n)) for (k, n) in g.counters if g.counter(k, n))),
        g.outcome,
    )


def _played(spec: str, seed: int, moves: int, midway: int = 0) -> Game:
    """`moves` random moves; then, preferring one-offs and letting them resolve, on to the `midway`-th
    choice inside a turn (cards to choose, a 7's revealed card to play), if it comes."""
    game = Game.new(load_ruleset(spec), seed)
    rnd = random.Random(seed)
    inside = 0
    for n in range(moves + (200 if midway else 0)):
        legal = game.legal_moves()
        if not legal:
            break
        if n >= moves:
            inside += str(game.decision.kind) not in ("main", "respond")
            if inside >= midway:
                break
            legal = [m for m in legal if m.verb in ("oneoff", "resolve")] or legal
        game.play(legal[rnd.randrange(len(legal))])
    return game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    spec=st.sampled_from(SPECS),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 60),
    here=st.booleans(),
    midway=st.integers(0, 3),
)
def test_an_exported_position_runs_back_to_the_same_position(
    tmp_path: Path, spec: str, seed: int, moves: int, here: bool, midway: int
) -> None:
    if spec == "vault.yaml":  # a house rule, beside the scenario (a scenario names files in its folder only)
        spec = str(tmp_path / "vault.yaml")
        Path(spec).write_text(VAULT.read_text(encoding="utf-8"), encoding="utf-8")
    game = _played(spec, seed, moves, midway)
    path = tmp_path / f"position-{seed}-{moves}-{here}.test.yaml"
    write_scenario(game, str(path), here=here)
    result = run_file(path)
    assert result.ok, f"{spec} seed {seed}, {moves} moves: `cuttle run` fails its own export: {result.failures}"
    again = scenario_game(path)
    assert _position(again.state) == _position(game.state), f"{spec} seed {seed}, {moves} moves (here={here})"
    for p in range(game.rules.seats):
        assert _view(again, p) == _view(game, p), f"{spec} seed {seed}, {moves} moves: p{p + 1}'s view"


def _view(game: Game, p: int) -> View:
    """p's view, its legal moves as a set (targets are listed in the order of their field) and of a
    match only the hands won (a setup's `match:` holds how many, not how each hand ended)."""
    v = game.view(p)
    m = v.match
    return v.replace(
        legal_moves=tuple(sorted(v.legal_moves or ())),
        match=None if m is None else (m.wins, m.needed, m.hand if game.outcome is None else None),
    )


def test_a_scenario_without_a_seed_deals_as_seed_0_in_run_and_solve(tmp_path: Path) -> None:
    """`cuttle run` and `cuttle solve FILE` read one default seed (0): the cards a setup leaves
    unplaced are shuffled the same way by both."""
    setup = {"p1": {"hand": ["AH", "2C"]}, "p2": {"hand": ["3D"]}}
    rules = load_ruleset("default")
    top = [state_card for state_card in reversed(build_position(rules, setup, 0).zones[DECK][-3:])]
    from interpreter.core.cards import NAMES

    path = tmp_path / "seedless.test.yaml"
    path.write_text(
        "ruleset: default\nsetup:\n  p1: {hand: [AH, 2C]}\n  p2: {hand: [3D]}\n"
        f"expect:\n  deck_top: [{', '.join(NAMES[c] for c in top)}]\n"
    )
    assert run_file(path).ok
    solved = scenario_game(path).state
    assert solved.zones[DECK] == build_position(rules, setup, 0).zones[DECK]
    assert [NAMES[c] for c in solved.zones[HAND0]] == ["AH", "2C"]


def test_a_position_at_every_kind_of_decision_exports_and_runs_back(tmp_path: Path) -> None:
    """A position at each kind of decision (a turn's action, a response, cards to choose, a 7's
    revealed card to play), the first that seeded play reaches, exported both ways."""
    found: dict[str, Game] = {}
    for seed in range(200):
        game = _played("default", seed, seed % 25, seed % 3)
        if game.decision is not None:
            found.setdefault(str(game.decision.kind), game)
        if len(found) == 4:
            break
    assert set(found) == {"main", "respond", "choose", "play"}
    for kind, game in found.items():
        for here in (True, False):
            path = tmp_path / f"{kind}-{here}.test.yaml"
            write_scenario(game, str(path), here=here)
            assert run_file(path).ok, f"at a {kind} decision (here={here}): {run_file(path).failures}"
            assert _position(scenario_game(path).state) == _position(game.state), f"at a {kind} decision"


def test_a_match_with_a_drawn_hand_exports_the_draw(tmp_path: Path) -> None:
    """A hand drawn earlier in a match counts toward the hand being played: the export keeps it."""
    rules = load_ruleset("default+best-of-5")
    setup = {"p1": {"hand": ["9S"]}, "p2": {"hand": ["3D"]}, "match": {"p1": 1, "draws": 1}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    for here in (True, False):
        path = tmp_path / f"match-{here}.test.yaml"
        write_scenario(game, str(path), here=here)
        assert run_file(path).ok, run_file(path).failures
        again = scenario_game(path)
        assert (again.state.wins, len(again.state.hands)) == ((1, 0), 2), f"here={here}"
        assert _view(again, 0) == _view(game, 0), f"here={here}"


def test_a_house_rule_played_from_its_file_is_named_from_the_scenarios_folder(tmp_path: Path) -> None:
    """A game of a house rule loaded by its full path: the scenario beside it names it `vault.yaml`
    (an absolute path in a scenario is refused by `cuttle run`), and runs back."""
    rules_file = tmp_path / "vault.yaml"
    rules_file.write_text(VAULT.read_text(encoding="utf-8"), encoding="utf-8")
    game = _played(str(rules_file), 3, 12)
    for here in (True, False):
        path = tmp_path / f"house-{here}.test.yaml"
        write_scenario(game, str(path), here=here)
        assert "\nruleset: vault.yaml\n" in path.read_text(encoding="utf-8")
        assert run_file(path).ok, run_file(path).failures


def test_a_royal_a_joker_took_at_a_table_of_three_exports_with_both_owners(tmp_path: Path) -> None:
    """Cutthroat: p1's Joker takes p2's King; exported (both ways) and run back, the King is p2's card
    under p1's Joker on p1's side, as it was (`KS@p2+RJ`: the owners a setup's alternation does not give)."""
    rules = load_ruleset("default+cutthroat")
    setup = {"p1": {"hand": ["RJ", "5C"]}, "p2": {"royals": ["KS"], "hand": ["3D"]}, "p3": {"hand": ["4H"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("joker RJ KS")
    while game.decision is not None and game.decision.kind == "respond":
        game.play("resolve")
    assert game.view(0).you.royals == ("KS+RJ",)
    for here in (True, False):
        path = tmp_path / f"joker-{here}.test.yaml"
        write_scenario(game, str(path), here=here)
        assert run_file(path).ok, run_file(path).failures
        again = scenario_game(path)
        assert _position(again.state) == _position(game.state), f"here={here}"


def test_a_face_down_card_on_another_players_side_keeps_who_knows_it(tmp_path: Path) -> None:
    """p1 puts a card of their hand face down, unseen, in front of p2: exported and run back, p1 still
    knows it (the setup's `knows:`) and p2 still does not."""
    rules_file = tmp_path / "plant.yaml"
    rules_file.write_text(
        "name: plant\nextends: default\nplays:\n  plant:\n    verb: plant\n    ranks: [A]\n    effect: |\n"
        "      choose 1 from hand of me by me as pick\n"
        "      move pick to field of opponent as point face down unseen\n",
        encoding="utf-8",
    )
    rules = load_ruleset(str(rules_file))
    setup = {"p1": {"hand": ["AS", "3C", "9D"]}, "p2": {"hand": ["2C", "3D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("plant AS")
    game.play("pick 3C")
    assert [f.card for f in game.view(0).opponent.face_down] == ["3C"]
    for here in (True, False):
        path = tmp_path / f"plant-{here}.test.yaml"
        write_scenario(game, str(path), here=here)
        assert run_file(path).ok, run_file(path).failures
        again = scenario_game(path)
        assert [f.card for f in again.view(0).opponent.face_down] == ["3C"], f"here={here}"
        assert [f.card for f in again.view(1).you.face_down] == [None], f"here={here}"
