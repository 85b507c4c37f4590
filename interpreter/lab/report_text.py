"""The terminal summary of a run: aligned tables, with colour where the terminal has it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TextIO

from interpreter.core.errors import name_text
from interpreter.core.terminal import sgr

from .report import Cell, header, sections, text_of, title, tone_of
from .sim import Report

ANSI = {"strong": "bold", "dim": "dim", "good": "green", "bad": "red", "warn": "yellow", "title": "bold"}


class Style:
    """ANSI colour when writing to a terminal that wants it (NO_COLOR unset, TERM not dumb)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    @classmethod
    def for_stream(cls, stream: TextIO) -> Style:
        return cls(stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb")

    def __call__(self, text: str, tone: str) -> str:
        code = ANSI.get(tone)
        return f"{sgr(code)}{text}{sgr('reset')}" if self.enabled and code and text else text


def table(rows: Sequence[Sequence[Cell]], right: Sequence[bool], style: Style, indent: str = "  ") -> list[str]:
    """Rows of cells in aligned columns (`right[i]`: column i is right-aligned, as numbers are)."""
    ncol = max(len(r) for r in rows)
    widths = [max((len(text_of(r[i])) for r in rows if i < len(r)), default=0) for i in range(ncol)]
    lines = []
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            t = text_of(c)
            pad = " " * (widths[i] - len(t))
            shown = style(t, tone_of(c))
            cells.append(pad + shown if i < len(right) and right[i] else shown + pad)
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def render(report: Report, stream: TextIO) -> str:
    st = Style.for_stream(stream)
    # the title and the header are one line each, whatever the names in them (name_text)
    out = [st(name_text(title(report)), "title")] + [st(name_text(h), "dim") for h in header(report)]
    for sec in sections(report):
        out += ["", st(sec.title, "title")]
        if sec.cards:
            out += table(
                [[what, value, (detail, "dim")] for what, value, detail in sec.cards], [False, True, False], st
            )
        if sec.header:
            head: list[Cell] = [(h, "dim") for h in sec.header]
            out += table([head, *sec.rows], sec.right, st)
        out += ["  " + st(text_of(c), tone_of(c)) for c in sec.lines]
        if sec.note:
            out.append("  " + st(sec.note, "dim"))
    return "\n".join(out)
