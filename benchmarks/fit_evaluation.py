"""Fit the generic evaluation's weights to game results (how `sharp` and `ismcts` got theirs).

    python -m benchmarks.fit_evaluation --p1 sharp --p2 heuristic --games 600 [--seed 30000]

Plays seeded games between two players (seats alternating, as `cuttle match` seeds them), records at
every main decision the features the evaluation (interpreter/players/sharp.py `evaluate`) reads, from
the side of the player to decide — points still missing (the opponent's less one's own), the urgency
difference 1/(need+1), cards in hand, non-point cards in play, then the optional terms: one-sided
sight of a hand, a side within one point card of its goal, the point values of the cards in hand —
and fits a logistic regression of "this player went on to win" on them (Newton's method; drawn games
left out). The weights printed are the coefficients divided by the `need` coefficient, in the units
of `SharpWeights`; `temperature` (ISMCTS's evaluation units per logistic unit) is 1 / that
coefficient. The features are read from the true state: this is offline fitting, not a player.

The weights shipped (need 1, urgency 50, hand 5, in play 2, temperature 11.6) came from the first
four features over 600 games of the old `sharp` against `heuristic`, seeds 30000..30599 (`--p1
'sharp?urgency=12&hand=2.5&in_play=0.6&max_nodes=600'`): need 0.085, urgency 4.51, hand 0.439, in
play 0.176 (ratios 1 : 52.9 : 5.1 : 2.1, temperature 11.7), rounded
(benchmarks/results/fit-evaluation-30000-30599.txt).
"""

from __future__ import annotations

import argparse
import sys

from interpreter import Game, load_ruleset, make_player
from interpreter.core.errors import CuttleError
from interpreter.engine.machine import MAIN
from interpreter.engine.state import FIELD0, HAND0, State
from interpreter.players.sharp import card_values

NAMES = ["need", "urgency", "hand", "in_play", "sees", "reach", "hand_value"]


def features(g: State, me: int) -> list[float]:
    """The evaluation's features of `g` from `me`'s side (see the module doc)."""
    rules, opp = g.rules, 1 - me
    vals = card_values(rules)
    need = [max(rules.goal_of(g, p) - rules.score_of(g, p), 0) for p in (0, 1)]
    hand = [g.zones[HAND0 + p] for p in (0, 1)]
    perm = [sum(1 for c in g.zones[FIELD0 + p] if g.host[c] < 0 and g.role[c] != "point") for p in (0, 1)]
    reach = [0 < need[p] <= vals[-1] for p in (0, 1)]
    return [
        need[opp] - need[me],
        1 / (need[me] + 1) - 1 / (need[opp] + 1),
        len(hand[me]) - len(hand[opp]),
        perm[me] - perm[opp],
        int(rules.hand_visible(g, me)) - int(rules.hand_visible(g, opp)),
        int(reach[me]) - int(reach[opp]),
        sum(vals[c] for c in hand[me]) - sum(vals[c] for c in hand[opp]),
    ]


def collect(ruleset: str, p1: str, p2: str, games: int, seed: int) -> tuple[list[list[float]], list[int]]:
    """Features at every main decision of `games` seeded games, and whether the decider won."""
    rules = load_ruleset(ruleset)
    xs: list[list[float]] = []
    ys: list[int] = []
    for s in range(seed, seed + games):
        specs = (p1, p2) if (s - seed) % 2 == 0 else (p2, p1)
        game = Game.new(rules, s)
        seats = (make_player(specs[0], seed=2 * s + 1), make_player(specs[1], seed=2 * s + 2))
        rows: list[tuple[list[float], int]] = []
        for _ in range(5000):
            d = game.decision
            if d is None:
                break
            if game.state.pending.kind == MAIN:
                rows.append((features(game.state, d.player), d.player))
            game.play(seats[d.player].choose(game))
        out = game.outcome
        if out is not None and out.winner in (0, 1):
            for f, p in rows:
                xs.append(f)
                ys.append(int(out.winner == p))
    return xs, ys


def fit(xs: list[list[float]], ys: list[int], cols: list[int]) -> tuple[list[float], float]:
    """Logistic regression (no intercept: the features are differences) by Newton's method; the
    coefficients of `cols` and the mean log-likelihood."""
    import numpy as np

    a = np.array([[x[c] for c in cols] for x in xs], float)
    y = np.array(ys, float)
    w = np.zeros(len(cols))
    for _ in range(30):
        p = 1 / (1 + np.exp(-a @ w))
        h = (a * (p * (1 - p))[:, None]).T @ a + 1e-6 * np.eye(len(cols))
        w += np.linalg.solve(h, a.T @ (y - p))
    p = np.clip(1 / (1 + np.exp(-a @ w)), 1e-12, 1 - 1e-12)
    return [float(v) for v in w], float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.fit_evaluation", description=__doc__.splitlines()[0])
    ap.add_argument("--p1", default="sharp")
    ap.add_argument("--p2", default="heuristic")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=30000, help="the first game's seed")
    ap.add_argument("--ruleset", "-r", default="default")
    a = ap.parse_args(argv)
    try:
        make_player(a.p1)
        make_player(a.p2)
        xs, ys = collect(a.ruleset, a.p1, a.p2, a.games, a.seed)
    except CuttleError as e:
        print(f"python -m benchmarks.fit_evaluation: {e}", file=sys.stderr)
        return 2
    print(f"{len(xs)} positions of {a.games} games ({a.p1} against {a.p2}, seeds {a.seed}..{a.seed + a.games - 1})")
    for cols in ([0, 1, 2, 3], list(range(len(NAMES)))):
        w, ll = fit(xs, ys, cols)
        ratios = ", ".join(f"{NAMES[c]} {w[i] / w[0]:.2f}" for i, c in enumerate(cols))
        print(f"  mean log-likelihood {ll:.4f}; temperature {1 / w[0]:.1f}; {ratios}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
