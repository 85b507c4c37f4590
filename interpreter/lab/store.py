"""Every game of a run, kept in an SQLite database (`games.sqlite` in the output folder).

SQLite comes with Python, is one file a designer can copy, and is read by every SQL tool
(`sqlite3`, DB Browser, pandas, DuckDB's sqlite scanner); see docs/lab.md for the tables and
example queries. Writes are transactions: a game is stored whole or not at all, so an interrupted
run keeps exactly the games that finished, and rerunning the same command plays only the rest.

A database belongs to one run: its identity (rulesets and their hashes, players, master seed,
decision cap) is stored with it, and a run with another identity is refused rather than mixed in;
a random run id and its seal (seal.py) prove that this user's lab created it, so a stranger's
file that claims the same identity is refused too.

The table `games` has one row per game and ruleset, its columns declared in columns.py (and made
there from a game's `GameRecord`). A random game lasts under half a millisecond, and inserting its
~15 rows of play counts one by one would add several percent to that; so what each seat did is six
short strings of that row, one character per rule (`rules.code`): `p1_offered` the plays and responses that
became legal for p1 (each once, in rule order), `p1_used` what p1 chose (plays, responses and
choices, in the order chosen), `p1_countered` p1's plays that were countered; the same for p2.
The views `uses` and `uses_by_seat` count them per rule for SQL; the lab's own summary counts them
in Python.

Format 1 kept the counts as JSON in a column `uses_json`; format 2 had no column `real_choices` (real
choices per game); format 5 sealed the run's identity but not its games; such a database is refused
with a message, not read wrongly.
"""

from __future__ import annotations

import hmac
import json
import os
import sqlite3
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interpreter.core.errors import CuttleError

from . import columns, seal
from .catalog import Catalog, rule_code
from .columns import Row
from .job import Job

FORMAT = 7  # 7: a question's answer no is a rule of its own (catalog.py)
DB_NAME = "games.sqlite"

TABLES = """
CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rulesets (
    side TEXT PRIMARY KEY,      -- 'a' (sim, or compare's first ruleset) or 'b'
    spec TEXT NOT NULL,         -- as given on the command line
    name TEXT NOT NULL,
    hash TEXT NOT NULL          -- the ruleset's content hash (as in game records)
);
CREATE TABLE IF NOT EXISTS rules (
    side TEXT NOT NULL,
    rule INTEGER NOT NULL,      -- its number in this ruleset (uses.rule)
    code TEXT NOT NULL,         -- the character that stands for it in games.p1_used etc.
    kind TEXT NOT NULL,         -- play | response | choice | end | trigger | counter
    name TEXT NOT NULL,         -- the ruleset's own name: plays.NAME, responses.NAME, 'OWNER: VERB', end.passes
    detail TEXT NOT NULL,       -- its verb and ranks, or where the choice is made
    origin TEXT NOT NULL,       -- '' for the base ruleset's own; 'from OPTION' / 'changed by OPTION'
    answerable INTEGER NOT NULL,-- 1 if a response can answer it (it can be countered)
    watch INTEGER NOT NULL,     -- 1 if it is named as dead when it never fires
    PRIMARY KEY (side, rule)
);
"""
VIEWS = """
CREATE VIEW IF NOT EXISTS uses AS  -- one row per game and rule that was legal or used in it
    SELECT g.side AS side, g.idx AS idx, r.rule AS rule,                        -- rules.rule
           (instr(g.p1_offered, r.code) > 0 OR instr(g.p1_used, r.code) > 0) AS p1_offered,  -- 1: legal for p1
           length(g.p1_used) - length(replace(g.p1_used, r.code, '')) AS p1_used,              -- times chosen
           length(g.p1_countered) - length(replace(g.p1_countered, r.code, '')) AS p1_countered,
           (instr(g.p2_offered, r.code) > 0 OR instr(g.p2_used, r.code) > 0) AS p2_offered,
           length(g.p2_used) - length(replace(g.p2_used, r.code, '')) AS p2_used,
           length(g.p2_countered) - length(replace(g.p2_countered, r.code, '')) AS p2_countered
    FROM games g JOIN rules r ON r.side = g.side
    WHERE instr(g.p1_offered || g.p1_used || g.p2_offered || g.p2_used, r.code) > 0;
CREATE VIEW IF NOT EXISTS uses_by_seat AS
    SELECT u.side, u.idx, 'p1' AS seat, r.kind, r.name, u.p1_offered AS offered, u.p1_used AS used,
           u.p1_countered AS countered
    FROM uses u JOIN rules r ON r.side = u.side AND r.rule = u.rule WHERE u.p1_offered OR u.p1_used
    UNION ALL
    SELECT u.side, u.idx, 'p2', r.kind, r.name, u.p2_offered, u.p2_used, u.p2_countered
    FROM uses u JOIN rules r ON r.side = u.side AND r.rule = u.rule WHERE u.p2_offered OR u.p2_used;
"""


def schema() -> str:
    """Every table and view of a run's database (the table `games` as columns.py declares it)."""
    return TABLES + columns.games_table() + VIEWS


class StoreError(CuttleError):
    """An output folder that cannot hold this run."""


class Store:
    """The database of one run (in a file with `--out`, otherwise in memory)."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, job: Job, key: bytes) -> None:
        self.conn = conn
        self.path = path
        self.job = job
        self.key = key  # the lab's key (seal.py): every row's seal is made with it
        self.run_id = ""
        self.games_seal = 0  # the seal of every row of `games` (seal.rows_seal), kept with each commit

    @classmethod
    def open(cls, job: Job, catalogs: Sequence[Catalog], out: str | Path | None = None) -> Store:
        """Open (or create) the run's database in folder `out`; refuse one holding another run, or
        one whose rows were changed since the lab wrote them."""
        path = None
        sealed: tuple[str, int] | None = None
        if out is None:
            conn = _interruptible(sqlite3.connect(":memory:"))
            key = seal.session_key()
        else:
            if not str(out).strip():  # Path("") is the current folder: the run's files would land there unasked
                raise StoreError("--out needs the name of a folder (it was empty); give '.' for this folder")
            key, _ = seal.machine_key()  # a key that is not the lab's own is refused before anything is made
            folder = Path(out)
            if folder.exists() and not folder.is_dir():
                raise StoreError(f"--out {out}: not a folder")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"--out {out}: cannot create the folder ({e.strerror})") from None
            path = folder / DB_NAME
            if not os.access(folder, os.W_OK):  # (a read-only folder or file system, even for root)
                raise StoreError(f"--out {out}: cannot write in this folder; choose another --out folder")
            try:
                conn = open_database(path)
                if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    sealed = _check_identity(conn, path, job, key)
            except sqlite3.DatabaseError as e:
                raise StoreError(f"{path} is not a Cuttle Lab database ({e}); choose another --out folder") from None
        store = cls(conn, path, job, key)
        if sealed is not None:
            store.run_id, store.games_seal = sealed
        try:
            if path is not None:
                conn.execute("PRAGMA journal_mode=WAL")  # commits without waiting for the disk each time,
                conn.execute("PRAGMA synchronous=NORMAL")  # still whole transactions after a crash
            store._create(catalogs)
        except sqlite3.OperationalError as e:  # a read-only database file, a full disk
            conn.close()
            raise StoreError(f"--out {out}: cannot write {path} ({e}); choose another --out folder") from None
        return store

    def _create(self, catalogs: Sequence[Catalog]) -> None:
        with self.conn:
            self.conn.executescript(schema())
            if self.conn.execute("SELECT 1 FROM run WHERE key = 'identity'").fetchone() is None:
                identity, run_id = json.dumps(self.job.identity(), sort_keys=True), seal.new_run_id()
                self.conn.executemany(
                    "INSERT INTO rulesets VALUES (?, ?, ?, ?)",
                    [(s.label, s.spec, s.name, s.hash) for s in self.job.sides],
                )
                self.conn.executemany(
                    "INSERT INTO rules VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (s.label, i, rule_code(i), r.kind, r.name, r.detail, r.origin, int(r.answerable), int(r.watch))
                        for s, cat in zip(self.job.sides, catalogs, strict=True)
                        for i, r in enumerate(cat.infos)
                    ],
                )
                self.run_id, self.games_seal = run_id, 0
                self.conn.executemany(
                    "INSERT INTO run VALUES (?, ?)",
                    [
                        ("format", str(FORMAT)),
                        ("identity", identity),
                        ("run_id", run_id),
                        ("seal", seal.seal(self.key, run_id, _sealed_text(self.conn, identity))),
                        ("games_seal", _hex(0)),
                    ],
                )

    # -- games --------------------------------------------------------------------------------
    def done(self, games: int) -> set[int]:
        """The game numbers below `games` already stored for every ruleset of the run. A game stored for
        one side only (a comparison stopped between its two sides) is not done: its row is dropped, so
        that the game is played again under both rulesets."""
        sides = len(self.job.sides)
        lone = "SELECT idx FROM games GROUP BY idx HAVING COUNT(*) < ?"
        with self.conn:
            dropped = self.conn.execute(f"SELECT * FROM games WHERE idx IN ({lone})", (sides,)).fetchall()
            if dropped:
                self.conn.execute(f"DELETE FROM games WHERE idx IN ({lone})", (sides,))
                self._reseal(dropped)
        rows = self.conn.execute("SELECT idx FROM games WHERE idx < ? GROUP BY idx HAVING COUNT(*) = ?", (games, sides))
        return {i for (i,) in rows}

    def add(self, rows: Sequence[Row]) -> int:
        """Store finished games (rows of `games`, as `games.run_chunk` makes them) in one transaction,
        with the games' seal brought up to date; returns how many game numbers were completed."""
        with self.conn:
            self.conn.executemany(columns.insert_game(), rows)
            self._reseal(rows)
        return len(rows) // max(1, len(self.job.sides))

    def _reseal(self, rows: Sequence[Row]) -> None:
        """The games' seal with `rows` added or dropped (each row's part cancels itself out)."""
        self.games_seal = seal.rows_seal(self.key, self.run_id, rows, self.games_seal)
        self.conn.execute("UPDATE run SET value = ? WHERE key = 'games_seal'", (_hex(self.games_seal),))

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params).fetchall()

    def games(self, side: str, games: int, cols: Sequence[str]) -> dict[str, list[Any]]:
        """Columns `cols` of the first `games` games of ruleset `side`, one list per column, in game order."""
        known = set(columns.names())
        if not set(cols) <= known:
            raise ValueError(f"no such column of games: {', '.join(sorted(set(cols) - known))}")
        rows = self.query(f"SELECT {', '.join(cols)} FROM games WHERE side = ? AND idx < ? ORDER BY idx", (side, games))
        return columns.by_name(rows, cols)

    def close(self) -> None:
        if self.path is not None:
            try:  # one plain file again for whoever opens it next (unless someone is reading it right now)
                self.conn.execute("PRAGMA journal_mode=DELETE")
            except sqlite3.OperationalError:
                pass
        self.conn.close()


# SQLite's own limits, far above what the lab writes (a game's row is under a few KB)
_LIMITS = {
    sqlite3.SQLITE_LIMIT_LENGTH: 16_000_000,  # one value or row, in bytes
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 1_000_000,
    sqlite3.SQLITE_LIMIT_COLUMN: 200,
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 200,
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 50,
    sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH: 1,
    sqlite3.SQLITE_LIMIT_ATTACHED: 0,
}


def _interruptible(conn: sqlite3.Connection) -> sqlite3.Connection:
    """The settings of every connection to a lab database: no function or virtual table a schema
    names may run (`trusted_schema=OFF`), SQLite's length limits, and a progress handler, so that
    Ctrl-C stops any query (the handler is where Python sees the signal)."""
    conn.execute("PRAGMA trusted_schema=OFF")
    for limit, value in _LIMITS.items():
        conn.setlimit(limit, value)
    conn.set_progress_handler(lambda: 0, 10_000)
    return conn


def lab_schema() -> set[tuple[str, str, str | None]]:
    """Every schema object of a lab database, as SQLite records it: (type, name, sql)."""
    mem = sqlite3.connect(":memory:")
    try:
        mem.executescript(schema())
        return set(mem.execute("SELECT type, name, sql FROM sqlite_master"))
    finally:
        mem.close()


def open_database(path: Path) -> sqlite3.Connection:
    """The one way any command opens a lab database. A new file is created; an existing one must be a
    regular file (not a symlink) whose schema is exactly the lab's own (every table, view, index and
    trigger compared with the lab's schema text), checked on a read-only connection before a single
    query reads its tables: a stranger's database (a planted trigger or view, an extra index) is
    refused and left byte for byte as it was."""
    if path.is_symlink():
        raise StoreError(f"{path} is a symbolic link; a lab database is a plain file: choose another --out folder")
    _check_beside(path)
    if path.exists():
        if not path.is_file():
            raise StoreError(f"{path} is not a regular file; choose another --out folder")
        ro = _interruptible(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True))
        try:
            have = set(ro.execute("SELECT type, name, sql FROM sqlite_master"))
        finally:
            ro.close()
        mine = lab_schema()
        # a table of the lab's whose columns differ is an older or newer version's: let the identity
        # check say so; any other object (a view, trigger or index the lab does not make, or of
        # another text) is refused outright
        tables = {n for t, n, _ in mine if t == "table"}
        odd = sorted(
            f"{t} {n}" for t, n, sql in have - mine if not (t == "table" and n in tables and (t, n) in _names(have))
        )
        if have and (odd or not _names(mine) >= _names(have)):
            raise StoreError(
                f"{path} is not a Cuttle Lab database of this version (its schema has "
                + (", ".join(odd[:5]) + (" ..." if len(odd) > 5 else "") if odd else "objects missing")
                + " that the lab does not make); it is left as it was: choose another --out folder"
            )
    return _interruptible(sqlite3.connect(path))


def _check_beside(path: Path) -> None:
    """SQLite's own files beside the database (`-wal`, `-shm`: a run that was killed leaves them; a
    `-journal`: never the lab's) are written and applied with it: a symlink there would carry the
    writes out of the folder, and a rollback journal would change the database before it is checked."""
    for suffix in ("-wal", "-shm", "-journal"):
        side = path.with_name(path.name + suffix)
        try:
            st = os.lstat(side)
        except FileNotFoundError:
            continue
        except (OSError, ValueError) as e:
            raise StoreError(f"{side}: {getattr(e, 'strerror', None) or e}; choose another --out folder") from None
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
            kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
            raise StoreError(f"{side} is {kind}, where SQLite keeps its own file; {_LEFT}")
        if suffix == "-journal":
            raise StoreError(
                f"{side} lies beside the database: a rollback journal that another program left (or someone "
                f"planted), which SQLite would apply to it before anything is read; {_LEFT} (or remove the journal "
                "if you know where it comes from)"
            )


def _names(objects: set[tuple[str, str, str | None]]) -> set[tuple[str, str]]:
    return {(t, n) for t, n, _ in objects}


_RUN_KEYS = {"format", "identity", "run_id", "seal", "games_seal"}


def _check_identity(conn: sqlite3.Connection, path: Path, job: Job, key: bytes) -> tuple[str, int]:
    """A database of this run, made by this user's lab and unchanged since: its run id and the seal
    of its games (every value read from it is checked as a stranger's would be)."""
    try:
        run = dict(conn.execute("SELECT key, value FROM run").fetchall())
    except (sqlite3.OperationalError, TypeError, ValueError):
        run = {}
    if "identity" not in run:
        raise StoreError(f"{path} is not a Cuttle Lab database; choose another --out folder")
    fmt = run.get("format")
    if fmt != str(FORMAT):
        shown = fmt if isinstance(fmt, str) and fmt.isdigit() and len(fmt) < 10 else "unknown"
        raise StoreError(
            f"{path} was written by another version of Cuttle Lab (database format "
            f"{shown}, this one writes {FORMAT}), so its games cannot be resumed; choose another --out folder"
        )
    _check_columns(conn, path)
    theirs = _json_object(run["identity"])
    mine = job.identity()
    if theirs is None:
        raise StoreError(f"{path} is not a Cuttle Lab database (its run identity is not the lab's JSON); {_LEFT}")
    if theirs != mine:
        raise StoreError(
            f"{path} holds another run ({describe(theirs)}), not this one ({describe(mine)}); "
            "rerun that command to resume it, or choose another --out folder"
        )
    run_id = _check_seal(conn, path, run, key)
    return run_id, _check_games(conn, path, run, key, run_id)


_LEFT = "it is left as it was: choose another --out folder"


def _json_object(text: Any) -> dict[str, Any] | None:
    """A JSON object read from a database (None if `text` is not one)."""
    if not isinstance(text, str) or len(text) > 100_000:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _hex(n: int) -> str:
    return f"{n:064x}"


def _sealed_text(conn: sqlite3.Connection, identity: str) -> str:
    """What the run's seal covers: its identity, and the tables written with it (the rulesets and
    their rules, which the reports name)."""
    rulesets = conn.execute("SELECT * FROM rulesets ORDER BY side").fetchall()
    rules = conn.execute("SELECT * FROM rules ORDER BY side, rule").fetchall()
    return "\n".join([identity, *(seal.row_text(r).decode("utf-8", "surrogatepass") for r in rulesets + rules)])


def _check_seal(conn: sqlite3.Connection, path: Path, run: dict[str, Any], key: bytes) -> str:
    """Resume only a database this user's lab created here (lab/seal.py), its rules as written: a
    planted file claiming the run's identity, or one whose rules were edited, is refused, and left
    as it was."""
    run_id, claimed = str(run.get("run_id", "")), str(run.get("seal", ""))
    if set(run) == _RUN_KEYS and seal.holds(key, run_id, _sealed_text(conn, run["identity"]), claimed):
        return run_id
    _, kept = seal.machine_key()
    why = "" if kept else f" (the lab could not keep its key in {seal.key_file()}, so no earlier run can be resumed)"
    raise StoreError(
        f"{path} was not created by the lab of this user on this machine, or was changed since: it may be a "
        f"copy or a stranger's file{why}; {_LEFT}"
    )


def _check_games(conn: sqlite3.Connection, path: Path, run: dict[str, Any], key: bytes, run_id: str) -> int:
    """Every row of `games` as the lab wrote it: their seal must be the one kept with the run."""
    claimed = run.get("games_seal")
    found = seal.rows_seal(key, run_id, conn.execute("SELECT * FROM games"))
    if isinstance(claimed, str) and claimed.isascii() and hmac.compare_digest(_hex(found), claimed):
        return found
    raise StoreError(
        f"{path}: its games were changed after the lab wrote them (a row edited, added or removed by "
        f"another program), so its results cannot be trusted; {_LEFT}"
    )


def _check_columns(conn: sqlite3.Connection, path: Path) -> None:
    """The table `games` must have the columns this version writes (columns.py), in their order."""
    have = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    want = columns.names()
    if have == want:
        return
    extra, missing = [c for c in have if c not in want], [c for c in want if c not in have]
    what = "; ".join(
        part
        for part in (
            f"columns this one does not write: {', '.join(extra)}" if extra else "",
            f"no column {', '.join(missing)}, which this one writes" if missing else "",
        )
        if part
    )
    raise StoreError(
        f"{path} was written by another version of Cuttle Lab (database format {FORMAT}, but its table games has "
        f"{what or 'its columns in another order'}), so its games cannot be resumed; choose another --out folder"
    )


def describe(identity: dict[str, Any]) -> str:
    """A run's identity in a few words, for messages (an identity read from a stranger's database
    may hold anything: each part is shown only if it has the lab's shape, and briefly)."""

    def short(x: Any, n: int = 40) -> str:
        text = str(x) if isinstance(x, str | int) and not isinstance(x, bool) else "?"
        return text if len(text) <= n else text[: n - 3] + "..."

    rs = identity.get("rulesets")
    rs = [r for r in rs if isinstance(r, dict)][:4] if isinstance(rs, list) else []
    names = " vs ".join(f"{short(r.get('name'))} [{short(r.get('hash'))[:8]}]" for r in rs) or "?"
    players = identity.get("players")
    who = "/".join(short(p) for p in players[:2]) if isinstance(players, list) else "?"
    return f"{names}, players {who}, seed {short(identity.get('seed'))}, cap {short(identity.get('max_decisions'))}"
