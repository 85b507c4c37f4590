"""One writer to the terminal (core/terminal.py): every line any command prints goes through it, so
text from a file can never act on the terminal, in the lab's summaries as everywhere else."""

from __future__ import annotations

import ast
import re
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


# -- a file's colours never pass as the project's, and names keep to their line (issue 42.6) --------

FILE_SGR = "\x1b[2m\x1b[31m"  # exactly the project's own dim and red: once kept as if they were ours


def _house_named(tmp_path: Path, name: str, trigger: str = "noted") -> Path:
    f = tmp_path / "house.yaml"
    esc = name.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    tesc = trigger.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    f.write_text(
        f'name: "{esc}"\nkind: base\nextends: default\n'
        f'triggers:\n  "{tesc}":\n    event: turn ends\n    effect: nothing\n',
        encoding="utf-8",
    )
    return f


@pytest.mark.parametrize("coloured", [False, True])
def test_a_files_colour_codes_never_pass_as_the_projects_own(
    coloured: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from interpreter.lab import report_text

    monkeypatch.setattr(report_text.Style, "for_stream", classmethod(lambda cls, stream: cls(coloured)))
    f = _house_named(tmp_path, f"{FILE_SGR}evil", trigger=f"{FILE_SGR}fires")
    assert main(["sim", str(f), "--games", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert FILE_SGR not in out and "\\x1b[2m\\x1b[31mevil" in out  # the file's: shown, not obeyed
    assert ("\x1b[1m" in out) == coloured  # the project's own: painted when colour is on, only then


def test_safe_keeps_only_marks_made_by_sgr_in_this_process() -> None:
    from interpreter.core.terminal import painted

    forged = "\x1b[31m" + "\x1b" + "0" * 16 + "31m"  # the bytes of a colour, and a guess at a mark
    text = safe(f"{sgr('red')}9♥{sgr('reset')}{forged}", colour=True)
    assert painted(text) == "\x1b[31m9♥\x1b[0m" + safe(forged)
    assert "\x1b" not in safe(text) and "\x1b" not in painted(safe(forged, colour=True))


def test_names_with_line_breaks_cannot_forge_lines_of_a_listing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = "z\nPASS fake.yaml  all good\n9 passed, 0 failed\n.test.yaml"
    (tmp_path / forged).write_text("ruleset: default\nexpect:\n  turn: p2\n", encoding="utf-8")
    (tmp_path / "ok.yaml").write_text('name: "ok\\nPASS forged"\nruleset: default\nexpect:\n  turn: p1\n')
    assert main(["run", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(" ")[0] for ln in lines if not ln.startswith(" ")] == ["PASS", "FAIL", "1"]
    assert lines[-1] == "1 passed, 1 failed"
    assert main(["check", str(tmp_path / forged)]) == 1
    assert all(":" in ln or ln.startswith(" ") for ln in capsys.readouterr().out.splitlines())


HOSTILE_MD = "x\x1b]0;title\x07\x1b]52;c;ZXZpbA==\x07<script>alert(1)</script>[click](javascript:alert(1))|`code`\nline"


def test_report_md_and_html_show_a_hostile_name_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.lab.report_md import md

    f = _house_named(tmp_path, HOSTILE_MD, trigger=HOSTILE_MD)
    out = tmp_path / "run"
    assert main(["sim", str(f), "--games", "3", "--jobs", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    for report in ("report.md", "report.html"):
        text = (out / report).read_text(encoding="utf-8")
        _shown(text)  # no escape sequence, bell or invisible character: `cat report.md` is safe
        assert "<script>" not in text and "href" not in text, report
        if report == "report.md":  # a link is `[text](url)`: every bracket of the name is escaped
            assert not re.search(r"(?<!\\)\]\(javascript:", text)
    text = (out / "report.md").read_text(encoding="utf-8")
    assert md(HOSTILE_MD) in text  # the name, escaped as a whole: in a table's cell it stays one cell
    assert md(HOSTILE_MD).count("|") == md(HOSTILE_MD).count("\\|") and "\n" not in md(HOSTILE_MD)
    assert md("default") == "default" and md("end.goal 14–21, p1 wins") == "end.goal 14–21, p1 wins"


def test_a_name_with_a_line_break_shows_it_as_backslash_n() -> None:
    from interpreter.core.errors import name_text

    assert name_text("a\nb\x1b[2J") == "a\\nb\\x1b[2J"


def test_json_keeps_printable_letters_of_any_script_as_they_are() -> None:
    from interpreter.core.terminal import json_text

    assert json_text({"name": "Zoë ♠ 東"}) == '{\n  "name": "Zoë ♠ 東"\n}'


def test_the_status_line_is_redrawn_in_place_and_erased() -> None:
    import io

    from interpreter.core.terminal import status

    out = io.StringIO()
    status(out, "solving: 10 nodes\x1b[2J")
    status(out, None)
    assert out.getvalue() == "\rsolving: 10 nodes\\x1b[2J\x1b[K\r\x1b[K"


def test_the_terminal_has_rows_only_when_both_output_and_input_are_terminals(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from interpreter.core import terminal

    class Tty:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    for out_tty, in_tty in ((True, False), (False, True), (False, False)):
        monkeypatch.setattr(sys, "stdout", Tty(out_tty))
        monkeypatch.setattr(sys, "stdin", Tty(in_tty))
        assert terminal.terminal_rows() == 0, (out_tty, in_tty)
    monkeypatch.setattr(sys, "stdout", Tty(True))
    monkeypatch.setattr(sys, "stdin", Tty(True))
    assert terminal.terminal_rows() > 0


def test_a_text_taller_than_the_terminal_goes_through_the_pager_with_less_keeping_colours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from interpreter.core.terminal import page

    seen = tmp_path / "seen.txt"
    pager = tmp_path / "pager.py"
    pager.write_text(
        "import os, sys\n"
        f"open({str(seen)!r}, 'w').write(os.environ.get('LESS', '-') + '|' + sys.stdin.read())\n"
        "sys.exit(1)\n",  # a pager's failure is not the caller's: the text was shown
        encoding="utf-8",
    )
    monkeypatch.setenv("PAGER", f"{sys.executable} {pager}")
    monkeypatch.delenv("LESS", raising=False)
    fits = "\n".join(f"line {i}" for i in range(22))  # 22 lines on 24 rows: printed by the caller
    assert page(fits, rows=24) is False and not seen.exists()
    tall = fits + "\nline 22"  # 23 lines: the prompt's row would push the first off the screen
    assert page(tall, rows=24) is True
    assert seen.read_text(encoding="utf-8") == "-R -F -X|" + tall + "\n"
    monkeypatch.setenv("LESS", "-S")  # the user's own LESS is kept
    assert page(tall, rows=24) is True and seen.read_text(encoding="utf-8").startswith("-S|")
    assert page(tall, rows=0) is False  # not a terminal: never paged
    monkeypatch.setenv("PAGER", "")
    monkeypatch.setattr("shutil.which", lambda name: None)  # no pager at all: the caller prints the text
    assert page(tall, rows=24) is False
