"""A binary operator: `A or B`, `A and B`, a comparison (`== != < <= > >=`, `in`, `not in`), or
arithmetic (`+ - * /`; `+` also joins two sets of cards)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.errors import suggest

from ..cost import ONE, Cost
from ..node import AND, COMPARE, NOT, OR, PRODUCT, SUM, UNARY, Example, Expression, Node, Pos
from ..phrasing import ARITH_WORDS, COMPARE_WORDS, NEGATED, a, rank_noun, role_noun
from ..pyast import _CMP, _call, _Code, _compare, _load, _store
from ..values import _is_cards, _number, cards
from .attribute import Attr
from .call import Call
from .index import Index
from .list_literal import ListLit
from .name import Name
from .negation import Neg
from .not_ import Not
from .number import Num
from .string import Str

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference

#: the operator of each grammar rule (`compare` carries its own)
_OPS = {"or_": "or", "and_": "and", "in_": "in", "not_in": "not in", "add": "+", "sub": "-", "mul": "*", "div": "/"}

_LEVELS: dict[str, tuple[int, int, int]] = {
    # op: (level of the node, level required on the left, level required on the right)
    "or": (OR, OR, AND),
    "and": (AND, AND, NOT),
    "+": (SUM, SUM, PRODUCT),
    "-": (SUM, SUM, PRODUCT),
    "*": (PRODUCT, PRODUCT, UNARY),
    "/": (PRODUCT, PRODUCT, UNARY),
}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"}


@dataclass(frozen=True)
class BinOp(Expression):
    op: str  # or and == != < <= > >= in notin + - * /
    left: Node
    right: Node

    RULES = ("or_", "and_", "compare", "in_", "not_in", "add", "sub", "mul", "div")
    EXAMPLES = (
        Example("{cards} + {cards}", "cards"),
        Example("{int} {arith} {int}", "int"),
        Example("{int} * {bool}", "int"),
        Example("{int} + {bool}", "int"),
        Example("hand_limit + {int}", "int"),
        Example("{int} {compare} {int}", "bool"),
        Example("count({cards}) {compare} {n}", "bool"),
        Example("{n} {compare} count({cards})", "bool"),
        Example("{card} in {cards}", "bool"),
        Example("{card} not in {cards}", "bool"),
        Example("{card} == {card}", "bool"),
        Example("{player} != {player}", "bool"),
        Example("{player} in opponents", "bool"),
        Example("{card}.rank == Q", "bool"),
        Example("{bool} and {bool}", "bool"),
        Example("{bool} or {bool}", "bool"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> BinOp:
        if rule == "compare":
            return cls(str(c[1]), c[0], c[2], **at)
        return cls(_OPS[rule], c[0], c[1], **at)

    def level(self) -> int:
        return COMPARE if self.op in _COMPARISONS else _LEVELS[self.op][0]

    def text(self, p: Printer) -> str:
        op, lhs, rhs = self.op, self.left, self.right
        if op in _COMPARISONS:
            return f"{p.expr(lhs, SUM)} {op} {p.expr(rhs, SUM)}"
        _, lneed, rneed = _LEVELS[op]
        return f"{p.expr(lhs, lneed)} {op} {p.expr(rhs, rneed)}"

    # -- English ------------------------------------------------------------------------------
    def value_words(self, e: English) -> str:
        op, lhs, rhs = self.op, self.left, self.right
        if op in ("+", "-") and _negative(rhs) is not None:  # `A + -3`: "A minus 3", never "plus minus 3"
            op, rhs = "-" if op == "+" else "+", _negative(rhs) or rhs
        if op in ARITH_WORDS:
            if op == "*" and (e.yes_no(lhs) or e.yes_no(rhs)):  # `3 * (me == first player)`: 3 if ..., else 0
                n, test = (lhs, rhs) if e.yes_no(rhs) else (rhs, lhs)
                return f"{e.number(n)} if {e.cond(test)} (else 0)"
            left = e.number(lhs)
            if (
                isinstance(lhs, Index)
                and isinstance(lhs.obj, Name)
                and isinstance(e.ctx.constants.get(lhs.obj.name), list)
            ):
                # a table told entry by entry (`goals[count(...)] + 2`): the sum applies to each entry
                return f"{left}; in each case {ARITH_WORDS[op]} {e.number(rhs)}"
            return f"{left} {ARITH_WORDS[op]} {e.number(rhs)}"
        return e.cond(self)

    def condition_words(self, e: English, negated: bool) -> str | None:
        match self:
            case BinOp(op="and" | "or" as op, left=lhs, right=rhs) if _neutral(op, lhs) or _neutral(op, rhs):
                # `A and true`, `A or false`: A alone (never "... and always")
                return e.cond(rhs if _neutral(op, lhs) else lhs, negated)
            case BinOp(op="and" | "or" as op, left=lhs, right=rhs):
                if negated:  # De Morgan
                    op = "or" if op == "and" else "and"
                parts = [_cond_part(x, e, negated, op) for x in (lhs, rhs)]
                return f" {op} ".join(parts)
            case BinOp(op="in" | "not in" as op, left=lhs, right=rhs):
                if negated:
                    op = NEGATED[op]
                np = e.noun(rhs)
                where = np.plural() if np else e.value(rhs)
                return f"{e.value(lhs)} {'is one of' if op == 'in' else 'is not one of'} {where}"
            case BinOp(op=op, left=Call(func="count", args=(s,)), right=rhs) if op in COMPARE_WORDS:
                return e.count_cond(s, NEGATED[op] if negated else op, rhs)
            case BinOp(op="==" | "!=" as op, left=lhs, right=rhs) if _a_player(lhs) and _a_player(rhs):
                if negated:
                    op = NEGATED[op]
                subj = e.player(lhs)
                return f"{subj} {'are' if subj == 'you' else 'is'}{' not' if op == '!=' else ''} {e.player(rhs)}"
            case BinOp(op=op, left=lhs, right=rhs) if op in COMPARE_WORDS:
                if negated:
                    op = NEGATED[op]
                if isinstance(lhs, Attr) and lhs.name == "rank" and e.literal(rhs) is not None and op in ("==", "!="):
                    return f"{e.value(lhs.obj)} {'is' if op == '==' else 'is not'} {a(rank_noun(e.literal(rhs) or ''))}"
                if isinstance(lhs, Attr) and lhs.name == "role" and e.literal(rhs) is not None and op in ("==", "!="):
                    return f"{e.value(lhs.obj)} {'is' if op == '==' else 'is not'} {a(role_noun(e.literal(rhs) or ''))}"
                left, words_ = e.value(lhs), COMPARE_WORDS[op]
                if isinstance(lhs, Call) and lhs.func == "score":  # "your points are", not "is"
                    words_ = "are" + words_[2:]
                return f"{left} {words_} {e.value(rhs)}"
        text = e.code(self)
        return f"not {text}" if negated else text

    # -- code ---------------------------------------------------------------------------------
    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        test = None if c.plain else _any_test(c, self)
        if test is not None:  # by a loop that stops at the first card (the same checks and cost as below)
            a0 = c.gen(test[0], scope, used, loop=True)
            c._expect(a0, ("card", "cards"), test[0], "count()")
            found = c._found(a0)
            return _Code(
                found if test[1] else ast.UnaryOp(op=ast.Not(), operand=found), "bool", a0.cost + ONE + ONE + ONE
            )
        ln = _coerce_rank(c, self.left, self.right)
        rn = _coerce_rank(c, self.right, self.left)
        op = self.op
        left = c.gen(ln, scope, used)
        # the right side of `and`/`or` runs only when the left does not decide: its statements too
        rstmts, right = (
            c._apart(lambda: c.gen(rn, scope, used)) if op in ("and", "or") else ([], c.gen(rn, scope, used))
        )
        cost = left.cost + right.cost + ONE
        if op in ("<", "<=", ">", ">=", "-", "*", "/"):
            left, right = c.number(left, self.left, f"'{op}'"), c.number(right, self.right, f"'{op}'")
        elif op == "+":
            if "bool" in (left.typ, right.typ) and {left.typ, right.typ} <= {"int", "bool", "any"}:
                # a condition added to a number counts 1 or 0
                left, right = c.number(left, self.left, "'+'"), c.number(right, self.right, "'+'")
            if not ({left.typ, right.typ} <= {"int", "any"} or {left.typ, right.typ} <= {"cards", "card", "any"}):
                raise c.error(
                    self,
                    f"'+' adds two numbers or joins two sets of cards, not "
                    f"{c._KIND_WORDS[left.typ]} and {c._KIND_WORDS[right.typ]}",
                    "E210",
                )
        elif op in ("==", "!="):
            kinds = {left.typ, right.typ} - {"any"}
            if len(kinds) == 2 and not kinds <= {"int", "player"} and not kinds <= {"card", "int"}:
                raise c.error(
                    self,
                    f"'{op}' compares {c._KIND_WORDS[left.typ]} with {c._KIND_WORDS[right.typ]}: it can never hold",
                    "E210",
                )
        elif op in ("in", "not in") and right.typ == "players":  # a player in a set of players
            c._expect(left, ("player",), self.left, f"'{op}' (of players)")
        elif op in ("in", "not in"):
            c._expect(right, ("cards", "card"), self.right, f"'{op}'")
        if op in ("and", "or"):
            if not rstmts:
                return _Code(
                    ast.BoolOp(op=ast.And() if op == "and" else ast.Or(), values=[_bool(left), _bool(right)]),
                    "bool",
                    cost,
                )
            v = c._fresh()
            c._pre += [
                ast.Assign(targets=[_store(v)], value=_bool(left)),
                ast.If(
                    test=_load(v) if op == "and" else ast.UnaryOp(op=ast.Not(), operand=_load(v)),
                    body=rstmts + [ast.Assign(targets=[_store(v)], value=_bool(right))],
                    orelse=[],
                ),
            ]
            return _Code(_load(v), "bool", cost)
        if op in ("in", "not in"):
            # (a list is read as cards, none left out, unless it is a constant that holds no none; a set
            # of players as it is)
            constant = isinstance(right.value, tuple) and not any(v.__class__ is int and v < 0 for v in right.value)
            rs = right.node if right.typ in ("cards", "players") or constant else c._cards_of(right)
            return _Code(_compare(left.node, _CMP[op](), rs), "bool", cost + Cost(right.size))
        if op in _CMP:
            return _Code(_compare(left.node, _CMP[op](), right.node), "bool", cost)
        if op == "+":
            if "cards" in (left.typ, right.typ) or "card" in (left.typ, right.typ):
                return _Code(
                    _call("_join", left.node, right.node),
                    "cards",
                    cost + Cost(left.size + right.size),
                    left.size + right.size,
                )
            return _Code(
                _call("_add", left.node, right.node),
                "any" if "any" in (left.typ, right.typ) else "int",
                cost + Cost(left.size + right.size),
                left.size + right.size,
            )
        helper = {"-": "_sub", "*": "_mul", "/": "_div"}[op]
        return _Code(_call(helper, left.node, right.node), "int", cost)

    # -- meaning ------------------------------------------------------------------------------
    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        op = self.op
        left = r.ev(_rank_literal(self.left, self.right), g, env, bound)
        if op == "and":
            return bool(left) and bool(r.ev(_rank_literal(self.right, self.left), g, env, bound))
        if op == "or":
            return bool(left) or bool(r.ev(_rank_literal(self.right, self.left), g, env, bound))
        right = r.ev(_rank_literal(self.right, self.left), g, env, bound)
        if op in ("in", "not in"):
            found = left in cards(right)  # (none is in no list: `[target, none]` is one card)
            return found if op == "in" else not found
        if op == "+":
            if _is_cards(left) or _is_cards(right):
                return tuple(dict.fromkeys(cards(left) + cards(right)))
            return _number(left + right)
        return _BINARY[op](left, right)


# -- English ----------------------------------------------------------------------------------


def _a_player(node: Node) -> bool:
    """Whether an expression names a player (me, opponent, a seat, an owner, other(...))."""
    return (
        (isinstance(node, Name) and node.name in ("me", "opponent", "p1", "p2", "first player", "second player"))
        or (isinstance(node, Attr) and node.name in ("owner", "controller", "last_owner", "last_controller"))
        or (isinstance(node, Call) and node.func == "other")
    )


def _neutral(op: str, node: Node) -> bool:
    """`true` beside `and`, `false` beside `or`: a side that changes nothing."""
    return isinstance(node, Name) and node.name == ("true" if op == "and" else "false")


def _negative(node: Node) -> Node | None:
    """`-X` (or `-X * Y`) as the positive X (`X * Y`); None when it is not written negative."""
    if isinstance(node, Neg):
        return node.operand
    if isinstance(node, BinOp) and node.op in ("*", "/") and isinstance(node.left, Neg):
        return BinOp(node.op, node.left.operand, node.right)
    return None


def _cond_part(node: Node, e: English, negated: bool, op: str) -> str:
    text = e.cond(node, negated)
    inner = node.operand if isinstance(node, Not) else node
    if isinstance(inner, BinOp) and inner.op in ("and", "or"):
        inner_op = inner.op if not (negated ^ isinstance(node, Not)) else ("or" if inner.op == "and" else "and")
        if inner_op != op:
            return f"({text})" if inner_op == "and" else f"either {text}"
    return text


# -- code -------------------------------------------------------------------------------------

# `count(S) OP k` that only asks whether S has any card: (OP, k) -> whether it is `any(S)` (else `not`)
_ANY_TESTS = {(">", 0): True, (">=", 1): True, ("!=", 0): True, ("==", 0): False, ("<", 1): False, ("<=", 0): False}
_MIRROR = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!="}


def _any_test(c: Compiler, node: BinOp) -> tuple[Node, bool] | None:
    """(S, True) if `node` is `count(S) > 0` or the like, (S, False) for `count(S) == 0`..."""
    for call, k, op in ((node.left, node.right, node.op), (node.right, node.left, _MIRROR.get(node.op))):
        if (
            isinstance(call, Call)
            and call.func == "count"
            and len(call.args) == 1
            and call.func not in c.ctx.defines
            and isinstance(k, Num)
        ):
            positive = _ANY_TESTS.get((op, k.value)) if op is not None else None
            if positive is not None:
                return call.args[0], positive
    return None


def _coerce_rank(c: Compiler, node: Node, other: Node) -> Node:
    """`it.rank == 9` compares rank names: a number beside `.rank` means that rank."""
    if isinstance(other, Attr) and other.name == "rank":
        if isinstance(node, Num):
            node = Str(str(node.value), line=node.line, column=node.column)
        elif isinstance(node, ListLit):
            return ListLit(tuple(_coerce_rank(c, i, other) for i in node.items), line=node.line, column=node.column)
        if isinstance(node, Str) and node.value not in c.ctx.ranks:
            near = suggest(node.value, c.ctx.ranks)
            raise c.error(
                node,
                f"'{node.value}' is not a rank",
                "E203",
                f"did you mean '{near}'?" if near else f"ranks: {', '.join(c.ctx.ranks)}",
            )
    return node


def _bool(code: _Code) -> ast.expr:
    return code.node if code.typ == "bool" else _call("bool", code.node)


# -- meaning ----------------------------------------------------------------------------------


def _rank_literal(side: Node, other: Node) -> Node:
    """`it.rank == 9`: a number beside `.rank` is that rank's name."""
    if isinstance(other, Attr) and other.name == "rank":
        if isinstance(side, Num):
            return Str(str(side.value))
        if isinstance(side, ListLit):
            return ListLit(tuple(_rank_literal(i, other) for i in side.items))
    return side


def _div(a: int, b: int) -> int:
    return a // b if b else 0


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "-": lambda a, b: _number(a - b),
    "*": lambda a, b: _number(a * b),
    "/": _div,
}


def conjuncts(node: Node) -> list[Node]:
    """A condition's tests: `A and B and C` as [A, B, C], anything else as itself (a `where` tests
    them one by one, and an illegal move's explanation names the first that fails)."""
    if isinstance(node, BinOp) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]
