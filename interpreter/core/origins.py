"""Where generated code comes from: each generated function's code object, mapped to the rule it was
made for and where that rule is written, so that a failure inside it can name the rule
(language/listing.py registers them; `rule_failure` reads them)."""

from __future__ import annotations

import weakref
from types import CodeType, TracebackType

Origin = tuple[str, str, int]  # (rule label, file, line; 0 when not in a file)

#: each generated code object (nested ones too): the rule it was made for
_ORIGIN: weakref.WeakKeyDictionary[CodeType, Origin] = weakref.WeakKeyDictionary()
#: for an engine function with rules written in place: the rule of each of its (synthetic) lines
_LINES: weakref.WeakKeyDictionary[CodeType, dict[int, Origin]] = weakref.WeakKeyDictionary()


def register(code: CodeType, label: str, file: str, line: int, lines: dict[int, Origin] | None = None) -> None:
    """Remember that `code` (and every code object nested in it) was generated for the rule `label`;
    `lines`: the rule written in place at each of those line numbers of it (engine/inline.py)."""
    todo = [code]
    while todo:
        c = todo.pop()
        _ORIGIN[c] = (label, file, line)
        if lines:
            _LINES[c] = lines
        todo.extend(k for k in c.co_consts if isinstance(k, CodeType))


def origin(code: CodeType) -> Origin | None:
    """The rule a generated code object was made for, or None."""
    return _ORIGIN.get(code)


def rule_at(tb: TracebackType | None) -> str | None:
    """The innermost generated function of a traceback, as `the rule X (file, line N)`; None if none."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        placed = _LINES.get(code)
        found = (placed.get(tb.tb_lineno) if placed else None) or _ORIGIN.get(code, found)
        tb = tb.tb_next
    if found is None:
        return None
    label, file, line = found
    return f"the rule {label} ({file}, line {line})" if line > 0 else f"the rule {label} ({file})"


__all__ = ["Origin", "register", "origin", "rule_at"]
