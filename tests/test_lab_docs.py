"""docs/lab.md works as written: every `cuttle` and `sqlite3` command of its console blocks runs,
in a scratch folder beside the repository's examples, and prints the lines shown."""

from __future__ import annotations

import re
import shlex
import sqlite3
from pathlib import Path

import pytest

from interpreter.cli import main
from tests.test_docs import console_steps

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "docs" / "lab.md"
STEPS = console_steps(LAB)


def sqlite3_shell(argv: list[str]) -> str:
    """`sqlite3 FILE "SQL"` as the sqlite3 shell prints it by default (columns joined by |, NULL empty)."""
    assert len(argv) == 3, argv
    con = sqlite3.connect(argv[1])
    try:
        rows = con.execute(argv[2]).fetchall()
    finally:
        con.close()
    return "".join("|".join("" if v is None else str(v) for v in row) + "\n" for row in rows)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder where the walkthrough's relative paths work and its outputs land."""
    where = tmp_path_factory.mktemp("lab-walkthrough")
    for name in ("examples", "rulesets"):
        (where / name).symlink_to(ROOT / name, target_is_directory=True)
    return where


def test_the_walkthrough_runs_sim_compare_and_queries() -> None:
    verbs = [shlex.split(cmd)[:2] for cmd, _ in STEPS]
    for verb in (["cuttle", "sim"], ["cuttle", "compare"], ["cuttle", "sweep"], ["sqlite3", "lab-ace/games.sqlite"]):
        assert verb in verbs, f"docs/lab.md never runs {' '.join(verb)}"
    assert any("--until-different" in cmd for cmd, _ in STEPS)
    assert any("--out" in cmd for cmd, _ in STEPS)


@pytest.mark.parametrize("cmd, expected", STEPS, ids=[c[:60] for c, _ in STEPS])
def test_walkthrough_command_works_as_written(
    cmd: str, expected: list[str], scratch: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(scratch)
    argv = shlex.split(cmd)
    if argv[0] == "sqlite3":
        folder = Path(argv[1]).parent.name
        if not Path(argv[1]).exists():  # run on its own: make the database its step reads first
            maker = next(c for c, _ in STEPS if f"--out {folder}" in c)
            assert main(shlex.split(maker)[1:]) == 0
        out = sqlite3_shell(argv)
    else:
        assert argv[0] == "cuttle"
        code = main(argv[1:])
        captured = capsys.readouterr()
        assert code == 0, f"`{cmd}` exited {code}:\n{captured.out}\n{captured.err}"
        out = captured.out
    printed = [line.rstrip() for line in out.splitlines() if line.strip()]  # (the doc leaves out blank lines)
    at = 0  # shown lines follow one another in what was printed; a gap only where the doc writes '...'
    gap = True
    for line in expected:
        if line.strip() == "...":
            gap = True
            continue
        want = line.rstrip()
        found = next((i for i in range(at, len(printed)) if want in printed[i]), None)
        assert found is not None, f"`{cmd}` did not print {line!r} (after line {at}); it printed:\n{out}"
        assert gap or found == at, f"`{cmd}` prints lines between {expected} lines and {line!r}: add '...'\n{out}"
        at, gap = found + 1, False
    assert gap or at == len(printed), f"`{cmd}` prints more after {expected[-1]!r}: end the example with '...'\n{out}"


def test_the_table_of_section_4_names_every_column_of_the_database(tmp_path: Path) -> None:
    """A new column (columns.py) or view must be named where designers look it up: `p2_X` counts as
    named with `p1_X` ('and `p2_...`')."""
    assert main(["sim", "default", "--games", "2", "--jobs", "1", "--out", str(tmp_path)]) == 0
    text = LAB.read_text(encoding="utf-8")
    section = text[text.index("## 4. Query the database") : text.index("## 5.")]
    con = sqlite3.connect(tmp_path / "games.sqlite")
    try:
        for table in ("games", "uses", "uses_by_seat", "rules", "rulesets", "run"):
            (row,) = [line for line in section.splitlines() if line.startswith(f"| `{table}`")]
            named = set(re.findall(r"`([a-z0-9_]+)`", row))
            cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
            missing = [c for c in cols if c not in named and c.replace("p2_", "p1_", 1) not in named]
            assert cols and not missing, (table, missing)
    finally:
        con.close()
