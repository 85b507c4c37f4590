"""Settings every test shares."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from .ids import ESCAPED, plain_id

# Hypothesis explores new examples on every run while developing (and keeps the ones that failed in
# its database); under CI (CI=true) it draws the same examples each run, so a submission's result
# depends on the code, not on the luck of one run. Run `pytest` without CI to search afresh.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """A parameter of text becomes its test id written plainly (tests/ids.py); others as pytest makes them."""
    return plain_id(val) if isinstance(val, str) and ESCAPED.search(val) else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """No test id holds what pytest would escape (tests/ids.py): a parametrization giving its own `ids=`
    uses `plain_id`."""
    escaped = [item.nodeid for item in items if "\\" in item.nodeid]
    if escaped:
        raise pytest.UsageError(
            f"{len(escaped)} test ids hold characters pytest escapes (give their parametrization plain ids, "
            f"tests/ids.py), e.g. {escaped[0]}"
        )


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
