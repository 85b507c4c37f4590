"""The lab's game runner: seeds from (master seed, game number) only, the same game on the raw
engine and through the Game API, and a record of plays, responses, choices and counters that
matches what happened."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.engine.machine import enumerate_actions
from interpreter.engine.wincheck import keep
from interpreter.lab import columns
from interpreter.lab.catalog import Catalog, catalog_of
from interpreter.lab.games import play_game
from interpreter.lab.job import canonical_player, game_seed, player_seed, rules_of
from interpreter.lab.playing import play
from interpreter.lab.recorder import Recorder, uses_of
from interpreter.players import PlayerError, make_player
from interpreter.rules import load_ruleset
from interpreter.scripting.setup import build_position

ROOT = Path(__file__).resolve().parent.parent
RULESETS = [
    "default",
    "default+tens-block",
    "default+twinned",
    "micro",
    "default+best-of-5",
    "published",
    "examples/house/every-rule-visible.yaml",  # triggers, a counter, a show, a rule-made win
]


def test_game_seeds_depend_on_master_seed_and_number_only() -> None:
    here = [game_seed(7, i) for i in range(5)] + [player_seed(game_seed(7, 3), s) for s in (0, 1)]
    code = (
        "from interpreter.lab.job import game_seed, player_seed; "
        "print([game_seed(7, i) for i in range(5)] + [player_seed(game_seed(7, 3), s) for s in (0, 1)])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": ""},
    ).stdout
    assert out.strip() == str(here)
    assert len(set(here)) == len(here)
    assert all(0 <= s < 2**63 for s in here)  # an SQLite INTEGER


row = columns.row_maker()


@pytest.mark.parametrize("spec", RULESETS)
def test_random_play_is_the_same_game_raw_or_through_the_game_api(spec: str) -> None:
    rules = load_ruleset(spec)
    for i in range(6):
        seed = game_seed(11, i)
        raw = play_game(rules, i, seed, ("random", "random"))
        api = play_game(rules, i, seed, ("random", "random"), through_game=True)
        # the whole row of `games`, the columns computed from the recorder included (a number broken
        # in one loop only changed computed columns, which GameRecord's == leaves out)
        assert row(raw) == row(api) and raw == api


def test_a_game_is_recorded_as_an_independent_count_sees_it() -> None:
    """Replay a random game move by move through the Game API and count by hand: which plays and
    responses each seat could make, and which it made."""
    rules = load_ruleset("default+tens-block")
    cat = catalog_of(rules)
    names = [info.name for info in cat.infos]
    for i in range(8):
        seed = game_seed(3, i)
        result = play_game(rules, i, seed, ("random", "random"))
        game = Game.new(rules, seed)
        seats = [make_player("random", seed=player_seed(seed, s)) for s in (0, 1)]
        offered: list[set[str]] = [set(), set()]
        used: list[dict[str, int]] = [{}, {}]
        while game.decision is not None:
            d = game.decision
            pairs = enumerate_actions(game.state)
            for _, a in pairs:
                if a[0] in ("play", "respond"):
                    offered[d.player].add(a[1].name)
            move = seats[d.player].choose(game)
            action = next(a for m, a in pairs if m == move)
            if action[0] in ("play", "respond"):
                used[d.player][action[1].name] = used[d.player].get(action[1].name, 0) + 1
            game.push(move)
        assert game.state.moves_made == result.decisions
        for row in result.uses:
            name = names[row[0]]
            if cat.infos[row[0]].kind == "choice":
                continue
            for seat in (0, 1):
                assert row[1 + 3 * seat] == (name in offered[seat]), (seed, name, seat)
                assert row[2 + 3 * seat] == used[seat].get(name, 0), (seed, name, seat)
        recorded = {(names[r[0]], s) for r in result.uses for s in (0, 1) if r[1 + 3 * s]}
        assert recorded >= {(n, s) for s in (0, 1) for n in offered[s]}


def test_every_block_counters_the_scuttle_it_answers() -> None:
    """tens-block: a block cannot be answered, so each block is one countered scuttle."""
    rules = load_ruleset("default+tens-block")
    cat = catalog_of(rules)
    block = next(i for i, r in enumerate(cat.infos) if r.name == "block")
    scuttle = next(i for i, r in enumerate(cat.infos) if r.name == "scuttle")
    blocks = countered = 0
    for i in range(60):
        for row in play_game(rules, i, game_seed(5, i), ("random", "random")).uses:
            if row[0] == block:
                blocks += row[2] + row[5]
            if row[0] == scuttle:
                countered += row[3] + row[6]
    assert blocks > 0 and blocks == countered


class Script:
    """A player that plays the moves it is given, in order."""

    def __init__(self, moves: list[str]) -> None:
        self.moves = moves

    def choose(self, game: Game):
        return game.parse_move(self.moves.pop(0))


class TextScript(Script):
    """The same, answering with each move's text (as a seat may: `play` plays it as a user's text)."""

    def choose(self, game: Game):
        return self.moves.pop(0)


def _scripted(setup: dict, p1: list[str], p2: list[str], seat: type[Script] = Script) -> tuple[Recorder, Catalog]:
    rules = load_ruleset("default")
    cat = catalog_of(rules)
    game = Game(rules, build_position(rules, setup, 1), 1)
    rec = Recorder(cat)
    played = play(game, [seat(list(p1)), seat(list(p2))], len(p1) + len(p2), rec)
    assert played.decisions == len(game.moves) == len(p1) + len(p2)  # every move given was played
    return rec, cat


def _row(rec: Recorder, cat: Catalog, name: str) -> tuple[int, ...]:
    n = next(i for i, r in enumerate(cat.infos) if r.name == name)
    return next((r for r in uses_of(rec.codes()) if r[0] == n), (n, 0, 0, 0, 0, 0, 0))


SETUP = {
    "turn": "p1",
    "p1": {"hand": ["6D", "2D", "4C"]},
    "p2": {"hand": ["2C", "3H"], "points": ["7H+JC"], "royals": ["KS"]},
}


@pytest.mark.parametrize("seat", [Script, TextScript])
def test_a_countered_play_is_counted_as_countered(seat: type[Script]) -> None:
    """Example 1 of the rules: p2 counters p1's 6 and p1 lets it stand (the seats answering with moves,
    or with their text)."""
    rec, cat = _scripted(SETUP, ["oneoff 6D", "resolve"], ["counter 2C 3H"], seat)
    assert _row(rec, cat, "six")[1:4] == (1, 1, 1)  # p1: offered, used once, countered once
    assert _row(rec, cat, "counter")[4:7] == (1, 1, 0)  # p2 countered once
    assert _row(rec, cat, "counter")[1:3] == (1, 0)  # p1 could counter back, and did not
    empty, _ = _scripted(SETUP, [], [])
    assert empty.codes() == ("", "", "", "", "", "") and uses_of(empty.codes()) == ()


def test_a_counter_countered_back_lets_the_play_take_effect() -> None:
    rec, cat = _scripted(SETUP, ["oneoff 6D", "counter 2D 4C"], ["counter 2C 3H", "resolve"])
    assert _row(rec, cat, "six")[1:4] == (1, 1, 0)
    assert _row(rec, cat, "counter")[1:3] == (1, 1) and _row(rec, cat, "counter")[4:6] == (1, 1)


def test_a_turn_rule_choice_is_recorded_under_the_turn_rule() -> None:
    setup = {"turn": "p1", "p1": {"hand": ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]}, "p2": {"hand": ["9D"]}}
    rec, cat = _scripted(setup, ["draw", "discard AC"], [])
    assert _row(rec, cat, "turn.end: discard")[1:3] == (1, 1)
    assert cat.infos[_row(rec, cat, "turn.end: discard")[0]].watch


def test_the_catalog_names_rules_and_where_they_come_from() -> None:
    cat = Catalog(load_ruleset("default+tens-block"))
    by_name = {r.name: r for r in cat.infos}
    assert by_name["block"].kind == "response" and by_name["block"].origin == "from tens-block"
    assert by_name["scuttle"].origin == "changed by tens-block" and by_name["scuttle"].answerable
    assert by_name["points"].origin == "" and not by_name["points"].answerable
    assert by_name["end.passes"].kind == "end"
    assert not by_name["four: discard"].watch  # a play's own choice is not a rule that can be dead
    house = Catalog(load_ruleset(str(ROOT / "examples" / "house" / "ace-opponent-only.yaml")))
    assert {r.name: r for r in house.infos}["ace"].origin == "changed by ace-opponent-only"
    random4 = Catalog(load_ruleset("default+random-4s"))
    assert "four: discard" in {r.name for r in random4.infos}


def test_player_specs_are_spelled_one_way() -> None:
    assert canonical_player("bot") == "heuristic"
    assert canonical_player(" Random ") == "random"
    assert canonical_player("heuristic?samples=2&depth=1") == canonical_player("heuristic?depth=1&samples=2")
    with pytest.raises(PlayerError, match="no player named 'randon'"):
        canonical_player("randon")


def test_the_bot_plays_through_the_game_api_deterministically() -> None:
    rules = load_ruleset("micro")
    spec = "heuristic?samples=1&depth=1&max_nodes=200"
    a = play_game(rules, 0, game_seed(1, 0), (spec, "random"))
    b = play_game(rules, 0, game_seed(1, 0), (spec, "random"))
    assert a == b and a.winner is not None


def test_the_engine_is_generated_while_the_run_is_prepared_not_in_its_first_game() -> None:
    from interpreter.lab.sim import prepare

    shared = load_ruleset("default+tens-block")  # a composition no other test has prepared in this process
    shared.engine_cache.clear()
    job = prepare(["default+tens-block"], ("random", "random"), 0)
    rules = rules_of(job.sides[0])
    assert "machine" in rules.engine_cache  # the games of `play` find it made
    # on the lab's own copy, whose win check notes each player's points and goal (State.pg); the copy
    # other tools load is left as it was, so that `cuttle bench` and `cuttle code` do not carry the note
    assert rules is not shared and rules.hash == shared.hash
    assert keep(rules) and not keep(shared)


def test_a_ruleset_with_more_rules_than_the_record_has_characters_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rule of a game's record is one character below the surrogates (catalog.rule_code): a
    ruleset with more plays, responses and choices than that gets one clear line, not a wrong record."""
    import interpreter.lab.catalog as catalog
    from interpreter.core.errors import CuttleError

    rules = load_ruleset("default")
    monkeypatch.setattr(catalog, "MAX_RULES", 10)
    with pytest.raises(
        CuttleError,
        match=r"ruleset 'default' has 25 plays, responses and choices; the lab records "
        r"at most 10",
    ):
        Catalog(rules)
