"""Counters: the 2 plus one more card, chains of counters, what cannot be countered (000 Play 2)."""

import pytest

from .scenario_util import assert_passes, cases


@pytest.mark.parametrize("path", cases("counter-*", "cannot-*", by=__name__))
def test_counter(path) -> None:
    assert_passes(path)
