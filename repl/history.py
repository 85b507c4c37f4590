"""Persistent input history: $CUTTLE_HISTORY, or ~/.cuttle_history."""

from __future__ import annotations

import os
from pathlib import Path

from prompt_toolkit.history import FileHistory, History, InMemoryHistory


def history_path() -> Path:
    return Path(os.environ.get("CUTTLE_HISTORY") or Path.home() / ".cuttle_history").expanduser()


def make_history() -> History:
    """A FileHistory, or an in-memory one if the file cannot be written."""
    path = history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(path))
