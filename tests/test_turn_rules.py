"""The hand limit, winning, illegal moves and the SPEC rulings where 000 is silent."""

import pytest

from .scenario_util import ROOT, assert_passes, cases


@pytest.mark.parametrize("path", cases("hand-*", "win-*", "illegal-*", by=__name__))
def test_turn_rule(path) -> None:
    assert_passes(path)


@pytest.mark.parametrize("path", cases("ruling-*", by=__name__))
def test_ruling(path) -> None:
    assert_passes(path)


@pytest.mark.parametrize("path", cases("example-*.yaml", under=ROOT / "examples", by=__name__))
def test_worked_example_of_000(path) -> None:
    assert_passes(path)
