"""Deck-out: face-up hands, passing, three passes end the game (000 Play 4, ruling 14)."""

import pytest

from .scenario_util import assert_passes, cases


@pytest.mark.parametrize("path", cases("deckout-*", by=__name__))
def test_deckout(path) -> None:
    assert_passes(path)
