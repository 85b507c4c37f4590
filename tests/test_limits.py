"""Budgets everywhere (interpreter/core/limits.py, docs/security.md): a tiny file cannot exhaust
memory or never end. Each refusal names the limit and the place; the shipped rulesets are far
from every limit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import CuttleError, Game, load_ruleset
from interpreter.core import limits
from interpreter.core.errors import RuleRuntimeError, RulesetError, RulesetErrors
from interpreter.engine import machine
from interpreter.lab.bench import playout
from interpreter.rules import check, shipped_names
from interpreter.rules.compose import compose
from interpreter.rules.yamlsrc import load_yaml

from .rulesets_under_test import RULESETS
from .work import calls


def _house(tmp_path: Path, body: str, name: str = "house.yaml") -> str:
    p = tmp_path / name
    p.write_text("name: house\nextends: default\n" + body, encoding="utf-8")
    return str(p)


def _refused(spec: str, *words: str) -> str:
    """The text of the refusal of a ruleset, checked to name each of `words`."""
    errors = check(spec)
    text = "\n".join(e.render() for e in errors)
    assert errors, f"{spec} was accepted"
    for w in words:
        assert w in text, text
    return text


def _points_effect(effect: str) -> str:
    lines = "".join(f"      {x}\n" for x in effect.splitlines())
    return f"plays:\n  points:\n    effect: |\n{lines}      move card to field of me as point\n"


# -- YAML ---------------------------------------------------------------------------------------


def test_an_alias_bomb_is_refused_at_once() -> None:
    text = "a: &a [1,1,1,1,1,1,1,1,1]\n"
    prev = "a"
    for n in "bcdefghi":
        text += f"{n}: &{n} [" + ",".join([f"*{prev}"] * 9) + "]\n"
        prev = n

    def load() -> None:
        with pytest.raises(RulesetError, match="MAX_ALIAS_NODES"):
            load_yaml(text, "bomb.yaml")

    assert calls(load) < 2_000_000  # refused as it expands (230k calls), not after 9**9 nodes


@pytest.mark.parametrize("text", ["a: &x [*x]\n", "a: &x {b: [1, *x]}\n"])
def test_an_alias_that_contains_itself_is_refused(text: str) -> None:
    with pytest.raises(RulesetError, match="refers to the value that contains it"):
        load_yaml(text, "self.yaml")


def test_yaml_nesting_and_size_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RulesetError, match="MAX_YAML_DEPTH"):
        load_yaml("a: " + "[" * 5000 + "]" * 5000, "deep.yaml")
    from interpreter.rules import yamlsrc

    monkeypatch.setattr(yamlsrc, "MAX_YAML_NODES", 500)  # (counted as the composer goes: any limit works)
    with pytest.raises(RulesetError, match="MAX_YAML_NODES"):
        load_yaml("a: [" + "1," * 600 + "1]", "wide.yaml")
    load_yaml("a: [" + "1," * 400 + "1]", "wide.yaml")


def test_huge_numbers_in_yaml_are_refused_not_a_traceback() -> None:
    for text in ("a: " + "9" * 5000, "a: " + "9" * 40):
        with pytest.raises(RulesetError, match="digits"):
            load_yaml(text, "n.yaml")
    assert load_yaml("seed: 18446744073709551615", "n.yaml").data == {"seed": 18446744073709551615}


# -- the effect language ------------------------------------------------------------------------


def test_deep_nesting_is_refused_with_the_limit_and_place(tmp_path: Path) -> None:
    for goal in ("-" * 3000 + "1", "not " * 500 + "true", "count(" * 400 + "deck" + ")" * 400):
        text = _refused(_house(tmp_path, f"end:\n  goal: {goal}\n"), "MAX_EXPR_DEPTH", "house.yaml:4:")
        assert "Traceback" not in text


def test_an_effect_text_is_bounded(tmp_path: Path) -> None:
    _refused(_house(tmp_path, 'end:\n  goal: "[' + ", ".join(["1"] * 6000) + '][0]"\n'), "MAX_EXPR_NODES")
    _refused(_house(tmp_path, "end:\n  goal: 1 + " + "1" * 20 + "\n"), "MAX_NUMBER_DIGITS", "house.yaml:4:13")


def _doubling(levels: int) -> str:
    """Definitions each using the one before twice: copied in place, 2^levels nodes."""
    lines = ["define:", "  d0: count(hand of me)"] + [f"  d{i}: d{i - 1} + d{i - 1}" for i in range(1, levels + 1)]
    return "\n".join(lines) + f"\nend:\n  goal: d{levels} / {2**levels} + 21\n"


def test_definitions_that_double_at_each_level_load_in_linear_time(tmp_path: Path) -> None:
    # 8 levels: big definitions become calls instead of copies, and the value is right
    rules = load_ruleset(_house(tmp_path, _doubling(8)))
    game = Game.new(rules, 1)
    assert game.goal(0) == len(game.state.zones[2]) + 21
    # 2^N evaluations however it is compiled: refused at load, at once (29 levels: 5.7 GB and minutes
    # before; 12 levels: 4,096 evaluations of the first definition at each win check)
    for levels, limit in ((29, "MAX_COST"), (12, "MAX_BASE_COST")):
        path, at = _house(tmp_path, _doubling(levels)), f"house.yaml:{levels + 6}:9"
        assert calls(lambda p=path, lim=limit, a=at: _refused(p, lim, a)) < 10_000_000  # (under 1M calls)


def _constants(tmp_path: Path, n: int) -> str:
    body = "extends: default\nconstants:\n" + "".join(f"  c{i}: {i}\n" for i in range(n))
    path = tmp_path / f"constants-{n}.yaml"
    path.write_text(body, encoding="utf-8")
    return str(path)


def test_composing_a_large_file_is_linear_in_its_size(tmp_path: Path) -> None:
    # merging each value looked through every value merged before it (9,000 constants on `extends:
    # default`, 124 kB: 103 s of CPU); counted in calls, four times the constants must cost about four
    # times the work (a scan per value made it about sixteen)
    small, large = _constants(tmp_path, 400), _constants(tmp_path, 1600)
    compose("default")  # the shipped file read once (cached), so both counts are of the same work
    base = calls(lambda: compose("default"))
    grow_small = calls(lambda: compose(small)) - base
    grow_large = calls(lambda: compose(large)) - base
    assert grow_large < 5 * grow_small, (grow_small, grow_large)


def test_a_chain_of_definitions_is_bounded(tmp_path: Path) -> None:
    lines = ["define:", "  d0: 1"] + [f"  d{i}: d{i - 1}" for i in range(1, 60)]
    _refused(_house(tmp_path, "\n".join(lines) + "\nend:\n  goal: d59\n"), "MAX_DEFINE_DEPTH")


@pytest.mark.parametrize(
    "body",
    [
        "end:\n  goal: count(" + "deck where count(" * 5 + "deck" + ") > 0" * 5 + ")\n",
        _points_effect("".join(f"for each c{i} in deck do " for i in range(6)) + "nothing" + " end" * 6),
    ],
)
def test_nested_loops_that_would_never_end_are_refused_at_load(tmp_path: Path, body: str) -> None:
    path = _house(tmp_path, body)
    assert calls(lambda: _refused(path, "MAX_COST")) < 5_000_000  # at load (220k calls), never run


def test_rules_that_ask_themselves_are_refused(tmp_path: Path) -> None:
    _refused(_house(tmp_path, "end:\n  score: score(me)\n"), "end.score cannot use score()")
    _refused(_house(tmp_path, "plays:\n  points:\n    legal: can_play(hand of me)\n"), "cannot use can_play()")
    # each way a rule can ask itself (the score through the goal, the goal through itself)
    _refused(_house(tmp_path, "end:\n  score: goal(me) - 21\n"), "end.score cannot use score(), goal() or can_play()")
    _refused(_house(tmp_path, "end:\n  goal: goal(opponent)\n"), "end.goal cannot use goal() or can_play()")
    _refused(_house(tmp_path, "end:\n  goal: 21 + can_play(hand of me)\n"), "end.goal cannot use goal() or can_play()")
    _refused(_house(tmp_path, "plays:\n  points:\n    legal: can_play([card])\n"), "cannot use can_play()")  # one card
    # and the score in the goal is no loop: the goal may read the score
    assert not check(_house(tmp_path, "end:\n  goal: 21 + score(me) * 0\n"))


def test_numbers_that_grow_without_bound_refuse_the_move(tmp_path: Path) -> None:
    effect = "let a = 999999999999999\n" + "let a = a * a\n" * 5
    rules = load_ruleset(_house(tmp_path, _points_effect(effect)))
    game = Game.new(rules, 3)
    move = next(m for m in game.legal_moves() if m.verb == "points")
    before = game.state.key()
    with pytest.raises(RuleRuntimeError, match="MAX_INT"):
        game.play(move)
    assert game.state.key() == before and not game.moves


# -- play ---------------------------------------------------------------------------------------


def test_an_astronomical_choice_is_refused_at_load_when_it_shows(tmp_path: Path) -> None:
    _refused(
        _house(tmp_path, _points_effect("choose 20 from deck by me as take\nmove take to hand of me")),
        "MAX_CHOICES",
        "house.yaml:6:",
    )
    _refused(_house(tmp_path, "responses:\n  counter:\n    extra: 30\n"), "MAX_CHOICES")


def test_an_astronomical_choice_is_refused_at_play_time_otherwise(tmp_path: Path) -> None:
    rules = load_ruleset(
        _house(tmp_path, _points_effect("choose count(deck)/2 from deck by me as take\nmove take to hand of me"))
    )
    game = Game.new(rules, 3)
    move = next(m for m in game.legal_moves() if m.verb == "points")
    before = game.state.key()

    def play() -> None:
        with pytest.raises(RuleRuntimeError, match="MAX_CHOICES"):
            game.play(move)

    assert calls(play) < 100_000  # refused before listing the choices (under 300 calls)
    assert game.state.key() == before and not game.moves


def test_a_match_whose_hands_never_have_a_winner_ends(tmp_path: Path) -> None:
    # no play is ever legal: every hand ends at once in a draw, and the match would deal forever
    body = "match: {wins: 3}\nturn:\n  playable: false\nplays:\n  draw:\n    legal: false\n  pass:\n    legal: false\n"
    rules = load_ruleset(_house(tmp_path, body))
    games: list[Game] = []
    assert calls(lambda: games.append(Game.new(rules, 1))) < 5_000_000  # MAX_HANDS hands (290k calls), then stops
    (game,) = games
    assert game.outcome is not None and game.outcome.winner is None
    assert "MAX_HANDS" in game.outcome.reason and len(game.state.hands) == limits.MAX_HANDS


def test_a_game_that_never_ends_is_a_draw_after_the_move_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(machine, "MAX_MOVES", 40)
    # passing is always legal and never ends the game
    rules = load_ruleset(_house(tmp_path, "end:\n  passes: 0\nplays:\n  pass:\n    legal: true\n"))
    game = Game.new(rules, 1)
    for _ in range(40):
        if game.outcome:
            break
        game.play("pass")
    assert game.outcome is not None and "MAX_MOVES" in game.outcome.reason


def test_a_match_asks_for_a_bounded_number_of_wins(tmp_path: Path) -> None:
    _refused(_house(tmp_path, "match: {wins: 1000000}\n"), "MAX_MATCH_WINS")


# -- the shipped rulesets are far from every limit ----------------------------------------------


def test_every_shipped_ruleset_loads_and_plays_under_the_limits() -> None:
    for spec in RULESETS:
        rules = load_ruleset(spec)
        rnd = random.Random(0)
        for seed in range(3):
            playout(rules, seed, rnd)


def test_the_shipped_rulesets_need_a_small_part_of_the_cost_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    # with limits a tenth of the real ones, every shipped ruleset still loads
    from interpreter.rules import sections

    monkeypatch.setattr(sections, "MAX_COST", limits.MAX_COST // 10)
    monkeypatch.setattr(sections, "MAX_DECISION_COST", limits.MAX_DECISION_COST // 10)
    monkeypatch.setattr(sections, "MAX_BASE_COST", limits.MAX_BASE_COST // 10)
    monkeypatch.setattr(sections, "MAX_STEP_COST", limits.MAX_STEP_COST // 10)
    from interpreter.rules.compose import compose
    from interpreter.rules.model import Rules

    for name in shipped_names():
        for spec in (name, f"default+{name}"):
            try:
                Rules(compose(spec))
            except (RulesetError, RulesetErrors) as e:
                assert "MAX_" not in str(e), e  # refused only for composition reasons (an option alone...)


def test_a_rule_that_fails_at_play_time_is_the_projects_error(tmp_path: Path) -> None:
    rules = load_ruleset(_house(tmp_path, "constants:\n  who: [5]\n" + _points_effect("win who[0]")))
    game = Game.new(rules, 3)
    move = next(m for m in game.legal_moves() if m.verb == "points")
    with pytest.raises(CuttleError, match="as a player"):
        game.play(move)


def test_docs_security_lists_every_limit_with_its_value() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "security.md").read_text(encoding="utf-8")
    table = doc.split("<!-- limits -->")[1]
    names = [n for n in vars(limits) if n.startswith("MAX_")]
    for name in names:
        assert f"| `{name}` | {getattr(limits, name):,} |" in table, name
    assert table.count("| `MAX_") == len(names)


def test_a_kind_condition_copied_into_many_plays_is_refused_before_it_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kind's `legal` is added to each of its plays: a long condition on a kind of many plays would
    be parsed and compiled once per play (a 20 kB condition on 1,500 plays took 228 s and 4 GB)."""
    cond = " or ".join(f"count(hand of me) == {i}" for i in range(90))  # about 2,200 characters
    plays = "".join(f"  p{i}:\n    verb: v{i}\n    ranks: [A]\n    kind: oneoff\n" for i in range(60))
    f = tmp_path / "k.yaml"
    f.write_text(f'name: k\nkind: base\nextends: default\nkinds:\n  oneoff:\n    legal: "{cond}"\nplays:\n{plays}')
    import sys

    composing = sys.modules["interpreter.rules.compose"]  # (the module: the package exports its function)
    joined: list[tuple] = []
    real = composing.join
    monkeypatch.setattr(composing, "join", lambda *a, **k: joined.append(a[1]) or real(*a, **k))
    problems = check(str(f))
    assert [e.code for e in problems] == ["E212"] and "MAX_KIND_RULE_CHARS" in problems[0].message
    assert problems[0].where is not None and problems[0].where.line == 6
    assert joined == []  # not one copy made
    monkeypatch.setattr(limits, "MAX_KIND_RULE_CHARS", 10**9)  # the same file under a larger limit: copied
    monkeypatch.setattr(composing, "MAX_KIND_RULE_CHARS", 10**9)
    check(str(f))
    assert len(joined) == 60 + 8  # the file's one-offs and the default rules' eight


# -- one budget per move, counting evaluations (issue 42.4) --------------------------------------------

# a score, and a goal, each within MAX_COST, but evaluated at every win check for each player: 3 s of CPU
# a move before (a one-game sim ran for minutes), and `cuttle check` passed it
_HEAVY = (
    "count(deck where a: count(deck where b: count(deck where c: "
    "a.value + b.value == count(hand of me where d: d.value == c.value)) > 0) > 0)"
)


def test_a_win_check_too_costly_for_a_move_is_refused_at_load(tmp_path: Path) -> None:
    body = f"end:\n  score: |\n    {_HEAVY}\n  goal: |\n    21 + score(me) * 0 + {_HEAVY}\n"
    path = _house(tmp_path, body)
    # counted at load, never run: the count multiplies each text by how often a move evaluates it
    text = _refused(path, "end.goal", "checks the win", "MAX_STEP_COST", "[E215]")
    assert "MAX_COST)" not in text  # each text alone is within MAX_COST: only the move's count refuses it
    assert calls(lambda: check(path)) < 5_000_000


def _micro_with_costly_goal(tmp_path: Path) -> str:
    """Micro (sixteen cards, no deck): a goal the count at load prices high (every zone as sixteen
    cards, three deep) but that runs in no time, so the count at play can be watched cheaply."""
    goal = (
        "21 + count(hand of me where a: count(hand of me where b: count(hand of opponent where c: "
        "a.value + b.value == c.value) >= 0) >= 0) * 0"
    )
    p = tmp_path / "costly-goal.yaml"
    p.write_text(f"name: costly goal\nextends: micro\nend:\n  goal: |\n    {goal}\n", encoding="utf-8")
    return str(p)


def test_the_shipped_rulesets_win_checks_run_uncounted_on_the_fast_paths() -> None:
    for spec in RULESETS:
        rules = load_ruleset(spec)
        assert not rules.counts_wins and rules.win_cost < 10_000, (spec, rules.win_cost)


def test_a_move_whose_win_checks_spend_the_budget_is_refused_and_the_game_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from interpreter.rules import sections

    spec = _micro_with_costly_goal(tmp_path)
    free = load_ruleset(spec, fresh=True)
    # a budget that just holds what a move is known to do at load (list a decision, one win check)
    budget = free.move_floor
    monkeypatch.setattr(sections, "MAX_STEP_COST", budget)
    monkeypatch.setattr(machine, "MAX_STEP_COST", budget)
    rules = load_ruleset(spec, fresh=True)
    assert rules.counts_wins and rules.win_cost == free.win_cost
    game = Game.new(rules, 2)
    before = game.state.key()
    move = next(m for m in game.legal_moves() if m.verb == "points")
    with pytest.raises(RuleRuntimeError, match="MAX_STEP_COST; the last: checking whether a player reached the goal"):
        game.play(move)  # its effect's win check and the end of the turn's: twice what the budget pays for
    assert game.state.key() == before and not game.moves
    monkeypatch.setattr(machine, "MAX_STEP_COST", budget * 4)  # four moves' worth: the game goes on
    game.play(move)
    assert game.moves and game.state.spent[1] % rules.win_cost == 0 and game.state.spent[1] >= 4 * rules.win_cost


def test_a_cost_counts_every_amount_it_repeats_and_prices_each() -> None:
    """The load-time count (language/cost.py): work repeated N times (a `for each`, a `where`) repeats each
    of its parts — cards visited, and the evaluations of end.score, end.goal and a card's listing it makes —
    and a cost is priced with each amount once the ruleset's are known."""
    from interpreter.language.cost import Cost

    loop = Cost(2, score=1, goal=3, plays=5).times(52)
    assert (loop.base, loop.score, loop.goal, loop.plays) == (104, 52, 156, 260)
    both = loop + Cost(1, score=1, goal=1, plays=1)
    assert (both.base, both.score, both.goal, both.plays) == (105, 53, 157, 261)
    assert both.value(score=10, goal=100, plays=1000) == 105 + 530 + 15_700 + 261_000
    assert Cost(Cost.CAP * 10).times(Cost.CAP).base == Cost.CAP  # capped, however deep the nesting


def test_a_goal_asked_inside_a_loop_is_priced_once_per_turn_of_the_loop(tmp_path: Path) -> None:
    """`goal(me)` costs what end.goal costs: asked once per card of a loop, the loop's count multiplies
    it. A goal within MAX_COST, asked once by a play, loads; asked for each card of the deck, the play's
    effect is refused at load, naming it and the limit, never run."""
    deep = (
        "count(deck where a: count(deck where b: count(deck where c: "
        "count(deck where d: a.value == d.value) > 0) > 0) > 0)"
    )
    goal = f"end:\n  goal: |\n    21 + {deep} * 0\n"
    once = _house(tmp_path, goal + _points_effect("if goal(me) > 100 then draw 1 end"), "once.yaml")
    assert check(once) == []
    looped = _house(
        tmp_path,
        goal + _points_effect("for each x in deck do\n  if goal(me) > 100 then draw 1 end\nend"),
        "looped.yaml",
    )
    text = _refused(looped, "plays.points.effect", "MAX_COST", "[E215]")
    assert "end.goal" not in text.splitlines()[0]  # the goal alone is within the limits: the loop is refused
