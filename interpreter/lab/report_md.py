"""report.md: the report as Markdown tables (the plots are in report.html)."""

from __future__ import annotations

from .report import Cell, header, sections, text_of, title, tone_of
from .sim import Report


def _cell(c: Cell) -> str:
    t = text_of(c).replace("|", "\\|")
    return f"**{t}**" if tone_of(c) in ("strong", "good", "bad") and t else t


def render(report: Report) -> str:
    out = [f"# {title(report)}", ""] + [f"- {h}" for h in header(report)] + [""]
    for sec in sections(report):
        out += [f"## {sec.title}", ""]
        if sec.cards:
            out += ["| | | |", "|---|---:|---|"]
            out += [f"| {what} | {_cell(value)} | {detail} |" for what, value, detail in sec.cards]
            out.append("")
        if sec.header:
            out.append("| " + " | ".join(h or " " for h in sec.header) + " |")
            out.append("|" + "|".join("---:" if r else "---" for r in sec.right) + "|")
            out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in sec.rows]
            out.append("")
        out += [f"- {_cell(c)}" for c in sec.lines]
        if sec.lines:
            out.append("")
        if sec.note:
            out += [f"*{sec.note}*", ""]
    out.append("Plots: report.html. Every game: games.sqlite (see docs/lab.md for its tables).")
    return "\n".join(out) + "\n"
