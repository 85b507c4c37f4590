"""Mutation testing, one room at a time (issue 43.3), with mutmut (`pip install -e '.[mutation]'`):

    python tools/mutation.py ROOM [--sample N] [--seed S] [--tests room|fast] [--show]

ROOM is one of ROOMS (`language`, `engine`, ...). Each room is measured in a work folder of its own,
`.mutation/ROOM/` (not tracked): a copy of the tracked tree whose pyproject.toml adds to
[tool.mutmut] `only_mutate` (the room's files only, so mutmut writes the room's mutants and no
other's) and `pytest_add_cli_args_test_selection` (which tests mutmut runs). mutmut then writes the
room's mutants into `.mutation/ROOM/mutants/` and runs the selected fast-tier tests once under tracing
to learn which tests reach which function (both kept for later runs of that room; the copy is
refreshed file by file, so mutmut re-runs only what changed). Then each mutant runs against the tests
that reach its function, stopping at the first failure; a mutant no test reaches counts as survived.

`--tests room` (the default) selects the fast-tier modules that name the room (`interpreter.ROOM`,
`from interpreter import ROOM`, or `repl` for the REPL): the rate is then a lower bound, since a test
that reaches the room only through another is not run. `--tests fast` selects the whole fast tier, in
`.mutation/ROOM-fast/` (its tracing pass is a run of the whole fast tier): a mutant already killed in
`.mutation/ROOM/` is counted killed without running again, so measuring a room with `--tests room`
first, then the same sample with `--tests fast`, gives the fast tier's rate for the cost of the
room's survivors only.
`--sample N` runs N mutants drawn at random (seeded by `--seed`, from the sorted names), for a room
too large to run whole. `--show` prints each survivor's change (`mutmut show`). The kill rate printed
is (killed + timed out) / all tried, as mutmut's own score; docs/testing.md records each room's.

Slow: run it niced, alone. Not part of CI.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
#: the rooms: the files each holds, as mutmut's globs (relative to the tree), and how a test names it
ROOMS: dict[str, tuple[list[str], str]] = {
    "core": (["interpreter/core/*"], r"interpreter[./]core|from interpreter import .*\bcore\b"),
    "language": (["interpreter/language/*"], r"interpreter[./]language|from interpreter import .*\blanguage\b"),
    "rules": (["interpreter/rules/*"], r"interpreter[./]rules|from interpreter import .*\brules\b"),
    "engine": (["interpreter/engine/*"], r"interpreter[./]engine|from interpreter import .*\bengine\b"),
    "scripting": (["interpreter/scripting/*"], r"interpreter[./]scripting|from interpreter import .*\bscripting\b"),
    "players": (["interpreter/players/*"], r"interpreter[./]players|from interpreter import .*\bplayers\b"),
    "lab": (["interpreter/lab/*"], r"interpreter[./]lab|from interpreter import .*\blab\b"),
    "env": (["interpreter/env/*"], r"interpreter[./]env|from interpreter import .*\benv\b"),
    "cli": (["interpreter/cli.py"], r"interpreter[./]cli|from interpreter import .*\bcli\b"),
    "repl": (["repl/*"], r"^\s*(from|import) repl\b"),
}
#: test modules never selected by `--tests room`: helpers, and the slow-only harnesses
NOT_SELECTED = {"conftest.py", "__init__.py", "test_mutation_tool.py"}  # (the last: this tool's own, naming every room)


def tracked_files() -> list[str]:
    """The tree's tracked files (what a clean checkout holds), relative to the root."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in out.decode("utf-8").split("\0") if name]


def refresh(work: Path) -> None:
    """Make `work` a copy of the tracked tree, writing only the files that differ (mutmut keeps what it
    learnt about the unchanged ones). Files no longer tracked are removed from the copy's source. When a
    test changed, what mutmut learnt is dropped (its mutants and results): it does not trace the tests
    again by itself, so a new test would never run against the mutants it kills."""
    names = set(tracked_files())
    tests_changed = False
    for name in sorted(names):
        src, dst = ROOT / name, work / name
        if not src.is_file():  # deleted in the work tree but not yet in git
            continue
        if dst.is_file() and dst.read_bytes() == src.read_bytes():
            continue
        tests_changed = tests_changed or (name.startswith("tests/") and dst.exists())
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    if tests_changed:
        shutil.rmtree(work / "mutants", ignore_errors=True)
    for folder in ("interpreter", "repl", "tests"):
        for path in (work / folder).rglob("*"):
            if path.is_file() and path.suffix == ".py" and path.relative_to(work).as_posix() not in names:
                path.unlink()


def selected_tests(room: str, tests: str) -> list[str]:
    """The test modules mutmut runs for the room: the fast tier's that name it, or the whole tier."""
    if tests == "fast":
        return ["tests/"]
    pattern = re.compile(ROOMS[room][1], re.MULTILINE)
    return [
        f"tests/{path.name}"
        for path in sorted((ROOT / "tests").glob("test_*.py"))
        if path.name not in NOT_SELECTED and pattern.search(path.read_text(encoding="utf-8"))
    ]


def room_config(pyproject: str, room: str, tests: list[str]) -> str:
    """pyproject.toml's text with the room's `only_mutate` and test selection added to [tool.mutmut]."""
    head = "[tool.mutmut]\n"
    if pyproject.count(head) != 1:
        raise SystemExit("pyproject.toml has no single [tool.mutmut] section: nothing to configure")
    for key in ("only_mutate", "pytest_add_cli_args_test_selection"):
        if re.search(rf"^{key}\s*=", pyproject, re.MULTILINE):
            raise SystemExit(f"pyproject.toml's [tool.mutmut] already sets {key}: tools/mutation.py sets it per room")
    added = f"only_mutate = {json.dumps(ROOMS[room][0])}\npytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
    return pyproject.replace(head, head + added)


def statuses(work: Path) -> dict[str, int | None]:
    """Every mutant mutmut has written in the work folder, with the exit code of its run (None: not run)."""
    codes: dict[str, int | None] = {}
    for meta in sorted((work / "mutants").rglob("*.meta")):
        codes.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return codes


def verdict(code: int | None) -> str:
    """How a mutant ended, in the rate's terms: killed (a test failed or it timed out), survived, other."""
    from mutmut.stats import status_by_exit_code  # the optional extra, imported only when measuring

    status = status_by_exit_code[code]
    return "killed" if status in ("killed", "timeout") else "survived" if status in ("survived", "no tests") else status


def function_of(name: str) -> str:
    """A mutant's function, from mutmut's name (`module.x_function__mutmut_7` → `module.function`)."""
    module, _, rest = name.rpartition(".")
    function = re.sub(r"__mutmut_\d+$", "", rest)
    function = function.removeprefix("xǁ").replace("ǁ", ".") if function.startswith("xǁ") else function[2:]
    return f"{module}.{function}"


def mutmut(work: Path, args: list[str]) -> int:
    """`mutmut ARGS` in the room's work folder (one worker: the machine is shared), with CI set: the
    property tests then draw the same examples each run (tests/conftest.py), so a mutant is killed by
    the tests as CI runs them, never by an example Hypothesis happened to find that run (and a new one
    failing the clean run does not stop the room)."""
    return subprocess.call([sys.executable, "-m", "mutmut", *args], cwd=work, env={**os.environ, "CI": "true"})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="mutation testing of one room (mutmut)")
    ap.add_argument("room", choices=sorted(ROOMS))
    ap.add_argument("--sample", type=int, default=0, help="run N mutants drawn at random (0: all)")
    ap.add_argument("--seed", type=int, default=43)
    ap.add_argument("--tests", choices=("room", "fast"), default="room", help="which fast-tier tests run")
    ap.add_argument("--show", action="store_true", help="print each survivor's change")
    a = ap.parse_args(argv)
    work = WORK / (a.room if a.tests == "room" else f"{a.room}-{a.tests}")
    work.mkdir(parents=True, exist_ok=True)
    refresh(work)
    tests = selected_tests(a.room, a.tests)
    (work / "pyproject.toml").write_text(
        room_config((ROOT / "pyproject.toml").read_text(encoding="utf-8"), a.room, tests), encoding="utf-8"
    )
    if not statuses(work):  # first: write the mutants and learn which tests reach what (mutmut then stops,
        # as no mutant has that name)
        mutmut(work, ["run", "--max-children", "1", "interpreter.__none__"])
    every = sorted(statuses(work))
    if not every:
        raise SystemExit(f"mutmut wrote no mutant of {a.room}: see its output above")
    picked = sorted(random.Random(a.seed).sample(every, a.sample)) if 0 < a.sample < len(every) else every
    # the room's own tests are part of the fast tier: a mutant they killed in the room's folder is
    # killed here too, so only the others run (the fast tier's rate costs only the room's survivors)
    known = {k: v for k, v in statuses(WORK / a.room).items() if verdict(v) == "killed"} if a.tests == "fast" else {}
    todo = [name for name in picked if name not in known]
    if todo:
        mutmut(work, ["run", "--max-children", "1", *todo])
    codes = {**statuses(work), **known}
    got = Counter(verdict(codes.get(name)) for name in picked)
    survivors: dict[str, list[str]] = defaultdict(list)
    for name in picked:
        if verdict(codes.get(name)) == "survived":
            survivors[function_of(name)].append(name)
    tried = sum(got.values())
    how = f"a sample, seed {a.seed}" if picked != every else "all"
    other = "".join(f", {k} {v}" for k, v in sorted(got.items()) if k not in ("killed", "survived"))
    print(
        f"{a.room}: {len(picked)} of {len(every)} mutants ({how}; {len(tests)} test selection(s), --tests {a.tests}): "
        f"killed {got['killed']}, survived {got['survived']}{other}; kill rate {got['killed'] / max(tried, 1):.0%}"
    )
    if got["not checked"]:  # mutmut stopped before running them (its output above says why)
        print(f"{got['not checked']} mutants were not run: the rate above is not a measurement (see mutmut's output)")
    for function, names in sorted(survivors.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"  survived {len(names)}: {function}  ({', '.join(n.rpartition('_')[2] for n in names)})")
        if a.show:
            for name in names:
                mutmut(work, ["show", name])
    return 1 if got["not checked"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
