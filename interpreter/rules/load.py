"""Loading and checking rulesets: `load_ruleset(spec)` and `check(spec)`.

Both are an error boundary: whatever goes wrong while a ruleset is read, composed, validated or
compiled comes out as the project's own RulesetError(s), never as another exception.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from interpreter.core.errors import CuttleError, RulesetError, RulesetErrors, tidy

from .compose import compose
from .model import Rules
from .sources import looks_like_path, read_part, relative


def _internal(spec: str, e: BaseException) -> RulesetError:
    if isinstance(e, RecursionError):
        return RulesetError(f"'{spec}' is nested too deeply to load", None, code="E212")
    if isinstance(e, MemoryError):
        return RulesetError(f"'{spec}' is too large to load", None, code="E212")
    return RulesetError(f"internal error while loading '{spec}': {type(e).__name__}: {e}", None, code="E000")


@cache
def _load_cached(spec: str) -> Rules:
    return Rules(compose(spec))


def load_ruleset(spec: str, fresh: bool = False) -> Rules:
    """Load a ruleset by name (`default`), combination (`default+twinned`) or path. Shipped ones are
    cached, unless `fresh` (built anew, e.g. to list its generated code)."""
    try:
        if fresh or looks_like_path(spec):
            rules = Rules(compose(spec))
        else:
            rules = _load_cached(spec)
    except CuttleError:
        raise
    except (Exception, RecursionError) as e:
        raise _internal(spec, e) from e
    rules.spec = spec
    return rules


def check(spec: str) -> list[RulesetError]:
    """Every problem of a ruleset, not just the first (empty if it is valid), in file order.
    An option file on its own is checked on the base it requires (default if none)."""
    try:
        return _check(spec)
    except RulesetErrors as e:
        return tidy(e.errors)
    except RulesetError as e:
        return [e]
    except CuttleError as e:
        return [RulesetError(str(e), None, code="E000")]
    except (Exception, RecursionError) as e:
        return [_internal(spec, e)]


def _check(spec: str) -> list[RulesetError]:
    errors: list[RulesetError] = []
    if "+" not in spec:
        try:
            spec = on_its_base(spec)
        except RulesetError as e:
            return [e]
    try:
        Rules(compose(spec, errors))
    except RulesetErrors as e:
        errors.extend(e.errors)
    except RulesetError as e:
        errors.append(e)
    return tidy(errors)


def on_its_base(spec: str) -> str:
    """A whole ruleset as it is; an option file on its own as `BASE+REQUIRED...+OPTION`, on the base it
    requires (default if none): what `check` checks and `cuttle bench` plays for an option."""
    if "+" in spec:
        return spec
    doc = read_part(spec)
    if not (isinstance(doc.data, dict) and doc.data.get("kind") == "option"):
        return spec
    base, before = "default", []
    requires = doc.data.get("requires")
    here = Path(spec) if looks_like_path(spec) else None
    for req in requires if isinstance(requires, list) else []:
        try:
            req = relative(str(req), here)
            data = read_part(req).data
        except RulesetError:
            continue
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind == "option":
            before.append(req)
        else:
            base = req
    return "+".join([base, *before, spec])


__all__ = ["load_ruleset", "check", "on_its_base"]
