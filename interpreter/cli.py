"""The `cuttle` command: play, run, replay, check, rules, diff, bench."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from interpreter.core.errors import CuttleError, RulesetErrors

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


def _positive(text: str, name: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name} takes a whole number, not '{text}'") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{name} must be 1 or more, not {n}")
    return n


RULESET_HELP = "a shipped ruleset (default), a combination (default+classic-2s), or a YAML file"


@command("play", "play a game in the terminal, against the bot or hot-seat")
@arg("--ruleset", "-r", default="default", help=RULESET_HELP)
@arg("--seed", type=int, default=None, help="the seed of the deal (random if omitted)")
@arg("--vs", choices=["bot", "human"], default="bot", help="the opponent: the bot, or hot-seat")
@arg("--as", dest="as_player", choices=["1", "2"], default="1", help="which player you are against the bot")
def cmd_play(a: argparse.Namespace) -> int:
    from repl.app import main as repl_main
    return repl_main(a)


@command("run", "run scenario files (or directories of them) like tests")
@arg("paths", nargs="+", help="scenario files or directories")
@arg("--ruleset", "-r", default=None, help="run every scenario under this ruleset instead of its own")
@arg("--quiet", "-q", action="store_true", help="print only failures and the summary")
def cmd_run(a: argparse.Namespace) -> int:
    from interpreter.scripting.scenario import collect, run_file
    files = collect(a.paths)
    missing = [f for f in files if not f.exists()]
    if missing:
        print(f"cuttle run: no such file: {missing[0]}", file=sys.stderr)
        return 2
    passed = failed = 0
    for f in files:
        res = run_file(f, a.ruleset)
        if res.ok:
            passed += 1
            if not a.quiet:
                print(f"PASS {f}  {res.name}")
        else:
            failed += 1
            print(f"FAIL {f}  {res.name}")
            for line in res.failures:
                print("  " + line.replace("\n", "\n  "))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


@command("replay", "replay a saved game record move by move")
@arg("file", help="a game record written by `save` in the REPL or by the API")
@arg("--force", action="store_true", help="replay even if the ruleset has changed since")
@arg("--view", choices=["1", "2", "all"], default="all", help="whose view to show after each move")
def cmd_replay(a: argparse.Namespace) -> int:
    from interpreter.scripting import records
    data = records.read(a.file)
    game = records.start(data, a.file, a.force)
    print(f"replaying {a.file}: ruleset {game.rules.name}, seed {game.seed}, {len(data['moves'])} moves")
    for i, text in enumerate(data["moves"]):
        try:
            game.play(str(text))
        except CuttleError as e:
            print(f"move {i + 1} '{text}' cannot be replayed: {e}", file=sys.stderr)
            return 1
        print(f"{i + 1:>4}. {game.narration[-1]}")
    print(f"result: {game.outcome or 'game not over'}")
    return 0


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
                print(e.render())
            print(f"{f}: {len(errors)} problem(s)")
        else:
            print(f"{f}: ok")
    return 1 if bad else 0


@command("rules", "print a ruleset as a readable rules page")
@arg("name", help=RULESET_HELP)
def cmd_rules(a: argparse.Namespace) -> int:
    from interpreter.rules import load_ruleset
    from interpreter.rules.page import rules_page
    print(rules_page(load_ruleset(a.name)))
    return 0


@command("diff", "print what ruleset B changes against ruleset A")
@arg("a", help=RULESET_HELP)
@arg("b", help=RULESET_HELP)
def cmd_diff(a: argparse.Namespace) -> int:
    from interpreter.rules import load_ruleset
    from interpreter.rules.page import diff_rules
    print(diff_rules(load_ruleset(a.a), load_ruleset(a.b)))
    return 0


@command("bench", "random-playout speed: games and decisions per second (one core, or --jobs N processes)")
@arg("--ruleset", "-r", default="default",
     help=RULESET_HELP + "; an option alone is played on its base (twinned: default+twinned)")
@arg("--games", type=lambda t: _positive(t, "--games"), default=300, help="games per run (per process)")
@arg("--repeat", type=lambda t: _positive(t, "--repeat"), default=5, help="runs (the median is reported)")
@arg("--seed", type=int, default=0)
@arg("--jobs", "-j", type=lambda t: _positive(t, "--jobs"), default=1,
     help="processes playing at once: the aggregate and per-process rates")
@arg("--all", dest="all_rulesets", action="store_true",
     help="every shipped base and option (an option on its base): a table")
@arg("--api", action="store_true", help="the public Game API path: moves as text, undo snapshots")
@arg("--search", action="store_true",
     help="playouts as search players run them: a mid-game position copied and played out")
@arg("--compare", action="store_true",
     help="interleave runs with the hand-written reference engine (default rules) and report the ratio")
def cmd_bench(a: argparse.Namespace) -> int:
    from interpreter.lab import bench as b
    from interpreter.rules import load_ruleset
    from interpreter.rules.load import on_its_base
    modes = [flag for flag, on in (("--compare", a.compare), ("--all", a.all_rulesets), ("--api", a.api),
                                   ("--search", a.search), ("--jobs", a.jobs > 1)) if on]
    if len(modes) > 1:
        print(f"cuttle bench: {' and '.join(modes)} cannot be combined: choose one way of measuring", file=sys.stderr)
        return 2
    if a.compare:
        c = b.compare(load_ruleset("default"), a.games, a.repeat, a.seed)
        print(f"default rules, {a.repeat} interleaved pairs of runs of {a.games} random games each")
        print(f"  interpreter  median {c['interpreter']:,.0f} games/s")
        print(f"  hand-written median {c['handwritten']:,.0f} games/s")
        print(f"  hand-written / interpreter: median ratio {c['ratio']:.2f} (pairs: "
              + ", ".join(f"{x:.2f}" for x in c["ratios"]) + ")")
        return 0
    if a.all_rulesets:
        print(f"{'ruleset':<16} {'played as':<32} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}")
        for name, spec in b.shipped_specs():
            r = b.bench(load_ruleset(spec), a.games, a.repeat, a.seed)
            print(f"{name:<16} {spec:<32} {r['games_per_s']:>9,.0f} {r['decisions_per_s']:>12,.0f} "
                  f"{r['decisions_per_game']:>15.1f}")
        return 0
    spec = on_its_base(a.ruleset)
    rules = load_ruleset(spec)
    played = spec if spec == a.ruleset else f"{a.ruleset} (an option, played as {spec})"
    if a.jobs > 1:
        r = b.bench_jobs(spec, a.jobs, a.games, a.repeat, a.seed)
        print(f"ruleset {played}: {a.jobs} processes at once, {a.repeat} runs of {a.games} random games each")
        print(f"  aggregate    median {r['games_per_s']:,.0f} games/s, {r['decisions_per_s']:,.0f} decisions/s"
              f"  (runs: " + ", ".join(f"{x[0]:,.0f}" for x in r["runs"]) + ")")
        print(f"  per process  median {r['games_per_s_per_process']:,.0f} games/s"
              f"  ({r['games_per_cpu_s']:,.0f} games per second of processor time)")
        return 0
    if a.search:
        r = b.bench_search(rules, a.games, a.repeat, a.seed)
        print(f"ruleset {played}: {a.repeat} runs of {a.games} playouts from copied mid-game positions")
        print(f"  playouts/s  median {r['playouts_per_s']:,.0f}  (runs: "
              + ", ".join(f"{x[0]:,.0f}" for x in r["runs"]) + ")")
        print(f"  decisions/s median {r['decisions_per_s']:,.0f}")
        print(f"  decisions per playout median {r['decisions_per_playout']:.1f}")
        return 0
    r = (b.bench_api if a.api else b.bench)(rules, a.games, a.repeat, a.seed)
    what = "random games through the Game API (moves as text)" if a.api else "random games"
    print(f"ruleset {played}: {a.repeat} runs of {a.games} {what}")
    print(f"  games/s     median {r['games_per_s']:,.0f}  (runs: "
          + ", ".join(f"{x[0]:,.0f}" for x in r["runs"]) + ")")
    print(f"  decisions/s median {r['decisions_per_s']:,.0f}")
    print(f"  decisions per game median {r['decisions_per_game']:.1f}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cuttle", description="Cuttle Lab: rules-as-data Cuttle.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (add_args, fn, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_args(p)
        p.set_defaults(func=fn)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    a = parser.parse_args(argv)
    if not getattr(a, "func", None):
        parser.print_help()
        return 2
    try:
        return a.func(a)
    except RulesetErrors as e:
        for err in e.errors:
            print(err.render(), file=sys.stderr)
        return 1
    except CuttleError as e:
        print(f"cuttle {a.command}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `cuttle diff A B | head`
        import os
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
