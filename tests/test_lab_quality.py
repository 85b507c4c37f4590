"""The game-quality measures of one game on tiny hand-made lead traces with known answers."""

from __future__ import annotations

import pytest

from interpreter.lab import quality


def test_a_winner_who_leads_throughout() -> None:
    leads = [0.1, 0.3, 0.6, 1.0]  # p1 ahead from the first turn
    assert quality.lead_changes(leads) == 0
    assert quality.decisiveness(leads, 0) == 0.0
    assert quality.drama(leads, 0) == 0.0


def test_one_lead_change_and_a_comeback() -> None:
    leads = [-0.2, -0.5, 0.1, 0.4]  # p2 ahead, then p1 takes the lead for good at the third turn
    assert quality.lead_changes(leads) == 1
    assert quality.decisiveness(leads, 0) == pytest.approx(0.5)
    assert quality.drama(leads, 0) == pytest.approx(0.5)


def test_ties_change_no_leader_and_p2_wins_count_from_its_side() -> None:
    leads = [0.2, 0.0, 0.3, -0.1, -0.4]
    assert quality.lead_changes(leads) == 1
    assert quality.decisiveness(leads, 1) == pytest.approx(3 / 5)
    assert quality.drama(leads, 1) == pytest.approx(0.3)
    assert quality.decisiveness(leads, None) is None


def test_uncertainty_is_one_when_level_throughout() -> None:
    assert quality.uncertainty([0.0, 0.0]) == 1.0
    assert quality.uncertainty([0.5, 1.0]) == pytest.approx(0.25)
    assert quality.uncertainty([1.5]) == 0.0  # a score past the goal is no less certain than the goal
