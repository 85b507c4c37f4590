"""`cuttle train RULESET`: learn an evaluation for a ruleset by self-play (after TD-Gammon and Expert
Iteration: an evaluation improved by its own games, a search that uses it, each generation kept only
if it beats the last).

A round:
1. **play**: `sharp` plays itself with the best evaluation so far; at each main decision the position's
   features (players/features.py) are recorded from the deciding player's side, and now and then
   (`explore`, a tenth of the main decisions) that player makes a random move instead — a verb drawn
   uniformly among the legal ones, then one of its moves — so that a play the evaluation does not yet
   value is still tried and its results seen;
2. **fit**: TD(λ) by batches (`fit_td`): a logistic regression of each position's λ-return — the
   evaluation's estimates of the positions that followed it in its game and, for the rest, who won —
   from the deciding player's side, on the features of every position recorded so far, pulled towards
   generation 0's weights (a ridge on standardized features: for a house rule starting from the
   default rules' evaluation, as hard as a tenth of the positions that one was fitted on), in the
   evaluation's units (`TEMPERATURE` per logistic unit). On 1,200 games of the default rules its
   weights varied a third as much between samples as a regression on the results alone, and it
   played better (docs/players.md);
3. **duel**: the new evaluation against the best, `sharp` against `sharp` on paired deals (each deal
   played twice, seats swapped); the new one is kept if it scores more than half, else training stops
   (a round that no longer improves it).
Training stops too after `rounds` rounds or before `budget` CPU seconds are spent (checked between
games, keeping back what the final measure will cost at the mean cost of a game so far, so that the
whole stays within it). The kept evaluation then plays the untrained one (today's hand-set evaluation) on fresh paired
deals: its gain, with a 95% interval, is part of what is saved. If it does not beat the untrained one,
the untrained weights are what is saved (so the players keep them, and the rules count as trained).

The first round sets the evaluation's `horizon` (the turns after which a game counts as late): the
90th percentile of its games' lengths, so a turn limit written in the rules shows in it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from interpreter.core.errors import CuttleError
from interpreter.engine.game import Game
from interpreter.engine.machine import MAIN
from interpreter.engine.moves import Move
from interpreter.engine.state import DRAW
from interpreter.players.features import feature_names
from interpreter.players.learnt import (
    Evaluation,
    Gain,
    cached_path,
    check_for,
    forget,
    hand_set_evaluation,
    lookup,
    to_text,
)
from interpreter.players.sharp import Sharp
from interpreter.rules import Rules, load_ruleset
from interpreter.scripting.records import write_atomic

from .playing import play
from .stats import wilson

TEMPERATURE = 11.6  # evaluation units per logistic unit (ISMCTS squashes its leaves with the same)
MAX_DECISIONS = 5000  # a game longer than this is cut (and counts as drawn)
RIDGE = 30.0  # the least pull towards generation 0's weights, in standardized units (pseudo-positions)
PRIOR_SHARE = 0.1  # generation 0 learnt elsewhere weighs as this share of the positions it was fitted on
HORIZON_QUANTILE = 0.9
LAMBDA = 0.7  # TD(λ): how far a position's target looks down its game before trusting the estimates


@dataclass(frozen=True)
class TrainConfig:
    games: int = 300  # self-play games a round
    duel: int = 200  # games of each duel (paired deals: an even number)
    gain: int = 200  # games of the final measure against the untrained evaluation
    rounds: int = 5  # rounds at most
    budget: float = 180.0  # CPU seconds at most (checked between games)
    explore: float = 0.1  # the share of main decisions made at random while playing for data
    seed: int = 0
    start: str = "auto"  # auto: the default rules' learnt evaluation if any; hand-set: today's weights


@dataclass
class Round:
    number: int
    games: int
    positions: int
    wins: int = 0  # the new evaluation's duel against the best so far
    losses: int = 0
    draws: int = 0
    kept: bool = False

    @property
    def score(self) -> float:
        n = self.wins + self.losses + self.draws
        return (self.wins + self.draws / 2) / n if n else 0.0


@dataclass
class Trained:
    evaluation: Evaluation
    rounds: list[Round] = field(default_factory=list)
    stopped: str = ""  # why training stopped
    cpu_seconds: float = 0.0
    interrupted: bool = False


class Budget(Exception):
    """The CPU budget is spent (raised between games)."""


Progress = Callable[[str, int, int], None]  # (what, done, of)


class Trainer:
    def __init__(self, rules: Rules, config: TrainConfig, progress: Progress | None = None) -> None:
        self.rules = rules
        self.config = config
        self.progress = progress or (lambda what, done, total: None)
        self.names = feature_names(rules)
        self.cpu0 = time.process_time()
        # each self-play game: its positions' features, who decided at each, its result for p1
        self.games: list[tuple[list[list[float]], list[int], float]] = []
        self.positions = 0
        self.played = 0  # games played so far, self-play and duels (for the cost of a game)
        self.anchor_positions = 0  # the positions generation 0 was fitted on (0: the hand-set weights)
        self.anchor = hand_set_evaluation(rules)

    # -- the budget --------------------------------------------------------------------------------
    def cpu(self) -> float:
        return time.process_time() - self.cpu0

    def check(self) -> None:
        """Raise Budget if the next game, and the final measure against the untrained evaluation after
        it (its games), would pass the budget at the mean cost of a game so far."""
        spent = self.cpu()
        ahead = (self.config.gain + 1) * spent / self.played if self.played else 0.0
        if spent + ahead > self.config.budget:
            raise Budget

    # -- the loop ----------------------------------------------------------------------------------
    def run(self) -> Trained:
        cfg = self.config
        untrained = hand_set_evaluation(self.rules)
        best = self.start()
        self.anchor = best  # what every fit is pulled towards: generation 0 (module doc, "fit")
        out = Trained(best)
        games = 0
        try:
            for n in range(1, cfg.rounds + 1):
                rnd = Round(n, 0, 0)
                out.rounds.append(rnd)
                turns = self.play_for_data(best, n, rnd)
                games += rnd.games
                if n == 1:
                    best = replace(best, horizon=_quantile(turns, HORIZON_QUANTILE))
                    out.evaluation = best
                cand = self.fit(best, games, n)
                w, lo, d = self.duel(cand, best, cfg.duel, seed=cfg.seed + 1_000_000 * n, what=f"round {n}: duel")
                rnd.wins, rnd.losses, rnd.draws = w, lo, d
                if rnd.score > 0.5:
                    rnd.kept = True
                    best = cand
                    out.evaluation = best
                else:
                    out.stopped = f"round {n} did not improve on the evaluation before it"
                    break
            else:
                out.stopped = f"{cfg.rounds} rounds played"
        except Budget:
            out.stopped = f"the budget of {cfg.budget:g} CPU seconds was spent"
            last = out.rounds[-1] if out.rounds else None
            if last is not None and last.games < cfg.games:  # (a ruleset whose games are long: a match)
                games += last.games  # played, though not fitted: training saw them and found nothing
                out.stopped += (
                    f" in round {last.number}'s self-play, after {last.games:,} of its {cfg.games:,} games"
                    " (a round, its duel and the final measure do not fit: a larger --budget or fewer --games)"
                )
        except KeyboardInterrupt:
            out.stopped = "interrupted (Ctrl-C): the best evaluation so far is kept"
            out.interrupted = True
        out.evaluation = replace(out.evaluation, games=games, rounds=sum(1 for r in out.rounds if r.kept))
        out.evaluation = replace(out.evaluation, positions=self.positions)
        if not out.interrupted:
            out.evaluation = self.measure(out.evaluation, untrained)
        out.cpu_seconds = self.cpu()
        out.evaluation = replace(out.evaluation, cpu_seconds=out.cpu_seconds)
        return out

    def start(self) -> Evaluation:
        """Generation 0: the default rules' learnt evaluation (by feature name), or the hand-set weights."""
        base = hand_set_evaluation(self.rules)
        if self.config.start == "hand-set" or self.rules.name == "default":
            return base
        try:
            default = lookup(load_ruleset("default", fresh=True))
        except CuttleError:
            default = None
        if default is None:
            return base
        names = set(self.names)
        weights = {k: v for k, v in default.weights.items() if k in names}
        self.anchor_positions = default.positions  # what the default rules' evaluation was fitted on
        return replace(base, weights=weights, horizon=default.horizon, started_from="default's learnt evaluation")

    def measure(self, ev: Evaluation, untrained: Evaluation) -> Evaluation:
        """The gain of `ev` against the untrained evaluation; the untrained one if `ev` does not beat it."""
        if ev.weights == untrained.weights and ev.horizon == untrained.horizon:
            return ev
        try:
            w, lo, d = self.duel(
                ev, untrained, self.config.gain, seed=self.config.seed + 9_000_000, what="gain", cap=False
            )
        except KeyboardInterrupt:
            return ev
        n = w + lo + d
        score = (w + d / 2) / n if n else 0.0
        low, high = wilson(w + d / 2, n) if n else (0.0, 1.0)
        gain = Gain(n, w, lo, d, score, low, high)
        if score <= 0.5:
            return replace(untrained, games=ev.games, rounds=ev.rounds, positions=ev.positions, gain=gain)
        return replace(ev, gain=gain)

    # -- play ---------------------------------------------------------------------------------------
    def play_for_data(self, ev: Evaluation, n: int, rnd: Round) -> list[int]:
        """Self-play games with `ev` (and exploring moves); their positions join the data. Their lengths."""
        cfg = self.config
        turns: list[int] = []
        for i in range(cfg.games):
            self.check()
            self.progress(f"round {n}: self-play", i, cfg.games)
            seed = cfg.seed + 10_000 * n + i
            rows, result, length = self.self_play(ev, seed)
            self.played += 1
            turns.append(length)
            first = 0.5 if result == DRAW or result is None else float(result == 0)
            self.games.append(([f for f, _ in rows], [p for _, p in rows], first))
            self.positions += len(rows)
            rnd.games += 1
            rnd.positions += len(rows)
        return turns

    def self_play(self, ev: Evaluation, seed: int) -> tuple[list[tuple[list[float], int]], int | None, int]:
        rules = self.rules
        game = Game.new(rules, seed)
        seats = (Sharp(seed=2 * seed + 1, evaluation=ev), Sharp(seed=2 * seed + 2, evaluation=ev))
        lin = ev.linear(rules)
        rng = random.Random(f"train:{seed}")
        rows: list[tuple[list[float], int]] = []
        for _ in range(MAX_DECISIONS):
            d = game.decision
            if d is None:
                break
            st = game.state
            if st.pending.kind == MAIN:
                rows.append((lin.features(st, d.player), d.player))
                if rng.random() < self.config.explore:
                    game.play(explore(game, rng))
                    continue
            game.play(seats[d.player].choose(game))
        out = game.outcome
        return rows, None if out is None else out.winner, game.state.turn_no

    def duel(
        self, a: Evaluation, b: Evaluation, games: int, seed: int, what: str, cap: bool = True
    ) -> tuple[int, int, int]:
        """`a` against `b` on `games` // 2 deals, each played twice with the seats swapped: a's wins,
        losses, draws."""
        rules = self.rules
        w = lo = d = 0
        pairs = max(1, games // 2)
        for i in range(pairs):
            for a_seat in (0, 1):
                if cap:
                    self.check()
                self.progress(what, 2 * i + a_seat, 2 * pairs)
                s = seed + i
                game = Game.new(rules, s)
                evs = (a, b) if a_seat == 0 else (b, a)
                seats = (Sharp(seed=2 * s + 1, evaluation=evs[0]), Sharp(seed=2 * s + 2, evaluation=evs[1]))
                play(game, seats, MAX_DECISIONS)
                self.played += 1
                out = game.outcome
                if out is None or out.winner not in (0, 1):
                    d += 1
                elif out.winner == a_seat:
                    w += 1
                else:
                    lo += 1
        return w, lo, d

    # -- fit ----------------------------------------------------------------------------------------
    def fit(self, prior: Evaluation, games: int, n: int) -> Evaluation:
        """A new evaluation from every position of this training, pulled towards generation 0 as hard as
        `PRIOR_SHARE` of the positions it was itself fitted on (the default rules' evaluation, for a house
        rule: a little of this ruleset's games then moves it only where they say so clearly)."""
        self.progress(f"round {n}: fitting {self.positions:,} positions", 0, 1)
        beta0 = [self.anchor.weights.get(k, 0.0) / TEMPERATURE for k in self.names]
        ridge = max(RIDGE, PRIOR_SHARE * self.anchor_positions)
        now = [prior.weights.get(k, 0.0) / TEMPERATURE for k in self.names]
        beta = fit_td(self.games, beta0, ridge=ridge, start=now)
        weights = {k: b * TEMPERATURE for k, b in zip(self.names, beta, strict=True) if b}
        return replace(prior, weights=weights, gain=None)


def explore(game: Game, rng: random.Random) -> Move:
    """A random move: a verb drawn uniformly among the legal ones, then one of its moves."""
    by_verb: dict[str, list[Move]] = {}
    for m in game.legal_moves():
        by_verb.setdefault(m.verb, []).append(m)
    verb = rng.choice(sorted(by_verb))
    return rng.choice(by_verb[verb])


def fit_logistic(xs: Any, ys: Any, beta0: list[float], ridge: float = RIDGE) -> list[float]:
    """Logistic regression without an intercept (the features are differences between the sides) by
    Newton's method, with a ridge pulling each standardized coefficient towards `beta0`; a feature that
    never varies keeps its prior."""
    import numpy as np

    if len(xs) == 0:
        return list(beta0)
    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    b0 = np.asarray(beta0, dtype=float)
    scale = x.std(axis=0)
    live = scale > 1e-9
    b = b0.copy()
    xl, s2 = x[:, live], scale[live] ** 2
    fixed = x[:, ~live] @ b0[~live]
    bl = b0[live].copy()
    for _ in range(30):
        z = np.clip(xl @ bl + fixed, -30, 30)
        p = 1 / (1 + np.exp(-z))
        grad = xl.T @ (y - p) - ridge * s2 * (bl - b0[live])
        hess = (xl * (p * (1 - p))[:, None]).T @ xl + np.diag(ridge * s2)
        step = np.linalg.solve(hess, grad)
        bl += step
        if float(np.max(np.abs(step))) < 1e-7:
            break
    b[live] = bl
    return [float(v) if math.isfinite(v) else float(b0[i]) for i, v in enumerate(b)]


def fit_td(
    games: list[tuple[list[list[float]], list[int], float]],
    beta0: list[float],
    lam: float = LAMBDA,
    sweeps: int = 3,
    ridge: float = RIDGE,
    start: list[float] | None = None,
) -> list[float]:
    """TD(λ) for the linear-logistic evaluation, fitted by batches (after TD-Gammon, Tesauro 1995): each
    position's target is its λ-return — the evaluation's own estimates of the positions that followed
    it in its game, weighted (1 - λ) λ^k, and the game's result for the rest — from the deciding
    player's side; a logistic regression on those targets, then the targets again with the new weights,
    `sweeps` times. Targets that lean on later estimates are far less noisy than the result alone.
    `games`: each game's features (one row per main decision), its deciding players, and its result
    for the first seat (1 p1 won, 0 p2 won, ½ a draw). The ridge pulls towards `beta0`; the first
    targets are made with `start` (the best weights so far), else with `beta0`."""
    import numpy as np

    rows = [np.asarray(x, dtype=float) for x, _, _ in games if x]
    if not rows:
        return list(beta0)
    who = [np.asarray(p) for x, p, _ in games if x]
    results = [r for x, _, r in games if x]
    xs = np.vstack(rows)
    beta = list(start if start is not None else beta0)
    for _ in range(sweeps):
        b = np.asarray(beta)
        ys = []
        for x, p, result in zip(rows, who, results, strict=True):
            v = 1 / (1 + np.exp(-np.clip(x @ b, -30, 30)))
            u = np.where(p == 0, v, 1 - v)  # each position's estimate that p1 wins
            g = np.empty(len(u))
            ret = result
            for t in range(len(u) - 1, -1, -1):
                g[t] = ret
                ret = (1 - lam) * u[t] + lam * ret
            ys.append(np.where(p == 0, g, 1 - g))
        beta = fit_logistic(xs, np.concatenate(ys), beta0, ridge)
    return beta


def _quantile(values: list[int], q: float) -> int:
    if not values:
        return 1
    s = sorted(values)
    return max(1, s[min(len(s) - 1, int(q * len(s)))])


def save(rules: Rules, ev: Evaluation) -> str:
    """Keep `ev` in the user's cache folder (written whole or not at all); its path."""
    check_for(replace(ev, origin="(trained)"), rules)
    path = cached_path(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, to_text(ev))
    forget(rules)
    return str(path)


# -- what `cuttle train` prints -------------------------------------------------------------------------


def describe_rounds(t: Trained) -> list[str]:
    lines = []
    for r in t.rounds:
        n = r.wins + r.losses + r.draws
        duel = (
            f"the new evaluation against the previous: won {r.wins}, lost {r.losses}, drawn {r.draws} "
            f"({100 * r.score:.1f}%): {'kept' if r.kept else 'not kept'}"
            if n
            else "stopped before its duel"
        )
        lines.append(f"  round {r.number}: {r.games:,} self-play games, {r.positions:,} positions; {duel}")
    return lines


def learnt_lines(ev: Evaluation, start: Evaluation, most: int = 8) -> list[str]:
    """What training changed most: the weights that moved furthest from where they started, in the
    evaluation's units (a point still missing to the goal is worth about 1)."""
    moved = sorted(
        ((ev.weights.get(k, 0.0) - start.weights.get(k, 0.0), k) for k in set(ev.weights) | set(start.weights)),
        key=lambda m: -abs(m[0]),
    )
    shown = [
        f"{k} {start.weights.get(k, 0.0):+.1f} → {ev.weights.get(k, 0.0):+.1f}"
        for d, k in moved[:most]
        if abs(d) >= 0.05
    ]
    return (
        ["what it learnt (the weights that moved most; docs/players.md names the features): " + ", ".join(shown)]
        if shown
        else []
    )
