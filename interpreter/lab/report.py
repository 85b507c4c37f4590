"""The content of a report, once, as titled tables of text cells; the terminal, Markdown and HTML
renderers (report_text, report_md, report_html) only lay it out. The measures of columns.py are
rows of the tables their declarations name. A cell may carry a tone (good, bad, warn, dim, strong) that a renderer
shows as colour or emphasis."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import columns, quality_summary
from .columns import Measure
from .job import evaluations_line
from .job import players_line as job_players_line
from .progress import per_second
from .sim import Report

Cell = str | tuple[str, str]  # text, or (text, tone)


@dataclass
class Section:
    title: str
    header: list[str] = field(default_factory=list)
    rows: list[list[Cell]] = field(default_factory=list)
    right: list[bool] = field(default_factory=list)  # right-aligned columns (numbers)
    note: str = ""
    lines: list[Cell] = field(default_factory=list)  # a section of sentences instead of a table
    cards: list[tuple[str, Cell, str]] = field(default_factory=list)  # headline numbers: (what, value, detail)


def text_of(c: Cell) -> str:
    return c if isinstance(c, str) else c[0]


def tone_of(c: Cell) -> str:
    return "" if isinstance(c, str) else c[1]


def pct(x: float | None, digits: int = 1) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f}%"


def ci(pair: Sequence[float], digits: int = 1) -> str:
    return f"{100 * pair[0]:.{digits}f}–{100 * pair[1]:.{digits}f}%"


def num(x: float | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.{digits}f}"


def signed(x: float, digits: int = 1, scale: float = 1.0) -> str:
    v = x * scale
    if math.isnan(v):
        return "—"
    if round(v, digits) == 0:  # (no "−0.0" for a change that rounds to nothing)
        v = 0.0
    return ("+" if v > 0 else "−" if v < 0 else "±") + f"{abs(v):,.{digits}f}"


def title(report: Report) -> str:
    if report.kind == "sweep":
        return f"cuttle sweep {report.settings}"
    names = " vs ".join(s.spec for s in report.job.sides)
    what = "compare" if report.kind == "compare" else "sim"
    return f"cuttle {what} {names}"


def players_line(report: Report) -> str:
    """Which players made the report, and what that makes its numbers measure."""
    return job_players_line(report.job.players)


def _rulesets_line(report: Report) -> str:
    if report.kind == "sweep":
        return "rulesets: " + "; ".join(
            f"{s.label} {report.values[s.label]['label']} (hash {s.hash})" for s in report.job.sides
        )
    return "rulesets: " + "; ".join(f"{s.spec} (hash {s.hash})" for s in report.job.sides)


def header(report: Report) -> list[str]:
    job = report.job
    p1, p2 = job.players
    per = {"compare": " per ruleset", "sweep": " per value"}.get(report.kind, "")
    head = [
        f"{report.games:,} games{per}, {p1} (p1, moves first) vs {p2} (p2), seed {job.seed}",
        players_line(report),
        _rulesets_line(report),
    ]
    learnt = evaluations_line(job)
    if learnt:
        head.insert(2, learnt)
    if report.pairing:
        head.append(report.pairing)
    if report.played:
        sides = len(job.sides)
        total = report.played * sides  # report.played counts game numbers: each is a game per ruleset
        rate = total / report.elapsed if report.elapsed else 0
        head.append(
            f"played {total:,} games"
            + (f" ({report.played:,} per {'value' if report.kind == 'sweep' else 'ruleset'})" if sides > 1 else "")
            + f" in {report.elapsed:.1f} s ({per_second(rate)} games/s, {report.backend})"
            + (f"; {report.resumed:,}{per} were already in {report.database}" if report.resumed else "")
        )
    elif report.resumed:
        head.append(f"all {report.resumed:,} games{per} were already in {report.database}")
    return head


def _results(s: dict[str, Any]) -> Section:
    sec = Section("Results", ["", "games", "rate", "95% CI"], right=[False, True, True, True])
    sec.rows.append(["p1 wins (first player)", f"{s['p1_wins']:,}", pct(s["p1_win_rate"]), ci(s["p1_win_rate_ci95"])])
    sec.rows.append(["p2 wins", f"{s['p2_wins']:,}", pct(s["p2_win_rate"]), ci(s["p2_win_rate_ci95"])])
    sec.rows.append(["draws", f"{s['draws']:,}", pct(s["draw_rate"]), ci(s["draw_rate_ci95"])])
    if s["unfinished"]:
        sec.rows.append(
            [("cut off (no result)", "warn"), f"{s['unfinished']:,}", pct(s["unfinished"] / s["games"]), ""]
        )
    return sec


def _ends(s: dict[str, Any]) -> Section:
    sec = Section("How games end", ["", "games", "rate", "95% CI"], right=[False, True, True, True])
    sec.rows += [[k, f"{v['count']:,}", pct(v["rate"]), ci(v["ci95"])] for k, v in s["ends"].items()]
    return sec


def measured(summary: dict[str, Any], name: str, m: Measure) -> Any:
    """The entry of measure `name` in a summary (or a comparison): under its group, if it has one."""
    return summary[m.group][name] if m.group else summary[name]


def _by_section() -> dict[str, list[tuple[str, Measure]]]:
    """The measures (columns.py) by the report's table they are rows of, in order."""
    out: dict[str, list[tuple[str, Measure]]] = {}
    for c, m in columns.measures():
        out.setdefault(m.section, []).append((c.name, m))
    return out


def _measure_sections(s: dict[str, Any]) -> list[Section]:
    out = []
    for title, rows in _by_section().items():
        sec = Section(
            title, ["", "median", "quartiles", "mean (95% CI)", "range"], right=[False, True, True, True, True]
        )
        for name, m in rows:
            d = measured(s, name, m)
            sec.rows.append(
                [
                    m.label,
                    num(d["median"]),
                    f"{num(d['q1'])}–{num(d['q3'])}",
                    f"{num(d['mean'])} ({num(d['mean_ci95'][0])}–{num(d['mean_ci95'][1])})",
                    f"{d['min']}–{d['max']}",
                ]
            )
        out.append(sec)
    return out


def _plays(s: dict[str, Any]) -> Section:
    sec = Section(
        "Plays and responses",
        ["", "used", "per game", "in games", "countered", "win: used / not", "difference (95% CI)"],
        right=[False, True, True, True, True, True, False],
        note="win: the win rate of a seat in the games it used the play and in those it did not "
        "(an association, not a cause); countered: share of its uses that were countered",
    )
    for e in s["rules"]:
        if e["kind"] not in ("play", "response"):
            continue
        name = (
            e["name"]
            + (" (response)" if e["kind"] == "response" else "")
            + (f" [{e['origin']}]" if e["origin"] else "")
        )
        countered = f"{pct(e['countered_rate'], 0)} of {e['used']:,}" if "countered" in e else ""
        win: Cell = ""
        diff: Cell = ""
        if "win_rate_used" in e:
            lo, hi = e["win_difference_ci95"]
            d = e["win_rate_used"] - e["win_rate_not_used"]
            diff = (
                f"{signed(d, 1, 100)} pts ({signed(lo, 1, 100)} to {signed(hi, 1, 100)})",
                "good" if lo > 0 else "bad" if hi < 0 else "dim",
            )
            win = f"{pct(e['win_rate_used'], 0)} / {pct(e['win_rate_not_used'], 0)}"
        used: Cell = (f"{e['used']:,}", "warn") if e["used"] == 0 else f"{e['used']:,}"
        sec.rows.append(
            [
                name,
                used,
                f"{e['per_game']:.2f}",
                _share(e["games_used"], s),
                countered,
                win,
                diff,
            ]
        )
    return sec


def _choices(s: dict[str, Any]) -> Section | None:
    rows: list[list[Cell]] = [
        [e["name"], f"{e['used']:,}", f"{e['per_game']:.2f}"] for e in s["rules"] if e["kind"] == "choice"
    ]
    if not rows:
        return None
    return Section("Choices made inside effects and turn rules", ["", "times", "per game"], rows, [False, True, True])


def _mean_cell(e: dict[str, Any], digits: int = 2) -> str:
    lo, hi = e["ci95"]
    return f"{num(e['mean'], digits)} ({num(max(0.0, lo), digits)}–{num(hi, digits)})"


def _triggers(s: dict[str, Any]) -> Section | None:
    if not s["triggers"]:
        return None
    sec = Section(
        "Triggers",
        ["", "event", "fired", "per game", "in games"],
        right=[False, False, True, True, True],
        note="times each trigger's effect ran (its condition held); one that never fired is named under Dead rules",
    )
    for name, e in s["triggers"].items():
        fired: Cell = (f"{e['fired']:,}", "warn") if e["fired"] == 0 else f"{e['fired']:,}"
        label = name + (f" [{e['origin']}]" if e["origin"] else "")
        share = _share(e["games"], s)
        sec.rows.append([label, e["event"], fired, f"{e['per_game']:.2f}", share])
    return sec


def _share(games: int, s: dict[str, Any]) -> str:
    """`games` as a share of the run's games ('—' for a run of none)."""
    return pct(games / s["games"], 0) if s["games"] else "—"


def _counters(s: dict[str, Any]) -> Section | None:
    if not s["counters"]:
        return None
    sec = Section(
        "Counters",
        ["", "changed in games", "changes per game (95% CI)", "final value (95% CI)"],
        right=[False, True, True, True],
        note="a change: a set or add that gave the counter another value; final: at the game's end (a player's "
        "counter per seat, a card's summed over the cards holding it)",
    )
    for name, e in s["counters"].items():
        if e["of"] == "card":
            final = "cards: " + _mean_cell(e["final_cards"])
        else:
            final = f"p1 {_mean_cell(e['final_p1'])}; p2 {_mean_cell(e['final_p2'])}"
        share = _share(e["games_changed"], s)
        sec.rows.append([f"{name} (of {e['of']})", share, _mean_cell(e["changes"]), final])
    return sec


def _knowledge(s: dict[str, Any]) -> Section | None:
    k = s["knowledge"]
    if not (k["shown"] or k["seen"]):
        return None
    sec = Section(
        "Knowledge",
        ["", "cards", "per game (95% CI)", "in games"],
        right=[False, True, True, True],
        note="shown: hidden cards a rule's `show` showed (or its `turn up` turned face up); seen: the opponent's "
        "hidden cards the player to move "
        "saw by a visibility rule at a turn's start (a card seen at three turns counts three times)",
    )
    for part, verb in (("shown", "shown by"), ("seen", "seen by")):
        for name, e in k[part].items():
            share = _share(e["games"], s)
            sec.rows.append([f"{verb} {name}", f"{e['cards']:,}", _mean_cell(e), share])
    return sec


def _association_cells(e: dict[str, Any]) -> tuple[Cell, Cell]:
    if "win_rate_used" not in e:
        return "", ""
    lo, hi = e["win_difference_ci95"]
    d = e["win_rate_used"] - e["win_rate_not_used"]
    return (
        f"{pct(e['win_rate_used'], 0)} / {pct(e['win_rate_not_used'], 0)}",
        (
            f"{signed(d, 1, 100)} pts ({signed(lo, 1, 100)} to {signed(hi, 1, 100)})",
            "good" if lo > 0 else "bad" if hi < 0 else "dim",
        ),
    )


def _ranks(s: dict[str, Any]) -> Section:
    sec = Section(
        "Ranks",
        ["", "played", "per game", "in games", "win: played / not", "difference (95% CI)"],
        right=[False, True, True, True, True, False],
        note="each rank played by any play or response, then by each play of it (9 by nine: the 9 as a one-off; "
        "9 by points: the 9 for points); win: a seat's win rate in the games it played it and in those it did "
        "not (an association, not a cause)",
    )
    n = s["games"]
    for rank, e in s["ranks"].items():
        rows: list[tuple[str, dict[str, Any]]] = [(rank, e)]
        rows += [(f"  {rank} by {play}", p) for play, p in e["plays"].items()]
        for label, x in rows:
            win, diff = _association_cells(x)
            share = pct(x["games_used"] / n, 0) if n else "—"
            sec.rows.append([label, f"{x['used']:,}", f"{x['per_game']:.2f}", share, win, diff])
    return sec


def _visible_diff_sections(diff: dict[str, Any]) -> list[Section]:
    """Triggers, counters, knowledge and ranks of A and B per game, with B − A."""
    knowledge = diff.get("knowledge", {})
    groups = (
        ("Triggers per game", {k: (k, v) for k, v in diff.get("triggers", {}).items()}, True, "times fired"),
        (
            "Counters: changes per game",
            {k: (k, v) for k, v in diff.get("counters", {}).items()},
            True,
            "times a counter's value changed",
        ),
        (
            "Knowledge per game",
            {
                **{"s " + k: ("shown by " + k, v) for k, v in knowledge.get("shown", {}).items()},
                **{"v " + k: ("seen by " + k, v) for k, v in knowledge.get("seen", {}).items()},
            },
            False,
            "hidden cards a rule's show showed, and the opponent's hidden cards the player to move saw by a "
            "visibility rule at a turn's start",
        ),
        ("Ranks per game", _rank_rows(diff), False, "cards of each rank played, then by each play of it"),
    )
    out = []
    for title_, found, declared, note in groups:
        if not found:
            continue
        sec = Section(title_, ["", "A", "B", "B − A (95% CI)"], right=[False, True, True, False], note=note)
        for label, d in found.values():
            a = f"{d['a']:.2f}" if d["in_a"] or not declared else "—"
            b = f"{d['b']:.2f}" if d["in_b"] or not declared else "—"
            sec.rows.append([label, a, b, _diff_cell(d, 1, "", 2)])
        out.append(sec)
    return out


def _rank_rows(diff: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each rank's row, then its plays' rows ('  9 by nine'), for the table of ranks per game."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    plays = diff.get("rank_plays", {})
    for rank, d in diff.get("ranks", {}).items():
        out[rank] = (rank, d)
        out.update((k, ("  " + k, v)) for k, v in plays.items() if k.startswith(rank + " by "))
    return out


def _rank_balance(a: dict[str, Any], b: dict[str, Any]) -> Section:
    """Each rank's and each play of it's association with winning, under A and under B."""
    sec = Section(
        "Rank balance",
        ["", "A: win played / not, difference (95% CI)", "B: win played / not, difference (95% CI)"],
        right=[False, False, False],
        note="a seat's win rate in the games it played the rank (by that play) and in those it did not: an "
        "association, not a cause",
    )
    ranks = list(a["ranks"]) + [r for r in b["ranks"] if r not in a["ranks"]]
    for rank in ranks:
        ea, eb = a["ranks"].get(rank, {}), b["ranks"].get(rank, {})
        rows = [(rank, ea, eb)]
        plays = list(ea.get("plays", {})) + [p for p in eb.get("plays", {}) if p not in ea.get("plays", {})]
        rows += [(f"  {rank} by {p}", ea.get("plays", {}).get(p, {}), eb.get("plays", {}).get(p, {})) for p in plays]
        for label, x, y in rows:
            sec.rows.append([label, _balance_cell(x), _balance_cell(y)])
    return sec


def _balance_cell(e: dict[str, Any]) -> Cell:
    win, diff = _association_cells(e)
    if not win:
        return "—"
    return (f"{text_of(win)}, {text_of(diff)}", tone_of(diff))


def _dead(s: dict[str, Any], label: str = "") -> list[Cell]:
    return [(label + w, "warn") for w in s["dead_why"]] or [label + "none: every play, response and rule fired"]


# each quality measure (quality_summary.py): its label, and how its values are shown
QUALITY: dict[str, tuple[str, Callable[[float], str]]] = {
    "advantage": ("advantage (p1 wins − p2 wins)", lambda x: f"{signed(x, 1, 100)} pts"),
    "drawishness": ("drawishness (no winner)", lambda x: pct(x)),
    "decisiveness": ("decisiveness (turns before the winner leads for good)", lambda x: pct(x)),
    "lead_changes": ("lead changes per game", lambda x: num(x, 2)),
    "drama": ("drama (winner's worst deficit, of the goal)", lambda x: pct(x)),
    "uncertainty": ("uncertainty (1: level throughout)", lambda x: num(x, 3)),
    "turns": ("duration: turns", lambda x: num(x)),
    "real_choices": ("duration: real choices", lambda x: num(x)),
}
QUALITY_NOTE = "means per game with 95% intervals; decisiveness and drama over the games someone won (docs/lab.md)"


def _shown(name: str, x: float | None) -> str:
    return "—" if x is None or math.isnan(x) else QUALITY[name][1](x)


def _quality(s: dict[str, Any]) -> Section:
    sec = Section("Game quality", ["", "value", "95% CI", "games"], right=[False, True, True, True], note=QUALITY_NOTE)
    for name, e in quality_summary.flat(s["quality"]):
        lo, hi = e["ci95"]
        sec.rows.append(
            [QUALITY[name][0], _shown(name, e["value"]), f"{_shown(name, lo)} to {_shown(name, hi)}", f"{e['games']:,}"]
        )
    return sec


def _quality_diff(diff: dict[str, Any], na: str, nb: str) -> Section:
    """A and B side by side over the games the difference is over (paired: those both define it for)."""
    sec = Section(
        "Game quality",
        ["", "A: " + na, "B: " + nb, "B − A (95% CI)"],
        right=[False, True, True, False],
        note=QUALITY_NOTE,
    )
    for name, d in quality_summary.flat(diff["quality"]):
        lo, hi = d["ci95"]
        delta = f"{_signed_as(name, d['difference'])} ({_signed_as(name, lo)} to {_signed_as(name, hi)})"
        tone = "strong" if d["detectable"] else "dim"
        sec.rows.append([QUALITY[name][0], _shown(name, d["a"]), _shown(name, d["b"]), (delta, tone)])
    return sec


def _signed_as(name: str, x: float) -> str:
    """A difference of measure `name`, with its sign (points of a share for a share)."""
    if x is None or math.isnan(x):
        return "—"
    if name in ("advantage", "drawishness", "decisiveness", "drama"):
        return f"{signed(x, 1, 100)} pts"
    return signed(x, 3 if name == "uncertainty" else 2)


def sim_sections(report: Report) -> list[Section]:
    s = report.summaries["a"]
    out = [_results(s), _ends(s), *_measure_sections(s), _quality(s), _plays(s)]
    ch = _choices(s)
    if ch:
        out.append(ch)
    out += [sec for sec in (_triggers(s), _counters(s), _knowledge(s)) if sec is not None]
    out.append(_ranks(s))
    out.append(Section("Dead rules", lines=_dead(s), note="plays, responses and rules that never fired in this run"))
    out += _unexplored(s)
    return out


def _unexplored(s: dict[str, Any], label: str = "") -> list[Section]:
    """The plays a rule adds or changes that the players (almost) never choose where legal, and how the
    questions were answered (lab/explain.py)."""
    out = []
    if s.get("rarely_chosen"):
        lines: list[Cell] = [
            (
                f"{label}{x['name']}: legal in {x['seat_games_legal']:,} seat-games, "
                f"chosen in {x['seat_games_chosen']:,}",
                "warn",
            )
            for x in s["rarely_chosen"]
        ]
        out.append(
            Section(
                "Plays legal often, chosen rarely",
                lines=lines,
                note="added or changed by a rule, legal in at least 10% of the seat-games, chosen in at most 5% "
                "of those: the players may not know how to use it, or it is not worth it",
            )
        )
    if s.get("questions"):
        out.append(
            Section(
                "Questions",
                lines=[
                    f"{label}{k}: asked {v['asked']:,} times, {v['yes']:,} yes, {v['no']:,} no"
                    for k, v in s["questions"].items()
                ],
            )
        )
    return out


def _diff_cell(d: dict[str, Any], scale: float, unit: str, digits: int = 1) -> Cell:
    lo, hi = d["ci95"]
    text = (
        f"{signed(d['difference'], digits, scale)}{unit} ({signed(lo, digits, scale)} to {signed(hi, digits, scale)})"
    )
    return (text, "strong" if d["detectable"] else "dim")


def _compare_measures(
    sec: Section, a: dict[str, Any], b: dict[str, Any], diff: dict[str, Any], rows: list[tuple[str, Measure]]
) -> None:
    """Rows of measures side by side: the means with the relative change, the medians and quartiles."""
    for name, m in rows:
        d, sa, sb = measured(diff, name, m), measured(a, name, m), measured(b, name, m)
        lo, hi = d["relative_ci95"]
        rel = f"{signed(d['relative'], 1, 100)}% ({signed(lo, 1, 100)} to {signed(hi, 1, 100)})"
        sec.rows.append(
            [f"mean {m.label}", num(sa["mean"]), num(sb["mean"]), (rel, "strong" if (lo > 0 or hi < 0) else "dim")]
        )
        sec.rows.append(
            [
                f"median {m.label} (quartiles)",
                f"{num(sa['median'])} ({num(sa['q1'])}–{num(sa['q3'])})",
                f"{num(sb['median'])} ({num(sb['q1'])}–{num(sb['q3'])})",
                "",
            ]
        )


def compare_sections(report: Report) -> list[Section]:
    a, b = report.summaries["a"], report.summaries["b"]
    diff = report.differences or {}
    a_side, b_side = report.job.sides
    na, nb = a_side.show(b_side), b_side.show(a_side)
    out = [Section("Verdict", lines=list(report.verdict))]
    sec = Section(
        "Results and length", ["", "A: " + na, "B: " + nb, "B − A (95% CI)"], right=[False, True, True, False]
    )
    for key, label in (("p1_win_rate", "p1 win rate"), ("p2_win_rate", "p2 win rate"), ("draw_rate", "draw rate")):
        sec.rows.append([label, pct(a[key]), pct(b[key]), _diff_cell(diff[key], 100, " pts")])
    sections = _by_section()
    _compare_measures(sec, a, b, diff, sections.pop("Game length", []))
    out.append(sec)
    for title, rows in sections.items():
        sec = Section(title, ["", "A: " + na, "B: " + nb, "B − A (95% CI)"], right=[False, True, True, False])
        _compare_measures(sec, a, b, diff, rows)
        out.append(sec)
    out.append(_quality_diff(diff, na, nb))
    sec = Section("How games end", ["", "A", "B", "B − A (95% CI)"], right=[False, True, True, False])
    for k, d in diff["ends"].items():
        sec.rows.append([k, pct(d["a"]), pct(d["b"]), _diff_cell(d, 100, " pts")])
    out.append(sec)
    sec = Section(
        "Plays per game",
        ["", "A", "B", "B − A (95% CI)"],
        right=[False, True, True, False],
        note="times a play or response was used per game, both seats together",
    )
    for k, d in diff["plays"].items():
        name = k + ("" if d["in_a"] else " (B only)") + ("" if d["in_b"] else " (A only)")
        sec.rows.append(
            [
                name,
                f"{d['a']:.2f}" if d["in_a"] else "—",
                f"{d['b']:.2f}" if d["in_b"] else "—",
                _diff_cell(d, 1, "", 2),
            ]
        )
    out.append(sec)
    out += _visible_diff_sections(diff)
    out.append(_rank_balance(a, b))
    out.append(Section("Dead rules", lines=_dead(a, "A: ") + _dead(b, "B: ")))
    return out


# -- headline numbers: what a designer reads first --------------------------------------------------

HEADLINE = "At a glance"


def _card_ci(pair: Sequence[float], show: Callable[[float], str]) -> str:
    return f"95% CI {show(pair[0])} to {show(pair[1])}"


def _sim_headline(s: dict[str, Any]) -> Section:
    q, t, r = s["quality"], s["turns"], s["real_choices"]
    lc = q["lead_changes"]
    dead = len(s["dead"])
    return Section(
        HEADLINE,
        cards=[
            (
                "first player wins",
                pct(s["p1_win_rate"]),
                f"95% CI {ci(s['p1_win_rate_ci95'])}; p2 {pct(s['p2_win_rate'])}",
            ),
            ("draws", pct(s["draw_rate"]), f"95% CI {ci(s['draw_rate_ci95'])}"),
            (
                "turns a game",
                num(t["mean"]),
                f"mean (95% CI {num(t['mean_ci95'][0])}–{num(t['mean_ci95'][1])}); median {num(t['median'])}",
            ),
            ("real choices a game", num(r["mean"]), f"mean (95% CI {num(r['mean_ci95'][0])}–{num(r['mean_ci95'][1])})"),
            (
                "lead changes a game",
                _shown("lead_changes", lc["value"]),
                _card_ci(lc["ci95"], lambda x: _shown("lead_changes", x)),
            ),
            (
                "dead rules",
                (f"{dead}", "warn") if dead else "0",
                _some(s["dead"]) if dead else "every play, response and rule fired",
            ),
        ],
    )


def _change(d: dict[str, Any], show: Callable[[float], str], rel: bool = False) -> tuple[Cell, str]:
    """A card's value A → B and its detail, the change with its interval (relative for a length)."""
    value: Cell = (f"{show(d['a'])} → {show(d['b'])}", "strong" if d["detectable"] else "")
    if rel:
        lo, hi = d["relative_ci95"]
        return value, f"{signed(d['relative'], 1, 100)}% (95% CI {signed(lo, 1, 100)} to {signed(hi, 1, 100)})"
    lo, hi = d["ci95"]
    return value, f"{signed(d['difference'], 1, 100)} pts (95% CI {signed(lo, 1, 100)} to {signed(hi, 1, 100)})"


def _compare_headline(report: Report) -> Section:
    diff = report.differences or {}
    a, b = report.summaries["a"], report.summaries["b"]
    q = diff["quality"]["lead_changes"]
    lo, hi = q["ci95"]
    return Section(
        HEADLINE,
        cards=[
            ("first player wins", *_change(diff["p1_win_rate"], pct)),
            ("draws", *_change(diff["draw_rate"], pct)),
            ("turns a game (mean)", *_change(diff["turns"], num, rel=True)),
            ("real choices a game (mean)", *_change(diff["real_choices"], num, rel=True)),
            (
                "lead changes a game",
                (f"{num(q['a'], 2)} → {num(q['b'], 2)}", "strong" if q["detectable"] else ""),
                f"{signed(q['difference'], 2)} (95% CI {signed(lo, 2)} to {signed(hi, 2)})",
            ),
            _dead_change(a["dead"], b["dead"]),
        ],
    )


def _some(names: list[str]) -> str:
    """The first three names, and '...' when there are more."""
    return ", ".join(names[:3]) + (" ..." if len(names) > 3 else "")


def _dead_change(a: list[str], b: list[str]) -> tuple[str, Cell, str]:
    """The dead rules' card of a comparison: how many under A and B, and which died or came alive."""
    died, alive = [x for x in b if x not in a], [x for x in a if x not in b]
    said = ([f"dead only under B: {_some(died)}"] if died else []) + (
        [f"dead only under A: {_some(alive)}"] if alive else []
    )
    detail = "; ".join(said) or ("the same under both: " + _some(a) if a else "every rule fired under both")
    return "dead rules", (f"{len(a)} → {len(b)}", "warn" if died else ""), detail


def value_names(report: Report) -> list[str]:
    """Each swept value by what it sets: the value alone when one key is swept (`6`, `[18, 12, 9, 4,
    0]`), else `key=value` for each key, the key by its last part (`passes=2, first=5`)."""
    points = [report.points.get(s.label, []) for s in report.job.sides]
    if all(len(p) == 1 for p in points):
        return [p[0][1] for p in points]
    return [
        ", ".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in p) or s.label
        for p, s in zip(points, report.job.sides, strict=True)
    ]


def swept_keys(report: Report) -> str:
    keys = dict.fromkeys(k for s in report.job.sides for k, _ in report.points.get(s.label, []))
    return " × ".join(keys)


def _sweep_headline(report: Report) -> Section:
    sides = report.job.sides
    first, last = report.summaries[sides[0].label], report.summaries[sides[-1].label]
    names = value_names(report)
    fl, ll = names[0], names[-1]
    key = swept_keys(report)

    def card(what: str, get: Callable[[dict[str, Any]], float], show: Callable[[float], str]) -> tuple[str, Cell, str]:
        vals = [(get(report.summaries[s.label]), n) for s, n in zip(sides, names, strict=True)]
        low, high = min(vals, key=lambda v: v[0]), max(vals, key=lambda v: v[0])
        ends = {vals[0][0], vals[-1][0]}
        inside = "" if {low[0], high[0]} <= ends else f"; from {show(low[0])} ({low[1]}) to {show(high[0])} ({high[1]})"
        return what, f"{show(get(first))} … {show(get(last))}", f"{key} {fl} … {ll}{inside}"

    return Section(
        HEADLINE,
        cards=[
            card("first player wins", lambda s: s["p1_win_rate"], pct),
            card("draws", lambda s: s["draw_rate"], pct),
            card("turns a game (mean)", lambda s: s["turns"]["mean"], num),
            card("real choices a game (mean)", lambda s: s["real_choices"]["mean"], num),
            card("lead changes a game", lambda s: s["quality"]["lead_changes"]["value"], lambda x: num(x, 2)),
            card("dead rules", lambda s: len(s["dead"]), lambda x: f"{x:.0f}"),
        ],
        note=f"{len(sides)} values, the first and last as given; every value's numbers with their intervals below",
    )


def headline(report: Report) -> Section:
    """The numbers a designer reads first (each with its interval in the detail)."""
    if report.kind == "sim":
        return _sim_headline(report.summaries["a"])
    if report.kind == "compare":
        return _compare_headline(report)
    return _sweep_headline(report)


# -- a sweep: every number against the value ------------------------------------------------------


def _by_value(report: Report) -> tuple[list[str], list[dict[str, Any]]]:
    sides = report.job.sides
    return [report.values[s.label]["label"] for s in sides], [report.summaries[s.label] for s in sides]


def _length_cell(d: dict[str, Any]) -> str:
    return f"{num(d['mean'])} ({num(d['mean_ci95'][0])}–{num(d['mean_ci95'][1])})"


def sweep_sections(report: Report) -> list[Section]:
    labels, sums = _by_value(report)
    sec = Section(
        "Results and length by value",
        ["", "p1 wins (95% CI)", "p2 wins", "draws (95% CI)", "turns: mean (95% CI)", "real choices: mean (95% CI)"],
        right=[False, True, True, True, True, True],
    )
    for lab, s in zip(labels, sums, strict=True):
        sec.rows.append(
            [
                lab,
                f"{pct(s['p1_win_rate'])} ({ci(s['p1_win_rate_ci95'])})",
                pct(s["p2_win_rate"]),
                f"{pct(s['draw_rate'])} ({ci(s['draw_rate_ci95'])})",
                _length_cell(s["turns"]),
                _length_cell(s["real_choices"]),
            ]
        )
    out = [sec]
    if report.steps:
        out.append(_steps_section(report))
    quality = Section("Game quality by value", ["", *labels], right=[False] + [True] * len(labels), note=QUALITY_NOTE)
    for name, _ in quality_summary.flat(sums[0]["quality"]):
        row: list[Cell] = [QUALITY[name][0]]
        for s in sums:
            e = dict(quality_summary.flat(s["quality"]))[name]
            row.append(f"{_shown(name, e['value'])} ({_shown(name, e['ci95'][0])} to {_shown(name, e['ci95'][1])})")
        quality.rows.append(row)
    out.append(quality)
    ends = Section("How games end by value", ["", *labels], right=[False] + [True] * len(labels))
    for k in dict.fromkeys(k for s in sums for k in s["ends"]):
        ends.rows.append([k, *(pct(s["ends"][k]["rate"]) if k in s["ends"] else "—" for s in sums)])
    out.append(ends)
    plays = Section(
        "Plays per game by value",
        ["", *labels],
        right=[False] + [True] * len(labels),
        note="times a play or response was used per game, both seats together",
    )
    names = dict.fromkeys((e["kind"], e["name"]) for s in sums for e in s["rules"] if e["kind"] in ("play", "response"))
    for kind, nm in names:
        per = [{(e["kind"], e["name"]): e["per_game"] for e in s["rules"]} for s in sums]
        label = nm + (" (response)" if kind == "response" else "")
        plays.rows.append([label, *(f"{p[(kind, nm)]:.2f}" if (kind, nm) in p else "—" for p in per)])
    out.append(plays)
    dead = [c for lab, s in zip(labels, sums, strict=True) for c in _dead(s, f"{lab}: ")]
    out.append(Section("Dead rules", lines=dead, note="plays, responses and rules that never fired, per value"))
    return out


def _steps_section(report: Report) -> Section:
    """Each value against the one before it: B − A with 95% intervals, paired game by game where the
    values deal alike, and "identical play" where every game was played the same."""
    names = dict(zip((s.label for s in report.job.sides), value_names(report), strict=True))
    sec = Section(
        "Each value against the one before",
        [swept_keys(report), "p1 wins", "draws", "turns (mean)", "lead changes", "played alike"],
        right=[False, True, True, True, True, True],
        note="each change with its 95% interval (strong where the interval leaves out 0); where the values deal "
        "alike, game i of both starts from the same deal, so the change is measured game by game and its "
        "interval is narrower than the values' own; identical play: every game made the same choices with "
        "the same cards and had the same scores, turn by turn",
    )
    for st in report.steps:
        n, same = st["games"], st["identical"]
        alike: Cell = (
            ("identical play", "warn")
            if n and same == n
            else (f"{same:,} of {n:,} games" if st["paired"] else "not paired")
        )
        sec.rows.append(
            [
                f"{names[st['from']]} → {names[st['to']]}",
                _diff_cell(st["p1_win_rate"], 100, " pts"),
                _diff_cell(st["draw_rate"], 100, " pts"),
                _diff_cell(st["turns"], 1, ""),
                _diff_cell(st["lead_changes"], 1, "", 2),
                alike,
            ]
        )
    return sec


def sections(report: Report) -> list[Section]:
    """Every section of the report, the headline numbers first."""
    body = {"sim": sim_sections, "compare": compare_sections, "sweep": sweep_sections}[report.kind](report)
    return [headline(report), *body]
