"""The reference evaluator (interpreter/language/reference.py) against the compiled code: every
expression each shipped ruleset compiled, on states reached by seeded random play, gives the same
value both ways; and every construct has a meaning of its own that the reference reaches."""

from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from interpreter import load_ruleset
from interpreter.core.cards import NAMES
from interpreter.core.errors import RuleRuntimeError, RulesetError, RulesetErrors
from interpreter.core.zones import HAND0, SCRAP
from interpreter.engine.machine import _ask, _choose_number, apply_action, deal, legal_actions
from interpreter.language import reference, tree
from interpreter.language.compiler import AGREED, ASK, CHOOSE, EXEC, JUMP, JUMP_IF_NOT, NUMBER, Compiler
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
    if isinstance(v, (list, tuple)):
        return ("cards", tuple(_norm(x) for x in v))
    if isinstance(v, bool):
        return ("bool", v)
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


# -- a property: well-typed expressions and statements generated from the grammar's constructs ------
# Each strategy makes text of one type (cards, a card, a number, a truth, a player), so nearly every
# example compiles and reaches the compiler's special paths (a count compared with 0, an index, a
# deck_top, a card id 0, an empty set) with values at their edges. Inside `where`, `it` is a card.


def _as_x(cond: str) -> str:
    """A condition on `it` written on `x` instead."""
    return re.sub(r"\bit\b", "x", cond)


@functools.cache
def _typed(it: bool, depth: int) -> dict[str, st.SearchStrategy[str]]:
    """Strategies of effect text by type, nested at most `depth` deep; `it` says whether `it` (a card)
    is bound. A level's compound forms are made of the level below (its leaves only, at depth 0)."""
    leaves = {
        "player": st.sampled_from(["me", "opponent", "p1", "p2", "first player", "second player"]),
        "cards": st.sampled_from(["deck", "scrap", "shown", "play", "hand of me", "field of opponent"]),
        "card": st.sampled_from(["none", "card", "target"] + (["it"] if it else [])),
        "int": st.sampled_from(["0", "1", "2", "3", "8", "13", "52", "99"]),
        "bool": st.sampled_from(["true", "false"]),
    }
    if depth == 0:
        return leaves
    d = _typed(it, depth - 1)
    inner = _typed(True, depth - 1)["bool"]  # the condition of a `where`, with `it` bound
    each = _typed(True, depth - 1)["int"]  # the number of `total(CARDS, EXPR)`, with `it` bound
    cmp = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
    return {
        "player": st.one_of(
            leaves["player"],
            d["player"].map(lambda p: f"other({p})"),
            d["card"].map(lambda c: f"({c}).owner"),
            d["card"].map(lambda c: f"({c}).controller"),
            d["card"].map(lambda c: f"({c}).last_owner"),
            d["card"].map(lambda c: f"({c}).last_controller"),
            st.tuples(d["player"], d["bool"], d["player"]).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        ),
        "cards": st.one_of(
            leaves["cards"],
            d["player"].map(lambda p: f"hand of {p}"),
            d["player"].map(lambda p: f"field of {p}"),
            st.tuples(d["cards"], inner).map(lambda t: f"({t[0]} where {t[1]})"),
            # `where x:` names the card x: the same condition with each `it` written x (a `where` inside
            # it then tests its own cards, `it`, against the outer card, x)
            st.tuples(d["cards"], inner).map(lambda t: f"({t[0]} where x: {_as_x(t[1])})"),
            d["int"].map(lambda n: f"deck_top({n})"),
            st.tuples(d["cards"], d["cards"]).map(lambda t: f"({t[0]} + {t[1]})"),
            st.lists(d["card"], max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
            d["card"].map(lambda c: f"({c}).jacks"),
            d["card"].map(lambda c: f"top({c})"),
            st.tuples(d["cards"], d["bool"], d["card"]).map(lambda t: f"({t[0]} if {t[1]} else [{t[2]}])"),
        ),
        "card": st.one_of(
            leaves["card"],
            d["cards"].map(lambda c: f"first({c})"),
            st.tuples(d["cards"], d["int"]).map(lambda t: f"({t[0]})[{t[1]}]"),
            st.tuples(d["cards"], d["int"]).map(lambda t: f"({t[0]})[-({t[1]})]"),
            d["card"].map(lambda c: f"({c}).host"),
        ),
        "int": st.one_of(
            leaves["int"],
            d["cards"].map(lambda c: f"count({c})"),
            d["cards"].map(lambda c: f"total({c})"),
            st.tuples(d["cards"], each).map(lambda t: f"total({t[0]}, {t[1]})"),
            d["cards"].map(lambda c: f"min({c})"),
            d["cards"].map(lambda c: f"max({c})"),
            d["player"].map(lambda p: f"score({p})"),
            d["player"].map(lambda p: f"goal({p})"),
            d["player"].map(lambda p: f"{p}.turns"),
            st.tuples(d["card"], st.sampled_from(["rank", "suit", "value"])).map(lambda t: f"({t[0]}).{t[1]}"),
            st.tuples(d["int"], st.sampled_from(["+", "-", "*", "/"]), d["int"]).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            d["int"].map(lambda n: f"-({n})"),
            d["int"].map(lambda n: f"(hand_limit + {n})"),
            d["int"].map(lambda n: f"goals[{n}]"),  # a constant list, indexed in place
            d["int"].map(lambda n: f"goals[-({n})]"),
            # a condition where a number is needed counts 1 or 0; `A if C else B`
            st.tuples(d["int"], d["bool"]).map(lambda t: f"({t[0]} * ({t[1]}))"),
            st.tuples(d["int"], d["bool"]).map(lambda t: f"({t[0]} + ({t[1]}))"),
            st.tuples(d["int"], d["int"], d["bool"]).map(lambda t: f"[{t[0]}, {t[1]}][{t[2]}]"),
            st.tuples(d["int"], d["bool"], d["bool"]).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        ),
        "bool": st.one_of(
            leaves["bool"],
            st.tuples(d["int"], cmp, d["int"]).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(d["cards"], cmp, st.sampled_from(["0", "1", "2"])).map(
                lambda t: f"(count({t[0]}) {t[1]} {t[2]})"
            ),
            st.tuples(st.sampled_from(["0", "1"]), cmp, d["cards"]).map(lambda t: f"({t[0]} {t[1]} count({t[2]}))"),
            d["cards"].map(lambda c: f"any({c})"),
            d["cards"].map(lambda c: f"same_rank({c})"),
            st.tuples(d["card"], d["cards"]).map(lambda t: f"({t[0]} in {t[1]})"),
            st.tuples(d["card"], d["cards"]).map(lambda t: f"({t[0]} not in {t[1]})"),
            st.tuples(d["card"], d["card"]).map(lambda t: f"({t[0]} == {t[1]})"),
            st.tuples(d["player"], d["player"]).map(lambda t: f"({t[0]} != {t[1]})"),
            d["card"].map(lambda c: f"({c}).attached"),
            d["card"].map(lambda c: f"({c}).face_down"),
            d["card"].map(lambda c: f'marked({c}, "stunned")'),
            d["card"].map(lambda c: f"(({c}).rank == Q)"),
            d["card"].map(lambda c: f"protected({c})"),
            st.tuples(d["card"], d["card"]).map(lambda t: f"beats({t[0]}, {t[1]})"),
            d["bool"].map(lambda b: f"not ({b})"),
            st.tuples(d["bool"], st.sampled_from(["and", "or"]), d["bool"]).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        ),
    }


_OUT = _typed(False, 3)
_TYPED_EXPR = st.one_of(*_OUT.values())


def _statements(depth: int) -> st.SearchStrategy[str]:
    t = _typed(False, 2)
    dests = st.one_of(
        st.sampled_from(["deck top", "deck bottom", "deck top reversed", "scrap", "shown"]),
        t["player"].map(lambda p: f"hand of {p}"),
        t["player"].map(lambda p: f"field of {p} as point"),
        t["player"].map(lambda p: f"field of {p} as point face down"),
        t["player"].map(lambda p: f"field of {p} as vault face down unseen"),
    )
    simple = [
        t["cards"].map(lambda c: f"scrap {c}"),
        st.tuples(t["cards"], dests).map(lambda x: f"move {x[0]} to {x[1]}"),
        t["int"].map(lambda n: f"draw {n}"),
        st.tuples(t["int"], t["player"]).map(lambda x: f"draw {x[0]} for {x[1]}"),
        t["int"].map(lambda n: f"reveal {n}"),
        t["cards"].map(lambda c: f"shuffle {c} into deck"),
        t["cards"].map(lambda c: f"shuffle {c} under deck"),
        st.tuples(t["player"], t["player"]).map(lambda x: f"swap hand of {x[0]} with field of {x[1]}"),
        st.tuples(t["cards"], t["int"]).map(lambda x: f"mark {x[0]} as stunned for {x[1]} turns"),
        t["player"].map(lambda p: f"mark {p} as stunned"),
        t["cards"].map(lambda c: f"unmark {c} as stunned"),
        st.tuples(t["card"], t["int"]).map(lambda x: f"set ({x[0]}).tokens to {x[1]}"),
        st.tuples(t["int"], t["card"]).map(lambda x: f"add {x[0]} to ({x[1]}).tokens"),
        st.tuples(t["int"], t["player"]).map(lambda x: f"add {x[0]} to {x[1]}.debt"),
        st.tuples(t["card"], t["int"]).map(lambda x: f"set ({x[0]}).value to {x[1]}"),
        st.tuples(t["card"], t["int"], t["int"]).map(lambda x: f"set ({x[0]}).value to {x[1]} for {x[2]} turns"),
        st.tuples(t["int"], t["card"]).map(lambda x: f"add {x[0]} to ({x[1]}).value"),
        st.tuples(t["int"], t["int"]).map(
            lambda x: f"choose a number from {x[0]} to {x[1]} by random as num\ndraw num"
        ),
        st.tuples(t["card"], t["card"]).map(lambda x: f"attach {x[0]} to {x[1]} as jack"),
        st.tuples(t["cards"], t["player"]).map(lambda x: f"show {x[0]} to {x[1]}"),
        t["cards"].map(lambda c: f"show {c} to all"),
        t["cards"].map(lambda c: f"turn up {c}"),
        t["player"].map(lambda p: f"win {p}"),
        st.tuples(t["player"], t["bool"]).map(lambda x: f"win ({x[0]} if {x[1]} else nobody)"),
        t["bool"].map(lambda b: f"draw {b}"),
        st.sampled_from(["pass", "nothing"]),
        t["cards"].map(lambda c: f"let kept = {c}\nscrap kept"),
        t["int"].map(lambda n: f"let n = {n}\ndraw n"),
    ]
    stmt = st.one_of(*simple)
    if depth > 0:
        body = _statements(depth - 1)
        stmt = st.one_of(
            stmt,
            st.tuples(t["bool"], body, body).map(lambda x: f"if {x[0]} then\n{x[1]}\nelse\n{x[2]}\nend"),
            st.tuples(t["bool"], t["bool"], body, body).map(
                lambda x: f"if {x[0]} then\n{x[2]}\nelse if {x[1]} then\n{x[3]}\nend"
            ),
            st.tuples(t["cards"], body).map(lambda x: f"for each c in {x[0]} do\nscrap c\n{x[1]}\nend"),
            # a question: a player's answer is yes (both sides' `decide`), random's drawn from the generator
            st.tuples(st.sampled_from(["random", "me", "second player", "(card).last_owner"]), body, body).map(
                lambda x: f"if {x[0]} agrees to keep then\n{x[1]}\nelse\n{x[2]}\nend"
            ),
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
@example("total(play + hand of me, ((it).value * count(play where ((it).suit == 1))))")
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
    """The compiled instructions in order (plain steps and jumps; a generated program has no choice)."""
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
