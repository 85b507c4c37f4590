"""tools/mutation.py measures mutation testing one room at a time (docs/testing.md): its rooms cover
every source file, each room's configuration mutates that room only, and every room has tests to run.
mutmut itself is not needed here (it is the optional `mutation` extra); what is tested is how the tool
configures it."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from .scenario_util import tool_module

ROOT = Path(__file__).resolve().parent.parent
ROOM_KEYS = ("only_mutate =", "pytest_add_cli_args_test_selection =")


def tool() -> ModuleType:
    return tool_module("mutation")


def test_every_source_file_is_in_exactly_one_room() -> None:
    rooms = tool().ROOMS
    sources = sorted(p.relative_to(ROOT).as_posix() for d in ("interpreter", "repl") for p in (ROOT / d).rglob("*.py"))
    sources = [s for s in sources if s != "interpreter/__init__.py"]
    for source in sources:
        holding = [room for room, (globs, _) in rooms.items() if any(fnmatch.fnmatch(source, g) for g in globs)]
        assert len(holding) == 1, f"{source} is in rooms {holding}: tools/mutation.py's ROOMS must hold it once"


@pytest.mark.parametrize("room", sorted(tool().ROOMS))
def test_a_rooms_configuration_mutates_that_room_only_and_runs_tests_that_name_it(room: str) -> None:
    m = tool()
    tests = m.selected_tests(room, "room")
    assert tests, f"no test module names the {room} room"
    assert all((ROOT / t).is_file() and Path(t).name.startswith("test_") for t in tests)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    # (inside a room's own work folder, where mutmut runs these tests, the copy already names its room)
    text = "".join(line for line in text.splitlines(True) if not line.startswith(ROOM_KEYS))
    config = tomllib.loads(m.room_config(text, room, tests))
    mutmut = config["tool"]["mutmut"]
    assert mutmut["only_mutate"] == m.ROOMS[room][0]
    assert mutmut["pytest_add_cli_args_test_selection"] == tests
    # the rest of the project's configuration is kept: the fast tier, stopping at the first failure
    assert mutmut["pytest_add_cli_args"] == ["-m", "not slow", "-p", "no:cacheprovider", "-x", "-q"]
    assert config["project"]["name"] == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]


def test_the_whole_fast_tier_can_be_selected_instead() -> None:
    assert tool().selected_tests("engine", "fast") == ["tests/"]


def test_a_pyproject_that_already_narrows_mutmut_is_refused_not_overridden() -> None:
    m = tool()
    text = '[tool.mutmut]\nonly_mutate = ["x/*"]\n'
    with pytest.raises(SystemExit, match="already sets only_mutate"):
        m.room_config(text, "core", ["tests/test_x.py"])
    with pytest.raises(SystemExit, match="no single"):
        m.room_config("[tool.other]\n", "core", [])


def test_a_mutants_function_is_read_from_its_name() -> None:
    m = tool()
    assert m.function_of("interpreter.core.source.xǁSpanǁlocate__mutmut_28") == "interpreter.core.source.Span.locate"
    assert m.function_of("interpreter.core.terminal.x__split__mutmut_2") == "interpreter.core.terminal._split"


def test_the_work_copy_drops_what_mutmut_learnt_when_a_test_changed(tmp_path: Path) -> None:
    m = tool()
    if not (ROOT / ".git").exists():  # run by mutmut inside a room's work copy, which is no git checkout
        pytest.skip("not in a git checkout: nothing tracked to copy")
    m.refresh(tmp_path)
    assert (tmp_path / "tools" / "mutation.py").read_bytes() == (ROOT / "tools" / "mutation.py").read_bytes()
    learnt = tmp_path / "mutants" / "mutmut-stats.json"
    learnt.parent.mkdir()
    learnt.write_text("{}", encoding="utf-8")
    (tmp_path / "README.md").write_text("changed\n", encoding="utf-8")
    m.refresh(tmp_path)  # a file that is not a test changed: mutmut's own checks are enough
    assert learnt.exists() and (tmp_path / "README.md").read_bytes() == (ROOT / "README.md").read_bytes()
    (tmp_path / "tests" / "test_mutation_tool.py").write_text("# an older test\n", encoding="utf-8")
    m.refresh(tmp_path)  # a test changed: mutmut would not trace it again, so what it learnt goes
    assert not learnt.exists()
    assert (tmp_path / "tests" / "test_mutation_tool.py").read_bytes() == Path(__file__).read_bytes()


def test_mutmut_runs_the_tests_as_ci_does(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """CI set for mutmut: Hypothesis draws the same examples each run, as under CI."""
    mutation = tool()
    seen: dict = {}
    monkeypatch.setattr(mutation.subprocess, "call", lambda args, cwd, env: seen.update(args=args, env=env) or 0)
    monkeypatch.delenv("CI", raising=False)
    assert mutation.mutmut(tmp_path, ["run"]) == 0
    assert seen["env"]["CI"] == "true" and seen["args"][-2:] == ["mutmut", "run"]
