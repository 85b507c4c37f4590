"""A play of no card with a target (`cards: 0` and `target:`): docs/rulesets.md promises one move per
card of its target set (`dig 5H`), and an illegal one is explained by its target, not by a hand."""

from __future__ import annotations

from pathlib import Path

from .scenario_util import assert_passes, house_file

DIG = """
plays:
  dig:
    verb: dig
    cards: 0
    target: scrap where it.rank != "K"
    effect: move target to hand of me
"""


def _run(tmp_path: Path, body: str) -> None:
    house_file(tmp_path, DIG, "dig-house")
    p = tmp_path / "case.yaml"
    p.write_text("name: dig\nruleset: dig-house.yaml\n" + body, encoding="utf-8")
    assert_passes(p)


def test_one_move_per_target_and_the_target_moves(tmp_path: Path) -> None:
    _run(
        tmp_path,
        """setup:
  turn: p1
  p1: {hand: [10C]}
  scrap: [5H, KS, 9D]
moves:
  - expect: {legal_exactly: [dig 5H, dig 9D, draw, points 10C]}
  - dig 9D
expect:
  turn: p2
  p1: {hand: [10C, 9D]}
  scrap: [5H, KS]
""",
    )


def test_no_target_no_move(tmp_path: Path) -> None:
    _run(
        tmp_path,
        """setup:
  turn: p1
  p1: {hand: [10C]}
  scrap: [KS]
moves:
  - expect:
      legal_exactly: [draw, points 10C]
      illegal:
        - {move: dig, error: "'dig' needs a target, one of cards in the scrap (not a King)"}
        - {move: dig KS, error: "KS is not a legal target"}
""",
    )


def test_an_illegal_target_is_explained_by_the_target_not_the_hand(tmp_path: Path) -> None:
    _run(
        tmp_path,
        """setup:
  turn: p1
  p1: {hand: [10C]}
  scrap: [5H]
moves:
  - expect:
      illegal:
        - {move: dig 3S, error: "3♠ is not one of the scrap, so 3S is not a legal target; the rule"}
        - {move: dig 5H 10C, error: "'dig' takes one target and no card: e.g. dig 5H"}
""",
    )
