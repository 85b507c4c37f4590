"""Where generated code comes from: each generated function's code object, mapped to the rule it was
made for and where that rule is written, so that a failure inside it can name the rule
(language/listing.py registers them; `rule_failure` reads them)."""

from __future__ import annotations

import weakref
from types import CodeType, TracebackType

#: each generated code object (nested ones too): (rule label, file, line; 0 when not in a file)
_ORIGIN: weakref.WeakKeyDictionary[CodeType, tuple[str, str, int]] = weakref.WeakKeyDictionary()


def register(code: CodeType, label: str, file: str, line: int) -> None:
    """Remember that `code` (and every code object nested in it) was generated for the rule `label`."""
    todo = [code]
    while todo:
        c = todo.pop()
        _ORIGIN[c] = (label, file, line)
        todo.extend(k for k in c.co_consts if isinstance(k, CodeType))


def rule_at(tb: TracebackType | None) -> str | None:
    """The innermost generated function of a traceback, as `the rule X (file, line N)`; None if none."""
    found = None
    while tb is not None:
        found = _ORIGIN.get(tb.tb_frame.f_code, found)
        tb = tb.tb_next
    if found is None:
        return None
    label, file, line = found
    return f"the rule {label} ({file}, line {line})" if line > 0 else f"the rule {label} ({file})"


__all__ = ["register", "rule_at"]
