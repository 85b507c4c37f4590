"""Running scenario files from tests: each file is one test case, named by its file.

Each scenario file is run by exactly one test module, the one of its concern: `cases()` and
`claim()` record which, and tests/test_scenario_runner.py checks that every file is claimed once.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from interpreter.scripting.scenario import run_file

ROOT = Path(__file__).resolve().parent.parent


def tool_module(name: str) -> ModuleType:
    """The module of a tool of the tree's `tools/` folder (not a package), loaded from its file."""
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCENARIOS = ROOT / "tests" / "scenarios"
CLAIMED: dict[Path, str] = {}


def claim(files: list[Path], by: str) -> list[Path]:
    """Record that the test module `by` runs these scenario files."""
    for f in files:
        f = f.resolve()
        assert f not in CLAIMED or CLAIMED[f] == by, f"{f} is run by both {CLAIMED[f]} and {by}"
        CLAIMED[f] = by
    return files


def cases(*globs: str, under: str | Path = "default", by: str) -> list:
    """The scenario files matching `globs` under tests/scenarios/<under> (or the folder `under`), as test
    parameters of the module `by`."""
    folder = under if isinstance(under, Path) else SCENARIOS / under
    files = sorted({p for g in globs for p in folder.glob(g)})
    assert files, f"no scenario matches {globs} under {folder}"
    claim(files, by)
    return [pytest.param(p, id=f"{p.parent.name}/{p.stem}" if under != "default" else p.stem) for p in files]


def assert_passes(path: Path) -> None:
    result = run_file(path)
    assert result.ok, "\n".join([f"{path.name}: {result.name}"] + result.failures)


def house_file(tmp_path: Path, body: str, name: str = "house") -> Path:
    """A house rule for a test: `name` extending the default rules, with `body` (YAML) after it."""
    p = tmp_path / f"{name}.yaml"
    p.write_text(f"name: {name}\nextends: default\n" + body, encoding="utf-8")
    return p
