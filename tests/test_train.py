"""`cuttle train` (lab/train.py): self-play, fit, duel, keep the better; the fits recover what made the
results; the budget and Ctrl-C stop it with the best so far; the command saves a valid evaluation."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace

import pytest

from interpreter import load_ruleset
from interpreter.cli import main
from interpreter.lab.train import TrainConfig, Trainer, fit_logistic, fit_td, save
from interpreter.players.features import HAND_SET
from interpreter.players.learnt import cached_path, hand_set_evaluation, lookup, parse

TINY = TrainConfig(games=4, duel=4, gain=4, rounds=2, budget=600.0, seed=11, start="hand-set")


def test_the_logistic_fit_recovers_the_coefficients_that_made_the_results() -> None:
    rng = random.Random(1)
    true = [1.5, -0.7, 0.0]
    xs = [[rng.gauss(0, 1) for _ in true] for _ in range(6000)]
    ys = [float(rng.random() < 1 / (1 + math.exp(-sum(b * x for b, x in zip(true, row, strict=True))))) for row in xs]
    got = fit_logistic(xs, ys, [0.0, 0.0, 0.0], ridge=1.0)
    assert got == pytest.approx(true, abs=0.12)
    # a feature that never varies keeps its prior; a strong ridge keeps every weight near it
    xs2 = [row[:2] + [0.0] for row in xs]
    assert fit_logistic(xs2, ys, [0.0, 0.0, 0.3])[2] == 0.3
    assert fit_logistic(xs, ys, [0.0, 0.0, 0.0], ridge=1e7) == pytest.approx([0, 0, 0], abs=0.01)


def test_td_lambda_targets_lean_on_the_estimates_that_follow() -> None:
    """Two kinds of game: positions with x = +1 lead to p1's win, x = -1 to p2's. TD(λ) learns the
    sign from the results, and with λ = 1 it is the regression on the results alone."""
    rng = random.Random(2)
    games = []
    for _ in range(400):
        s = rng.choice((1.0, -1.0))
        xs = [[s * (1 if t % 2 == 0 else -1)] for t in range(6)]  # from the deciding side: alternating
        games.append((xs, [t % 2 for t in range(6)], 1.0 if (s > 0) == (rng.random() < 0.8) else 0.0))
    b = fit_td(games, [0.0], lam=0.7, ridge=1.0)
    assert b[0] > 0.5
    mc = fit_logistic(
        [x for g in games for x in g[0]],
        [g[2] if p == 0 else 1 - g[2] for g in games for p in g[1]],
        [0.0],
        ridge=1.0,
    )
    assert fit_td(games, [0.0], lam=1.0, sweeps=1, ridge=1.0) == pytest.approx(mc)


def test_a_round_is_kept_only_if_it_beats_the_one_before() -> None:
    rules = load_ruleset("default", fresh=True)
    trainer = Trainer(rules, TINY)
    bad = replace(hand_set_evaluation(rules), weights={"need": -1.0, "urgency": -50.0})  # plays to lose
    trainer.fit = lambda prior, games, n: bad  # type: ignore[method-assign]
    out = trainer.run()
    assert [r.kept for r in out.rounds] == [False]
    assert out.rounds[0].wins < out.rounds[0].losses
    assert out.stopped == "round 1 did not improve on the evaluation before it"
    assert out.evaluation.weights == HAND_SET and out.evaluation.rounds == 0


def test_the_budget_and_ctrl_c_stop_training_with_the_best_so_far() -> None:
    rules = load_ruleset("default", fresh=True)
    out = Trainer(rules, replace(TINY, budget=0.001)).run()
    assert out.stopped.startswith("the budget of") and out.rounds[0].games <= 1

    calls = []

    def interrupt(what: str, done: int, total: int) -> None:
        calls.append(what)
        if what.startswith("round 1: duel"):
            raise KeyboardInterrupt

    out = Trainer(rules, TINY, interrupt).run()
    assert out.interrupted and "Ctrl-C" in out.stopped
    assert out.evaluation.weights == HAND_SET  # round 1's fit was not yet kept
    assert out.evaluation.games == 4 and out.evaluation.gain is None


def test_a_trained_evaluation_is_saved_whole_and_played(tmp_path) -> None:
    rules = load_ruleset("default", fresh=True)
    out = Trainer(rules, TINY).run()
    assert out.rounds and out.evaluation.games == sum(r.games for r in out.rounds)
    assert out.evaluation.horizon >= 1 and out.evaluation.gain is not None
    path = save(rules, out.evaluation)
    try:
        back = parse(cached_path(rules).read_text(), path)
        assert back.weights == pytest.approx(out.evaluation.weights, abs=1e-5)
        assert lookup(rules) is not None
    finally:
        cached_path(rules).unlink()


def test_cuttle_train_says_what_it_did_and_refuses_to_train_twice(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    spec = tmp_path / "tiny.yaml"
    spec.write_text("name: tiny\nkind: base\nextends: default\nconstants:\n  hand_limit: 7\n")
    args = ["train", str(spec), "--games", "4", "--duel", "4", "--gain", "4", "--rounds", "1", "--seed", "3"]
    try:
        assert main(args) == 0
        out = capsys.readouterr().out
        assert "round 1: 4 self-play games" in out and "stopped:" in out and "saved " in out
        saved = json.loads(cached_path(load_ruleset(str(spec))).read_text())
        assert saved["ruleset"] == "tiny" and saved["trained"]["games"] == 4
        assert main(args) == 1
        assert "already trained" in capsys.readouterr().err
        with pytest.raises(SystemExit):  # a budget below a second is refused, naming the option
            main([*args, "--budget", "0"])
        assert "--budget must be a number from 1.0 to 86,400.0 (MAX_SECONDS), not 0" in capsys.readouterr().err
    finally:
        cached_path(load_ruleset(str(spec))).unlink(missing_ok=True)


def test_the_budget_keeps_back_what_the_final_measure_will_cost() -> None:
    """On a clock where every game costs one second, a budget of 12 with 4 games of final measure plays
    8 games for training and stays within 12 in all; the progress shown counts the self-play games
    played of the 50."""
    rules = load_ruleset("default", fresh=True)
    shown: list[tuple[str, int, int]] = []
    trainer = Trainer(rules, replace(TINY, games=50, budget=12.0, gain=4), lambda *a: shown.append(a))
    trainer.cpu = lambda: float(trainer.played)  # type: ignore[method-assign]
    out = trainer.run()
    assert [(d, n) for what, d, n in shown if what == "round 1: self-play"] == [(i, 50) for i in range(8)]
    assert out.stopped.startswith("the budget of 12 CPU seconds was spent in round 1's self-play, after 8 of its 50")
    assert out.rounds[0].games == 8 and trainer.played <= 12
    assert out.evaluation.games == 8  # the games training played are counted, fitted or not


def test_a_house_rule_is_fitted_close_to_the_default_rules_evaluation(tmp_path) -> None:
    """A house rule starts from the default rules' learnt evaluation and every fit is pulled towards it
    as hard as a tenth of the positions it was fitted on: a few games move it only a little."""
    spec = tmp_path / "limit.yaml"
    spec.write_text("name: limit\nkind: base\nextends: default\nconstants:\n  hand_limit: 7\n")
    rules = load_ruleset(str(spec), fresh=True)
    trainer = Trainer(rules, replace(TINY, start="auto", games=6))
    start = trainer.start()
    default = lookup(load_ruleset("default", fresh=True))
    assert default is not None and start.started_from == "default's learnt evaluation"
    assert trainer.anchor_positions == default.positions > 1000
    trainer.anchor = start
    from interpreter.lab.train import Round

    trainer.play_for_data(start, 1, Round(1, 0, 0))
    near = trainer.fit(start, 6, 1)
    trainer.anchor_positions = 0  # the same games with the least pull
    far = trainer.fit(start, 6, 1)
    gap = lambda ev: sum(abs(ev.weights.get(k, 0) - start.weights.get(k, 0)) for k in trainer.names)  # noqa: E731
    assert gap(near) < gap(far) / 5
