"""Effect-language trees in plain English, for rules pages and diffs.

One generic renderer over the node types (a `match` per kind of phrase: statements, conditions,
values, and noun phrases for sets of cards), plus a few idioms that make common shapes read well:

    scrap play where it.role == point                      -> scrap every point card in play
    choose 1 from scrap where it.rank != 3 by me as take
    move take to hand of me                                -> you choose 1 card from the scrap (not a 3)
                                                              and put it into your hand
    count(deck) > 0                                        -> the deck is not empty
    goals[count(field of me where it.rank == K ...)]       -> 21 with no King, 14 with 1, ...

Nothing here knows a card: words come from the tree, the ruleset's names (constants, definitions,
roles) and a small vocabulary of the game's nouns. A shape with no rendering falls back to its
source text in backticks, so every tree reads as something.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from . import tree as A
from .compiler import CARD_ATTRS as _CARD_ATTRS
from .phrasing import (
    ARITH_WORDS,
    BE,
    BOUND_WORDS,
    COMPARE_WORDS,
    DOWN_TO,
    NEGATED,
    NP,
    RANK_WORDS,
    a,
    join_or,
    kind_word,
    rank_noun,
    role_noun,
    sentence,
    words,
)
from .printer import to_text

# -- helpers ------------------------------------------------------------------------------------


def code(node: A.Node | Sequence[A.Node]) -> str:
    """The fallback: the source text itself."""
    return f"`{to_text(node)}`"


def subst(node: Any, mapping: dict[str, A.Node]) -> Any:
    """Replace names by trees (used to read a definition's body with its arguments)."""
    if isinstance(node, A.Name) and node.name in mapping:
        return mapping[node.name]
    if isinstance(node, tuple):
        return tuple(subst(x, mapping) for x in node)
    if isinstance(node, A.Node):
        changes = {
            f.name: subst(getattr(node, f.name), mapping)
            for f in dataclasses.fields(node)
            if f.name not in ("line", "column")
        }
        return dataclasses.replace(node, **changes)
    return node


# -- the context: what names mean in this ruleset -----------------------------------------------


@dataclass
class Context:
    constants: dict[str, Any] = field(default_factory=dict)
    defines: dict[str, tuple[tuple[str, ...], A.Node]] = field(default_factory=dict)
    #: names bound to chosen cards by `choose ... as NAME` (NAME -> phrase)
    chosen: dict[str, str] = field(default_factory=dict)
    #: loop variables and other names read as a fixed phrase
    aliases: dict[str, str] = field(default_factory=dict)
    #: the grammatical subject of the clause being rendered (a player node), for "their"
    subject: A.Node | None = None
    #: how many cards of each rank the deck holds (when known): a table read by a count of one
    #: rank (`goals[count(... it.rank == K)]`) is told only as far as the deck allows
    rank_counts: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: dict | None) -> Context:
        """A context from a ruleset's merged YAML (`Rules.data`)."""
        from .parser import parse_expr

        data = data or {}
        defines: dict[str, tuple[tuple[str, ...], A.Node]] = {}
        for key, body in (data.get("define") or {}).items():
            head, _, rest = str(key).partition("(")
            params = tuple(p.strip() for p in rest.rstrip(") ").split(",") if p.strip())
            try:
                defines[head.strip()] = (params, parse_expr(str(body)))
            except Exception:  # an invalid ruleset is reported by `check`; here it just reads as code
                continue
        return cls(constants=dict(data.get("constants") or {}), defines=defines)

    def with_(self, **kw: Any) -> Context:
        return dataclasses.replace(self, **kw)


def _own(node: A.Node, method: str) -> bool:
    """Whether a construct says its English itself (the constructs not moved yet are told below)."""
    base = A.Expression if isinstance(node, A.Expression) else A.Statement
    return getattr(type(node), method, None) is not getattr(base, method, None)


# -- players ------------------------------------------------------------------------------------


def _is(node: A.Node | None, name: str) -> bool:
    return isinstance(node, A.Name) and node.name == name


def third_person(p: A.Node | None) -> bool:
    return p is not None and not _is(p, "me")


def player(p: A.Node | None, ctx: Context) -> str:
    """A player as a subject: you, your opponent, its owner..."""
    if p is None:
        return "you"
    if _is(p, "me"):
        return "you"
    if _is(p, "opponent"):
        return "your opponent"
    if isinstance(p, A.Name) and p.name in ("p1", "p2") and p.name not in ctx.constants and p.name not in ctx.defines:
        return p.name.upper()  # a seat
    if isinstance(p, A.Name) and p.name in ("first player", "second player"):
        return f"the {p.name}"  # who moved first in this game, and the other
    if isinstance(p, A.Attr) and p.name in ("owner", "controller"):
        return f"{possessive(p.obj, ctx)} {p.name}"
    if isinstance(p, A.Attr) and p.name in ("last_owner", "last_controller"):
        return f"{possessive(p.obj, ctx)} last {p.name[5:]}"
    if isinstance(p, A.Call) and p.func == "other" and len(p.args) == 1:
        if _is(p.args[0], "me"):
            return "your opponent"
        if _is(p.args[0], "opponent"):
            return "you"
        return f"the player other than {player(p.args[0], ctx)}"
    return value(p, ctx)


def possessive(p: A.Node | None, ctx: Context) -> str:
    """your, your opponent's, its, this card's ... ("their" when it is the clause's subject)."""
    if p is None or _is(p, "me"):
        return "your"
    if ctx.subject is not None and p == ctx.subject and third_person(p):
        return "their"
    if _is(p, "it"):
        return "its"
    who = player(p, ctx)
    return who + "'" if who.endswith("s") else who + "'s"


def conj(verb: str, subject: A.Node | None) -> str:
    """The verb for a subject: you choose / your opponent chooses."""
    if not third_person(subject):
        return verb
    first, _, rest = verb.partition(" ")
    if first == "have":
        first = "has"
    elif first.endswith(("s", "sh", "ch", "x")):
        first += "es"
    else:
        first += "s"
    return first + (" " + rest if rest else "")


def one_target(node: A.Node, ctx: Context) -> str:
    """What a play's target names, as "one of ..." ("one of your opponent's point cards that this card
    beats"); cards joined with `+` read "one of A or one of B"."""
    if isinstance(node, A.BinOp) and node.op == "+":
        return f"{one_target(node.left, ctx)} or {one_target(node.right, ctx)}"
    np = noun(node, ctx)
    return np.one() if np else value(node, ctx)


def noun(node: A.Node, ctx: Context) -> NP | None:
    """A set-of-cards expression as a noun phrase, or None if it is not one."""
    if _own(node, "value_words"):
        return cast(A.Expression, node).noun(English(ctx))
    match node:
        case A.Zone(zone="deck"):
            return NP(place="in the deck", source="the deck")
        case A.Zone(zone="scrap"):
            return NP(place="in the scrap", source="the scrap")
        case A.Zone(zone="shown"):
            return NP(place="among the revealed cards", source="the revealed cards")
        case A.Zone(zone="play"):
            return NP(place="in play", source="the cards in play")
        case A.Zone(zone="hand", player=p):
            return NP(place=f"in {possessive(p, ctx)} hand", source=f"{possessive(p, ctx)} hand")
        case A.Zone(zone="field", player=p):
            return NP(
                owner=possessive(p, ctx),
                holder=p,
                place=f"in front of {player(p, ctx)}",
                source=f"{possessive(p, ctx)} cards in play",
            )
        case A.Where(source=s, cond=c, var=v):
            np = noun(s, ctx)
            if np is None or np.definite:
                np = NP(place=f"in {value(s, ctx)}", source=value(s, ctx))
            if v:  # `where x: COND`: read as `it` where that is unambiguous, else "that card"
                c, ctx = _named_card(c, v, ctx)
            _restrict(np, c, ctx)
            return np
        case A.Attr(obj=o, name="jacks"):
            return NP(role="jack", place=f"on {value(o, ctx)}", source=f"the Jacks on {value(o, ctx)}")
        case A.Call(func="top", args=(o,)):
            return NP(definite=f"the top Jack on {value(o, ctx)}")
        case A.Call(func="deck_top", args=(n,)):
            return NP(definite=_deck_top_words(n, ctx), plural_definite=not _is_one(n))
        case A.Call(func=f, args=args) if f in ctx.defines:
            params, body = ctx.defines[f]
            if len(params) == len(args) and _looks_like_set(body, ctx):
                return noun(subst(body, dict(zip(params, args, strict=True))), ctx)
        case A.Name(name=n) if n in ctx.defines and not ctx.defines[n][0]:
            if _looks_like_set(ctx.defines[n][1], ctx):
                return noun(ctx.defines[n][1], ctx)
        case A.Name(name=n) if n in ctx.aliases:
            return NP(definite=ctx.aliases[n])
        case A.Name(name=n) if n in ctx.chosen:
            return NP(definite=ctx.chosen[n], plural_definite=True)
        case A.Name(name="cards" | "extra" | "chosen" as n):
            return NP(definite=BOUND_WORDS[n], plural_definite=True)
        case A.Name(name="card" | "target" | "it" as n):
            return NP(definite=BOUND_WORDS[n])
    return None


# what an expression's own `it` is called while it is read (`total(CARDS, EXPR)`: "each card's value")
_EACH = " each"


def _in_scope(node: Any, name: str, new: str) -> Any:
    """`node` with the name `name` written `new` where both mean what they mean here: not inside a part
    that binds either name again (a `where` on that name; `it` of a nested `where` or `total(CARDS, EXPR)`)."""
    if isinstance(node, A.Name):
        return dataclasses.replace(node, name=new) if node.name == name else node
    if isinstance(node, tuple):
        return tuple(_in_scope(x, name, new) for x in node)
    if isinstance(node, A.Where) and (node.var or "it") in (name, new):  # (bound again, or `new` means another card)
        return dataclasses.replace(node, source=_in_scope(node.source, name, new))
    if isinstance(node, A.Call) and node.func == "total" and len(node.args) == 2 and "it" in (name, new):
        return dataclasses.replace(node, args=(_in_scope(node.args[0], name, new), node.args[1]))
    if isinstance(node, A.Node):
        changes = {
            f.name: _in_scope(getattr(node, f.name), name, new)
            for f in dataclasses.fields(node)
            if f.name not in ("line", "column")
        }
        return dataclasses.replace(node, **changes)
    return node


def _named_card(cond: A.Node, var: str, ctx: Context) -> tuple[A.Node, Context]:
    """The condition of `where x: COND` read as a condition on `it` (so "whose value is 3" reads as
    it does unnamed), and x, where `it` means another card (a nested `where`), called "that card"."""
    if _in_scope(cond, "it", _EACH) != cond:  # the condition reads an outer `it` too: x keeps its own words
        return cond, ctx.with_(aliases={**ctx.aliases, var: "that card"})
    return _in_scope(cond, var, "it"), ctx.with_(aliases={**ctx.aliases, var: "that card"})


def _is_one(n: A.Node) -> bool:
    return isinstance(n, A.Num) and n.value == 1


def _deck_top_words(n: A.Node, ctx: Context) -> str:
    """`deck_top(3)`: the top 3 cards of the deck."""
    if _is_one(n):
        return "the top card of the deck"
    return f"the top {value(n, ctx)} cards of the deck"


def _looks_like_set(node: A.Node, ctx: Context) -> bool:
    if isinstance(node, (A.Zone, A.Where)):
        return True
    if isinstance(node, A.Call) and node.func in ctx.defines:
        return _looks_like_set(ctx.defines[node.func][1], ctx)
    return False


def _it_attr(node: A.Node, name: str) -> bool:
    return isinstance(node, A.Attr) and node.name == name and _is(node.obj, "it")


def _literal(node: A.Node) -> str | None:
    if isinstance(node, A.Num):
        return str(node.value)
    if isinstance(node, A.Name):
        return node.name
    if isinstance(node, A.Str):
        return node.value
    return None


def _restrict(np: NP, cond: A.Node, ctx: Context) -> None:
    """Narrow a noun phrase by a `where` condition about `it`."""
    match cond:
        case A.BinOp(op="and", left=lhs, right=rhs):
            _restrict(np, lhs, ctx)
            _restrict(np, rhs, ctx)
            return
        case A.BinOp(op="or", left=lhs, right=rhs):
            alts = []
            for side in _disjuncts(cond):
                sub = NP()
                _restrict(sub, side, ctx)
                if sub.quals or sub.heads:
                    break
                alts.append((sub.head(), sub.head(True)))
            else:
                if np.rank is None and np.role is None and np.heads is None:
                    np.heads = alts
                    return
            np.quals.append(f"such that {cond_text(cond, ctx)}")
            del lhs, rhs
            return
        case A.BinOp(op="==", left=lhs, right=rhs) if _it_attr(lhs, "role") and _literal(rhs):
            np.role = _literal(rhs)
            return
        case A.BinOp(op="==", left=lhs, right=rhs) if _it_attr(lhs, "rank") and _literal(rhs):
            np.rank = _literal(rhs)
            return
        case A.BinOp(op="!=", left=lhs, right=rhs) if _it_attr(lhs, "rank") and _literal(rhs):
            np.quals.append(f"(not {a(rank_noun(_literal(rhs) or ''))})")
            return
        case A.BinOp(op="!=", left=lhs, right=rhs) if _it_attr(lhs, "role") and _literal(rhs):
            np.quals.append(f"(not {a(role_noun(_literal(rhs) or ''))})")
            return
        case A.BinOp(op="in" | "not in" as op, left=lhs, right=A.ListLit(items=items)) if _it_attr(lhs, "rank"):
            ranks = [a(rank_noun(_literal(i) or to_text(i))) for i in items]
            np.quals.append(f"({'' if op == 'in' else 'not '}{join_or(ranks)})")
            return
        case A.Attr(obj=A.Name(name="it"), name="top"):
            np.pre.append("top")
            return
        case A.Not(operand=A.Attr(obj=A.Name(name="it"), name="top")):
            np.quals.append("(not the top one)")
            return
        case A.BinOp(op="!=", left=A.Name(name="it"), right=other):
            np.quals.append(f"other than {value(other, ctx)}")
            return
    np.quals.append(_relative(cond, ctx))


def _disjuncts(node: A.Node) -> list[A.Node]:
    if isinstance(node, A.BinOp) and node.op == "or":
        return _disjuncts(node.left) + _disjuncts(node.right)
    return [node]


def _relative(cond: A.Node, ctx: Context) -> str:
    """A condition about `it` as a relative clause: `that this card beats`, `that is not protected`."""
    negated = False
    inner = cond
    if isinstance(inner, A.Not):
        negated, inner = True, inner.operand
    if isinstance(inner, A.Call) and inner.func in ctx.defines and not _looks_like_set(ctx.defines[inner.func][1], ctx):
        args = inner.args
        w = words(inner.func)
        if len(args) == 1 and _is(args[0], "it"):
            return f"that {BE} {'not ' if negated else ''}{w}"
        if len(args) == 2 and _is(args[1], "it") and not _mentions_it(args[0]):
            subj = value(args[0], ctx)
            return f"that {subj} {'does not ' + w.removesuffix('s') if negated else w}"
        if len(args) == 2 and _is(args[0], "it") and not _mentions_it(args[1]):
            return f"that {'does not ' + w.removesuffix('s') if negated else w} {value(args[1], ctx)}"
    if (
        isinstance(inner, A.BinOp)
        and inner.op in COMPARE_WORDS
        and isinstance(inner.left, A.Attr)
        and _is(inner.left.obj, "it")
        and not _mentions_it(inner.right)
    ):
        op = NEGATED[inner.op] if negated else inner.op
        return f"whose {inner.left.name} {COMPARE_WORDS[op]} {value(inner.right, ctx)}"
    return f"such that {cond_text(cond, ctx)}"


def _mentions_it(node: Any) -> bool:
    if _is(node, "it"):
        return True
    if isinstance(node, A.Where):
        return _mentions_it(node.source)
    if isinstance(node, tuple):
        return any(_mentions_it(x) for x in node)
    if isinstance(node, A.Node):
        return any(
            _mentions_it(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name not in ("line", "column")
        )
    return False


# -- values ----------------------------------------------------------------------------------


def value(node: A.Node, ctx: Context) -> str:
    """An expression as a noun phrase or quantity."""
    if _own(node, "value_words"):
        return cast(A.Expression, node).value_words(English(ctx))
    match node:
        case A.Num(value=v):
            return str(v)
        case A.Str(value=v):
            return f'"{v}"'
        case A.Name(name="me" | "opponent"):
            return player(node, ctx)
        case A.Name(name=n) if n in ctx.aliases:
            return ctx.aliases[n]
        case A.Name(name=n) if n in ctx.chosen:
            return ctx.chosen[n]
        case A.Name(name=n) if n in BOUND_WORDS:
            return BOUND_WORDS[n]
        case A.Name(name=n) if n in ctx.constants:
            v = ctx.constants[n]
            shown = ", ".join(map(str, v)) if isinstance(v, list) else str(v)
            return f"the {words(n)} ({shown})"
        case A.Name(name=n) if n in ctx.defines and not ctx.defines[n][0]:
            np = noun(node, ctx)
            return np.plural() if np else words(n)
        case A.Name(name=n) if n in RANK_WORDS or n.isdigit():
            return a(rank_noun(n))
        case A.Name(name=n):
            return words(n)
        case A.Attr(obj=o, name="owner" | "controller" | "last_owner" | "last_controller"):
            return player(node, ctx)
        case A.Attr(obj=o, name="host"):
            return f"the card {value(o, ctx)} is on"
        case A.Attr(obj=o, name="jacks"):
            return f"the Jacks on {value(o, ctx)}"
        case A.Attr(obj=o, name="top" | "attached"):
            return cond_text(node, ctx)
        case A.Attr(obj=o, name="turns"):
            who = player(o, ctx)
            return f"the number of turns {who} {'have' if who == 'you' else 'has'} had"
        case A.Attr(obj=o, name=attr) if attr in _CARD_ATTRS:
            return f"{possessive(o, ctx)} {attr}"
        case A.Attr(obj=o, name=attr):  # a counter (`counters:`): "your scuttles count"
            return f"{possessive(o, ctx)} {attr} count"
        case A.Index(obj=A.Name(name=n) as table, index=A.Call(func="count", args=(s,))) if isinstance(
            ctx.constants.get(n), list
        ):
            return _table(ctx.constants[n], s, ctx) or f"{value(table, ctx)} by {value(node.index, ctx)}"
        case A.Index(obj=o, index=i):
            return f"entry {value(i, ctx)} of {value(o, ctx)} (from 0)"
        case A.ListLit(items=()):
            return "no cards"
        case A.ListLit(items=items):
            return join_or([value(i, ctx) for i in items], "and")
        case A.Zone(zone="deck"):
            return "the deck"
        case A.Zone(zone="scrap"):
            return "the scrap"
        case A.Zone(zone="shown"):
            return "the revealed cards"
        case A.Zone(zone="play"):
            return "the cards in play"
        case A.Zone(zone="hand", player=p):
            return f"{possessive(p, ctx)} hand"
        case A.Zone(zone="field", player=p):
            return f"{possessive(p, ctx)} cards in play"
        case A.Where():
            np = noun(node, ctx)
            return np.plural() if np else code(node)
        case A.BinOp(op=op, left=lhs, right=rhs) if op in ARITH_WORDS:
            left = value(lhs, ctx)
            if (
                isinstance(lhs, A.Index)
                and isinstance(lhs.obj, A.Name)
                and isinstance(ctx.constants.get(lhs.obj.name), list)
            ):
                # a table told entry by entry (`goals[count(...)] + 2`): the sum applies to each entry
                return f"{left}; in each case {ARITH_WORDS[op]} {value(rhs, ctx)}"
            return f"{left} {ARITH_WORDS[op]} {value(rhs, ctx)}"
        case A.Neg(operand=o):
            return f"minus {value(o, ctx)}"
        case A.Call():
            return _call_value(node, ctx)
        case A.BinOp() | A.Not():
            return cond_text(node, ctx)
    return code(node)


def _table(values: list, counted: A.Node, ctx: Context) -> str | None:
    """`goals[count(S)]`: 21 with no King, 14 with 1, 10 with 2 ..."""
    np = noun(counted, ctx)
    if np is None or not values:
        return None
    rank = _one_rank(counted)
    if rank is not None and rank in ctx.rank_counts:  # (Micro's one King: 21 with none, 14 with 1)
        values = values[: ctx.rank_counts[rank] + 1]
    parts = [f"{values[0]} with no {np.head()}{' ' + np.place if np.place else ''}{np.tail()}"]
    parts += [f"{v} with {i}" for i, v in enumerate(values[1:], start=1)]
    return join_or(parts, "and")


def _one_rank(node: A.Node) -> str | None:
    """The rank R a set is limited to (`S where it.rank == R and ...`), or None."""

    def limited(cond: A.Node) -> str | None:
        match cond:
            case A.BinOp(
                op="==", left=A.Attr(obj=A.Name(name="it"), name="rank"), right=A.Name(name=r) | A.Str(value=r)
            ):
                return r
            case A.BinOp(op="and", left=left, right=right):
                return limited(left) or limited(right)
        return None

    return limited(node.cond) if isinstance(node, A.Where) else None


def _call_value(node: A.Call, ctx: Context) -> str:
    f, args = node.func, node.args
    if f == "count" and len(args) == 1:
        np = noun(args[0], ctx)
        return f"the number of {np.plural()}" if np else f"the number of {value(args[0], ctx)}"
    if f == "total" and len(args) == 1:
        np = noun(args[0], ctx)
        return f"the total value of {np.plural() if np else value(args[0], ctx)}"
    if f == "total" and len(args) == 2:  # `total(CARDS, EXPR)`: "the sum of each card's heat count over ..."
        np = noun(args[0], ctx)
        each = value(_in_scope(args[1], "it", _EACH), ctx.with_(aliases={**ctx.aliases, _EACH: "each card"}))
        return f"the sum of {each} over {np.plural() if np else value(args[0], ctx)}"
    if f in ("min", "max"):
        word = "smaller" if f == "min" else "larger"
        if len(args) == 1:
            return f"the {'smallest' if f == 'min' else 'largest'} of {value(args[0], ctx)}"
        return f"the {word} of {join_or([value(x, ctx) for x in args], 'and')}"
    if f == "top" and len(args) == 1:
        return f"the top Jack on {value(args[0], ctx)}"
    if f == "deck_top" and len(args) == 1:
        return _deck_top_words(args[0], ctx)
    if f == "first" and len(args) == 1:
        np = noun(args[0], ctx)
        if np is not None and np.definite and not np.plural_definite:
            return np.definite
        return f"the first of {value(args[0], ctx)}"
    if f == "score" and len(args) == 1:
        return f"{possessive(args[0], ctx)} points"
    if f == "goal" and len(args) == 1:
        return f"{possessive(args[0], ctx)} goal"
    if f == "other" and len(args) == 1:
        return player(node, ctx)
    if f in ("can_play", "marked", "same_rank", "any"):
        return cond_text(node, ctx)
    if f in ctx.defines:
        np = noun(node, ctx)
        if np is not None:
            return np.plural()
        params, body = ctx.defines[f]
        if _is_condition(body):
            return cond_text(node, ctx)
        if len(args) == 1:  # `worth(card)`: "this card's worth"
            return f"{possessive(args[0], ctx)} {words(f)}"
        return f"{words(f)} of {join_or([value(x, ctx) for x in args], 'and')}"
    return code(node)


def _is_condition(node: A.Node) -> bool:
    return isinstance(node, A.Not) or (isinstance(node, A.BinOp) and node.op not in ARITH_WORDS)


def is_value(node: A.Node) -> bool:
    """Whether an expression is plainly a number (arithmetic, a number, a count, a total, a min or max,
    a card's number): read as a noun, not as a condition."""
    return (
        isinstance(node, (A.Num, A.Neg))
        or (isinstance(node, A.BinOp) and node.op in ARITH_WORDS)
        or (isinstance(node, A.Call) and node.func in ("count", "total", "min", "max", "score", "goal"))
        or (isinstance(node, A.Attr) and node.name in ("value", "suit", "turns"))
    )


# -- conditions --------------------------------------------------------------------------------


def _a_player(node: A.Node) -> bool:
    """Whether an expression names a player (me, opponent, a seat, an owner, other(...))."""
    return (
        (isinstance(node, A.Name) and node.name in ("me", "opponent", "p1", "p2", "first player", "second player"))
        or (isinstance(node, A.Attr) and node.name in ("owner", "controller", "last_owner", "last_controller"))
        or (isinstance(node, A.Call) and node.func == "other")
    )


def cond_text(node: A.Node, ctx: Context, negated: bool = False) -> str:
    """A condition as a clause (`the deck is empty`); `negated` says the opposite."""
    if _own(node, "value_words"):
        said = cast(A.Expression, node).condition_words(English(ctx), negated)
        if said is not None:
            return said
        return f"not {value(node, ctx)}" if negated else value(node, ctx)
    match node:
        case A.Not(operand=o):
            return cond_text(o, ctx, not negated)
        case A.BinOp(op="and" | "or" as op, left=lhs, right=rhs):
            if negated:  # De Morgan
                op = "or" if op == "and" else "and"
            parts = [_cond_part(x, ctx, negated, op) for x in (lhs, rhs)]
            return f" {op} ".join(parts)
        case A.BinOp(op="in" | "not in" as op, left=lhs, right=rhs):
            if negated:
                op = NEGATED[op]
            np = noun(rhs, ctx)
            where = np.plural() if np else value(rhs, ctx)
            return f"{value(lhs, ctx)} {'is one of' if op == 'in' else 'is not one of'} {where}"
        case A.BinOp(op=op, left=A.Call(func="count", args=(s,)), right=rhs) if op in COMPARE_WORDS:
            return _count_cond(s, NEGATED[op] if negated else op, rhs, ctx)
        case A.BinOp(op="==" | "!=" as op, left=lhs, right=rhs) if _a_player(lhs) and _a_player(rhs):
            if negated:
                op = NEGATED[op]
            subj = player(lhs, ctx)
            return f"{subj} {'are' if subj == 'you' else 'is'}{' not' if op == '!=' else ''} {player(rhs, ctx)}"
        case A.BinOp(op=op, left=lhs, right=rhs) if op in COMPARE_WORDS:
            if negated:
                op = NEGATED[op]
            if isinstance(lhs, A.Attr) and lhs.name == "rank" and _literal(rhs) is not None and op in ("==", "!="):
                return f"{value(lhs.obj, ctx)} {'is' if op == '==' else 'is not'} {a(rank_noun(_literal(rhs) or ''))}"
            if isinstance(lhs, A.Attr) and lhs.name == "role" and _literal(rhs) is not None and op in ("==", "!="):
                return f"{value(lhs.obj, ctx)} {'is' if op == '==' else 'is not'} {a(role_noun(_literal(rhs) or ''))}"
            left, words_ = value(lhs, ctx), COMPARE_WORDS[op]
            if isinstance(lhs, A.Call) and lhs.func == "score":  # "your points are", not "is"
                words_ = "are" + words_[2:]
            return f"{left} {words_} {value(rhs, ctx)}"
        case A.Attr(obj=o, name="top"):
            return f"{value(o, ctx)} is {'not ' if negated else ''}the top card of its pile"
        case A.Attr(obj=o, name="attached"):
            return f"{value(o, ctx)} is {'not ' if negated else ''}attached to another card"
        case A.Call(func="any", args=(s,)):
            return _count_cond(s, "==" if negated else ">", A.Num(0), ctx)
        case A.Call(func="can_play", args=(s,)):
            np = noun(s, ctx)
            what = np.one() if np and not np.definite else f"one of {value(s, ctx)}"
            return f"{what} can{'not' if negated else ''} be played"
        case A.Call(func="marked", args=(x, m)):
            who = value(x, ctx)
            return f"{who} {'are' if who == 'you' else 'is'} {'not ' if negated else ''}marked {value(m, ctx)}"
        case A.Call(func="same_rank", args=(s,)):
            return f"{value(s, ctx)} {'are not' if negated else 'are'} all of the same rank"
        case A.Call(func=f, args=args) if f in ctx.defines and _inlinable(f, args, ctx):
            params, body = ctx.defines[f]
            return cond_text(subst(body, dict(zip(params, args, strict=True))), ctx, negated)
        case A.Call(func=f, args=args) if f in ctx.defines and not _looks_like_set(ctx.defines[f][1], ctx):
            w = words(f)
            if len(args) == 1:
                subj = player(args[0], ctx)
                be = "are" if subj == "you" else "is"
                return f"{subj} {be} {'not ' if negated else ''}{w}"
            if len(args) == 2:
                verb = ("does not " + w.removesuffix("s")) if negated else w
                return f"{value(args[0], ctx)} {verb} {value(args[1], ctx)}"
            return f"{'not ' if negated else ''}{w}({', '.join(value(x, ctx) for x in args)})"
        case A.Name(name=n) if n in ctx.defines:
            return f"{'not ' if negated else ''}{words(n)}"
        case A.Name(name="true" | "false" as n):
            return "always" if (n == "true") != negated else "never"
    text = value(node, ctx) if not isinstance(node, A.BinOp) else code(node)
    return f"not {text}" if negated else text


def _inlinable(f: str, args: tuple[A.Node, ...], ctx: Context) -> bool:
    """A definition read in place: a single comparison about players (`uncounterable(me)` ->
    `you have a Queen`); longer ones, or ones about cards, keep their name (see the Terms)."""
    params, body = ctx.defines[f]
    if len(params) != len(args) or not isinstance(body, A.BinOp) or body.op in ("and", "or"):
        return False
    return all(_is(x, "me") or _is(x, "opponent") for x in args)


def _cond_part(node: A.Node, ctx: Context, negated: bool, op: str) -> str:
    text = cond_text(node, ctx, negated)
    inner = node.operand if isinstance(node, A.Not) else node
    if isinstance(inner, A.BinOp) and inner.op in ("and", "or"):
        inner_op = inner.op if not (negated ^ isinstance(node, A.Not)) else ("or" if inner.op == "and" else "and")
        if inner_op != op:
            return f"({text})" if inner_op == "and" else f"either {text}"
    return text


def _count_cond(s: A.Node, op: str, rhs: A.Node, ctx: Context) -> str:
    """count(S) compared with a number: `the deck is empty`, `you have a Queen`..."""
    np = noun(s, ctx)
    n = rhs.value if isinstance(rhs, A.Num) else None
    if np is None:
        return f"the number of {value(s, ctx)} {COMPARE_WORDS[op]} {value(rhs, ctx)}"
    some = (op == ">" and n == 0) or (op == ">=" and n == 1) or (op == "!=" and n == 0)
    none = (op == "==" and n == 0) or (op == "<" and n == 1) or (op == "<=" and n == 0)
    if np.definite:
        if some:
            return (
                f"{np.definite} is not empty" if not np.plural_definite else f"there is at least one of {np.definite}"
            )
        if none:
            return f"{np.definite} is empty" if not np.plural_definite else f"there are none of {np.definite}"
        return f"the number of {np.definite} {COMPARE_WORDS[op]} {value(rhs, ctx)}"
    zone_only = np.bare() and np.owner is None and np.source
    if zone_only and (some or none):
        return f"{np.source} is {'not ' if some else ''}empty"
    if np.holder is not None:
        who = player(np.holder, ctx)
        sub = ctx.with_(subject=np.holder)
        np2 = noun(s, sub) or np
        tail = np2.tail()
        if some:
            return f"{who} {conj('have', np.holder)} {a(np2.head())}{' in play' if np2.bare() else ''}{tail}"
        if none:
            return f"{who} {conj('have', np.holder)} no {np2.head(True)}{' in play' if np2.bare() else ''}{tail}"
        return (
            f"{who} {conj('have', np.holder)} {_amount(op, rhs, ctx)} {np2.head(True)}"
            f"{' in play' if np2.bare() else ''}{tail}"
        )
    where = f" {np.place}" if np.place else ""
    if some:
        return f"there is {a(np.head())}{where}{np.tail()}"
    if none:
        return f"there is no {np.head()}{where}{np.tail()}"
    one = _is_one(rhs)  # "more than 1 card", not "more than 1 cards"
    if np.bare() and np.source and np.source.endswith("hand"):
        return f"{np.source} holds {_amount(op, rhs, ctx)} card{'' if one else 's'}"
    return f"there {'is' if one else 'are'} {_amount(op, rhs, ctx)} {np.head(not one)}{where}{np.tail()}"


def _amount(op: str, rhs: A.Node, ctx: Context) -> str:
    words_ = {
        "==": "exactly",
        "!=": "other than",
        "<": "fewer than",
        "<=": "at most",
        ">": "more than",
        ">=": "at least",
    }
    return f"{words_.get(op, op)} {value(rhs, ctx)}"


# -- statements --------------------------------------------------------------------------------


def dest_text(d: A.Dest, ctx: Context, moved: A.Node | None = None) -> str:
    if d.zone == "deck top":
        return "on top of the deck" + (", the last of them on top" if d.reversed else "")
    if d.zone == "deck bottom":
        return "at the bottom of the deck" + (", the last of them nearest the top" if d.reversed else "")
    if d.zone == "scrap":
        return "into the scrap"
    if d.zone == "shown":
        return "face up where both players can see it"
    if d.zone == "hand":
        if moved is not None and isinstance(d.player, A.Attr) and d.player.obj == moved:
            return f"into its {d.player.name.replace('_', ' ')}'s hand"
        return f"into {possessive(d.player, ctx)} hand"
    if d.zone == "field":
        return f"in front of {player(d.player, ctx)} as {a(role_noun(d.role or 'point'))}"
    return code(d)


def _object(node: A.Node, ctx: Context) -> str:
    """What a statement acts on: `every point card in play`, `the target`."""
    np = noun(node, ctx)
    if np is None:
        return value(node, ctx)
    return np.every()


def _ask_text(node: A.Ask, ctx: Context) -> str:
    """A question: "you may mulligan (or decline): ...", "its last owner may reclaim (or decline); if
    they do, ..."."""
    who = player(node.player, ctx)
    then = block_text(node.then, ctx)
    text = f"{who} may {words(node.verb)} (or decline)" + (f": {then}" if who == "you" else f"; if they do, {then}")
    declined = "you decline" if who == "you" else "they decline"
    return text + (f"; if {declined}, {block_text(node.orelse, ctx)}" if node.orelse else "")


def stmt_text(node: A.Node, ctx: Context) -> str:
    """One statement as an imperative clause (lower case, no full stop)."""
    if _own(node, "english"):
        return cast(A.Statement, node).english(English(ctx))
    subj = ctx.subject
    match node:
        case A.Scrap(cards=c):
            return f"{conj('scrap', subj)} {_object(c, ctx)}"
        case A.Move(cards=c, dest=A.Dest(zone="hand", player=A.Attr(obj=o, name=who))) if _same_card(o, c):
            return f"{conj('return', subj)} {_object(c, ctx)} to its {who.replace('_', ' ')}'s hand"
        case A.Move(cards=c, dest=d):
            return f"{conj('put', subj)} {_object(c, ctx)} {dest_text(d, ctx, c)}"
        case A.Attach(card=c, host=h, role=r):
            return f"{conj('put', subj)} {_object(c, ctx)} on {_object(h, ctx)} as {a(role_noun(r))}"
        case A.Draw(count=n, player=p):
            actor = p if p is not None else subj
            prefix = f"{player(p, ctx)} " if p is not None else ""
            return f"{prefix}{conj('draw', actor)} {_cards(n, ctx)}"
        case A.Reveal(count=A.Num(value=1)):
            return f"{conj('turn', subj)} up the top card of the deck for both players to see"
        case A.Reveal(count=n):
            return f"{conj('turn', subj)} up the top {_cards(n, ctx)} of the deck for both players to see"
        case A.Shuffle(cards=c):
            return f"{conj('shuffle', subj)} {_object(c, ctx)} into the deck"
        case A.ShuffleUnder(cards=c):
            them = "it" if isinstance(c, A.Zone) else "them"  # the scrap: it; the chosen cards: them
            return f"{conj('shuffle', subj)} {_object(c, ctx)} and {conj('put', subj)} {them} under the deck"
        case A.Swap(left=lhs, right=rhs):
            return f"{conj('swap', subj)} {value(lhs, ctx)} with {value(rhs, ctx)}"
        case A.Choose():
            return _choose(node, ctx)
        case A.ChooseNumber():
            return _number_text(node, ctx)
        case A.PlayFrom(source=s):
            np = noun(s, ctx)
            what = f"one of {np.definite}" if np and np.definite else (np.one() if np else value(s, ctx))
            return (
                f"{conj('play', subj)} {what} in any way it can be played, as if from {possessive(subj, ctx)} "
                "hand, once the rest of this effect is done (this effect ends only when that play has resolved)"
            )
        case A.Let(name=n, value=v):
            return f"let {words(n)} be {value(v, ctx)}"
        case A.If(cond=c, then=t, orelse=o):
            text = f"if {cond_text(c, ctx)}, {block_text(t, ctx)}"
            if o:
                if len(o) == 1 and isinstance(o[0], A.If):
                    return f"{text}; otherwise {block_text(o, ctx)}"
                text += f"; otherwise, {block_text(o, ctx)}"
            return text
        case A.Ask():
            return _ask_text(node, ctx)
        case A.ForEach(var=v, source=s, body=b):
            np = noun(s, ctx)
            each = (
                f"each {np.head()}{' ' + np.place if np.place and not np.owner else ''}{np.tail()}"
                if np and not np.definite
                else f"each of {value(s, ctx)}"
            )
            if np and np.owner and not np.definite:
                each = f"each of {np.owner} {np.head(True)}{np.tail()}"
            inner = ctx.with_(aliases={**ctx.aliases, v: "it"})
            return f"for {each}: {block_text(b, inner)}"
        case A.Mark(cards=A.Name(name="me" | "opponent") as c, mark=m, turns=t):  # a player: said passively
            who = player(c, ctx)
            how = (
                "for the rest of the game"
                if t is None
                else f"for {value(t, ctx)} {'turn' if isinstance(t, A.Num) and t.value == 1 else 'turns'}"
            )
            return f"{who} {'are' if who == 'you' else 'is'} marked {words(m)} {how}"
        case A.Unmark(cards=A.Name(name="me" | "opponent") as c, mark=m):
            who = player(c, ctx)
            return f"{who} {'are' if who == 'you' else 'is'} no longer marked {words(m)}"
        case A.Mark(cards=c, mark=m, turns=None):
            return f"{conj('mark', subj)} {_object(c, ctx)} as {words(m)} for the rest of the game"
        case A.SetCounter():
            return _set_text(node, ctx)
        case A.AddCounter(value=v, target=t):
            return f"{conj('add', subj)} {value(v, ctx)} to {value(t, ctx)}"
        case A.Unmark(cards=c, mark=m):
            return f"{conj('stop', subj)} {_object(c, ctx)} being marked as {words(m)}"
        case A.Mark(cards=c, mark=m, turns=t) if t is not None:
            turns = "turn" if isinstance(t, A.Num) and t.value == 1 else "turns"
            return f"{conj('mark', subj)} {_object(c, ctx)} as {words(m)} for {value(t, ctx)} {turns}"
        case A.Pass():
            return f"{conj('pass', subj)}"
        case A.Win(player=p):
            return f"{player(p, ctx)} {conj('win', p)} the game"
        case A.Nothing():
            return "nothing happens"
        case A.Show(cards=c, player=p):
            what = _object(c, ctx)
            if p is None:
                return f"{conj('show', subj)} {what} to both players"
            if _is(p, "me") and not third_person(subj):
                return f"{conj('look', subj)} at {what}"
            if subj is not None and p == subj:
                return f"{conj('look', subj)} at {what}"
            return f"{conj('show', subj)} {what} to {player(p, ctx)}"
    return code(node)


def _set_text(node: A.SetCounter, ctx: Context) -> str:
    """`set X.NAME to V [for N turns]`; a card's value reads "X is worth V until it leaves play"."""
    t, v, n = node.target, value(node.value, ctx), node.turns
    turns = "" if n is None else f" for {value(n, ctx)} turn{'' if isinstance(n, A.Num) and n.value == 1 else 's'}"
    if isinstance(t, A.Attr) and t.name == "value":
        card = _object(t.obj, ctx)
        return f"{card} {'is' if card != 'them' else 'are'} worth {v}{turns or ' until it leaves play'}"
    return f"{conj('set', ctx.subject)} {value(t, ctx)} to {v}{turns}"


def _number_text(node: A.ChooseNumber, ctx: Context) -> str:
    """`choose a number from A to B by P as NAME`: "you name a number from 0 to 10"."""
    lo, hi, who = value(node.low, ctx), value(node.high, ctx), node.chooser
    if _is(who, "random"):
        return f"the game names a number from {lo} to {hi} at random"
    return f"{player(who, ctx)} {conj('name', who)} a number from {lo} to {hi}"


def _same_card(x: A.Node, cards: A.Node) -> bool:
    """`x` is the card moved: the same tree, or `first(...)` of it."""
    return x == cards or (isinstance(x, A.Call) and x.func == "first" and len(x.args) == 1 and x.args[0] == cards)


def _cards(n: A.Node, ctx: Context) -> str:
    if isinstance(n, A.Num):
        return f"{n.value} card{'s' if n.value != 1 else ''}"
    if isinstance(n, A.Name) and value(n, ctx) == words(n.name):  # a name the rule gave (`let n = ...`)
        return f"{words(n.name)} cards"
    return f"as many cards as {value(n, ctx)}"


def _count_phrase(n: A.Node, src: A.Node, ctx: Context) -> tuple[str, bool]:
    """How many are chosen, and whether it is exactly one."""
    if isinstance(n, A.Num):
        return str(n.value), n.value == 1
    match n:
        case A.Call(func="min", args=(A.Num(value=k), A.Call(func="count", args=(s,)))) if s == src:
            return f"{k} (or all of them, if fewer)", False
        case A.Call(func="min", args=(A.Call(func="count", args=(s,)), A.Num(value=k))) if s == src:
            return f"{k} (or all of them, if fewer)", False
        case A.BinOp(op="-", left=A.Call(func="count", args=(s,)), right=keep) if s == src:
            return f"{DOWN_TO}{value(keep, ctx)}", False
    return value(n, ctx), False


def _choose(node: A.Choose, ctx: Context, then: A.Node | None = None) -> str:
    who = node.chooser
    who_text = "the game, at random," if _is(who, "random") else player(who, ctx)
    sub = ctx.with_(subject=who)
    n, one = _count_phrase(node.count, node.source, sub)
    np = noun(node.source, sub)
    what = np.counted(n, one) if np else f"{n} from {value(node.source, sub)}"
    if n.startswith(DOWN_TO) and np is not None:
        what = f"{np.head(True)} from {np.source or np.plural()}{np.tail(True)}, {n[1:]},"
    if one and np and not np.definite and what.startswith("1 "):
        what = "1 " + what[2:]
    if node.upto:  # any number from none to N: "you may choose 1 card", "... may choose up to 2 cards"
        text = f"{who_text} may choose {'' if one else 'up to '}{what}"
    else:
        text = f"{who_text} {conj('choose', who) if not _is(who, 'random') else 'chooses'} {what}"
    if then is None:
        return text
    if node.upto and not _is(who, "me"):  # "may choose ... and scraps them" would not agree: told apart
        picked = "the card chosen" if one else "the cards chosen"
        chosen = {**ctx.chosen, node.verb: picked, "chosen": picked}
        return f"{text}; then {stmt_text(then, ctx.with_(chosen=chosen))}"
    pron = "it" if one else "them"
    chosen = {**ctx.chosen, node.verb: pron, "chosen": pron}
    inner = sub.with_(chosen=chosen, subject=who)  # "the game, at random, chooses ... and scraps them"
    return f"{text} and {stmt_text(then, inner)}"


def _uses_chosen(stmt: A.Node, verb: str) -> bool:
    target = getattr(stmt, "cards", None)
    return (
        isinstance(stmt, (A.Scrap, A.Move, A.Shuffle, A.Mark, A.Show))
        and isinstance(target, A.Name)
        and target.name in (verb, "chosen")
    )


def clauses(body: Sequence[A.Node], ctx: Context) -> list[str]:
    """Statements as clauses, with `choose ... as X` + `scrap X` read as one clause."""
    out: list[str] = []
    i = 0
    chosen = dict(ctx.chosen)
    while i < len(body):
        s = body[i]
        if isinstance(s, A.Choose) and s.ordered:
            out.append(
                f"{player(s.chooser, ctx)} {'put' if _is(s.chooser, 'me') else 'puts'} "
                f"{_object(s.source, ctx)} in the order of {'your' if _is(s.chooser, 'me') else 'their'} "
                f"choice, naming them one after another"
            )
            chosen[s.verb] = chosen["chosen"] = "those cards in the order named"
            ctx = ctx.with_(chosen=chosen)
            i += 1
            continue
        if isinstance(s, A.Choose):
            if i + 1 < len(body) and _uses_chosen(body[i + 1], s.verb):
                out.append(s.english(English(ctx.with_(chosen=chosen)), body[i + 1]))
                i += 2
                continue
            out.append(s.english(English(ctx.with_(chosen=chosen))))
            chosen[s.verb] = chosen["chosen"] = "the chosen card" + ("" if s.count == A.Num(1) else "s")
            ctx = ctx.with_(chosen=chosen)
            i += 1
            continue
        if isinstance(s, A.ChooseNumber):  # the number is then "the number named"
            out.append(stmt_text(s, ctx.with_(chosen=chosen)))
            ctx = ctx.with_(aliases={**ctx.aliases, s.verb: "the number named"})
            i += 1
            continue
        if isinstance(s, A.Let) and isinstance(s.value, A.Zone):
            # `let kept = deck`: later statements name those cards, so the let itself needs no clause
            ctx = ctx.with_(aliases={**ctx.aliases, s.name: f"the cards that were in {value(s.value, ctx)} before"})
            i += 1
            continue
        out.append(stmt_text(s, ctx.with_(chosen=chosen)))
        i += 1
    return out


def block_text(body: Sequence[A.Node], ctx: Context) -> str:
    parts = clauses(body, ctx)
    if not parts:
        return "nothing happens"
    if len(parts) == 1:
        return parts[0]
    sep = "; then " if any("," in p or ";" in p for p in parts) else ", then "
    return sep.join(parts)


# -- comparisons between two cards ---------------------------------------------------------------

_COMPARE_WORDS = {
    ">": "a higher",
    "<": "a lower",
    ">=": "at least the same",
    "<=": "at most the same",
    "==": "the same",
    "!=": "a different",
}


def comparative(node: A.Node, first: str, second: str) -> str | None:
    """What `first` needs against `second`, when a condition only compares their attributes:
    `a.value > b.value or (a.value == b.value and a.suit > b.suit)` (first a, second b) reads
    'a higher value, or the same value and a higher suit'. None for any other condition."""
    match node:
        case A.BinOp(op="or", left=lhs, right=rhs):
            left, right = comparative(lhs, first, second), comparative(rhs, first, second)
            return f"{left}, or {right}" if left and right else None
        case A.BinOp(op="and", left=lhs, right=rhs):
            left, right = comparative(lhs, first, second), comparative(rhs, first, second)
            return f"{left} and {right}" if left and right else None
        case A.BinOp(op=op, left=A.Attr(obj=A.Name(name=x), name=f), right=A.Attr(obj=A.Name(name=y), name=g)) if (
            op in _COMPARE_WORDS and f == g and (x, y) == (first, second)
        ):
            return f"{_COMPARE_WORDS[op]} {words(f)}"
    return None


# -- entry point -------------------------------------------------------------------------------


def english(node: A.Node | Sequence[A.Node], ctx: Context | None = None, condition: bool = False) -> str:
    """Plain English for a program, statement or expression (lower case, no full stop).

    `condition=True` reads an expression as a clause (`the deck is empty`) rather than a value."""
    ctx = ctx or Context()
    if isinstance(node, A.Program):
        return block_text(node.body, ctx)
    if isinstance(node, (tuple, list)):
        return block_text(node, ctx)
    if isinstance(node, A.Dest):
        return dest_text(node, ctx)
    one = cast(A.Node, node)
    if type(one).__name__ in _STATEMENT_NAMES:
        return block_text((one,), ctx)
    if condition:
        return cond_text(one, ctx)
    return value(one, ctx)


_STATEMENT_NAMES = {
    "Scrap",
    "Move",
    "Attach",
    "Draw",
    "Reveal",
    "Shuffle",
    "Swap",
    "Choose",
    "PlayFrom",
    "Let",
    "If",
    "ForEach",
    "Mark",
    "Pass",
    "Win",
    "Nothing",
    "Show",
}


class English:
    """The English pass as each construct's `english` / `value_words` / `condition_words` / `noun` sees
    it: the ruleset's names (`ctx`) and the vocabulary every construct shares."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def with_(self, **kw: Any) -> English:
        """The same pass with some of the context changed (`subject=`, `aliases=`, `chosen=`)."""
        return English(self.ctx.with_(**kw))

    # how the children read
    def value(self, node: A.Node) -> str:
        return value(node, self.ctx)

    def cond(self, node: A.Node, negated: bool = False) -> str:
        return cond_text(node, self.ctx, negated)

    def noun(self, node: A.Node) -> NP | None:
        return noun(node, self.ctx)

    def stmt(self, node: A.Node) -> str:
        return stmt_text(node, self.ctx)

    def block(self, body: Sequence[A.Node]) -> str:
        return block_text(body, self.ctx)

    def object(self, node: A.Node) -> str:
        """What a statement acts on: `every point card in play`, `the target`."""
        return _object(node, self.ctx)

    def one_target(self, node: A.Node) -> str:
        return one_target(node, self.ctx)

    def code(self, node: A.Node | Sequence[A.Node]) -> str:
        """The fallback: the source text in backticks."""
        return code(node)

    # players
    def player(self, p: A.Node | None) -> str:
        return player(p, self.ctx)

    def possessive(self, p: A.Node | None) -> str:
        return possessive(p, self.ctx)

    def conj(self, verb: str, subject: A.Node | None) -> str:
        return conj(verb, subject)

    @staticmethod
    def third_person(p: A.Node | None) -> bool:
        return third_person(p)

    @staticmethod
    def is_name(node: A.Node | None, name: str) -> bool:
        """Whether a node is the name `name` (`me`, `it`, `random`...)."""
        return _is(node, name)

    @staticmethod
    def a_player(node: A.Node) -> bool:
        return _a_player(node)

    # cards, sets and conditions
    def cards(self, n: A.Node) -> str:
        """A number of cards: `2 cards`, `as many cards as ...`."""
        return _cards(n, self.ctx)

    def restrict(self, np: NP, cond: A.Node) -> None:
        _restrict(np, cond, self.ctx)

    def relative(self, cond: A.Node) -> str:
        return _relative(cond, self.ctx)

    def count_cond(self, s: A.Node, op: str, rhs: A.Node) -> str:
        return _count_cond(s, op, rhs, self.ctx)

    def amount(self, op: str, rhs: A.Node) -> str:
        return _amount(op, rhs, self.ctx)

    def named_card(self, cond: A.Node, var: str) -> tuple[A.Node, English]:
        c, ctx = _named_card(cond, var, self.ctx)
        return c, English(ctx)

    def in_scope(self, node: Any, name: str, new: str) -> Any:
        return _in_scope(node, name, new)

    def looks_like_set(self, node: A.Node) -> bool:
        return _looks_like_set(node, self.ctx)

    def deck_top_words(self, n: A.Node) -> str:
        return _deck_top_words(n, self.ctx)

    def table(self, values: list, counted: A.Node) -> str | None:
        return _table(values, counted, self.ctx)

    def inlinable(self, f: str, args: tuple[A.Node, ...]) -> bool:
        return _inlinable(f, args, self.ctx)

    def cond_part(self, node: A.Node, negated: bool, op: str) -> str:
        return _cond_part(node, self.ctx, negated, op)

    @staticmethod
    def is_one(n: A.Node) -> bool:
        return _is_one(n)

    @staticmethod
    def literal(node: A.Node) -> str | None:
        return _literal(node)

    @staticmethod
    def it_attr(node: A.Node, name: str) -> bool:
        return _it_attr(node, name)

    @staticmethod
    def mentions_it(node: Any) -> bool:
        return _mentions_it(node)

    @staticmethod
    def is_condition(node: A.Node) -> bool:
        return _is_condition(node)

    @staticmethod
    def subst(node: Any, mapping: dict[str, A.Node]) -> Any:
        return subst(node, mapping)

    @staticmethod
    def same_card(x: A.Node, cards: A.Node) -> bool:
        return _same_card(x, cards)

    def dest(self, d: A.Dest, moved: A.Node | None = None) -> str:
        return dest_text(d, self.ctx, moved)

    # -- added for constructs (cx-names)
    #: what an expression's own `it` is called while it is read (`total(CARDS, EXPR)`: "each card's value")
    EACH = _EACH


def say(src: str, ctx: Context | None = None, condition: bool = False, program: bool = True) -> str:
    """Convenience: parse source text and render it (`say("scrap play where it.role == point")`)."""
    from .parser import parse_expr, parse_program

    tree = parse_program(src) if program and not condition else parse_expr(src)
    return english(tree, ctx, condition)


__all__ = [
    "english",
    "say",
    "Context",
    "cond_text",
    "value",
    "noun",
    "one_target",
    "stmt_text",
    "block_text",
    "sentence",
    "kind_word",
    "rank_noun",
    "role_noun",
    "join_or",
    "a",
    "words",
]
