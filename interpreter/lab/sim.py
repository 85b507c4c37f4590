"""`cuttle sim` and `cuttle compare`: prepare a run, play its missing games into the store, and
summarize what is stored.

    report = simulate(["default"], games=1000, players=("random", "random"), seed=0, jobs=1)
    report = simulate(["default", "default+classic-2s"], games=1000, ...)     # a comparison

Games already in the output folder's database are not played again (a rerun resumes), and a
Ctrl-C keeps every game that finished (`Interrupted` says how many).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from interpreter.core.ceilings import whole
from interpreter.core.errors import CuttleError
from interpreter.engine.machine import deal
from interpreter.engine.machine import prepare as prepare_engine
from interpreter.rules import Rules, load_ruleset

from . import metrics, stats
from .bench import frozen_heap
from .catalog import catalog_of, rule_code
from .columns import Row
from .job import MAX_DECISIONS, Job, Side, canonical_player, evaluations_json, game_seed, players_note, rules_of
from .learning import Notify, evaluations, learning
from .parallel import BackendError
from .parallel import backend as make_backend
from .progress import Progress
from .store import Store

FLUSH_EVERY = 0.5  # seconds between commits of finished games


def _games_of(kept: int, total: int, sides: int, unit: str) -> str:
    """`kept` of `total` game numbers, each played under the run's `sides` rulesets (a comparison's
    two, a sweep's values: `unit` names one)."""
    if sides > 1:
        return f"{kept:,} of {total:,} games per {unit} ({kept * sides:,} of {total * sides:,} in all)"
    return f"{kept:,} of {total:,} games"


class Interrupted(CuttleError):
    """Ctrl-C during a run: the games that finished are stored."""

    def __init__(self, kept: int, total: int, where: Path | None, sides: int = 1, unit: str = "ruleset") -> None:
        self.kept, self.total, self.where = kept, total, where
        of = _games_of(kept, total, sides, unit)
        if where is None:
            msg = f"interrupted after {of}; nothing kept (give --out DIR to keep games and resume)"
        else:
            msg = f"interrupted: {of} kept in {where}; run the same command again to resume"
        super().__init__(msg)


class Stopped(BackendError):
    """The backend failed during a run (a Dask scheduler gone): what it was, and the games kept."""

    def __init__(
        self, why: str, kept: int, total: int, where: Path | None, sides: int = 1, unit: str = "ruleset"
    ) -> None:
        self.kept, self.total, self.where = kept, total, where
        of = _games_of(kept, total, sides, unit)
        if where is None:
            msg = f"{why}; {of} were played, none kept (give --out DIR to keep games and resume)"
        else:
            msg = f"{why}; {of} kept in {where}; run the same command again to resume"
        super().__init__(msg)


@dataclass
class Report:
    """Everything the reports show."""

    kind: str  # sim | compare
    games: int
    job: Job
    summaries: dict[str, dict[str, Any]]  # per side: metrics.summarize
    differences: dict[str, Any] | None = None  # compare: metrics.differences
    verdict: list[str] = field(default_factory=list)
    pairing: str = ""  # compare: whether the games are paired, in words
    per_game: dict[str, dict[str, list[Any]]] = field(default_factory=dict)  # per side: each measure, game by game
    played: int = 0  # games played now (not resumed)
    resumed: int = 0  # games found in the database
    elapsed: float = 0.0
    backend: str = ""
    database: Path | None = None
    values: dict[str, dict[str, Any]] = field(default_factory=dict)  # sweep: per side, {"set": {key: value}, "label"}
    settings: str = ""  # sweep: the --set options as given, for the title
    points: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # sweep: per side, (key, value as given)
    usage: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # per side: play -> 95% CI of uses a game
    steps: list[dict[str, Any]] = field(default_factory=list)  # sweep: each value against the one before (metrics.step)

    def players_note(self) -> dict[str, Any]:
        """Who played, and what that makes the numbers measure (job.players_note); the evaluations the
        learning players played with (job.evaluations_json), when they played."""
        out: dict[str, Any] = {"players_note": players_note(self.job.players)}
        learnt = evaluations_json(self.job)
        if learnt is not None:
            out["evaluations"] = learnt
        return out

    def json(self) -> Any:
        if self.kind == "sim":
            return {**self.summaries["a"], **self.players_note()}
        if self.kind == "sweep":
            steps = {x["to"]: x for x in self.steps}
            return [
                {
                    **self.values[s.label],
                    **self.summaries[s.label],
                    "pairing": self.pairing,
                    **({"from_previous": steps[s.label]} if s.label in steps else {}),
                    **self.players_note(),
                }
                for s in self.job.sides
            ]
        return {
            "a": self.summaries["a"],
            "b": self.summaries["b"],
            "differences": self.differences,
            "verdict": self.verdict,
            "pairing": self.pairing,
            "players": dict(zip(("p1", "p2"), self.job.players, strict=True)),
            **self.players_note(),
        }


def count(value: Any, option: str) -> int:
    """A whole number given on the command line, within its option's range (core/ceilings.py), or one
    clear error."""
    return whole(value, option)


def prepare(
    specs: Sequence[str],
    players: tuple[str, str],
    seed: int,
    max_decisions: int = MAX_DECISIONS,
    train: bool = False,
    notify: Notify | None = None,
) -> Job:
    """Load the rulesets and check the players; every problem is raised before anything is played.
    Players that play with learnt evaluations get each ruleset's (trained first when `train`: lab/learning.py)."""
    canon = (canonical_player(players[0]), canonical_player(players[1]))
    # the lab's own copy of each ruleset: its engine notes points and goals (rules_of), others' does not
    loaded = [load_ruleset(spec, fresh=True) for spec in specs]
    learn = learning(canon)
    evs = evaluations(loaded, train, notify or _quiet) if learn else [None] * len(loaded)
    sides = tuple(Side.of(label, r, ev) for label, r, ev in zip("ab", loaded, evs, strict=False))
    for side in sides:  # the engine's generated code is part of loading, not of the first game's time
        prepare_engine(rules_of(side))
    return Job(sides, canon, seed, max_decisions, learn)


def _quiet(line: str) -> None:
    pass


def pairing(job: Job) -> tuple[bool, str]:
    """Whether game i of A and game i of B start from the same deal, and that in words."""
    a, b = rules_of(job.sides[0]), rules_of(job.sides[1])
    if deals_alike(a, b, [game_seed(job.seed, i) for i in range(3)]):
        return True, "paired: game i of both rulesets starts from the same deal"
    return False, (
        f"not paired: {unlike(a, b)}, so game i cannot start from the same deal under both; "
        "differences use independent-sample intervals"
    )


def deals_alike(a: Rules, b: Rules, seeds: Sequence[int]) -> bool:
    """Whether two rulesets deal the same cards from the same seeds (so their games can be paired)."""
    for s in seeds:
        ga, gb = deal(a, s), deal(b, s)
        if ga.zones != gb.zones or ga.turn != gb.turn:
            return False
    return True


def unlike(a: Rules, b: Rules) -> str:
    """Why two rulesets do not deal alike, in a few words."""
    why = []
    if a.deck_cards != b.deck_cards:
        why.append(
            f"decks of {len(a.deck_cards)} and {len(b.deck_cards)} cards"
            if len(a.deck_cards) != len(b.deck_cards)
            else "different decks of the same size"
        )
    if a.deal != b.deal or a.deal_extra != b.deal_extra:
        why.append(
            f"deals of {'/'.join(map(str, a.deal))} and {'/'.join(map(str, b.deal))} cards"
            if a.deal != b.deal
            else "different cards dealt"
        )
    return f"{a.spec} and {b.spec} deal differently (" + (", ".join(why) or "another dealing order") + ")"


def play(
    job: Job,
    games: int,
    store: Store,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: TextIO | None = None,
    unit: str = "ruleset",
) -> tuple[int, int, float, str]:
    """Play the games of the run not yet stored; returns (played, resumed, seconds, backend name).
    `unit`: what each of the run's rulesets is, in an interruption's message (a sweep's value)."""
    done = store.done(games)
    work = [i for i in range(games) if i not in done]
    if not work:
        return 0, len(done), 0.0, "nothing to play"
    bar = Progress(len(work), progress or sys.stderr)
    bar.start_line()
    engine = make_backend(jobs, cluster, len(work))
    played = 0
    pending: list[Row] = []
    t0 = last = time.perf_counter()
    finished = interrupted = False
    failed: BackendError | None = None
    try:
        with frozen_heap(collect=False):  # a full collection would cost a short run ~1%
            for results in engine.map(job, work):
                pending.extend(results)
                bar.advance(len(results) // len(job.sides))
                now = time.perf_counter()
                if now - last >= FLUSH_EVERY:
                    played += store.add(pending)
                    pending.clear()
                    last = now
        finished = True
    except KeyboardInterrupt:
        interrupted = True
    except BackendError as e:  # the backend failed on the way (a Dask scheduler gone): say what is kept
        failed = e
    finally:
        if pending:  # every game that finished is kept, whatever stopped the run
            played += store.add(pending)
        bar.close()
        engine.close(cancel=not finished)
    if interrupted:
        raise Interrupted(len(done) + played, games, store.path, len(job.sides), unit)
    if failed is not None:
        raise Stopped(str(failed), len(done) + played, games, store.path, len(job.sides), unit) from None
    return played, len(done), time.perf_counter() - t0, engine.name


def usage_intervals(store: Store, side: str, games: int) -> dict[str, list[float]]:
    """Per play and response (a response named `NAME (response)`): the 95% interval of the mean
    times it was used a game, both seats together (the report's usage bars)."""
    used = [a + b for a, b in zip(*store.games(side, games, ["p1_used", "p2_used"]).values(), strict=True)]
    out = {}
    rules = store.query("SELECT rule, kind, name FROM rules WHERE side = ? AND kind IN ('play', 'response')", (side,))
    for rule, kind, name in rules:
        ch = rule_code(rule)
        _, lo, hi = stats.mean_ci([u.count(ch) for u in used])
        out[name + (" (response)" if kind == "response" else "")] = [max(0.0, lo), hi]
    return out


def simulate(
    specs: Sequence[str],
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
    """`cuttle sim` (one ruleset) or `cuttle compare` (two): play, store, summarize. With `train`, a
    ruleset without a learnt evaluation is trained first when a player plays with one."""
    games, seed = count(games, "--games"), count(seed, "--seed")
    if jobs is not None:
        jobs = count(jobs, "--jobs")
    job = prepare(specs, players, seed, count(max_decisions, "--max-decisions"), train, notify)
    return run(job, games, "sim" if len(job.sides) == 1 else "compare", jobs, cluster, out, progress)


def run(
    job: Job,
    games: int,
    kind: str,
    jobs: int | None = None,
    cluster: str | None = None,
    out: str | Path | None = None,
    progress: TextIO | None = None,
) -> Report:
    """Play the run's missing games into its store (in `out`, resumed from it) and summarize each
    ruleset; a comparison (two rulesets) also gets the differences and a verdict."""
    paired, words = pairing(job) if kind == "compare" else (False, "")
    store = Store.open(job, [catalog_of(rules_of(s)) for s in job.sides], out)
    try:
        unit = "value" if kind == "sweep" else "ruleset"
        played, resumed, elapsed, name = play(job, games, store, jobs, cluster, progress, unit)
        summaries = {s.label: metrics.summarize(store, s.label, games) for s in job.sides}
        report = Report(
            kind,
            games,
            job,
            summaries,
            pairing=words,
            played=played,
            resumed=resumed,
            elapsed=elapsed,
            backend=name,
            database=store.path,
        )
        for s in job.sides:
            report.per_game[s.label] = metrics.per_game(store, s.label, games)
            report.usage[s.label] = usage_intervals(store, s.label, games)
        if kind == "sweep":  # each value against the one before it, on the same game numbers
            seeds = [game_seed(job.seed, i) for i in range(3)]
            report.steps = [
                metrics.step(store, games, a.label, b.label, deals_alike(rules_of(a), rules_of(b), seeds))
                for a, b in zip(job.sides, job.sides[1:], strict=False)
            ]
        if kind == "compare":
            report.differences = metrics.differences(store, games, paired, summaries)
            a, b = job.sides
            report.verdict = metrics.verdict(report.differences, a.show(b), b.show(a))
        return report
    finally:
        store.close()
