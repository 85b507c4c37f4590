"""A call: a primitive (`count(S)`, `total(S)`, `min(a, b)`, `other(P)`, `marked(X, M)`...) or a
ruleset's definition with arguments (`beats(card, it)`)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import RANK_OF
from interpreter.core.errors import RuleRuntimeError, suggest
from interpreter.core.zones import DECK

from ..context import PRIMITIVE_ARITY
from ..cost import ONE, Cost
from ..node import Example, Expression, Node, Pos
from ..phrasing import NP, join_or, words
from ..pyast import _attr, _call, _Code, _compare, _const, _for, _g, _item, _load, _store, _unturned, _zone
from ..values import Card, Player, _first, _number, _player, cards
from .name import Name
from .number import Num
from .zone import Zone

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


@dataclass(frozen=True)
class Call(Expression):
    func: str
    args: tuple[Node, ...]

    RULES = ("call",)
    EXAMPLES = (
        Example("other({player})", "player"),
        Example("deck_top({int})", "cards"),
        Example("top({card})", "cards"),
        Example("first({cards})", "card"),
        Example("count({cards})", "int"),
        Example("total({cards})", "int"),
        Example("total({cards}, {it:int})", "int"),
        Example("min({cards})", "int"),
        Example("max({cards})", "int"),
        Example("min({int}, {int})", "int"),
        Example("max({int}, {int})", "int"),
        Example("score({player})", "int"),
        Example("goal({player})", "int"),
        Example("count(opponents)", "int"),
        Example("turns_until({player})", "int"),
        Example("any({cards})", "bool"),
        Example("same_rank({cards})", "bool"),
        Example("protected({card})", "bool"),
        Example("beats({card}, {card})", "bool"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Call:
        args = tuple(a for a in c[1:] if a is not None)
        return cls(str(c[0]), args, **at)

    def text(self, p: Printer) -> str:
        return f"{self.func}({', '.join(p.expr(a) for a in self.args)})"

    # -- English --------------------------------------------------------------------------------
    def value_words(self, e: English) -> str:
        f, args, ctx = self.func, self.args, e.ctx
        if f == "count" and len(args) == 1:
            np = e.noun(args[0])
            return f"the number of {np.plural()}" if np else f"the number of {e.value(args[0])}"
        if f == "total" and len(args) == 1:
            np = e.noun(args[0])
            return f"the total value of {np.plural() if np else e.value(args[0])}"
        if f == "total" and len(args) == 2:  # `total(CARDS, EXPR)`: "the sum of each card's heat count over ..."
            np = e.noun(args[0])
            each = e.with_(aliases={**ctx.aliases, e.EACH: "each card"}).value(e.in_scope(args[1], "it", e.EACH))
            return f"the sum of {each} over {np.plural() if np else e.value(args[0])}"
        if f in ("min", "max"):
            word = "smaller" if f == "min" else "larger"
            if len(args) == 1:
                return f"the {'smallest' if f == 'min' else 'largest'} of {e.value(args[0])}"
            return f"the {word} of {join_or([e.value(x) for x in args], 'and')}"
        if f == "top" and len(args) == 1:
            return f"the top Jack on {e.value(args[0])}"
        if f == "deck_top" and len(args) == 1:
            return _deck_top_words(args[0], e)
        if f == "first" and len(args) == 1:
            np = e.noun(args[0])
            if np is not None and np.definite and not np.plural_definite:
                return np.definite
            return f"the first of {e.value(args[0])}"
        if f == "score" and len(args) == 1:
            return f"{e.possessive(args[0])} points"
        if f == "goal" and len(args) == 1:
            return f"{e.possessive(args[0])} goal"
        if f == "other" and len(args) == 1:
            return e.player(self)
        if f == "turns_until" and len(args) == 1:
            return f"the turns until the end of {e.possessive(args[0])} next turn"
        if f in ("can_play", "marked", "same_rank", "any"):
            return e.cond(self)
        if f in ctx.defines:
            np = e.noun(self)
            if np is not None:
                return np.plural()
            params, body = ctx.defines[f]
            if e.is_condition(body):
                return e.cond(self)
            if len(args) == 1:  # `worth(card)`: "this card's worth"
                return f"{e.possessive(args[0])} {words(f)}"
            return f"{words(f)} of {join_or([e.value(x) for x in args], 'and')}"
        return e.code(self)

    def condition_words(self, e: English, negated: bool) -> str | None:
        f, args, ctx = self.func, self.args, e.ctx
        if f == "any" and len(args) == 1:
            return e.count_cond(args[0], "==" if negated else ">", Num(0))
        if f == "can_play" and len(args) == 1:
            np = e.noun(args[0])
            what = np.one() if np and not np.definite else f"one of {e.value(args[0])}"
            return f"{what} can{'not' if negated else ''} be played"
        if f == "marked" and len(args) == 2:
            who = e.value(args[0])
            return f"{who} {'are' if who == 'you' else 'is'} {'not ' if negated else ''}marked {e.value(args[1])}"
        if f == "same_rank" and len(args) == 1:
            return f"{e.value(args[0])} {'are not' if negated else 'are'} all of the same rank"
        if f in ctx.defines and e.inlinable(f, args):
            params, body = ctx.defines[f]
            return e.cond(e.subst(body, dict(zip(params, args, strict=True))), negated)
        if f in ctx.defines and not e.looks_like_set(ctx.defines[f][1]):
            w = words(f)
            if len(args) == 1:
                subj = e.player(args[0])
                be = "are" if subj == "you" else "is"
                return f"{subj} {be} {'not ' if negated else ''}{w}"
            if len(args) == 2:
                verb = ("does not " + w.removesuffix("s")) if negated else w
                return f"{e.value(args[0])} {verb} {e.value(args[1])}"
            return f"{'not ' if negated else ''}{w}({', '.join(e.value(x) for x in args)})"
        return None

    def noun(self, e: English) -> NP | None:
        f, args = self.func, self.args
        if f == "top" and len(args) == 1:
            return NP(definite=f"the top Jack on {e.value(args[0])}")
        if f == "deck_top" and len(args) == 1:
            return NP(definite=_deck_top_words(args[0], e), plural_definite=not e.is_one(args[0]))
        if f in e.ctx.defines:
            params, body = e.ctx.defines[f]
            if len(params) == len(args) and e.looks_like_set(body):
                return e.noun(e.subst(body, dict(zip(params, args, strict=True))))
        return None

    # -- code -----------------------------------------------------------------------------------
    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        name = self.func
        if name in c.ctx.defines:
            return c.expand(self, name, self.args, scope, used, loop)
        _check_call(c, self, scope)
        if name == "total" and len(self.args) == 2:
            return _total_of(c, self, scope, used)
        # count, any and total run a `where` as a loop of their own
        fused = name in ("count", "any", "total") and not c.plain
        args = [c.gen(x, scope, used, loop=fused) for x in self.args]
        a0 = args[0]
        cost = sum((a.cost for a in args), ONE)
        if a0.typ == "players" and name in ("count", "any"):  # how many players (`count(opponents)`)
            how_many = _call("len", a0.node)
            if name == "count":
                return _Code(how_many, "int", cost)
            return _Code(_compare(how_many, ast.Gt(), _const(0)), "bool", cost)
        if name in ("count", "any", "total", "same_rank", "can_play"):
            c._expect(a0, ("card", "cards"), self.args[0], f"{name}()")
        if fused:
            if name == "count":
                return _Code(_counted(c, a0), "int", cost)
            if name == "total":
                return _Code(_totalled(c, a0), "int", cost + Cost(a0.size))
            return _Code(c._found(a0), "bool", cost)
        if name in ("min", "max"):
            for i, (a, x) in enumerate(zip(args, self.args, strict=True)):
                if a.typ == "bool" or len(args) > 1:
                    args[i] = c.number(a, x, f"{name}()")
                else:
                    c._expect(a, ("int", "cards"), x, f"{name}()")
            a0 = args[0]
        if name in ("score", "goal", "other", "turns_until"):
            p = c._as_player(a0, self.args[0], f"{name}()")
        if name == "turns_until":  # (a helper: `%` is not among the operators generated code may use)
            return _Code(_call("_turns_until", _load("g"), p, _const(c.ctx.seats)), "int", cost)
        if name == "count":
            if isinstance(self.args[0], Zone) and self.args[0].zone == "deck":  # no need to turn it round
                return _Code(_call("len", _zone(_const(DECK))), "int", cost)
            return _Code(_call("len", c._cards_of(a0)), "int", cost)
        if name == "any":
            return _Code(_compare(_call("len", c._cards_of(a0)), ast.Gt(), _const(0)), "bool", cost)
        if name == "total":
            var = c._fresh()
            comp = ast.comprehension(target=_store(var), iter=c._cards_of(a0), ifs=[], is_async=0)
            return _Code(
                _call("sum", ast.ListComp(elt=c._value_of(_load(var)), generators=[comp])),
                "int",
                cost + Cost(a0.size),
            )
        if name in ("min", "max"):
            if len(args) == 1:
                # (a helper: a call with a keyword compiles to a tuple of names, which check_code refuses)
                helper = "_least" if name == "min" else "_most"
                return _Code(_call(helper, a0.node), "int", cost + Cost(a0.size))
            return _Code(_call(name, *(a.node for a in args)), "int", cost)
        if name == "top":
            one = a0.node if a0.typ == "card" else _call("_first", a0.node)
            return _Code(_call("_top", _load("g"), one), "cards", cost)
        if name == "first":
            return _Code(_call("_first", a0.node), "card", cost)
        if name == "score":
            return _Code(_call(_attr(_g("rules"), "score_of"), _load("g"), p), "int", cost + Cost(0, score=1))
        if name == "goal":
            return _Code(_call(_attr(_g("rules"), "goal_of"), _load("g"), p), "int", cost + Cost(0, goal=1))
        if name == "can_play":
            return _Code(
                _call(_g("can_play"), c._env("me", used), c._cards_of(a0)), "bool", cost + Cost(0, plays=a0.size)
            )
        if name == "marked":
            c._expect(args[1], ("str",), self.args[1], "marked()")
            if a0.typ == "player":
                return _Code(
                    _call(_g("is_marked"), ast.BinOp(left=_const(-1), op=ast.Sub(), right=a0.node), args[1].node),
                    "bool",
                    cost,
                )
            one = a0.node if a0.typ == "card" else _call("_first", a0.node)
            return _Code(_call(_g("is_marked"), one, args[1].node), "bool", cost)
        if name == "deck_top":
            a0 = c.number(a0, self.args[0], "deck_top()")
            n = c.ctx.deck_size if a0.value.__class__ is not int else max(0, min(a0.value, c.ctx.deck_size))
            return _Code(_call("_deck_top", _load("g"), a0.node), "cards", cost + Cost(n), max(1, n))
        if name == "same_rank":
            var = c._fresh()
            comp = ast.comprehension(target=_store(var), iter=c._cards_of(a0), ifs=[], is_async=0)
            ranks = ast.SetComp(elt=_item(_load("RANK_OF"), _load(var)), generators=[comp])
            return _Code(_compare(_call("len", ranks), ast.LtE(), _const(1)), "bool", cost + Cost(a0.size))
        if c.ctx.seats != 2:  # other: at a larger table, the next player clockwise
            return _Code(_item(_item(_load("NEXT_SEAT"), _const(c.ctx.seats)), p), "player", cost)
        return _Code(ast.BinOp(left=_const(1), op=ast.Sub(), right=p), "player", cost)  # other

    # -- the reference meaning ------------------------------------------------------------------
    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        if self.func in r.ctx.defines:
            return r._define(self.func, self.args, g, env, bound)
        if self.func == "total" and len(self.args) == 2:  # `total(CARDS, EXPR)`: EXPR for each card (`it`)
            each = self.args[1]
            out = 0
            for c in cards(r.ev(self.args[0], g, env, bound)):
                out = _number(out + r.ev(each, g, {**env, "it": Card(c)}, bound | {"it"}))
            return out
        prim = _PRIMITIVES.get(self.func)
        if prim is None:
            raise RuleRuntimeError(f"line {self.line}: unknown function '{self.func}'")
        return prim(r, [r.ev(x, g, env, bound) for x in self.args], g, env)


def _deck_top_words(n: Node, e: English) -> str:
    """`deck_top(3)`: the top 3 cards of the deck."""
    if e.is_one(n):
        return "the top card of the deck"
    return f"the top {e.value(n)} cards of the deck"


# -- the code of calls: functions given the `Compiler` at work as `c` -------------------------------
def _check_call(c: Compiler, node: Call, scope: Scope) -> None:
    """A call of a primitive: a function that exists, the right number of arguments, and a mark
    that some `mark` of the ruleset gives."""
    name = node.func
    if name not in PRIMITIVE_ARITY:
        near = suggest(name, list(PRIMITIVE_ARITY) + list(c.ctx.defines))
        raise c.error(
            node,
            f"unknown function '{name}'",
            "E205",
            f"did you mean '{near}'?" if near else f"functions: {', '.join(sorted(PRIMITIVE_ARITY))}",
        )
    lo, hi = PRIMITIVE_ARITY[name]
    if not lo <= len(node.args) <= hi:
        raise c.error(
            node, f"{name}() takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), got {len(node.args)}", "E206"
        )
    if (
        name == "marked"
        and isinstance(node.args[1], Name)
        and node.args[1].name not in c.ctx.marks
        and node.args[1].name not in scope
        and node.args[1].name not in c.ctx.defines
        and node.args[1].name not in c.ctx.constants
    ):
        mark = node.args[1].name  # a mark is a name once some `mark` of the ruleset gives it
        near = suggest(mark, c.ctx.marks)
        raise c.error(
            node.args[1],
            f"no 'mark ... as {mark}' in this ruleset gives the mark '{mark}'",
            "E202",
            f"did you mean '{near}'?"
            if near
            else f"a mark is a name once a 'mark X as {mark}' statement of the ruleset uses it",
        )


def _total_of(c: Compiler, node: Call, scope: Scope, used: dict[str, str]) -> _Code:
    """`total(CARDS, EXPR)`: the sum of EXPR for each of the cards, `it` in EXPR being the card."""
    cards, per = node.args
    a0 = c.gen(cards, scope, used, loop=not c.plain)
    c._expect(a0, ("card", "cards"), cards, "total()")
    costs: list[Cost] = []

    def each(card: ast.expr) -> tuple[list[ast.stmt], ast.expr]:
        assert isinstance(card, ast.Name)
        inner = {**scope, "it": _Code(_load(card.id), "card")}
        stmts, x = c._apart(lambda: c.gen(per, inner, used))
        x = c.number(x, per, "total(CARDS, EXPR): EXPR")
        costs.append(x.cost)
        return stmts, x.node

    total = _totalled(c, a0, each)
    return _Code(total, "int", a0.cost + (costs[0] + ONE).times(a0.size) + ONE)


def _counted(c: Compiler, a0: _Code) -> ast.expr:
    """How many cards a set has: counted by a loop when it is made by `where` (no list built)."""
    if a0.loop is None:
        return _call("len", _unturned(c._cards_of(a0)))
    n = c._fresh()
    c._pre += [
        ast.Assign(targets=[_store(n)], value=_const(0)),
        a0.loop.run([ast.AugAssign(target=_store(n), op=ast.Add(), value=_const(1))]),
    ]
    return _load(n)


def _totalled(
    c: Compiler, a0: _Code, each: Callable[[ast.expr], tuple[list[ast.stmt], ast.expr]] | None = None
) -> ast.expr:
    """The total of a set of cards, summed by a loop (no list built): of their values, or of
    `each(card)` (its statements and its value: `total(CARDS, EXPR)`)."""
    t = c._fresh()

    def add(v: ast.expr) -> list[ast.stmt]:
        if each is None:
            return [ast.AugAssign(target=_store(t), op=ast.Add(), value=c._value_of(v))]
        stmts, x = each(v)
        return stmts + [ast.Assign(targets=[_store(t)], value=_call("_add", _load(t), x))]

    c._pre.append(ast.Assign(targets=[_store(t)], value=_const(0)))
    if a0.loop is not None:
        c._pre.append(a0.loop.run(add(_load(a0.loop.var))))
    else:
        var = c._fresh()
        c._pre.append(_for(var, c._cards_of(a0), add(_load(var))))
    return _load(t)


# -- the reference meaning of the primitives ----------------------------------------------------------
def _minmax(fn: Callable[..., int]) -> Callable[..., Any]:
    def prim(r: Reference, args: list[Any], g: ReferenceState, env: dict[str, Any]) -> Any:
        if len(args) == 1:
            if not isinstance(args[0], (list, tuple)):
                raise RuleRuntimeError("min()/max() of one value needs cards")
            return int(fn(args[0], default=0))  # a number (of a list of cards too)
        return fn(*args)

    return prim


def _top(r: Reference, args: list[Any], g: ReferenceState, env: dict[str, Any]) -> Any:
    atts = g.atts.get(_first(args[0]))
    return (atts[-1],) if atts else ()


def _deck_top(r: Reference, args: list[Any], g: ReferenceState, env: dict[str, Any]) -> Any:
    n = args[0]
    return () if n <= 0 else tuple(reversed(g.zones[DECK]))[:n]


def _total(r: Reference, args: list[Any], g: ReferenceState, env: dict[str, Any]) -> Any:
    return sum(r._value(g, c) for c in cards(args[0]))  # (a value an effect set counts, as `.value` reads it)


def _marked(r: Reference, args: list[Any], g: ReferenceState, env: dict[str, Any]) -> Any:
    who, mark = args
    return g.is_marked(-1 - int(who) if isinstance(who, Player) else _first(who), mark)


def _turns_until(r: Reference, a: list[Any], g: Any, e: dict[str, Any]) -> int:
    """`turns_until(P)`: the turns from this one to the end of P's next turn."""
    seats: int = r.ctx.seats
    return (_player(a[0]) - g.turn) % seats or seats


def _other(r: Reference, a: list[Any], g: Any, e: dict[str, Any]) -> Player:
    """`other(P)`: the other player; at a larger table, the next player clockwise."""
    seats: int = r.ctx.seats
    return Player((_player(a[0]) + 1) % seats)


_PRIMITIVES: dict[str, Callable[[Reference, list[Any], Any, dict[str, Any]], Any]] = {
    "count": lambda r, a, g, e: len(cards(a[0])),
    "any": lambda r, a, g, e: len(cards(a[0])) > 0,
    "total": _total,
    "min": _minmax(min),
    "max": _minmax(max),
    "top": _top,
    "first": lambda r, a, g, e: Card(_first(a[0])),
    "score": lambda r, a, g, e: g.rules.score_of(g, _player(a[0])),
    "goal": lambda r, a, g, e: g.rules.goal_of(g, _player(a[0])),
    "can_play": lambda r, a, g, e: g.can_play(e.get("me"), cards(a[0])),
    "marked": _marked,
    "other": _other,
    "same_rank": lambda r, a, g, e: len({RANK_OF[c] for c in cards(a[0])}) <= 1,
    "deck_top": _deck_top,
    "turns_until": _turns_until,
}
