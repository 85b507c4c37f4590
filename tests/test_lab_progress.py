"""The progress bar: on a terminal only, a first line at the start, then redrawn once a run has
lasted a second, with games/s (significant figures when slow) and the time left, erased at the end."""

from __future__ import annotations

import io
import time

from interpreter.lab.progress import Progress, clock


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_nothing_is_drawn_in_the_first_second() -> None:
    out = Terminal()
    bar = Progress(1000, out, now=0.0)
    bar.advance(100, now=0.5)
    bar.close()
    assert out.getvalue() == ""


def test_the_bar_shows_rate_and_time_left_after_a_second() -> None:
    out = Terminal()
    bar = Progress(1000, out, now=0.0)
    bar.advance(250, now=2.0)
    text = out.getvalue()
    assert "250/1,000 games" in text and "125 games/s" in text and "0:06 left" in text and "0:02 elapsed" in text
    assert "[" + "#" * 2 in text
    bar.close()
    assert out.getvalue().endswith("\r\x1b[K")  # erased


def test_no_bar_when_the_output_is_not_a_terminal() -> None:
    out = io.StringIO()
    bar = Progress(1000, out, now=0.0)
    bar.advance(500, now=5.0)
    bar.close()
    assert out.getvalue() == ""


def test_clock() -> None:
    assert (clock(5), clock(65), clock(3725)) == ("0:05", "1:05", "1:02:05")


def test_the_bar_shows_at_the_start_before_any_game_finishes() -> None:
    out = Terminal()
    bar = Progress(10, out, now=0.0)
    bar.start_line()  # slow players: the first chunk of games may take a minute
    assert "0/10 games  — games/s" in out.getvalue()  # no rate yet, rather than "0 games/s"
    bar.close()
    assert out.getvalue().endswith("\r\x1b[K")


def test_a_slow_rate_keeps_significant_figures() -> None:
    out = Terminal()
    bar = Progress(100, out, now=0.0)
    bar.advance(5, now=12.0)
    assert "0.417 games/s" in out.getvalue()


def test_the_bar_is_redrawn_every_tick_while_a_long_game_plays() -> None:
    """`--jobs 1` with a slow player: no game finishes for seconds, and the bar's clock still moves;
    once closed, it is erased and stays quiet."""
    out = Terminal()
    bar = Progress(10, out, tick=0.05)  # the real clock, a short tick
    bar.start_line()
    deadline = time.monotonic() + 5
    while out.getvalue().count("\r") < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    bar.close()
    text = out.getvalue()
    assert text.count("0/10 games") >= 3, text  # the first line and two redraws, no game finished
    assert text.endswith("\r\x1b[K")
    time.sleep(0.15)
    assert out.getvalue() == text  # nothing drawn after the end
