"""The code generator cannot be escaped: nothing written in a ruleset ever becomes Python source.

Hostile values in every place a value can come from (mark names, roles, verbs, constants, definition
names and parameters, let names, choice verbs, card and rank literals, strings, YAML keys) either
load and play, or are refused with a RulesetError; none runs code (a sentinel file that executed
code would create stays absent). Every generated function is checked: only allow-listed names,
only small literals, no builtins. A Hypothesis property does the same for generated programs.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import CuttleError, load_ruleset
from interpreter.core.errors import RulesetError, RulesetErrors
from interpreter.engine import generated
from interpreter.lab.bench import playout
from interpreter.language.allowlist import ATTR_NAMES, GLOBAL_NAMES, UnsafeCode, check_code, check_tree
from interpreter.language.compiler import EXEC, Compiler, Context
from interpreter.language.parser import parse_program

from .scenario_util import house_file

SENTINEL = "SENTINEL_RAN"

# Text that would run code if it ever reached Python source: quotes that close a literal, format
# fields, newlines at module level, backslashes, dunders and builtins.
PAYLOADS = [
    "'); open('<s>', 'w'); ('",
    '"); open("<s>", "w"); ("',
    "{open('<s>','w')}",
    "{0.__class__}{1!r}{}",
    "}",
    "{",
    "\\\\n__import__('os').system('touch <s>')\\\\n",
    "x'''\"\"\"",
    "é€😀\u202e",
    "__import__",
]
# Names where the grammar allows only identifiers: dunders, Python keywords and builtins, and the
# names the generator itself uses (none of them may collide with anything).
NAMES = ["__class__", "__import__", "__builtins__", "import", "lambda", "None", "open", "len", "g", "e", "K0", "_l1"]


def _write(tmp_path: Path, body: str) -> Path:
    return house_file(tmp_path, body)


def _cases(sentinel: str) -> list[str]:
    """Ruleset bodies, each putting hostile text in one place."""
    out = []
    for raw in PAYLOADS:
        text = raw.replace("<s>", sentinel).replace('"', "'")  # an effect string cannot hold a double quote
        yq = raw.replace("<s>", sentinel).replace("\\", "\\\\").replace('"', '\\"')  # as a YAML "..." value
        out += [
            # a string literal inside an effect, compared with a role, a rank, a name
            f'plays:\n  points:\n    effect: "scrap hand of me where it.role == \\"{text}\\"; '
            f'move card to field of me as point"\n',
            f'plays:\n  points:\n    legal: "card.role != \\"{text}\\" and not marked(card, \\"{text}\\")"\n',
            f'end:\n  goal: "21 + count(field of me where marked(it, \\"{text}\\"))"\n',
            f'plays:\n  points:\n    legal: "card.rank != \\"{text}\\""\n',  # refused: not a rank
            # YAML keys and plain values: names of plays, kinds, constants, the ruleset's own text
            f'description: "{yq}"\nplays:\n  "{yq}":\n    verb: special\n    ranks: [A]\n    text: "{yq}"\n'
            f'    effect: "move card to field of me as point"\nkinds:\n  "{yq}":\n    counterable: true\n'
            f'constants:\n  "{yq}": 1\n',
            f'define:\n  "{yq}": 1\n',
        ]
    for name in NAMES:
        out += [  # every name a program binds or introduces, in one effect
            f"plays:\n  points:\n    effect: |\n      mark card as {name} for 1 turns\n"
            f"      let {name} = count(hand of me) + 1\n"
            f"      for each {name} in hand of opponent do mark {name} as x for 1 turns end\n"
            f"      choose 1 from hand of me by me as {name}\n      scrap {name}\n"
            f"      move card to field of me as {name}\n  {name}:\n    verb: {name.lower().strip('_') or 'x'}\n"
            f"    ranks: [2]\n    effect: move card to field of me as point\n",
            f"define:\n  {name}({name}): count({name}) > 0\nconstants:\n  {name}: [1, 2]\n"
            f"plays:\n  points:\n    legal: {name}(hand of me)\n",
        ]
    return out


def generated_functions(rules: Any) -> list[Any]:
    """Every function the compiler made for a ruleset."""
    fns: list[Any] = [v for k, v in rules.ctx.namespace.items() if k.startswith("D") and callable(v)]

    def add(x: Any) -> None:
        if callable(x) and hasattr(x, "__code__"):
            fns.append(x)
        elif isinstance(x, tuple):
            for y in x:
                add(y)

    for p in rules.plays:
        add((p.legal, p.target, p.program, p.countered, p.counterable))
    for r in rules.responses:
        add((r.legal, r.program, r.counterable))
    for k in rules.kinds.values():
        add(tuple(k.values()))
    add((rules.score_fn, rules.goal_fn, rules.visible_fn, rules.playable_fn, rules.turn_end))
    # (a field written `true` is a plain lambda of the builder, not generated code)
    return [f for f in fns if f.__globals__ is rules.ctx.namespace]


def assert_confined(fn: Any) -> None:
    """A generated function: allow-listed names and small literals only, and no builtins at all."""
    check_code(fn.__code__)
    assert fn.__globals__["__builtins__"] == {}
    assert set(fn.__code__.co_names) <= GLOBAL_NAMES | ATTR_NAMES | {n for n in fn.__globals__ if n[:1] in "KD"}


@pytest.mark.slow
def test_hostile_values_in_every_place_load_and_play_or_are_refused(tmp_path: Path) -> None:
    sentinel = tmp_path / SENTINEL
    loaded = refused = 0
    for i, body in enumerate(_cases(str(sentinel))):
        path = _write(tmp_path, body)
        try:
            rules = load_ruleset(str(path))
        except (RulesetError, RulesetErrors):
            refused += 1
            continue
        loaded += 1
        for fn in generated_functions(rules):
            assert_confined(fn)
        try:
            playout(rules, i, random.Random(i))
        except CuttleError:
            pass  # a rule that fails at run time is the project's error
        assert not sentinel.exists(), body
    assert loaded > 40 and refused > 10  # both outcomes are exercised


def test_the_payloads_would_run_if_they_reached_python_source(tmp_path: Path) -> None:
    # the control experiment: the first payload, formatted into source the way the old generator did,
    # creates the sentinel; so its absence above means the generator never did that
    sentinel = tmp_path / SENTINEL
    exec(f"x = ('{PAYLOADS[0].replace('<s>', str(sentinel))}')", {})  # noqa: S102
    assert sentinel.exists()


def test_a_generator_that_let_text_into_the_code_would_be_stopped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # break the generator on purpose: strings as literals in the code; the allow-list refuses it
    real = Compiler.const
    monkeypatch.setattr(Compiler, "const", lambda self, v: ast.Constant(v) if isinstance(v, str) else real(self, v))
    with pytest.raises((RulesetError, RulesetErrors), match="unsafe code"):
        load_ruleset(str(_write(tmp_path, "description: fresh\n")))


def test_a_brace_in_a_string_is_just_text(tmp_path: Path) -> None:
    # the honest ruleset that crashed the old generator with a raw KeyError
    path = _write(
        tmp_path,
        "plays:\n  points:\n    effect: |\n      mark hand of me as x for 1 turns\n"
        '      scrap hand of me where it.role == "}"\n      move card to field of me as point\n',
    )
    rules = load_ruleset(str(path))
    assert playout(rules, 1, random.Random(1)) > 0


def test_the_generated_code_has_no_builtins_and_no_path_to_them() -> None:
    rules = load_ruleset("default")
    ns = rules.ctx.namespace
    assert ns["__builtins__"] == {}
    for fn in generated_functions(rules):
        assert_confined(fn)
        assert not any("__" in n for n in fn.__code__.co_names + fn.__code__.co_varnames)


def _fn(src: str) -> ast.Module:
    return ast.parse(src)


@pytest.mark.parametrize(
    "src",
    [
        "def f(g, e):\n    return g.__class__",  # a dunder attribute
        "def f(g, e):\n    return e.__class__",
        "def f(g, e):\n    return len.__self__",  # an attribute of anything but the state
        "def f(g, e):\n    return g.rules.ctx",  # an attribute outside the allow-list
        "def f(g, e):\n    return 'text'",  # a string literal
        "def f(g, e):\n    return 10 ** 100",  # a huge literal
        "def f(g, e):\n    return open",  # a name outside the allow-list
        "def f(g, e):\n    return __builtins__",
        "def f(g, e):\n    import os",  # statements the generator never makes
        "def f(g, e):\n    return lambda: 0",
        "def f(g, e):\n    global x",
        "def f(g, e):\n    g = 1",
        "def f(g, e):\n    g.zones = 1",
        "def f(g, e, x=print):\n    return 0",
        "@len\ndef f(g, e):\n    return 0",
        "def __init__(g, e):\n    return 0",
        "x = 1",
    ],
)
def test_the_allow_list_refuses_anything_else(src: str) -> None:
    ns = {"__builtins__": {}, "len": len, "K0": "x"}
    with pytest.raises(UnsafeCode):
        check_tree(_fn(src), ns)


def test_the_allow_list_accepts_what_the_generator_makes() -> None:
    ns = {"__builtins__": {}, "len": len, "K0": "x", "_cards": list}
    check_tree(_fn("def f(g, e):\n    _l1 = e.get(K0)\n    return len(_cards(g.zones[0 + _l1])) > 0"), ns)


# -- a property: programs generated from the grammar's constructs ---------------------------------

_WORDS = [
    "me",
    "opponent",
    "card",
    "cards",
    "target",
    "it",
    "x",
    "hand_limit",
    "goals",
    "Q",
    "K",
    "point",
    "royal",
    "jack",
    "none",
    "random",
    "true",
] + NAMES
_names = st.sampled_from(_WORDS)
_strings = st.text(st.characters(blacklist_characters='"\n\r', blacklist_categories=("Cs",)), max_size=6).map(
    lambda s: f'"{s}"'
)
_numbers = st.integers(0, 10**6).map(str)
_zones = st.sampled_from(["deck", "scrap", "shown", "play", "hand of me", "field of opponent", "hand of other(me)"])
_ops = st.sampled_from(["+", "-", "*", "/", "==", "!=", "<", ">=", "and", "or", "in", "not in", "where"])
_funcs = st.sampled_from(
    [
        "count",
        "total",
        "any",
        "first",
        "top",
        "same_rank",
        "min",
        "max",
        "score",
        "goal",
        "can_play",
        "other",
        "marked",
        "queens",
        "beats",
        "protected",
    ]
)
_attrs = st.sampled_from(
    ["rank", "suit", "value", "role", "owner", "controller", "host", "jacks", "top", "attached", "name"]
)
_exprs = st.recursive(
    st.one_of(_names, _strings, _numbers, _zones),
    lambda e: st.one_of(
        st.tuples(e, _ops, e).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        e.map(lambda x: f"not ({x})"),
        e.map(lambda x: f"-({x})"),
        st.tuples(_funcs, st.lists(e, min_size=1, max_size=2)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(e, _attrs).map(lambda t: f"({t[0]}).{t[1]}"),
        st.tuples(e, e).map(lambda t: f"({t[0]})[{t[1]}]"),
        st.tuples(e, _names, e).map(lambda t: f"({t[0]} where {t[1]}: {t[2]})"),
        st.lists(e, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
    ),
    max_leaves=10,
)
_simple = st.one_of(
    _exprs.map(lambda x: f"scrap {x}"),
    st.tuples(
        _exprs,
        st.sampled_from(
            [
                "deck top",
                "deck bottom",
                "scrap",
                "shown",
                "hand of me",
                "field of me as point",
                "field of opponent as __class__",
            ]
        ),
    ).map(lambda t: f"move {t[0]} to {t[1]}"),
    _exprs.map(lambda x: f"draw {x}"),
    _exprs.map(lambda x: f"reveal {x}"),
    st.tuples(_exprs, _exprs).map(lambda t: f"set ({t[0]}).value to {t[1]}"),
    st.tuples(_exprs, _exprs).map(lambda t: f"add {t[0]} to ({t[1]}).value"),
    st.tuples(_exprs, _names, _exprs).map(lambda t: f"mark {t[0]} as {t[1]} for {t[2]} turns"),
    st.tuples(_names, _exprs).map(lambda t: f"let {t[0]} = {t[1]}"),
    _exprs.map(lambda x: f"win {x}"),
    _exprs.map(lambda x: f"shuffle {x} into deck"),
    st.tuples(_exprs, _exprs).map(lambda t: f"attach {t[0]} to {t[1]} as jack"),
    st.just("swap hand of me with hand of opponent"),
    st.just("pass"),
    st.just("nothing"),
)
_stmts = st.recursive(
    _simple,
    lambda s: st.one_of(
        st.tuples(_exprs, s, s).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]} end"),
        st.tuples(_names, _exprs, s).map(lambda t: f"for each {t[0]} in {t[1]} do {t[2]} end"),
        st.tuples(_exprs, _exprs, _exprs, _names).map(lambda t: f"choose {t[0]} from {t[1]} by {t[2]} as {t[3]}"),
        st.tuples(_exprs, _exprs, _exprs, _names).map(lambda t: f"choose up to {t[0]} from {t[1]} by {t[2]} as {t[3]}"),
        st.tuples(_exprs, _exprs, _exprs, _names).map(
            lambda t: f"choose a number from {t[0]} to {t[1]} by {t[2]} as {t[3]}"
        ),
        st.tuples(_exprs).map(lambda t: f"play from {t[0]}"),
        st.tuples(_exprs, _names, s, s).map(lambda t: f"if {t[0]} agrees to {t[1]} then {t[2]} else {t[3]} end"),
    ),
    max_leaves=4,
)
_programs = st.lists(_stmts, min_size=1, max_size=4).map("\n".join)


def _fresh_context() -> Context:
    base = load_ruleset("default").ctx
    return Context(
        constants=dict(base.constants),
        defines=dict(base.defines),
        roles=set(base.roles),
        suit_rank=dict(base.suit_rank),
        values=dict(base.values),
        marks=set(base.marks),
        verbs=set(base.verbs),
        deck_size=base.deck_size,
        card_values=True,  # (`.value` then reads a card's own value, through a helper)
    )


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_programs)
def test_generated_programs_reference_only_the_allow_list(src: str) -> None:
    try:
        tree = parse_program(src)
    except RulesetError:
        return
    ctx = _fresh_context()
    try:
        prog = Compiler(ctx).program(tree, frozenset({"me", "opponent", "card", "cards", "target"}))
    except RulesetError:
        return
    fns = [x for ins in prog for x in ins[1:] if callable(x) and hasattr(x, "__code__")]
    assert all(f.__globals__ is ctx.namespace for f in fns)
    fns += [v for k, v in ctx.namespace.items() if k.startswith("D") and callable(v)]
    assert fns or all(ins[0] != EXEC for ins in prog)
    for fn in fns:
        assert_confined(fn)
    # every value from the text sits in the constants table, never in the code
    for k, v in ctx.namespace.items():
        if k.startswith("K"):
            assert isinstance(v, (str, int, tuple))


# -- the engine's own generated functions: templates filled (engine/templates.py, engine/generated.py) --


def test_a_template_filled_becomes_the_function_and_one_left_unfilled_is_refused() -> None:
    # the win check's template (templates.py `won`), with its score and goal as names of the namespace
    won = generated.define(generated.function("won", SCORE="S", GOAL="W", KEEP=[]), "won", {"S": 21, "W": 21}, "<test>")
    assert won(None, 0) is True
    lower = generated.define(
        generated.function("won", SCORE="S", GOAL="W", KEEP=[]), "won", {"S": 20, "W": 21}, "<test>"
    )
    assert lower(None, 0) is False
    with pytest.raises(generated.GeneratedCodeError, match="names 'GOAL'"):
        generated.define(generated.function("won", SCORE="S", KEEP=[]), "won", {"S": 21}, "<test>")
    # filled with the lab's note (wincheck.keep_points), it also writes (field version, points, goal)
    noted = generated.define(
        generated.function("won", SCORE="S", GOAL="W", KEEP=generated.body("keep")), "won", {"S": 20, "W": 21}, "<test>"
    )
    g = SimpleNamespace(fv=[7, 9], pg=[(-1, 0, 0), (-1, 0, 0)])
    assert noted(g, 1) is False and g.pg == [(-1, 0, 0), (9, 20, 21)]
    # a statement filled by statements, a name renamed, an integer given
    (loop,) = generated.body("halves", MID=3, LOW=generated.body("opp"), HIGH=[])
    assert ast.unparse(loop) == "if k < 3:\n    opp = 1 - me\nelse:\n    pass"
