"""Reading a file from a stranger: only a regular file, only up to a size, only UTF-8 text, and only
inside the folder the user works in.

Every ruleset, scenario and record is read through `read_text`, so a FIFO, a device such as
/dev/zero, a directory, a huge file or a binary file is refused with one clear line (never its
content) instead of hanging, eating memory or raising a traceback.

The trust boundary (docs/security.md) lives here too: `may_name` says which files a file may name
(`extends:`, `options:`, a scenario's or a record's `ruleset:`), and `scan_root` which files a folder
scanned by `cuttle run DIR` may lead to; symlinks are followed to where they lead before either
question is answered. Whatever the way a file is reached, only a file whose own name (where its
symlinks lead) ends in `.yaml` or `.yml` is read as a ruleset, scenario or record: a link named
`leak.yaml` that leads to `.env` is refused before it is opened.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import CuttleError, name_text
from .limits import MAX_FILE_BYTES


class FileProblem(CuttleError):
    """A file that cannot be read as a text file (callers turn it into their own kind of error)."""


def inside(path: str | Path, folder: str | Path) -> bool:
    """Whether `path`, once every symlink is followed, lies in `folder` or below it."""
    try:
        return Path(path).resolve().is_relative_to(Path(folder).resolve())
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte
        return False


def working_folder() -> Path | None:
    """The folder the user works in, as a trust boundary: the current folder, unless it is the root
    of the file system or the home folder (from there, a downloaded folder could reach everything)."""
    try:
        cwd = Path.cwd().resolve()
        broad = {Path(cwd.anchor), Path.home().resolve()}
    except (OSError, RuntimeError):
        return None
    return None if cwd in broad else cwd


def may_name(target: str | Path, by: str | Path) -> bool:
    """Whether the file `by` may name the file `target`: one in `by`'s own folder or below it, or,
    when `by` itself lies in the working folder, one anywhere in that folder reached without a
    symlink (so scenarios in `scenarios/` may name `../rule.yaml`); a symlink may never lead out of
    `by`'s own folder."""
    if inside(target, Path(by).parent):
        return True
    work = working_folder()
    if work is None or not inside(by, work):
        return False
    try:  # the path as written, from the naming file's folder, with no symlink followed after it
        written = Path(os.path.normpath(Path(by).parent.resolve() / target_name(target, by)))
        return written.is_relative_to(work) and written.resolve() == written
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte
        return False


def target_name(target: str | Path, by: str | Path) -> str:
    """`target` as written in `by` (relative to `by`'s folder)."""
    try:
        return os.path.relpath(os.path.abspath(target), os.path.abspath(Path(by).parent))
    except ValueError:  # another drive
        return str(target)


def scan_root(folder: str | Path) -> Path:
    """How far the files found in a scanned folder may lead (through symlinks): the folder itself,
    as the user named it (where it leads, if it is a symlink)."""
    try:
        return Path(folder).resolve()
    except (OSError, RuntimeError, ValueError):
        return Path(folder)


RULE_SUFFIXES = (".yaml", ".yml")
"""The names of the files read as rulesets, scenarios and records."""


def _not_yaml(name: str, suffixes: tuple[str, ...] = RULE_SUFFIXES) -> str | None:
    """Why the file `name` is not read as a ruleset, scenario or record by its name (None: it may be);
    with other `suffixes`, as a file of that kind (a learnt evaluation: .json)."""
    try:
        real = os.path.realpath(name)
    except (OSError, ValueError):
        return None  # the stat below reports it
    if real.lower().endswith(suffixes):
        return None
    kind = suffixes[0]
    if name.lower().endswith(suffixes):
        return f"a symlink to '{Path(real).name}', which is not a {kind} file"
    if suffixes != RULE_SUFFIXES:
        return f"not a {kind} file"
    return "not a .yaml file (rulesets, scenarios and records are read only from files named *.yaml or *.yml)"


_LOOP = "a symlink that loops back on itself"


def _broken_link(name: str) -> str | None:
    """What is wrong with a symlink that leads to no file (None for anything else)."""
    try:
        if not os.path.islink(name) or os.path.exists(name):
            return None
        Path(name).resolve(strict=True)
    except RuntimeError:  # Python before 3.13 reports a loop this way
        return _LOOP
    except OSError as e:
        return _LOOP if e.errno == errno.ELOOP else "a symlink to a file that does not exist"
    except ValueError:  # a NUL byte: the stat below reports it
        return None
    return None


def read_text(
    path: str | Path, what: str = "file", within: str | Path | None = None, suffixes: tuple[str, ...] = RULE_SUFFIXES
) -> str:
    """The text of a regular UTF-8 file of at most MAX_FILE_BYTES whose name (where its symlinks
    lead) ends in .yaml or .yml, or FileProblem; with `within`, also FileProblem if the file (a
    symlink) leads outside that folder (it is then not opened)."""
    name = str(path)
    shown = name_text(name)  # (a line break in a name would start a line of its own)
    broken = _broken_link(name)
    if broken:
        raise FileProblem(f"cannot read {what} '{shown}': it is {broken}")
    if within is not None and not inside(name, within):
        raise FileProblem(f"cannot read {what} '{shown}': it is a symlink leading outside the folder '{within}'")
    try:
        st = os.stat(name)  # before opening: opening a FIFO would wait for a writer
    except OSError as e:
        raise FileProblem(f"cannot read {what} '{shown}': {e.strerror or e}") from None
    except ValueError:  # a NUL byte in the path
        raise FileProblem(f"cannot read {what} '{shown}': not a valid path") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise FileProblem(f"cannot read {what} '{shown}': it is {kind}")
    not_yaml = _not_yaml(name, suffixes)
    if not_yaml:
        raise FileProblem(f"cannot read {what} '{shown}': it is {not_yaml}")
    if st.st_size > MAX_FILE_BYTES:
        raise FileProblem(
            f"cannot read {what} '{shown}': {st.st_size:,} bytes, more than the limit of "
            f"{MAX_FILE_BYTES:,} (MAX_FILE_BYTES)"
        )
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise FileProblem(f"cannot read {what} '{shown}': {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between the two looks
            raise FileProblem(f"cannot read {what} '{shown}': it is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise FileProblem(f"cannot read {what} '{shown}': {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise FileProblem(
            f"cannot read {what} '{shown}': more than the limit of {MAX_FILE_BYTES:,} bytes (MAX_FILE_BYTES)"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise FileProblem(
            f"cannot read {what} '{shown}': it is not UTF-8 text (byte 0x{data[e.start]:02x} on line {line})"
        ) from None
