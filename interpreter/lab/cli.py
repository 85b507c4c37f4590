"""The lab's commands, `cuttle sim`, `cuttle compare`, `cuttle sweep` and `cuttle match`: what they do with their
arguments, and what they print and write (the arguments are declared in interpreter/cli.py)."""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.core.errors import CuttleError
from interpreter.core.terminal import json_text, say
from interpreter.rules import load_ruleset
from interpreter.scripting.records import writable, write_atomic

from . import matches, report_html, report_md, report_text
from .divergence import describe, first_difference
from .job import MAX_DECISIONS, players_line, players_note, rules_of
from .sim import Interrupted, Report, count, pairing, prepare, simulate, unlike
from .sweep import sweep as run_sweep
from .table import render as render_table
from .table import simulate_table


def _players(a: argparse.Namespace) -> tuple[str, str]:
    both = a.players or "random"
    return (a.p1 or both, a.p2 or both)


def _clean(x: Any) -> Any:
    """JSON without NaN (null instead), for strict parsers."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_clean(v) for v in x]
    return x


def _finish(report: Report, a: argparse.Namespace) -> int:
    if a.json:
        say(json_text(_clean(report.json())))
    else:
        say(report_text.render(report, sys.stdout), colour=True)
    if a.out:
        folder = Path(a.out)
        write_atomic(folder / "report.html", report_html.render(report))
        write_atomic(folder / "report.md", report_md.render(report))
        say(
            f"wrote {folder / 'report.html'} and {folder / 'report.md'}; every game is in {report.database}",
            stream=sys.stderr if a.json else sys.stdout,
        )
    return 0


def _run(specs: list[str], a: argparse.Namespace) -> int:
    return _played(a, functools.partial(simulate, specs))


def _played(a: argparse.Namespace, play: Callable[..., Report]) -> int:
    """Run a lab command's games (`play` given the options every such command shares), then print or
    write its report; Ctrl-C ends it with status 130 and a line saying what was kept."""
    if a.out:  # a report that could not be written is said before the games are played, not after
        for name in ("report.html", "report.md"):
            writable(Path(a.out) / name)
    try:
        report = play(
            count(a.games, "--games"),
            _players(a),
            a.seed,
            None if a.jobs is None else count(a.jobs, "--jobs"),
            a.cluster,
            a.out,
            count(a.max_decisions or MAX_DECISIONS, "--max-decisions"),
            train=not a.no_train,
            notify=_notify(a),
        )
    except Interrupted as e:
        say(f"cuttle {a.command}: {e}", err=True)
        return 130
    return _finish(report, a)


def _notify(a: argparse.Namespace) -> Callable[[str], None]:
    """Where a lab command says what it does before its games (training an evaluation): standard error,
    so that standard output holds only the report (or its JSON)."""
    return lambda line: say(f"cuttle {a.command}: {line}", err=True)


def sim(a: argparse.Namespace) -> int:
    if _seats(a.ruleset) > 2:
        return _table(a)
    return _run([a.ruleset], a)


def _seats(spec: str) -> int:
    """How many players a ruleset seats (its name or file is checked by the lab's own loading after)."""
    try:
        return load_ruleset(spec).seats
    except CuttleError:
        return 2  # (the two-seat run reports the problem the usual way)


def _table(a: argparse.Namespace) -> int:
    """`cuttle sim` at a table of three or four (lab/table.py): a summary printed, no database."""
    if a.out or a.cluster:
        raise CuttleError(
            f"{'--out' if a.out else '--cluster'}: the games database and the cluster hold two-seat games; "
            f"at a table of {_seats(a.ruleset)} cuttle sim prints its summary (or --json)"
        )
    players = (a.players or "random").split(",")
    if a.p1 or a.p2:
        raise CuttleError(
            "--p1/--p2 name two seats: at a larger table write --players NAME or NAME,NAME,... (one a seat)"
        )
    try:
        report = simulate_table(
            a.ruleset,
            count(a.games, "--games"),
            [p.strip() for p in players],
            a.seed,
            None if a.jobs is None else count(a.jobs, "--jobs"),
            count(a.max_decisions or MAX_DECISIONS, "--max-decisions"),
        )
    except KeyboardInterrupt:
        say(f"cuttle {a.command}: interrupted; nothing kept", err=True)
        return 130
    say(json_text(_clean(report.json())) if a.json else render_table(report))
    return 0


def _two_seats(*specs: str) -> None:
    """`compare` and `sweep` hold two-seat games (the games database's columns are p1's and p2's)."""
    for spec in specs:
        n = _seats(spec)
        if n > 2:
            raise CuttleError(
                f"{spec} seats {n} players: cuttle compare and sweep are for two-seat rulesets (cuttle sim plays it)"
            )


def compare(a: argparse.Namespace) -> int:
    _two_seats(a.a, a.b)
    if not a.until_different:
        return _run([a.a, a.b], a)
    games = count(a.games, "--games")
    job = prepare(
        [a.a, a.b],
        _players(a),
        a.seed,
        count(a.max_decisions or MAX_DECISIONS, "--max-decisions"),
        not a.no_train,
        _notify(a),
    )
    a_rules, b_rules = rules_of(job.sides[0]), rules_of(job.sides[1])
    if not pairing(job)[0]:
        raise CuttleError(f"--until-different plays the same deals under both rulesets, but {unlike(a_rules, b_rules)}")
    try:
        found, played = first_difference(job, games)
    except KeyboardInterrupt:
        say(f"cuttle {a.command}: interrupted", err=True)
        return 130
    players = {"players": dict(zip(("p1", "p2"), job.players, strict=True)), "players_note": players_note(job.players)}
    if a.json:
        say(json_text({**(found.json() if found else {"found": False, "games": played}), **players}))
    else:
        sa, sb = job.sides
        say(describe(found, played, sa.show(sb), sb.show(sa)))
        say(players_line(job.players))
    return 0


def sweep(a: argparse.Namespace) -> int:
    _two_seats(a.ruleset)
    return _played(a, functools.partial(run_sweep, a.ruleset, a.sets))


def match(a: argparse.Namespace) -> int:
    try:
        lines = matches.match(a.ruleset, a.p1, a.p2, a.games, a.seed, a.jobs)
    except KeyboardInterrupt:
        say("cuttle match: interrupted; no summary (the games are played again on a rerun)", err=True)
        return 130
    for line in lines:
        say(line)
    return 0


def train(a: argparse.Namespace) -> int:
    """`cuttle train R`: learn an evaluation for R by self-play and keep it in the user's cache folder."""
    import time

    from interpreter.core.terminal import status
    from interpreter.players.learnt import cached_path, hand_set_evaluation
    from interpreter.rules import load_ruleset

    from .progress import clock
    from .train import TrainConfig, Trainer, describe_rounds, learnt_lines, save

    rules = load_ruleset(a.ruleset)
    if rules.seats > 2:  # (the learnt features compare one player with one opponent: players/sharp.py)
        raise CuttleError(
            f"{a.ruleset} seats {rules.seats} players: cuttle train learns two-player evaluations "
            "(at a larger table, sharp and ismcts play the hand-set one, against the strongest opponent)"
        )
    path = cached_path(rules)
    if (path.exists() or path.is_symlink()) and not a.force:
        raise CuttleError(f"{rules.name} is already trained ({path}); --force trains it again")
    config = TrainConfig(
        games=a.games, duel=a.duel, gain=a.gain, rounds=a.rounds, budget=a.budget, seed=a.seed, start=a.start
    )
    live = sys.stderr.isatty()
    t0 = time.process_time()

    def progress(what: str, done: int, total: int) -> None:
        if live:
            spent = time.process_time() - t0
            status(
                sys.stderr,
                f"{what} {done}/{total} · {clock(spent)} of {clock(config.budget)} CPU · Ctrl-C keeps the best so far",
            )

    say(f"cuttle train {a.ruleset} (hash {rules.hash}): self-play, fit, duel; a budget of {config.budget:.0f} s of CPU")
    trainer = Trainer(rules, config, progress)
    start = trainer.start()
    say(
        f"starting from {start.started_from}"
        if start.started_from != "hand-set"
        else "starting from the hand-set evaluation"
    )
    trained = trainer.run()
    if live:
        status(sys.stderr, None)
    for line in describe_rounds(trained):
        say(line)
    say(f"stopped: {trained.stopped}")
    ev = trained.evaluation
    if ev.gain is not None:
        g = ev.gain
        verdict = (
            "kept" if ev.weights != hand_set_evaluation(rules).weights else "not better: the untrained weights are kept"
        )
        say(
            f"against the untrained evaluation (fresh paired deals): won {g.wins}, lost {g.losses}, drawn {g.draws} "
            f"of {g.games}: {100 * g.score:.1f}% (95% interval {100 * g.low:.1f}-{100 * g.high:.1f}%): {verdict}"
        )
    for line in learnt_lines(ev, start):
        say(line)
    where = save(rules, ev)
    say(f"saved {where} ({trained.cpu_seconds:.0f} s of CPU); sharp and ismcts play with it under these rules")
    return 130 if trained.interrupted else 0
