"""A lab database is only ever the lab's own: a stranger's file in the --out folder (a planted
trigger, view or index, a symlink, random bytes) is refused with one line and left byte for byte."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cli import main
from interpreter.lab.store import StoreError, open_database

SIM = ["sim", "default", "--games", "2", "--jobs", "1"]


def _made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "run"
    assert main([*SIM, "--out", str(out)]) == 0
    capsys.readouterr()
    return out / "games.sqlite"


def _refused(db: Path, capsys: pytest.CaptureFixture[str], *words: str) -> None:
    before = db.read_bytes()
    assert main([*SIM, "--out", str(db.parent)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(w in err for w in words), err
    assert db.read_bytes() == before  # left as it was


@pytest.mark.parametrize(
    "planted, word",
    [
        ("CREATE TRIGGER t AFTER INSERT ON games BEGIN DELETE FROM rules; END", "trigger t"),
        ("CREATE VIEW v AS SELECT * FROM games", "view v"),
        ("CREATE INDEX i ON games(idx)", "index i"),
        ("CREATE TABLE extra (x)", "table extra"),
    ],
)
def test_a_planted_schema_object_is_refused_and_the_file_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], planted: str, word: str
) -> None:
    db = _made(tmp_path, capsys)
    con = sqlite3.connect(db)
    con.execute(planted)
    con.commit()
    con.close()
    _refused(db, capsys, "not a Cuttle Lab database", word, "left as it was")


def test_a_changed_view_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _made(tmp_path, capsys)
    con = sqlite3.connect(db)
    con.executescript("DROP VIEW uses_by_seat; CREATE VIEW uses_by_seat AS SELECT 1;")
    con.close()
    _refused(db, capsys, "view uses_by_seat")


def test_a_symlinked_database_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = _made(tmp_path, capsys)
    out = tmp_path / "elsewhere"
    out.mkdir()
    (out / "games.sqlite").symlink_to(real)
    before = real.read_bytes()
    assert main([*SIM, "--out", str(out)]) == 1
    assert "symbolic link" in capsys.readouterr().err
    assert real.read_bytes() == before and (out / "games.sqlite").is_symlink()


def test_the_lab_s_own_database_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _made(tmp_path, capsys)
    assert main([*SIM, "--out", str(db.parent)]) == 0  # the schema check lets the lab's own file through


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    content=st.one_of(
        st.binary(max_size=300),
        st.lists(
            st.sampled_from(
                [
                    "CREATE TABLE run (key TEXT, value TEXT)",
                    "CREATE TABLE games (x)",
                    "CREATE VIEW uses AS SELECT 1",
                    "CREATE TABLE t (a)",
                    "CREATE INDEX ti ON t(a)",
                    "CREATE TRIGGER tt AFTER INSERT ON t BEGIN SELECT 1; END",
                    "INSERT INTO t VALUES (randomblob(100))",
                ]
            ),
            max_size=5,
        ),
    )
)
@pytest.mark.slow
def test_any_file_in_place_of_the_database_is_refused_or_opened_never_a_crash(tmp_path: Path, content) -> None:
    db = tmp_path / f"case{abs(hash(repr(content)))}.sqlite"
    if isinstance(content, bytes):
        db.write_bytes(content)
    else:
        con = sqlite3.connect(db)
        for stmt in content:
            try:
                con.execute(stmt)
            except sqlite3.DatabaseError:
                pass
        con.commit()
        con.close()
    before = db.read_bytes()
    try:
        open_database(db).close()
    except (StoreError, sqlite3.DatabaseError):  # Store.open turns the second into a StoreError
        assert db.read_bytes() == before


def _claim(db: Path, key: str, value: str) -> None:
    con = sqlite3.connect(db)
    con.execute("UPDATE run SET value = ? WHERE key = ?", (value, key))
    con.commit()
    con.close()


def test_a_planted_database_claiming_the_run_s_identity_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a stranger runs the same command on their machine (another key) and plants the result
    monkeypatch.setenv("CUTTLE_LAB_KEY", str(tmp_path / "stranger.key"))
    db = _made(tmp_path, capsys)
    monkeypatch.undo()
    _refused(db, capsys, "not created by the lab of this user on this machine", "left as it was")


def test_a_database_whose_seal_is_changed_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _made(tmp_path, capsys)
    _claim(db, "run_id", "0" * 32)  # the seal no longer matches the id
    _refused(db, capsys, "not created by the lab")


def test_a_database_without_a_seal_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _made(tmp_path, capsys)
    con = sqlite3.connect(db)
    con.execute("DELETE FROM run WHERE key IN ('run_id', 'seal')")
    con.commit()
    con.close()
    _refused(db, capsys, "not created by the lab")


def test_the_key_is_private_to_its_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.lab import seal

    monkeypatch.setenv("CUTTLE_LAB_KEY", str(tmp_path / "state" / "lab.key"))
    key, kept = seal.machine_key()
    assert kept and len(key) == seal.KEY_BYTES
    assert (tmp_path / "state" / "lab.key").stat().st_mode & 0o077 == 0
    assert seal.machine_key() == (key, True)  # made once, then read
