"""Any value changed in any row of any table of a sealed lab database is refused: the run is not
resumed nor reported, one line says so, and the file is left byte for byte. The tables and columns
are read from the database itself, so this holds for whatever the lab stores (issue 42 made the
seal cover every row)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from interpreter.cli import main

SIM = ["sim", "default", "--games", "3", "--jobs", "1"]


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sealed") / "run"
    assert main([*SIM, "--out", str(out)]) == 0
    return out / "games.sqlite"


def _cells(db: Path) -> list[tuple[str, int, str]]:
    """(table, rowid, column) of every value stored."""
    con = sqlite3.connect(db)
    try:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        cells = []
        for t in tables:
            if t.startswith("sqlite_"):
                continue
            cols = [c[1] for c in con.execute(f'PRAGMA table_info("{t}")')]
            for (rowid,) in con.execute(f'SELECT rowid FROM "{t}"'):
                cells.extend((t, rowid, c) for c in cols)
        return cells
    finally:
        con.close()


def _changed(value: object, k: int) -> object:
    """Another value of the same kind: a number moved by k, one character of a text replaced."""
    if isinstance(value, bool) or value is None:
        return 1
    if isinstance(value, int | float):
        return value + k
    if isinstance(value, bytes):
        return bytes([value[0] ^ (k % 255 + 1)]) + value[1:] if value else b"\0"
    text = str(value)
    if not text:
        return "x"
    i = k % len(text)
    return text[:i] + ("y" if text[i] != "y" else "z") + text[i + 1 :]


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(pick=st.integers(0, 10**9), k=st.integers(1, 1000))
def test_any_value_changed_in_a_sealed_database_is_refused(
    sealed: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], pick: int, k: int
) -> None:
    cells = _cells(sealed)
    assert len({t for t, _, _ in cells}) >= 3  # the run, its rulesets and rules, its games
    table, rowid, col = cells[pick % len(cells)]
    out = tmp_path_factory.mktemp("edited") / "run"
    shutil.copytree(sealed.parent, out)
    db = out / "games.sqlite"
    con = sqlite3.connect(db)
    (value,) = con.execute(f'SELECT "{col}" FROM "{table}" WHERE rowid = ?', (rowid,)).fetchone()
    try:
        con.execute(f'UPDATE "{table}" SET "{col}" = ? WHERE rowid = ?', (_changed(value, k), rowid))
    except sqlite3.IntegrityError:  # a change the table's own constraints refuse: nothing to check
        con.close()
        assume(False)
    con.commit()
    con.close()
    before = db.read_bytes()
    capsys.readouterr()
    assert main([*SIM, "--out", str(out)]) == 1, f"{table}.{col} of row {rowid} changed, and the run went on"
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert db.read_bytes() == before, f"{table}.{col}: the refused file was changed"
