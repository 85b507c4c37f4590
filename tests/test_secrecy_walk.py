"""A generic secrecy walk over every key of the ruleset schema's `visibility` section: each key in
turn is made to grant something to p1 only (`me == p1`, joined to the base rule with `or`), and
seeded games are played under both rulesets, move for move. p2's view must be exactly its view
under the base rules all game long (the rule gives p2 nothing), and p1's must show more at some
point (the rule gives p1 something). A key evaluated for the wrong player, or not at all, fails."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.rules.schema import RULESET

BASE = "default"
KEYS = sorted(RULESET["visibility"][0])


def _house(tmp_path: Path, key: str) -> str:
    base = load_ruleset(BASE)
    has_base_rule = key in (base.data.get("visibility") or {})
    value = '{or: "me == p1"}' if has_base_rule else '"me == p1"'
    path = tmp_path / f"sees-{key.replace('_', '-')}.yaml"
    path.write_text(f"name: sees-{key}\nextends: {BASE}\nvisibility:\n  {key}: {value}\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("key", KEYS)
def test_each_visibility_key_grants_what_it_says_to_whom_it_says(tmp_path: Path, key: str) -> None:
    base, house = load_ruleset(BASE), load_ruleset(_house(tmp_path, key))
    more = 0
    for seed in range(3):
        a, b = Game.new(base, seed), Game.new(house, seed)
        rnd = random.Random(seed)
        while a.outcome is None and len(a.moves) < 150:
            # (p2 is told what p1 knows of p2's cards: that changes with the rule, and is p1's)
            va, vb = a.view(1), b.view(1)
            others = tuple(dataclasses.replace(y, knows=x.knows) for x, y in zip(va.others, vb.others, strict=True))
            same = vb.replace(ruleset=va.ruleset, opponent_knows=va.opponent_knows, others=others)
            assert same == va, f"visibility.{key}: p2 sees what the rule grants p1 only"
            assert set(vb.opponent_knows.hand) >= set(va.opponent_knows.hand)
            more += a.view(0) != b.view(0).replace(ruleset=a.view(0).ruleset)
            legal = a.legal_moves()
            assert [str(m) for m in legal] == [str(m) for m in b.legal_moves()]
            m = legal[rnd.randrange(len(legal))]
            a.play(m)
            b.play(str(m))
    assert more > 0, f"visibility.{key}: p1 never saw more with the rule"
