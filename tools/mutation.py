"""Mutation testing, one room at a time (issue 43.3), with mutmut (`pip install -e '.[mutation]'`):

    python tools/mutation.py ROOM [--sample N] [--seed S]

ROOM is one of ROOMS (`language`, `engine`, ...). mutmut (configured in pyproject.toml's
[tool.mutmut]: the fast tier, `-x`) copies the tree into `mutants/` (not tracked) and writes every
mutant there; the first run also runs the fast tier once to learn which tests reach which function
(both are kept for later runs). Then each mutant of the room runs against the tests that reach its
function; a mutant that no test reaches counts as survived. `--sample N` runs N mutants of the room
drawn at random (seeded by `--seed`, from the sorted names), for a room too large to run whole on a
shared machine. The kill rate printed is killed / all tried; docs/testing.md records each room's.

Slow: run it niced, alone. Not part of CI.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
#: the rooms, each a folder of the tree (core: interpreter/core, the interpreter's own core)
ROOMS = {
    "core": "interpreter/core",
    "language": "interpreter/language",
    "rules": "interpreter/rules",
    "engine": "interpreter/engine",
    "scripting": "interpreter/scripting",
    "players": "interpreter/players",
    "lab": "interpreter/lab",
    "repl": "repl",
}
#: mutmut's exit codes of a mutant's run, as the rate counts them
KILLED, SURVIVED = {1, 3}, {0, 5, 33}


def names(room: str) -> list[str]:
    """Every mutant of the room that mutmut has written (from its `.meta` files), sorted."""
    found: list[str] = []
    for meta in sorted((MUTANTS / ROOMS[room]).rglob("*.meta")):
        found += json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    return sorted(found)


def results(picked: list[str], room: str) -> Counter[str]:
    """How each picked mutant ended: killed, survived, timeout or other."""
    codes: dict[str, int | None] = {}
    for meta in (MUTANTS / ROOMS[room]).rglob("*.meta"):
        codes.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    out: Counter[str] = Counter()
    for name in picked:
        code = codes.get(name)
        out["killed" if code in KILLED else "survived" if code in SURVIVED else f"other ({code})"] += 1
    return out


def mutmut(args: list[str]) -> int:
    """`mutmut ARGS` in the tree (one worker: the machine is shared)."""
    return subprocess.call([sys.executable, "-m", "mutmut", *args], cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="mutation testing of one room (mutmut)")
    ap.add_argument("room", choices=sorted(ROOMS))
    ap.add_argument("--sample", type=int, default=0, help="run N mutants drawn at random (0: all)")
    ap.add_argument("--seed", type=int, default=43)
    a = ap.parse_args(argv)
    if not names(a.room):  # first: write the mutants and learn which tests reach what (mutmut then
        # stops, as no mutant has that name)
        mutmut(["run", "--max-children", "1", f"{ROOMS[a.room].replace('/', '.')}.__none__"])
    every = names(a.room)
    if not every:
        raise SystemExit(f"mutmut wrote no mutant of {a.room}: see its output above")
    picked = random.Random(a.seed).sample(every, a.sample) if 0 < a.sample < len(every) else every
    mutmut(["run", "--max-children", "1", *picked])
    got = results(picked, a.room)
    tried = sum(got.values())
    how = f"a sample, seed {a.seed}" if picked != every else "all"
    other = "".join(f", {k} {v}" for k, v in sorted(got.items()) if k.startswith("other"))
    print(
        f"{a.room}: {len(picked)} of {len(every)} mutants ({how}): killed {got['killed']}, "
        f"survived {got['survived']}{other}; kill rate {got['killed'] / max(tried, 1):.0%}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
