"""Plots as inline SVG text: grouped bars and horizontal bars (with 95% error bars), overlaid
histograms, and values against a parameter (`cuttle sweep`).

No plotting library and no script: the report stays one self-contained file that any browser opens
without a network. Every label is escaped (ruleset and play names come from users' files). Axes
step by 1, 2 or 5 times a power of ten (no 3.75 or 11.25); a plot of several series has a legend
in a band of its own above the plot, and overlaid histograms are outlined, each in its own colour
over a light fill of it, so that where they overlap both stay visible.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from interpreter.core.errors import safe_text

# Tableau 10's first colours: distinct for most colour-blind readers too
COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#eeca3b", "#9d755d", "#bab0ac")
FONT = "font-family='system-ui, sans-serif' font-size='12'"
FILL = 0.15  # the fill of an overlaid histogram, under its solid outline

Interval = tuple[float, float]


def escape(text: str) -> str:
    """Text from a file as HTML that shows it (the one escaper of report.html and its plots): markup
    escaped, and control characters shown as `\\x1b` (a file printed on a terminal acts on none)."""
    return html.escape(safe_text(text))


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def axis(hi: float, lo: float = 0.0, most: int = 6) -> tuple[float, float, float]:
    """(bottom, top, step) of an axis that shows lo..hi: the step 1, 2 or 5 times a power of ten,
    with at most `most` steps; bottom and top are multiples of the step."""
    span = hi - lo
    if span <= 0 or not math.isfinite(span):
        span = abs(hi) or 1.0
    raw = span / most
    e = 10.0 ** math.floor(math.log10(raw))
    step = next(m * e for m in (1, 2, 5, 10) if m * e >= raw - 1e-12)
    bottom = math.floor(lo / step + 1e-9) * step
    top = math.ceil(hi / step - 1e-9) * step
    if top <= bottom:
        top = bottom + step
    return bottom, top, step


def ticks(bottom: float, top: float, step: float) -> list[float]:
    n = int(round((top - bottom) / step))
    return [round(bottom + i * step, 12) for i in range(n + 1)]


def _fmt(v: float, unit: str) -> str:
    if unit == "%":
        p = 100 * v
        return f"{p:.0f}%" if abs(p - round(p)) < 1e-9 else f"{p:.1f}%"
    return f"{v:,.0f}" if abs(v - round(v)) < 1e-9 else f"{v:g}"


def _open(title: str, width: int, height: int, x: float = 8) -> list[str]:
    return [
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' width='{width}' "
        f"height='{height}' role='img' aria-label='{escape(title)}'>",
        f"<text x='{x}' y='18' {FONT} font-weight='bold'>{escape(title)}</text>",
    ]


def legend_rows(names: Sequence[str], width: int) -> list[list[int]]:
    """The series of a legend, row by row (as many as fit across `width`)."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, name in enumerate(names):
        w = 24 + 6.6 * len(name)
        if rows[-1] and used + w > width - 16:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += w
    return rows


def legend(names: Sequence[str], x: float, y: float, width: int, outlined: bool = False) -> list[str]:
    """A legend band at (x, y): a swatch of each series' colour and its name (outlined: as the
    histograms draw it, a light fill under a solid edge)."""
    out = []
    for r, row in enumerate(legend_rows(names, width)):
        cx = x
        for i in row:
            yy = y + 16 * r
            style = (
                f"fill='{colour(i)}' fill-opacity='{FILL}' stroke='{colour(i)}' stroke-width='2'"
                if outlined
                else f"fill='{colour(i)}'"
            )
            out.append(f"<rect x='{cx:.1f}' y='{yy - 9}' width='12' height='10' {style}/>")
            out.append(f"<text x='{cx + 16:.1f}' y='{yy}' {FONT}>{escape(names[i])}</text>")
            cx += 24 + 6.6 * len(names[i])
    return out


def _legend_height(names: Sequence[str], width: int) -> int:
    return 16 * len(legend_rows(names, width)) + 4 if len(names) > 1 else 0


def _error_bar(cx: float, y1: float, y2: float, horizontal: bool = False) -> str:
    if horizontal:  # x1, x2 at height cx
        return (
            f"<path d='M{y1:.1f},{cx:.1f}H{y2:.1f}M{y1:.1f},{cx - 3:.1f}v6M{y2:.1f},{cx - 3:.1f}v6' "
            "stroke='#222' stroke-width='1.2' fill='none'/>"
        )
    return (
        f"<path d='M{cx:.1f},{y1:.1f}V{y2:.1f}M{cx - 4:.1f},{y1:.1f}h8M{cx - 4:.1f},{y2:.1f}h8' "
        "stroke='#222' stroke-width='1.2' fill='none'/>"
    )


def bars(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], Sequence[Interval] | None]],
    unit: str = "%",
    width: int = 640,
) -> str:
    """Vertical grouped bars: one group per category, one bar per series, optional (lo, hi) error bars."""
    longest = max((len(c) for c in categories), default=0)
    group_w = (width - 72) / max(1, len(categories))
    # room for the category labels, written at 30 degrees below the axis
    left = int(max(56, 6.2 * longest * 0.87 - group_w * 0.4 + 8))
    bottom = int(max(64, 6.2 * longest * 0.5 + 30))
    names = [s[0] for s in series]
    top = 30 + _legend_height(names, width)
    height, right = 236 + bottom + top - 34, 16
    plot_w, plot_h = width - left - right, height - top - bottom
    hi_all = max(
        [v for _, vals, _ in series for v in vals] + [e[1] for _, _, errs in series if errs for e in errs] + [0.0]
    )
    _, ymax, step = axis(min(1.0, hi_all) if unit == "%" else hi_all)
    out = _open(title, width, height, left)
    if len(series) > 1:
        out += legend(names, left, 36, width - left)
    for t in ticks(0.0, ymax, step):
        y = top + plot_h - plot_h * t / ymax
        out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{y:.1f}' y2='{y:.1f}' stroke='#ddd'/>")
        out.append(f"<text x='{left - 6}' y='{y + 4:.1f}' text-anchor='end' {FONT}>{_fmt(t, unit)}</text>")
    group = plot_w / max(1, len(categories))
    bw = group * 0.8 / max(1, len(series))
    for ci, cat in enumerate(categories):
        gx = left + ci * group + group * 0.1
        for si, (name, vals, errs) in enumerate(series):
            v = vals[ci]
            h = plot_h * v / ymax
            x = gx + si * bw
            tip = f"{name}: {cat} {_fmt(v, unit)}"
            if errs:
                lo, hi = errs[ci]
                tip += f" (95% CI {_fmt(lo, unit)}–{_fmt(hi, unit)})"
            out.append(
                f"<rect x='{x:.1f}' y='{top + plot_h - h:.1f}' width='{bw * 0.92:.1f}' height='{h:.1f}' "
                f"fill='{colour(si)}'><title>{escape(tip)}</title></rect>"
            )
            if errs:
                lo, hi = errs[ci]
                out.append(
                    _error_bar(x + bw * 0.46, top + plot_h - plot_h * lo / ymax, top + plot_h - plot_h * hi / ymax)
                )
        lx = gx + group * 0.4
        out.append(
            f"<text x='{lx:.1f}' y='{top + plot_h + 14}' text-anchor='end' {FONT} "
            f"transform='rotate(-30 {lx:.1f} {top + plot_h + 14})'>{escape(cat)}</text>"
        )
    out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{top + plot_h}' y2='{top + plot_h}' stroke='#444'/>")
    out.append("</svg>")
    return "\n".join(out)


def hbars(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], Sequence[Interval] | None]],
    unit: str = "",
    width: int = 640,
) -> str:
    """Horizontal grouped bars (many categories with long names: play usage), optional error bars."""
    row = 8 + 12 * len(series)
    left = int(min(width / 3, max(80, 6.6 * max((len(c) for c in categories), default=0) + 14)))
    names = [s[0] for s in series]
    right, top, bottom = 24, 30 + _legend_height(names, width), 28
    height = top + bottom + row * len(categories)
    plot_w = width - left - right
    hi_all = max(
        [v for _, vals, _ in series for v in vals] + [e[1] for _, _, errs in series if errs for e in errs] + [0]
    )
    _, xmax, step = axis(hi_all, most=5)
    out = _open(title, width, height)
    if len(series) > 1:
        out += legend(names, 8, 36, width - 8)
    for t in ticks(0.0, xmax, step):
        x = left + plot_w * t / xmax
        out.append(f"<line x1='{x:.1f}' x2='{x:.1f}' y1='{top}' y2='{height - bottom}' stroke='#ddd'/>")
        out.append(f"<text x='{x:.1f}' y='{height - bottom + 14}' text-anchor='middle' {FONT}>{_fmt(t, unit)}</text>")
    for ci, cat in enumerate(categories):
        y0 = top + ci * row + 4
        out.append(f"<text x='{left - 6}' y='{y0 + row / 2:.1f}' text-anchor='end' {FONT}>{escape(cat)}</text>")
        for si, (name, vals, errs) in enumerate(series):
            v = vals[ci]
            tip = f"{name}: {cat} {v:.3g}"
            if errs:
                tip += f" (95% CI {errs[ci][0]:.3g}–{errs[ci][1]:.3g})"
            out.append(
                f"<rect x='{left}' y='{y0 + si * 12:.1f}' width='{plot_w * v / xmax:.1f}' height='10' "
                f"fill='{colour(si)}'><title>{escape(tip)}</title></rect>"
            )
            if errs:
                lo, hi = errs[ci]
                out.append(_error_bar(y0 + si * 12 + 5, left + plot_w * lo / xmax, left + plot_w * hi / xmax, True))
    out.append("</svg>")
    return "\n".join(out)


def _bins(values: Sequence[int], bins: int) -> tuple[int, int, int]:
    """(first value, width, count) of histogram bins of whole numbers: the width 1, 2 or 5 times a
    power of ten, the first bin at a multiple of it."""
    lo, hi = min(values), max(values)
    raw = max(1.0, (hi - lo + 1) / bins)
    e = 10 ** math.floor(math.log10(raw))
    step = int(next(m * e for m in (1, 2, 5, 10) if m * e >= raw))
    first = (lo // step) * step
    return first, step, (hi - first) // step + 1


def histogram(
    title: str, series: Sequence[tuple[str, Sequence[int]]], xlabel: str, width: int = 640, bins: int = 30
) -> str:
    """Overlaid histograms on shared bins (shares of each series' games): each series a solid
    outline in its colour over a light fill of it, with a legend when there are several."""
    values = [v for _, xs in series for v in xs]
    names = [s[0] for s in series]
    top = 30 + _legend_height(names, width)
    height, left, right, bottom = 246 + top, 56, 16, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    out = _open(title, width, height, left)
    if not values:
        out.append("</svg>")
        return "\n".join(out)
    first, step, nb = _bins(values, bins)
    shares = []
    for _, xs in series:
        counts = [0] * nb
        for v in xs:
            counts[(v - first) // step] += 1
        shares.append([c / len(xs) if xs else 0.0 for c in counts])
    _, ymax, ystep = axis(max(max(s) for s in shares), most=4)
    if len(series) > 1:
        out += legend(names, left, 36, width - left, outlined=True)
    for t in ticks(0.0, ymax, ystep):
        y = top + plot_h - plot_h * t / ymax
        out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{y:.1f}' y2='{y:.1f}' stroke='#ddd'/>")
        out.append(f"<text x='{left - 6}' y='{y + 4:.1f}' text-anchor='end' {FONT}>{_fmt(t, '%')}</text>")
    bw = plot_w / nb
    base = top + plot_h
    for si, ((name, _), sh) in enumerate(zip(series, shares, strict=True)):
        path = [f"M{left:.1f},{base:.1f}"]
        for i, s in enumerate(sh):
            y = base - plot_h * s / ymax
            path.append(f"V{y:.1f}H{left + (i + 1) * bw:.1f}")
            a, b = first + i * step, first + (i + 1) * step - 1
            span = f"{a}" if a == b else f"{a}–{b}"
            out.append(
                f"<rect x='{left + i * bw:.1f}' y='{y:.1f}' width='{bw:.1f}' height='{base - y:.1f}' "
                f"fill='{colour(si)}' fill-opacity='{FILL}'>"
                f"<title>{escape(f'{name}: {span} {xlabel}: {100 * s:.1f}% of games')}</title></rect>"
            )
        path.append(f"V{base:.1f}")
        out.append(f"<path d='{''.join(path)}' fill='none' stroke='{colour(si)}' stroke-width='2'/>")
    _, _, xstep = axis(nb * step, most=6)
    k = max(1, int(round(xstep / step)))
    for i in range(0, nb + 1):
        v = first + i * step
        if v % (k * step) == 0:
            x = left + i * bw
            out.append(f"<text x='{x:.1f}' y='{base + 14}' text-anchor='middle' {FONT}>{v}</text>")
    out.append(
        f"<text x='{left + plot_w / 2:.1f}' y='{height - 8}' text-anchor='middle' {FONT}>{escape(xlabel)}</text>"
    )
    out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{base}' y2='{base}' stroke='#444'/>")
    out.append("</svg>")
    return "\n".join(out)


def lines(
    title: str,
    xs: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], Sequence[Interval]]],
    unit: str = "",
    xlabel: str = "",
    width: int = 640,
) -> str:
    """Values against a parameter (`xs`, evenly spaced in the given order): each series a line
    through its points, each point with its 95% error bar; the axis spans every interval."""
    names = [s[0] for s in series]
    top = 30 + _legend_height(names, width)
    height, left, right, bottom = 236 + top, 60, 24, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    known = [
        v
        for _, vals, errs in series
        for v in [*vals, *(e for pair in errs for e in pair)]
        if v is not None and math.isfinite(v)
    ]
    out = _open(title, width, height, left)
    if not known:
        out.append("</svg>")
        return "\n".join(out)
    lo, hi = min(known + [0.0]), max(known)
    if unit == "%":
        lo, hi = max(lo, -1.0), min(hi, 1.0)
    ymin, ymax, step = axis(hi, lo, most=5)
    if len(series) > 1:
        out += legend(names, left, 36, width - left)

    def y_of(v: float) -> float:
        return top + plot_h - plot_h * (v - ymin) / (ymax - ymin)

    for t in ticks(ymin, ymax, step):
        out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{y_of(t):.1f}' y2='{y_of(t):.1f}' stroke='#ddd'/>")
        out.append(f"<text x='{left - 6}' y='{y_of(t) + 4:.1f}' text-anchor='end' {FONT}>{_fmt(t, unit)}</text>")
    gap = plot_w / max(1, len(xs))
    shift = min(6.0, gap * 0.3 / max(1, len(series)))  # series side by side a little, so bars do not hide
    for si, (name, vals, errs) in enumerate(series):
        pts = []
        for i, (v, (elo, ehi)) in enumerate(zip(vals, errs, strict=True)):
            if v is None or not math.isfinite(v):
                continue
            x = left + gap * (i + 0.5) + (si - (len(series) - 1) / 2) * shift
            pts.append(f"{x:.1f},{y_of(v):.1f}")
            if math.isfinite(elo) and math.isfinite(ehi):
                out.append(_error_bar(x, y_of(elo), y_of(ehi)).replace("#222", colour(si)))
            tip = f"{name}: {xs[i]}: {_fmt(v, unit)} (95% CI {_fmt(elo, unit)} to {_fmt(ehi, unit)})"
            out.append(
                f"<circle cx='{x:.1f}' cy='{y_of(v):.1f}' r='3.5' fill='{colour(si)}'>"
                f"<title>{escape(tip)}</title></circle>"
            )
        if len(pts) > 1:
            out.append(f"<polyline points='{' '.join(pts)}' fill='none' stroke='{colour(si)}' stroke-width='1.5'/>")
    for i, x_text in enumerate(xs):
        out.append(
            f"<text x='{left + gap * (i + 0.5):.1f}' y='{top + plot_h + 16}' text-anchor='middle' {FONT}>"
            f"{escape(x_text)}</text>"
        )
    if ymin < 0 < ymax:
        out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{y_of(0):.1f}' y2='{y_of(0):.1f}' stroke='#888'/>")
    out.append(
        f"<text x='{left + plot_w / 2:.1f}' y='{height - 8}' text-anchor='middle' {FONT}>{escape(xlabel)}</text>"
    )
    out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{top + plot_h}' y2='{top + plot_h}' stroke='#444'/>")
    out.append("</svg>")
    return "\n".join(out)


def forest(
    title: str,
    categories: Sequence[str],
    points: Sequence[tuple[float, float, float]],
    unit: str = "",
    xlabel: str = "",
    width: int = 640,
) -> str:
    """Differences with their 95% intervals, one row each (B − A, a value against the one before):
    a dot at the difference, a bar over its interval, and a line at no change, so that a change of a
    point or two is as wide as its interval allows. A row whose interval excludes 0 is drawn solid."""
    row = 20
    left = int(min(width / 2.5, max(80, 6.6 * max((len(c) for c in categories), default=0) + 14)))
    right, top, bottom = 24, 30, 44 if xlabel else 28
    height = top + bottom + row * max(1, len(categories))
    plot_w = width - left - right
    known = [v for p in points for v in p if math.isfinite(v)]
    out = _open(title, width, height)
    if not known:
        out.append("</svg>")
        return "\n".join(out)
    lo, hi = min(known + [0.0]), max(known + [0.0])
    if hi - lo < 1e-12:
        lo, hi = lo - (0.01 if unit == "%" else 1.0), hi + (0.01 if unit == "%" else 1.0)
    pad = (hi - lo) * 0.08  # no dot or bar on the frame, the line of no change included
    xmin, xmax, step = axis(hi + pad, lo - pad, most=6)

    def x_of(v: float) -> float:
        return left + plot_w * (v - xmin) / (xmax - xmin)

    for t in ticks(xmin, xmax, step):
        out.append(f"<line x1='{x_of(t):.1f}' x2='{x_of(t):.1f}' y1='{top}' y2='{height - bottom}' stroke='#ddd'/>")
        label = ("+" if t > 0 else "") + _fmt(t, unit)
        out.append(f"<text x='{x_of(t):.1f}' y='{height - bottom + 14}' text-anchor='middle' {FONT}>{label}</text>")
    out.append(f"<line x1='{x_of(0):.1f}' x2='{x_of(0):.1f}' y1='{top}' y2='{height - bottom}' stroke='#444'/>")
    for i, (cat, (v, elo, ehi)) in enumerate(zip(categories, points, strict=True)):
        y = top + i * row + row / 2
        out.append(f"<text x='{left - 6}' y='{y + 4:.1f}' text-anchor='end' {FONT}>{escape(cat)}</text>")
        if not math.isfinite(v):
            continue
        seen = math.isfinite(elo) and math.isfinite(ehi) and (elo > 0 or ehi < 0)
        if math.isfinite(elo) and math.isfinite(ehi):
            out.append(_error_bar(y, x_of(elo), x_of(ehi), True).replace("#222", colour(0)))
        tip = f"{cat}: {_fmt(v, unit)} (95% CI {_fmt(elo, unit)} to {_fmt(ehi, unit)})"
        fill = colour(0) if seen else "#fff"
        out.append(
            f"<circle cx='{x_of(v):.1f}' cy='{y:.1f}' r='4' fill='{fill}' stroke='{colour(0)}' stroke-width='1.5'>"
            f"<title>{escape(tip)}</title></circle>"
        )
    if xlabel:
        out.append(
            f"<text x='{left + plot_w / 2:.1f}' y='{height - 8}' text-anchor='middle' {FONT}>{escape(xlabel)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out)
