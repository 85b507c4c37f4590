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
    program: tuple  # effect + kind.after, then a win check
    countered: tuple
    counterable: Any  # from the kind, or None
    source: dict  # the data, for rules pages and diffs
    # whether its rules read `card` (its first card), not only `cards`: then, for a play of several
    # cards (a twin), which card comes first is the player's choice (ruling 18)
    first_card_matters: bool = False
    # which of `legal` and `target` do not read the played card (`card`, `cards`): those are the same
    # for every card, so the engine works them out once per decision (unknown: assumed to read it)
    card_free: frozenset[str] = field(default=frozenset())
    # whether its rules read `opponent`: at a table of more than two seats it is offered once for each
    # opponent, aimed at that one (SPEC ruling 22; engine/seating.py), and its move names the player
    # unless its target card is on that player's side
    aims: bool = False
    # its `player:` key, compiled: the players it may name (offered once for each, bound as `player`)
    player: Any = None

    # hashed as the object it is (the one the engine made for this ruleset): the lab gathers the plays
    # legal in a game in a set; equality stays field by field
    __hash__ = object.__hash__


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
    # `instead:`, compiled (then the engine's finish of the answered play): what this answer does to the
    # play it answers when it stands, in place of that play's `countered`; () when it has none
    instead: tuple = ()
    # `window:`, compiled: whether it may answer a play whose kind is not counterable (None: only one that is)
    window: Any = None

    __hash__ = object.__hash__  # as PlayDef's


CHECK_WIN = (BUILTIN, "check_win", None)
# A played card that its effect left on the stack goes to the scrap (e.g. the second card of a twin).
CLEANUP = (BUILTIN, "cleanup", None)
FINISH_PLAY = (BUILTIN, "finish_play", None)  # CLEANUP, then CHECK_WIN
# Between the effect and the kind's `after` of a play whose effect has `play from`: the play chosen there
# starts now, so the card that offered it (a 7) reaches the scrap only once that play has resolved.
START_CHOSEN = (BUILTIN, "start_chosen", None)
# After a response's own effect: open a window for the other player, or settle the chain.
AFTER_RESPONSE = (BUILTIN, "after_response", None)
# After a response's `instead`: the answered play's cards still on the stack to the scrap, the win check.
FINISH_ANSWERED = (BUILTIN, "finish_answered", None)


@dataclass(frozen=True)
class TriggerDef:
    """A rule that runs when something happens (`triggers:`): on which event, under which condition
    (`when`, tested with the event's bindings once the step that caused it has resolved), what it does."""

    name: str
    event: str  # game starts, turn starts, turn ends, play resolves, play is countered,
    #                            card leaves, card enters
    zones: frozenset[int]  # for card leaves/enters: the zones (numbers) it listens to
    within: bool  # `play`: moving from one field to the other neither leaves nor enters it
    when: Any  # a compiled condition, or None
    program: tuple
    source: dict
    each_player: bool = False  # `for: each player`: run once for each player, the event's player first
    when_cost: int = 0  # the work of testing `when` once, and of running the effect once, as
    effect_cost: int = 0  # MAX_COST counts it (set by rules/sections.py check_budgets)


def fire(what: str, name: str = "") -> tuple:
    """The engine step that runs the triggers of the events queued so far (`what` says which step has
    just resolved: play, countered, response, turn end, turn start, game, chain)."""
    return (BUILTIN, "fire", (what, name))
