"""The lab with players that learn (lab/learning.py): a ruleset without an evaluation is trained first
unless --no-train, the report says which evaluation played, and a database is never resumed with games
of another evaluation."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.cli import main
from interpreter.core.errors import CuttleError
from interpreter.lab import learning
from interpreter.lab.sim import simulate
from interpreter.lab.train import TrainConfig
from interpreter.players.learnt import Evaluation, cached_path, to_text

TINY = TrainConfig(games=4, duel=4, gain=4, rounds=1, seed=2, start="hand-set")


@pytest.fixture
def house(tmp_path: Path) -> Path:
    rule = tmp_path / "house.yaml"
    rule.write_text("name: house\nkind: base\nextends: default\nconstants:\n  hand_limit: 7\n")
    yield rule
    cached_path(load_ruleset(str(rule))).unlink(missing_ok=True)


def test_a_run_trains_first_unless_told_not_to(house: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(learning, "TrainConfig", lambda: TINY)
    args = ["sim", str(house), "--players", "sharp", "--games", "2", "--jobs", "1"]
    assert main([*args, "--no-train"]) == 0
    captured = capsys.readouterr()
    assert "house: no learnt evaluation; the players play the hand-set one (--no-train)" in captured.err
    assert "evaluations: sharp and ismcts play with the hand-set evaluation (untrained)" in captured.out
    assert not cached_path(load_ruleset(str(house))).exists()
    assert main(args) == 0
    captured = capsys.readouterr()
    assert "cuttle sim: training an evaluation for house first" in captured.err
    assert cached_path(load_ruleset(str(house))).exists()
    assert "evaluations: sharp and ismcts play with " in captured.out and "self-play games of house" in captured.out
    assert main(args) == 0  # trained once: the next run uses it without a word on standard error
    assert "training" not in capsys.readouterr().err


def test_random_players_neither_train_nor_say_anything(house: Path, capsys) -> None:
    assert main(["sim", str(house), "--games", "2", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "evaluations" not in data and not cached_path(load_ruleset(str(house))).exists()


def test_a_database_is_not_resumed_with_another_evaluation(house: Path, tmp_path: Path) -> None:
    rules = load_ruleset(str(house))
    first = Evaluation(rules.name, rules.hash, 30, {"need": 1.0, "urgency": 50.0, "hand": 5.0, "hand:K": 2.0})
    cached_path(rules).parent.mkdir(parents=True, exist_ok=True)
    cached_path(rules).write_text(to_text(first))
    out = tmp_path / "run"
    report = simulate([str(house)], 2, ("sharp", "sharp"), out=out, jobs=1)
    assert report.json()["evaluations"]["a"]["describe"].startswith("the evaluation learnt from 0 self-play games")
    simulate([str(house)], 3, ("sharp", "sharp"), out=out, jobs=1)  # the same evaluation: resumed
    cached_path(rules).write_text(to_text(replace(first, weights={**first.weights, "hand:K": 4.0})))
    with pytest.raises(CuttleError, match="another run"):
        simulate([str(house)], 3, ("sharp", "sharp"), out=out, jobs=1)


def test_the_run_carries_its_evaluations_to_its_workers(house: Path) -> None:
    """Two worker processes play with the evaluation the run decided, whatever their cache holds."""
    rules = load_ruleset(str(house))
    ev = Evaluation(rules.name, rules.hash, 30, {"need": 1.0, "urgency": 50.0, "hand": 5.0, "hand:9": 9.0})
    cached_path(rules).parent.mkdir(parents=True, exist_ok=True)
    cached_path(rules).write_text(to_text(ev))
    one = simulate([str(house)], 4, ("sharp", "sharp"), jobs=1)
    two = simulate([str(house)], 4, ("sharp", "sharp"), jobs=2)
    assert one.summaries["a"]["p1_wins"] == two.summaries["a"]["p1_wins"]
    assert one.summaries["a"]["turns"] == two.summaries["a"]["turns"]
