"""Input history: $CUTTLE_HISTORY, or ~/.cuttle_history; in hot-seat, one history per seat, kept in
memory only, so that nothing one player typed (`explain scuttle 9S 10C` names a card of their hand)
comes back to the other with Up or Ctrl-R."""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator, Callable, Iterable
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


class SeatHistory(History):
    """The prompt's history. Against a bot (`seat()` is None) it is the history file's; in hot-seat,
    one history per seat, the seat at the keyboard given by `seat()`, kept in memory only. The
    prompt reloads its history at every line (prompt_toolkit resets its buffer), so after a hand-over
    Up and Ctrl-R walk only the lines of the player now at the keyboard."""

    def __init__(self, seat: Callable[[], int | None], shared: Callable[[], History] = make_history) -> None:
        super().__init__()
        self.seat = seat
        self.lines: dict[int, list[str]] = {}  # seat -> its lines, oldest first
        self._make_shared = shared
        self._shared: History | None = None

    def shared(self) -> History:
        """The history of games against a bot (the file), opened the first time it is needed."""
        if self._shared is None:
            self._shared = self._make_shared()
        return self._shared

    async def load(self) -> AsyncGenerator[str, None]:
        seat = self.seat()
        if seat is None:
            async for line in self.shared().load():
                yield line
            return
        for line in reversed(self.lines.get(seat, [])):  # newest first, as prompt_toolkit wants them
            yield line

    def get_strings(self) -> list[str]:
        seat = self.seat()
        return self.shared().get_strings() if seat is None else list(self.lines.get(seat, []))

    def append_string(self, string: str) -> None:
        seat = self.seat()
        if seat is None:
            self.shared().append_string(string)
        else:
            self.lines.setdefault(seat, []).append(string)

    def load_history_strings(self) -> Iterable[str]:  # (load and append_string above do the work)
        return []

    def store_string(self, string: str) -> None:
        pass
