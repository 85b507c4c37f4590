"""The compiled parts of a ruleset that the engine runs: plays, responses, and the engine steps
that every play's program ends with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.language.compiler import BUILTIN


@dataclass(frozen=True)
class PlayDef:
    name: str
    verb: str
    ranks: frozenset[str]
    ncards: int
    kind: str | None
    free: bool
    legal: Any
    target: Any
    program: tuple           # effect + kind.after, then a win check
    countered: tuple
    counterable: Any         # from the kind, or None
    source: dict             # the data, for rules pages and diffs
    # which of `legal` and `target` read the played card (`card`, `cards`): the others are the same for
    # every card, so the engine works them out once per decision (unknown: assumed to read it)
    card_free: frozenset[str] = field(default=frozenset())


@dataclass(frozen=True)
class ResponseDef:
    name: str
    verb: str
    ranks: frozenset[str]
    extra: int
    answers: frozenset[str]
    kind: str
    legal: Any
    program: tuple
    counterable: Any
    source: dict


CHECK_WIN = (BUILTIN, "check_win", None)
# A played card that its effect left on the stack goes to the scrap (e.g. the second card of a twin).
CLEANUP = (BUILTIN, "cleanup", None)
FINISH_PLAY = (BUILTIN, "finish_play", None)  # CLEANUP, then CHECK_WIN
# After a response's own effect: open a window for the other player, or settle the chain.
AFTER_RESPONSE = (BUILTIN, "after_response", None)
