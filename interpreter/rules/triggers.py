"""The `triggers:` section: rules that run when something happens in the game.

(The key naming the event is `event`, not `on`: YAML reads a bare `on` as the value true.)

An event is written as a few plain words (`card leaves field`, `turn starts`...). This module reads
those words (with did-you-mean on a typo), compiles each trigger, and, when a ruleset has triggers,
ends every step's program (a play's, a response's, the turn's end) with the engine step that runs
them. A ruleset without triggers is built exactly as before: it pays nothing.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from interpreter.core.errors import suggest
from interpreter.core.zones import DECK, FIELDS, HANDS, SCRAP, SHOWN, STACK

from .builder import BASE, Builder
from .defs import CHECK_WIN, TriggerDef, fire

if TYPE_CHECKING:
    from .model import Rules

# The events a trigger may name, with what each binds besides `me` and `opponent`.
EACH_PLAYER = "each player"  # `for: each player`: the trigger runs for each player in turn
SIMPLE_EVENTS = ("game starts", "turn starts", "turn ends", "play resolves", "play is countered")
ZONE_WORDS: dict[str, frozenset[int]] = {
    "hand": frozenset(HANDS),  # every seat's, at a table of three or four too
    "field": frozenset(FIELDS),
    "play": frozenset(FIELDS),
    "deck": frozenset({DECK}),
    "scrap": frozenset({SCRAP}),
    "shown": frozenset({SHOWN}),
    "stack": frozenset({STACK}),
}
CARD_EVENTS = ("card leaves", "card enters")
EVENT_WORDS = SIMPLE_EVENTS + tuple(f"{e} {z}" for e in CARD_EVENTS for z in ZONE_WORDS)
BINDINGS: dict[str, frozenset[str]] = {
    "game starts": BASE,
    "turn starts": BASE,
    "turn ends": BASE,
    "play resolves": BASE | {"card", "cards", "target", "cause", "countered"},
    "play is countered": BASE | {"card", "cards", "target", "cause", "countered"},
    "card leaves": BASE | {"it", "from_zone", "to_zone", "cause", "countered"},
    "card enters": BASE | {"it", "from_zone", "to_zone", "cause", "countered"},
}


def parse_event(text: str) -> tuple[str, str] | None:
    """`card leaves field` -> ("card leaves", "field"); None if it is not an event."""
    words = " ".join(text.split())
    if words in SIMPLE_EVENTS:
        return words, ""
    for e in CARD_EVENTS:
        if words.startswith(e + " ") and words[len(e) + 1 :] in ZONE_WORDS:
            return e, words[len(e) + 1 :]
    return None


def build_triggers(b: Builder, r: Rules) -> None:
    """triggers: name -> {event, when, effect, text}. With any trigger, every step's program ends by
    running the triggers of what happened during it (and the win check after them)."""
    r.triggers = ()
    r.trigger_moves = False
    found: list[TriggerDef] = []
    for name, t in (b.d.get("triggers") or {}).items():
        if not isinstance(t, dict):
            continue
        path = ("triggers", str(name))
        on = t.get("event")
        if not isinstance(on, str):
            bare_on = any(str(k) == "True" for k in t)
            b.error(
                f"triggers.{name}: needs `event: EVENT` (one of: {', '.join(SIMPLE_EVENTS)}, "
                f"card leaves ZONE, card enters ZONE)",
                path,
                "E026",
                key=True,
                hint="YAML reads a bare `on:` as true: the key is `event`" if bare_on else None,
            )
            continue
        event = parse_event(on)
        if event is None:
            near = suggest(" ".join(on.split()), EVENT_WORDS)
            b.error(
                f"triggers.{name}.event: unknown event '{on}'",
                path + ("event",),
                "E026",
                f"did you mean '{near}'?"
                if near
                else f"events: {', '.join(SIMPLE_EVENTS)}, card leaves ZONE, card enters ZONE "
                f"(ZONE: {', '.join(ZONE_WORDS)})",
            )
            continue
        each = t.get("for")
        if each is not None and (not isinstance(each, str) or " ".join(each.split()) != EACH_PLAYER):
            b.error(
                f"triggers.{name}.for: expected 'each player', got '{each}'",
                path + ("for",),
                "E026",
                "write `for: each player` to run the trigger once for each player, or leave it out",
            )
            continue
        bound = BINDINGS[event[0]]
        when = b.expr(path + ("when",), bound)
        program = b.prog(path + ("effect",), bound)
        found.append(
            TriggerDef(
                name=str(name),
                event=event[0],
                zones=ZONE_WORDS.get(event[1], frozenset()),
                within=event[1] == "play",
                when=when,
                program=program,
                source=t,
                each_player=each is not None,
            )
        )
    if not found:
        return
    r.triggers = tuple(found)
    r.trigger_moves = any(t.event in CARD_EVENTS for t in found)
    r.plays = [
        dataclasses.replace(
            p,
            program=p.program + (fire("play", p.name), CHECK_WIN),
            countered=p.countered + (fire("countered", p.name), CHECK_WIN),
        )
        for p in r.plays
    ]
    r.responses = [
        dataclasses.replace(x, program=x.program[:-1] + (fire("response", x.name), x.program[-1])) for x in r.responses
    ]
    r.answering = {}
    for x in r.responses:
        for a in x.answers:
            r.answering.setdefault(a, []).append(x)
