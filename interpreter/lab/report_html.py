"""report.html: one self-contained page (inline CSS and SVG plots, no script, no network)."""

from __future__ import annotations

from html import escape

from . import columns, svg
from .report import Cell, Section, header, sections, text_of, title, tone_of
from .sim import Report

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1000px; color: #222; padding: 0 1em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5em 0; font-size: .92em; }
th, td { padding: .25em .7em; border-bottom: 1px solid #eee; text-align: left; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
.good { color: #1a7f37; } .bad { color: #c62828; } .warn { color: #9a6700; font-weight: 600; }
.dim { color: #777; } .strong { font-weight: 600; }
.note { color: #666; font-size: .85em; } .head { color: #555; margin: 0; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; } .plots svg { max-width: 100%; height: auto; }
"""


def _td(c: Cell, right: bool, tag: str = "td") -> str:
    classes = " ".join(x for x in ("r" if right else "", tone_of(c)) if x)
    return f"<{tag}{f' class={chr(34)}{classes}{chr(34)}' if classes else ''}>{escape(text_of(c))}</{tag}>"


def _section(sec: Section) -> list[str]:
    out = [f"<h2>{escape(sec.title)}</h2>"]
    if sec.header:
        out.append(
            "<table><thead><tr>"
            + "".join(_td(h, r, "th") for h, r in zip(sec.header, sec.right, strict=False))
            + "</tr></thead><tbody>"
        )
        for row in sec.rows:
            out.append(
                "<tr>" + "".join(_td(c, i < len(sec.right) and sec.right[i]) for i, c in enumerate(row)) + "</tr>"
            )
        out.append("</tbody></table>")
    if sec.lines:
        out.append("<ul>" + "".join(f"<li class='{tone_of(c)}'>{escape(text_of(c))}</li>" for c in sec.lines) + "</ul>")
    if sec.note:
        out.append(f"<p class='note'>{escape(sec.note)}</p>")
    return out


def plots(report: Report) -> list[str]:
    """Win rates with error bars, each measure's distributions overlaid, play usage side by side, endings."""
    sides = report.job.sides
    names = [s.show(sides[1 - i]) if len(sides) == 2 else s.name for i, s in enumerate(sides)]
    sums = [report.summaries[s.label] for s in sides]
    cats = ["p1 wins", "p2 wins", "draws"]
    keys = ["p1_win_rate", "p2_win_rate", "draw_rate"]
    out = [
        svg.bars(
            "Win rates (95% CI)",
            cats,
            [
                (n, [s[k] for k in keys], [tuple(s[k + "_ci95"]) for k in keys])
                for n, s in zip(names, sums, strict=True)
            ],
        )
    ]
    for c, m in columns.measures():
        out.append(
            svg.histogram(
                f"{m.section}: {m.label} per game",
                [(n, report.per_game[s.label][c.name]) for n, s in zip(names, sides, strict=True)],
                m.label,
            )
        )
    plays: list[str] = []
    for s in sums:
        for e in s["rules"]:
            label = e["name"] + (" (response)" if e["kind"] == "response" else "")
            if e["kind"] in ("play", "response") and label not in plays:
                plays.append(label)
    per_game = []
    for n, s in zip(names, sums, strict=True):
        pg = {e["name"] + (" (response)" if e["kind"] == "response" else ""): e["per_game"] for e in s["rules"]}
        per_game.append((n, [pg.get(p, 0.0) for p in plays]))
    out.append(svg.hbars("Play usage: times per game", plays, per_game))
    ends: list[str] = []
    for s in sums:
        ends += [k for k in s["ends"] if k not in ends]
    zero = {"rate": 0.0, "ci95": [0.0, 0.0]}
    out.append(
        svg.bars(
            "How games end (95% CI)",
            ends,
            [
                (
                    n,
                    [s["ends"].get(k, zero)["rate"] for k in ends],
                    [tuple(s["ends"].get(k, zero)["ci95"]) for k in ends],
                )
                for n, s in zip(names, sums, strict=True)
            ],
        )
    )
    return out


def render(report: Report) -> str:
    out = [
        "<!DOCTYPE html>",
        "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title(report))}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(title(report))}</h1>",
    ]
    out += [f"<p class='head'>{escape(h)}</p>" for h in header(report)]
    secs = sections(report)
    if report.kind == "compare":  # the verdict first, then the plots
        out += _section(secs[0])
        secs = secs[1:]
    out += ["<h2>Plots</h2>", "<div class='plots'>"] + plots(report) + ["</div>"]
    for sec in secs:
        out += _section(sec)
    out.append(
        "<p class='note'>Every game of this run is in games.sqlite beside this file (docs/lab.md shows "
        "its tables and example queries).</p>"
    )
    out.append("</body></html>")
    return "\n".join(out) + "\n"
