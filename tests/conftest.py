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
    path = tmp_path_factory.mktemp("lab-state") / "lab.key"
    old = os.environ.get("CUTTLE_LAB_KEY")
    os.environ["CUTTLE_LAB_KEY"] = str(path)
    yield path
    if old is None:
        os.environ.pop("CUTTLE_LAB_KEY", None)
    else:
        os.environ["CUTTLE_LAB_KEY"] = old


@pytest.fixture(autouse=True, scope="session")
def _evaluations(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder of learnt evaluations (players/learnt.py) in a folder of the test session, empty at
    its start, not the user's own cache: a test sees only the evaluations shipped with the rulesets
    and those it trains itself."""
    path = tmp_path_factory.mktemp("evaluations")
    old = os.environ.get("CUTTLE_EVALUATIONS")
    os.environ["CUTTLE_EVALUATIONS"] = str(path)
    yield path
    if old is None:
        os.environ.pop("CUTTLE_EVALUATIONS", None)
    else:
        os.environ["CUTTLE_EVALUATIONS"] = old
