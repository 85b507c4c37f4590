"""The report a designer wants to read (issue 27 items 6 and 7): headline numbers first, plots in a
grid, round axis steps, legends for overlays, intervals on the usage bars, which players made the
report and what that means in every form of it, a progress line soon whatever the players, and a
read-only --out refused in one line."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lab import parallel, report, report_html, report_md, report_text, store, svg
from interpreter.lab.job import players_note
from interpreter.lab.report import Section
from interpreter.lab.sim import prepare, simulate

RANDOM_NOTE = "random players measure the rules, not skill"
COMPETENT_NOTE = "competent players measure the game as people play it"


@pytest.mark.parametrize("hi", [0.6, 0.37, 1.0, 11.7, 15, 12.6, 123, 4.2e-3, 970])
def test_axis_steps_are_one_two_or_five_times_a_power_of_ten(hi: float) -> None:
    bottom, top, step = svg.axis(hi)
    mantissa = step / 10 ** int(f"{step:e}".split("e")[1])
    assert round(mantissa, 9) in (1, 2, 5), step
    assert bottom == 0 and top >= hi and top - step < hi
    for t in svg.ticks(bottom, top, step):
        assert abs(t / step - round(t / step)) < 1e-9  # no 3.75 or 11.25 between round steps


def test_the_usage_chart_ticks_are_round_and_its_bars_have_intervals() -> None:
    chart = svg.hbars("usage", ["draw", "points"], [("a", [11.4, 7.9], [(10.2, 12.6), (7.0, 8.8)])])
    labels = re.findall(r"text-anchor='middle'[^>]*>([^<]+)</text>", chart)
    assert labels == ["0", "5", "10", "15"]
    assert chart.count("stroke='#222'") == 2  # an error bar on each bar
    assert "95% CI 10.2–12.6" in chart


def test_overlaid_histograms_have_a_legend_and_an_outline_each() -> None:
    chart = svg.histogram("turns", [("default", [5, 9, 9, 14]), ("house", [6, 9, 20, 21])], "turns")
    assert ">default</text>" in chart and ">house</text>" in chart
    outlines = re.findall(r"<path d='[^']*' fill='none' stroke='(#[0-9a-f]{6})' stroke-width='2'/>", chart)
    assert outlines == [svg.colour(0), svg.colour(1)]
    assert "fill-opacity='0.45'" not in chart  # the old blend of two opaque-ish fills


def test_the_sim_report_starts_with_its_headline_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "default", "--games", "30", "--jobs", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.index("At a glance") < out.index("Results")
    glance = out[out.index("At a glance") : out.index("Results")]
    for what in ("first player wins", "draws", "turns a game", "real choices a game", "lead changes", "dead rules"):
        assert what in glance
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert html.index("class='cards'") < html.index("<svg") < html.index("<h2>Results</h2>")
    assert "grid-template-columns" in html and "max-width: 1000px" not in html
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert md.index("## At a glance") < md.index("## Results")
    assert "| first player wins |" in md


def test_a_comparison_headline_gives_both_rulesets_and_the_change() -> None:
    r = simulate(["default", "default+classic-2s"], 20, ("random", "random"), seed=1, jobs=1, progress=io.StringIO())
    text = report_text.render(r, io.StringIO())
    glance = text[text.index("At a glance") : text.index("Verdict")]
    assert re.search(r"first player wins\s+\d+\.\d% → \d+\.\d%\s+[−+±]\d", glance), glance
    assert "usage" not in glance and "95% CI" in glance


def test_the_usage_bars_carry_each_plays_interval() -> None:
    r = simulate(["default"], 30, ("random", "random"), seed=2, jobs=1, progress=io.StringIO())
    html = report_html.render(r)
    usage = html[html.index("Play usage: times per game (95% CI)") :]
    usage = usage[: usage.index("</svg>")]
    draw = next(e for e in r.summaries["a"]["rules"] if e["name"] == "draw")
    lo, hi = r.usage["a"]["draw"]
    assert lo < draw["per_game"] < hi
    assert f"draw {draw['per_game']:.3g} (95% CI {lo:.3g}–{hi:.3g})" in usage


def test_a_comparison_plots_b_minus_a_with_intervals_on_the_scale_of_the_changes() -> None:
    """The usage bars are on the scale of the uses (0 to 15 a game), where a change of 0.3 is a few
    pixels: a plot of B − A per play (and per result, length) shows each change with its interval."""
    r = simulate(["default", "default+classic-2s"], 30, ("random", "random"), seed=2, jobs=1, progress=io.StringIO())
    html = report_html.render(r)
    chart = html[html.index("Play usage, B − A: times per game (95% CI)") :]
    chart = chart[: chart.index("</svg>")]
    d = r.differences["plays"]["counter"] if r.differences else {}
    lo, hi = d["ci95"]
    assert f"counter: {svg._fmt(d['difference'], '')} (95% CI {svg._fmt(lo, '')} to {svg._fmt(hi, '')})" in chart
    assert chart.count("<circle") == len(r.differences["plays"]) if r.differences else False
    ticks = [float(t.replace("−", "-")) for t in re.findall(r"text-anchor='middle'[^>]*>([^<]+)</text>", chart)[:-1]]
    assert min(ticks) <= min(lo, 0) and max(ticks) >= max(hi, 0) and max(ticks) - min(ticks) < 15
    for title in ("Results, B − A: percentage points (95% CI)", "Length, B − A: relative change of the mean"):
        assert title in html
    results = html[html.index("Results, B − A: percentage points (95% CI)") :]
    results = results[: results.index("</svg>")]
    assert all(f"<title>{row}: " in results for row in ("p1 wins", "p2 wins", "draws"))  # a row for each result


def test_a_difference_plot_marks_no_change_and_fills_the_changes_it_can_see() -> None:
    chart = svg.forest("d", ["a", "b"], [(0.5, 0.2, 0.8), (-0.1, -0.4, 0.2)], "", "B − A")
    assert chart.count("<circle") == 2 and chart.count("fill='#fff'") == 1  # b's interval holds 0: hollow
    assert "stroke='#444'" in chart  # the line at 0


def test_a_difference_plot_tells_each_value_as_it_is_and_draws_with_no_rows_too() -> None:
    """Each row's tooltip gives its value and interval unrounded (0.25, not 0), a whole one without
    decimals; a plot with nothing to show is still a chart."""
    chart = svg.forest("d", ["a", "b"], [(0.25, -0.1, 0.6), (3.0, 2.0, 4.0)], "")
    assert "<title>a: 0.25 (95% CI -0.1 to 0.6)</title>" in chart and "<title>b: 3 (95% CI 2 to 4)</title>" in chart
    empty = svg.forest("nothing", [], [], "")
    assert empty.startswith("<svg") and empty.rstrip().endswith("</svg>") and "<circle" not in empty


@pytest.mark.parametrize(
    "players, note",
    [
        (("random", "random"), RANDOM_NOTE),
        (("sharp:fast", "sharp:fast"), COMPETENT_NOTE),
        (("sharp:fast", "random"), "gap"),
    ],
)
def test_every_report_says_which_players_made_it_and_why_that_matters(players: tuple[str, str], note: str) -> None:
    assert note in players_note(players)
    r = simulate(["default"], 2, players, seed=4, jobs=1, progress=io.StringIO())
    for shown in (report_text.render(r, io.StringIO()), report_md.render(r), report_html.render(r)):
        assert note in shown and f"players: {players[0]}" in shown
    assert note in r.json()["players_note"] and r.json()["players"] == {"p1": players[0], "p2": players[1]}


def test_a_comparison_and_a_sweep_say_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "default", "default+classic-2s", "--games", "3", "--jobs", "1", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert RANDOM_NOTE in got["players_note"] and got["players"] == {"p1": "random", "p2": "random"}
    assert main(["sweep", "default", "--set", "end.goal=14,21", "--games", "3", "--jobs", "1", "--json"]) == 0
    assert all(RANDOM_NOTE in s["players_note"] for s in json.loads(capsys.readouterr().out))


def test_slow_players_are_played_in_small_chunks_random_ones_in_large() -> None:
    fast = prepare(["default"], ("random", "random"), 0)
    slow = prepare(["default"], ("random", "heuristic"), 0)
    assert parallel.chunk_cap(fast, 64) == 64
    assert parallel.chunk_cap(slow, 64) == parallel.SLOW_CHUNK <= 2


def test_worker_processes_wake_the_caller_while_a_chunk_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """While no chunk finishes, the parent still hears from the backend (an empty list) every BEAT
    seconds, so the progress line's clock moves on during a slow player's first games."""
    monkeypatch.setattr(parallel.Processes, "BEAT", 0.001)
    job = prepare(["default"], ("heuristic", "heuristic"), 0)
    backend = parallel.Processes(1)
    try:
        got = list(backend.map(job, [0]))
    finally:
        backend.close()
    assert [] in got and sum(len(x) for x in got) == 1


def test_a_folder_that_cannot_be_written_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(store.os, "access", lambda path, mode: False)
    assert main(["sim", "default", "--games", "3", "--jobs", "1", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "cannot write in this folder" in err and "internal error" not in err


def test_a_database_that_cannot_be_written_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only database (a read-only mount, another user's file): the lab's message, not
    'internal error: OperationalError'."""
    assert main(["sim", "default", "--games", "3", "--jobs", "1", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    opened = store.open_database

    def read_only(path: Path) -> sqlite3.Connection:
        opened(path).close()  # the lab's checks, then a connection that cannot write
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)

    monkeypatch.setattr(store, "open_database", read_only)
    assert main(["sim", "default", "--games", "5", "--jobs", "1", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "internal error" not in err, err


def test_until_different_says_which_players_too(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "default", "default+classic-2s", "--until-different", "--games", "3"]
    assert main(argv) == 0
    assert "players: random in both seats: " + RANDOM_NOTE in capsys.readouterr().out
    assert main([*argv, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert RANDOM_NOTE in got["players_note"] and got["players"] == {"p1": "random", "p2": "random"}


def test_an_empty_out_is_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--out ''` once wrote the database into the current folder and no report; it is refused."""
    monkeypatch.chdir(tmp_path)
    assert main(["sim", "default", "--games", "3", "--jobs", "1", "--out", ""]) == 1
    err = capsys.readouterr().err
    assert "--out needs the name of a folder" in err and "internal error" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_comparison_headline_names_the_rules_dead_under_one_ruleset_only() -> None:
    visible = str(Path(__file__).resolve().parent.parent / "examples" / "house" / "every-rule-visible.yaml")
    r = simulate(["default", visible], 30, ("random", "random"), seed=2, jobs=1, progress=io.StringIO())
    card = next(c for c in report.headline(r).cards if c[0] == "dead rules")
    assert "impossible royal" in r.summaries["b"]["dead"] and "impossible royal" not in r.summaries["a"]["dead"]
    assert card[2].startswith("dead only under B: ") and "impossible royal" in card[2]
    assert card[1] == (f"{len(r.summaries['a']['dead'])} → {len(r.summaries['b']['dead'])}", "warn")
    same = report.headline(simulate(["default", "default"], 5, ("random", "random"), seed=1, jobs=1))
    assert next(c for c in same.cards if c[0] == "dead rules")[2].startswith(("the same under both", "every rule"))


def test_the_dead_rules_card_names_three_rules_then_dots() -> None:
    """The comparison's dead-rules card: how many under A and B, and the first three that died (or came
    alive), '...' when there are more."""
    card = report._dead_change(["x"], ["x", "a", "b", "c", "d"])
    assert card == ("dead rules", ("1 → 5", "warn"), "dead only under B: a, b, c ...")
    assert report._dead_change(["a", "b"], [])[2] == "dead only under A: a, b"
    assert report._dead_change([], ["a", "b", "c"])[2] == "dead only under B: a, b, c"  # three: no dots
    assert report._dead_change(["a"], ["a"])[2] == "the same under both: a"


def test_a_table_too_wide_for_half_the_page_takes_the_whole_width() -> None:
    """A sweep's table of three values once sat in half the page, its other columns behind a scroll
    bar and its row labels wrapped word by word."""
    values = ["constants.goals=[18, 12, 9, 4, 0]", "constants.goals=[21, 14, 10, 5, 0]"]
    quality = Section("Game quality by value", ["", *values], [["lead changes per game", "2.61 (2.45 to 2.76)"]])
    small = Section("Counters", ["counter", "changes"], [["tally", "2.0"]])
    assert report_html._wide(quality) and not report_html._wide(small)
    html = report_html.render(simulate(["default"], 3, ("random", "random"), seed=1, jobs=1))
    assert "<div class='wide'>" in html


def test_backticks_in_a_note_are_code_in_the_html() -> None:
    visible = str(Path(__file__).resolve().parent.parent / "examples" / "house" / "every-rule-visible.yaml")
    html = report_html.render(simulate([visible], 5, ("random", "random"), seed=1, jobs=1))
    assert "a rule&#x27;s <code>show</code> showed" in html and "`show`" not in html


def test_a_comparison_marks_a_play_of_one_ruleset_only_and_every_table_has_its_headings() -> None:
    """default against default+eights-oneoff (which adds the 8's one-off): the play B only has is
    named '(B only)' with '—' under A; a play of both has a number under each; every table of the
    comparison has a heading for each of its columns."""
    r = simulate(["default", "default+eights-oneoff"], 10, ("random", "random"), seed=2, jobs=1, progress=io.StringIO())
    secs = report.compare_sections(r)
    for sec in secs:
        assert sec.header is not None and all(len(row) == len(sec.header) for row in sec.rows), sec.title
    plays = next(s for s in secs if s.title == "Plays per game")
    rows = {report.text_of(row[0]): [report.text_of(c) for c in row[1:3]] for row in plays.rows}
    assert rows["eight (B only)"][0] == "—" and rows["eight (B only)"][1] != "—"
    assert "eight" not in rows and all(re.fullmatch(r"\d+\.\d\d", x) for x in rows["points"]), rows
    assert {"Knowledge per game", "Ranks per game"} <= {s.title for s in secs}  # (what the rules did, too)


def test_the_plays_table_gives_the_win_rate_with_and_without_each_play() -> None:
    r = simulate(["default"], 20, ("random", "random"), seed=3, jobs=1, progress=io.StringIO())
    plays = next(s for s in report.sim_sections(r) if s.title == "Plays and responses")
    win = plays.header.index("win: used / not")
    rows = {report.text_of(row[0]): report.text_of(row[win]) for row in plays.rows}
    checked = 0
    for e in r.summaries["a"]["rules"]:
        if e["kind"] == "play" and "win_rate_used" in e:
            want = f"{report.pct(e['win_rate_used'], 0)} / {report.pct(e['win_rate_not_used'], 0)}"
            assert rows[e["name"]] == want, e["name"]
            checked += e["win_rate_used"] != e["win_rate_not_used"]
    assert checked >= 5
