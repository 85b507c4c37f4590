"""Work measured without a clock: the number of function calls (Python and C) a piece of code makes,
counted by a profile hook. Deterministic on any machine, so a test can say "twice the input costs about
twice the work" where a timed assertion would be noisy."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def calls(fn: Callable[[], Any]) -> int:
    """How many calls `fn()` makes (its exceptions are counted, then raised again)."""
    n = 0

    def hook(frame: Any, event: str, arg: Any) -> None:
        nonlocal n
        if event == "call" or event == "c_call":
            n += 1

    old = sys.getprofile()
    sys.setprofile(hook)
    try:
        fn()
    finally:
        sys.setprofile(old)
    return n
