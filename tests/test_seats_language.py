"""The effect language at a table of more seats (docs/effect-language.md, "Players at a larger table"):
sets of players, `partner`, `p3`/`p4`, `field of opponents`, `P in opponents`, `count(opponents)`,
`turns_until(P)`, `attach ... for P`, a play's `player:`, an answer's `window:` and `instead:`."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.errors import RulesetErrors
from interpreter.language.compiler import Compiler
from interpreter.language.parser import parse_expr
from interpreter.language.reference import evaluate
from interpreter.scripting.setup import build_position

from .scenario_util import house_file

FOUR = str(Path(__file__).parent / "rulesets" / "seats" / "four-teams.yaml")


def _game(spec: str, setup: dict) -> Game:
    rules = load_ruleset(spec)
    return Game(rules, build_position(rules, setup, 0), 0, setup)


def _both(text: str, game: Game, me: int) -> tuple:
    """`text` compiled for the game's rules, and its meaning by the reference evaluator."""
    rules = game.rules
    fn = Compiler(rules.ctx, None).expr(parse_expr(text), frozenset({"me", "opponent"}))
    env = {"me": me, "opponent": rules.opponent_of[me]}
    return fn(game.state, env), evaluate(parse_expr(text), game.state, env, rules.ctx)


SETUP = {
    "p1": {"hand": ["3C"], "points": ["9C"]},
    "p2": {"hand": ["3D", "4D"], "points": ["8D"]},
    "p3": {"hand": ["3H"], "points": ["7H"]},
    "p4": {"hand": ["3S", "4S", "5S"]},
}


@pytest.mark.parametrize(
    "text, me, want",
    [
        ("count(opponents)", 0, 2),
        ("count(others)", 2, 3),
        ("count(players)", 1, 4),
        ("partner == p3", 0, True),
        ("partner == p2", 3, True),
        ("partner == p1", 3, False),
        ("partner == p4", 1, True),
        ("p4 in opponents", 0, True),
        ("p3 in opponents", 0, False),
        ("count(hand of opponents)", 0, 5),  # p2's 2 and p4's 3
        ("count(hand of others)", 3, 4),
        ("total(field of opponents where it.role == point)", 1, 16),  # p3's 7 and p1's 9
        ("count(field of players)", 0, 3),
        ("turns_until(p1)", 0, 4),  # p1 to move: p1's next turn is 4 turns on
        ("turns_until(p3)", 0, 2),
        ("other(p4)", 0, 0),  # the next player clockwise
    ],
)
def test_sets_of_players_compile_and_mean_what_the_reference_says(text: str, me: int, want: object) -> None:
    game = _game(FOUR, SETUP)
    got, ref = _both(text, game, me)
    assert got == want and ref == want


def test_a_set_of_players_is_not_a_player(tmp_path: Path) -> None:
    (tmp_path / "four.yaml").write_text(Path(FOUR).read_text(encoding="utf-8"), encoding="utf-8")
    f = house_file(tmp_path, "plays:\n  four:\n    legal: count(hand of opponent) > 0 and score(opponents) > 0\n")
    f.write_text(f.read_text(encoding="utf-8").replace("extends: default", "extends: four.yaml"), encoding="utf-8")
    with pytest.raises(RulesetErrors) as info:
        load_ruleset(str(f), fresh=True)
    assert "score() needs a player, but this is players (a set of them)" in str(info.value)


def test_p3_is_a_name_only_at_a_table_that_has_it(tmp_path: Path) -> None:
    f = house_file(tmp_path, "plays:\n  four:\n    legal: opponent == p3\n")
    with pytest.raises(RulesetErrors) as info:
        load_ruleset(str(f), fresh=True)
    assert "unknown name 'p3'" in str(info.value)


def test_a_two_seat_play_naming_a_player_names_it_in_its_move(tmp_path: Path) -> None:
    """`player:` at two seats: the move names the player; the plays aimed at `opponent` still do not."""
    f = house_file(
        tmp_path,
        "plays:\n  gift:\n    verb: gift\n    ranks: [A]\n    player: others\n"
        "    effect: move card to field of player as point\n",
    )
    rules = load_ruleset(str(f), fresh=True)
    game = Game(rules, build_position(rules, {"p1": {"hand": ["AS", "4C"]}, "p2": {"hand": ["3D"]}}, 0), 0)
    moves = [str(m) for m in game.legal_moves()]
    assert "gift AS p2" in moves and "oneoff 4C" in moves and not any(m.startswith("oneoff 4C p") for m in moves)
    game.play("gift AS p2")
    assert game.view(1).you.points[0].card == "AS"


def test_a_play_naming_a_player_names_them_even_when_its_target_lies_on_their_side(tmp_path: Path) -> None:
    """`player:` with a target: the move names the player it chose, even where the target's side would
    say it (a play aimed at an opponent names nobody then: `scuttle 10S 9H`)."""
    f = house_file(
        tmp_path,
        "seats: {count: 3}\nplays:\n  take:\n    verb: take\n    ranks: [A]\n    player: others\n"
        "    target: field of player where it.role == point\n    effect: move target to hand of me\n",
    )
    rules = load_ruleset(str(f), fresh=True)
    setup = {"p1": {"hand": ["AS"]}, "p2": {"points": ["7H"]}, "p3": {"points": ["8H"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    takes = sorted(str(m) for m in game.legal_moves() if m.verb == "take")
    assert takes == ["take AS 7H p2", "take AS 8H p3"]
    game.play("take AS 8H p3")
    assert "8H" in game.view(0).hand


# -- the compiled code and the reference evaluator agree at a table of three and of four -------------

_SEAT_EXPRESSIONS = [
    "count(hand of opponents)",
    "count(field of others)",
    "count(hand of players)",
    "count(players)",
    "p3",
    "turns_until(p1)",
    "turns_until(me)",
    "me in opponents",
    "opponent in others",
    "second player",
    "first player",
    "other(me)",
    "total(field of opponents)",
    "first(field of others)",
    "count(field of opponents where it.role == point)",
    "score(p3)",
    "goal(opponent)",
]
_TEAM_EXPRESSIONS = ["partner", "count(hand of partner)", "partner in opponents", "turns_until(partner)"]
_SEAT_STATEMENTS = [
    "draw 1 for p3",
    "draw 1 for second player",
    "scrap field of opponents where it.role == point",
    "move first(hand of others) to hand of me",
    "mark p3 as stunned",
]
_TEAM_STATEMENTS = ["move hand of partner to scrap", "win partner"]


@pytest.mark.parametrize("spec", ["default+cutthroat", "default+teams"])
def test_compiled_seat_expressions_and_statements_agree_with_the_reference(spec: str) -> None:
    from interpreter.language import reference
    from interpreter.language.compiler import Compiler
    from interpreter.language.parser import parse_expr, parse_program
    from interpreter.language.reference import Reference

    from .test_reference_evaluator import _norm, _states

    rules = load_ruleset(spec, fresh=True)
    ctx = rules.ctx
    ctx.marks.add("stunned")
    bound = frozenset({"me", "opponent"})
    teams = "teams" in spec
    exprs = _SEAT_EXPRESSIONS + (_TEAM_EXPRESSIONS if teams else [])
    stmts = _SEAT_STATEMENTS + (_TEAM_STATEMENTS if teams else [])
    compiled = {t: Compiler(ctx).expr(parse_expr(t), bound) for t in exprs}
    programs = {t: Compiler(ctx).program(parse_program(t), bound) for t in stmts}
    seen_turns = set()
    states = list(_states(rules, 8))
    last = states[-1].copy()
    last.first = rules.seats - 1  # a later hand of a match: the last seat moved first, p1 is next
    for g in [*states, last]:
        seen_turns.add(g.turn)
        env = {"me": g.turn, "opponent": rules.opponent_of[g.turn]}
        for t, fn in compiled.items():
            assert _norm(Reference(ctx).ev(parse_expr(t), g.copy(), dict(env), bound)) == _norm(
                fn(g.copy(), dict(env))
            ), t
        for t, prog in programs.items():
            a, b = g.copy(), g.copy()
            for ins in prog:
                ins[1](a, dict(env))
            reference.execute(parse_program(t), b, dict(env), ctx)
            assert a.key() == b.key(), t
    assert len(seen_turns) > 2  # states where p3 (or p4) is the player `me`
