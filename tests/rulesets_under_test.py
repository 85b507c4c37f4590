"""The rulesets that the generic conformance harness plays: every base and each sensible combination
of options. Add a ruleset here when you ship it."""

RULESETS: list[str] = [
    "default",
]
