"""Settings every test shares."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis explores new examples on every run while developing (and keeps the ones that failed in
# its database); under CI (CI=true) it draws the same examples each run, so a submission's result
# depends on the code, not on the luck of one run. Run `pytest` without CI to search afresh.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True, scope="session")
def _lab_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The lab's key (lab/seal.py) in a folder of the test session, not the user's own state folder;
    set in the environment so that commands run as subprocesses use it too."""
    yield from _set_for_the_session("CUTTLE_LAB_KEY", tmp_path_factory.mktemp("lab-state") / "lab.key")


@pytest.fixture(autouse=True, scope="session")
def _evaluations(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder of learnt evaluations (players/learnt.py) in a folder of the test session, empty at
    its start, not the user's own cache: a test sees only the evaluations shipped with the rulesets
    and those it trains itself."""
    yield from _set_for_the_session("CUTTLE_EVALUATIONS", tmp_path_factory.mktemp("evaluations"))


def _set_for_the_session(name: str, path: Path) -> Iterator[Path]:
    """`name` set to `path` in the environment (so that subprocesses see it too), then as it was."""
    old = os.environ.get(name)
    os.environ[name] = str(path)
    yield path
    if old is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = old
