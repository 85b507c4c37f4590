"""Checks of effect-language trees that need the ruleset (ranks, cards): each wrong literal with
its place and the nearest valid name."""

from __future__ import annotations

from typing import Any

from interpreter.core.cards import ALL_RANKS, NAMES
from interpreter.core.errors import RulesetError, suggest
from interpreter.language import tree as A
from interpreter.language.compiler import Context
from interpreter.language.node import parts

_RANK_WORDS = {
    "ace": "A",
    "1": "A",
    "one": "A",
    "jack": "J",
    "queen": "Q",
    "king": "K",
    "t": "10",
    "ten": "10",
    "11": "J",
    "12": "Q",
    "13": "K",
    "joker": "Joker",
    "jokers": "Joker",
}


def rank_word(text: str) -> str | None:
    """The rank a word probably means (`Ace` -> A, `jack` -> J, `11` -> J), or None."""
    return (
        _RANK_WORDS.get(str(text).strip().lower())
        or suggest(str(text).upper(), ALL_RANKS)
        or suggest(str(text), ALL_RANKS)
    )


def rank_hint(text: str) -> str:
    """'did you mean ...' for a word that is not a rank."""
    near = rank_word(text)
    return f"did you mean '{near}'?" if near else f"ranks: {', '.join(ALL_RANKS)}"


def lint(node: Any, span: Any, ctx: Context) -> list[RulesetError]:
    """Rank and card literals in an effect-language tree: each wrong one with its place and the
    nearest valid name."""
    out: list[RulesetError] = []
    if span is None:
        return out

    def at(n: A.Node):
        return span.locate(n.line or 1, n.column or 1)

    def literal_ranks(n: Any):
        if isinstance(n, A.ListLit):
            for i in n.items:
                yield from literal_ranks(i)
        elif isinstance(n, (A.Num, A.Str)):
            yield n, str(n.value)

    bound = {"me", "opponent", "card", "cards", "target", "it", "extra", "answered", "chosen", "random", "none"}

    for n in A.walk(node):  # names a program binds itself (let, for each, choose ... as)
        if isinstance(n, (A.Let, A.ForEach, A.Choose, A.ChooseNumber, A.Where)):
            for attr in ("name", "var", "verb"):
                if isinstance(getattr(n, attr, None), str):
                    bound.add(getattr(n, attr))
    for params, _, _ in ctx.defines.values():
        bound.update(params)

    def walk(n: Any) -> None:
        if isinstance(n, tuple):
            for x in n:
                walk(x)
            return
        if not isinstance(n, A.Node):
            return
        if isinstance(n, A.BinOp) and n.op in ("==", "!=", "in", "not in"):
            for side, other in ((n.left, n.right), (n.right, n.left)):
                if isinstance(other, A.Attr) and other.name == "rank":
                    for lit, text in literal_ranks(side):
                        if text not in ctx.ranks:
                            out.append(
                                RulesetError(f"'{text}' is not a rank", at(lit), code="E203", hint=rank_hint(text))
                            )
                    if (
                        isinstance(side, A.Name)
                        and side.name not in ctx.ranks
                        and side.name not in bound
                        and side.name not in ctx.defines
                        and side.name not in ctx.constants
                        and rank_word(side.name)
                    ):
                        out.append(
                            RulesetError(
                                f"'{side.name}' is not a rank", at(side), code="E203", hint=rank_hint(side.name)
                            )
                        )
                if isinstance(other, A.Attr) and other.name == "name":
                    for lit, text in literal_ranks(side):
                        if isinstance(lit, A.Str) and text.upper() not in NAMES:
                            near = suggest(text.upper(), NAMES)
                            out.append(
                                RulesetError(
                                    f"'{text}' is not a card",
                                    at(lit),
                                    code="E014",
                                    hint=f"did you mean '{near}'?" if near else "cards are written 7H, 10S, QC, RJ",
                                )
                            )
        for f in parts(n):
            walk(getattr(n, f))

    walk(node)
    return out


def same_place(a: RulesetError, b: RulesetError) -> bool:
    return (
        a.where is not None
        and b.where is not None
        and (a.where.file, a.where.line, a.where.column) == (b.where.file, b.where.line, b.where.column)
    )
