"""What a run's rules did besides their plays (issue 27 items 2 and 4), summarised from the stored
games: the triggers that fired (column `fired`), the counters (`counters`), what players were shown
or saw by a rule (`knowledge`), and the balance of each rank, alone and by play (`p1_ranks` beside
`p1_used`). metrics.summarize puts each under its key of the summary (`triggers` through `rules`,
`counters`, `knowledge`, `ranks`); the reports show them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Any

from . import stats
from .catalog import code_rule, rule_code
from .recorder import RANK_NAME

RANK_ORDER = "A23456789TJQKX"  # the ranks' characters, in the order reports list them


def trigger_usage(fired: Sequence[str]) -> dict[int, list[int]]:
    """Per trigger: [games it fired in, times fired, games it fired in, 0, 0, 0, 0], in the shape of
    metrics._usage (offered, used, games used, countered, seat-games used, wins then, seat-games offered)."""
    times = Counter("".join(fired))
    games = Counter(chain.from_iterable(map(set, fired)))
    return {code_rule(ch): [games[ch], k, games[ch], 0, 0, 0, 0] for ch, k in times.items()}


def _mean(xs: Sequence[float], count: bool = False) -> dict[str, Any]:
    """The mean with its 95% interval; of a `count` (changes, cards), never below 0 whatever the
    normal interval of a few games says (a counter's final value may be negative: not floored)."""
    mean, lo, hi = stats.mean_ci(list(xs))
    return {"mean": mean, "ci95": [max(0.0, lo) if count else lo, hi]}


def counters(texts: Sequence[str], declared: dict[str, str]) -> dict[str, Any]:
    """Each declared counter over the games (column `counters`): in how many games its value changed,
    its changes per game, and the final values (p1's and p2's for a player's counter, the sum over
    the cards still holding it for a card's), each mean with its 95% interval."""
    rows = [json.loads(t) for t in texts]
    out: dict[str, Any] = {}
    for name, of in declared.items():
        got = [r.get(name, [0, 0, 0, 0]) for r in rows]
        entry: dict[str, Any] = {
            "of": of,
            "games_changed": sum(1 for x in got if x[0]),
            "changes": {"total": sum(x[0] for x in got), **_mean([x[0] for x in got], count=True)},
        }
        if of == "card":
            entry["final_cards"] = _mean([x[3] for x in got])
        else:
            entry["final_p1"] = _mean([x[1] for x in got])
            entry["final_p2"] = _mean([x[2] for x in got])
        out[name] = entry
    return out


def knowledge(texts: Sequence[str]) -> dict[str, Any]:
    """Cards shown by each rule's `show` and seen by each visibility rule (column `knowledge`): the
    total, per game (mean with its 95% interval) and the games in which it happened."""
    rows = [json.loads(t) for t in texts]
    out: dict[str, Any] = {"shown": {}, "seen": {}}
    for part in ("shown", "seen"):
        names = sorted({k for r in rows for k in r.get(part, {})})
        for name in names:
            xs = [r.get(part, {}).get(name, 0) for r in rows]
            out[part][name] = {"cards": sum(xs), "games": sum(1 for x in xs if x), **_mean(xs, count=True)}
    return out


def _association(w: int, m: int, seat_wins: int, seat_games: int) -> dict[str, Any]:
    """A seat's win rate in the `m` seat-games it did something (winning `w`) against the others."""
    if not 0 < m < seat_games:
        return {}
    lo, hi = stats.newcombe(seat_wins - w, seat_games - m, w, m)
    return {
        "win_rate_used": w / m,
        "win_rate_not_used": (seat_wins - w) / (seat_games - m),
        "win_difference_ci95": [lo, hi],
        "seat_games_used": m,
    }


def ranks(g: dict[str, list[Any]], names: dict[int, str]) -> dict[str, Any]:
    """Per rank (by its own name: 'A', '9', '10', 'K', 'Joker'): how often a card of it was played
    (any play or response), per game, in what share of games, and the association of playing it
    with winning (as for a play: a seat's win rate in the seat-games it played one against the
    others); then the same per play of it under `plays` (the 9 as a one-off, the 9 for points).
    `names`: each play's and response's name by rule number."""
    n = len(g["idx"])
    seat_games = 2 * n
    times: Counter[tuple[str, int]] = Counter()
    rank_m: Counter[str] = Counter()
    rank_w: Counter[str] = Counter()
    pair_m: Counter[tuple[str, int]] = Counter()
    pair_w: Counter[tuple[str, int]] = Counter()
    games: Counter[str] = Counter()
    pair_games: Counter[tuple[str, int]] = Counter()
    seat_wins = 0
    for i, w in enumerate(g["winner"]):
        in_game: set[tuple[str, int]] = set()
        for seat, used, rk in (("p1", g["p1_used"][i], g["p1_ranks"][i]), ("p2", g["p2_used"][i], g["p2_ranks"][i])):
            won = w == seat
            seat_wins += won
            pairs = [(r, code_rule(u)) for u, r in zip(used, rk, strict=False) if r != "-"]
            times.update(pairs)
            once = set(pairs)
            in_game |= once
            for pair in once:
                pair_m[pair] += 1
                pair_w[pair] += won
            for r in {r for r, _ in once}:
                rank_m[r] += 1
                rank_w[r] += won
        pair_games.update(in_game)
        games.update({r for r, _ in in_game})
    out: dict[str, Any] = {}
    for r in sorted({r for r, _ in times}, key=RANK_ORDER.index):
        used = sum(k for (rr, _), k in times.items() if rr == r)
        plays: dict[str, Any] = {}
        for (rr, rule), k in sorted(times.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if rr != r:
                continue
            plays[names.get(rule, f"rule {rule}")] = {
                "used": k,
                "per_game": k / n if n else 0.0,
                "games_used": pair_games[(r, rule)],
                **_association(pair_w[(r, rule)], pair_m[(r, rule)], seat_wins, seat_games),
            }
        out[RANK_NAME[r]] = {
            "used": used,
            "per_game": used / n if n else 0.0,
            "games_used": games[r],
            **_association(rank_w[r], rank_m[r], seat_wins, seat_games),
            "plays": plays,
        }
    return out


def per_game_fired(fired: Sequence[str], code: str) -> list[float]:
    """Times the trigger of character `code` fired in each game."""
    return [float(f.count(code)) for f in fired]


def per_game(g: dict[str, list[Any]], rules: Sequence[tuple[Any, ...]]) -> dict[str, dict[str, list[float]]]:
    """Per game, for a comparison: each trigger's firings (`triggers`), each counter's changes
    (`counters`), the cards each rule showed (`shown`) and each visibility rule let be seen (`seen`),
    and the cards of each rank played, both seats together (`ranks`), and each rank by each play of
    it (`rank_plays`: '9 by nine'). `rules`: the rows of the table `rules` (rule, kind, name, ...)."""
    out: dict[str, dict[str, list[float]]] = {"triggers": {}, "counters": {}, "shown": {}, "seen": {}, "ranks": {}}
    out["rank_plays"] = {}
    for rule, kind, name, *_ in rules:
        if kind == "trigger":
            ch = rule_code(rule)
            out["triggers"][name] = [float(f.count(ch)) for f in g["fired"]]
    counters = [json.loads(t) for t in g["counters"]]
    for name in sorted({k for c in counters for k in c}):
        out["counters"][name] = [float(c.get(name, [0])[0]) for c in counters]
    known = [json.loads(t) for t in g["knowledge"]]
    for part in ("shown", "seen"):
        for name in sorted({k for r in known for k in r.get(part, {})}):
            out[part][name] = [float(r.get(part, {}).get(name, 0)) for r in known]
    played = [a.replace("-", "") + b.replace("-", "") for a, b in zip(g["p1_ranks"], g["p2_ranks"], strict=True)]
    for r in sorted(set("".join(played)), key=RANK_ORDER.index):
        out["ranks"][RANK_NAME[r]] = [float(p.count(r)) for p in played]
    names = {rule: nm + (" (response)" if kind == "response" else "") for rule, kind, nm, *_ in rules}
    pairs = [
        Counter((r, u) for u, r in chain(zip(u1, r1, strict=False), zip(u2, r2, strict=False)) if r != "-")
        for u1, r1, u2, r2 in zip(g["p1_used"], g["p1_ranks"], g["p2_used"], g["p2_ranks"], strict=True)
    ]
    found = sorted(set().union(*pairs), key=lambda ru: (RANK_ORDER.index(ru[0]), code_rule(ru[1])))
    out["rank_plays"] = {
        f"{RANK_NAME[r]} by {names.get(code_rule(u), u)}": [float(c[(r, u)]) for c in pairs] for r, u in found
    }
    return out
