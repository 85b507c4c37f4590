"""Test ids written plainly: what pytest would escape in a parametrized test's id (a line break, a
backslash, anything beyond printable ASCII) is written otherwise, by tests/conftest.py's hook for every
parameter of text and by `plain_id` for a parametrization that gives its own `ids=`.

Why: pytest escapes such a character once in a fresh process, but twice when the same test module is
collected again in one process, so that an id it printed cannot be selected again there. That is how
mutmut runs the tests that reach each mutant (tools/mutation.py): one escaped id made its clean run
fail, and the whole room went unmeasured.
"""

from __future__ import annotations

import re

#: what pytest writes escaped in a test id (anything but printable ASCII, and the backslash itself)
ESCAPED = re.compile(r"[^\x20-\x5b\x5d-\x7e]")


def plain_id(text: str) -> str:
    """`text` as a test id pytest writes as it is: a line break as ` / `, anything else it would
    escape as `_`."""
    return ESCAPED.sub(lambda m: " / " if m.group() == "\n" else "_", text.strip())
