"""`cuttle ladder`: a round robin of players by name, then ratings with intervals.

    cuttle ladder default --players random,heuristic,sharp,ismcts:fast --games 100

Every pair of players plays `games` games, seats alternating, on the deals of seeds
`seed .. seed + games - 1` (every pair on the same deals; each game as `cuttle match` plays it).
The ratings are a Bradley–Terry fit of all the games (a draw is half a win to each side), on the
Elo scale (400 · log10 of the strength, so 200 points apart is about a 76% expected score), with
the first player listed (or `random`, when it plays) at 0. A player who wins or loses every game
against someone would have an infinite rating: each pair also counts one drawn game (half a win
each way), which keeps every rating finite and moves the others very little. The intervals are
95% percentile intervals of a bootstrap (the games of each pair drawn again with replacement, 200
times, the fit made again each time; seeded, so a rerun gives the same intervals).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from itertools import combinations
from typing import Any

from interpreter.core.errors import CuttleError
from interpreter.language.phrasing import counted
from interpreter.players.registry import make_player
from interpreter.rules import load_ruleset

from .matches import GameResult, _job, two_seats
from .parallel import ctrl_c_ignored, workers

PRIOR = 0.5  # the half win each way that every pair counts besides its games
BOOTSTRAP = 200
ITERATIONS = 2000  # of the fit's minorization–maximization (it converges in far fewer)


def plan(players: list[str], games: int, seed: int, ruleset: str) -> list[tuple[str, int, str, str]]:
    """Every game of the round robin: for each pair, game i of seed `seed + i`, seats alternating."""
    out = []
    for a, b in combinations(players, 2):
        for i in range(games):
            out.append((ruleset, seed + i, a, b) if i % 2 == 0 else (ruleset, seed + i, b, a))
    return out


def scores(results: list[GameResult], players: list[str]) -> dict[tuple[str, str], float]:
    """(a, b) -> a's score against b: 1 a win, 1/2 a draw (or a game cut at the move limit)."""
    s: dict[tuple[str, str], float] = {}
    for r in results:
        a, b = r.seats
        if r.winner is None:
            s[(a, b)] = s.get((a, b), 0.0) + 0.5
            s[(b, a)] = s.get((b, a), 0.0) + 0.5
        else:
            won, lost = r.seats[r.winner], r.seats[1 - r.winner]
            s[(won, lost)] = s.get((won, lost), 0.0) + 1.0
    return s


def fit(results: list[GameResult], players: list[str], anchor: str) -> dict[str, float]:
    """Bradley–Terry strengths by minorization–maximization (Hunter 2004), as Elo-scale ratings with
    `anchor` at 0."""
    s = scores(results, players)
    n: dict[tuple[str, str], float] = {}
    for r in results:
        a, b = r.seats
        n[(a, b)] = n.get((a, b), 0.0) + 1.0
        n[(b, a)] = n.get((b, a), 0.0) + 1.0
    for a, b in combinations(players, 2):  # the prior: one drawn game a pair
        for x, y in ((a, b), (b, a)):
            s[(x, y)] = s.get((x, y), 0.0) + PRIOR
            n[(x, y)] = n.get((x, y), 0.0) + 1.0
    strength = dict.fromkeys(players, 1.0)
    for _ in range(ITERATIONS):
        new = {}
        for i in players:
            won = sum(s.get((i, j), 0.0) for j in players if j != i)
            denom = sum(n.get((i, j), 0.0) / (strength[i] + strength[j]) for j in players if j != i)
            new[i] = won / denom if denom else strength[i]
        scale = math.exp(statistics.fmean(math.log(v) for v in new.values()))
        new = {k: v / scale for k, v in new.items()}
        done = max(abs(math.log(new[k] / strength[k])) for k in players) < 1e-10
        strength = new
        if done:
            break
    base = math.log10(strength[anchor])
    return {k: 400.0 * (math.log10(v) - base) for k, v in strength.items()}


def intervals(
    results: list[GameResult], players: list[str], anchor: str, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """95% bootstrap percentile intervals of each rating (the games of each pair resampled)."""
    by_pair: dict[frozenset[str], list[GameResult]] = {}
    for r in results:
        by_pair.setdefault(frozenset(r.seats), []).append(r)
    rnd = random.Random(seed)
    samples: dict[str, list[float]] = {p: [] for p in players}
    for _ in range(BOOTSTRAP):
        drawn = [g for games in by_pair.values() for g in rnd.choices(games, k=len(games))]
        for p, v in fit(drawn, players, anchor).items():
            samples[p].append(v)
    out = {}
    for p, xs in samples.items():
        xs.sort()
        out[p] = (xs[int(0.025 * (len(xs) - 1))], xs[int(round(0.975 * (len(xs) - 1)))])
    return out


def run(players: list[str], games: int, seed: int, ruleset: str, jobs: int) -> list[GameResult]:
    todo = plan(players, games, seed, ruleset)
    jobs = workers(jobs, len(todo))
    if jobs > 1:
        from multiprocessing import Pool

        with ctrl_c_ignored():
            pool = Pool(jobs)
        with pool:
            return pool.map(_job, todo, chunksize=1)
    return [_job(x) for x in todo]


def table(results: list[GameResult], players: list[str], games: int) -> list[str]:
    """Each row's score against each column, out of the games they played."""
    s = scores(results, players)
    width = max(len(p) for p in players)
    cells = [[("—" if a == b else _score(s.get((a, b), 0.0), games)) for b in players] for a in players]
    col = max(width, *(len(c) for row in cells for c in row))
    lines = ["  " + " " * width + "  " + "  ".join(p.rjust(col) for p in players)]
    for a, row in zip(players, cells, strict=True):
        lines.append(f"  {a.ljust(width)}  " + "  ".join(c.rjust(col) for c in row))
    return lines


def _score(x: float, n: int) -> str:
    return f"{x:g}/{n}"


def ladder(ruleset: str, players: list[str], games: int, seed: int = 0, jobs: int = 1) -> list[str]:
    """What `cuttle ladder` prints (see `rate`)."""
    two_seats(ruleset, "ladder")
    return rate(ruleset, players, games, seed, jobs)[0]


def rate(
    ruleset: str, players: list[str], games: int, seed: int = 0, jobs: int = 1
) -> tuple[list[str], dict[str, Any]]:
    """The round robin played and rated: what `cuttle ladder` prints, and the same as data (what
    `--json FILE` writes, and `cuttle players` shows from `interpreter/players/ratings.json`).
    Every player and the ruleset are checked before a game is played."""
    if len(players) < 2:
        raise CuttleError("a ladder needs two players or more: --players A,B[,C...]")
    if len(set(players)) != len(players):
        raise CuttleError(f"a player is named twice in --players {','.join(players)}")
    rules = load_ruleset(ruleset)
    evaluations: dict[str, str] = {}  # which evaluation each searching player played with
    for p in players:
        note = getattr(make_player(p), "evaluation_note", None)
        if note is not None:  # (a malformed learnt evaluation is refused here, before a game)
            evaluations[p] = note(rules)
    t0 = time.perf_counter()
    results = run(players, games, seed, ruleset, jobs)
    anchor = "random" if "random" in players else players[0]
    ratings = fit(results, players, anchor)
    ci = intervals(results, players, anchor, seed)
    pairs = len(players) * (len(players) - 1) // 2
    lines = [
        f"ruleset {ruleset}: round robin of {', '.join(players)}; {games} games a pair "
        f"({pairs} pair{'s' if pairs != 1 else ''}), "
        f"seats alternating, seeds {seed}..{seed + games - 1} ({time.perf_counter() - t0:.0f} s, "
        f"{counted(workers(jobs, pairs * games), 'job')})",
        *(f"  {p} plays with {note}" for p, note in evaluations.items()),
        f"rating (Bradley–Terry on the Elo scale, {anchor} = 0; 95% bootstrap interval) and CPU time per move:",
    ]
    width = max(len(p) for p in players)
    for p in sorted(players, key=lambda x: -ratings[x]):
        lo, hi = ci[p]
        times = _times(results, p)
        cpu = f"{1000 * statistics.median(times):.1f} ms median" if times else "no moves"
        # a bootstrap of a few games all won (or all lost) resamples the same score: no spread to show
        span = "" if p == anchor else f"  ({lo:+.0f} to {hi:+.0f})" if round(lo) != round(hi) else "  (too few games)"
        lines.append(f"  {p.ljust(width)}  {ratings[p]:+6.0f}{span.ljust(18)}  {cpu}")
    lines.append("scores (the row's against the column's; a draw is 1/2):")
    lines += table(results, players, games)
    data: dict[str, Any] = {
        "ruleset": ruleset,
        "games_a_pair": games,
        "seeds": [seed, seed + games - 1],
        "anchor": anchor,
        "players": {
            p: {
                "rating": round(ratings[p]),
                "interval": [round(ci[p][0]), round(ci[p][1])] if round(ci[p][0]) != round(ci[p][1]) else None,
                "ms_per_move": round(1000 * statistics.median(ts), 1) if (ts := _times(results, p)) else None,
            }
            for p in players
        },
        "evaluations": evaluations,
    }
    return lines, data


def _times(results: list[GameResult], p: str) -> list[float]:
    return [t for r in results for t in r.times.get(p, [])]
