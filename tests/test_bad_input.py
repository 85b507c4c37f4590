"""Bad input of every kind gets one of our own errors, never a traceback: seeded random garbage
as move text, and random damage to shipped ruleset and scenario files."""

from __future__ import annotations

import random
import string
from collections import Counter
from pathlib import Path

import pytest

from interpreter import Game, MoveError, RulesetError, RulesetErrors, load_ruleset
from interpreter.rules import Rules, compose
from interpreter.scripting.scenario import run_file

from .scenario_util import ROOT, SCENARIOS

TOKENS = [
    "draw",
    "pass",
    "points",
    "scuttle",
    "royal",
    "glasses",
    "jack",
    "oneoff",
    "counter",
    "resolve",
    "discard",
    "take",
    "scrap",
    "7H",
    "10S",
    "TS",
    "7♥",
    "RJ",
    "XX",
    "9",
    "",
    "  ",
    "\t",
    "é",
    "+",
    "(",
]


def _damage(lines: list[str], rnd: random.Random) -> list[str]:
    lines = list(lines)
    for _ in range(rnd.randint(1, 3)):
        j = rnd.randrange(len(lines))
        op, s = rnd.random(), lines[j]
        if op < 0.3:
            lines[j] = s[: rnd.randint(0, len(s))]
        elif op < 0.5:
            del lines[j]
        elif op < 0.7:
            lines.insert(j, rnd.choice(lines))
        else:
            k = rnd.randint(0, len(s))
            lines[j] = s[:k] + rnd.choice(":[]{}\"'-#&*!|>%@`0123456789AKQJ") + s[k:]
    return lines


def test_garbage_moves_are_move_errors_and_change_nothing() -> None:
    rnd = random.Random(1)
    game = Game.new(load_ruleset("default"), 1)
    before = game.state.key()
    for _ in range(1500):
        text = " ".join(rnd.choice(TOKENS) for _ in range(rnd.randint(0, 4)))
        if rnd.random() < 0.2:
            text = "".join(rnd.choice(string.printable) for _ in range(rnd.randint(0, 12)))
        try:
            game.parse_move(text)
        except MoveError:
            pass
        assert isinstance(game.explain(text), str)
    assert game.state.key() == before


@pytest.mark.slow
def test_damaged_rulesets_are_reported_not_raised(tmp_path: Path) -> None:
    """Each damaged copy of default.yaml either still loads, or is refused with errors that each name the
    file and a line of it and carry a code (no other exception, no error without a place)."""
    rnd = random.Random(2)
    lines = (ROOT / "rulesets" / "default.yaml").read_text(encoding="utf-8").splitlines()
    outcomes: Counter = Counter()
    for i in range(120):
        p = tmp_path / f"r{i}.yaml"
        damaged = _damage(lines, rnd)
        p.write_text("\n".join(damaged), encoding="utf-8")
        try:
            Rules(compose(str(p)))
            outcomes["loaded"] += 1
            continue
        except RulesetErrors as e:
            errors = e.errors
        except RulesetError as e:
            errors = [e]
        outcomes["refused"] += 1
        assert errors
        for err in errors:
            assert err.where is not None and err.where.file == str(p), f"r{i}: {err.render()}"
            assert 1 <= err.where.line <= max(len(damaged), 1) and err.code[0] == "E", f"r{i}: {err.render()}"
    assert outcomes["refused"] >= 60 and outcomes["loaded"] >= 1, outcomes  # the damage was real, and varied


@pytest.mark.slow
def test_damaged_scenarios_fail_with_a_message_not_an_internal_error(tmp_path: Path) -> None:
    rnd = random.Random(3)
    files = sorted(SCENARIOS.glob("*/*.yaml"))
    refused = 0
    for i in range(150):
        p = tmp_path / f"s{i}.yaml"
        p.write_text(
            "\n".join(_damage(rnd.choice(files).read_text(encoding="utf-8").splitlines(), rnd)), encoding="utf-8"
        )
        result = run_file(p)
        assert not any("internal error" in f for f in result.failures), result.failures
        # every failure says where: a line of the file (a note under it is indented)
        assert all(f.startswith(f"{p}:") or f.startswith("    ") for f in result.failures), result.failures
        refused += not result.ok
    assert refused >= 100  # the damage was real
