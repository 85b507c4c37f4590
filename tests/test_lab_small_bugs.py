"""Small bugs of the lab's reports (issue 27 item 6): the compare header counts games, not game
numbers; a slow rate keeps significant figures; a length's interval never goes below 0."""

from __future__ import annotations

import io

from interpreter.lab import report
from interpreter.lab.metrics import _distribution
from interpreter.lab.sim import simulate


def test_compare_header_counts_the_games_of_both_rulesets() -> None:
    r = simulate(["default", "default+classic-2s"], 6, ("random", "random"), seed=3, jobs=1, progress=io.StringIO())
    line = next(h for h in report.header(r) if h.startswith("played"))
    assert line.startswith("played 12 games (6 per ruleset) in"), line


def test_sim_header_counts_its_games() -> None:
    r = simulate(["default"], 5, ("random", "random"), seed=3, jobs=1, progress=io.StringIO())
    line = next(h for h in report.header(r) if h.startswith("played"))
    assert line.startswith("played 5 games in"), line


def test_a_slow_rate_has_significant_figures() -> None:
    assert (report.per_second(0.4234), report.per_second(12.345), report.per_second(4321.4)) == (
        "0.423",
        "12.3",
        "4,321",
    )


def test_the_mean_interval_of_a_count_is_floored_at_zero() -> None:
    d = _distribution([0, 40])  # two games: the normal interval would reach far below 0
    assert d["mean_ci95"][0] == 0.0 and d["mean_ci95"][1] > 20
