"""`cuttle sim` and `cuttle compare`: every game stored, the summary agrees with the stored rows,
the same results for any number of workers and on a cluster, a Ctrl-C keeps what finished and a
rerun resumes, and bad input gets one clear line."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lab.catalog import catalog_of
from interpreter.lab.games import run_chunk
from interpreter.lab.job import rules_of
from interpreter.lab.sim import prepare, simulate
from interpreter.lab.store import Store
from tests.scenario_util import house_file

ROOT = Path(__file__).resolve().parent.parent
HOUSE = str(ROOT / "examples" / "house" / "ace-opponent-only.yaml")


def rows(db: Path) -> tuple[list, list]:
    con = sqlite3.connect(db)
    try:
        return (
            con.execute("SELECT * FROM games ORDER BY side, idx").fetchall(),
            con.execute("SELECT * FROM uses ORDER BY side, idx, rule").fetchall(),
        )
    finally:
        con.close()


def expected_rows(seed: int, indices: range) -> tuple[list, list]:
    """The rows of games `indices` of a random run of the default rules, played here and now."""
    job = prepare(["default"], ("random", "random"), seed)
    store = Store.open(job, [catalog_of(rules_of(s)) for s in job.sides])
    store.add(run_chunk(job, list(indices)))
    got = (
        store.query("SELECT * FROM games ORDER BY side, idx"),
        store.query("SELECT * FROM uses ORDER BY side, idx, rule"),
    )
    store.close()
    return got


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_summary_agrees_with_counting_the_stored_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = run_json(
        ["sim", "default+tens-block", "--games", "120", "--seed", "4", "--jobs", "1", "--out", str(tmp_path)], capsys
    )
    con = sqlite3.connect(tmp_path / "games.sqlite")
    count = dict(con.execute("SELECT winner, COUNT(*) FROM games GROUP BY winner").fetchall())
    assert s["games"] == 120 == sum(count.values())
    assert (s["p1_wins"], s["p2_wins"], s["draws"]) == (count.get("p1", 0), count.get("p2", 0), count.get("draw", 0))
    assert s["p1_win_rate"] == count.get("p1", 0) / 120
    lo, hi = s["p1_win_rate_ci95"]
    assert lo < s["p1_win_rate"] < hi
    decisions = sorted(d for (d,) in con.execute("SELECT decisions FROM games"))
    assert s["median_decisions"] == (decisions[59] + decisions[60]) / 2
    used = dict(
        con.execute(
            "SELECT name, SUM(used) FROM uses_by_seat WHERE kind IN ('play', 'response') GROUP BY name"
        ).fetchall()
    )
    assert {k: v for k, v in s["plays"].items() if v} == used
    passes = con.execute("SELECT COUNT(*) FROM games WHERE end_reason = 'passes'").fetchone()[0]
    assert sum(v["count"] for k, v in s["ends"].items() if "passes" in k) == passes
    blocked = con.execute("SELECT SUM(countered) FROM uses_by_seat WHERE name = 'scuttle'").fetchone()[0]
    assert next(r for r in s["rules"] if r["name"] == "scuttle")["countered"] == blocked == s["plays"]["block"]
    con.close()


def test_the_json_summary_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    keys = {
        "games",
        "p1_wins",
        "p2_wins",
        "draws",
        "p1_win_rate",
        "p1_win_rate_ci95",
        "median_decisions",
        "plays",
        "dead",
    }
    s = run_json(["sim", "default", "--games", "30", "--jobs", "1"], capsys)
    assert keys <= set(s)
    assert isinstance(s["p1_win_rate_ci95"], list) and len(s["p1_win_rate_ci95"]) == 2
    assert isinstance(s["plays"]["points"], int) and isinstance(s["dead"], list)
    c = run_json(["compare", "default", "default+classic-2s", "--games", "30", "--jobs", "1"], capsys)
    assert keys <= set(c["a"]) and keys <= set(c["b"]) and "differences" in c
    assert c["differences"]["paired"] is True
    assert set(c["differences"]["p1_win_rate"]) >= {"a", "b", "difference", "ci95"}


def test_only_watched_rules_are_named_dead(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A play that never became legal is dead; the choice inside it (the 3's `take`) is part of the
    play, not a rule of its own (not watched): it is not named dead, though it never came up."""
    house = house_file(tmp_path, "plays:\n  three:\n    legal: false\n", name="no-threes")
    s = run_json(["sim", str(house), "--games", "6", "--jobs", "1"], capsys)
    assert "three" in s["dead"]
    assert "three: take" not in s["dead"] and not any(w.startswith("three: take") for w in s["dead_why"])
    watched = {e["name"]: e["watch"] for e in s["rules"]}
    assert all(watched[name] for name in s["dead"])


def test_a_house_rule_that_never_fires_is_named_dead(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = run_json(["sim", "default+tens-block", "--games", "40", "--jobs", "1"], capsys)
    assert "block" not in s["dead"]
    path = tmp_path / "never.yaml"
    path.write_text(
        "name: never\nkind: base\nextends: default\nplays:\n  hoard:\n    verb: hoard\n"
        '    ranks: ["7"]\n    legal: count(hand of me) > 20\n    effect: draw 1\n',
        encoding="utf-8",
    )
    s = run_json(["sim", str(path), "--games", "40", "--jobs", "1"], capsys)
    assert "hoard" in s["dead"] and "seven" not in s["dead"]
    assert "hoard (play from never) never became legal in 40 games" in s["dead_why"]


@pytest.mark.slow
def test_jobs_and_a_local_cluster_store_the_same_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    argv = ["compare", "default", HOUSE, "--games", "40", "--seed", "9"]
    outs = {}
    for name, extra in (
        ("one", ["--jobs", "1"]),
        ("two", ["--jobs", "2"]),
        ("cluster", ["--cluster", "local", "--jobs", "2"]),
    ):
        outs[name] = run_json(argv + extra + ["--out", str(tmp_path / name)], capsys)
    assert rows(tmp_path / "one" / "games.sqlite") == rows(tmp_path / "two" / "games.sqlite")
    assert rows(tmp_path / "one" / "games.sqlite") == rows(tmp_path / "cluster" / "games.sqlite")
    assert outs["one"] == outs["two"] == outs["cluster"]
    quality = [(o["a"]["quality"], o["b"]["quality"], o["differences"]["quality"]) for o in outs.values()]
    assert quality[0] == quality[1] == quality[2] and quality[0][0]["lead_changes"]["games"] == 40


@pytest.mark.slow
def test_a_local_cluster_takes_free_ports_and_serves_no_dashboard() -> None:
    """Whatever else runs on this machine (another Dask scheduler on 8787, Dask's default HTTP port),
    `--cluster local` starts without a warning: its scheduler serves HTTP on a free port of this
    machine only, and no dashboard there."""
    pytest.importorskip("distributed")
    from interpreter.lab.parallel import Cluster

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        cluster = Cluster("local", 1)
        try:
            link = urllib.parse.urlsplit(cluster.cluster.dashboard_link)
            assert link.hostname == "127.0.0.1" and link.port not in (None, 8787)
            with pytest.raises(urllib.error.HTTPError) as page:
                urllib.request.urlopen(cluster.cluster.dashboard_link, timeout=10)
            assert page.value.code == 404  # no dashboard (nor the page saying that bokeh is missing)
        finally:
            cluster.close()
    assert [str(w.message) for w in seen if "distributed" in w.filename] == []


def test_a_compare_stopped_between_its_two_sides_plays_that_game_again(tmp_path: Path) -> None:
    """A game stored under one ruleset of a comparison only (the run stopped between the two) is not
    done: the rerun plays it again under both and gives what one whole run gives."""
    specs, players = ["default", "default+classic-2s"], ("random", "random")
    whole = simulate(specs, 12, players, seed=5, jobs=1, out=tmp_path / "whole")
    simulate(specs, 12, players, seed=5, jobs=1, out=tmp_path / "cut")
    # the state a stop between the sides leaves, made by the lab itself (an edit by another program
    # would break the games' seal and be refused: test_lab_database.py)
    job = prepare(specs, players, 5)
    store = Store.open(job, [catalog_of(rules_of(s)) for s in job.sides], tmp_path / "cut")
    with store.conn:
        gone = store.conn.execute("SELECT * FROM games WHERE side = 'b' AND idx IN (4, 9)").fetchall()
        store.conn.execute("DELETE FROM games WHERE side = 'b' AND idx IN (4, 9)")
        store._reseal(gone)
    store.close()
    again = simulate(specs, 12, players, seed=5, jobs=1, out=tmp_path / "cut")
    assert (again.resumed, again.played) == (10, 2)
    assert rows(tmp_path / "whole" / "games.sqlite") == rows(tmp_path / "cut" / "games.sqlite")
    assert again.summaries == whole.summaries


def test_a_rerun_resumes_and_gives_what_one_run_gives(tmp_path: Path) -> None:
    whole = simulate(["default"], 60, ("random", "random"), seed=2, jobs=1, out=tmp_path / "whole")
    simulate(["default"], 25, ("random", "random"), seed=2, jobs=1, out=tmp_path / "parts")
    again = simulate(["default"], 60, ("random", "random"), seed=2, jobs=1, out=tmp_path / "parts")
    assert (again.resumed, again.played) == (25, 35)
    assert rows(tmp_path / "whole" / "games.sqlite") == rows(tmp_path / "parts" / "games.sqlite")
    assert again.summaries == whole.summaries
    done = simulate(["default"], 60, ("random", "random"), seed=2, jobs=1, out=tmp_path / "parts")
    assert (done.resumed, done.played) == (60, 0)


@pytest.mark.parametrize(
    "backend",
    [["--jobs", "1"], ["--jobs", "2"], ["--cluster", "local", "--jobs", "2"]],
    ids=["one process", "two workers", "local cluster"],
)
@pytest.mark.slow
def test_ctrl_c_keeps_finished_games_and_the_same_command_resumes(tmp_path: Path, backend: list[str]) -> None:
    if "--cluster" in backend:
        pytest.importorskip("distributed")
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "interpreter.cli",
        "sim",
        "default",
        "--games",
        "100000",
        "--seed",
        "3",
        *backend,
        "--out",
        str(out),
    ]
    # a session of its own, so that the Ctrl-C below reaches the whole process group, as a terminal's does;
    # and Ctrl-C not ignored, as in a terminal: a suite started in the background by a shell (`cmd &`,
    # nohup) ignores SIGINT, and a child would inherit that and never be interrupted
    ignored = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(
            cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
    finally:
        signal.signal(signal.SIGINT, ignored)
    db = out / "games.sqlite"
    deadline = time.monotonic() + 60
    stored = 0
    while time.monotonic() < deadline and stored < 1:
        time.sleep(0.2)
        if db.exists():
            try:
                con = sqlite3.connect(db, timeout=1)
                stored = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                con.close()
            except sqlite3.OperationalError:
                pass
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.count("\n") == 1, err  # one line, from the lab, none from workers
    assert "interrupted:" in err and "run the same command again to resume" in err
    kept = int(err.split("interrupted: ")[1].split(" of ")[0].replace(",", ""))
    assert kept >= stored > 0
    before = [g[1] for g in rows(db)[0]]
    assert len(before) == kept  # (workers finish out of order: not necessarily games 0 .. kept-1)
    # the same run, asked for fewer games (to finish soon), plays only the missing ones, and stores
    # what one run would have
    more = max(before) + 20
    again = cmd[:6] + [str(more)] + cmd[7:]
    if "--cluster" in backend:  # resume in this process instead: the run is the same whatever plays it
        again = [a for a in again if a not in ("--cluster", "local")]
        again[again.index("--jobs") + 1] = "1"
    proc = subprocess.run(again, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"played {more - kept:,} games in" in proc.stdout and f"{kept:,} were already in" in proc.stdout
    games, uses = rows(db)
    assert [g[1] for g in games] == list(range(more))
    window = range(max(0, more - 40), more)  # games the interrupted run kept, and games the rerun played
    want_games, want_uses = expected_rows(3, window)
    assert [g for g in games if g[1] in window] == want_games
    assert [u for u in uses if u[1] in window] == want_uses


def test_a_folder_holding_another_run_is_refused_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "default", "--games", "10", "--jobs", "1", "--out", str(tmp_path)]) == 0
    before = rows(tmp_path / "games.sqlite")
    capsys.readouterr()
    assert main(["sim", "default", "--games", "10", "--seed", "1", "--jobs", "1", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds another run" in err and "seed 0" in err and "seed 1" in err
    assert rows(tmp_path / "games.sqlite") == before
    capsys.readouterr()
    # the same rules read from another path are the same run: it resumes
    assert (
        main(["sim", str(ROOT / "rulesets" / "default.yaml"), "--games", "12", "--jobs", "1", "--out", str(tmp_path)])
        == 0
    )
    assert "10 were already in" in capsys.readouterr().out
    other = tmp_path / "other"
    other.mkdir()
    (other / "games.sqlite").write_text("not a database", encoding="utf-8")
    assert main(["sim", "default", "--games", "10", "--jobs", "1", "--out", str(other)]) == 1
    assert "is not a Cuttle Lab database" in capsys.readouterr().err
    assert (other / "games.sqlite").read_text(encoding="utf-8") == "not a database"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["sim", "default", "--players", "randon"], "no player named 'randon'; did you mean 'random'?"),
        (["sim", "default", "--p2", "heuristic?depth=x"], "option depth takes a whole number"),
        (["sim", "defualt"], "did you mean 'default'?"),
        (["sim", "twinned"], "is an option, not a whole ruleset"),
        (["sim", "default", "--games", "0"], "--games must be a whole number from 1 to 1,000,000 (MAX_GAMES), not 0"),
        (
            ["sim", "default", "--games", "many"],
            "--games takes a whole number from 1 to 1,000,000 (MAX_GAMES), not 'many'",
        ),
        (["sim", "default", "--jobs", "0"], "--jobs must be a whole number from 1 to 1,024"),
        (
            ["sim", "default", "--cluster", "tcp://127.0.0.1:9"],
            "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'",
        ),
        (["sim", "default", "--cluster", "no such place"], "is not a scheduler address"),
        (
            ["compare", "default", "micro", "--until-different"],
            "default and micro deal differently (decks of 52 and 16",
        ),
        (["compare", "default", "nope"], "no ruleset named 'nope'"),
    ],
)
def test_bad_input_is_one_clear_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv + ["--games", "5"] if "--games" not in argv else argv) != 0
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    # one line; a ruleset error is shown as everywhere in Cuttle Lab: the problem, the line and a caret, a hint
    assert len(err.strip().splitlines()) <= 3 if "[E" in err else len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_rule_that_fails_in_a_game_stops_the_run_with_one_line(
    tmp_path: Path, jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A house rule that loads but fails when a game reaches it (a number where a player is needed): the
    run stops with the rules' failure and the game to replay, in one line, whether the game was played
    here or in a worker process."""
    house = house_file(tmp_path, 'constants:\n  who: [5]\nplays:\n  points:\n    effect: {after: "win who[0]"}\n')
    assert main(["sim", str(house), "--games", "200", "--jobs", jobs, "--out", str(tmp_path / "run")]) == 1
    err = capsys.readouterr().err
    named = r"\(game \d+ of the run, seed (\d+): `cuttle play \S+ --seed \1` deals it\)"
    assert "as a player" in err and re.search(named, err), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_a_ruleset_error_is_reported_with_its_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad\nkind: base\nextends: default\nplays:\n  ace:\n    effect: scrap feild of me\n", encoding="utf-8"
    )
    assert main(["sim", str(bad), "--games", "5"]) == 1
    err = capsys.readouterr().err
    assert "bad.yaml:6" in err and "Traceback" not in err


def test_reports_are_written_whole_and_self_contained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["compare", "default", "default+classic-2s", "--games", "40", "--jobs", "1", "--out", str(tmp_path)]) == 0
    )
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    for plot in (
        "Win rates (95% CI)",
        "Game length: decisions per game",
        "Play usage: times per game",
        "How games end (95% CI)",
    ):
        assert plot in html
    assert html.count("<svg") >= 5
    lowered = html.lower()
    assert "<script" not in lowered and "<link" not in lowered and "src=" not in lowered and "url(" not in lowered
    assert "https://" not in lowered and "http://" not in lowered.replace("http://www.w3.org/2000/svg", "")
    assert "## Verdict" in md and "| p1 win rate |" in md
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite", "report.html", "report.md"]
    out = capsys.readouterr().out
    assert "Verdict" in out and "\x1b[" not in out  # no colour when not a terminal


def test_until_different_finds_where_a_house_rule_changes_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "default", HOUSE, "--until-different", "--games", "200", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "leads to different positions" in out or "offer different legal moves" in out
    assert main(["compare", "default", "default+classic-2s", "--until-different", "--games", "200", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["found"]
    if found["kind"] == "legal moves":
        assert any(m.startswith("counter") for m in found["only_a"] + found["only_b"])
    else:  # a Royal or Jack that can be countered under A only: B puts it in play at once
        assert found["move"].split()[0] in ("royal", "glasses", "jack")
        assert {d["what"] for d in found["differences"]} >= {"to decide"}


def test_until_different_tells_other_moves_of_the_same_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two rulesets offering as many moves, but not the same ones (the scuttle renamed `sink`), differ
    at the first decision where a scuttle is legal: both lists of moves are shown."""
    house = house_file(tmp_path, "plays:\n  scuttle:\n    verb: sink\n")
    found = run_json(["compare", "default", str(house), "--until-different", "--games", "5", "--jobs", "1"], capsys)
    assert found["found"] and found["kind"] == "legal moves"
    assert found["only_a"] and all(m.startswith("scuttle ") for m in found["only_a"])
    assert found["only_b"] == [m.replace("scuttle", "sink", 1) for m in found["only_a"]]


def test_until_different_tells_a_move_that_ends_the_game_under_one_ruleset_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a goal of 20 for 21, the first difference is the move that reaches 20 points: the same cards
    everywhere, but under the house rule the game is over (who decides and the result differ)."""
    house = house_file(tmp_path, "constants:\n  goals: [20, 14, 10, 5, 0]\n", name="goal-20")
    found = run_json(["compare", "default", str(house), "--until-different", "--games", "50", "--jobs", "1"], capsys)
    assert found["found"] and found["kind"] == "position"
    differences = {d["what"]: (d["a"], d["b"]) for d in found["differences"]}
    assert set(differences) == {"to decide", "result"}
    assert differences["result"][0] == "game goes on" and differences["result"][1].endswith("reached the goal")
    assert differences["to decide"][1] == "nobody (game over)"


def test_until_different_reports_identical_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "default", "rulesets/default.yaml", "--until-different", "--games", "15"]) == 0
    assert "no difference in 15 paired games" in capsys.readouterr().out


def test_each_rule_has_its_own_character_in_rule_order() -> None:
    from interpreter.lab.catalog import MAX_RULES, code_rule, rule_code

    ks = [*range(200), 1000, MAX_RULES - 1]
    codes = [rule_code(k) for k in ks]
    assert [code_rule(c) for c in codes] == ks
    assert sorted(codes) == codes and len(set(codes)) == len(codes)
    assert codes[:3] == ["A", "B", "C"] and rule_code(26) == "a" and rule_code(52) == "\u0100"
    assert not 0xD800 <= ord(rule_code(MAX_RULES - 1)) < 0xE000  # never a surrogate: SQLite stores it as UTF-8


def test_the_view_uses_counts_as_the_summary_does() -> None:
    """The SQL view `uses` and the lab's own decoding (recorder.uses_of) read a game's strings alike,
    characters past ASCII (rule 52 on) included."""
    from interpreter.lab.catalog import rule_code
    from interpreter.lab.columns import CODES, insert_game, names
    from interpreter.lab.recorder import uses_of
    from interpreter.lab.store import schema

    con = sqlite3.connect(":memory:")
    con.executescript(schema())
    rules = [0, 2, 27, 52, 300]
    con.executemany(
        "INSERT INTO rules VALUES ('a', ?, ?, 'play', ?, '', '', 1, 1)", [(k, rule_code(k), f"r{k}") for k in rules]
    )
    a, c, b, x, y = (rule_code(k) for k in rules)
    games = [
        (a + c + x, x + a + x + b + x, x, c + y, y + b, ""),  # b (a choice) chosen, never offered
        ("", "", "", "", "", ""),
    ]
    game = dict.fromkeys(names(), 0) | {"side": "a", "p1": "random", "p2": "random", "reason": ""}
    con.executemany(
        insert_game(),
        [tuple((game | {"idx": i} | dict(zip(CODES, g, strict=True))).values()) for i, g in enumerate(games)],
    )
    view = con.execute("SELECT * FROM uses ORDER BY idx, rule").fetchall()
    assert view == [("a", 0, *row) for row in uses_of(games[0])]
    assert uses_of(games[0]) == (
        (0, 1, 1, 0, 0, 0, 0),
        (2, 1, 0, 0, 1, 0, 0),
        (27, 1, 1, 0, 1, 1, 0),
        (52, 1, 3, 1, 0, 0, 0),
        (300, 0, 0, 0, 1, 1, 0),
    )


def test_a_database_of_the_earlier_format_is_refused_not_misread(tmp_path: Path) -> None:
    out = tmp_path / "old"
    assert main(["sim", "default", "--games", "3", "--out", str(out)]) == 0
    with sqlite3.connect(out / "games.sqlite") as con:
        con.execute("UPDATE run SET value = '1' WHERE key = 'format'")
    con.close()
    before = (out / "games.sqlite").read_bytes()
    assert main(["sim", "default", "--games", "3", "--out", str(out)]) != 0
    assert (out / "games.sqlite").read_bytes() == before


def test_the_verdict_says_what_changed_and_what_did_not() -> None:
    same = simulate(["default", str(ROOT / "rulesets" / "default.yaml")], 60, ("random", "random"), jobs=1)
    assert same.differences["paired"]
    assert same.differences["decisions"]["difference"] == 0 and not same.differences["p1_win_rate"]["detectable"]
    assert same.verdict[0].startswith("no detectable change in game length")
    assert same.verdict[1].startswith("decisions, forced moves included: no detectable")
    assert same.verdict[2].startswith("no detectable change in the first player's win rate")
    micro = simulate(["default", "micro"], 60, ("random", "random"), jobs=1)
    assert not micro.differences["paired"] and "not paired" in micro.pairing
    assert micro.verdict[0].startswith("micro shortens games: ")  # in turns and real choices
    assert "fewer turns" in micro.verdict[0] and "fewer real choices" in micro.verdict[0]
    for key, what in (("turns", "turns"), ("real_choices", "real choices")):
        d = micro.differences[key]
        assert f"{what} (mean {d['a']:.1f} → {d['b']:.1f})" in micro.verdict[0]
    assert micro.verdict[1].startswith("decisions, forced moves included: ")
    assert "glasses is dead under micro only" in micro.verdict


class _LostScheduler:
    """A backend whose cluster goes away after two chunks of games, as a killed Dask scheduler does."""

    name = "the Dask cluster at tcp://127.0.0.1:8786"
    workers = 1

    def map(self, job, work):
        from interpreter.lab.games import run_chunk
        from interpreter.lab.parallel import BackendError, cluster_failure

        for chunk in (work[:2], work[2:4]):
            yield run_chunk(job, list(chunk))
        cause = Exception(
            "_cluster_chunk-5b95d6d6-3a41-4cde-bb5c-381acef54a3e-29 cancelled for reason: scheduler-connection-lost."
        )
        raise BackendError(f"{self.name} {cluster_failure(cause)}")

    def close(self, cancel: bool = False) -> None:
        pass


def test_a_cluster_lost_midway_says_in_one_line_what_was_kept_and_a_rerun_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dead Dask scheduler: one line (no Dask task key) that says how many games were kept and that
    the same command resumes, as Ctrl-C's does; the rerun plays only the rest."""
    import interpreter.lab.sim as sim_module

    monkeypatch.setattr(sim_module, "make_backend", lambda jobs, cluster, tasks=None: _LostScheduler())
    code = main(["sim", "default", "--games", "10", "--seed", "4", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1, err
    assert err[0] == (
        "cuttle sim: the Dask cluster at tcp://127.0.0.1:8786 lost its scheduler (the connection to it closed); "
        f"4 of 10 games kept in {tmp_path / 'run' / 'games.sqlite'}; run the same command again to resume"
    )
    monkeypatch.undo()
    again = simulate(["default"], 10, ("random", "random"), seed=4, jobs=1, out=tmp_path / "run")
    assert (again.resumed, again.played) == (4, 6)


def test_the_lab_connects_to_the_scheduler_that_cluster_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--cluster tcp://HOST:PORT`: the client is made for that address (a listening socket stands in
    for the scheduler, a recording client for Dask's), counts its workers' threads, and is closed with
    the cluster."""
    distributed = pytest.importorskip("distributed")
    import socket

    from interpreter.lab.parallel import Cluster

    made: list[tuple[object, dict]] = []
    closed: list[bool] = []

    class Client:
        def __init__(self, address: object, **options: object) -> None:
            made.append((address, options))

        def nthreads(self) -> dict[str, int]:
            return {"w1": 2, "w2": 3}

        def close(self) -> None:
            closed.append(True)

    monkeypatch.setattr(distributed, "Client", Client)
    with socket.create_server(("127.0.0.1", 0)) as server:
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        cluster = Cluster(address, 1, timeout=5.0)
        assert [a for a, _ in made] == [address] and made[0][1]["timeout"] == 5.0
        assert cluster.name == f"the Dask cluster at {address}" and cluster.workers == 5
        cluster.close()
    assert closed == [True]


def test_dask_is_kept_quiet_while_a_cluster_is_used() -> None:
    """The client's own log of a lost scheduler (some 20 lines of traceback) stays off the terminal."""
    import logging

    from interpreter.lab.parallel import cluster_failure, dask_quiet

    client = logging.getLogger("distributed.client")
    with dask_quiet():
        assert not client.isEnabledFor(logging.CRITICAL)
    assert client.isEnabledFor(logging.ERROR)
    other = cluster_failure(ValueError("key _cluster_chunk-5b95d6d6-3a41-4cde-bb5c-381acef54a3e-29 gone"))
    assert other == "failed: ValueError: key a batch of games gone"
