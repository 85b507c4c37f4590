"""Zones and special player values: the vocabulary that generated rule code, the engine and the
tools share. A zone is an index into `State.zones`.

The first eight zones are those of a two-seat game, numbered as they always were; a game of more seats
(SPEC rulings 21-26: `cutthroat`, `teams`) also has the hands and fields of p3 and p4 after them, so
that every zone of a two-seat game keeps its number (and the code generated for it its text).
`HANDS[p]` and `FIELDS[p]` are seat p's zones in any game; `HAND0 + p`, `FIELD0 + p` only for p1, p2."""

DECK, SCRAP, HAND0, HAND1, FIELD0, FIELD1, SHOWN, STACK = range(8)
HAND2, HAND3, FIELD2, FIELD3 = range(8, 12)
MAX_SEATS = 4  # seats a ruleset may have (`seats.count`: 2 to 4)
HANDS = (HAND0, HAND1, HAND2, HAND3)  # seat -> its hand
FIELDS = (FIELD0, FIELD1, FIELD2, FIELD3)  # seat -> its field
ZONE_NAMES = (
    "deck",
    "scrap",
    "hand of p1",
    "hand of p2",
    "field of p1",
    "field of p2",
    "shown",
    "stack",
    "hand of p3",
    "hand of p4",
    "field of p3",
    "field of p4",
)
ZONE_COUNT = len(ZONE_NAMES)
TWO_SEAT_ZONES = 8  # the zones of a two-seat game (the first eight)


def zone_count(seats: int) -> int:
    """How many zones a game of `seats` seats has (its state's `zones`)."""
    return TWO_SEAT_ZONES if seats <= 2 else ZONE_COUNT


# The player whose hand or field a zone is (-1: nobody's), by zone number, then for -1 (a card in no zone).
CONTROLLER = tuple(
    HANDS.index(z) if z in HANDS else FIELDS.index(z) if z in FIELDS else -1 for z in range(ZONE_COUNT)
) + (-1,)
IS_FIELD = tuple(z in FIELDS for z in range(ZONE_COUNT)) + (False,)  # by zone number, then for -1
IS_HAND = tuple(z in HANDS for z in range(ZONE_COUNT)) + (False,)
RANDOM = -2  # the chooser `random`
DRAW = -3  # winner value of a drawn game (never a seat)

__all__ = [
    "CONTROLLER",
    "IS_FIELD",
    "IS_HAND",
    "DECK",
    "SCRAP",
    "HAND0",
    "HAND1",
    "HAND2",
    "HAND3",
    "FIELD0",
    "FIELD1",
    "FIELD2",
    "FIELD3",
    "HANDS",
    "FIELDS",
    "MAX_SEATS",
    "SHOWN",
    "STACK",
    "ZONE_NAMES",
    "ZONE_COUNT",
    "TWO_SEAT_ZONES",
    "zone_count",
    "RANDOM",
    "DRAW",
]
