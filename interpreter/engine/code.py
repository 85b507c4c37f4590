"""The generated Python of a ruleset, for `cuttle code`: every function the compiler made for its
rules (named after each rule, with the file and line where the rule is written) and the engine's
own generated functions (the move enumerators, the win check, the direct plays)."""

from __future__ import annotations

from interpreter.core.errors import CuttleError, suggest
from interpreter.language.listing import Listing, recording
from interpreter.rules import load_ruleset

from .machine import prepare


def generated_code(spec: str) -> list[Listing]:
    """Every generated function of the ruleset `spec`, in the order they were made."""
    with recording() as found:
        rules = load_ruleset(spec, fresh=True)
        prepare(rules)
    return found


def select(listings: list[Listing], rule: str | None) -> list[Listing]:
    """The listings of one rule: its label, or every label under it (`plays.scuttle` gives its
    `legal`, `target` and `effect`; `engine` the engine's own functions)."""
    if rule is None:
        return listings
    chosen = [x for x in listings if x.label == rule or x.label.startswith(rule + ".")]
    if not chosen:
        labels = sorted({".".join(x.label.split(".")[:k]) for x in listings for k in range(1, x.label.count(".") + 2)})
        hint = suggest(rule, labels)
        tops = ", ".join(sorted({x.label.split(".")[0] for x in listings}))
        raise CuttleError(
            f"the ruleset has no generated code for '{rule}'"
            + (f" (did you mean '{hint}'?)" if hint else f" (its generated code is under: {tops})")
        )
    return chosen


def code_text(listings: list[Listing]) -> str:
    """The listings as one Python text, each function under a comment naming its rule and its place."""
    parts = []
    for x in listings:
        where = f"{x.file}, line {x.line}" if x.line > 0 else x.file
        head = f"# {x.label} — {where}".replace("\n", "\\n").replace("\r", "\\r")  # a name from a file: one line
        parts.append(f"{head}\n{x.text}\n")
    return "\n".join(parts)


__all__ = ["generated_code", "select", "code_text"]
