"""The one writer to the terminal. Every line a command prints goes through `say` (or, for the lab's
one-line progress bar, `status`), so text from a file (a ruleset's name, a record's moves, a
scenario's message) can never act on the terminal: every character `str.isprintable` refuses is
shown escaped (core/errors.py `safe_text`: controls, escape sequences, bidirectional overrides,
tag characters, interlinear annotations, zero-width marks). The colours the project paints itself
are the only escape sequences kept, and only when the caller says colour is on; they set a colour
or reset it and nothing else (no cursor motion, no title, no clipboard).

tests/test_terminal_output.py reads the source of every package and fails on any `print` or
write to a standard stream made anywhere but here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from typing import Any, TextIO

from .errors import safe_text

# the Select Graphic Rendition codes the project paints with (repl/render.py, lab/report_text.py)
SGR = {"reset": "0", "bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33"}
_OURS = re.compile("(" + "|".join(re.escape(f"\x1b[{c}m") for c in SGR.values()) + ")")


def sgr(name: str) -> str:
    """The escape sequence of one of the project's own colours."""
    return f"\x1b[{SGR[name]}m"


def safe(text: str, colour: bool = False) -> str:
    """`text` made safe for the terminal; with `colour`, the project's own colour codes are kept."""
    if not colour:
        return safe_text(text)
    return "".join(p if i % 2 else safe_text(p) for i, p in enumerate(_OURS.split(text)))


def say(text: object = "", *, err: bool = False, colour: bool = False, stream: TextIO | None = None) -> None:
    """Print one message (a line, or lines) to standard output, standard error with `err`, or `stream`."""
    out = stream or (sys.stderr if err else sys.stdout)
    out.write(safe(str(text), colour) + "\n")
    if err:
        out.flush()


def json_text(data: Any) -> str:
    """`data` as indented JSON that is safe on a terminal and still valid JSON: every character that
    is not printable is written as a JSON escape (`\\u202e`, a surrogate pair above U+FFFF), so the
    text that `json.loads` reads back is exactly the data."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return "".join(ch if ch == "\n" or (ch.isprintable() and safe_text(ch) == ch) else _json_escape(ch) for ch in text)


def _json_escape(ch: str) -> str:
    c = ord(ch)
    if c < 0x10000:
        return f"\\u{c:04x}"
    c -= 0x10000
    return f"\\u{0xD800 + (c >> 10):04x}\\u{0xDC00 + (c & 0x3FF):04x}"


def status(stream: TextIO, line: str | None) -> None:
    """Redraw the one status line at the bottom of `stream` (a terminal) with `line`, or erase it."""
    stream.write("\r" + ("" if line is None else safe(line)) + "\x1b[K")
    stream.flush()


def terminal_width() -> int:
    """The terminal's width, read each time (it may be resized); 0 (no wrapping) when the output is
    not a terminal."""
    try:
        if not sys.stdout.isatty():
            return 0
    except (AttributeError, ValueError):
        return 0
    return shutil.get_terminal_size((80, 24)).columns


def terminal_rows() -> int:
    """The terminal's height in lines; 0 when the output or the input is not a terminal."""
    try:
        if not (sys.stdout.isatty() and sys.stdin.isatty()):
            return 0
    except (AttributeError, ValueError):
        return 0
    return shutil.get_terminal_size((80, 24)).lines


def page(text: str, rows: int | None = None) -> bool:
    """Show text taller than the terminal through the user's pager (`$PAGER`, else `less`), colours
    kept (`LESS=-R -F -X` unless LESS is set: quit at the end of a short text, leave it on the
    screen). The text must already be terminal-safe (`safe`). False (nothing shown) when it fits,
    when this is not a terminal, or when no pager can run: then the caller prints it."""
    rows = terminal_rows() if rows is None else rows
    if rows <= 0 or text.count("\n") + 1 < rows - 1:
        return False
    command = shlex.split(os.environ.get("PAGER") or "") or (["less"] if shutil.which("less") else [])
    if not command:
        return False
    env = {**os.environ, "LESS": os.environ.get("LESS", "-R -F -X")}
    try:
        subprocess.run(command, input=text + "\n", text=True, encoding="utf-8", env=env, check=False)
    except (OSError, ValueError):
        return False
    return True
