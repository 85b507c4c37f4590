"""`cuttle run DIR` over folder layouts a stranger could hand over (issue 23.7): Hypothesis builds
folders of scenarios mixed with FIFOs, symlinks (inside, outside, up into the working folder, to a
file that is not .yaml, dangling, looping, to folders),
binary files, folders named like files and scenarios naming a ruleset outside. Every run ends, with
the project's own report of each bad file, counts that add up, and nothing from outside echoed."""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cli import main

SECRET = "SECRET-LINE-FROM-OUTSIDE"
PASSING = "ruleset: default\nexpect:\n  turn: p1\n"
FAILING = "ruleset: default\nexpect:\n  turn: p2\n"

# kind -> what the scan makes of it ("pass", "fail", or None when the scan does not list it) and the
# words that say why it failed
KINDS: dict[str, tuple[str | None, str]] = {
    "passing": ("pass", ""),
    "failing": ("fail", "turn: expected p2"),
    "fifo": ("fail", "it is not a regular file"),
    "link-inside": ("pass", ""),
    "link-outside": ("fail", "it is a symlink leading outside the folder"),
    "link-up-into-work": ("fail", "it is a symlink leading outside the folder"),  # still outside DIR
    "link-to-not-yaml": ("fail", "which is not a .yaml file"),
    "link-dangling": ("fail", "it is a symlink to a file that does not exist"),
    "link-loop": ("fail", "it is a symlink that loops back on itself"),
    "binary": ("fail", "it is not UTF-8 text"),
    "folder-named-yaml": ("fail", "it is a folder"),
    "names-ruleset-outside": ("fail", "[E004]"),
    "folder-link-outside": (None, ""),  # the scan does not enter a symlinked folder
    "folder-link-loop": (None, ""),
}


def _make(folder: Path, i: int, kind: str, outside: Path) -> None:
    sub = folder / ("sub" if i % 3 == 2 else "")
    sub.mkdir(exist_ok=True)
    p = sub / f"e{i}.yaml"
    if kind == "passing":
        p.write_text(PASSING, encoding="utf-8")
    elif kind == "failing":
        p.write_text(FAILING, encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(p)
    elif kind == "link-inside":
        (sub / f"e{i}-target.yml").write_text(PASSING, encoding="utf-8")
        p.symlink_to(sub / f"e{i}-target.yml")
    elif kind == "link-outside":
        p.symlink_to(outside / "secret.yaml")
    elif kind == "link-up-into-work":  # `cuttle run downloads/scan` from the project: its .env is not DIR's
        p.symlink_to(Path("..") / ("../" if sub != folder else "") / "secret.yaml")
    elif kind == "link-to-not-yaml":  # inside the folder, but not a rule file by its name
        (sub / f"e{i}.env").write_text(f"key = {SECRET}\n", encoding="utf-8")
        p.symlink_to(sub / f"e{i}.env")
    elif kind == "link-dangling":
        p.symlink_to(sub / "nothing-here.yaml")
    elif kind == "link-loop":
        p.symlink_to(p)
    elif kind == "binary":
        p.write_bytes(b"ruleset: default\n\xff\xfe" + SECRET.encode() + b"\n")
    elif kind == "folder-named-yaml":
        p.mkdir()
    elif kind == "names-ruleset-outside":
        p.write_text(f"ruleset: {outside / 'rule.yaml'}\nexpect:\n  turn: p1\n", encoding="utf-8")
    elif kind == "folder-link-outside":
        (sub / f"d{i}").symlink_to(outside, target_is_directory=True)
    elif kind == "folder-link-loop":
        (sub / f"d{i}").symlink_to(folder, target_is_directory=True)


@contextlib.contextmanager
def _at_most(seconds: int) -> Iterator[None]:
    """Fail (rather than hang the suite) if the block has not ended in `seconds`: a FIFO read blocks."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"cuttle run did not end within {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=8), inside_work=st.booleans())
def test_run_over_any_folder_layout_ends_reports_and_leaks_nothing(
    layout: list[str], inside_work: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp).resolve()
        outside = base / "outside"
        outside.mkdir()
        (outside / "secret.yaml").write_text(f"ruleset: default\n# {SECRET}\n", encoding="utf-8")
        (outside / "rule.yaml").write_text(f"name: {SECRET}\nextends: default\n", encoding="utf-8")
        work = base / "work"
        folder = work / "house" / "scenarios"
        folder.mkdir(parents=True)
        (work / "house" / "secret.yaml").write_text(f"# {SECRET}\n", encoding="utf-8")
        for i, kind in enumerate(layout):
            _make(folder, i, kind, outside)
        listed = [KINDS[k][0] for k in layout if KINDS[k][0] is not None]
        capsys.readouterr()
        # the user works in the house's folder, or runs it from somewhere else entirely
        with contextlib.chdir(work if inside_work else outside), _at_most(30):
            code = main(["run", str(folder)])
        out = capsys.readouterr()
        text = out.out + out.err
        assert SECRET not in text and "Traceback" not in text and "internal error" not in text
        passed, failed = listed.count("pass"), listed.count("fail")
        if listed:
            assert f"{passed} passed, {failed} failed" in text
        assert code == (1 if failed or not listed else 0)
        for kind in layout:
            assert KINDS[kind][1] in text, kind
