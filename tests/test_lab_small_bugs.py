"""Small bugs of the lab's reports (issue 27 item 6): the compare header counts games, not game
numbers; a slow rate keeps significant figures; the intervals of a length, of a counter's changes
and of the cards seen never go below 0; the endings of a paired comparison have paired intervals."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lab import cli as lab_cli
from interpreter.lab import report, stats
from interpreter.lab.metrics import _distribution
from interpreter.lab.parallel import cores, workers
from interpreter.lab.sim import Interrupted, simulate
from interpreter.lab.visible import counters, knowledge


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


def test_the_intervals_of_counter_changes_and_cards_seen_are_floored_at_zero() -> None:
    """Two games: a counter that changed 0 and 6 times, cards seen 0 and 10: counts, never below 0
    in the JSON (as the terminal shows them); a counter's final value may be negative, kept as is."""
    c = counters(['{"heat": [0, -3, 0, 0]}', '{"heat": [6, 3, 0, 0]}'], {"heat": "player"})["heat"]
    k = knowledge(['{"seen": {}, "shown": {}}', '{"seen": {"visibility.hand": 10}, "shown": {}}'])
    assert c["changes"]["ci95"][0] == 0.0 and c["changes"]["ci95"][1] > 6
    assert k["seen"]["visibility.hand"]["ci95"][0] == 0.0 and k["seen"]["visibility.hand"]["ci95"][1] > 10
    assert c["final_p1"]["ci95"][0] < -3


def test_endings_of_a_paired_comparison_use_paired_intervals(tmp_path: Path) -> None:
    """Each ending's B − A interval, when the games are paired, is the paired interval of the
    ending's indicator game by game (computed here from the stored rows), not Newcombe's."""
    r = simulate(
        ["default", "default+classic-2s"],
        80,
        ("random", "random"),
        seed=7,
        jobs=1,
        out=tmp_path,
        progress=io.StringIO(),
    )
    con = sqlite3.connect(tmp_path / "games.sqlite")
    try:
        rows = con.execute("SELECT side, idx, end_reason, goal FROM games ORDER BY side, idx").fetchall()
    finally:
        con.close()
    ends = r.differences["ends"] if r.differences else {}
    assert r.differences and r.differences["paired"] and "goal at 21" in ends
    a = [1.0 if (e, g) == ("goal", 21) else 0.0 for s, _, e, g in rows if s == "a"]
    b = [1.0 if (e, g) == ("goal", 21) else 0.0 for s, _, e, g in rows if s == "b"]
    d, lo, hi = stats.paired_diff(a, b)
    got = ends["goal at 21"]
    assert (got["difference"], got["ci95"]) == (d, [lo, hi])
    assert got["ci95"] != list(stats.newcombe(int(sum(a)), 80, int(sum(b)), 80))


def test_an_interrupted_comparison_or_sweep_counts_per_ruleset_and_in_all() -> None:
    """Ctrl-C: a sweep of three values kept 576 game numbers, 1,728 games; a comparison's two rulesets."""
    sweep = str(Interrupted(576, 4000, Path("out"), 3, "value"))
    assert "interrupted: 576 of 4,000 games per value (1,728 of 12,000 in all) kept in out" in sweep
    both = str(Interrupted(2112, 3000, None, 2))
    assert both.startswith("interrupted after 2,112 of 3,000 games per ruleset (4,224 of 6,000 in all);")
    assert str(Interrupted(5, 10, None)).startswith("interrupted after 5 of 10 games;")


def test_a_pool_starts_no_more_workers_than_tasks_nor_four_a_core() -> None:
    """`cuttle match --jobs 99999` started hundreds of workers and ran out of memory."""
    assert workers(99999, 2) == 2
    assert workers(99999, 10**6) == 4 * cores()
    assert workers(3, 10) == 3 and workers(0, 10) == 1 and workers(4, 0) == 1


def test_ctrl_c_outside_the_play_loop_still_says_interrupted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C that lands while a run is prepared or summarised (not while its games play) once
    ended the program with status 130 and no word."""

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(lab_cli, "simulate", interrupted)
    assert main(["sim", "default", "--games", "3"]) == 130
    assert capsys.readouterr().err == "cuttle sim: interrupted\n"
