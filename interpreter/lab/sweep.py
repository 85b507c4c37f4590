"""`cuttle sweep RULESET --set KEY=V1,V2,...`: one ruleset played with a key set to each value in
turn (several --set: every combination, a grid), on the same seeds, and summarized per value.

    report = sweep("default", ["end.goal=18,21,24"], games=1000, players=("random", "random"))

Each value's ruleset is built as data (rules/overrides.py: the ruleset with one document merged
over it, as a file that `extends` it would be), so every value is checked like a ruleset file
before a game is played. The run is an ordinary lab run of several rulesets (sim.py's `run`):
game i of every value gets the same seed (paired), its games are kept in the store of `--out`
(side `v1`, `v2`, ... in the order of the grid) and a rerun of the same command resumes it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from interpreter.core.errors import CuttleError
from interpreter.engine.machine import prepare as prepare_engine
from interpreter.rules.overrides import Setting, load_with, parse_setting, values_of
from interpreter.rules.overrides import label as label_of

from .job import MAX_DECISIONS, Job, Side, canonical_player, game_seed, rules_of
from .learning import Notify, evaluations, learning
from .sim import Report, count, deals_alike, run

MAX_POINTS = 64  # rulesets in one sweep (every one plays every game)


def grid(settings: Sequence[Setting]) -> list[list[tuple[Setting, str]]]:
    """Every combination of the settings' values, the last --set varying fastest."""
    return [list(zip(settings, combo, strict=True)) for combo in itertools.product(*(s.values for s in settings))]


def prepare_sweep(
    spec: str,
    sets: Sequence[str],
    players: tuple[str, str],
    seed: int,
    max_decisions: int = MAX_DECISIONS,
    train: bool = False,
    notify: Notify | None = None,
) -> tuple[Job, dict[str, dict[str, Any]]]:
    """The run of a sweep (one side per point of the grid, `v1` ...) and each side's values; every
    problem (a bad --set, a value that makes no valid ruleset, a player) is raised before a game."""
    if not sets:
        raise CuttleError("give at least one --set KEY=V1,V2,... (for example --set end.goal=18,21,24)")
    settings = [parse_setting(t) for t in sets]
    keys = [s.key for s in settings]
    twice = next((k for k in keys if keys.count(k) > 1), None)
    if twice:
        raise CuttleError(f"--set {twice} is given twice: give all its values in one --set {twice}=V1,V2,...")
    points = grid(settings)
    if len(points) > MAX_POINTS:
        raise CuttleError(
            f"the --set values make {len(points)} rulesets, more than {MAX_POINTS}: sweep fewer values at once"
        )
    canon = (canonical_player(players[0]), canonical_player(players[1]))
    loaded = [load_with(spec, point) for point in points]
    learn = learning(canon)
    evs = evaluations(loaded, train, notify or (lambda line: None)) if learn else [None] * len(loaded)
    sides, values = [], {}
    for i, (point, rules, ev) in enumerate(zip(points, loaded, evs, strict=True)):
        prepare_engine(rules)  # the engine's generated code is part of loading, not of the first game's time
        side = Side.of(f"v{i + 1}", rules, ev)
        sides.append(side)
        values[side.label] = {"set": values_of(point), "label": label_of(point)}
    return Job(tuple(sides), canon, seed, max_decisions, learn), values


def sweep_pairing(job: Job) -> str:
    """Whether every value's game i starts from the same deal, in words."""
    seeds = [game_seed(job.seed, i) for i in range(3)]
    first = rules_of(job.sides[0])
    if all(deals_alike(first, rules_of(s), seeds) for s in job.sides[1:]):
        return "paired: game i of every value starts from the same deal (the same seeds)"
    return "the same seeds for every value, but some values deal differently, so game i is not the same deal under all"


def sweep(
    spec: str,
    sets: Sequence[str],
    games: int,
    players: tuple[str, str],
    seed: int = 0,
    jobs: int | None = None,
    cluster: str | None = None,
    out: str | Path | None = None,
    max_decisions: int = MAX_DECISIONS,
    progress: TextIO | None = None,
    train: bool = False,
    notify: Notify | None = None,
) -> Report:
    """`cuttle sweep`: play, store and summarize every value of the grid (each value's ruleset trained
    first with `train`, when a player plays with learnt evaluations)."""
    games, seed = count(games, "--games"), count(seed, "--seed")
    if jobs is not None:
        jobs = count(jobs, "--jobs")
    job, values = prepare_sweep(spec, sets, players, seed, count(max_decisions, "--max-decisions"), train, notify)
    report = run(job, games, "sweep", jobs, cluster, out, progress)
    report.values = values
    points = grid([parse_setting(t) for t in sets])
    report.points = {s.label: [(k.key, v) for k, v in p] for s, p in zip(job.sides, points, strict=True)}
    report.pairing = sweep_pairing(job)
    report.settings = f"{spec} " + " ".join(f"--set {t}" for t in sets)
    return report
