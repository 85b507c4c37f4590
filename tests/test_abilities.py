"""Each card's abilities in the default rules (000 "Card abilities"), as scenario files."""

import pytest

from .scenario_util import assert_passes, cases


@pytest.mark.parametrize(
    "path",
    cases(
        "ace-*",
        "two-*",
        "three-*",
        "four-*",
        "five-*",
        "six-*",
        "seven-*",
        "glasses-*",
        "nine-*",
        "ten-*",
        "jack-*",
        "queen-*",
        "king-*",
        by=__name__,
    ),
)
def test_card_ability(path) -> None:
    assert_passes(path)


@pytest.mark.parametrize("path", cases("scuttle-*", by=__name__))
def test_scuttle(path) -> None:
    assert_passes(path)
