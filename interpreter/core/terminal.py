"""The one writer to the terminal. Every line a command prints goes through `say` (or, for the lab's
one-line progress bar, `status`), so text from a file (a ruleset's name, a record's moves, a
scenario's message) can never act on the terminal: every character `str.isprintable` refuses is
shown escaped (core/errors.py `safe_text`: controls, escape sequences, bidirectional overrides,
tag characters, interlinear annotations, zero-width marks). The colours the project paints itself
are the only escape sequences written, and only when the caller says colour is on; they set a colour
or reset it and nothing else (no cursor motion, no title, no clipboard), and they are told from a
file's own escape sequences by a mark no file can know (`sgr`), not by their bytes.

tests/test_terminal_output.py reads the source of every package and fails on any `print` or
write to a standard stream made anywhere but here.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
from typing import Any, TextIO

from .errors import safe_text

# the Select Graphic Rendition codes the project paints with (repl/render.py, lab/report_text.py)
SGR = {"reset": "0", "bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33"}

# The project's colours are not written as escape sequences until the text reaches the terminal: `sgr`
# gives a mark made with a random word of this process (which no file can know in advance), so a
# file's own `\x1b[31m` in a name (escaped, as any control character) can never pass for the
# project's styling, however the text was put together. `safe(text, colour=True)` keeps the marks
# (and escapes everything else), and the writers (`say`, `status`, `page`) turn them into colours.
_WORD = secrets.token_hex(8)
MARK = re.compile("\x1b" + _WORD + "(" + "|".join(SGR.values()) + ")m")


def sgr(name: str) -> str:
    """The mark of one of the project's own colours (a colour once written by `say`)."""
    return f"\x1b{_WORD}{SGR[name]}m"


def safe(text: str, colour: bool = False) -> str:
    """`text` made safe for the terminal; with `colour`, the project's own colours (`sgr`) are kept as
    marks, which the writers turn into escape sequences; without, they are dropped."""
    if not colour:
        return safe_text(MARK.sub("", text))
    return "".join(p if i % 2 else safe_text(p) for i, p in enumerate(_split(text)))


def _split(text: str) -> list[str]:
    """Text and the marks in it, alternating (the marks at odd places)."""
    out, at = [], 0
    for m in MARK.finditer(text):
        out += [text[at : m.start()], m.group(0)]
        at = m.end()
    return out + [text[at:]]


def painted(text: str) -> str:
    """Safe text (from `safe`) with the project's marks turned into its colours' escape sequences."""
    return MARK.sub(lambda m: f"\x1b[{m.group(1)}m", text)


def say(text: object = "", *, err: bool = False, colour: bool = False, stream: TextIO | None = None) -> None:
    """Print one message (a line, or lines) to standard output, standard error with `err`, or `stream`."""
    out = stream or (sys.stderr if err else sys.stdout)
    out.write(painted(safe(str(text), colour)) + "\n")
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
        subprocess.run(
            command, input=painted(safe(text, True)) + "\n", text=True, encoding="utf-8", env=env, check=False
        )
    except (OSError, ValueError):
        return False
    return True
