"""The project's error types. Every user-facing failure is one of these, never a traceback."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

# Characters that a terminal may act on or that hide text: everything `str.isprintable` refuses
# (C0/C1 controls, escape sequences, format characters such as bidirectional overrides, zero-width
# marks, Unicode tag characters U+E0000-E007F, interlinear annotations U+FFF9-FFFB, line and
# paragraph separators, unassigned and private-use code points) except newline and tab, plus the
# few invisible marks Python counts as printable.
_KEEP = frozenset("\n\t")
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _escape_char(ch: str) -> str:
    c = ord(ch)
    if c < 0x100:
        return f"\\x{c:02x}"
    return f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}"


def safe_text(text: str) -> str:
    """Text from a file made safe to print on a terminal: every character that is not printable
    shown escaped (`\\x1b`, `\\U000e0041`), newlines and tabs kept."""
    if text.isprintable() and not _INVISIBLE.intersection(text):
        return text
    return "".join(
        ch if ch in _KEEP or (ch.isprintable() and ch not in _INVISIBLE) else _escape_char(ch) for ch in text
    )


def name_text(name: object) -> str:
    """A name (a file's, a rule's) as it is shown inside a line: `safe_text`, and a line break shown
    as `\\n` too, so that a file named `z\\nPASS ...` cannot add a line of its own to a listing."""
    return safe_text(str(name)).replace("\n", "\\n")


CARET_WIDTH = 120  # at most this much of a long line is shown above a caret


class CuttleError(Exception):
    """Base class of every error Cuttle Lab reports to a user."""


@dataclass
class Location:
    """A place in a source file: 1-based line and column, and the text of that line."""

    file: str
    line: int
    column: int
    text: str = ""

    def caret(self) -> str:
        if not self.text:
            return ""
        text, col = self.text, max(self.column - 1, 0)
        if len(text) > CARET_WIDTH:  # a window of the line around the column
            start = max(0, min(col - CARET_WIDTH // 2, len(text) - CARET_WIDTH))
            text, col = text[start : start + CARET_WIDTH], col - start
            text = ("..." if start else "") + text + ("..." if start + CARET_WIDTH < len(self.text) else "")
            col += 3 if start else 0
        shown = safe_text(text)
        if shown != text:  # escapes widen the line: put the caret under the same character
            col = len(safe_text(text[:col]))
        return f"    {shown}\n    {' ' * col}^"

    def __str__(self) -> str:
        return f"{name_text(self.file)}:{self.line}:{self.column}"


def suggest(name: str, choices: Iterable[str]) -> str | None:
    """The nearest valid name to a typo, or None."""
    found = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.6)
    return found[0] if found else None


class LocatedError(CuttleError):
    """An error at a place in a file, printed as `file:line:col: [code] message`, the line and a caret."""

    code = "E000"

    def __init__(
        self, message: str, where: Location | None = None, *, code: str | None = None, hint: str | None = None
    ) -> None:
        self.message = message
        self.where = where
        self.hint = hint
        if code:
            self.code = code
        super().__init__(self.render())

    def render(self) -> str:
        head = safe_text(f"{self.where}: ") if self.where else ""
        out = f"{head}[{self.code}] {safe_text(self.message)}"
        if self.where and self.where.text:
            out += "\n" + self.where.caret()
        if self.hint:
            out += f"\n    {safe_text(self.hint)}"
        return out


class RulesetError(LocatedError):
    """A ruleset that cannot be loaded: bad YAML, an unknown key, a wrong type, a DSL error..."""


class RulesetErrors(CuttleError):
    """Several ruleset problems found in one pass (`cuttle check` reports them all)."""

    def __init__(self, errors: list[RulesetError]) -> None:
        self.errors = errors
        super().__init__("\n".join(e.render() for e in errors))


class MoveError(CuttleError):
    """A move that cannot be played. The message quotes the input."""


class InvalidMoveError(MoveError):
    """The text is not a move at all (a syntax error)."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow now."""


class AmbiguousMoveError(MoveError):
    """Text that matches several legal moves."""


class RuleRuntimeError(CuttleError):
    """A ruleset whose rules fail while a game is played (e.g. a comparison of a number with a word
    that no check could rule out). The game is left as it was before the move."""


def rule_failure(rules_name: str, doing: str, exc: Exception) -> RuleRuntimeError:
    """A rule's code failed: say which rule (the innermost generated function of the traceback) and where."""
    from .origins import rule_at

    rule = rule_at(exc.__traceback__)
    at = f" in {rule}" if rule else ""
    return RuleRuntimeError(
        f"the rules of '{rules_name}' failed{at} while {doing}: {type(exc).__name__}: {exc} "
        f"(check the ruleset's effect texts; the game is unchanged)"
    )


class ScenarioError(LocatedError):
    """A scenario file that cannot be run as written."""


class ScenarioErrors(CuttleError):
    """Several problems of one scenario file, found in one pass: each is reported at its own line."""

    def __init__(self, errors: list[LocatedError]) -> None:
        self.errors = errors
        super().__init__("\n".join(e.render() for e in errors))


class RecordError(CuttleError):
    """A game record that cannot be loaded or replayed."""


def tidy(errors: list[RulesetError]) -> list[RulesetError]:
    """Each problem once, in the order of the files' lines."""
    seen: set = set()
    out = []
    for e in errors:
        w = e.where
        k = (e.code, e.message, (w.file, w.line, w.column) if w else None)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return sorted(
        out,
        key=lambda e: (
            e.where is None,
            e.where.file if e.where else "",
            e.where.line if e.where else 0,
            e.where.column if e.where else 0,
        ),
    )
