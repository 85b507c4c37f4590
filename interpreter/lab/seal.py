"""A lab database's seal: proof that the lab on this machine (for this user) created it.

A run's identity (rulesets, hashes, players, seed, cap) is predictable, so a stranger can plant a
database that claims it, filled with games that were never played. At creation the lab writes a
random run id and an HMAC of the id and the identity under a key that only this user's lab knows
(a file of random bytes in the user's state folder, made on first use, readable by the user alone);
a database is resumed only if its seal checks. A database copied from someone else is refused (its
games can still be read with any SQL tool); `cuttle sim` then needs another `--out` folder.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

KEY_BYTES = 32
_ENV = "CUTTLE_LAB_KEY"  # the key file's path, for tests and for users who keep state elsewhere


def key_file() -> Path:
    if os.environ.get(_ENV):
        return Path(os.environ[_ENV])
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "cuttle-lab" / "lab.key"


_session_key = secrets.token_bytes(KEY_BYTES)  # when no key file can be kept: seals hold for this process only


def machine_key() -> tuple[bytes, bool]:
    """This user's lab key, made on first use; and whether it is kept (False: the key file could not
    be read or written, so a database sealed now can be resumed only by this process)."""
    path = key_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() and not path.is_symlink():
            _make(path)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f:
            key = f.read(KEY_BYTES + 1)
    except OSError:
        return _session_key, False
    if len(key) != KEY_BYTES:
        return _session_key, False
    return key, True


def _make(path: Path) -> None:
    """Write a new key whole: to a private temporary file, then linked in place (which fails if
    another process made the key meanwhile: its key is then the one kept)."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
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


def seal(run_id: str, identity: str) -> str:
    """The seal of a run: HMAC-SHA256 of its id and identity (JSON text) under this user's key."""
    key, _ = machine_key()
    return hmac.new(key, f"{run_id}\n{identity}".encode(), hashlib.sha256).hexdigest()


def holds(run_id: str, identity: str, claimed: str) -> bool:
    return hmac.compare_digest(seal(run_id, identity), claimed)
