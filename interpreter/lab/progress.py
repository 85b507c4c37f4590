"""A one-line progress bar on the terminal: games done, games per second, time left.

It appears only when its stream is a terminal: a first line as the run starts (`start_line`, so a
run of slow players, whose first chunk of games may take a minute, shows it at once), then a redraw
as games finish, and at least every second while none does (a thread of its own redraws the clock
while this process plays a long game: `--jobs 1`); it erases itself at the end, so piped runs print
nothing extra.
"""

from __future__ import annotations

import shutil
import threading
import time
from typing import TextIO

from interpreter.core.terminal import status

DELAY = 1.0  # seconds before the bar appears
INTERVAL = 0.2  # seconds between redraws
TICK = 1.0  # the longest time the bar goes without a redraw, once shown


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
        self,
        total: int,
        stream: TextIO,
        label: str = "games",
        enabled: bool | None = None,
        now: float | None = None,
        tick: float = TICK,
    ) -> None:
        """`now`: the clock's start (a test's own clock: the bar then redraws only when told)."""
        self.total = total
        self.done = 0
        self.stream = stream
        self.label = label
        self.enabled = stream.isatty() if enabled is None else enabled
        self.start = time.monotonic() if now is None else now
        self.drawn = 0.0
        self.shown = False
        self.tick = tick
        self.ticking = now is None  # on the real clock: redrawn every `tick` seconds while nothing finishes
        self._lock = threading.Lock()  # the ticker and the run draw in turn
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def start_line(self) -> None:
        """Show the bar at once, with nothing done yet (a slow run's first games may take long)."""
        if self.enabled and not self.shown:
            with self._lock:
                status(self.stream, self.line(self.start))
                self.shown = True
            if self.ticking and self._ticker is None:
                self._ticker = threading.Thread(target=self._tick, name="progress bar", daemon=True)
                self._ticker.start()

    def _tick(self) -> None:
        """Redraw the clock every `tick` seconds in which the run drew nothing, until `close`."""
        while not self._stop.wait(self.tick):
            with self._lock:
                t = time.monotonic()
                if self._stop.is_set() or t - self.drawn < self.tick:
                    continue
                self.drawn = t
                status(self.stream, self.line(t))
                self.shown = True

    def advance(self, n: int, now: float | None = None) -> None:
        self.done += n
        if not self.enabled:
            return
        t = time.monotonic() if now is None else now
        if t - self.start < DELAY or (t - self.drawn < INTERVAL and self.done < self.total):
            return
        with self._lock:
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
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None
        if self.shown:
            status(self.stream, None)
            self.shown = False
