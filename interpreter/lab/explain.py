"""What a verdict explains besides the numbers (issue 41): whether a rule moved the game toward or away
from an even game, which endings changed who wins, which new or changed plays the players (almost) never
choose where legal, and how questions were answered.

- `balance`: the first player's edge (p1's win rate less p2's, the advantage of quality.py) under A and
  B, and the change in its distance from even, |edge B| − |edge A|: game by game, s_B·x_B − s_A·x_A where
  x is +1 for a p1 win, −1 for a p2 win, 0 otherwise and s the sign of that side's edge (the delta method:
  exact for the estimate, its interval approximate when an edge is near 0); paired when the games are.
- `endings`: per ending, its games under each ruleset, who won them and how many of them ended on a tie
  in points (and at which score, when they all did at one); an ending "changed" when its share or the
  share of it that p2 won changed detectably, or it happens under one ruleset only.
- `rarely_chosen`: a play or response that a rule adds or changes (its origin says so, or it is new
  under B or made otherwise than under A), legal in at least `OFTEN` of the seat-games and at least
  `MIN_SEAT_GAMES` of them, but chosen in at most `RARELY` of those: the players may not know how to use
  it, or it is not worth it.
- `questions`: each `if P agrees to VERB` question, how often it was asked and answered yes and no.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import stats

OFTEN = 0.10  # legal in at least this share of the seat-games ...
MIN_SEAT_GAMES = 20  # ... and in at least this many
RARELY = 0.05  # chosen in at most this share of the seat-games where it was legal


def _sign(x: float) -> float:
    return -1.0 if x < 0 else 1.0


def advantage(winners: list[Any]) -> list[float]:
    return [1.0 if w == "p1" else -1.0 if w == "p2" else 0.0 for w in winners]


def balance(wa: list[Any], wb: list[Any], paired: bool) -> dict[str, Any]:
    """The first player's edge under A and B and the change of its distance from even (module doc)."""
    xa, xb = advantage(wa), advantage(wb)
    ma = sum(xa) / len(xa) if xa else 0.0
    mb = sum(xb) / len(xb) if xb else 0.0
    sa, sb = _sign(ma), _sign(mb)
    if paired and len(xa) == len(xb):
        d, lo, hi = stats.mean_ci([sb * b - sa * a for a, b in zip(xa, xb, strict=True)])
    else:
        d, lo, hi = stats.welch_diff([sa * a for a in xa], [sb * b for b in xb])
    return {
        "a": ma,
        "b": mb,
        "closer_to_even": -d,  # positive: B's edge is nearer 0 than A's
        "ci95": [-hi, -lo],
        "detectable": stats.excludes_zero(lo, hi),
    }


def _signed(x: float) -> str:
    return f"{x:+.1f}".replace("-", "−")


def balance_sentence(x: dict[str, Any], name_b: str) -> str:
    edges = f"the first player's edge {_signed(100 * x['a'])} → {_signed(100 * x['b'])} pts"
    lo, hi = x["ci95"]
    half = 100 * (hi - lo) / 2
    if not x["detectable"]:
        return f"no detectable change in balance: {edges} (its distance from even ±{half:.1f} points)"
    toward = x["closer_to_even"] > 0
    return (
        f"{name_b} moves the game {'toward' if toward else 'away from'} even: {edges} "
        f"({abs(100 * x['closer_to_even']):.1f} ± {half:.1f} points {'closer to' if toward else 'further from'} even)"
    )


# -- endings -------------------------------------------------------------------------------------------


def ending_facts(labels: list[str], g: dict[str, list[Any]]) -> dict[str, dict[str, Any]]:
    """Per ending: its games, the wins of each seat and the draws among them, and the ties in points."""
    out: dict[str, dict[str, Any]] = {}
    for label, w, p1, p2 in zip(labels, g["winner"], g["p1_points"], g["p2_points"], strict=True):
        e = out.setdefault(label, {"games": 0, "p1": 0, "p2": 0, "draw": 0, "ties": 0, "tie_scores": Counter()})
        e["games"] += 1
        e[w if w in ("p1", "p2") else "draw"] += 1
        if p1 == p2:
            e["ties"] += 1
            e["tie_scores"][p1] += 1
    return out


def _winners(e: dict[str, Any]) -> str:
    parts = []
    for seat in sorted(("p1", "p2"), key=lambda s: -e[s]):
        if e[seat]:
            parts.append(f"{seat} won {e[seat]:,}")
    if e["draw"]:
        parts.append(f"{e['draw']:,} drawn")
    text = ", ".join(parts) or "none won"
    ties = e["ties"]
    if ties:
        scores = sorted(e["tie_scores"].items(), key=lambda kv: -kv[1])
        if len(scores) == 1:
            at = f" at {scores[0][0]}–{scores[0][0]}"
        else:
            at = f", {scores[0][1]:,} at {scores[0][0]}–{scores[0][0]}"
        text += f"; {ties:,} of them on a tie in points{at}"
    return text


def endings(
    la: list[str], ga: dict[str, list[Any]], lb: list[str], gb: dict[str, list[Any]], shares: dict[str, Any]
) -> list[dict[str, Any]]:
    """The endings whose share or winners changed (module doc), most games first."""
    fa, fb = ending_facts(la, ga), ending_facts(lb, gb)
    out = []
    for label in list(fb) + [k for k in fa if k not in fb]:
        a = fa.get(label, {"games": 0, "p1": 0, "p2": 0, "draw": 0, "ties": 0, "tie_scores": Counter()})
        b = fb.get(label, {"games": 0, "p1": 0, "p2": 0, "draw": 0, "ties": 0, "tie_scores": Counter()})
        share = shares.get(label, {}).get("detectable", False)
        only = (a["games"] == 0) != (b["games"] == 0)
        lo, hi = stats.newcombe(a["p2"], a["games"], b["p2"], b["games"])
        winners = a["games"] > 0 and b["games"] > 0 and stats.excludes_zero(lo, hi)
        if share or only or winners:
            out.append(
                {"ending": label, "a": _plain(a), "b": _plain(b), "share_changed": share, "winners_changed": winners}
            )
    return sorted(out, key=lambda e: -max(e["a"]["games"], e["b"]["games"]))


def _plain(e: dict[str, Any]) -> dict[str, Any]:
    return {
        **{k: v for k, v in e.items() if k != "tie_scores"},
        "tie_scores": {str(k): v for k, v in e["tie_scores"].items()},
    }


def ending_sentence(e: dict[str, Any], name_a: str, name_b: str) -> str:
    a, b = e["a"], e["b"]
    first, second = (b, name_b), (a, name_a)
    if not b["games"]:
        first, second = second, first
    text = f"{e['ending']} ended {first[0]['games']:,} games under {first[1]} ({_winners(first[0])})"
    if second[0]["games"]:
        return text + f", {second[0]['games']:,} under {second[1]} ({_winners(second[0])})"
    return text + f", none under {second[1]}"


# -- plays the players do not use ----------------------------------------------------------------------


def rarely_chosen(table: list[dict[str, Any]], games: int, changed: set[str] | None = None) -> list[dict[str, Any]]:
    """The plays and responses a rule adds or changes (an `origin`, or a name in `changed`) that are legal
    often but chosen rarely (module doc)."""
    out = []
    for e in table:
        if e["kind"] not in ("play", "response"):
            continue
        if not (e.get("origin") or (changed is not None and e["name"] in changed)):
            continue
        offered, chosen = e.get("seat_games_offered", 0), e.get("seat_games_chosen", 0)
        if offered >= max(MIN_SEAT_GAMES, OFTEN * 2 * games) and chosen <= RARELY * offered:
            out.append({"name": e["name"], "kind": e["kind"], "seat_games_legal": offered, "seat_games_chosen": chosen})
    return out


def rarely_sentence(found: list[dict[str, Any]]) -> str:
    parts = [
        f"{x['name']} (legal in {x['seat_games_legal']:,} seat-games, chosen in {x['seat_games_chosen']:,})"
        for x in found
    ]
    return "legal often, chosen rarely (the players may not know how to use it, or it is not worth it): " + "; ".join(
        parts
    )


# -- questions ---------------------------------------------------------------------------------------


def questions(table: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Each question (`if P agrees to VERB`) of the rules table: asked, yes, no."""
    out: dict[str, dict[str, int]] = {}
    for e in table:
        q = e.get("question")
        if e["kind"] == "choice" and q:
            entry = out.setdefault(q["name"], {"asked": 0, "yes": 0, "no": 0})
            entry["yes" if q["answer"] == "yes" else "no"] += e["used"]
            entry["asked"] += e["used"]
    return out


def questions_sentence(qs: dict[str, dict[str, int]]) -> str:
    return "questions: " + "; ".join(
        f"{k} asked {v['asked']:,} times: {v['yes']:,} yes, {v['no']:,} no" for k, v in qs.items()
    )
