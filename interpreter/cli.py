"""The `cuttle` command: play, run, replay, check, rules, diff, bench, sim, compare, sweep, match, players, solve."""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from interpreter.core.ceilings import arg_type
from interpreter.core.errors import CuttleError, RulesetErrors, name_text
from interpreter.core.terminal import json_text, say, status
from interpreter.language.phrasing import counted

COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int], str]] = {}


def command(name: str, help: str):
    def deco(fn):
        def add_args(p: argparse.ArgumentParser) -> None:
            for args, kw in getattr(fn, "_args", []):
                p.add_argument(*args, **kw)

        COMMANDS[name] = (add_args, fn, help)
        return fn

    return deco


def arg(*args, **kw):
    def deco(fn):
        fn._args = [(args, kw)] + getattr(fn, "_args", [])
        return fn

    return deco


def _number(option: str) -> Callable[[str], Any]:
    """The argparse type of a numeric option: its range checked in one place (core/ceilings.py)."""
    return arg_type(option)


RULESET_HELP = "a shipped ruleset (default), a combination (default+classic-2s), or a YAML file"


@command("play", "play a game in the terminal, against the bot or hot-seat")
@arg("--ruleset", "-r", default=None, help=RULESET_HELP + " (default: default)")
@arg("--seed", type=_number("--seed"), default=None, help="the seed of the deal (random if omitted)")
@arg(
    "--from",
    dest="from_file",
    metavar="FILE",
    default=None,
    help="play on from a position: a scenario (`scenario FILE --here` exports one) or a saved game; "
    "its ruleset and seed are the file's",
)
@arg(
    "--vs",
    default="bot",
    metavar="NAME",
    help="the opponent: a player name (bot = heuristic, ismcts, ismcts:strong, random; see `cuttle players`), "
    "or human for hot-seat; at a table of more seats, one name for every other seat or a comma-separated "
    "list naming each in seat order (--vs sharp,human: p2 sharp, p3 a second human)",
)
@arg("--as", dest="as_player", choices=["1", "2", "3", "4"], default="1", help="which player you are (p1 moves first)")
def cmd_play(a: argparse.Namespace) -> int:
    if a.from_file is not None and (a.ruleset is not None or a.seed is not None):
        given = "--ruleset" if a.ruleset is not None else "--seed"
        say(f"cuttle play: --from {a.from_file} plays the file's own ruleset and deal: leave out {given}", err=True)
        return 2
    from interpreter.players.learnt import lookup
    from interpreter.players.registry import make_player
    from interpreter.rules import load_ruleset

    for name in a.vs.split(","):  # (at a table of more seats, a player for each other seat)
        if name.strip() in ("human", ""):
            continue
        bot = make_player(name.strip())  # an unknown player is refused before the game starts
        if getattr(bot, "learnt", False):
            lookup(load_ruleset(a.ruleset or "default"))  # and so is a malformed learnt evaluation in the cache folder
    from repl.app import main as repl_main

    return repl_main(a)


@command("players", "list the players that --vs, the lab and cuttle match take")
def cmd_players(a: argparse.Namespace) -> int:
    from interpreter.players.ratings import measured, source, strength
    from interpreter.players.registry import players

    table = players()
    data = measured()
    width = max(len(n) for n in table)
    for name, text in table.items():
        say(f"  {name:<{width}}  {text}")
        how_strong = strength(name, data, {"bot": "heuristic"})
        if how_strong:
            say(f"  {'':<{width}}  {how_strong}")
    if data:
        say(source(data))
    say("options: NAME?key=value&key=value, e.g. ismcts?iterations=4000")
    say(_evaluations_text())
    return 0


def _evaluations_text() -> str:
    """What `cuttle players` says of learnt evaluations: who uses them, which are shipped, which trained here."""
    from interpreter.players.learnt import cache_folder, shipped

    names = sorted({ev.ruleset for ev in shipped().values()})
    here = cache_folder()
    try:
        mine = sum(1 for p in here.iterdir() if p.suffix == ".json") if here.is_dir() else 0
    except OSError:
        mine = 0
    return (
        "evaluations: sharp and ismcts play a ruleset with its learnt evaluation when it has one (weights=auto; "
        "weights=default plays the hand-set one): shipped for "
        + (", ".join(names) if names else "none")
        + f"; {mine} trained here ({here}); `cuttle train RULESET` learns one by self-play"
    )


@command("solve", "solve an open position exactly: win, draw or loss under perfect play, and a best move")
@arg("target", help="a ruleset (with --seed: the deal) or a scenario file (its position after its moves)")
@arg("--seed", type=_number("--seed"), default=0, help="the seed of the deal (for a ruleset)")
@arg("--nodes", type=_number("--nodes"), default=2_000_000, help="node budget")
@arg("--seconds", type=_number("--seconds"), default=60.0, help="time budget")
@arg("--all", dest="all_moves", action="store_true", help="also the value of every legal move")
@arg(
    "--method",
    choices=("dfpn", "alphabeta"),
    default="dfpn",
    help="proof-number search (default) or alpha-beta: both exact",
)
def cmd_solve(a: argparse.Namespace) -> int:
    from interpreter.players.solver import Solver

    game, what = _solve_target(a.target, a.seed)
    d = game.decision
    if d is None:
        say(f"{what}: the game is over ({game.outcome})")
        return 0
    say(f"{what}: p{d.player + 1} to decide ({d.kind})")
    solver = Solver(a.nodes, a.seconds, a.method)
    if getattr(a, "exit_at_once", False):
        import gc

        gc.disable()  # (the solver pauses it while it searches; left off, nothing walks its tables after)
    if sys.stderr.isatty():
        solver.progress = _solve_progress(a.seconds)
    try:
        s = solver.solve_game(game, a.all_moves)
    finally:
        if solver.progress is not None:
            status(sys.stderr, None)
    code = _solve_report(s)
    if getattr(a, "exit_at_once", False):
        # the solver's tables can be millions of objects: freeing them one by one took 15-30 s after
        # a long solve, so a command that is done leaves them to the system
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _solve_progress(seconds: float) -> Callable[[int], None]:
    """A progress line for a long solve: the nodes searched and the time, redrawn once a second."""
    t0 = last = time.perf_counter()

    def tick(nodes: int) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= 1.0:
            last = now
            status(sys.stderr, f"solving: {nodes:,} nodes, {now - t0:.0f} s of {seconds:g} (Ctrl-C to stop)")

    return tick


def _solve_report(s: Any) -> int:
    if not s.complete:
        say(f"  {s.describe()}")
        return 130 if s.stopped else 1
    say(f"  result: {s.result} for p{s.player + 1} under perfect play")
    say(f"  best move: {s.move}")
    if s.line:
        say(f"  line: {', '.join(str(m) for m in s.line[:16])}" + (" ..." if len(s.line) > 16 else ""))
    for m, v in sorted(s.moves.items(), key=lambda mv: -mv[1]):
        say(f"    {m:<20} {dict(((1, 'win'), (0, 'draw'), (-1, 'loss')))[v]}")
    say(f"  {s.nodes:,} nodes in {s.seconds:.2f} s")
    return 0


def _solve_target(target: str, seed: int):
    """A ruleset and seed (the deal), or a scenario file (its position after its moves)."""
    from pathlib import Path

    from interpreter.core.files import read_text
    from interpreter.engine.game import Game
    from interpreter.rules import load_ruleset
    from interpreter.rules.yamlsrc import load_yaml

    if target.endswith((".yaml", ".yml")) and Path(target).exists():
        data = load_yaml(read_text(target, "file"), target).data  # (FileProblem is the project's error)
        if isinstance(data, dict) and ({"setup", "moves", "expect"} & set(data)):
            from interpreter.scripting.scenario import scenario_game

            return scenario_game(target), f"scenario {target}"
    return Game.new(load_ruleset(target), seed), f"{target}, seed {seed}"


@command("run", "run scenario files (or directories of them) like tests")
@arg("paths", nargs="+", help="scenario files or directories")
@arg("--ruleset", "-r", default=None, help="run every scenario under this ruleset instead of its own")
@arg("--quiet", "-q", action="store_true", help="print only failures and the summary")
def cmd_run(a: argparse.Namespace) -> int:
    from interpreter.scripting.scenario import collect, run_file

    files = collect(a.paths)
    missing = [f for f, root in files if root is None and not f.exists()]  # named by the user
    if missing:
        say(f"cuttle run: no such file: {name_text(missing[0])}", err=True)
        return 2
    if not files:  # only folders were named, and none holds a scenario
        say(f"cuttle run: no scenario file (*.yaml) in {', '.join(map(name_text, a.paths))}", err=True)
        return 1
    passed = failed = 0
    for f, root in files:
        res = run_file(f, a.ruleset, root)
        # names on one line each (a file named `z\nPASS ...` cannot add a result line); a failure's
        # own lines are indented under its FAIL line
        shown = f"{name_text(f)}  {name_text(res.name)}"
        if res.ok:
            passed += 1
            if not a.quiet:
                say(f"PASS {shown}")
        else:
            failed += 1
            say(f"FAIL {shown}")
            for line in res.failures:
                say("  " + line.replace("\n", "\n  "))
    say(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


@command("replay", "step through a saved game record (next, prev, goto N), or print it whole with --print")
@arg("file", help="a game record written by `save` in the REPL or by the API")
@arg("--force", action="store_true", help="replay even if the ruleset has changed since")
@arg(
    "--view",
    choices=["1", "2", "3", "4", "all"],
    default=None,
    help="whose side to show: a seat, 1 to the record's number of players (the others' hidden cards stay "
    "hidden), or all (every hand); default: all for a finished game, P1's side for one still in play",
)
@arg(
    "--print",
    dest="print_all",
    action="store_true",
    help="print every move, told from that side, then the final board, instead of stepping through",
)
def cmd_replay(a: argparse.Namespace) -> int:
    if not a.print_all:
        from repl.app import replay_main

        return replay_main(a)
    from repl.app import print_replay

    return print_replay(a)


@command("check", "validate a ruleset file and report every problem")
@arg("files", nargs="+", help="ruleset files or names")
def cmd_check(a: argparse.Namespace) -> int:
    from interpreter.rules import check

    bad = 0
    for f in a.files:
        errors = check(f)
        if errors:
            bad += 1
            for e in errors:
                say(e.render())
            say(f"{name_text(f)}: {counted(len(errors), 'problem')}")
        else:
            say(f"{name_text(f)}: ok")
    return 1 if bad else 0


@command("rules", "print a ruleset as a readable rules page (no name: list the shipped rulesets)")
@arg("name", nargs="?", help=RULESET_HELP + "; without it, every shipped base and option is listed")
def cmd_rules(a: argparse.Namespace) -> int:
    from interpreter.rules import load_ruleset
    from interpreter.rules.page import rules_page

    if a.name is None:
        say(_fit(_catalogue_text()))
        return 0
    say(_fit(rules_page(load_ruleset(a.name))))
    return 0


def _catalogue_text() -> str:
    """The shipped rulesets, bases then options, each with its one-line description."""
    from interpreter.rules.sources import shipped_catalogue

    rows = shipped_catalogue()
    width = max(len(name) for name, _, _ in rows)
    lines: list[str] = []
    for bases, title in ((True, "Bases (a game on its own):"), (False, "Options (add to a base with +):")):
        lines += [title] + [f"  {n.ljust(width)}  {d}" for n, k, d in rows if (k == "base") == bases] + [""]
    lines.append("Combine them as BASE+OPTION+... (e.g. default+classic-2s+twinned); `cuttle rules NAME` prints one.")
    return "\n".join(lines)


@command("code", "print the Python generated for a ruleset's rules (or for one rule), each named after its rule")
@arg("name", help=RULESET_HELP)
@arg(
    "rule", nargs="?", help="a rule's path, e.g. plays.scuttle (every part of it) or end.goal; engine: the engine's own"
)
def cmd_code(a: argparse.Namespace) -> int:
    from interpreter.engine.code import code_text, generated_code, select

    say(code_text(select(generated_code(a.name), a.rule)))
    return 0


@command("diff", "print what ruleset B changes against ruleset A")
@arg("a", help=RULESET_HELP)
@arg("b", help=RULESET_HELP)
def cmd_diff(a: argparse.Namespace) -> int:
    from interpreter.rules import load_ruleset
    from interpreter.rules.page import diff_rules

    say(_fit(diff_rules(load_ruleset(a.a), load_ruleset(a.b))))
    return 0


def _fit(text: str) -> str:
    """Text wrapped at word boundaries to the terminal's width (unchanged when not printed to one)."""
    from interpreter.core.terminal import terminal_width
    from repl.wrap import wrap

    return wrap(text, terminal_width())


@command("bench", "random-playout speed: games and decisions per second (one core, or --jobs N processes)")
@arg(
    "--ruleset",
    "-r",
    default="default",
    help=RULESET_HELP + "; an option alone is played on its base (twinned: default+twinned)",
)
@arg("--games", type=_number("--games"), default=300, help="games per run (per process)")
@arg("--repeat", type=_number("--repeat"), default=5, help="runs (the median is reported)")
@arg("--seed", type=_number("--seed"), default=0)
@arg(
    "--jobs",
    "-j",
    type=_number("--jobs"),
    default=1,
    help="processes playing at once: the aggregate and per-process rates",
)
@arg(
    "--all",
    dest="all_rulesets",
    action="store_true",
    help="every shipped base and option (an option on its base): a table",
)
@arg("--api", action="store_true", help="the public Game API path: moves as text, undo snapshots")
@arg(
    "--search",
    action="store_true",
    help="playouts as search players run them: a mid-game position copied and played out",
)
@arg(
    "--compare",
    action="store_true",
    help="interleave runs with the hand-written reference engine (default rules) and report the ratio",
)
def cmd_bench(a: argparse.Namespace) -> int:
    from interpreter.lab import bench as b
    from interpreter.rules import load_ruleset
    from interpreter.rules.load import on_its_base

    modes = [
        flag
        for flag, on in (
            ("--compare", a.compare),
            ("--all", a.all_rulesets),
            ("--api", a.api),
            ("--search", a.search),
            ("--jobs", a.jobs > 1),
        )
        if on
    ]
    if len(modes) > 1:
        say(f"cuttle bench: {' and '.join(modes)} cannot be combined: choose one way of measuring", err=True)
        return 2
    if a.compare:
        c = b.compare(load_ruleset("default"), a.games, a.repeat, a.seed)
        say(f"default rules, {a.repeat} interleaved pairs of runs of {a.games} random games each")
        say(f"  interpreter  median {c['interpreter']:,.0f} games/s")
        say(f"  hand-written median {c['handwritten']:,.0f} games/s")
        say(
            f"  hand-written / interpreter: median ratio {c['ratio']:.2f} (pairs: "
            + ", ".join(f"{x:.2f}" for x in c["ratios"])
            + ")"
        )
        return 0
    if a.all_rulesets:
        say(f"{'ruleset':<16} {'played as':<32} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}")
        for name, spec in b.shipped_specs():
            r = b.bench(load_ruleset(spec), a.games, a.repeat, a.seed)
            say(
                f"{name:<16} {spec:<32} {r['games_per_s']:>9,.0f} {r['decisions_per_s']:>12,.0f} "
                f"{r['decisions_per_game']:>15.1f}"
            )
        return 0
    spec = on_its_base(a.ruleset)
    rules = load_ruleset(spec)
    played = spec if spec == a.ruleset else f"{a.ruleset} (an option, played as {spec})"
    if a.jobs > 1:
        return _bench_jobs(a, spec, played)
    if a.search:
        r = b.bench_search(rules, a.games, a.repeat, a.seed)
        say(f"ruleset {played}: {a.repeat} runs of {a.games} playouts from copied mid-game positions")
        say(
            f"  playouts/s  median {r['playouts_per_s']:,.0f}  (runs: "
            + ", ".join(f"{x[0]:,.0f}" for x in r["runs"])
            + ")"
        )
        say(f"  decisions/s median {r['decisions_per_s']:,.0f}")
        say(f"  decisions per playout median {r['decisions_per_playout']:.1f}")
        return 0
    r = (b.bench_api if a.api else b.bench)(rules, a.games, a.repeat, a.seed)
    what = "random games through the Game API (moves as text)" if a.api else "random games"
    say(f"ruleset {played}: {a.repeat} runs of {a.games} {what}")
    say(f"  games/s     median {r['games_per_s']:,.0f}  (runs: " + ", ".join(f"{x[0]:,.0f}" for x in r["runs"]) + ")")
    say(f"  decisions/s median {r['decisions_per_s']:,.0f}")
    say(f"  decisions per game median {r['decisions_per_game']:.1f}")
    return 0


def _bench_jobs(a: argparse.Namespace, spec: str, played: str) -> int:
    """`cuttle bench --jobs N`: N processes at once (never more than four per core)."""
    from interpreter.lab import bench as b
    from interpreter.lab.parallel import workers

    jobs = workers(a.jobs, a.jobs)
    capped = "" if jobs == a.jobs else f" (--jobs {a.jobs}: at most four per core)"
    r = b.bench_jobs(spec, jobs, a.games, a.repeat, a.seed)
    say(f"ruleset {played}: {jobs} processes at once{capped}, {a.repeat} runs of {a.games} random games each")
    say(
        f"  aggregate    median {r['games_per_s']:,.0f} games/s, {r['decisions_per_s']:,.0f} decisions/s"
        f"  (runs: " + ", ".join(f"{x[0]:,.0f}" for x in r["runs"]) + ")"
    )
    say(
        f"  per process  median {r['games_per_s_per_process']:,.0f} games/s"
        f"  ({r['games_per_cpu_s']:,.0f} games per second of processor time)"
    )
    return 0


def lab_options(fn):
    """The options `sim` and `compare` share (the commands themselves are in interpreter/lab/cli.py)."""
    options: list[tuple[tuple[str, ...], dict[str, Any]]] = [
        (
            ("--games", "-n"),
            {"default": "1000", "metavar": "N", "help": "games to play (per ruleset); default 1000"},
        ),
        (
            ("--seed",),
            {
                "type": _number("--seed"),
                "default": 0,
                "metavar": "S",
                "help": "the master seed: game i's seed comes from it and i (default 0)",
            },
        ),
        (
            ("--players",),
            {
                "default": None,
                "metavar": "NAME",
                "help": "the player of both seats: random (default), sharp (fast and competent), "
                "heuristic (bot), ismcts, or any registered player (a wrong name lists them)",
            },
        ),
        (("--p1",), {"default": None, "metavar": "NAME", "help": "the player of the first seat (moves first)"}),
        (("--p2",), {"default": None, "metavar": "NAME", "help": "the player of the second seat"}),
        (("--jobs", "-j"), {"default": None, "metavar": "N", "help": "worker processes (default: every core)"}),
        (
            ("--cluster",),
            {
                "default": None,
                "metavar": "ADDRESS",
                "help": "play on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' to start one here",
            },
        ),
        (
            ("--out", "-o"),
            {
                "default": None,
                "metavar": "DIR",
                "help": "write report.html, report.md and "
                "games.sqlite (every game) there; the same command again resumes",
            },
        ),
        (("--json",), {"action": "store_true", "help": "print the summary as JSON"}),
        (
            ("--no-train",),
            {
                "action": "store_true",
                "help": "sharp and ismcts play a ruleset with no learnt evaluation untrained, "
                "instead of training one first (`cuttle train`)",
            },
        ),
        (
            ("--max-decisions",),
            {"default": None, "metavar": "N", "help": "cut a game off after this many decisions (20000)"},
        ),
    ]
    for args, kw in reversed(options):
        fn = arg(*args, **kw)(fn)
    return fn


@command("sim", "simulate seeded games of a ruleset: win rates, endings, length, play usage, dead rules")
@arg("ruleset", help=RULESET_HELP)
@lab_options
def cmd_sim(a: argparse.Namespace) -> int:
    from interpreter.lab.cli import sim

    return sim(a)


@command("compare", "simulate two rulesets on paired seeds: every metric side by side, differences, a verdict")
@arg("a", help=RULESET_HELP)
@arg("b", help=RULESET_HELP)
@arg(
    "--until-different",
    action="store_true",
    help="play paired games until A and B first offer different moves (or reach different positions)",
)
@lab_options
def cmd_compare(a: argparse.Namespace) -> int:
    from interpreter.lab.cli import compare

    return compare(a)


@command(
    "sweep",
    "play a ruleset with a key set to each of several values, on the same seeds: "
    "win rate, length and game quality against the value",
)
@arg("ruleset", help=RULESET_HELP)
@arg(
    "--set",
    dest="sets",
    action="append",
    default=[],
    metavar="KEY=V1,V2,...",
    help="a ruleset key path and its values, e.g. end.goal=18,21,24 or constants.hand_limit=6,8; "
    "several --set make a grid of every combination",
)
@lab_options
def cmd_sweep(a: argparse.Namespace) -> int:
    from interpreter.lab.cli import sweep

    return sweep(a)


@command("train", "learn an evaluation for a ruleset by self-play; sharp and ismcts then play with it")
@arg("ruleset", help=RULESET_HELP)
@arg("--budget", type=_number("--budget"), default=180.0, help="CPU seconds at most (180)")
@arg("--rounds", type=_number("--rounds"), default=5, help="rounds at most (5)")
@arg("--games", "-n", type=_number("--games"), default=300, help="self-play games a round (300)")
@arg("--duel", type=_number("--duel"), default=200, help="games of each round's duel (200)")
@arg("--gain", type=_number("--gain"), default=200, help="games against the untrained (200)")
@arg("--seed", type=_number("--seed"), default=0, help="the first seed (0)")
@arg(
    "--from",
    dest="start",
    choices=("auto", "hand-set"),
    default="auto",
    help="start from the default rules' learnt evaluation (auto) or from the hand-set weights",
)
@arg("--force", action="store_true", help="train again a ruleset already trained here")
def cmd_train(a: argparse.Namespace) -> int:
    from interpreter.lab.cli import train

    return train(a)


@command("match", "players by name against each other, seats alternating: win rates, CPU time per move, playouts/s")
@arg("--p1", default="heuristic", metavar="NAME", help="a player name (see `cuttle players`): heuristic")
@arg("--p2", default="random", metavar="NAME", help="its opponent: random")
@arg("--games", "-n", type=_number("--games"), default=1000, help="games to play (1000)")
@arg("--ruleset", "-r", default="default", help=RULESET_HELP)
@arg("--seed", type=_number("--seed"), default=0, help="the first game's seed (game i: seed + i)")
@arg("--jobs", "-j", type=_number("--jobs"), default=1, help="worker processes (1)")
def cmd_match(a: argparse.Namespace) -> int:
    from interpreter.lab.cli import match

    return match(a)


@command("ladder", "a round robin of players by name: ratings with intervals, scores, CPU time per move")
@arg("ruleset", nargs="?", default="default", help=RULESET_HELP + " (default)")
@arg("--players", "-p", required=True, metavar="A,B,...", help="two players or more, e.g. random,heuristic,sharp")
@arg("--games", "-n", type=_number("--games"), default=100, help="games a pair (100)")
@arg("--seed", type=_number("--seed"), default=0, help="the first game's seed (game i of a pair: seed + i)")
@arg("--jobs", "-j", type=_number("--jobs"), default=None, help="worker processes (all cores)")
@arg("--json", metavar="FILE", default=None, help="also write the ratings as JSON to FILE")
def cmd_ladder(a: argparse.Namespace) -> int:
    from interpreter.lab.ladder import rate
    from interpreter.scripting.records import writable, write_atomic

    players = [p.strip() for p in a.players.split(",")]
    if not all(players):
        raise CuttleError(f"--players '{a.players}': a name is empty (write the names joined by commas: random,sharp)")
    if a.json:  # refused before the games are played, not after
        folder = Path(a.json).parent
        if not folder.is_dir():
            raise CuttleError(f"--json {a.json}: there is no folder '{folder}' to write it in")
        writable(a.json)
    jobs = a.jobs or os.cpu_count() or 1
    try:
        lines, data = rate(a.ruleset, players, a.games, a.seed, jobs)
    except KeyboardInterrupt:
        say("cuttle ladder: interrupted; no ratings (the games are played again on a rerun)", err=True)
        return 130
    for line in lines:
        say(line)
    if a.json:
        write_atomic(a.json, json_text(data) + "\n")
        say(f"wrote {a.json}")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, whose refusal of an option is one line of the project's (`cuttle sim: --games must be
    ...`), through the one terminal writer, instead of a usage line and the error."""

    def error(self, message: str) -> NoReturn:
        inner = re.match(r"^argument [^:]+: ((?:--|-)\S+ .*)$", message)  # our own line names the option
        say(f"{self.prog}: {inner.group(1)}" if inner else f"{self.prog}: {message} (see {self.prog} --help)", err=True)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cuttle", description="Cuttle Lab: rules-as-data Cuttle.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (add_args, fn, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_args(p)
        p.set_defaults(func=fn)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The one error boundary of every command: whatever happens, one clear message and an exit status,
    never a traceback (set CUTTLE_DEBUG=1 to see one)."""
    parser = build_parser()
    a = parser.parse_args(argv)
    if not getattr(a, "func", None):
        parser.print_help()
        return 2
    debug = bool(os.environ.get("CUTTLE_DEBUG"))
    a.exit_at_once = argv is None  # the `cuttle` program itself (not a caller in this process)
    try:
        return a.func(a)
    except RulesetErrors as e:
        _trace(debug)
        for err in e.errors:
            say(err.render(), err=True)
        return 1
    except CuttleError as e:
        _trace(debug)
        say(f"cuttle {a.command}: {e}", err=True)
        return 1
    except KeyboardInterrupt:  # a command that keeps something on Ctrl-C says so itself; any other moment, this line
        say(f"cuttle {a.command}: interrupted", err=True)
        return 130
    except BrokenPipeError:  # e.g. `cuttle diff A B | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (RecursionError, MemoryError) as e:
        if debug:
            raise
        what = "too deeply nested" if isinstance(e, RecursionError) else "too large"
        say(f"cuttle {a.command}: the input is {what} to handle", err=True)
        return 1
    except Exception as e:  # a bug of ours: still one line (CUTTLE_DEBUG=1 shows where)
        if debug:
            raise
        say(f"cuttle {a.command}: internal error: {type(e).__name__}: {e} (set CUTTLE_DEBUG=1 to see where)", err=True)
        return 1


def _trace(debug: bool) -> None:
    if debug:
        traceback.print_exc()


if __name__ == "__main__":
    sys.exit(main())
