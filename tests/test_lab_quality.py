"""The game-quality measures of one game on tiny hand-made lead traces with known answers."""

from __future__ import annotations

from pathlib import Path

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
    assert quality.lead_changes([0.2, 0.0, -0.1]) == 1  # p1 led, a tie, then p2 leads: the lead changed
    assert quality.lead_changes([0.0, 0.1, 0.0, 0.2]) == 0
    assert quality.decisiveness(leads, 1) == pytest.approx(3 / 5)
    assert quality.drama(leads, 1) == pytest.approx(0.3)
    assert quality.decisiveness(leads, None) is None


def test_uncertainty_is_one_when_level_throughout() -> None:
    assert quality.uncertainty([0.0, 0.0]) == 1.0
    assert quality.uncertainty([0.5, 1.0]) == pytest.approx(0.25)
    assert quality.uncertainty([1.5]) == 0.0  # a score past the goal is no less certain than the goal


# -- the summaries: JSON under `quality`, the same whatever the number of processes ---------------

QUALITY_KEYS = {"advantage", "drawishness", "decisiveness", "lead_changes", "drama", "uncertainty", "duration"}


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    import json

    from interpreter.cli import main

    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _by_hand(db: Path) -> dict[str, list[float]]:
    """Each game's lead changes, drama and uncertainty computed here from the stored column."""
    import json
    import sqlite3

    out: dict[str, list[float]] = {"lead_changes": [], "drama": [], "uncertainty": []}
    with sqlite3.connect(db) as conn:
        for winner, text in conn.execute("SELECT winner, progress FROM games WHERE side = 'a' ORDER BY idx"):
            leads = [(1.0 if b <= 0 else a / b) - (1.0 if d <= 0 else c / d) for a, b, c, d in json.loads(text)]
            side = {"p1": 0, "p2": 1}.get(winner)
            out["lead_changes"].append(quality.lead_changes(leads))
            out["uncertainty"].append(quality.uncertainty(leads))
            if side is not None:
                out["drama"].append(quality.drama(leads, side))
    return out


def test_sim_reports_every_quality_measure_with_its_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = _json(["sim", "default", "--games", "40", "--seed", "3", "--jobs", "1", "--out", str(tmp_path)], capsys)
    q = s["quality"]
    assert set(q) == QUALITY_KEYS and set(q["duration"]) == {"turns", "real_choices"}
    entries = [v for k, v in q.items() if k != "duration"] + list(q["duration"].values())
    for e in entries:
        assert set(e) == {"value", "ci95", "games"}
        assert e["ci95"][0] <= e["value"] <= e["ci95"][1]
    assert q["advantage"]["value"] == pytest.approx(s["p1_win_rate"] - s["p2_win_rate"])
    assert q["drawishness"]["value"] == pytest.approx((s["draws"] + s["unfinished"]) / s["games"])
    assert q["duration"]["turns"]["value"] == pytest.approx(s["turns"]["mean"])
    assert q["duration"]["real_choices"]["value"] == pytest.approx(s["real_choices"]["mean"])
    assert q["decisiveness"]["games"] == q["drama"]["games"] == s["p1_wins"] + s["p2_wins"]
    hand = _by_hand(tmp_path / "games.sqlite")
    for name, xs in hand.items():
        assert q[name]["value"] == pytest.approx(sum(xs) / len(xs)), name
        assert q[name]["games"] == len(xs)


def test_compare_reports_both_sides_and_the_difference(capsys: pytest.CaptureFixture[str]) -> None:
    c = _json(["compare", "default", "default+classic-2s", "--games", "40", "--jobs", "1"], capsys)
    assert set(c["a"]["quality"]) == set(c["b"]["quality"]) == set(c["differences"]["quality"]) == QUALITY_KEYS
    d = c["differences"]["quality"]
    entries = [(k, v) for k, v in d.items() if k != "duration"] + list(d["duration"].items())
    for name, e in entries:
        assert set(e) == {"a", "b", "difference", "ci95", "detectable", "games"}, name
        assert e["difference"] == pytest.approx(e["b"] - e["a"]), name
        assert e["ci95"][0] <= e["difference"] <= e["ci95"][1], name
    assert d["advantage"]["a"] == pytest.approx(c["a"]["p1_win_rate"] - c["a"]["p2_win_rate"])
    assert d["advantage"]["b"] == pytest.approx(c["b"]["p1_win_rate"] - c["b"]["p2_win_rate"])
    assert d["lead_changes"]["a"] == pytest.approx(c["a"]["quality"]["lead_changes"]["value"])
    assert d["lead_changes"]["b"] == pytest.approx(c["b"]["quality"]["lead_changes"]["value"])


def test_one_process_or_two_give_the_same_quality_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "default", "default+classic-2s", "--games", "24", "--seed", "8"]
    one = _json(argv + ["--jobs", "1", "--out", str(tmp_path / "one")], capsys)
    two = _json(argv + ["--jobs", "2", "--out", str(tmp_path / "two")], capsys)
    for key in ("a", "b"):
        assert one[key]["quality"] == two[key]["quality"]
    assert one["differences"]["quality"] == two["differences"]["quality"]
    assert one["a"]["quality"]["lead_changes"]["games"] == 24


def test_the_terminal_and_the_reports_show_the_quality_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from interpreter.cli import main

    assert main(["sim", "default", "--games", "12", "--jobs", "1", "--out", str(tmp_path / "s")]) == 0
    assert "Game quality" in capsys.readouterr().out
    argv = ["compare", "default", "default+classic-2s", "--games", "12", "--jobs", "1", "--out", str(tmp_path / "c")]
    assert main(argv) == 0
    assert "Game quality" in capsys.readouterr().out
    for run in ("s", "c"):
        md = (tmp_path / run / "report.md").read_text()
        html = (tmp_path / run / "report.html").read_text()
        for name in ("advantage", "drawishness", "decisiveness", "lead changes", "drama", "uncertainty", "duration"):
            assert name in md.split("## Game quality")[1].split("## ")[0], (run, name)
            assert name in html.split("Game quality")[1], (run, name)
