"""The hand limit, winning, illegal moves and the SPEC rulings where 000 is silent."""

import pytest

from .scenario_util import ROOT, assert_passes, cases


@pytest.mark.parametrize("path", cases("hand-*", "win-*", "illegal-*"))
def test_turn_rule(path) -> None:
    assert_passes(path)


@pytest.mark.parametrize("path", cases("ruling-*"))
def test_ruling(path) -> None:
    assert_passes(path)


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("example-*.yaml")), ids=lambda p: p.stem)
def test_worked_example_of_000(path) -> None:
    assert_passes(path)
