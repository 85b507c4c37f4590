"""Learnt evaluations as data (players/learnt.py): written and read back, refused with one line when
malformed or made for other rules, found in the user's cache before the shipped ones, and played by
`sharp` and `ismcts` unless `weights=default`."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset, make_player
from interpreter.players.evaluation import DEFAULT_SHARP, card_values, evaluate
from interpreter.players.learnt import (
    Evaluation,
    EvaluationError,
    Gain,
    cached_path,
    digest,
    lookup,
    parse,
    shipped,
    to_text,
    use,
)


def fresh(spec: str = "default"):
    return load_ruleset(spec, fresh=True)


def an_evaluation(rules, **weights: float) -> Evaluation:
    w = {"need": 1.0, "urgency": 40.0, "hand": 4.0, "in_play": 2.0, "hand:K": 3.0, **weights}
    return Evaluation(
        rules.name,
        rules.hash,
        33,
        w,
        games=10,
        rounds=1,
        positions=200,
        cpu_seconds=1.5,
        gain=Gain(20, 12, 7, 1, 0.625, 0.41, 0.8),
    )


def test_an_evaluation_round_trips_through_its_file() -> None:
    rules = fresh()
    ev = an_evaluation(rules)
    back = parse(to_text(ev), "x.json")
    assert replace(back, origin="") == ev
    assert json.loads(to_text(ev))["format"] == "cuttle-evaluation/1"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: "{", "not valid JSON"),
        (lambda d: [1], "expected a JSON object"),
        (lambda d: {**d, "code": "import os"}, "unknown key 'code'"),
        (lambda d: {k: v for k, v in d.items() if k != "weights"}, "missing key 'weights'"),
        (lambda d: {**d, "format": "cuttle-evaluation/9"}, "format must be"),
        (lambda d: {**d, "horizon": 0}, "'horizon' must be a whole number"),
        (lambda d: {**d, "horizon": True}, "'horizon' must be a whole number"),
        (lambda d: {**d, "weights": {"need": "1"}}, "the weight of 'need'"),
        (lambda d: {**d, "weights": {"need": 1e300}}, "the weight of 'need'"),
        (lambda d: {**d, "trained": {**d["trained"], "games": -1}}, "'trained.games'"),
        (lambda d: {**d, "trained": {**d["trained"], "gain": {"games": 3}}}, "missing key 'trained.gain.wins'"),
    ],
)
def test_a_malformed_file_is_refused_in_one_line(change, says: str) -> None:
    data = json.loads(to_text(an_evaluation(fresh())))
    text = json.dumps(change(data)) if not isinstance(change(data), str) else change(data)
    with pytest.raises(EvaluationError) as e:
        parse(text, "cache/abc.json")
    assert says in str(e.value) and "cache/abc.json" in str(e.value) and "\n" not in str(e.value)


def test_nan_and_infinity_are_refused() -> None:
    text = to_text(an_evaluation(fresh())).replace('"need": 1.0', '"need": NaN')
    with pytest.raises(EvaluationError, match="the weight of 'need'"):
        parse(text, "a.json")


def test_the_cache_is_read_through_the_projects_reader_and_checked_against_the_rules(tmp_path: Path) -> None:
    rules = fresh()
    path = cached_path(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.write_text(to_text(replace(an_evaluation(rules), hash="0" * 16)))
        with pytest.raises(EvaluationError, match="was made for rules of hash 0000"):
            lookup(rules)
        rules = fresh()
        path.write_text(to_text(an_evaluation(rules, **{"hand:Joker": 1.0})))
        with pytest.raises(EvaluationError, match="has no feature 'hand:Joker'"):
            lookup(rules)
        path.unlink()
        os.mkfifo(path)  # a FIFO at the file's place: refused at once, never waited on
        with pytest.raises(EvaluationError, match="not a regular file"):
            lookup(fresh())
    finally:
        path.unlink(missing_ok=True)


def test_the_users_own_evaluation_comes_before_the_shipped_one() -> None:
    rules = fresh()
    mine = an_evaluation(rules, need=2.5)
    path = cached_path(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.write_text(to_text(mine))
        found = lookup(rules)
        assert found is not None and found.weights["need"] == 2.5 and found.origin == str(path)
    finally:
        path.unlink()
    found = lookup(fresh())
    assert found is None or found.origin.startswith("shipped:")
    for ev in shipped().values():  # each shipped one is made for a shipped ruleset as it is now
        assert ev.origin.startswith("shipped:")


def test_an_evaluation_saved_during_the_run_is_played_from_then_on_and_described_as_the_users() -> None:
    """`cuttle train` saves an evaluation and forgets what the rules had kept: the linear evaluation the
    players read is then the new one, not the one read before; it is not described as shipped."""
    from interpreter.players.learnt import forget, linear_for

    rules = fresh()
    before = linear_for(rules)[1]
    mine = an_evaluation(rules, need=2.5)
    path = cached_path(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.write_text(to_text(mine))
        assert linear_for(rules)[1] is before  # (kept: the disk is asked once)
        forget(rules)
        now = linear_for(rules)[1]
        assert now is not None and now.weights["need"] == 2.5 and now.origin == str(path)
        assert "(shipped)" not in now.describe() and now.describe().startswith("the evaluation learnt from 10")
    finally:
        path.unlink()
    assert all(ev.describe().count(" (shipped)") == 1 for ev in shipped().values())


def test_sharp_and_ismcts_play_with_the_learnt_evaluation_unless_told_not_to() -> None:
    rules = fresh()
    ev = an_evaluation(rules, **{"hand:K": 30.0})
    use(rules, ev)
    g = Game.new(rules, 3).state
    learnt = ev.linear(rules).value(g, 0)
    hand_set = evaluate(g, 0, DEFAULT_SHARP, card_values(rules))
    assert learnt != hand_set
    for name in ("sharp", "ismcts"):
        assert make_player(name).scorer(rules)(g, 0) == learnt
        assert make_player(f"{name}?weights=default").scorer(rules)(g, 0) == hand_set
        assert make_player(f"{name}?hand=3").scorer(rules)(g, 0) != learnt  # changed hand-set weights
        assert "learnt from 10 self-play games" in make_player(name).evaluation_note(rules)
    use(rules, None)
    assert make_player("sharp").scorer(rules)(g, 0) == hand_set
    assert "untrained" in make_player("sharp").evaluation_note(rules)


def test_a_wrong_weights_option_is_refused() -> None:
    from interpreter.players.registry import PlayerError

    with pytest.raises(PlayerError, match="option weights takes auto .* or default"):
        make_player("sharp?weights=learnt")


def test_the_digest_follows_the_weights() -> None:
    rules = fresh()
    ev = an_evaluation(rules)
    assert digest(ev) == digest(replace(ev, games=999)) != digest(an_evaluation(rules, need=1.5))
    assert digest(None) == "hand-set"


def test_every_shipped_evaluation_is_made_for_a_shipped_ruleset_as_it_is_now() -> None:
    """A shipped ruleset whose play changed leaves its evaluation for the old hash: train it again
    (`python tools/train_shipped.py NAME`)."""
    from interpreter.lab.bench import shipped_specs

    now = {(rules := load_ruleset(spec)).hash: (name, rules.name) for name, spec in shipped_specs()}
    for h, ev in shipped().items():
        assert h in now, (
            f"{ev.origin} is for a play hash no shipped ruleset has: python tools/train_shipped.py {ev.ruleset}"
        )
        name, ruleset = now[h]  # an option is trained on the base it needs (best-of-5: default+best-of-5)
        assert ev.ruleset == ruleset and ev.origin == f"shipped:{name}.json"
