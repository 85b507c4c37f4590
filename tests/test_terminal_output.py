"""One writer to the terminal (core/terminal.py): every line any command prints goes through it, so
text from a file can never act on the terminal, in the lab's summaries as everywhere else."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.core.terminal import safe, sgr

from .scenario_util import ROOT

PACKAGES = [ROOT / "interpreter", ROOT / "repl"]
WRITER = ROOT / "interpreter" / "core" / "terminal.py"
# the modules that write files, not the terminal (each through a handle it opened itself)
FILE_WRITERS = {ROOT / "interpreter" / "scripting" / "records.py", ROOT / "interpreter" / "lab" / "seal.py"}


def _sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in pkg.rglob("*.py"))


def _bare_output(path: Path) -> list[str]:
    """Every place in `path` that prints or writes to a stream other than through the writer."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name) and node.id == "print":
            found.append((node.lineno, "print"))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("write", "write_raw", "writelines")
            and path not in FILE_WRITERS
            and not all(isinstance(a, ast.Constant) for a in node.args)  # a fixed control sequence
        ):
            found.append((node.lineno, ast.unparse(node.func)))
    return [f"{path.name}:{line}: {what}" for line, what in sorted(found)]


def test_nothing_prints_but_the_terminal_writer() -> None:
    assert len(_sources()) > 50
    bare = [b for p in _sources() if p != WRITER for b in _bare_output(p)]
    assert bare == [], "print through interpreter/core/terminal.py (say, status) instead"


def test_the_source_check_sees_a_bare_print(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text("import sys\nprint('x')\nsys.stdout.write(name)\n", encoding="utf-8")
    assert _bare_output(p) == ["m.py:2: print", "m.py:3: sys.stdout.write"]


HOSTILE_NAME = "evil\x1b]0;owned\x07\x1b[2J\U000e0041\ufff9\u202e"


def _shown(text: str) -> None:
    for ch in ("\x1b", "\x07", "\U000e0041", "\ufff9", "\u202e"):
        assert ch not in text, (ch, text)


@pytest.mark.parametrize(
    "cmd",
    [
        ["sim", "{f}", "--games", "2", "--jobs", "1"],
        ["sim", "{f}", "--games", "2", "--jobs", "1", "--json"],
        ["compare", "default", "{f}", "--games", "2", "--jobs", "1"],
        ["compare", "default", "{f}", "--until-different", "--games", "3"],
        ["match", "--ruleset", "{f}", "--games", "2"],
    ],
)
def test_the_lab_s_summaries_show_a_hostile_name_escaped(
    cmd: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "house\x1b[2J\U000e0041.yaml"  # a file name can hold escapes too
    name = HOSTILE_NAME.encode("unicode_escape").decode("ascii")
    f.write_text(
        f'name: "{name}"\nkind: base\nextends: default\ndescription: "a \\e[31m\\U000e0041 rule"\n'
        "plays:\n  points:\n    ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9]\n",
        encoding="utf-8",
    )
    code = main([x.replace("{f}", str(f)) for x in cmd])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "evil" in out.out + out.err or "house" in out.out + out.err  # the name is shown, escaped
    _shown(out.out + out.err)


def test_colour_keeps_only_the_project_s_own_codes() -> None:
    painted = f"{sgr('red')}9♥{sgr('reset')} \x1b]0;t\x07\x1b[5m"
    assert safe(painted, colour=True) == f"{sgr('red')}9♥{sgr('reset')} \\x1b]0;t\\x07\\x1b[5m"
    assert "\x1b" not in safe(painted)


def test_json_on_the_terminal_is_safe_and_reads_back_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    f = tmp_path / "house.yaml"
    f.write_text(
        f'name: "{HOSTILE_NAME.encode("unicode_escape").decode("ascii")}"\nextends: default\n', encoding="utf-8"
    )
    assert main(["sim", str(f), "--games", "2", "--jobs", "1", "--json"]) == 0
    out = capsys.readouterr().out
    _shown(out)
    assert json.loads(out)["ruleset"] == HOSTILE_NAME
