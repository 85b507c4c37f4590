"""Hypothesis over what the fourth review found (issue 42.8): lab databases with an edited row, layouts
of the lab's key file, numbers given on the command line, and names holding control characters and
line breaks. Each property states the boundary's promise (docs/security.md): refused in one line and
left as it was, or accepted only when it is what the lab itself would have; never a hang, a crash or
a raw character on the way out."""

from __future__ import annotations

import math
import os
import re
import shutil
import signal
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.core.ceilings import RANGES, OptionError, real, whole
from interpreter.core.errors import name_text, safe_text
from interpreter.core.terminal import painted, safe, sgr
from interpreter.lab import seal
from interpreter.lab.catalog import catalog_of
from interpreter.lab.job import rules_of
from interpreter.lab.report_md import md
from interpreter.lab.sim import prepare, simulate
from interpreter.lab.store import Store, StoreError
from interpreter.lab.svg import escape

FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# -- databases with an edited row ------------------------------------------------------------------


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, object]]:
    """A database the lab made (3 games of a comparison), and its run."""
    out = tmp_path_factory.mktemp("sealed")
    specs, players = ["default", "default+classic-2s"], ("random", "random")
    simulate(specs, 3, players, seed=4, jobs=1, out=out)
    yield out / "games.sqlite", prepare(specs, players, 4)


VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.binary(max_size=8),
)


@FUZZ
@given(
    table=st.sampled_from(["games", "rules", "rulesets", "run"]),
    pick=st.integers(min_value=0, max_value=10**6),
    value=VALUES,
)
def test_a_database_with_any_value_edited_is_refused_and_kept_or_unchanged(
    sealed: tuple[Path, object], tmp_path_factory: pytest.TempPathFactory, table: str, pick: int, value: object
) -> None:
    db, job = sealed
    out = tmp_path_factory.mktemp("edited")
    copy = out / "games.sqlite"
    shutil.copyfile(db, copy)
    con = sqlite3.connect(copy)
    cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
    rows = con.execute(f"SELECT rowid, * FROM {table}").fetchall()
    rowid, *old = rows[pick % len(rows)]
    col = pick // len(rows) % len(cols)
    try:
        with con:
            con.execute(f"UPDATE {table} SET {cols[col]} = ? WHERE rowid = ?", (value, rowid))
    except sqlite3.IntegrityError:  # a NOT NULL or a key the row cannot take: nothing was changed
        pass
    now = con.execute(f"SELECT * FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
    con.close()
    before = copy.read_bytes()
    try:
        store = Store.open(job, [catalog_of(rules_of(s)) for s in job.sides], out)  # type: ignore[attr-defined]
    except StoreError as e:
        assert list(now) != old, "the lab's own file was refused"
        assert "\n" not in str(e) and copy.read_bytes() == before  # one line, and left as it was
        return
    store.close()
    assert list(now) == old or seal.row_text(now) == seal.row_text(old), (table, cols[col], value)


# -- the key file --------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(["file", "file", "file", "fifo", "folder", "symlink", "dangling"]),
    size=st.one_of(st.just(32), st.integers(min_value=0, max_value=40)),  # the key's own size, often
    mode=st.one_of(st.just(0o600), st.integers(min_value=0, max_value=0o777)),  # the lab's own mode, often
    others=st.sampled_from([0, 0, 0o005, 0o050, 0o002, 0o020, 0o1777 & ~0o700]),  # the folder's bits for others
)
def test_any_key_layout_is_used_only_if_it_is_the_labs_own(
    tmp_path_factory: pytest.TempPathFactory, kind: str, size: int, mode: int, others: int
) -> None:
    key = tmp_path_factory.mktemp("state") / "lab.key"
    key.parent.chmod(0o700 | others)
    if kind == "file":
        key.write_bytes(os.urandom(size))
        key.chmod(mode)
    elif kind == "fifo":
        os.mkfifo(key, mode)
    elif kind == "folder":
        key.mkdir(mode)
    elif kind == "symlink":
        (key.parent / "real.key").write_bytes(os.urandom(size))
        (key.parent / "real.key").chmod(0o600)
        key.symlink_to(key.parent / "real.key")
    else:
        key.symlink_to(key.parent / "nowhere.key")
    old = os.environ.get("CUTTLE_LAB_KEY")
    os.environ["CUTTLE_LAB_KEY"] = str(key)
    previous = signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the key hung")))
    signal.alarm(10)
    try:
        got, kept = seal.machine_key()
    except seal.SealError as e:
        assert "\n" not in str(e) and str(key) in str(e)
        assert not (kind == "file" and size == 32 and mode & 0o077 == 0 and (mode & 0o400 or os.geteuid() == 0)) or (
            others & 0o022 and "is in a folder other users can change" in str(e)
        )
        return
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        os.environ["CUTTLE_LAB_KEY"] = old or ""
        if old is None:
            del os.environ["CUTTLE_LAB_KEY"]
        if key.exists() and not key.is_symlink() and key.is_dir():
            key.chmod(0o700)
    assert kind == "file" and size == 32 and stat.S_IMODE(key.lstat().st_mode) & 0o077 == 0 and not others & 0o022
    assert kept and got == key.read_bytes()


# -- numbers from the command line ---------------------------------------------------------------

NUMBER_TEXT = st.one_of(
    st.integers().map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(alphabet="0123456789-+_.eEinfa x", max_size=40),
    st.integers(min_value=0, max_value=10**60).map(lambda n: str(n) * 3),
)


@FUZZ
@given(option=st.sampled_from(sorted(RANGES)), text=NUMBER_TEXT)
def test_every_option_number_is_within_its_range_or_refused_naming_it(option: str, text: str) -> None:
    lo, hi, limit = RANGES[option]
    check = real if isinstance(lo, float) else whole
    try:
        value = check(text, option)
    except OptionError as e:
        message = str(e)
        assert message.startswith(f"{option} ") and f"({limit})" in message and "\n" not in message
        assert len(message) < 200  # a long number is not echoed whole
        return
    assert lo <= value <= hi and math.isfinite(value)


# -- names with control characters and line breaks ------------------------------------------------

NAMES = st.lists(
    st.one_of(
        st.characters(),
        st.sampled_from(["\x1b[31m", "\x1b[2m", "\x1b]0;t\x07", "\n", "\r", "|", "<script>", "](", "`", "\\"]),
    ),
    max_size=12,
).map("".join)
_OUR_COLOUR = re.compile(r"\x1b\[(0|1|2|31|32|33)m")


@FUZZ
@given(name=NAMES)
def test_a_name_reaches_every_medium_as_text(name: str) -> None:
    # the terminal: nothing of the name is a control character, coloured or not; only our marks paint
    for colour in (False, True):
        shown = painted(safe(f"{sgr('bold')}{name}{sgr('reset')}", colour))
        plain = _OUR_COLOUR.sub("", shown)
        assert all(ch in "\n\t" or (ch.isprintable() and safe_text(ch) == ch) for ch in plain), repr(shown)
        assert shown.count("\x1b") == (2 if colour else 0)
    # a listing: one line
    assert "\n" not in name_text(name) and "\r" not in name_text(name)
    # report.md: one line, no control character, every bracket, pipe, backtick and angle escaped
    m = md(name)
    assert "\n" not in m and safe_text(m) == m
    assert not re.search(r"(?<!\\)(?:\\\\)*[|`<>\[\]&]", m), m
    # report.html: no markup, no control character
    h = escape(name)
    assert "<" not in h and ">" not in h and safe_text(h) == h
