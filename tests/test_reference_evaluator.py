"""The reference evaluator (interpreter/language/reference.py) against the compiled code: every
expression each shipped ruleset compiled, on states reached by seeded random play, gives the same
value both ways; and every construct has a meaning of its own that the reference reaches."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from interpreter import load_ruleset
from interpreter.core.cards import NAMES
from interpreter.core.errors import RuleRuntimeError, RulesetError, RulesetErrors
from interpreter.core.zones import HAND0, SCRAP
from interpreter.engine.machine import _ask, _choose, _choose_number, apply_action, deal, legal_actions
from interpreter.language import reference, tree
from interpreter.language.compiler import AGREED, ASK, CHOOSE, EXEC, JUMP, JUMP_IF_NOT, NUMBER, Compiler
from interpreter.language.node import Example
from interpreter.language.parser import parse_expr, parse_program
from interpreter.language.reference import Reference

from .rulesets_under_test import RULESETS


def test_every_construct_has_a_meaning_of_its_own_that_the_reference_reaches(monkeypatch) -> None:
    """Every expression of the table of constructs defines `evaluate` and every statement `execute`
    (not node.py's default), and `Reference.ev` / `Reference.run` hand each node to that method."""
    ref = Reference(load_ruleset("default").ctx)
    seen: list = []

    def reached(node, r, g, env, bound) -> str:
        seen.append((type(node), r))
        return "reached"

    for cls in tree.CONSTRUCTS:
        if issubclass(cls, tree.Expression):
            method = "evaluate"
        elif issubclass(cls, tree.Statement):
            method = "execute"
        else:
            assert cls in reference.PARTS, f"{cls.__name__} is neither an expression, a statement nor a part"
            continue
        assert method in vars(cls), f"{cls.__name__} has no {method} of its own"
        seen.clear()
        monkeypatch.setattr(cls, method, reached)
        node = object.__new__(cls)  # (the fields are not read: only where the dispatch goes)
        if method == "evaluate":
            assert ref.ev(node, None, {}, frozenset()) == "reached"
        else:
            ref.run((node,), None, {}, set())
        assert seen == [(cls, ref)], f"the reference's dispatch does not reach {cls.__name__}.{method}"


def _norm(v):
    """A value to compare: cards as cards; a truth as the number it counts for (true is 1), since a
    condition is a number wherever a number is needed and nothing tells them apart there: an `if` of a
    number and a condition (`2 if C else any(S)`) gives the compiled code's number or the reference's
    truth, the same value."""
    if isinstance(v, (list, tuple)):
        return ("cards", tuple(_norm(x) for x in v))
    if isinstance(v, int):
        return ("int", int(v))
    return ("other", v)


def _env(g, rnd: random.Random, bound: frozenset[str]) -> dict:
    me = g.turn
    env: dict = {"me": me, "opponent": 1 - me}
    live = [c for z in g.zones for c in z]
    for name in bound - {"me", "opponent"}:
        if name in ("card", "target", "it"):
            env[name] = rnd.choice(live) if live else -1
        elif name in ("answering", "countered"):  # the engine binds these to true or false
            env[name] = rnd.random() < 0.5
        else:
            env[name] = tuple(rnd.sample(live, min(len(live), rnd.randint(0, 3))))
    return env


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_compiled_expressions_agree_with_the_reference(name: str) -> None:
    rules = load_ruleset(name)
    ref = Reference(rules.ctx)
    rnd = random.Random(name)
    checked = 0
    for seed in range(2):
        g = deal(rules, seed)
        for _ in range(rnd.randint(5, 60)):
            if g.winner is not None:
                break
            real, g = g, g.copy()  # the evaluations run on a copy (a cache they fill stays out of the game)
            for fn, (node, bound) in list(rules.ctx.trees.items()):
                env = _env(g, rnd, frozenset(bound))
                before = g.key()
                try:
                    want = _norm(fn(g, dict(env)))
                except Exception as e:  # noqa: BLE001 - the reference must fail too
                    with pytest.raises(Exception):  # noqa: B017
                        ref.ev(node, g, dict(env), frozenset(bound) | {"me", "opponent"})
                    del e
                    continue
                got = _norm(ref.ev(node, g, dict(env), frozenset(bound) | {"me", "opponent"}))
                assert got == want, f"{name} seed {seed}: {node} gave {got}, compiled {want}"
                assert g.key() == before
                checked += 1
            g = real
            acts = legal_actions(g)
            if not acts:
                break
            apply_action(g, rnd.choice(acts))
    assert checked > 0


EDGE_EXPRESSIONS = [
    "count(hand of me) != 0",
    "count(field of opponent where it.rank == 9) == 0",
    "any(play where it.attached)",
    "count(play where it.attached and it.host == first(play))",
    "same_rank(hand of me where it.value > 99)",
    "same_rank(deck_top(3))",
    "(hand of me)[-1]",
    "(hand of me)[99]",
    "(scrap)[0]",
    "deck_top(0)",
    "deck_top(-2)",
    "deck_top(3)",
    "(deck)[0]",
    "goals[-1]",  # a constant list indexed in place (not through the run-time helper): clamped the same
    "goals[99]",
    "goals[count(hand of me) - 9]",
    "total(hand of me) - total(hand of opponent) * 2 / 3",
    "[first(hand of me), none] + hand of opponent",
    "other(me) == opponent",
    "score(me) >= goal(opponent)",
    "first(play).owner",
    "top(first(play where count(it.jacks) > 0))",
    "min(hand of me) + max(scrap)",  # of one list; 0 when it is empty (a call with a keyword was refused)
    "max(field of opponent where it.value > 99)",
]
EDGE_STATEMENTS = [
    "move deck_top(3) to deck bottom",
    "move hand of me to deck top",
    "move field of opponent to hand of me",
    "reveal 2",
    "reveal -1",
    "draw 0",
    "draw 2 for opponent",
    "for each c in hand of opponent do if c.rank == 7 then scrap c else move c to shown end end",
    "mark hand of me as stunned for 2 turns\nunmark first(hand of me) as stunned",
    "mark opponent as stunned",
    "swap hand of me with hand of opponent",
    "shuffle scrap into deck",
    "shuffle hand of opponent under deck",
    "show hand of me to opponent",
    "let kept = hand of me\ndraw 1\nscrap kept",
    "draw 1\nfor each c in hand of opponent do scrap c end",  # (`for each` is not draw's `for P`)
    "mark me as stunned\nfor each c in scrap do move c to shown end",
    "move first(hand of me) to field of me as point",
    "attach first(hand of opponent) to first(field of me) as jack",
    "pass",
    "nothing",
    "win opponent",
]


def _states(rules, n: int):
    rnd = random.Random(7)
    for seed in range(n):
        g = deal(rules, seed)
        for _ in range(rnd.randint(0, 40)):
            acts = legal_actions(g) if g.winner is None else []
            if not acts:
                break
            apply_action(g, rnd.choice(acts))
        yield g


def test_edge_expressions_and_statements_agree() -> None:
    rules = load_ruleset("default", fresh=True)
    ctx = rules.ctx
    ctx.marks.add("stunned")
    bound = frozenset({"me", "opponent"})
    exprs = [(parse_expr(t), t) for t in EDGE_EXPRESSIONS]
    fns = [(Compiler(ctx).expr(node, bound), node, t) for node, t in exprs]
    progs = [(Compiler(ctx).program(parse_program(t), bound), parse_program(t), t) for t in EDGE_STATEMENTS]
    for g in _states(rules, 12):
        env = {"me": g.turn, "opponent": 1 - g.turn}
        for fn, node, text in fns:
            assert _norm(Reference(ctx).ev(node, g.copy(), dict(env), bound)) == _norm(fn(g.copy(), dict(env))), text
        for prog, tree_, text in progs:
            assert all(ins[0] == EXEC for ins in prog)
            a, b = g.copy(), g.copy()
            for ins in prog:
                ins[1](a, dict(env))
            reference.execute(tree_, b, dict(env), ctx)
            assert a.key() == b.key(), text


# -- a property: well-typed expressions and statements generated from the constructs' own examples --
# Every construct class carries its examples (`EXAMPLES`: a form whose holes `{int}`, `{cards}`... stand
# for anything of that kind, language/node.py's `Example`). The strategies below are made from those
# examples alone, so a new construct is fuzzed from its examples, with no list here to extend: a form
# without holes is a leaf of its kind, and a form with holes is filled with text of each hole's kind
# from the level below. Each strategy makes text of one kind (cards, a card, a number, a truth, a
# player), so nearly every example compiles and reaches the compiler's special paths (a count compared
# with 0, an index, a deck_top, a card id 0, an empty set) with values at their edges.

_KINDS = ("player", "cards", "card", "int", "bool")
_OPERATORS = {
    "compare": ["==", "!=", "<", "<=", ">", ">="],
    "arith": ["+", "-", "*", "/"],
    "n": ["0", "1", "2"],
}


def _examples(kind: str) -> list[Example]:
    """The examples of that kind the fuzzing may generate, from every construct of the table."""
    return [ex for cls in tree.CONSTRUCTS for ex in cls.EXAMPLES if ex.kind == kind and ex.fuzz]


def _leaves(kind: str, names: frozenset[str]) -> list[str]:
    """The forms without holes of that kind, and, for a card, the cards bound: `card`, `target` and
    those of `names` (`it` inside a `where`, `x` inside a `where x:`)."""
    found = [ex.form for ex in _examples(kind) if not ex.holes()]
    return found + (["card", "target", *sorted(names)] if kind == "card" else [])


@functools.cache
def _typed(names: frozenset[str], depth: int) -> dict[str, st.SearchStrategy[str]]:
    """Strategies of effect text by kind, nested at most `depth` deep, with the cards `names` bound
    besides `card` and `target`. A level's forms with holes are filled from the level below."""
    out = {}
    for kind in _KINDS:
        options = [st.sampled_from(_leaves(kind, names))]
        if depth > 0:
            options += [_filled(ex, names, depth - 1) for ex in _examples(kind) if ex.holes()]
        out[kind] = st.one_of(*options)
    return out


def _hole(hole: str, names: frozenset[str], depth: int) -> st.SearchStrategy[str]:
    """Text for one hole of an example (a statement's `body` is filled by `_statements`)."""
    if hole in _OPERATORS:
        return st.sampled_from(_OPERATORS[hole])
    if hole == "dest":
        return st.one_of(*(_filled(ex, names, depth) for ex in _examples("dest")))
    if ":" in hole:  # `it:int`, `x:bool`: with the card `it` (or `x`) bound too
        card, kind = hole.split(":")
        return _typed(names | {card}, depth)[kind]
    return _typed(names, depth)[hole]


def _filled(ex: Example, names: frozenset[str], depth: int, body=None) -> st.SearchStrategy[str]:
    """An example's form with each hole filled (`body`: the strategy of a statement's nested statements)."""
    holes = [body if h == "body" else _hole(h, names, depth) for h in ex.holes()]
    return st.tuples(*holes).map(ex.fill) if holes else st.just(ex.form)


_OUT = _typed(frozenset(), 3)
_TYPED_EXPR = st.one_of(*_OUT.values())


@functools.cache
def _statements(depth: int) -> st.SearchStrategy[str]:
    """One to three statements, each made from a statement example (one with nested statements only
    when `depth` > 0), its expressions two levels deep."""
    body = _statements(depth - 1) if depth > 0 else None
    stmt = st.one_of(
        *(_filled(ex, frozenset(), 2, body) for ex in _examples("statement") if depth > 0 or "body" not in ex.holes())
    )
    return st.lists(stmt, min_size=1, max_size=3).map("\n".join)


_RULES_FOR_PROPERTY: dict = {}
# `card` is the first card id (the ace of clubs), `target` a Jack; a state where it is in play, the Jack on it
_CARD_ZERO_IN_PLAY = "move card to field of me as point\nattach target to card as jack"
_BOUND = frozenset({"me", "opponent", "card", "target"})


def _bindings(g) -> dict:
    return {"me": g.turn, "opponent": 1 - g.turn, "card": 0, "target": NAMES.index("JC")}


def _property_rules():
    """The default ruleset with a mark and two counters declared, and a few states of random play."""
    if not _RULES_FOR_PROPERTY:
        rules = load_ruleset("default", fresh=True)
        rules.ctx.marks.add("stunned")
        rules.ctx.counters.update({"tokens": "card", "debt": "player"})
        rules.ctx.card_values = True  # (`set X.value`: `.value` and `total` read a card's own value)
        rules.ctx.numbers.add("num")
        states = list(_states(rules, 8))
        for g in states[:3]:  # and the first card id at work: the ace of clubs in play, a Jack on it
            g = g.copy()
            reference.execute(parse_program(_CARD_ZERO_IN_PLAY), g, _bindings(g), rules.ctx)
            states.append(g)
        _RULES_FOR_PROPERTY["rules"] = rules
        _RULES_FOR_PROPERTY["states"] = states
    return _RULES_FOR_PROPERTY["rules"], _RULES_FOR_PROPERTY["states"]


def _compiled_or_none(make):
    try:
        return make()
    except (RulesetError, RulesetErrors):
        return None  # a text the compiler refuses (an ill-typed corner): nothing to compare


def _both(a, b):
    """Run `a()` and `b()`: their values, or their failures (the rules' own runtime error; a crash of
    the engine is never equal to anything, so it fails the comparison whichever side it is on)."""
    out = []
    for f in (a, b):
        try:
            out.append(("ok", f()))
        except RuleRuntimeError:
            out.append(("error", None))
        except (TypeError, ValueError, IndexError, KeyError) as e:  # a crash: never agreement
            out.append((f"crash {type(e).__name__}: {e}", id(f)))
    return out


_PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# (the edges where the two once differed or crashed, tried first on every run)
@_PROPERTY
@given(_TYPED_EXPR)
@example("goal(other((none).owner))")
@example("not (protected(none))")
@example("((none).rank == Q)")
@example("count([none, first(hand of me)])")
@example("(first(scrap where false)).name")
@example("any(play where (it).attached)")
@example("any(play where (first((it).jacks)).attached)")
@example("count(play where x: ((x).value > 3))")
@example("count(play where x: (count(play where ((it).value < (x).value)) > 0))")
@example("none in (([]) if false else [none])")  # (none is in no list: the compiled code read it so only here)
@example("total(play + hand of me, ((it).value * count(play where ((it).suit == 1))))")
@example("0 == ((hand_limit if false else true) + true)")  # (a condition beside a constant counts 1: it crashed)
def test_generated_expressions_agree_with_the_reference(text: str) -> None:

    rules, states = _property_rules()
    bound = _BOUND
    node = parse_expr(text)
    # compiled as usual (loops, tests in place), and plainly (one Python expression: the tests' control)
    for plain in (False, True):
        fn = _compiled_or_none(lambda plain=plain: Compiler(rules.ctx, plain=plain).expr(node, bound))
        if fn is None:
            return
        for g in states:
            env = _bindings(g)
            (ka, va), (kb, vb) = _both(
                lambda g=g, env=env, fn=fn: _norm(fn(g.copy(), dict(env))),
                lambda g=g, env=env: _norm(Reference(rules.ctx).ev(node, g.copy(), dict(env), bound)),
            )
            how = "plainly " if plain else ""
            assert (ka, va) == (kb, vb), f"{text}\n compiled {how}{ka} {va}\n reference {kb} {vb}"


def _run_compiled(prog: list, g, env: dict) -> None:
    """The compiled instructions in order, as the machine runs them (a generated program's choices and
    numbers are the generator's, drawn at once; a question is answered yes)."""
    pc = 0
    while pc < len(prog):
        ins = prog[pc]
        pc += 1
        if ins[0] == EXEC:
            ins[1](g, env)
        elif ins[0] == JUMP_IF_NOT:
            if not ins[1](g, env):
                pc = ins[2]
        elif ins[0] == JUMP:
            pc = ins[1]
        elif ins[0] == CHOOSE and ins[-1] == ASK:  # a question: a player answers yes (as `_yes` does)
            waiting = g.pending
            if _ask(g, ins, env):
                g.pending, env[AGREED] = waiting, True
        elif ins[0] == CHOOSE and ins[-1] == NUMBER:  # `choose a number ... by random`: drawn at once
            assert not _choose_number(g, ins, env)
        elif ins[0] == CHOOSE:  # `choose [up to] N from ... by random`, `choose order of ... by random`
            assert not _choose(g, ins, env)
        else:
            raise AssertionError(f"unexpected instruction {ins[0]}")


def _yes(*_question) -> bool:
    """The reference's `decide` for a question: yes (what `_run_compiled` answers)."""
    return True


@_PROPERTY
@given(_statements(depth=1))
@example("shuffle [none] into deck")
@example("scrap [first(hand of opponent), none]")
@example("mark (none).owner as stunned")
@example("let n = (none).rank\ndraw n")
@example("move (scrap)[0] to hand of me")
@example("if random agrees to keep then\ndraw 1\nelse\nscrap hand of me\nend")
@example("if (card).last_owner agrees to keep then\ndraw 1\nend")
@example("set (card).value to 8\nscrap card")
@example("move card to field of me as point\nadd 3 to (card).value\nset (target).value to total(play, (it).value)")
@example("choose a number from 3 to 9 by random as num\ndraw num")
@example("attach target to target as jack\nscrap (top(target))")  # (a card on itself: an internal ValueError)
@example("attach target to card as jack\nscrap top(card)")  # (on a card not in play: an internal IndexError)
@example("draw ((hand_limit + 0) if false else true)")  # (a condition counts 1 where a number of cards is needed)
@example("choose a number from (0 if false else true) to 1 by random as num\ndraw num")
@example("choose up to 2 from hand of me by random as pick\nmove pick to shown")
# (the reference's total() read the rank's value of a card whose value was set: a number drawn from a
# range up to it differed)
@example("set card.value to 0\nchoose a number from 0 to (total(deck)) by random as num\ndraw num")
def test_generated_statements_agree_with_the_reference(text: str) -> None:

    rules, states = _property_rules()
    bound = _BOUND
    program = parse_program(text)
    prog = _compiled_or_none(lambda: Compiler(rules.ctx).program(program, bound))
    if prog is None:
        return
    for g in states:
        env = _bindings(g)
        a, b = g.copy(), g.copy()
        (ka, _), (kb, _) = _both(
            lambda a=a, env=env: _run_compiled(prog, a, dict(env)),
            lambda b=b, env=env: reference.execute(program, b, dict(env), rules.ctx, _yes),
        )
        assert ka == kb and not ka.startswith("crash"), f"{text}\n compiled {ka}, reference {kb}"
        if ka == "ok":
            assert a.key() == b.key(), f"{text}\n left different states"
            assert (a.winner, a.passed) == (b.winner, b.passed), text


def test_none_is_in_no_list() -> None:
    # docs/effect-language.md: none in a list is left out (`[target, none]` is one card)
    rules = load_ruleset("default")
    g = deal(rules, 3)
    env = {"me": 0, "opponent": 1}
    for text in ("none in [none]", "none in ([] if false else [none])", "not (none not in [first(scrap where false)])"):
        node = parse_expr(text)
        assert Compiler(rules.ctx).expr(node, frozenset(env))(g.copy(), dict(env)) is False, text
        assert Reference(rules.ctx).ev(node, g.copy(), dict(env), frozenset(env)) is False, text


def test_where_x_inside_a_where_leaves_it_the_outer_card() -> None:
    """`where x:` names its card x and leaves `it` what it was: inside `S where ...`, `it` is still the
    outer card. The cards of a hand with no card of higher value in it are those of its highest value,
    both ways (compiled and in the reference), on states of random play."""
    rules = load_ruleset("default")
    text = "hand of me where count(hand of me where x: x.value > it.value) == 0"
    node = parse_expr(text)
    bound = frozenset({"me", "opponent"})
    fn = Compiler(rules.ctx).expr(node, bound)
    value = parse_expr("card.value")
    checked = 0
    for g in _states(rules, 12):
        env = {"me": g.turn, "opponent": 1 - g.turn}
        hand = g.zones[HAND0 + g.turn]
        worth = {c: Reference(rules.ctx).ev(value, g, {"card": c}, frozenset({"card"})) for c in hand}
        want = tuple(c for c in hand if worth[c] == max(worth.values()))
        assert tuple(fn(g.copy(), dict(env))) == want, text
        assert tuple(Reference(rules.ctx).ev(node, g.copy(), dict(env), bound)) == want, text
        checked += len(set(worth.values())) > 1
    assert checked  # (some hand held cards of different values: the bug would show)


def test_the_reference_asks_its_decider_to_choose_and_to_play() -> None:
    # (the lockstep above runs no choice of cards: here the reference's `choose` and `play from` alone)
    rules = load_ruleset("default", fresh=True)
    g = deal(rules, 3)
    hand = tuple(g.zones[HAND0])  # p1's
    asked: list[tuple] = []

    def decide(kind, who, verb, k=1, options=(), ordered=False, **kw):
        asked.append((kind, who, verb, k, tuple(options), ordered, kw))
        return tuple(options[-k:]) if kind == "choose" else ()

    env = {"me": 0, "opponent": 1}
    program = "choose 2 from hand of me by me as discard\nscrap discard\nplay from hand of me"
    reference.execute(parse_program(program), g, env, rules.ctx, decide)
    assert env["discard"] == env["chosen"] == hand[-2:]
    assert set(hand[-2:]) <= set(g.zones[SCRAP])
    assert asked == [("choose", 0, "discard", 2, hand, False, {}), ("play", 0, None, 1, hand[:-2], False, {})]
    # up to N: the decider is told so; more than there are: as many as there are; none: nobody is asked
    asked.clear()
    reference.execute(parse_program("choose up to 9 from hand of me by me as keep"), g, env, rules.ctx, decide)
    assert asked == [("choose", 0, "keep", len(hand) - 2, hand[:-2], False, {"upto": True})]
    asked.clear()
    reference.execute(parse_program("choose 0 from hand of me by me as none_"), g, env, rules.ctx, decide)
    assert asked == [] and env["none_"] == ()
