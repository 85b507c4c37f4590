"""Settings every test shares."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


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
