"""Where a piece of text came from, so that errors inside it point into the right file."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Location


@dataclass(frozen=True)
class Span:
    """The start of a text inside a file.

    `line`/`column` (1-based) is where the text's first character stands in the file. For a YAML
    block scalar (`|`), `indent` is the block's indentation and text line k is file line line+k-1.
    """

    file: str
    line: int
    column: int
    indent: int | None
    file_lines: tuple[str, ...]
    #: for text that YAML folded (a plain or quoted value over several lines, `>`, escapes): the
    #: file position (line, column) of each character of the text
    offsets: tuple[tuple[int, int], ...] | None = None
    folded: str = ""  # that text, to count its lines

    def locate(self, line: int, column: int) -> Location:
        if self.offsets:
            text_lines = self.folded.split("\n")
            index = sum(len(t) + 1 for t in text_lines[: line - 1]) + column - 1
            fline, fcol = self.offsets[min(max(index, 0), len(self.offsets) - 1)]
            if index >= len(self.offsets):  # just past the end of the text
                fcol += 1
            text = self.file_lines[fline - 1] if 0 < fline <= len(self.file_lines) else ""
            return Location(self.file, fline, fcol, text)
        if self.indent is not None:
            fline, fcol = self.line + line - 1, self.indent + column
        elif line == 1:
            fline, fcol = self.line, self.column + column - 1
        else:
            fline, fcol = self.line + line - 1, column
        text = self.file_lines[fline - 1] if 0 < fline <= len(self.file_lines) else ""
        return Location(self.file, fline, fcol, text)

    def here(self) -> Location:
        return self.locate(1, 1)


@dataclass(frozen=True)
class JoinedSpan:
    """Where the parts of a rule that several files wrote stand (rules/additions.py): a rule added to
    with `{before: ...}`, `{after: ...}`, `{and: ...}` or `{or: ...}` is one tree whose lines are
    numbered part after part; line `starts[k]` is the first line of part k, written at `spans[k]`.
    An error anywhere in the rule points into the file and line of the part that holds it."""

    starts: tuple[int, ...]
    spans: tuple[Span | None, ...]

    def locate(self, line: int, column: int) -> Location | None:
        k = max((i for i, s in enumerate(self.starts) if s <= line), default=0)
        span = self.spans[k]
        return span.locate(line - self.starts[k] + 1, column) if span is not None else None

    def here(self) -> Location | None:
        span = self.spans[0]
        return span.here() if span is not None else None
