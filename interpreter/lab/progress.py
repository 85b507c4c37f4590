"""A one-line progress bar on the terminal: games done, games per second, time left.

It appears only when its stream is a terminal: a first line as the run starts (`start`, so a run
of slow players, whose first chunk of games may take a minute, shows it at once), then a redraw as
games finish; it erases itself at the end, so piped runs print nothing extra.
"""

from __future__ import annotations

import shutil
import time
from typing import TextIO

from interpreter.core.terminal import status

DELAY = 1.0  # seconds before the bar appears
INTERVAL = 0.2  # seconds between redraws


def per_second(rate: float) -> str:
    """A rate with three significant figures below 100 ("0.423", "12.3"), whole above ("1,234")."""
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"


def clock(seconds: float) -> str:
    s = max(0, int(round(seconds)))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    def __init__(
        self, total: int, stream: TextIO, label: str = "games", enabled: bool | None = None, now: float | None = None
    ) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.label = label
        self.enabled = stream.isatty() if enabled is None else enabled
        self.start = time.monotonic() if now is None else now
        self.drawn = 0.0
        self.shown = False

    def start_line(self) -> None:
        """Show the bar at once, with nothing done yet (a slow run's first games may take long)."""
        if self.enabled and not self.shown:
            status(self.stream, self.line(self.start))
            self.shown = True

    def advance(self, n: int, now: float | None = None) -> None:
        self.done += n
        if not self.enabled:
            return
        t = time.monotonic() if now is None else now
        if t - self.start < DELAY or (t - self.drawn < INTERVAL and self.done < self.total):
            return
        self.drawn = t
        status(self.stream, self.line(t))
        self.shown = True

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        eta = clock(left) if left != float("inf") else "?"
        speed = per_second(rate) if self.done else "—"  # none finished yet: no rate to show (not "0")
        text = (
            f" {self.done:,}/{self.total:,} {self.label}  {speed} {self.label}/s  {clock(elapsed)} elapsed, {eta} left"
        )
        width = max(10, min(40, shutil.get_terminal_size((80, 24)).columns - len(text) - 3))
        filled = int(width * self.done / self.total) if self.total else width
        return "[" + "#" * filled + "-" * (width - filled) + "]" + text

    def close(self) -> None:
        if self.shown:
            status(self.stream, None)
            self.shown = False
