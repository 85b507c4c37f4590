"""What generated rule code may call at run time besides the state's own methods: small helpers
over cards and numbers. Nothing here reaches files, the network or the interpreter; the generated
code names these (and the few builtins of `BUILTINS`) and nothing else, and has no builtins of its
own (see compiler.py)."""

from __future__ import annotations

from interpreter.core.errors import RuleRuntimeError
from interpreter.core.limits import MAX_INT
from interpreter.core.zones import DRAW

VALUE = "value"  # the counter of a card's own value, set by an effect (`set X.value to N`; engine/state.py)


def as_cards(v) -> tuple[int, ...] | list[int]:
    """A set of cards from a card, a set, or nothing (not copied: callers that mutate copy first).
    `none` (or any number below 0) is no card, alone or in a list: `[target, none]` is one card."""
    cls = v.__class__
    if cls is list:
        return v
    if cls is tuple:
        for c in v:
            if c.__class__ is int and c < 0:
                return tuple(c for c in v if c.__class__ is not int or c >= 0)
        return v
    if cls is int:
        return () if v < 0 else (v,)
    if v is None:
        return ()
    return tuple(v)


def _div(a: int, b: int) -> int:
    return a // b if b else 0


def _index(seq, i):
    if not seq:
        return -1  # an item of an empty list or set: none (no card)
    return seq[max(0, min(i, len(seq) - 1))]


def _top(g, c):
    atts = g.atts.get(c)
    return (atts[-1],) if atts else ()


def _first(cs):
    if cs.__class__ is int:
        return cs
    cs = as_cards(cs)
    return cs[0] if cs else -1


def _deck_top(g, n: int) -> tuple[int, ...]:
    """The top `n` cards of the deck, top first (fewer if it holds fewer)."""
    if n <= 0:
        return ()
    return tuple(reversed(g.zones[0][-n:]))


def _number(n: int) -> int:
    if -MAX_INT <= n <= MAX_INT:
        return n
    raise RuleRuntimeError(
        f"a number in the rules grew beyond the limit of {MAX_INT:.0e} (MAX_INT); "
        f"the move is refused and the game unchanged"
    )


def _add(a, b):
    """`a + b`: two numbers (kept within MAX_INT), or two sets of cards joined."""
    if a.__class__ is int and b.__class__ is int:
        return _number(a + b)
    return _join(a, b)


def _join(a, b) -> tuple[int, ...]:
    """`a + b` on cards: the cards of either, each once (a's first, in order): a set of targets never
    offers the same move twice."""
    return tuple(dict.fromkeys((*as_cards(a), *as_cards(b))))


def _sub(a: int, b: int) -> int:
    return _number(a - b)


def _mul(a: int, b: int) -> int:
    return _number(a * b)


def _player(p, seats=2) -> int:
    """A value used as a player whose kind the checks at load time could not prove (a seat of a table of
    `seats`)."""
    if p == 0 or p == 1 or (p.__class__ is int and 2 <= p < seats):
        return int(p)
    if p == -1:
        raise RuleRuntimeError(
            "the rules used nobody as a player (the owner or controller of no card, or of a card that "
            "nobody holds, such as one in the deck); the move is refused and the game unchanged"
        )
    raise RuleRuntimeError(
        f"the rules used {p!r} as a player (a player is me, opponent or a card's owner); "
        f"the move is refused and the game unchanged"
    )


def _winner(p, seats=2) -> int:
    """The result an ending names (`win P`, `end.on_passes`): a player (of a table of `seats`), or DRAW
    for `nobody` (-1): no winner, a draw."""
    return DRAW if p == -1 else _player(p, seats)


def _from_top(cs):
    """A deck's cards (its list ends with the top card) read from the top; or cards turned round."""
    return cs[::-1]


def _count(n) -> int:
    """A number of cards to draw or reveal, from a value the checks at load time could not prove a number."""
    if n.__class__ is int:
        return n
    if n.__class__ is bool:  # a condition where a number is needed counts 1 or 0 (`draw (N if C else C2)`)
        return int(n)
    raise RuleRuntimeError(f"the rules used {n!r} as a number of cards; the move is refused and the game unchanged")


def _least(xs):
    """`min(S)` of one list: its smallest item, 0 when it is empty."""
    return min(xs, default=0)


def _most(xs):
    """`max(S)` of one list: its largest item, 0 when it is empty."""
    return max(xs, default=0)


def _valued(g, c: int, table) -> int:
    """`.value` in a ruleset where an effect sets cards' values: the card's own value while it has
    one (`set X.value to N`), else its rank's from `values:` (`table`, the generated code's VAL)."""
    own = g.own_value(c)
    return table[c] if own is None else own


def _set_value(g, c: int, v, turns: int) -> None:
    """`set X.value to N [for T turns]`: the card's own value (none: nothing to set)."""
    if c >= 0:
        g.set_counter(c, VALUE, _number(v), turns)


def _add_value(g, c: int, v, table) -> None:
    """`add N to X.value`: its value (its own, else its rank's) and N, as its own value."""
    if c >= 0:
        g.add_value(c, _number(v), table[c])


def _turns_until(g, p, seats):
    """`turns_until(P)`: the turns from this one to the end of P's next turn (1: the next player's; at a
    table of `seats`, `seats` for the player whose turn it is)."""
    d = (p - g.turn) % seats
    return d if d else seats


def _sides(g, zones, players):
    """The cards of several players' hands or fields (`field of opponents`): `zones` is HANDS or FIELDS,
    the players in their order (clockwise from the player after `me`)."""
    return [c for p in players for c in g.zones[zones[p]]]


HELPERS = {
    "_sides": _sides,
    "_turns_until": _turns_until,
    "_valued": _valued,
    "_set_value": _set_value,
    "_add_value": _add_value,
    "_least": _least,
    "_most": _most,
    "_from_top": _from_top,
    "_cards": as_cards,
    "_div": _div,
    "_index": _index,
    "_top": _top,
    "_first": _first,
    "_add": _add,
    "_join": _join,
    "_sub": _sub,
    "_mul": _mul,
    "_player": _player,
    "_winner": _winner,
    "_count": _count,
    "_deck_top": _deck_top,
}
"""The helpers, by the names generated code calls them."""

BUILTINS = {"len": len, "tuple": tuple, "sum": sum, "min": min, "max": max, "bool": bool, "range": range}
"""The only builtins generated code may call (placed in its namespace; it has no `__builtins__`)."""


def choices(n: int, k: int, cap: int = 10**12) -> int:
    """How many ways to choose k of n cards (counting stops once past `cap`: never a huge number)."""
    n = max(n, 0)
    k = min(max(k, 0), n)
    k = min(k, n - k)
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
        if r > cap:
            return r
    return r
