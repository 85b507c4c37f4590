"""Loading and checking rulesets: `load_ruleset(spec)` and `check(spec)`."""

from __future__ import annotations

from functools import cache

from interpreter.core.errors import RulesetError, RulesetErrors, tidy

from .compose import compose
from .model import Rules
from .sources import read_part


@cache
def _load_cached(spec: str) -> Rules:
    return Rules(compose(spec))


def load_ruleset(spec: str) -> Rules:
    """Load a ruleset by name (`default`), combination (`default+twinned`) or path. Shipped ones are cached."""
    if "/" in spec or spec.endswith((".yaml", ".yml")):
        rules = Rules(compose(spec))
        rules.spec = spec
        return rules
    rules = _load_cached(spec)
    rules.spec = spec
    return rules


def check(spec: str) -> list[RulesetError]:
    """Every problem of a ruleset, not just the first (empty if it is valid), in file order.
    An option file on its own is checked on the base it requires (default if none)."""
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
    for req in doc.data.get("requires") or []:
        try:
            kind = read_part(str(req)).data.get("kind")
        except (RulesetError, AttributeError):
            continue
        if kind == "option":
            before.append(str(req))
        else:
            base = str(req)
    return "+".join([base, *before, spec])


__all__ = ["load_ruleset", "check", "on_its_base"]
