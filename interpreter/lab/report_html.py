"""report.html: one self-contained page (inline CSS and SVG plots, no script, no network)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from . import columns, quality_summary, svg
from .report import (
    QUALITY,
    Cell,
    Section,
    header,
    measured,
    players_line,
    sections,
    swept_keys,
    text_of,
    title,
    tone_of,
    value_names,
)
from .sim import Report
from .svg import escape

CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1500px; color: #222; padding: 0 1.5em; }
h1 { font-size: 1.4em; margin-bottom: .3em; }
h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5em 0; font-size: .92em; }
th, td { padding: .25em .7em; border-bottom: 1px solid #eee; text-align: left; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
td:not(:first-child), th:not(:first-child) { white-space: nowrap; }
.good { color: #1a7f37; } .bad { color: #c62828; } .warn { color: #9a6700; font-weight: 600; }
.dim { color: #777; } .strong { font-weight: 600; }
.note { color: #666; font-size: .85em; } .head { color: #555; margin: 0; }
.players { margin: .4em 0; padding: .4em .7em; background: #f4f6fa; border-left: 3px solid #4c78a8; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: .8em; margin: .8em 0; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: .6em .8em; }
.card .what { color: #555; font-size: .85em; }
.card .value { font-size: 1.45em; font-weight: 600; margin: .1em 0; white-space: nowrap; }
.card .detail { color: #666; font-size: .8em; }
.plots { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 1.2em 2em; }
.plots svg { width: 100%; height: auto; }
.tables { display: grid; grid-template-columns: repeat(auto-fit, minmax(600px, 1fr)); gap: 0 2em; }
.tables > div { overflow-x: auto; }
.wide { grid-column: 1 / -1; }
"""


def _td(c: Cell, right: bool, tag: str = "td") -> str:
    classes = " ".join(x for x in ("r" if right else "", tone_of(c)) if x)
    return f"<{tag}{f' class={chr(34)}{classes}{chr(34)}' if classes else ''}>{escape(text_of(c))}</{tag}>"


def _cards(sec: Section) -> list[str]:
    out = ["<div class='cards'>"]
    for what, value, detail in sec.cards:
        tone = tone_of(value)
        out.append(
            f"<div class='card'><div class='what'>{escape(what)}</div>"
            f"<div class='value{' ' + tone if tone else ''}'>{escape(text_of(value))}</div>"
            f"<div class='detail'>{escape(detail)}</div></div>"
        )
    out.append("</div>")
    return out


def _section(sec: Section) -> list[str]:
    out = [f"<h2>{escape(sec.title)}</h2>"]
    if sec.cards:
        out += _cards(sec)
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
        out.append(f"<p class='note'>{_code_spans(escape(sec.note))}</p>")
    return out


def _names(report: Report) -> list[str]:
    sides = report.job.sides
    if report.kind == "sweep":
        return [report.values[s.label]["label"] for s in sides]
    return [s.show(sides[1 - i]) if len(sides) == 2 else s.name for i, s in enumerate(sides)]


def _usage(report: Report, names: list[str], sums: list[dict[str, Any]]) -> str:
    """Times per game of each play and response, with the 95% interval of that mean."""
    plays: list[str] = []
    for s in sums:
        for e in s["rules"]:
            label = e["name"] + (" (response)" if e["kind"] == "response" else "")
            if e["kind"] in ("play", "response") and label not in plays:
                plays.append(label)
    series = []
    for n, side, s in zip(names, report.job.sides, sums, strict=True):
        pg = {e["name"] + (" (response)" if e["kind"] == "response" else ""): e["per_game"] for e in s["rules"]}
        cis = report.usage.get(side.label, {})
        series.append(
            (n, [pg.get(p, 0.0) for p in plays], [tuple(cis.get(p, (pg.get(p, 0.0), pg.get(p, 0.0)))) for p in plays])
        )
    return svg.hbars("Play usage: times per game (95% CI)", plays, series)


def plots(report: Report) -> list[str]:
    """Win rates with error bars, each measure's distributions overlaid, play usage side by side, endings."""
    if report.kind == "sweep":
        return sweep_plots(report)
    sides = report.job.sides
    names = _names(report)
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
    out.append(_usage(report, names, sums))
    if report.differences is not None:
        out += _changes(report.differences, names)
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


def _changes(diff: dict[str, Any], names: list[str]) -> list[str]:
    """B − A with 95% intervals, on scales of the changes themselves (the usage bars are on the scale
    of the uses, where a change the verdict names is a few pixels wide): results and endings in
    percentage points, lengths relative, each play's uses per game."""

    def point(d: dict[str, Any], rel: bool = False) -> tuple[float, float, float]:
        if rel:
            return (d["relative"], *d["relative_ci95"])
        return (d["difference"], *d["ci95"])

    who = f"{names[1]} − {names[0]}"
    results = [("p1 wins", diff["p1_win_rate"]), ("p2 wins", diff["p2_win_rate"]), ("draws", diff["draw_rate"])]
    results += [(f"ends: {k}", v) for k, v in diff["ends"].items()]
    lengths = [(m.label, measured(diff, c.name, m)) for c, m in columns.measures() if not m.group]
    plays = list(diff["plays"].items())
    return [
        svg.forest(
            "Results, B − A: percentage points (95% CI)",
            [k for k, _ in results],
            [point(d) for _, d in results],
            "%",
            who,
        ),
        svg.forest(
            "Length, B − A: relative change of the mean (95% CI)",
            [k for k, _ in lengths],
            [point(d, rel=True) for _, d in lengths],
            "%",
            who,
        ),
        svg.forest(
            "Play usage, B − A: times per game (95% CI)", [k for k, _ in plays], [point(d) for _, d in plays], "", who
        ),
    ]


def _sweep_axes(report: Report) -> tuple[list[str], list[tuple[str, list[str]]], str]:
    """The x axis of a sweep's plots (the first key's values, as given) and its series (one per
    combination of the other keys' values: which side is at each x), and the axis' name."""
    sides = [s.label for s in report.job.sides]
    points = [report.points[s] for s in sides]
    key = points[0][0][0]
    xs = list(dict.fromkeys(p[0][1] for p in points))
    series: dict[str, list[str]] = {}
    for side, p in zip(sides, points, strict=True):
        name = " ".join(f"{k}={v}" for k, v in p[1:]) or key
        series.setdefault(name, [""] * len(xs))[xs.index(p[0][1])] = side
    return xs, list(series.items()), key


def sweep_plots(report: Report) -> list[str]:
    """Each headline number and quality figure against the swept value, with 95% error bars."""
    xs, series, key = _sweep_axes(report)
    nan = float("nan")

    def plot(title: str, get: Callable[[dict[str, Any]], tuple[float, float, float]], unit: str = "") -> str:
        rows = []
        for name, sides in series:
            got = [get(report.summaries[s]) if s else (nan, nan, nan) for s in sides]
            rows.append((name, [g[0] for g in got], [(g[1], g[2]) for g in got]))
        return svg.lines(title, xs, rows, unit, key)

    def rate(k: str) -> Callable[[dict[str, Any]], tuple[float, float, float]]:
        return lambda s: (s[k], *s[k + "_ci95"])

    def mean(k: str) -> Callable[[dict[str, Any]], tuple[float, float, float]]:
        return lambda s: (s[k]["mean"], *s[k]["mean_ci95"])

    def figure(k: str) -> Callable[[dict[str, Any]], tuple[float, float, float]]:
        return lambda s: (lambda e: (e["value"], *e["ci95"]))(dict(quality_summary.flat(s["quality"]))[k])

    out = [
        plot("First player's win rate (95% CI)", rate("p1_win_rate"), "%"),
        plot("Draw rate (95% CI)", rate("draw_rate"), "%"),
        plot("Turns a game: mean (95% CI)", mean("turns")),
        plot("Real choices a game: mean (95% CI)", mean("real_choices")),
    ]
    if report.steps:  # each value against the one before, paired: the changes at their own scale
        names = dict(zip((s.label for s in report.job.sides), value_names(report), strict=True))
        steps = [f"{names[st['from']]} → {names[st['to']]}" for st in report.steps]
        for title, key, unit in (
            ("First player's win rate, each value against the one before: points (95% CI)", "p1_win_rate", "%"),
            ("Turns a game (mean), each value against the one before (95% CI)", "turns", ""),
        ):
            pts = [(st[key]["difference"], *st[key]["ci95"]) for st in report.steps]
            out.append(svg.forest(title, steps, pts, unit, swept_keys(report)))
    for name, _ in quality_summary.flat(report.summaries[report.job.sides[0].label]["quality"]):
        if name in ("turns", "real_choices", "drawishness"):  # (drawishness is the draw rate, plotted above)
            continue
        unit = "%" if name in ("advantage", "drawishness", "decisiveness", "drama") else ""
        out.append(plot(f"Game quality: {QUALITY[name][0]} (95% CI)", figure(name), unit))
    return out


def _code_spans(text: str) -> str:
    """`name` in a note (escaped already) as <code>name</code>, as the terminal's backticks mean."""
    return re.sub(r"`([^`<>]+)`", r"<code>\1</code>", text)


HALF = 66  # characters of a table's widest row that fit half of a 1280-pixel page


def _wide(sec: Section) -> bool:
    """Whether a table needs the page's whole width: its widest row (each column as wide as its
    longest cell, plus a margin) would not fit half of it without wrapping its labels or scrolling."""
    if not sec.header:
        return False
    widths = [len(h) for h in sec.header]
    for row in sec.rows:
        for i, cell in enumerate(row[: len(widths)]):
            widths[i] = max(widths[i], len(text_of(cell)))
    return sum(widths) + 3 * len(widths) > HALF or sec.title.startswith("Plays")


def render(report: Report) -> str:
    out = [
        "<!DOCTYPE html>",
        "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title(report))}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(title(report))}</h1>",
    ]
    head = header(report)
    out += [f"<p class='head'>{escape(h)}</p>" for h in head if h != players_line(report)]
    out.append(f"<p class='players'>{escape(players_line(report))}</p>")
    secs = sections(report)
    first = 2 if report.kind == "compare" else 1  # the headline numbers (and a comparison's verdict) first
    for sec in secs[:first]:
        out += _section(sec)
    out += ["<h2>Plots</h2>", "<div class='plots'>"] + plots(report) + ["</div>", "<div class='tables'>"]
    for sec in secs[first:]:
        wide = _wide(sec)
        out += [f"<div{' class=' + chr(39) + 'wide' + chr(39) if wide else ''}>", *_section(sec), "</div>"]
    out.append("</div>")
    out.append(
        "<p class='note'>Every game of this run is in games.sqlite beside this file (docs/lab.md shows "
        "its tables and example queries).</p>"
    )
    out.append("</body></html>")
    return "\n".join(out) + "\n"
