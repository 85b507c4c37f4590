"""Reading a file from a stranger: only a regular file, only up to a size, only UTF-8 text.

Every ruleset, scenario and record is read through `read_text`, so a FIFO, a device such as
/dev/zero, a directory, a huge file or a binary file is refused with one clear line (never its
content) instead of hanging, eating memory or raising a traceback.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import CuttleError
from .limits import MAX_FILE_BYTES


class FileProblem(CuttleError):
    """A file that cannot be read as a text file (callers turn it into their own kind of error)."""


def read_text(path: str | Path, what: str = "file") -> str:
    """The text of a regular UTF-8 file of at most MAX_FILE_BYTES, or FileProblem."""
    name = str(path)
    try:
        st = os.stat(name)  # before opening: opening a FIFO would wait for a writer
    except OSError as e:
        raise FileProblem(f"cannot read {what} '{name}': {e.strerror or e}") from None
    except ValueError:  # a NUL byte in the path
        raise FileProblem(f"cannot read {what} '{name}': not a valid path") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise FileProblem(f"cannot read {what} '{name}': it is {kind}")
    if st.st_size > MAX_FILE_BYTES:
        raise FileProblem(
            f"cannot read {what} '{name}': {st.st_size:,} bytes, more than the limit of "
            f"{MAX_FILE_BYTES:,} (MAX_FILE_BYTES)"
        )
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise FileProblem(f"cannot read {what} '{name}': {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between the two looks
            raise FileProblem(f"cannot read {what} '{name}': it is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise FileProblem(f"cannot read {what} '{name}': {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise FileProblem(
            f"cannot read {what} '{name}': more than the limit of {MAX_FILE_BYTES:,} bytes (MAX_FILE_BYTES)"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise FileProblem(
            f"cannot read {what} '{name}': it is not UTF-8 text (byte 0x{data[e.start]:02x} on line {line})"
        ) from None
