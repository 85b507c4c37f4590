"""Plots as inline SVG text: grouped bars (with 95% error bars) and overlaid histograms.

No plotting library and no script: the report stays one self-contained file that any browser opens
without a network. Every label is escaped (ruleset and play names come from users' files).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756")
FONT = "font-family='system-ui, sans-serif' font-size='12'"


def _nice_max(x: float) -> float:
    if x <= 0:
        return 1.0
    e = 10.0 ** math.floor(math.log10(x))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * e >= x:
            return m * e
    return 10 * e


def _ticks(top: float, n: int = 5) -> list[float]:
    return [top * i / n for i in range(n + 1)]


def _fmt(v: float, unit: str) -> str:
    if unit == "%":
        return f"{100 * v:.0f}%" if abs(100 * v - round(100 * v)) < 1e-9 else f"{100 * v:.1f}%"
    return f"{v:g}"


def _legend(names: Sequence[str], x: float, y: float) -> list[str]:
    out = []
    for i, name in enumerate(names):
        out.append(f"<rect x='{x}' y='{y + 16 * i - 9}' width='10' height='10' fill='{COLOURS[i % len(COLOURS)]}'/>")
        out.append(f"<text x='{x + 14}' y='{y + 16 * i}' {FONT}>{escape(name)}</text>")
    return out


def bars(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], Sequence[tuple[float, float]] | None]],
    unit: str = "%",
    width: int = 640,
) -> str:
    """Vertical grouped bars: one group per category, one bar per series, optional (lo, hi) error bars."""
    longest = max((len(c) for c in categories), default=0)
    group_w = (width - 72) / max(1, len(categories))
    # room for the category labels, written at 30 degrees below the axis
    left = int(max(56, 6.2 * longest * 0.87 - group_w * 0.4 + 8))
    bottom = int(max(64, 6.2 * longest * 0.5 + 30))
    height, right, top = 236 + bottom, 16, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    hi_all = max(
        [v for _, vals, _ in series for v in vals] + [e[1] for _, _, errs in series if errs for e in errs] + [0.0]
    )
    ymax = _nice_max(hi_all * 1.05) if unit != "%" else min(1.0, _nice_max(hi_all * 1.05))
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' width='{width}' "
        f"height='{height}' role='img' aria-label='{escape(title)}'>",
        f"<text x='{left}' y='18' {FONT} font-weight='bold'>{escape(title)}</text>",
    ]
    for t in _ticks(ymax):
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
            colour = COLOURS[si % len(COLOURS)]
            tip = f"{name}: {cat} {_fmt(v, unit)}"
            if errs:
                lo, hi = errs[ci]
                tip += f" (95% CI {_fmt(lo, unit)}–{_fmt(hi, unit)})"
            out.append(
                f"<rect x='{x:.1f}' y='{top + plot_h - h:.1f}' width='{bw * 0.92:.1f}' height='{h:.1f}' "
                f"fill='{colour}'><title>{escape(tip)}</title></rect>"
            )
            if errs:
                lo, hi = errs[ci]
                cx = x + bw * 0.46
                y1, y2 = top + plot_h - plot_h * lo / ymax, top + plot_h - plot_h * hi / ymax
                out.append(
                    f"<path d='M{cx:.1f},{y1:.1f}V{y2:.1f}M{cx - 4:.1f},{y1:.1f}h8M{cx - 4:.1f},{y2:.1f}h8' "
                    "stroke='#222' stroke-width='1.2' fill='none'/>"
                )
        label = escape(cat)
        lx = gx + group * 0.4
        out.append(
            f"<text x='{lx:.1f}' y='{top + plot_h + 14}' text-anchor='end' {FONT} "
            f"transform='rotate(-30 {lx:.1f} {top + plot_h + 14})'>{label}</text>"
        )
    out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{top + plot_h}' y2='{top + plot_h}' stroke='#444'/>")
    if len(series) > 1:
        out += _legend([s[0] for s in series], left + plot_w - 180, 16)
    out.append("</svg>")
    return "\n".join(out)


def hbars(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float]]],
    unit: str = "",
    width: int = 640,
) -> str:
    """Horizontal grouped bars (many categories with long names: play usage)."""
    row = 8 + 12 * len(series)
    left, right, top, bottom = 150, 56, 34, 28
    height = top + bottom + row * len(categories)
    plot_w = width - left - right
    xmax = _nice_max(max([v for _, vals in series for v in vals] + [0.0]) * 1.05)
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' width='{width}' "
        f"height='{height}' role='img' aria-label='{escape(title)}'>",
        f"<text x='8' y='18' {FONT} font-weight='bold'>{escape(title)}</text>",
    ]
    for t in _ticks(xmax, 4):
        x = left + plot_w * t / xmax
        out.append(f"<line x1='{x:.1f}' x2='{x:.1f}' y1='{top}' y2='{height - bottom}' stroke='#ddd'/>")
        out.append(f"<text x='{x:.1f}' y='{height - bottom + 14}' text-anchor='middle' {FONT}>{_fmt(t, unit)}</text>")
    for ci, cat in enumerate(categories):
        y0 = top + ci * row + 4
        out.append(f"<text x='{left - 6}' y='{y0 + row / 2:.1f}' text-anchor='end' {FONT}>{escape(cat)}</text>")
        for si, (name, vals) in enumerate(series):
            v = vals[ci]
            w = plot_w * v / xmax
            out.append(
                f"<rect x='{left}' y='{y0 + si * 12:.1f}' width='{w:.1f}' height='10' "
                f"fill='{COLOURS[si % len(COLOURS)]}'><title>{escape(f'{name}: {cat} {v:.3g}')}</title></rect>"
            )
    if len(series) > 1:
        out += _legend([s[0] for s in series], width - 200, 16)
    out.append("</svg>")
    return "\n".join(out)


def histogram(
    title: str, series: Sequence[tuple[str, Sequence[int]]], xlabel: str, width: int = 640, bins: int = 30
) -> str:
    """Overlaid histograms on shared bins (shares of each series' games), as outlined translucent bars."""
    values = [v for _, xs in series for v in xs]
    height, left, right, top, bottom = 280, 56, 16, 34, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' width='{width}' "
        f"height='{height}' role='img' aria-label='{escape(title)}'>",
        f"<text x='{left}' y='18' {FONT} font-weight='bold'>{escape(title)}</text>",
    ]
    if not values:
        out.append("</svg>")
        return "\n".join(out)
    lo, hi = min(values), max(values)
    step = max(1, math.ceil((hi - lo + 1) / bins))
    nb = (hi - lo) // step + 1
    shares = []
    for _, xs in series:
        counts = [0] * nb
        for v in xs:
            counts[(v - lo) // step] += 1
        shares.append([c / len(xs) if xs else 0.0 for c in counts])
    ymax = _nice_max(max(max(s) for s in shares) * 1.05)
    for t in _ticks(ymax, 4):
        y = top + plot_h - plot_h * t / ymax
        out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{y:.1f}' y2='{y:.1f}' stroke='#ddd'/>")
        out.append(f"<text x='{left - 6}' y='{y + 4:.1f}' text-anchor='end' {FONT}>{_fmt(t, '%')}</text>")
    bw = plot_w / nb
    for si, ((name, _), sh) in enumerate(zip(series, shares, strict=True)):
        colour = COLOURS[si % len(COLOURS)]
        for i, s in enumerate(sh):
            if s <= 0:
                continue
            h = plot_h * s / ymax
            a, b = lo + i * step, lo + (i + 1) * step - 1
            span = f"{a}" if a == b else f"{a}–{b}"
            out.append(
                f"<rect x='{left + i * bw:.1f}' y='{top + plot_h - h:.1f}' width='{bw:.1f}' height='{h:.1f}' "
                f"fill='{colour}' fill-opacity='0.45' stroke='{colour}'>"
                f"<title>{escape(f'{name}: {span} {xlabel}: {100 * s:.1f}% of games')}</title></rect>"
            )
    for i in range(0, nb + 1, max(1, nb // 6)):
        x = left + i * bw
        out.append(f"<text x='{x:.1f}' y='{top + plot_h + 14}' text-anchor='middle' {FONT}>{lo + i * step}</text>")
    out.append(
        f"<text x='{left + plot_w / 2:.1f}' y='{height - 8}' text-anchor='middle' {FONT}>{escape(xlabel)}</text>"
    )
    out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{top + plot_h}' y2='{top + plot_h}' stroke='#444'/>")
    if len(series) > 1:
        out += _legend([s[0] for s in series], left + plot_w - 180, 16)
    out.append("</svg>")
    return "\n".join(out)
