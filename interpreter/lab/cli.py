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
from interpreter.scripting.records import writable, write_atomic

from . import matches, report_html, report_md, report_text
from .divergence import describe, first_difference
from .job import MAX_DECISIONS, players_line, players_note, rules_of
from .sim import Interrupted, Report, count, pairing, prepare, simulate, unlike
from .sweep import sweep as run_sweep


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
        )
    except Interrupted as e:
        say(f"cuttle {a.command}: {e}", err=True)
        return 130
    return _finish(report, a)


def sim(a: argparse.Namespace) -> int:
    return _run([a.ruleset], a)


def compare(a: argparse.Namespace) -> int:
    if not a.until_different:
        return _run([a.a, a.b], a)
    games = count(a.games, "--games")
    job = prepare([a.a, a.b], _players(a), a.seed, count(a.max_decisions or MAX_DECISIONS, "--max-decisions"))
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
