"""Refresh the outputs shown in a doc's ```console blocks after a rule change moved the numbers.

    python tools/refresh_console_docs.py docs/lab.md

Each `$ cuttle ...` command is run (in a scratch folder holding `examples/` and `rulesets/`, as the
doc tests do); each shown output line is replaced by the printed line that has the same words (its
numbers aside). Lines that match nothing are reported, not guessed. Prose that quotes numbers must
still be read and updated by hand: the script lists the numbers that changed.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.cli import main  # noqa: E402

NUMBER = re.compile(r"[0-9][0-9.,]*|[%–+−±]")


def shape(line: str) -> str:
    return re.sub(r"\s+", " ", NUMBER.sub("#", line)).strip()


def run(cmd: str) -> str:
    argv = shlex.split(cmd)
    if argv[0] == "sqlite3":
        con = sqlite3.connect(argv[1])
        try:
            rows = con.execute(argv[2]).fetchall()
        finally:
            con.close()
        return "".join("|".join("" if v is None else str(v) for v in row) + "\n" for row in rows)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(argv[1:])
    return out.getvalue()


def refresh(doc: Path) -> int:
    text = doc.read_text(encoding="utf-8").split("\n")
    here = os.getcwd()
    scratch = Path(tempfile.mkdtemp())
    for name in ("examples", "rulesets"):
        (scratch / name).symlink_to(ROOT / name, target_is_directory=True)
    os.chdir(scratch)
    unmatched = 0
    try:
        in_console, printed = False, ""
        for i, line in enumerate(text):
            if line.startswith("```console"):
                in_console = True
                continue
            if in_console and line.startswith("```"):
                in_console = False
                continue
            if not in_console or not line.strip() or line.strip() == "...":
                continue
            if line.startswith("$ "):
                printed = run(line[2:].strip())
                continue
            if line.rstrip() in printed:
                continue
            same = [p for p in printed.splitlines() if shape(p) == shape(line)]
            if len(same) == 1:
                print(f"line {i + 1}: {line.strip()}\n        -> {same[0].strip()}")
                text[i] = same[0].rstrip()
            else:
                unmatched += 1
                print(f"line {i + 1}: NO MATCH for {line.strip()!r}")
    finally:
        os.chdir(here)
    doc.write_text("\n".join(text), encoding="utf-8")
    return 1 if unmatched else 0


if __name__ == "__main__":
    sys.exit(max(refresh(Path(p)) for p in sys.argv[1:]))
