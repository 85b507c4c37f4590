"""Effect-language trees in plain English, for rules pages and diffs.

Each construct says its own English (constructs/*.py: a statement's `english`, an expression's
`value_words`, `condition_words` and `noun`). This module is the pass around them: the entry points
(`english`, `say`, and `value`, `cond_text`, `noun`, `stmt_text`, which call the construct's method),
the ruleset's names (`Context`), the vocabulary the constructs share (the `English` pass object:
players, verbs, noun phrases narrowed by a `where`), and the idioms across statements that make
common shapes read well (`clauses`: a choice and the statement acting on it read as one clause):

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
from .phrasing import (
    ARITH_WORDS,
    BE,
    COMPARE_WORDS,
    NEGATED,
    NP,
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
    #: the players at the table (`seats.count`): "both players" at two, "every player" at more
    seats: int = 2

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> Context:
        """A context from a ruleset's merged YAML (`Rules.data`)."""
        from .parser import parse_expr

        data = data or {}
        defines: dict[str, tuple[tuple[str, ...], A.Node]] = {}
        for key, body in (data.get("define") or {}).items():
            head, _, rest = str(key).partition("(")
            params = tuple(p.strip() for p in rest.rstrip(") ").split(",") if p.strip())
            try:
                text = ("true" if body else "false") if isinstance(body, bool) else str(body)  # (YAML true)
                defines[head.strip()] = (params, parse_expr(text))
            except Exception:  # an invalid ruleset is reported by `check`; here it just reads as code
                continue
        seats = (data.get("seats") or {}).get("count", 2) if isinstance(data.get("seats"), dict) else 2
        return cls(
            constants=dict(data.get("constants") or {}),
            defines=defines,
            seats=seats if isinstance(seats, int) and not isinstance(seats, bool) else 2,
        )

    def with_(self, **kw: Any) -> Context:
        return dataclasses.replace(self, **kw)


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
    if (
        isinstance(p, A.Name)
        and p.name in ("p1", "p2", "p3", "p4")
        and p.name not in ctx.constants
        and p.name not in ctx.defines
    ):
        return p.name.upper()  # a seat
    if isinstance(p, A.Name) and p.name in _PLAYER_SET_WORDS and p.name not in ctx.defines:
        return _PLAYER_SET_WORDS[p.name]  # a set of players, or your partner
    if _is(p, "player"):
        return "the player named"  # a play's `player:`
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


_PLAYER_SET_WORDS = {
    "opponents": "your opponents",
    "others": "the other players",
    "players": "every player",
    "partner": "your partner",
}
#: a set of players counted together (`count(field of opponents) > 0`: one count of all their cards),
#: as what some of them, none of them and all of them together do
_SOME_OF = {"opponents": "one of your opponents", "others": "one of the other players", "players": "a player"}
_NONE_OF = {"opponents": "none of your opponents", "others": "none of the other players", "players": "no player"}
_ALL_OF = {"opponents": "your opponents", "others": "the other players", "players": "the players"}


def possessive(p: A.Node | None, ctx: Context) -> str:
    """your, your opponent's, its, this card's ... ("their" when it is the clause's subject)."""
    if p is None or _is(p, "me"):
        return "your"
    if ctx.subject is not None and p == ctx.subject and third_person(p):
        return "their"
    if _is(p, "it"):
        return "its"
    who = player(p, ctx)
    if who == "every player":
        return "every player's"
    return who + "'" if who.endswith("s") else who + "'s"


def _player_set(p: A.Node | None, ctx: Context) -> str | None:
    """The name of a set of several players (`opponents`, `others`, `players`), or None."""
    if isinstance(p, A.Name) and p.name in _SOME_OF and p.name not in ctx.defines:
        return p.name
    return None


def conj(verb: str, subject: A.Node | None) -> str:
    """The verb for a subject: you choose / your opponent chooses / your opponents choose."""
    if not third_person(subject) or (isinstance(subject, A.Name) and subject.name in ("opponents", "others")):
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
    return cast(A.Expression, node).noun(English(ctx))


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


def _is_one(n: A.Node) -> bool:
    return isinstance(n, A.Num) and n.value == 1


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
        case A.Attr(obj=A.Name(name="it"), name="face_down"):
            np.pre.append("face-down")
            return
        case A.Not(operand=A.Attr(obj=A.Name(name="it"), name="face_down")):
            np.pre.append("face-up")
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
    return cast(A.Expression, node).value_words(English(ctx))


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


def cond_text(node: A.Node, ctx: Context, negated: bool = False) -> str:
    """A condition as a clause (`the deck is empty`); `negated` says the opposite."""
    said = cast(A.Expression, node).condition_words(English(ctx), negated)
    if said is not None:
        return said
    return f"not {value(node, ctx)}" if negated else value(node, ctx)


# -- statements --------------------------------------------------------------------------------


def _object(node: A.Node, ctx: Context) -> str:
    """What a statement acts on: `every point card in play`, `the target`."""
    np = noun(node, ctx)
    if np is None:
        return value(node, ctx)
    return np.every()


def stmt_text(node: A.Node, ctx: Context) -> str:
    """One statement as an imperative clause (lower case, no full stop)."""
    return cast(A.Statement, node).english(English(ctx))


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
        return node.english(English(ctx))
    one = cast(A.Node, node)
    if isinstance(one, A.Statement):
        return block_text((one,), ctx)
    if condition:
        return cond_text(one, ctx)
    return value(one, ctx)


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


#: how `count_cond` words a hand's count compared with another hand's ("fewer cards than your opponent's hand")
_THAN = {
    "==": "as many cards as",
    "!=": "not as many cards as",
    "<": "fewer cards than",
    "<=": "at most as many cards as",
    ">": "more cards than",
    ">=": "at least as many cards as",
}

#: how `count_cond` words a comparison with a number other than none or one ("at least 2 cards")
_AMOUNT = {
    "==": "exactly",
    "!=": "other than",
    "<": "fewer than",
    "<=": "at most",
    ">": "more than",
    ">=": "at least",
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

    def code(self, node: A.Node | Sequence[A.Node]) -> str:
        """The fallback: the source text in backticks."""
        return f"`{to_text(node)}`"

    # players
    def everyone(self) -> str:
        """Every player at the table: "both players" at two seats, "every player" at three or four."""
        return "both players" if self.ctx.seats == 2 else "every player"

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

    # cards, sets and conditions
    def cards(self, n: A.Node) -> str:
        """A number of cards: `2 cards`, `as many cards as ...`."""
        if isinstance(n, A.Num):
            return f"{n.value} card{'s' if n.value != 1 else ''}"
        if isinstance(n, A.Name) and self.value(n) == words(n.name):  # a name the rule gave (`let n = ...`)
            return f"{words(n.name)} cards"
        if isinstance(n, A.Conditional):  # `(2 if C else 1)`: 2 cards if C, otherwise 1 card
            return f"{self.cards(n.then)} if {self.cond(n.cond)}, otherwise {self.cards(n.orelse)}"
        if self.yes_no(n):  # a condition as a number: one card when it holds
            return f"1 card if {self.cond(n)} (else none)"
        return f"as many cards as {self.value(n)}"

    def restrict(self, np: NP, cond: A.Node) -> None:
        _restrict(np, cond, self.ctx)

    def count_cond(self, s: A.Node, op: str, rhs: A.Node) -> str:
        """count(S) compared with a number: `the deck is empty`, `you have a Queen`..."""
        np = self.noun(s)
        n = rhs.value if isinstance(rhs, A.Num) else None
        if np is None:
            return f"the number of {self.value(s)} {COMPARE_WORDS[op]} {self.value(rhs)}"
        some = (op == ">" and n == 0) or (op == ">=" and n == 1) or (op == "!=" and n == 0)
        none = (op == "==" and n == 0) or (op == "<" and n == 1) or (op == "<=" and n == 0)
        if np.definite:
            if some:
                return (
                    f"{np.definite} is not empty"
                    if not np.plural_definite
                    else f"there is at least one of {np.definite}"
                )
            if none:
                return f"{np.definite} is empty" if not np.plural_definite else f"there are none of {np.definite}"
            return f"the number of {np.definite} {COMPARE_WORDS[op]} {self.value(rhs)}"
        hand_rhs = self._counted_hand(rhs) is not None and np.bare() and bool(np.source)
        if not (some or none) and not isinstance(rhs, (A.Num, A.Neg, A.Name)) and not hand_rhs:
            # a count compared with a count or a sum: two numbers side by side ("the number of your point
            # cards is less than the number of cards in your opponent's hand"; never "... hand point cards")
            return f"the number of {self._counted_words(np)} {COMPARE_WORDS[op]} {self.value(rhs)}"
        zone_only = np.bare() and np.owner is None and np.source
        group = _player_set(s.player, self.ctx) if isinstance(s, A.Zone) else None
        if zone_only and (some or none):
            if group is not None:  # the hands of several players, counted together
                source = str(np.source).replace("every player's", "the players'", 1)
                return f"there is a card in {source}" if some else f"{source} are empty"
            return f"{np.source} is {'not ' if some else ''}empty"
        if np.holder is not None:
            who = self.player(np.holder)
            np2 = self.with_(subject=np.holder).noun(s) or np
            tail = np2.tail()
            group = _player_set(np.holder, self.ctx)
            if group is not None:  # several players' cards, counted together
                in_play = " in play" if np2.bare() else ""
                if some or none:
                    return f"{(_SOME_OF if some else _NONE_OF)[group]} has {a(np2.head())}{in_play}{tail}"
                head = np2.head(not _is_one(rhs))
                return f"{_ALL_OF[group]} have {self._amount(op, rhs)} {head}{in_play} between them{tail}"
            if some:
                return f"{who} {conj('have', np.holder)} {a(np2.head())}{' in play' if np2.bare() else ''}{tail}"
            if none:
                return f"{who} {conj('have', np.holder)} no {np2.head(True)}{' in play' if np2.bare() else ''}{tail}"
            return (
                f"{who} {conj('have', np.holder)} {self._amount(op, rhs)} {np2.head(True)}"
                f"{' in play' if np2.bare() else ''}{tail}"
            )
        where = f" {np.place}" if np.place else ""
        if some:
            return f"there is {a(np.head())}{where}{np.tail()}"
        if none:
            return f"there is no {np.head()}{where}{np.tail()}"
        one = _is_one(rhs)  # "more than 1 card", not "more than 1 cards"
        if np.bare() and np.source and np.source.endswith("hand"):
            other = self._counted_hand(rhs)
            if other is not None:  # two hands compared: "your hand holds fewer cards than your opponent's"
                return f"{np.source} holds {_THAN[op]} {other}"
            return f"{np.source} holds {self._amount(op, rhs)} card{'' if one else 's'}"
        return f"there {'is' if one else 'are'} {self._amount(op, rhs)} {np.head(not one)}{where}{np.tail()}"

    @staticmethod
    def _counted_words(np: NP) -> str:
        """The cards of a noun phrase as counted ("your point cards", "cards in your hand")."""
        if np.bare() and np.source:
            return f"cards in {np.source}"
        return np.plural()

    def _counted_hand(self, node: A.Node) -> str | None:
        """`count(hand of P)`, as the hand it counts ("your opponent's hand"); None for anything else."""
        if isinstance(node, A.Call) and node.func == "count" and len(node.args) == 1:
            np = self.noun(node.args[0])
            if np is not None and np.bare() and np.source and np.source.endswith("hand"):
                return np.source
        return None

    def _amount(self, op: str, rhs: A.Node) -> str:
        return f"{_AMOUNT.get(op, op)} {self.value(rhs)}"

    def named_card(self, cond: A.Node, var: str) -> tuple[A.Node, English]:
        """The condition of `where x: COND` read as a condition on `it` (so "whose value is 3" reads as
        it does unnamed), and x, where `it` means another card (a nested `where`), called "that card"."""
        named = self.with_(aliases={**self.ctx.aliases, var: "that card"})
        if _in_scope(cond, "it", _EACH) != cond:  # the condition reads an outer `it` too: x keeps its own words
            return cond, named
        return _in_scope(cond, var, "it"), named

    def in_scope(self, node: Any, name: str, new: str) -> Any:
        return _in_scope(node, name, new)

    def looks_like_set(self, node: A.Node) -> bool:
        return _looks_like_set(node, self.ctx)

    def table(self, values: list[Any], counted: A.Node) -> str | None:
        """`goals[count(S)]`: 21 with no King, 14 with 1, 10 with 2 ..."""
        np = self.noun(counted)
        if np is None or not values:
            return None
        rank = _one_rank(counted)
        if rank is not None and rank in self.ctx.rank_counts:  # (Micro's one King: 21 with none, 14 with 1)
            values = values[: self.ctx.rank_counts[rank] + 1]
        parts = [f"{values[0]} with no {np.head()}{' ' + np.place if np.place else ''}{np.tail()}"]
        parts += [f"{v} with {i}" for i, v in enumerate(values[1:], start=1)]
        return join_or(parts, "and")

    def inlinable(self, f: str, args: tuple[A.Node, ...]) -> bool:
        """A definition read in place: a single comparison about players (`uncounterable(me)` ->
        `you have a Queen`); longer ones, or ones about cards, keep their name (see the Terms)."""
        params, body = self.ctx.defines[f]
        if len(params) != len(args) or not isinstance(body, A.BinOp) or body.op in ("and", "or"):
            return False
        return all(_is(x, "me") or _is(x, "opponent") for x in args)

    @staticmethod
    def is_one(n: A.Node) -> bool:
        return _is_one(n)

    def one_card(self, node: A.Node) -> bool:
        """Whether an expression is one card by its shape (`card`, `target`, `it`, `first(...)`, a card
        chosen alone): said "it", not "them"."""
        if isinstance(node, A.Name):
            return node.name in ("card", "target", "it") or self.ctx.chosen.get(node.name) in ("it", "the chosen card")
        return isinstance(node, A.Call) and node.func in ("first", "top") and len(node.args) == 1

    @staticmethod
    def literal(node: A.Node) -> str | None:
        return _literal(node)

    @staticmethod
    def is_condition(node: A.Node) -> bool:
        return isinstance(node, A.Not) or (isinstance(node, A.BinOp) and node.op not in ARITH_WORDS)

    def yes_no(self, node: A.Node) -> bool:
        """Whether an expression is a condition by its shape (a comparison, `and`, `not`, a test such as
        `any(...)` or `marked(...)`, a definition that is one): used as a number, it counts 1 or 0."""
        if self.is_condition(node):
            return True
        if isinstance(node, A.Name):
            if node.name in ("true", "false"):
                return True
            node = A.Call(node.name, ()) if node.name in self.ctx.defines else node
        if isinstance(node, A.Call):
            if node.func in ("any", "can_play", "marked", "same_rank"):
                return True
            if node.func in self.ctx.defines:
                params, body = self.ctx.defines[node.func]
                return len(params) == len(node.args) and self.yes_no(body)
        return False

    def number(self, node: A.Node) -> str:
        """An expression where a number is needed: a condition reads "1 if ... (else 0)"."""
        if self.yes_no(node):
            return f"1 if {self.cond(node)} (else 0)"
        return self.value(node)

    def outcome(self, node: A.Node) -> str:
        """Who wins, as a clause: 'you win the game', 'the game ends in a draw' (`nobody`), and for
        `A if C else B` 'if C, A wins the game; otherwise ...'."""
        if isinstance(node, A.Name) and node.name == "nobody" and "nobody" not in self.ctx.constants:
            return "the game ends in a draw"
        if isinstance(node, A.Conditional):
            return f"if {self.cond(node.cond)}, {self.outcome(node.then)}; otherwise {self.outcome(node.orelse)}"
        return f"{self.player(node)} {conj('win', node)} the game"

    @staticmethod
    def subst(node: Any, mapping: dict[str, A.Node]) -> Any:
        return subst(node, mapping)

    @staticmethod
    def same_card(x: A.Node, cards: A.Node) -> bool:
        """`x` is the card moved: the same tree, or `first(...)` of it."""
        return x == cards or (isinstance(x, A.Call) and x.func == "first" and len(x.args) == 1 and x.args[0] == cards)

    #: what an expression's own `it` is called while it is read (`total(CARDS, EXPR)`: "each card's value")
    EACH = _EACH


def say(src: str, ctx: Context | None = None, condition: bool = False, program: bool = True) -> str:
    """Convenience: parse source text and render it (`say("scrap play where it.role == point")`)."""
    from .parser import parse_expr, parse_program

    tree = parse_program(src) if program and not condition else parse_expr(src)
    return english(tree, ctx, condition)


__all__ = [
    "English",
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
