"""Running scenario files from tests: each file is one test case, named by its file."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.scripting.scenario import run_file

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"


def cases(*globs: str, under: str = "default") -> list:
    files = sorted({p for g in globs for p in (SCENARIOS / under).glob(g)})
    assert files, f"no scenario matches {globs} under {under}"
    return [pytest.param(p, id=p.stem) for p in files]


def assert_passes(path: Path) -> None:
    result = run_file(path)
    assert result.ok, "\n".join([f"{path.name}: {result.name}"] + result.failures)
