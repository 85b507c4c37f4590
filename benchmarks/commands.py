"""CPU time of the reference commands against `cuttle --help` (issue 28: within twice its CPU).

Each command runs as its own process, as a user starts it, `--runs` times; the CPU time of the
child (user + system, from getrusage) is taken, and the median of each is given with its ratio to
the median of `cuttle --help`. Machines here are noisy: read the medians and the ratios.

    python -m benchmarks.commands [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

COMMANDS = [
    ["--help"],
    ["rules"],
    ["rules", "default"],
    ["rules", "micro"],
    ["diff", "default", "published"],
    ["players"],
    ["check", "rulesets/default.yaml"],
]


def cpu_of(args: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "interpreter.cli", *args], stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    a = ap.parse_args(argv)
    env_note = f"python {sys.version.split()[0]}, {os.cpu_count()} cpus"
    medians: dict[str, float] = {}
    for cmd in COMMANDS:
        medians[" ".join(cmd)] = statistics.median(cpu_of(cmd) for _ in range(a.runs))
    base = medians["--help"]
    sys.stdout.write(f"CPU per command, median of {a.runs} runs ({env_note}):\n")
    for name, m in medians.items():
        sys.stdout.write(f"  cuttle {name:<28} {m * 1000:6.0f} ms   {m / base:4.2f}x --help\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
