"""A measured sketch of phase 2 of the speed work (docs/engine.md, "Where the time goes now").

It is not product code: it writes by hand, for the default rules only, what a better compiler and
the engine's generator could emit, installs it on a loaded `Rules`, checks that random games stay
exactly the same (decision counts and final positions, seed by seed), and measures the ratio to the
hand-written engine of `benchmarks/handwritten.py` (processor time, interleaved pairs):

- `better`: the hot expressions (score, goal, the window test, the targets of scuttle, Jack, 2 and 9)
  as plain loops: no `bool()` around each side of `and`/`or`, no list built only to be counted, no
  helper call for an index; still one call each, with the same `(state, bindings)` signature.
- `fused`: also the main-decision enumerator with those expressions written in place (no call, no
  bindings dict), in the shape `legal._generate` produces.

    python -m benchmarks.phase2_sketch            # as_is, better, fused: the three ratios
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from typing import Any

from benchmarks import handwritten as hw
from interpreter.core.cards import CARD_COUNT, RANK_OF
from interpreter.engine.legal import ONE
from interpreter.engine.machine import _plan, apply_action, deal, legal_actions
from interpreter.lab.bench import playout
from interpreter.rules import Rules, compose

GOALS = (21, 14, 10, 5, 0)
LEVELS = ("as_is", "better", "fused")


def install(rules: Rules, level: str) -> None:
    """Replace the default rules' hot compiled expressions (`better`), and the main enumerator too
    (`fused`), by hand-written equivalents."""
    if level == "as_is":
        return
    val, suitr = rules.ctx.namespace["VAL"], rules.ctx.namespace["SUITR"]

    def score(g: Any, e: dict) -> int:
        role, s = g.role, 0
        for c in g.zones[4 + e["me"]]:
            if role[c] == "point":
                s += val[c]
        return s

    def goal(g: Any, e: dict) -> int:
        role, k = g.role, 0
        for c in g.zones[4 + e["me"]]:
            if RANK_OF[c] == "K" and role[c] == "royal":
                k += 1
        return GOALS[min(k, 4)]

    def counterable(g: Any, e: dict) -> bool:
        role = g.role
        for c in g.zones[4 + e["me"]]:
            if RANK_OF[c] == "Q" and role[c] == "royal":
                return False
        return True

    def protected(g: Any, x: int) -> bool:
        z = g.zone_of[x]
        if z != 4 and z != 5:
            return False
        role = g.role
        for c in g.zones[z]:
            if c != x and RANK_OF[c] == "Q" and role[c] == "royal":
                return True
        return False

    def scuttle(g: Any, e: dict) -> list[int]:
        card, role = e["card"], g.role
        v, s = val[card], suitr[card]
        return [
            t
            for t in g.zones[4 + e["opponent"]]
            if role[t] == "point" and (v > val[t] or (v == val[t] and s > suitr[t]))
        ]

    def jack(g: Any, e: dict) -> list[int]:
        role = g.role
        return [t for t in g.zones[4 + e["opponent"]] if role[t] == "point" and not protected(g, t)]

    def two(g: Any, e: dict) -> list[int]:
        role = g.role
        return [
            t
            for t in g.zones[4 + e["opponent"]]
            if (role[t] == "royal" or (role[t] == "jack" and g.is_top(t))) and not protected(g, t)
        ]

    def nine(g: Any, e: dict) -> list[int]:
        role = g.role
        return [t for t in g.zones[4 + e["opponent"]] if role[t] != "jack" and not protected(g, t)]

    rules.score_fn, rules.goal_fn = score, goal
    targets = {"scuttle": scuttle, "jack": jack, "two": two, "nine": nine}
    for p in rules.plays:  # PlayDef is frozen: this sketch swaps its functions in place
        if p.counterable is not None:
            object.__setattr__(p, "counterable", counterable)
        if p.name in targets:
            object.__setattr__(p, "target", targets[p.name])
    rules.engine_cache.clear()
    plan = _plan(rules)
    if level != "fused":
        return
    plays = {p.name: p for p in rules.plays}
    acts = {
        name: tuple(tuple(("play", p, who, ONE[c], -1) for c in range(CARD_COUNT)) for who in (0, 1))
        for name, p in plays.items()
        if p.ncards == 1
    }
    a_points, a_ace, a_six, a_three, a_four = acts["points"], acts["ace"], acts["six"], acts["three"], acts["four"]
    a_five, a_seven, a_glasses, a_royal = acts["five"], acts["seven"], acts["glasses"], acts["royal"]
    draw = (("play", plays["draw"], 0, (), -1), ("play", plays["draw"], 1, (), -1))
    pass_ = (("play", plays["pass"], 0, (), -1), ("play", plays["pass"], 1, (), -1))
    sc, p2, p9, pj = plays["scuttle"], plays["two"], plays["nine"], plays["jack"]
    rank = [c >> 2 for c in range(CARD_COUNT)]

    def main(g: Any, me: int) -> list[tuple]:
        opp = 1 - me
        zones, role = g.zones, g.role
        out: list[tuple] = []
        add = out.append
        deck = zones[0]
        add(draw[me] if deck else pass_[me])
        ofield = zones[4 + opp]
        t2 = t9 = tj = None
        for c in zones[2 + me]:
            r = rank[c]
            if r <= 9:
                cs = ONE[c]
                add(a_points[me][c])
                v, s = val[c], suitr[c]
                for t in ofield:
                    if role[t] == "point" and (v > val[t] or (v == val[t] and s > suitr[t])):
                        add(("play", sc, me, cs, t))
                if r == 0:
                    add(a_ace[me][c])
                elif r == 1:
                    if t2 is None:
                        t2 = two(g, {"me": me, "opponent": opp})
                    for t in t2:
                        add(("play", p2, me, cs, t))
                elif r == 2:
                    for x in zones[1]:
                        if RANK_OF[x] != "3":
                            add(a_three[me][c])
                            break
                elif r == 3:
                    if zones[2 + opp]:
                        add(a_four[me][c])
                elif r == 4:
                    if deck:
                        add(a_five[me][c])
                elif r == 5:
                    add(a_six[me][c])
                elif r == 6:
                    if deck:
                        add(a_seven[me][c])
                elif r == 7:
                    add(a_glasses[me][c])
                elif r == 8:
                    if t9 is None:
                        t9 = nine(g, {"me": me, "opponent": opp})
                    for t in t9:
                        add(("play", p9, me, cs, t))
            elif r == 10:
                if tj is None:
                    tj = jack(g, {"me": me, "opponent": opp})
                for t in tj:
                    add(("play", pj, me, ONE[c], t))
            else:
                add(a_royal[me][c])
        return out

    plan.main = main


def same_games(rules: Rules, games: int) -> None:
    """The sketch must not change a game: the same decisions and end positions as the engine as is."""
    plain = Rules(compose("default"))
    for seed in range(games):
        a, b = deal(rules, seed), deal(plain, seed)
        ra, rb = random.Random(seed), random.Random(seed)
        while a.winner is None or b.winner is None:
            xa, xb = legal_actions(a), legal_actions(b)
            assert len(xa) == len(xb), f"seed {seed}: the sketch changed the legal moves"
            i = ra.randrange(len(xa))
            rb.randrange(len(xb))
            apply_action(a, xa[i])
            apply_action(b, xb[i])
        assert a.key()[:11] == b.key()[:11], f"seed {seed}: the sketch changed a game"


def ratio(rules: Rules, games: int, pairs: int) -> list[float]:
    playout(rules, 10**6, random.Random(5))
    hw.playout(10**6, random.Random(5))
    gc.collect()
    gc.freeze()
    out = []
    for r in range(pairs):
        rnd = random.Random(r)
        t0 = time.process_time()
        for i in range(games):
            playout(rules, r * games + i, rnd)
        a = time.process_time() - t0
        rnd = random.Random(r)
        t0 = time.process_time()
        for i in range(games):
            hw.playout(r * games + i, rnd)
        out.append(a / (time.process_time() - t0))
    gc.unfreeze()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.phase2_sketch", description=__doc__.split("\n\n")[0])
    ap.add_argument("levels", nargs="*", help="as_is, better, fused (default: all three)")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--pairs", type=int, default=7)
    a = ap.parse_args(argv)
    bad = [x for x in a.levels if x not in LEVELS]
    if bad:
        ap.error(f"unknown level {bad[0]!r}: choose from {', '.join(LEVELS)}")
    for level in a.levels or LEVELS:
        rules = Rules(compose("default"))
        install(rules, level)
        same_games(rules, 30)
        rs = ratio(rules, a.games, a.pairs)
        print(
            f"{level:6s}  interpreter / hand-written time: median {statistics.median(rs):.2f} "
            f"(pairs: {', '.join(f'{x:.2f}' for x in rs)})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
