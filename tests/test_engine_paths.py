"""The engine's fast paths change no game: a play that needs no decision runs without frames, the
end of a turn without its program when `turn.end` has nothing to do, and the legal moves come from
functions generated per ruleset. Played with and without those shortcuts, every ruleset gives the
same legal moves and the same positions, move by move. And what the engine generates is checked
against its allow-lists before it is compiled."""

from __future__ import annotations

import ast
import random
import re

import pytest

from interpreter.core.cards import NAMES, RANK_OF
from interpreter.core.zones import HAND0
from interpreter.engine.generated import GeneratedCodeError, check, define
from interpreter.engine.inline import Inliner
from interpreter.engine.legal import main_function, plays_for
from interpreter.engine.machine import apply_action, deal, legal_actions, move_of, set_shortcuts
from interpreter.language.compiler import UnsafeCode, plain_compilation
from interpreter.language.runtime import as_cards
from interpreter.rules import Rules, compose
from tests.rulesets_under_test import RULESETS, TWO_SEATS

pytestmark = pytest.mark.slow  # a harness of many seeded games: the full tier only

GAMES = 25


def _fresh(spec: str, shortcuts: bool) -> Rules:
    """A Rules object of its own (load_ruleset shares one per name), run with or without shortcuts."""
    rules = Rules(compose(spec))
    set_shortcuts(rules, shortcuts)
    return rules


def _position(g) -> tuple:
    return (
        g.zones,
        g.role,
        g.owner,
        g.host,
        sorted((k, v) for k, v in g.atts.items() if v),
        sorted(g.marks.items()),
        g.turn,
        g.turn_no,
        g.passes,
        g.passed,
        g.winner,
        g.outcome,
        g.pending,
        g.rng.s,
        g.wins,
        g.hands,
        g.known,
        [(x[0].name, x[1], x[2], x[3]) for x in g.chain],
    )


def _same_games(spec: str, fast: Rules, slow: Rules) -> None:
    decisions = 0
    for seed in range(GAMES):
        a, b = deal(fast, seed), deal(slow, seed)
        rnd = random.Random(seed)
        while True:
            assert _position(a) == _position(b), f"{spec}, seed {seed}: positions differ after {decisions} decisions"
            if a.winner is not None:
                break
            ma = [str(move_of(a, x)) for x in legal_actions(a)]
            mb = [str(move_of(b, x)) for x in legal_actions(b)]
            assert ma == mb, f"{spec}, seed {seed}: legal moves differ"
            i = rnd.randrange(len(ma))
            apply_action(a, legal_actions(a)[i])
            apply_action(b, legal_actions(b)[i])
            decisions += 1
            assert a.hand_over is None and (a.pending is None) != (a.winner is None), (
                f"{spec}, seed {seed}: after a move the game must wait for a decision or be over"
            )
    assert decisions > 10 * GAMES


@pytest.mark.parametrize("spec", RULESETS)
def test_the_shortcuts_play_the_same_games(spec: str) -> None:
    _same_games(spec, _fresh(spec, True), _fresh(spec, False))


@pytest.mark.parametrize("spec", RULESETS)
def test_expressions_compiled_as_loops_play_the_same_games(spec: str) -> None:
    # the compiler's loops (a `where` counted or tested in place, stopping at the first card; tests
    # with statements of their own; small definitions with their arguments in locals...) against
    # every expression compiled as one plain Python expression
    with plain_compilation():
        plain = _fresh(spec, True)
        main_function(plain)  # its enumerators made now: the expressions written into them plain too
    _same_games(spec, _fresh(spec, True), plain)


# A match whose hands end on one pass, and a pass that can be countered: the hand ends when the
# answered pass resolves, at the end of the turn.
PASS_WINDOW = """
name: pass-window
kind: base
extends: default
match: {wins: 2}
end:
  passes: 1
plays:
  pass:
    kind: oneoff
    legal: true
"""


@pytest.mark.parametrize("shortcuts", [True, False])
def test_a_hand_that_ends_after_an_answered_play_deals_the_next(tmp_path, shortcuts: bool) -> None:
    path = tmp_path / "pass-window.yaml"
    path.write_text(PASS_WINDOW, encoding="utf-8")
    rules = Rules(compose(str(path)))
    set_shortcuts(rules, shortcuts)
    g = deal(rules, 1)
    apply_action(g, next(x for x in legal_actions(g) if str(move_of(g, x)) == "pass"))
    assert g.pending.kind == "respond"
    apply_action(g, next(x for x in legal_actions(g) if x[0] == "resolve"))
    assert len(g.hands) == 1 and g.hand_over is None and g.winner is None
    assert g.pending.kind == "main" and g.pending.player == 1  # hand 2: p2 moves first


def test_the_shortcuts_are_taken() -> None:
    """The comparison above means something only if the fast side really takes the direct paths."""
    rules = _fresh("default", True)
    g = deal(rules, 1)
    draw = next(x for x in legal_actions(g) if x[0] == "play" and x[1].verb == "draw")
    apply_action(g, draw)
    assert g.frames == [] and g.pending.kind == "main" and g.turn == 1  # no frame was left behind
    plan = rules.engine_cache["machine"]
    assert plan.direct[id(draw[1])] is not None and plan.end_guard is not None
    assert plan.won is not None  # the win check is the generated one (score and goal in place)


def test_the_default_rules_direct_plays_run_as_their_own_functions() -> None:
    """Each direct play of the default rules that is a turn's action gets its generated function
    (engine/direct.py) with its window test, effect and win check written in (the comparison above means
    something only if the fast side runs them); the plays whose effect waits for a choice do not."""
    plan = _fresh("default", True).engine_cache["machine"]
    assert {p.name for p in plan.play_fns} == {
        "draw",
        "pass",
        "points",
        "scuttle",
        "royal",
        "glasses",
        "jack",
        "ace",
        "two",
        "six",
        "nine",
    }
    for play, resolved in plan.play_fns.values():
        for fn in (play, resolved):
            names = set(fn.__code__.co_names)
            assert not names & {"W", "CHECK"}  # no window test nor win check called: both written in
            assert "MAIN" in names  # the usual end of the turn, to the next main decision
    assert _fresh("default", False).engine_cache["machine"].play_fns == {}


@pytest.mark.parametrize("spec", TWO_SEATS)  # (a larger table: plain loops, tests/test_seats.py)
def test_the_generated_win_check_agrees_with_the_score_and_the_goal(spec: str) -> None:
    """`won(g, p)` (engine/wincheck.py) is `score >= goal` on every position of some random games,
    including positions where a player has won."""
    rules = _fresh(spec, True)
    won = rules.engine_cache["machine"].won
    if won is None:  # rules with triggers keep the calls (no shortcut at all)
        assert rules.triggers
        return
    reached = 0
    for seed in range(10):
        g = deal(rules, seed)
        rnd = random.Random(seed)
        while g.winner is None:
            for p in (0, 1):
                assert won(g, p) == rules.reached_goal(g, p), f"{spec}, seed {seed}, p{p + 1}"
                reached += won(g, p)
            acts = legal_actions(g)
            apply_action(g, acts[rnd.randrange(len(acts))])
        for p in (0, 1):
            assert won(g, p) == rules.reached_goal(g, p), f"{spec}, seed {seed}, p{p + 1} at the end"
            reached += won(g, p)
    assert reached > 0 or spec not in ("default", "micro", "published")  # it was seen to hold, too


# -- what the engine generates -------------------------------------------------------------------


def test_generated_source_holds_only_engine_names_and_numbers() -> None:
    fn = define(
        ast.parse("def f(g, me):\n    x = [1, -2]\n    if x[0] is not None and me == 0:\n        return L0(g, me)\n"),
        "f",
        {"L0": lambda g, me: me},
        "<test>",
    )
    assert fn(None, 0) == 0


@pytest.mark.parametrize(
    "source, why",
    [
        ("def f(g):\n    return 'drop table'\n", "constant 'drop table'"),
        ("def f(g):\n    return open\n", "names 'open'"),
        ("def f(g):\n    return g.__globals__\n", "attribute '__globals__'"),
        ("def f(g):\n    import os\n", "Import"),
        ("def f(g):\n    return lambda: 1\n", "Lambda"),
        ("def f(g):\n    return 1.5\n", "constant 1.5"),
    ],
)
def test_generated_source_outside_the_allow_lists_is_refused(source: str, why: str) -> None:
    with pytest.raises(GeneratedCodeError, match=why.replace("(", r"\(")):
        check(ast.parse(source), set())


def test_the_default_rules_expressions_are_written_into_the_enumerator() -> None:
    """Every `legal` and `target` of the default rules is written into the main-decision listing (the
    comparison with the plain listing below means something only if they are)."""
    main = main_function(_fresh("default", True))
    assert not [n for n in main.__code__.co_names if re.fullmatch(r"(CL|L|T)[0-9]+", n)]
    assert "e" not in main.__code__.co_varnames  # and no bindings dict is built


def test_an_expression_outside_the_compilers_allow_list_is_not_written_in() -> None:
    inl = Inliner(_fresh("default", True))
    draw = next(p for p in inl.rules.cardless if p.legal is not None)
    x = inl.place(draw.legal)
    assert x is not None
    pre, value, code = inl.parts[x]
    inl.parts[x] = (
        [ast.Expr(value=ast.Call(func=ast.Name(id="open", ctx=ast.Load()), args=[], keywords=[]))] + pre,
        value,
        code,
    )
    tree = ast.parse(f"def f(g, me):\n    if {x}:\n        pass\n")
    with pytest.raises(UnsafeCode, match="open"):
        inl.splice(tree)


def _reference_plays(g, player: int, source, free_ok: bool = True) -> list[tuple]:
    """The single-card plays of `source`, listed the plain way: each card, each of its rank's plays in
    order, `legal` and `target` evaluated for that card with bindings of its own."""
    rules = g.rules
    out: list[tuple] = []
    for c in source:
        if rules.playable_fn is not None and not rules.playable_fn(g, {"me": player, "opponent": 1 - player, "it": c}):
            continue
        for p in rules.by_rank[RANK_OF[c]]:
            if p.ncards != 1 or (p.free and not free_ok):
                continue
            env = {"me": player, "opponent": 1 - player, "card": c, "cards": (c,)}
            if p.legal is not None and not p.legal(g, env):
                continue
            if p.target is None:
                out.append(("play", p, player, (c,), -1))
            else:
                out += [("play", p, player, (c,), t) for t in as_cards(p.target(g, env))]
    return out


@pytest.mark.parametrize("spec", TWO_SEATS)  # (a larger table: plain loops, tests/test_seats.py)
def test_the_generated_enumerator_lists_what_the_plain_way_lists(spec: str) -> None:
    """Main decisions and plays from a 7, in every ruleset under test: the generated enumerator (which
    works out a card-independent `legal`/`target` once per decision) gives the plain listing, in order."""
    rules = _fresh(spec, True)
    checked = 0
    for seed in range(12):
        g = deal(rules, seed)
        rnd = random.Random(seed)
        while g.winner is None:
            d = g.pending
            acts = legal_actions(g)
            me = d.player
            if d.kind == "main":
                env = {"me": me, "opponent": 1 - me, "card": -1, "cards": ()}
                assert [a for a in acts if a[0] == "play" and not a[3]] == [
                    ("play", p, me, (), -1) for p in rules.cardless if p.legal is None or p.legal(g, env)
                ]
                assert [a for a in acts if len(a[3]) == 1] == _reference_plays(g, me, g.zones[HAND0 + me])
                checked += 1
            elif d.kind == "play":  # the revealed cards, judged here (not where their play will start)
                got = [a for a in plays_for(g, me, d.options, free_ok=False) if len(a[3]) == 1]
                assert got == _reference_plays(g, me, d.options, free_ok=False)
            apply_action(g, acts[rnd.randrange(len(acts))])
    assert checked > 100


def test_the_plays_of_every_card_come_from_the_generated_enumerator() -> None:
    """Every card of the deck, alone in hand, is offered the plays its rank has in the ruleset."""
    rules = _fresh("default", True)
    g = deal(rules, 3)
    me = g.pending.player
    for c in range(52):
        verbs = {a[1].verb for a in plays_for(g, me, (c,))}
        expected = {
            p.verb
            for p in rules.by_rank[NAMES[c][:-1]]
            if p.ncards == 1
            and (p.legal is None or p.legal(g, {"me": me, "opponent": 1 - me, "card": c, "cards": (c,)}))
            and (p.target is None or p.target(g, {"me": me, "opponent": 1 - me, "card": c, "cards": (c,)}))
        }
        assert verbs == expected, NAMES[c]
