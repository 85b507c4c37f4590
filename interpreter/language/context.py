"""What names mean in one ruleset (`Context`), and the names the language itself gives: the attributes
of a card and of a player, the seats, the primitives and their arities."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import ALL_RANKS, CARD_COUNT
from interpreter.core.source import Span

from .cost import Cost

if TYPE_CHECKING:
    from . import tree as A

UNKNOWN_KIND = "?"  # the kind of a counter whose `of` is neither player nor card (already an error)
CARD_ATTRS = (
    "rank",
    "suit",
    "value",
    "role",
    "owner",
    "controller",
    "host",
    "jacks",
    "top",
    "attached",
    "name",
    "last_owner",
    "last_controller",
    "face_down",
)
BOUND_ALWAYS = frozenset({"me", "opponent", "random", "none", "true", "false"})
SEATS = {"p1": 0, "p2": 1}  # player expressions naming a seat (a ruleset's own name of that spelling wins)
MORE_SEATS = {"p3": 2, "p4": 3}  # the seats of a table of three or four (`seats.count`)
# player sets, each about `me` and listed clockwise from the player after `me`: `opponents` (not a
# partner), `others` (every other player), `players` (every player, `me` first); a set of players reads
# as one (`field of opponents`: every opponent's cards in play; `P in opponents`; `count(opponents)`)
PLAYER_SETS = ("opponents", "others", "players")
PARTNER = "partner"  # `me`'s partner (the first clockwise), or nobody without partners
NOBODY = "nobody"  # no player: the result of an ending with no winner (`win nobody`: a draw)
ORDER_SEATS = ("first player", "second player")  # one token each (effect.lark): the seats in turn order
PLAYER_ATTRS = ("turns",)  # `me.turns`: the turns a player has had, this one included
FOREVER = 10**12  # the turns of a mark made without `for N turns` (it lasts for the rest of the game)


@dataclass
class Context:
    """What names mean in one ruleset: constants, definitions, ranks, roles, suits, values."""

    constants: dict[str, Any] = field(default_factory=dict)
    defines: dict[str, tuple[tuple[str, ...], A.Node, Span | None]] = field(default_factory=dict)
    roles: set[str] = field(default_factory=set)
    ranks: tuple[str, ...] = ALL_RANKS
    suit_rank: dict[str, int] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)
    marks: set[str] = field(default_factory=set)
    # `counters:` name -> "player" or "card" (UNKNOWN_KIND: a declaration the validator refused)
    counters: dict[str, str] = field(default_factory=dict)
    verbs: set[str] = field(default_factory=set)
    asked: set[str] = field(default_factory=set)  # the answers yes of `if P agrees to VERB` (moves, not names)
    numbers: set[str] = field(default_factory=set)  # the names of chosen numbers (`choose a number ... as NAME`)
    card_values: bool = False  # whether an effect sets a card's value (`set X.value to N`): `.value` reads it
    deck_size: int = CARD_COUNT  # the most cards any zone (or set of cards) can hold
    seats: int = 2  # the players at the table (`seats.count`)
    teams: tuple[int, ...] = (0, 1)  # the team of each seat (each its own without `seats.teams`)

    def seat_table(self, name: str) -> tuple[Any, ...]:
        """A player set (PLAYER_SETS) or `partner`, for each seat as `me` (clockwise from `me`)."""
        n, teams = self.seats, self.teams
        order = [tuple((s + k) % n for k in range(n)) for s in range(n)]
        if name == "players":
            return tuple(order)
        if name == "others":
            return tuple(o[1:] for o in order)
        if name == "opponents":
            return tuple(tuple(x for x in order[s][1:] if teams[x] != teams[s]) for s in range(n))
        partners = [[x for x in order[s][1:] if teams[x] == teams[s]] for s in range(n)]
        return tuple(p[0] if p else -1 for p in partners)  # partner

    namespace: dict[str, Any] | None = None  # the generated code's globals
    used_names: set[str] = field(default_factory=set)  # constants the expressions refer to
    reads_turns: bool = False  # whether an expression reads `turn` or `P.turns` (the turn number matters)
    # each expression function made by `Compiler.expr` -> its tree and bound names (for the engine, which
    # writes the hot ones into the functions it generates; weak: a function compiled once and dropped,
    # as `explain` does, leaves nothing behind)
    trees: weakref.WeakKeyDictionary[Any, Any] = field(default_factory=weakref.WeakKeyDictionary)
    # each function of plain statements made by `Compiler.program` -> its statements and bound names (the
    # engine writes a direct play's effect into the function it generates for that play; weak, as `trees`)
    programs: weakref.WeakKeyDictionary[Any, Any] = field(default_factory=weakref.WeakKeyDictionary)
    # definition (with the kinds and sizes of its arguments) -> (function name, type, cost, size)
    define_fns: dict[str, tuple[str, str, Cost, int]] = field(default_factory=dict)
    define_sizes: dict[str, int] = field(default_factory=dict)  # definition -> nodes once expanded
    const_names: dict[tuple[type, Any], str] = field(default_factory=dict)  # value -> its K name


PRIMITIVE_ARITY: dict[str, tuple[int, int]] = {
    "count": (1, 1),
    "total": (1, 2),
    "min": (1, 9),
    "max": (1, 9),
    "top": (1, 1),
    "score": (1, 1),
    "goal": (1, 1),
    "can_play": (1, 1),
    "marked": (2, 2),
    "other": (1, 1),
    "any": (1, 1),
    "first": (1, 1),
    "same_rank": (1, 1),
    "deck_top": (1, 1),
    "turns_until": (1, 1),
}
