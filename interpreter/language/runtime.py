"""What generated rule code may call at run time besides the state's own methods: small helpers
over cards and numbers, and the few builtins it needs. Nothing here reaches files, the network or
the interpreter."""

from __future__ import annotations


def as_cards(v) -> tuple[int, ...] | list[int]:
    """A set of cards from a card, a set, or nothing (not copied: callers that mutate copy first)."""
    cls = v.__class__
    if cls is list or cls is tuple:
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
        return 0
    return seq[max(0, min(i, len(seq) - 1))]


def _top(g, c):
    atts = g.atts.get(c)
    return (atts[-1],) if atts else ()


def _first(cs):
    if cs.__class__ is int:
        return cs
    cs = as_cards(cs)
    return cs[0] if cs else -1


SAFE_BUILTINS = {"len": len, "tuple": tuple, "sum": sum, "min": min, "max": max, "bool": bool,
                 "range": range, "sorted": sorted}
