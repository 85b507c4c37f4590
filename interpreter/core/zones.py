"""Zones and special player values: the vocabulary that generated rule code, the engine and the
tools share. A zone is an index into `State.zones`."""

DECK, SCRAP, HAND0, HAND1, FIELD0, FIELD1, SHOWN, STACK = range(8)
ZONE_NAMES = ("deck", "scrap", "hand of p1", "hand of p2", "field of p1", "field of p2", "shown", "stack")
# The player whose hand or field a zone is (-1: nobody's), by zone number, then for -1 (a card in no zone).
CONTROLLER = tuple(
    z - FIELD0 if z in (FIELD0, FIELD1) else z - HAND0 if z in (HAND0, HAND1) else -1 for z in range(8)
) + (-1,)
RANDOM = -2  # the chooser `random`
DRAW = 2  # winner value of a drawn game

__all__ = [
    "CONTROLLER",
    "DECK",
    "SCRAP",
    "HAND0",
    "HAND1",
    "FIELD0",
    "FIELD1",
    "SHOWN",
    "STACK",
    "ZONE_NAMES",
    "RANDOM",
    "DRAW",
]
