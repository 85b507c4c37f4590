"""The docs work as written: the tutorial's commands run, the examples parse, every key is documented."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from interpreter.cli import build_parser, main
from interpreter.core.cards import parse_card
from interpreter.core.errors import RulesetError
from interpreter.language.parser import parse_expr, parse_program
from interpreter.language.printer import to_text
from interpreter.rules.page import schema_reference

from .scenario_util import claim

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TUTORIAL = DOCS / "house-rules.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(path: Path, lang: str) -> list[str]:
    return [body for kind, body in FENCE.findall(path.read_text(encoding="utf-8")) if kind == lang]


def console_steps(path: Path) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every `$ ` line of the ```console blocks."""
    steps: list[tuple[str, list[str]]] = []
    for body in blocks(path, "console"):
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:].strip(), []))
            elif steps and line.strip():
                steps[-1][1].append(line)
    return steps


STEPS = console_steps(TUTORIAL)
# the tutorial's scenario file is run (and must pass) by its `cuttle run` step
claim([ROOT / "examples" / "house" / "ace-opponent-only.test.yaml"], by=__name__)
RUNNABLE = [(cmd, out) for cmd, out in STEPS if not cmd.startswith("cuttle play")]


def test_the_tutorial_has_every_step() -> None:
    verbs = [shlex.split(cmd)[1] for cmd, _ in STEPS]
    for verb in ("check", "rules", "diff", "run", "play"):
        assert verb in verbs, f"the tutorial never runs `cuttle {verb}`"


@pytest.mark.parametrize("cmd,expected", RUNNABLE, ids=[c for c, _ in RUNNABLE])
def test_tutorial_command_works_as_written(
    cmd: str, expected: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(cmd)
    assert argv[0] == "cuttle"
    code = main(argv[1:])
    out = capsys.readouterr()
    assert code == 0, f"`{cmd}` exited {code}:\n{out.out}\n{out.err}"
    for line in expected:
        if line.strip() == "...":
            continue
        assert line.rstrip() in out.out, f"`{cmd}` did not print {line!r}; it printed:\n{out.out}"


def test_the_play_command_of_the_tutorial_parses(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cuttle play` is interactive: check only that its arguments are accepted and its ruleset loads."""
    monkeypatch.chdir(ROOT)
    from interpreter.rules import load_ruleset

    plays = [cmd for cmd, _ in STEPS if cmd.startswith("cuttle play")]
    assert plays
    for cmd in plays:
        args = build_parser().parse_args(shlex.split(cmd)[1:])
        assert load_ruleset(args.ruleset).name


def test_the_tutorial_files_are_the_ones_shown() -> None:
    shown = blocks(TUTORIAL, "yaml")
    ruleset = (ROOT / "examples" / "house" / "ace-opponent-only.yaml").read_text(encoding="utf-8")
    scenario = (ROOT / "examples" / "house" / "ace-opponent-only.test.yaml").read_text(encoding="utf-8")
    assert ruleset in shown, "docs/house-rules.md shows a different examples/house/ace-opponent-only.yaml"
    assert scenario in shown, "docs/house-rules.md shows a different examples/house/ace-opponent-only.test.yaml"


def test_the_default_ace_shown_in_the_tutorial_is_the_real_one() -> None:
    default = (ROOT / "rulesets" / "default.yaml").read_text(encoding="utf-8")
    ace = next(b for b in blocks(TUTORIAL, "yaml") if b.startswith("  ace:"))
    assert ace in default


def test_the_scenario_fails_under_the_default_rules(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["run", "--ruleset", "default", "examples/house/ace-opponent-only.test.yaml"]) == 1
    assert "FAIL" in capsys.readouterr().out


# -- effect-language.md ------------------------------------------------------------------------

EFFECT_BLOCKS = blocks(DOCS / "effect-language.md", "effect")


def _parse_either(src: str):
    try:
        return parse_program(src), parse_program
    except RulesetError:
        return parse_expr(src), parse_expr


@pytest.mark.parametrize("src", EFFECT_BLOCKS)
def test_every_effect_example_parses_and_prints_back(src: str) -> None:
    tree, parse = _parse_either(src)
    assert parse(to_text(tree)) == tree


HOUSE_BLOCKS = [b for b in blocks(DOCS / "effect-language.md", "yaml") if b.lstrip().startswith("# A house rule")]


@pytest.mark.parametrize("block", HOUSE_BLOCKS, ids=[b.split("name: ")[1].split()[0] for b in HOUSE_BLOCKS])
def test_the_house_rules_shown_in_the_effect_language_doc_are_the_example_files(block: str) -> None:
    """Each is examples/house/NAME.yaml as it stands (its scenario, NAME.test.yaml, is run by the test
    module of its concern and fails without the house rule)."""
    name = block.split("name: ")[1].split()[0]
    path = ROOT / "examples" / "house" / f"{name}.yaml"
    assert path.read_text(encoding="utf-8") == block, f"docs/effect-language.md shows a different {path.name}"
    assert (path.parent / f"{name}.test.yaml").exists()


def test_effect_language_doc_has_its_examples() -> None:
    assert len(EFFECT_BLOCKS) >= 10, "docs/effect-language.md lost its ```effect examples"
    assert len(HOUSE_BLOCKS) >= 2, "docs/effect-language.md lost its house-rule examples"


def test_every_effect_example_is_in_a_shipped_ruleset() -> None:
    shipped = " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in (ROOT / "rulesets").glob("*.yaml"))
    for src in EFFECT_BLOCKS:
        lines = [ln.strip() for ln in src.splitlines() if ln.strip()]
        if all(" ".join(ln.split()) in shipped for ln in lines):
            continue
        pytest.fail(f"this example of docs/effect-language.md is not in rulesets/: {src!r}")


def test_the_effect_language_doc_covers_the_grammar() -> None:
    from interpreter.language.compiler import CARD_ATTRS, PRIMITIVE_ARITY

    doc = (DOCS / "effect-language.md").read_text(encoding="utf-8")
    grammar = (ROOT / "interpreter" / "language" / "effect.lark").read_text(encoding="utf-8")
    keywords = set(re.findall(r'"([a-z]+)"', grammar))
    assert len(keywords) >= 15 and len(CARD_ATTRS) >= 5 and len(PRIMITIVE_ARITY) >= 3
    for word in sorted(keywords):
        assert re.search(rf"\b{word}\b", doc), f"the keyword '{word}' of effect.lark is not documented"
    for attr in CARD_ATTRS:
        assert f"`.{attr}`" in doc, f"the attribute .{attr} is not documented"
    for prim in PRIMITIVE_ARITY:
        assert f"`{prim}(" in doc, f"the primitive {prim}() is not documented"
    for name in ("me", "opponent", "card", "cards", "target", "it", "extra", "chosen"):
        assert f"`{name}`" in doc, f"the name {name} is not documented"
    for zone in ("deck", "scrap", "shown", "play", "hand of P", "field of P"):
        assert f"`{zone}`" in doc


# -- rulesets.md --------------------------------------------------------------------------------


def test_every_schema_key_is_documented() -> None:
    doc = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    rows = schema_reference().splitlines()[2:]
    assert len(rows) >= 20
    missing = [row.split("`")[1] for row in rows if row.split("`")[1] not in doc]
    assert not missing, (
        "docs/rulesets.md lacks " + ", ".join(missing) + "; regenerate its table with "
        'python -c "from interpreter.rules.page import schema_reference; print(schema_reference())"'
    )


def test_the_rulesets_doc_explains_composition() -> None:
    doc = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    for word in ("extends", "options", "requires", "conflicts", "+classic-2s", "kind: option"):
        assert word in doc


# -- scenarios.md -------------------------------------------------------------------------------

SCENARIO_EXAMPLE = blocks(DOCS / "scenarios.md", "yaml")[0]
TURN_STATE_CASE = ROOT / "examples" / "house" / "scuttle-quota-setup.test.yaml"
TURN_STATE_EXAMPLE = TURN_STATE_CASE.read_text(encoding="utf-8")
claim([TURN_STATE_CASE], by=__name__)
# the example of the first player and of cards in other roles (run by tests/test_face_down.py)
FACE_DOWN_EXAMPLE = (ROOT / "examples" / "house" / "vault-setup.test.yaml").read_text(encoding="utf-8")
# the example of a table of four: p3, p4 and the winning team (run with the teams scenarios)
SEATS_EXAMPLE = (ROOT / "tests" / "scenarios" / "teams" / "the-seats-of-a-scenario.yaml").read_text(encoding="utf-8")


def test_the_turn_state_example_is_shown_and_passes() -> None:
    from interpreter.scripting.scenario import run_file

    assert TURN_STATE_EXAMPLE in (DOCS / "scenarios.md").read_text(encoding="utf-8")
    result = run_file(TURN_STATE_CASE)
    assert result.ok, "\n".join(result.failures)


def test_the_face_down_example_is_shown() -> None:
    assert FACE_DOWN_EXAMPLE in (DOCS / "scenarios.md").read_text(encoding="utf-8")


def test_the_seats_example_is_shown() -> None:
    assert SEATS_EXAMPLE in (DOCS / "scenarios.md").read_text(encoding="utf-8")


def test_the_scenario_doc_example_passes(tmp_path: Path) -> None:
    from interpreter.scripting.scenario import run_file

    path = tmp_path / "example.yaml"
    path.write_text(SCENARIO_EXAMPLE, encoding="utf-8")
    result = run_file(path)
    assert result.ok, "the example of docs/scenarios.md fails:\n" + "\n".join(result.failures)


def test_the_scenario_doc_example_uses_every_key_the_runner_accepts() -> None:
    import yaml

    from interpreter.scripting import setup
    from interpreter.scripting.expectations import DECISIONS, EXPECT_KEYS, SIDE_EXPECT
    from interpreter.scripting.scenario import TOP_KEYS

    doc = yaml.safe_load(SCENARIO_EXAMPLE)
    # the keys of turn state, marks and counters have their own example (a ruleset with counters), and so
    # have the first player and the cards in other roles (a ruleset with a vault)
    more = yaml.safe_load(TURN_STATE_EXAMPLE)
    vault = yaml.safe_load(FACE_DOWN_EXAMPLE)
    seats = yaml.safe_load(SEATS_EXAMPLE)
    steps = [s for s in doc["moves"] if isinstance(s, dict)]
    vault_sides = [vault["setup"]["p1"], vault["setup"]["p2"]]
    vault_expect = [vault["expect"]["p1"], vault["expect"]["p2"], *vault["moves"][0]["expect"].values()]
    shown = {
        "the file": (set(doc), set(TOP_KEYS)),
        "setup": (
            set(doc["setup"]) | set(more["setup"]) | set(vault["setup"]) | set(seats["setup"]),
            set(setup.SETUP_KEYS),
        ),
        "setup.p1/p2": (
            set(doc["setup"]["p1"])
            | set(doc["setup"]["p2"])
            | set(more["setup"]["p1"])
            | {*vault_sides[0], *vault_sides[1]},
            set(setup.SIDE_KEYS),
        ),
        "a step": ({k for s in steps for k in s}, {"move", "expect", "illegal", "error", "by"}),
        "expect": (set(doc["expect"]) | set(more["expect"]) | set(seats["expect"]), set(EXPECT_KEYS)),
        "expect.p1/p2": (
            set(doc["expect"]["p1"])
            | set(doc["expect"]["p2"])
            | set(more["expect"]["p1"])
            | {k for e in vault_expect for k in e},
            set(SIDE_EXPECT),
        ),
    }
    for where, (documented, accepted) in shown.items():
        assert documented == accepted, (
            f"docs/scenarios.md: {where} shows {sorted(documented - accepted)} that the "
            f"runner does not accept and lacks {sorted(accepted - documented)}"
        )
    text = (DOCS / "scenarios.md").read_text(encoding="utf-8")
    for value in setup.UNPLACED:
        assert f"`unplaced: {value}`" in text, f"docs/scenarios.md does not explain unplaced: {value}"
    for value in DECISIONS:
        assert value in doc_comment(SCENARIO_EXAMPLE, "decision:"), f"the decision '{value}' is not documented"


def doc_comment(block: str, key: str) -> str:
    """The comment of the line holding `key` and of the comment lines that continue it."""
    lines = block.splitlines()
    i = next(n for n, ln in enumerate(lines) if ln.strip().startswith(key))
    out = [lines[i].split("#", 1)[1]]
    for ln in lines[i + 1 :]:
        if not ln.strip().startswith("#"):
            break
        out.append(ln.strip()[1:])
    return " ".join(out)


# -- notation.md --------------------------------------------------------------------------------


def test_the_notation_doc_card_forms_parse() -> None:
    doc = (DOCS / "notation.md").read_text(encoding="utf-8")
    for form in ("7H", "10S", "TS", "7♥", "RJ", "BJ", "qs", "ts", "10♠"):
        assert f"`{form}`" in doc, f"docs/notation.md does not show the card form `{form}`"
        parse_card(form)
    assert parse_card("TS") == parse_card("10S") == parse_card("10♠")


def test_the_notation_doc_names_every_verb_of_the_default_ruleset() -> None:
    from interpreter.rules import load_ruleset

    doc = (DOCS / "notation.md").read_text(encoding="utf-8")
    for verb in load_ruleset("default").verbs:
        assert f"`{verb}" in doc, f"the verb {verb} is not in docs/notation.md"
