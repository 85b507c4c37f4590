"""A lab database's seal: proof that the lab on this machine (for this user) created it, and that
nothing it holds was changed since.

A run's identity (rulesets, hashes, players, seed, cap) is predictable, so a stranger can plant a
database that claims it, filled with games that were never played. At creation the lab writes a
random run id and an HMAC of the id, the identity and the tables of rules under a key that only
this user's lab knows (a file of random bytes in the user's state folder, made on first use,
readable by the user alone); each game row is sealed too (`rows_seal`: the rows' HMACs combined,
kept up to date with every commit). A database is resumed only if both seals check, so a
stranger's file, a copy of someone else's, or your own with a row edited is refused (its games can
still be read with any SQL tool); `cuttle sim` then needs another `--out` folder.

The key file itself is trusted only if it is what the lab makes: a regular file of KEY_BYTES bytes,
owned by this user, readable and writable by this user alone (mode 0600), opened without following
a symlink and without waiting (a FIFO planted at its place would hang every run), in a folder that
no other user owns or can write (else another user could replace the key by one they know).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from interpreter.core.errors import CuttleError

KEY_BYTES = 32
_ENV = "CUTTLE_LAB_KEY"  # the key file's path, for tests and for users who keep state elsewhere


_ELSEWHERE = f"set {_ENV} to keep the key in a folder of your own"


class SealError(CuttleError):
    """A key file that is not the lab's own: said in one line with what to do."""


def key_file() -> Path:
    if os.environ.get(_ENV):
        return Path(os.environ[_ENV])
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "cuttle-lab" / "lab.key"


_session_key = secrets.token_bytes(KEY_BYTES)  # when no key file can be kept: seals hold for this process only


def session_key() -> bytes:
    """The key of this process alone (a run kept in memory needs no more)."""
    return _session_key


def machine_key() -> tuple[bytes, bool]:
    """This user's lab key, made on first use; and whether it is kept (False: its folder cannot be
    made or written, so a database sealed now can be resumed only by this process). A key file that
    is there but is not one the lab made is refused (SealError), never used and never replaced."""
    path = key_file()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # the lab's own folder: private whatever the umask
        folder = os.stat(path.parent)
    except OSError:
        return _session_key, False
    _check_folder(path, folder)
    try:
        if not os.path.lexists(path):
            _make(path)
    except OSError:
        return _session_key, False
    return _read(path), True


def _check_folder(path: Path, folder: os.stat_result) -> None:
    """A key is only as private as its folder: another user who can write there (or owns it) could
    replace the key with one they know, so neither a key there nor a new one is used."""
    if hasattr(os, "geteuid") and folder.st_uid not in (os.geteuid(), 0):
        raise _refuse(path, f"is in a folder of another user (uid {folder.st_uid}), who could replace it", _ELSEWHERE)
    if folder.st_mode & 0o022:
        raise _refuse(
            path,
            f"is in a folder other users can change (mode {stat.S_IMODE(folder.st_mode):04o}), who could replace it",
            f"make the folder yours alone (`chmod go-w {path.parent}`) or {_ELSEWHERE}",
        )


def _refuse(path: Path, problem: str, fix: str | None = None) -> SealError:
    return SealError(
        f"the lab's key {path} {problem}; "
        + (fix or f"remove it and run again: the lab makes a new key (set {_ENV} to keep the key elsewhere)")
    )


def _read(path: Path) -> bytes:
    """The key in `path`, checked on the open file itself (no race between a look and the read)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if os.path.islink(path):
            raise _refuse(path, "is a symbolic link") from None
        raise _refuse(path, f"cannot be read ({e.strerror or e})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(path, "is not a regular file" + (" (a folder)" if stat.S_ISDIR(st.st_mode) else ""))
        if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
            raise _refuse(path, f"belongs to another user (uid {st.st_uid}), who could read or change it")
        if st.st_mode & 0o077:
            raise _refuse(
                path,
                f"may be read or changed by other users (mode {stat.S_IMODE(st.st_mode):04o})",
                f"if you made it yourself, make it private with `chmod 600 {path}`; else remove it and run again",
            )
        key = os.read(fd, KEY_BYTES + 1)
    except OSError as e:
        raise _refuse(path, f"cannot be read ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(key) != KEY_BYTES:
        raise _refuse(
            path, f"holds {len(key) if len(key) <= KEY_BYTES else 'more than ' + str(KEY_BYTES)} bytes, not {KEY_BYTES}"
        )
    return key


def _make(path: Path) -> None:
    """Write a new key whole: to a private temporary file, then linked in place (which fails if
    another process made the key meanwhile: its key is then the one kept)."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(KEY_BYTES))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    finally:
        tmp.unlink(missing_ok=True)


def new_run_id() -> str:
    return secrets.token_hex(16)


def seal(key: bytes, run_id: str, identity: str) -> str:
    """The seal of a run: HMAC-SHA256 of its id and identity (the identity's JSON text, and the
    tables written with it) under this user's key."""
    return hmac.new(key, f"{run_id}\n{identity}".encode(), hashlib.sha256).hexdigest()


def holds(key: bytes, run_id: str, identity: str, claimed: str) -> bool:
    return claimed.isascii() and hmac.compare_digest(seal(key, run_id, identity), claimed)  # (else a TypeError)


def _plain(value: Any) -> Any:
    """A value as SQLite gives it back, in one form whichever way it was written (an integral
    float is an integer; a blob, which the lab never writes, is marked so it matches nothing)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return {"blob": bytes(value).hex()}
    return value


def row_text(row: Sequence[Any]) -> bytes:
    """A row of `games` as the text its seal covers."""
    return json.dumps([_plain(v) for v in row], ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass"
    )


def rows_seal(key: bytes, run_id: str, rows: Iterable[Sequence[Any]], start: int = 0) -> int:
    """The seal of a set of game rows: the XOR of each row's HMAC (with the run id), so that it is
    kept up to date row by row (`start`: the seal of the rows already stored) and does not depend
    on the order the rows are read in. A row changed, added or removed changes it."""
    prefix = f"game\n{run_id}\n".encode()
    total = start
    for row in rows:
        total ^= int.from_bytes(hmac.new(key, prefix + row_text(row), hashlib.sha256).digest(), "big")
    return total
