"""A per-game number is declared once (interpreter/lab/columns.py): one `Column` added there, and
only there, is stored in games.sqlite, summarised, compared and reported; a database without it is
refused, not misread."""

from __future__ import annotations

import json
import sqlite3
import statistics
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.engine.state import DECK, HAND0
from interpreter.lab import columns
from interpreter.lab.columns import Column, Measure
from interpreter.lab.job import game_seed, player_seed
from interpreter.players import make_player
from interpreter.rules import load_ruleset

from .playout import play_out

# test-only declarations: one measure of the summary itself, one in a group of its own
HAND = Column(
    "p1_hand_left",
    "INTEGER NOT NULL",
    "cards in p1's hand at the end",
    lambda r: len(r.state.zones[HAND0]) if r.state else 0,
    Measure("cards in p1's hand"),
)
DECK_LEFT = Column(
    "deck_left",
    "INTEGER NOT NULL",
    "cards left in the deck at the end",
    lambda r: len(r.state.zones[DECK]) if r.state else 0,
    Measure("cards left in the deck", section="Game quality", group="quality"),
)


@pytest.fixture
def declared(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(columns, "COLUMNS", (*columns.COLUMNS, HAND, DECK_LEFT))


def ended(spec: str, seed: int, index: int) -> Game:
    """Game `index` of a random run seeded `seed`, played again through the Game API alone."""
    s = game_seed(seed, index)
    game = Game.new(load_ruleset(spec), s)
    seats = [make_player("random", seed=player_seed(s, p)) for p in (0, 1)]
    return play_out(game, lambda g: seats[g.decision.player].choose(g))


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def stored(db: Path, column: str, side: str = "a") -> list[int]:
    con = sqlite3.connect(db)
    try:
        return [v for (v,) in con.execute(f"SELECT {column} FROM games WHERE side = ? ORDER BY idx", (side,))]
    finally:
        con.close()


def test_a_declared_measure_is_stored_summarised_and_reported(
    declared: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim"
    s = json.loads(
        run(["sim", "default", "--games", "30", "--seed", "2", "--jobs", "1", "--out", str(out), "--json"], capsys)
    )
    hands, decks = stored(out / "games.sqlite", "p1_hand_left"), stored(out / "games.sqlite", "deck_left")
    for i in (0, 7, 29):  # what the games left, seen without the lab
        game = ended("default", 2, i)
        assert (hands[i], decks[i]) == (len(game.state.zones[HAND0]), len(game.state.zones[DECK]))
    assert s["median_p1_hand_left"] == statistics.median(hands) == s["p1_hand_left"]["median"]
    assert s["p1_hand_left"]["mean"] == pytest.approx(statistics.fmean(hands))
    assert s["quality"]["deck_left"]["median"] == statistics.median(decks)
    assert (s["quality"]["deck_left"]["min"], s["quality"]["deck_left"]["max"]) == (min(decks), max(decks))
    text = run(["sim", "default", "--games", "30", "--seed", "2", "--jobs", "1", "--out", str(out)], capsys)
    lines = text.splitlines()
    quality = lines.index("Game quality")
    assert lines[quality + 2].split()[:6] == ["cards", "left", "in", "the", "deck", num(statistics.median(decks))]
    assert any(line.split()[:5] == ["cards", "in", "p1's", "hand", num(statistics.median(hands))] for line in lines)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Game quality: cards left in the deck per game" in html and "Game length: cards in p1&#x27;s hand" in html


def test_a_declared_measure_is_compared(declared: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "compare"
    argv = ["compare", "default", "default+classic-2s", "--games", "30", "--jobs", "1", "--out", str(out)]
    c = json.loads(run([*argv, "--json"], capsys))
    a, b = stored(out / "games.sqlite", "deck_left", "a"), stored(out / "games.sqlite", "deck_left", "b")
    d = c["differences"]["quality"]["deck_left"]
    assert (d["a"], d["b"]) == (pytest.approx(statistics.fmean(a)), pytest.approx(statistics.fmean(b)))
    assert d["difference"] == pytest.approx(statistics.fmean(b) - statistics.fmean(a))
    assert c["differences"]["p1_hand_left"]["relative_ci95"]
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "## Game quality" in md and "| mean cards left in the deck |" in md
    assert "| mean cards in p1's hand |" in md.split("## Game quality")[0]  # in the table of game length


def test_a_database_without_a_declared_column_is_refused_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "old"
    run(["sim", "default", "--games", "3", "--jobs", "1", "--out", str(out)], capsys)
    before = (out / "games.sqlite").read_bytes()
    monkeypatch.setattr(columns, "COLUMNS", (*columns.COLUMNS, DECK_LEFT))
    assert main(["sim", "default", "--games", "3", "--jobs", "1", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no column deck_left, which this one writes" in err, err
    assert (out / "games.sqlite").read_bytes() == before


def test_the_columns_of_games_are_those_declared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(["sim", "default", "--games", "3", "--jobs", "1", "--out", str(tmp_path)], capsys)
    con = sqlite3.connect(tmp_path / "games.sqlite")
    try:
        have = [(r[1], r[2], r[3]) for r in con.execute("PRAGMA table_info(games)")]
    finally:
        con.close()
    assert have == [(c.name, c.sql.split()[0], int("NOT NULL" in c.sql)) for c in columns.COLUMNS]
    with pytest.raises(ValueError, match="named like an SQL identifier"):
        Column("x; DROP TABLE games", "TEXT", "")


def num(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.1f}"
