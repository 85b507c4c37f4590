"""A lab database is only ever the lab's own: a stranger's file in the --out folder (a planted
trigger, view or index, a symlink, random bytes) is refused with one line and left byte for byte."""

from __future__ import annotations

import os
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


@pytest.mark.parametrize("claimed", ["\x80", "é" * 64, "0" * 64])
def test_a_seal_of_any_text_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], claimed: str
) -> None:
    db = _made(tmp_path, capsys)
    _claim(db, "seal", claimed)  # (non-ASCII text was an internal TypeError of hmac.compare_digest)
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


def test_the_key_is_kept_where_docs_security_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`$CUTTLE_LAB_KEY` if set; else `$XDG_STATE_HOME/cuttle-lab/lab.key`; else under
    `~/.local/state` (docs/security.md)."""
    from interpreter.lab import seal

    monkeypatch.setenv("CUTTLE_LAB_KEY", str(tmp_path / "mine.key"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert seal.key_file() == tmp_path / "mine.key"
    monkeypatch.delenv("CUTTLE_LAB_KEY")
    assert seal.key_file() == tmp_path / "xdg" / "cuttle-lab" / "lab.key"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert seal.key_file() == tmp_path / "home" / ".local" / "state" / "cuttle-lab" / "lab.key"


# -- the seal covers every row that is resumed or reported (issue 42.2) ------------------------------


def _edit(db: Path, *statements: str) -> None:
    con = sqlite3.connect(db)
    with con:
        for sql in statements:
            con.execute(sql)
    con.close()


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE games SET winner = CASE winner WHEN 'p1' THEN 'p2' ELSE 'p1' END",  # the results turned round
        "UPDATE games SET progress = '[[1, 2' WHERE idx = 0",  # invalid JSON (was an internal JSONDecodeError)
        "UPDATE games SET turns = 1e300 WHERE idx = 0",  # a number of another type
        "DELETE FROM games WHERE idx = 1",
        "INSERT INTO games SELECT side, 7, seed, p1, p2, winner, end_reason, goal, p1_points, p2_points, turns, "
        "real_choices, decisions, hands, reason, p1_offered, p1_used, p1_countered, p2_offered, p2_used, "
        "p2_countered, progress, ended_by, fired, counters, knowledge, p1_ranks, p2_ranks FROM games WHERE idx = 0",
    ],
)
def test_a_sealed_database_whose_games_were_edited_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str
) -> None:
    db = _made(tmp_path, capsys)
    _edit(db, edit)
    _refused(db, capsys, "its games were changed after the lab wrote them", "left as it was")


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE rules SET name = 'points \x1b]0;pwned\x07' WHERE rule = 0",  # the reports name the rules
        "UPDATE rulesets SET spec = 'elsewhere.yaml'",
        "INSERT INTO run VALUES ('extra', '1')",
    ],
)
def test_a_sealed_database_whose_rules_were_edited_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str
) -> None:
    db = _made(tmp_path, capsys)
    _edit(db, edit)
    _refused(db, capsys, "or was changed since", "left as it was")


@pytest.mark.parametrize(
    "identity, words",
    [
        ("{not json", "its run identity is not the lab's JSON"),
        ("[1, 2]", "its run identity is not the lab's JSON"),
        ('{"rulesets": 5, "players": [[]], "seed": {"x": 1}}', "holds another run (?, players ?, seed ?, cap ?)"),
        ('{"rulesets": [{"name": 3}], "players": "p"}', "holds another run (3 [?], players ?"),
    ],
)
def test_an_identity_that_is_not_the_labs_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], identity: str, words: str
) -> None:
    db = _made(tmp_path, capsys)
    _claim(db, "identity", identity)
    _refused(db, capsys, words)


def test_the_seal_of_the_games_holds_over_many_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    for games in ("2", "5", "9"):  # each rerun adds games and keeps the seal up to date
        args = ["compare", "default", "default+classic-2s", "--games", games, "--jobs", "1"]
        assert main([*args, "--out", str(out)]) == 0
    assert "9 games" in capsys.readouterr().out


# -- every write of a lab command lands where it is named (issue 42.1) --------------------------------


@pytest.mark.parametrize("name", ["report.html", "report.md", "games.sqlite-wal", "games.sqlite-journal"])
def test_a_link_planted_in_the_out_folder_is_refused_before_a_game_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    (out / name).symlink_to(victim)
    assert main([*SIM, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "symbolic link" in err, err
    assert not victim.exists() and sorted(p.name for p in out.iterdir()) == [name]  # nothing played, nothing written


def test_a_rollback_journal_beside_the_database_is_refused_and_both_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _made(tmp_path, capsys)
    journal = db.with_name("games.sqlite-journal")
    journal.write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + bytes(504))  # a journal's header: hot for SQLite
    _refused(db, capsys, "rollback journal", "left as it was")  # (was: "attempt to write a readonly database")
    assert journal.exists()


def test_ladder_json_through_a_planted_link_is_refused_before_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ratings.json").symlink_to(tmp_path / "victim.json")
    args = ["ladder", "micro", "--players", "random,random", "--games", "2", "--jobs", "1"]
    assert main([*args, "--json", str(tmp_path / "ratings.json")]) == 1
    err = capsys.readouterr()
    assert "symbolic link" in err.err and err.out == "" and not (tmp_path / "victim.json").exists()


# -- the key file: the lab's own or refused (issue 42.3) -----------------------------------------------


def _key_at(tmp_path: Path, layout: str) -> Path:
    import os

    key = tmp_path / "state" / "lab.key"
    key.parent.mkdir(parents=True, exist_ok=True)
    if layout == "fifo":
        os.mkfifo(key, 0o600)
    elif layout == "folder":
        key.mkdir()
    elif layout == "symlink":
        other = tmp_path / "other.key"
        other.write_bytes(b"k" * 32)
        other.chmod(0o600)
        key.symlink_to(other)
    else:
        key.write_bytes(b"k" * (33 if layout == "long" else 31 if layout == "short" else 32))
        key.chmod(0o666 if layout == "world-writable" else 0o640 if layout == "group-readable" else 0o600)
        if layout == "another-owner":
            os.chown(key, 4242, 4242)
    if layout.startswith("folder-"):  # the key is the lab's own, but others may replace it (issue 42, left over)
        key.parent.chmod(0o1777 if layout == "folder-world-writable" else 0o770 if "group" in layout else 0o755)
        if layout == "folder-of-another-user":
            os.chown(key.parent, 4242, 4242)
    return key


KEY_LAYOUTS = {
    "fifo": "is not a regular file",
    "folder": "is not a regular file",
    "symlink": "is a symbolic link",
    "long": "holds more than 32 bytes",
    "short": "holds 31 bytes",
    "world-writable": "may be read or changed by other users (mode 0666)",
    "group-readable": "may be read or changed by other users (mode 0640); if you made it yourself, make it private",
    "another-owner": "belongs to another user (uid 4242)",
    "folder-world-writable": "is in a folder other users can change (mode 1777), who could replace it; make the "
    "folder yours alone (`chmod go-w",
    "folder-group-writable": "is in a folder other users can change (mode 0770)",
    "folder-of-another-user": "is in a folder of another user (uid 4242), who could replace it",
}


@pytest.mark.parametrize("layout", sorted(KEY_LAYOUTS))
def test_a_key_that_is_not_the_labs_own_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    import os
    import signal

    if layout in ("another-owner", "folder-of-another-user") and os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")
    key = _key_at(tmp_path, layout)
    monkeypatch.setenv("CUTTLE_LAB_KEY", str(key))
    old = signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the key was waited for")))
    signal.alarm(20)  # a FIFO opened for reading would wait for a writer forever
    try:
        assert main([*SIM, "--out", str(tmp_path / "run")]) == 1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"the lab's key {key} {KEY_LAYOUTS[layout]}" in err, err
    assert not (tmp_path / "run").exists()  # refused before anything was made
    assert main([*SIM]) == 0  # a run kept in memory needs no key file


def test_a_missing_key_is_made_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = tmp_path / "state" / "lab.key"
    monkeypatch.setenv("CUTTLE_LAB_KEY", str(key))
    old = os.umask(0o002)  # a umask that lets the group write: the lab's own folder is made private anyway
    try:
        assert main([*SIM, "--out", str(tmp_path / "run")]) == 0
    finally:
        os.umask(old)
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32
    assert key.parent.stat().st_mode & 0o777 == 0o700


def test_no_key_is_made_in_a_folder_others_can_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    monkeypatch.setenv("CUTTLE_LAB_KEY", str(shared / "lab.key"))
    assert main([*SIM, "--out", str(tmp_path / "run")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is in a folder other users can change (mode 0777)" in err, err
    assert not (shared / "lab.key").exists() and not (tmp_path / "run").exists()
