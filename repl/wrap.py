"""Wrapping text to the terminal's width at word boundaries, colour codes and wide symbols counted
right (`wcwidth`, what prompt_toolkit measures with, gives a character's width as the terminal draws
it; read directly, so that a command that only prints need not load prompt_toolkit).

A line that is too long continues under its own text: under what follows the first gap of two or
more spaces near its start (`   hand    3♦ 10♣ ...`, `  save FILE   save the game ...`), or else
two columns in from its own indentation.
"""

from __future__ import annotations

import re
from functools import cache

from wcwidth import wcwidth

from interpreter.core.terminal import MARK

ANSI = re.compile(r"\x1b\[[0-9;]*m|" + MARK.pattern)  # a colour, or the project's mark of one (core/terminal.py)
GAP = re.compile(r"\S {2,}(?=\S)")


def visible_width(text: str) -> int:
    return sum(_char_width(c) for c in ANSI.sub("", text))


@cache
def _char_width(c: str) -> int:
    return max(0, wcwidth(c))  # (a control character is -1: it takes no column)


def _hang(line: str, width: int) -> int:
    plain = ANSI.sub("", line)
    lead = len(plain) - len(plain.lstrip(" "))
    gap = GAP.search(plain)
    if gap is not None and gap.end() <= width // 2:
        return gap.end()
    return min(lead + 2, max(0, width // 3))


def wrap_line(line: str, width: int) -> list[str]:
    """One line as lines of at most `width` columns (a single word longer than that stays whole)."""
    if width <= 0 or visible_width(line) <= width:
        return [line]
    hang = " " * _hang(line, width)
    lead = line[: len(line) - len(line.lstrip(" "))]
    words = line.strip(" ").split(" ")
    out: list[str] = []
    current, current_w = lead, visible_width(lead)
    fresh = True  # nothing but indentation on the current line yet
    for word in words:
        if not word:  # runs of spaces inside the line are kept as they are
            if not fresh:
                current += " "
                current_w += 1
            continue
        w = visible_width(word)
        if not fresh and current_w + 1 + w > width:
            out.append(current.rstrip(" "))
            current, current_w, fresh = hang + word, len(hang) + w, False
            continue
        if fresh:
            current, current_w = current + word, current_w + w
        else:
            current, current_w = current + " " + word, current_w + 1 + w
        fresh = False
    out.append(current.rstrip(" "))
    return out


def wrap(text: str, width: int) -> str:
    """Every line of `text` wrapped to `width` columns (0 or less: unchanged)."""
    if width <= 0:
        return text
    return "\n".join(part for line in text.split("\n") for part in wrap_line(line, width))


__all__ = ["wrap", "wrap_line", "visible_width"]
