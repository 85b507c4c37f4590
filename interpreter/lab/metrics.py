"""The numbers of a run, computed from the stored games (so they always agree with the database).

`summarize` gives one ruleset's results: win rates, draws, endings, game length, game quality
(quality_summary.py), play usage, counters, each play's association with winning, and the dead
rules. `differences` sets two rulesets side by side on the same game numbers (paired seeds when
their deals are alike) and `verdict` says in words what changed and what did not at this sample size.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import chain
from typing import Any

from . import columns, explain, quality_summary, stats, visible
from .catalog import catalog_of, code_rule, rule_code
from .columns import CODES
from .job import rules_of
from .store import Store

ORDER = {"play": 0, "response": 1, "choice": 2, "end": 3, "trigger": 4}


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = stats.wilson(k, n)
    return {"count": k, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def _distribution(xs: list[int]) -> dict[str, Any]:
    q1, med, q3 = stats.quartiles(xs)
    mean, lo, hi = stats.mean_ci(xs)
    return {
        "median": med,
        "q1": q1,
        "q3": q3,
        "mean": mean,
        "mean_ci95": [max(0.0, lo), hi],  # a count is never negative, whatever the normal interval says
        "min": min(xs) if xs else None,
        "max": max(xs) if xs else None,
    }


def end_label(end: str, winner: str | None, goal: int | None, passes: int, ended_by: str = "") -> str:
    """How a game ended, in a few words, named after the rule that ended it (`ended_by`)."""
    if end == "goal":
        return f"goal at {goal}"
    if end == "passes":
        if winner == "draw":
            return f"{passes} passes, draw"
        return (
            f"{passes} passes, end.on_passes decides"
            if ended_by == "end.on_passes"
            else f"{passes} passes, points decide"
        )
    if end == "rule":
        return f"{ended_by} (a rule's win)"
    if end == "other" and ended_by:
        return f"other: {ended_by}"
    return {"no-move": "no legal move", "cutoff": "cut off (decision cap)"}.get(end, "other")


READ = (
    "idx",
    "winner",
    "end_reason",
    "goal",
    "progress",
    *CODES,
    "ended_by",
    "p1_points",
    "p2_points",
    "fired",
    "counters",
    "knowledge",
    "p1_ranks",
    "p2_ranks",
)  # what a summary reads of each game, besides the measures


def games_of(store: Store, side: str, games: int) -> dict[str, list[Any]]:
    """The first `games` games of ruleset `side`, column by column (in game order): what `summarize`
    and `differences` read (`READ` and every measure)."""
    return store.games(side, games, [*READ, *(c.name for c, _ in columns.measures() if c.name not in READ)])


def per_game(store: Store, side: str, games: int) -> dict[str, list[Any]]:
    """Each measure of the first `games` games, in order (for the histograms: no uses decoded)."""
    return store.games(side, games, [c.name for c, _ in columns.measures()])


def _usage(g: dict[str, list[Any]]) -> dict[int, list[int]]:
    """Per rule: [games offered, times used, games used, times countered, seat-games used, wins then,
    seat-games offered]. Each is one count over the games' strings (Counter counts the characters in C)."""
    o1, u1, c1, o2, u2, c2 = (g[c] for c in CODES)
    seat = {"p1": u1, "p2": u2}
    parts = (
        Counter(chain.from_iterable(map(set, map("".join, zip(o1, u1, o2, u2, strict=True))))),  # legal or used
        Counter("".join(u1) + "".join(u2)),
        Counter(chain.from_iterable(set(a + b) for a, b in zip(u1, u2, strict=True))),
        Counter("".join(c1) + "".join(c2)),
        Counter(chain(chain.from_iterable(map(set, u1)), chain.from_iterable(map(set, u2)))),
        Counter(chain.from_iterable(set(seat[w][i]) for i, w in enumerate(g["winner"]) if w in seat)),
        Counter(
            chain(
                *(set(a + b) for a, b in zip(o1, u1, strict=True)), *(set(a + b) for a, b in zip(o2, u2, strict=True))
            )
        ),
    )
    return {code_rule(ch): [part[ch] for part in parts] for ch in parts[0]}


def _measures(g: dict[str, list[Any]]) -> dict[str, Any]:
    """Each measure's distribution, as the summary shows it: `median_NAME` then NAME for those of the
    summary itself, then each group of the others under its name."""
    top = [c.name for c, m in columns.measures() if not m.group]
    out: dict[str, Any] = {f"median_{k}": stats.quartiles(g[k])[1] if g[k] else None for k in top}
    out.update((k, _distribution(g[k])) for k in top)
    for c, m in columns.measures():
        if m.group:
            out.setdefault(m.group, {})[c.name] = _distribution(g[c.name])
    return out


def summarize(store: Store, side: str, games: int) -> dict[str, Any]:
    """One ruleset's results over games 0 .. games-1 of the run."""
    ((spec, name, rhash),) = store.query("SELECT spec, name, hash FROM rulesets WHERE side = ?", (side,))
    g = games_of(store, side, games)
    n = len(g["idx"])
    winners = Counter(g["winner"])
    p1, p2, draws, unfinished = winners["p1"], winners["p2"], winners["draw"], winners[None]
    rules = store.query(
        "SELECT rule, kind, name, detail, origin, answerable, watch FROM rules WHERE side = ? ORDER BY rule", (side,)
    )
    ends = Counter(_end_labels(store, side, g))
    p1_rate = _rate(p1, n)
    out: dict[str, Any] = {
        "ruleset": name,
        "spec": spec,
        "hash": rhash,
        "players": dict(zip(("p1", "p2"), store.job.players, strict=True)),
        "seed": store.job.seed,
        "games": n,
        "p1_wins": p1,
        "p2_wins": p2,
        "draws": draws,
        "unfinished": unfinished,
        "p1_win_rate": p1_rate["rate"],
        "p1_win_rate_ci95": p1_rate["ci95"],
        "p2_win_rate": _rate(p2, n)["rate"],
        "p2_win_rate_ci95": _rate(p2, n)["ci95"],
        "draw_rate": _rate(draws, n)["rate"],
        "draw_rate_ci95": _rate(draws, n)["ci95"],
        "ends": {k: _rate(v, n) for k, v in sorted(ends.items(), key=lambda kv: (-kv[1], kv[0]))},
        **_measures(g),
    }
    out.setdefault("quality", {}).update(quality_summary.summary(g))  # beside measures of the group
    usage = _usage(g)
    usage.update(visible.trigger_usage(g["fired"]))
    table = _rules_table(rules, usage, n, p1 + p2, g["end_reason"].count("passes"), _answers(store, side))
    out["rules"] = table
    out["plays"] = _play_counts(table)
    out["choices"] = {e["name"]: e["used"] for e in table if e["kind"] == "choice"}
    out["triggers"] = {
        e["name"]: {
            "fired": e["used"],
            "games": e["games_used"],
            "per_game": e["per_game"],
            "event": e["detail"],
            "origin": e["origin"],
        }
        for e in table
        if e["kind"] == "trigger"
    }
    declared = {nm: d.removeprefix("of ") for _, k, nm, d, *_ in rules if k == "counter"}
    out["counters"] = visible.counters(g["counters"], declared)
    out["knowledge"] = visible.knowledge(g["knowledge"])
    names = {r: nm + (" (response)" if k == "response" else "") for r, k, nm, *_ in rules if k in ("play", "response")}
    out["ranks"] = visible.ranks(g, names)
    dead = [e for e in table if _is_dead(e)]
    out["dead"] = [e["name"] for e in dead]
    out["dead_why"] = [dead_sentence(e, n) for e in dead]
    out["rarely_chosen"] = [x for x in explain.rarely_chosen(table, n) if x["name"] not in out["dead"]]
    out["questions"] = explain.questions(table)
    return out


def _answers(store: Store, side: str) -> dict[int, str]:
    """The rules of a side that answer a question, by number: "yes" or "no" (the catalog knows them)."""
    found = [s for s in store.job.sides if s.label == side]
    if not found:
        return {}
    cat = catalog_of(rules_of(found[0]))
    return {k: info.answer for k, info in enumerate(cat.infos) if info.answer}


def _rules_table(
    rules: list[tuple[Any, ...]],
    usage: dict[int, list[int]],
    n: int,
    seat_wins: int,
    passes: int,
    answers: dict[int, str] | None = None,
) -> list[dict[str, Any]]:
    """Every rule's numbers over `n` games (`seat_wins` won by either seat, `passes` ended by passes;
    `answers`: the rules that are a question's answer, "yes" or "no")."""
    answers = answers or {}
    seat_games = 2 * n
    table = []
    for rule, kind, nm, detail, origin, answerable, watch in rules:
        offered, used, gused, countered, m, w, seat_offered = usage.get(rule, (0, 0, 0, 0, 0, 0, 0))
        if kind == "counter":
            continue  # summarised under `counters` (visible.counters)
        if kind == "end":
            offered = used = gused = passes
        elif kind == "choice" and not used and not watch:
            continue  # a choice that never came up and is not watched: nothing to show
        entry: dict[str, Any] = {
            "kind": kind,
            "name": nm,
            "detail": detail,
            "origin": origin,
            "watch": bool(watch),
            "games_offered": offered,
            "used": used,
            "games_used": gused,
            "per_game": used / n if n else 0.0,
        }
        if kind in ("play", "response"):  # where it was legal and where it was chosen, seat by seat
            entry["seat_games_offered"] = seat_offered
            entry["seat_games_chosen"] = m
        if answers.get(rule):
            entry["question"] = {"name": nm.removesuffix(", declined"), "answer": answers[rule]}
        if answerable and used:
            entry["countered"] = countered
            entry["countered_rate"] = countered / used
            entry["countered_ci95"] = list(stats.wilson(countered, used))
        if kind in ("play", "response") and 0 < m < seat_games:
            lo, hi = stats.newcombe(seat_wins - w, seat_games - m, w, m)
            entry["win_rate_used"] = w / m
            entry["win_rate_not_used"] = (seat_wins - w) / (seat_games - m)
            entry["win_difference_ci95"] = [lo, hi]
            entry["seat_games_used"] = m
        table.append(entry)
    return table


def _play_counts(table: list[dict[str, Any]]) -> dict[str, int]:
    """Per play and response name: times used (a response sharing a play's name is marked as one)."""
    plays = {e["name"]: e["used"] for e in table if e["kind"] == "play"}
    for e in table:
        if e["kind"] == "response":
            plays[e["name"] if e["name"] not in plays else f"{e['name']} (response)"] = e["used"]
    return plays


def _is_dead(e: dict[str, Any]) -> bool:
    return bool(e["watch"]) and e["used"] == 0


def dead_sentence(e: dict[str, Any], games: int) -> str:
    who = e["name"] + (f" ({e['kind']} {e['origin']})" if e["origin"] else f" ({e['kind']})")
    g = f"{games:,} game{'s' if games != 1 else ''}"
    if e["kind"] in ("play", "response"):
        if e["games_offered"] == 0:
            return f"{who} never became legal in {g}"
        return f"{who} became legal in {e['games_offered']:,} of {g} but was never chosen"
    if e["kind"] == "choice":
        return f"{who} never happened in {g}"
    if e["kind"] == "trigger":
        return f"{who} never fired in {g}"
    return f"{who} never ended a game in {g}"


# -- two rulesets --------------------------------------------------------------------------------


def _vectors(g: dict[str, list[Any]]) -> dict[str, list[float]]:
    out = {
        "p1_win": [1.0 if w == "p1" else 0.0 for w in g["winner"]],
        "p2_win": [1.0 if w == "p2" else 0.0 for w in g["winner"]],
        "draw": [1.0 if w == "draw" else 0.0 for w in g["winner"]],
        "idx": [float(i) for i in g["idx"]],
    }
    out.update((c.name, [float(x) for x in g[c.name]]) for c, _ in columns.measures())
    return out


def _uses_per_game(store: Store, side: str, g: dict[str, list[Any]]) -> dict[tuple[str, str], list[float]]:
    """Per play and response: times used in each game (both seats), in game order."""
    names = {
        rule: (kind, nm)
        for rule, kind, nm in store.query(
            "SELECT rule, kind, name FROM rules WHERE side = ? AND kind IN ('play', 'response')", (side,)
        )
    }
    used = [a + b for a, b in zip(g["p1_used"], g["p2_used"], strict=True)]
    return {key: [float(u.count(ch)) for u in used] for ch, key in ((rule_code(r), k) for r, k in names.items())}


def _diff(xa: list[float], xb: list[float], paired: bool) -> dict[str, Any]:
    d, lo, hi = (stats.paired_diff if paired else stats.welch_diff)(xa, xb)
    return {
        "a": math.fsum(xa) / len(xa) if xa else math.nan,
        "b": math.fsum(xb) / len(xb) if xb else math.nan,
        "difference": d,
        "ci95": [lo, hi],
        "detectable": stats.excludes_zero(lo, hi),
    }


def _rate_diff(xa: list[float], xb: list[float], paired: bool) -> dict[str, Any]:
    if paired:
        return _diff(xa, xb, True)
    ka, kb = int(sum(xa)), int(sum(xb))
    lo, hi = stats.newcombe(ka, len(xa), kb, len(xb))
    return {
        "a": ka / len(xa) if xa else math.nan,
        "b": kb / len(xb) if xb else math.nan,
        "difference": (kb / len(xb) if xb else 0) - (ka / len(xa) if xa else 0),
        "ci95": [lo, hi],
        "detectable": stats.excludes_zero(lo, hi),
    }


def _relative(xa: list[float], xb: list[float], paired: bool) -> dict[str, Any]:
    out = _diff(xa, xb, paired)
    r, lo, hi = stats.ratio_ci(xa, xb, paired)
    out.update({"relative": r, "relative_ci95": [lo, hi]})
    return out


def _end_labels(store: Store, side: str, g: dict[str, list[Any]]) -> list[str]:
    """How each game of `side` ended (end_label): the words of the summary's `ends` and of a
    comparison's, the rule that ended a game included."""
    rows = store.query("SELECT detail FROM rules WHERE side = ? AND kind = 'end'", (side,))
    passes = next((int(d.split()[0]) for (d,) in rows), 3)  # the passes that end a game, as the rules table says
    return [
        end_label(e, w, goal, passes, by)
        for e, w, goal, by in zip(g["end_reason"], g["winner"], g["goal"], g["ended_by"], strict=True)
    ]


def _ends_diff(
    store: Store,
    rows_a: dict[str, list[Any]],
    rows_b: dict[str, list[Any]],
    paired: bool,
    sa: dict[str, Any],
    sb: dict[str, Any],
) -> dict[str, Any]:
    """Each ending's rate under A and B and the difference: paired over the same game numbers when
    the games are (an ending's indicator, game by game), otherwise Newcombe's interval."""
    ends: dict[str, Any] = {}
    la, lb = (_end_labels(store, side, g) for side, g in (("a", rows_a), ("b", rows_b))) if paired else ([], [])
    for label in list(sa["ends"]) + [k for k in sb["ends"] if k not in sa["ends"]]:
        if paired:
            d = _diff([float(x == label) for x in la], [float(x == label) for x in lb], True)
            ends[label] = {k: d[k] for k in ("a", "b", "difference", "ci95", "detectable")}
            continue
        ka = sa["ends"].get(label, {"count": 0})["count"]
        kb = sb["ends"].get(label, {"count": 0})["count"]
        lo, hi = stats.newcombe(ka, sa["games"], kb, sb["games"])
        ra = ka / sa["games"] if sa["games"] else 0.0
        rb = kb / sb["games"] if sb["games"] else 0.0
        ends[label] = {
            "a": ra,
            "b": rb,
            "difference": rb - ra,
            "ci95": [lo, hi],
            "detectable": stats.excludes_zero(lo, hi),
        }
    return ends


def differences(store: Store, games: int, paired: bool, summaries: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """B against A, metric by metric: the difference (B − A) and its 95% interval."""
    rows_a, rows_b = games_of(store, "a", games), games_of(store, "b", games)
    va, vb = _vectors(rows_a), _vectors(rows_b)
    if paired and va["idx"] != vb["idx"]:
        paired = False
    out: dict[str, Any] = {"paired": paired, "games": min(len(va["idx"]), len(vb["idx"]))}
    out["p1_win_rate"] = _rate_diff(va["p1_win"], vb["p1_win"], paired)
    out["p2_win_rate"] = _rate_diff(va["p2_win"], vb["p2_win"], paired)
    out["draw_rate"] = _rate_diff(va["draw"], vb["draw"], paired)
    for c, m in columns.measures():
        where = out.setdefault(m.group, {}) if m.group else out
        where[c.name] = _relative(va[c.name], vb[c.name], paired)
    out.setdefault("quality", {}).update(quality_summary.difference(rows_a, rows_b, paired))
    sa, sb = summaries["a"], summaries["b"]
    out["ends"] = _ends_diff(store, rows_a, rows_b, paired, sa, sb)
    ua = _uses_per_game(store, "a", rows_a)
    ub = _uses_per_game(store, "b", rows_b)
    order = [(e["kind"], e["name"]) for s in (sa, sb) for e in s["rules"] if e["kind"] in ("play", "response")]
    kinds = set(order)
    plays = {}
    for key in sorted(dict.fromkeys(order), key=lambda k: ORDER[k[0]]):  # A's order, then B's new ones
        xa = ua.get(key, [0.0] * len(va["idx"]))
        xb = ub.get(key, [0.0] * len(vb["idx"]))
        d = _diff(xa, xb, paired)
        d["kind"] = key[0]
        d["in_a"] = any(e["name"] == key[1] and e["kind"] == key[0] for e in sa["rules"])
        d["in_b"] = any(e["name"] == key[1] and e["kind"] == key[0] for e in sb["rules"])
        clash = key[0] == "response" and ("play", key[1]) in kinds
        plays[f"{key[1]} (response)" if clash else key[1]] = d
    out["plays"] = plays
    out.update(_visible_differences(store, rows_a, rows_b, paired))
    out["dead_only_in_a"] = [x for x in sa["dead"] if x not in sb["dead"]]
    out["dead_only_in_b"] = [x for x in sb["dead"] if x not in sa["dead"]]
    out["balance"] = explain.balance(rows_a["winner"], rows_b["winner"], paired)
    la, lb = _end_labels(store, "a", rows_a), _end_labels(store, "b", rows_b)
    out["endings_changed"] = explain.endings(la, rows_a, lb, rows_b, out["ends"])
    made_a = {(e["kind"], e["name"]): (e["detail"], e["origin"]) for e in sa["rules"]}
    changed = {e["name"] for e in sb["rules"] if made_a.get((e["kind"], e["name"])) != (e["detail"], e["origin"])}
    out["rarely_chosen_in_b"] = [
        x for x in explain.rarely_chosen(sb["rules"], sb["games"], changed) if x["name"] not in sb["dead"]
    ]
    out["questions"] = {"a": sa.get("questions", {}), "b": sb.get("questions", {})}
    return out


#: what two games must share to have been played alike: the result, every choice (by rule and card
#: rank) of each seat in order, and both scores and goals after every turn
SAME_PLAY = ("winner", "end_reason", "decisions", "p1_used", "p2_used", "p1_ranks", "p2_ranks", "progress")


def step(store: Store, games: int, side_a: str, side_b: str, paired: bool) -> dict[str, Any]:
    """One step of a sweep, from value `side_a` to value `side_b`: B − A of the headline numbers, paired
    game by game when both values deal alike (independent intervals otherwise), and how many games
    were played identically (`identical`: the same choices, ranks and scores turn by turn)."""
    rows_a, rows_b = games_of(store, side_a, games), games_of(store, side_b, games)
    va, vb = _vectors(rows_a), _vectors(rows_b)
    paired = paired and va["idx"] == vb["idx"]
    out: dict[str, Any] = {"from": side_a, "to": side_b, "paired": paired, "games": min(len(va["idx"]), len(vb["idx"]))}
    out["p1_win_rate"] = _rate_diff(va["p1_win"], vb["p1_win"], paired)
    out["draw_rate"] = _rate_diff(va["draw"], vb["draw"], paired)
    for c, m in columns.measures():
        if not m.group:
            out[c.name] = _relative(va[c.name], vb[c.name], paired)
    out["lead_changes"] = quality_summary.difference(rows_a, rows_b, paired)["lead_changes"]
    same = 0
    if paired:
        pa = list(zip(*(rows_a[k] for k in SAME_PLAY), strict=True))
        pb = list(zip(*(rows_b[k] for k in SAME_PLAY), strict=True))
        same = sum(x == y for x, y in zip(pa, pb, strict=False))
    out["identical"] = same
    return out


def _visible_differences(
    store: Store, rows_a: dict[str, list[Any]], rows_b: dict[str, list[Any]], paired: bool
) -> dict[str, Any]:
    """B against A for what the rules did besides plays (visible.py), per game: `triggers` (firings),
    `counters` (changes), `knowledge` (`shown` and `seen`: cards), `ranks` (cards of a rank played)
    and `rank_plays` (the same by each play of it: '9 by nine')."""
    query = "SELECT rule, kind, name FROM rules WHERE side = ? ORDER BY rule"
    va = visible.per_game(rows_a, store.query(query, ("a",)))
    vb = visible.per_game(rows_b, store.query(query, ("b",)))
    out: dict[str, Any] = {"knowledge": {}}
    for group in ("triggers", "counters", "shown", "seen", "ranks", "rank_plays"):
        a, b = va[group], vb[group]
        found = {}
        for name in list(a) + [k for k in b if k not in a]:
            xa = a.get(name, [0.0] * len(rows_a["idx"]))
            xb = b.get(name, [0.0] * len(rows_b["idx"]))
            d = _diff(xa, xb, paired)
            d["in_a"], d["in_b"] = name in a, name in b
            found[name] = d
        if group in ("shown", "seen"):
            out["knowledge"][group] = found
        else:
            out[group] = found
    return out


def _pts(x: float) -> str:
    return f"{100 * x:.1f}"


def _quality_value(name: str, x: float) -> str:
    """A game-quality figure in a verdict's words: a share as a percentage, the advantage in points."""
    if name == "advantage":
        return f"{100 * x:+.1f} pts"
    if name in ("drawishness", "decisiveness", "drama"):
        return f"{100 * x:.1f}%"
    return f"{x:.3f}" if name == "uncertainty" else f"{x:.2f}"


def verdict(diff: dict[str, Any], name_a: str, name_b: str) -> list[str]:
    """What B changes against A, and what it does not change, at this sample size."""
    out = []
    n = diff["games"]
    # length in turns and real choices (decisions with more than one legal move), decisions second
    parts, moved_len = [], False
    for key, what in (("turns", "turns"), ("real_choices", "real choices"), ("decisions", "decisions")):
        d = diff[key]
        r, (lo, hi) = d["relative"], d["relative_ci95"]
        if math.isnan(r):
            parts.append((False, f"{what}: —"))
        elif stats.excludes_zero(lo, hi):
            parts.append(
                (
                    True,
                    f"{abs(100 * r):.0f}% ± {100 * (hi - lo) / 2:.0f}% {'fewer' if r < 0 else 'more'} {what} "
                    f"(mean {d['a']:.1f} → {d['b']:.1f})",
                )
            )
        else:
            parts.append((False, f"{what} ±{100 * (hi - lo) / 2:.1f}%"))
        moved_len = moved_len or (parts[-1][0] and key != "decisions")
    if moved_len:
        shorter = diff["turns"]["relative"] < 0 if parts[0][0] else diff["real_choices"]["relative"] < 0
        verb = "shortens" if shorter else "lengthens"
        out.append(
            f"{name_b} {verb} games: " + "; ".join(t if c else f"no detectable change in {t}" for c, t in parts[:2])
        )
    else:
        out.append(f"no detectable change in game length ({parts[0][1]}, {parts[1][1]})")
    out.append(
        "decisions, forced moves included: " + (parts[2][1] if parts[2][0] else f"no detectable change ({parts[2][1]})")
    )
    for key, what in (("p1_win_rate", "the first player's win rate"), ("draw_rate", "the draw rate")):
        x = diff[key]
        half = (x["ci95"][1] - x["ci95"][0]) / 2
        if x["detectable"]:
            out.append(
                f"{name_b} {'raises' if x['difference'] > 0 else 'lowers'} {what} by "
                f"{_pts(abs(x['difference']))} ± {_pts(half)} points ({_pts(x['a'])}% → {_pts(x['b'])}%)"
            )
        else:
            out.append(f"no detectable change in {what} (±{_pts(half)} points)")
    if "balance" in diff:
        out.append(explain.balance_sentence(diff["balance"], name_b))
    explained = diff.get("endings_changed")
    if explained is not None:
        out += [explain.ending_sentence(e, name_a, name_b) for e in explained[:4]]
    else:
        ends = [(k, v) for k, v in diff["ends"].items() if v["detectable"]]
        for k, v in sorted(ends, key=lambda kv: -abs(kv[1]["difference"]))[:3]:
            out.append(f"games ending by {k}: {_pts(v['a'])}% → {_pts(v['b'])}%")
    quality = [
        f"{name.replace('_', ' ')} {_quality_value(name, d['a'])} → {_quality_value(name, d['b'])}"
        for name, d in quality_summary.flat(diff.get("quality", {}))
        if d["detectable"] and name not in ("turns", "real_choices")  # (the length: said above)
    ]
    if quality:
        out.append("game quality: " + ", ".join(quality))
    moved = []
    dead = set(diff["dead_only_in_a"]) | set(diff["dead_only_in_b"])  # said below
    for k, v in diff["plays"].items():
        if not (v["in_a"] and v["in_b"]) or not v["detectable"] or v["a"] <= 0 or k in dead:
            continue
        rel = v["b"] / v["a"] - 1
        if abs(rel) >= 0.05:
            moved.append((abs(rel), f"{k} {'+' if rel > 0 else '−'}{abs(100 * rel):.0f}%"))
    if moved:
        moved.sort(key=lambda m: -m[0])
        out.append("play use per game: " + ", ".join(m[1] for m in moved[:6]))
    rules_moved = []
    for what, found in (
        ("fired", diff.get("triggers", {})),
        ("changed", diff.get("counters", {})),
        ("cards shown by", diff.get("knowledge", {}).get("shown", {})),
        ("cards seen by", diff.get("knowledge", {}).get("seen", {})),
    ):
        for k, v in found.items():
            if v["detectable"] and k not in dead:
                text = f"{what} {k}" if what.startswith("cards") else f"{k} {what}"
                text = f"counter {text}" if what == "changed" else text
                rules_moved.append((abs(v["difference"]), f"{text} {v['a']:.2f} → {v['b']:.2f}"))
    if rules_moved:
        rules_moved.sort(key=lambda m: -m[0])
        out.append("per game: " + "; ".join(m[1] for m in rules_moved[:4]))
    if diff.get("rarely_chosen_in_b"):
        out.append(explain.rarely_sentence(diff["rarely_chosen_in_b"]) + f" (under {name_b})")
    for side, name in (("a", name_a), ("b", name_b)):
        qs = diff.get("questions", {}).get(side)
        if qs:
            out.append(explain.questions_sentence(qs) + f" (under {name})")
    for x in diff["dead_only_in_b"]:
        out.append(f"{x} is dead under {name_b} only")
    for x in diff["dead_only_in_a"]:
        out.append(f"{x} is dead under {name_a} only")
    pairing = "paired" if diff["paired"] else "unpaired"
    out.append(f"({n:,} {pairing} games per ruleset; ± is the half-width of a 95% interval)")
    return out
