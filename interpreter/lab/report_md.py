"""report.md: the report as Markdown tables (the plots are in report.html).

Every text of the report goes through `md` on its way in (rule, ruleset and file names come from
files): a control character is shown escaped (`\\x1b`, never an escape sequence that a terminal
showing the file would act on), a line break as `\\n` (it would end a table's row), and the
characters that make Markdown or HTML (`<script>`, a link, a code span, a table's `|`) are escaped
with a backslash, so the text reads as the same text and never as markup.
"""

from __future__ import annotations

import re

from interpreter.core.errors import safe_text

from .report import Cell, header, sections, text_of, title, tone_of
from .sim import Report

_MARKUP = re.compile(r"([\\`\[\]<>&|])")


def md(text: str) -> str:
    """`text` as Markdown that shows it, and nothing but it."""
    return _MARKUP.sub(r"\\\1", safe_text(text).replace("\n", "\\n"))


def _note(text: str) -> str:
    """A note of the report, whose `name`s are code spans: the rest escaped as `md` does, the code as
    code (where Markdown reads nothing but its closing backtick)."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: no code span at all
        return md(text)
    return "`".join(md(p) if i % 2 == 0 else safe_text(p).replace("\n", "\\n") for i, p in enumerate(parts))


def _cell(c: Cell) -> str:
    t = md(text_of(c))
    return f"**{t}**" if tone_of(c) in ("strong", "good", "bad") and t else t


def render(report: Report) -> str:
    out = [f"# {md(title(report))}", ""] + [f"- {md(h)}" for h in header(report)] + [""]
    for sec in sections(report):
        out += [f"## {md(sec.title)}", ""]
        if sec.cards:
            out += ["| | | |", "|---|---:|---|"]
            out += [f"| {md(what)} | {_cell(value)} | {md(detail)} |" for what, value, detail in sec.cards]
            out.append("")
        if sec.header:
            out.append("| " + " | ".join(md(h) or " " for h in sec.header) + " |")
            out.append("|" + "|".join("---:" if r else "---" for r in sec.right) + "|")
            out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in sec.rows]
            out.append("")
        out += [f"- {_cell(c)}" for c in sec.lines]
        if sec.lines:
            out.append("")
        if sec.note:
            out += [f"*{_note(sec.note)}*", ""]
    out.append("Plots: report.html. Every game: games.sqlite (see docs/lab.md for its tables).")
    return "\n".join(out) + "\n"
