"""A reference evaluator of the effect language: a plain tree-walking interpreter (one dispatch over
the node types of tree.py, a table of primitives), written to be obviously right rather than fast.

It shares nothing with compiler.py but the syntax tree: it reads the ruleset's names from its context
(constants, definitions, ranks, roles, marks, counters, values, suit order) and changes a game only
through the state's own operations (move, put_in_play, attach, draw, mark...). The tests evaluate
expressions and statements with both and compare the values and the states they leave
(tests/test_reference_evaluator.py). `evaluate(node, g, env, ctx)` gives an expression's value;
`execute(body, g, env, ctx)` runs statements (a `choose` by a player, or `play from`, asks `decide`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.core.cards import NAMES, RANK_OF, SUIT_OF
from interpreter.core.errors import RuleRuntimeError
from interpreter.core.limits import MAX_NUMBERS
from interpreter.core.zones import CONTROLLER, DECK, FIELD0, HAND0, RANDOM, SCRAP, SHOWN

from . import tree as A
from .values import (
    REST_OF_GAME,
    WIN_REASON,
    Card,
    Nobody,
    Player,
    _count,
    _first,
    _is_cards,
    _nobody_or,
    _number,
    _player,
    cards,
)

# the kinds of the names the engine binds (anything else bound: a plain value)
_NAME_KINDS: dict[str, type] = {"me": Player, "opponent": Player, "card": Card, "target": Card, "it": Card}
_ALWAYS = frozenset({"me", "opponent"})


class Reference:
    """Evaluates trees of one ruleset (its context `ctx`) on a game state `g`."""

    def __init__(self, ctx: Any, decide: Callable[..., tuple[int, ...]] | None = None) -> None:
        self.ctx = ctx
        self.decide = decide
        self.value = [ctx.values.get(RANK_OF[c], 0) for c in range(len(RANK_OF))]
        self.suit = [ctx.suit_rank.get(s, -1) if s else -1 for s in (SUIT_OF[c] for c in range(len(RANK_OF)))]

    # -- expressions -------------------------------------------------------------------------
    def ev(self, node: A.Node, g: Any, env: dict, bound: frozenset[str]) -> Any:
        if isinstance(node, A.Expression) and type(node).evaluate is not A.Expression.evaluate:
            return node.evaluate(self, g, env, bound)
        method = _EXPR.get(type(node))
        if method is None:
            raise RuleRuntimeError(f"line {node.line}: {type(node).__name__} is not an expression")
        return method(self, node, g, env, bound)

    def _num(self, n: A.Num, g, env, bound) -> Any:
        return n.value

    def _str(self, n: A.Str, g, env, bound) -> Any:
        return n.value

    def _name(self, n: A.Name, g, env, bound) -> Any:
        x = n.name
        if x == "random":
            return Player(RANDOM)
        if x == "none":
            return Card(-1)
        if x in ("true", "false"):
            return x == "true"
        if x in bound or x in _ALWAYS:
            v = env.get(x)
            kind = _NAME_KINDS.get(x)
            if kind is not None and isinstance(v, int) and not isinstance(v, bool):
                return kind(v)
            return v
        if x in self.ctx.defines:
            return self._define(x, (), g, env, bound)
        if x in self.ctx.constants:
            v = self.ctx.constants[x]
            return tuple(v) if isinstance(v, list) else v
        if x in self.ctx.ranks or x in self.ctx.roles or x in self.ctx.marks:
            return x
        if x == "turn":
            return g.turn_no
        if x in ("p1", "p2"):
            return Player(0 if x == "p1" else 1)
        if x in ("first player", "second player"):  # the seat whose turn the odd turns are, and the other
            first = g.turn if g.turn_no % 2 == 1 else 1 - g.turn
            return Player(first if x == "first player" else 1 - first)
        raise RuleRuntimeError(f"line {n.line}: unknown name '{x}'")

    def _define(self, name: str, args: tuple, g, env, bound) -> Any:
        params, body, _ = self.ctx.defines[name]
        values = [self.ev(a, g, env, bound) for a in args]
        inner = {"me": env.get("me"), "opponent": env.get("opponent"), **dict(zip(params, values, strict=True))}
        return self.ev(body, g, inner, frozenset(params))

    def _list(self, n: A.ListLit, g, env, bound) -> Any:
        return tuple(self.ev(i, g, env, bound) for i in n.items)

    def _zone(self, n: A.Zone, g, env, bound) -> Any:
        if n.zone == "deck":
            return tuple(reversed(g.zones[DECK]))
        if n.zone == "scrap":
            return tuple(g.zones[SCRAP])
        if n.zone == "shown":
            return tuple(g.zones[SHOWN])
        if n.zone == "play":
            return tuple(g.zones[FIELD0]) + tuple(g.zones[FIELD0 + 1])
        assert n.player is not None
        p = _player(self.ev(n.player, g, env, bound))
        return tuple(g.zones[(HAND0 if n.zone == "hand" else FIELD0) + p])

    def _where(self, n: A.Where, g, env, bound) -> Any:
        name = n.var or "it"  # `where x: COND`: the card is x (`it` keeps its meaning)
        out = []
        for c in cards(self.ev(n.source, g, env, bound)):
            if self.ev(n.cond, g, {**env, name: Card(c)}, bound | {name}):
                out.append(c)
        return tuple(out)

    def _value(self, g: Any, c: int) -> int:
        """A card's value: the one an effect gave it while it lasts (`set X.value`), else its rank's."""
        own = g.own_value(c) if c >= 0 else None
        return self.value[c] if own is None else own

    def _rank_literal(self, side: A.Node, other: A.Node) -> A.Node:
        """`it.rank == 9`: a number beside `.rank` is that rank's name."""
        if isinstance(other, A.Attr) and other.name == "rank":
            if isinstance(side, A.Num):
                return A.Str(str(side.value))
            if isinstance(side, A.ListLit):
                return A.ListLit(tuple(self._rank_literal(i, other) for i in side.items))
        return side

    def _binop(self, n: A.BinOp, g, env, bound) -> Any:
        op = n.op
        left = self.ev(self._rank_literal(n.left, n.right), g, env, bound)
        if op == "and":
            return bool(left) and bool(self.ev(self._rank_literal(n.right, n.left), g, env, bound))
        if op == "or":
            return bool(left) or bool(self.ev(self._rank_literal(n.right, n.left), g, env, bound))
        right = self.ev(self._rank_literal(n.right, n.left), g, env, bound)
        if op in ("in", "not in"):
            found = left in (right if isinstance(right, (list, tuple)) else cards(right))
            return found if op == "in" else not found
        if op == "+":
            if _is_cards(left) or _is_cards(right):
                return tuple(dict.fromkeys(cards(left) + cards(right)))
            return _number(left + right)
        return _BINARY[op](left, right)

    def _not(self, n: A.Not, g, env, bound) -> Any:
        return not self.ev(n.operand, g, env, bound)

    def _neg(self, n: A.Neg, g, env, bound) -> Any:
        return -self.ev(n.operand, g, env, bound)

    def _index(self, n: A.Index, g, env, bound) -> Any:
        seq, i = self.ev(n.obj, g, env, bound), self.ev(n.index, g, env, bound)
        if not isinstance(seq, (list, tuple)):
            if not seq:
                return Card(-1)
            raise RuleRuntimeError(f"line {n.line}: only a list or cards can be indexed")
        if not seq:
            return Card(-1)  # an item of an empty list or set: none
        return seq[max(0, min(i, len(seq) - 1))]

    def _attr(self, n: A.Attr, g, env, bound) -> Any:
        a = n.name
        obj = self.ev(n.obj, g, env, bound)
        if a in self.ctx.counters:
            key = -1 - _player(obj) if self.ctx.counters[a] == "player" else _first(obj)
            return g.counter(key, a)
        if a == "turns":
            return g.turns_of(_player(obj))
        c = _first(obj)
        if c < 0 and a in _OF_NONE:
            return _OF_NONE[a]
        attrs: dict[str, Callable[[], Any]] = {
            "rank": lambda: RANK_OF[c],
            "suit": lambda: self.suit[c],
            "value": lambda: self._value(g, c),
            "name": lambda: NAMES[c],
            "role": lambda: g.role[c],
            "owner": lambda: _nobody_or(g.owner[c]),
            "controller": lambda: _nobody_or(CONTROLLER[g.zone_of[c]]),
            # in play: its owner (the player whose field holds it) now; else when it last left play
            # (State.last_seats: (owner + 1) * 3 + controller + 1 when it last left play; 0, nobody's)
            "last_owner": lambda: _nobody_or(g.owner[c] if g.owner[c] >= 0 else divmod(g.last_seats[c], 3)[0] - 1),
            "last_controller": lambda: _nobody_or(
                g.zone_of[c] - FIELD0 if g.zone_of[c] in (FIELD0, FIELD0 + 1) else divmod(g.last_seats[c], 3)[1] - 1
            ),
            "host": lambda: Card(g.host[c]),
            "jacks": lambda: tuple(g.atts.get(c, ())),
            "top": lambda: g.is_top(c),
            "attached": lambda: g.host[c] >= 0,
        }
        if a not in attrs:
            raise RuleRuntimeError(f"line {n.line}: a card has no attribute '{a}'")
        return attrs[a]()

    def _call(self, n: A.Call, g, env, bound) -> Any:
        if n.func in self.ctx.defines:
            return self._define(n.func, n.args, g, env, bound)
        if n.func == "total" and len(n.args) == 2:  # `total(CARDS, EXPR)`: EXPR for each card (`it`)
            each = n.args[1]
            out = 0
            for c in cards(self.ev(n.args[0], g, env, bound)):
                out = _number(out + self.ev(each, g, {**env, "it": Card(c)}, bound | {"it"}))
            return out
        prim = _PRIMITIVES.get(n.func)
        if prim is None:
            raise RuleRuntimeError(f"line {n.line}: unknown function '{n.func}'")
        return prim(self, [self.ev(x, g, env, bound) for x in n.args], g, env)

    # -- statements ---------------------------------------------------------------------------
    def run(self, body: tuple[A.Node, ...], g: Any, env: dict, bound: set[str]) -> None:
        for stmt in body:
            if isinstance(stmt, A.Statement) and type(stmt).execute is not A.Statement.execute:
                stmt.execute(self, g, env, bound)
                continue
            method = _STMT.get(type(stmt))
            if method is None:
                raise RuleRuntimeError(f"line {stmt.line}: {type(stmt).__name__} is not a statement")
            method(self, stmt, g, env, bound)

    def _e(self, node: A.Node, g, env, bound: set[str]) -> Any:
        return self.ev(node, g, env, frozenset(bound))

    def _s_scrap(self, s: A.Scrap, g, env, bound) -> None:
        for c in cards(self._e(s.cards, g, env, bound)):
            g.move(c, SCRAP)

    def _s_move(self, s: A.Move, g, env, bound) -> None:
        cs = cards(self._e(s.cards, g, env, bound))
        d = s.dest
        if d.zone in ("deck top", "deck bottom"):
            if (d.zone == "deck top") != d.reversed:
                cs = cs[::-1]  # onto the top, the first card ends topmost
            for c in cs:
                g.move(c, DECK, d.zone == "deck bottom")
            return
        if d.zone in ("scrap", "shown"):
            for c in cs:
                g.move(c, SCRAP if d.zone == "scrap" else SHOWN)
            return
        assert d.player is not None
        for c in cs:  # the player worked out for each card, before it moves
            p = _player(self._e(d.player, g, env, bound))
            if d.zone == "hand":
                g.move(c, HAND0 + p)
            else:
                g.put_in_play(c, p, d.role)

    def _s_attach(self, s: A.Attach, g, env, bound) -> None:
        cs = cards(self._e(s.card, g, env, bound))
        h = _first(self._e(s.host, g, env, bound))
        if h >= 0:
            for c in cs:
                g.attach(c, h, env.get("me"), s.role)

    def _s_draw(self, s: A.Draw, g, env, bound) -> None:
        n = _count(self._e(s.count, g, env, bound))
        p = env.get("me") if s.player is None else _player(self._e(s.player, g, env, bound))
        g.draw(p, n)

    def _s_reveal(self, s: A.Reveal, g, env, bound) -> None:
        for _ in range(min(_count(self._e(s.count, g, env, bound)), len(g.zones[DECK]))):
            g.move(g.zones[DECK][-1], SHOWN)

    def _s_shuffle(self, s: A.Shuffle, g, env, bound) -> None:
        for c in cards(self._e(s.cards, g, env, bound)):
            g.move(c, DECK)
        g.shuffle_deck()

    def _s_shuffle_under(self, s: A.ShuffleUnder, g, env, bound) -> None:
        g.shuffle_under(cards(self._e(s.cards, g, env, bound)))

    def _s_swap(self, s: A.Swap, g, env, bound) -> None:
        zs = []
        for side in (s.left, s.right):
            assert isinstance(side, A.Zone) and side.player is not None
            zs.append((HAND0 if side.zone == "hand" else FIELD0) + _player(self._e(side.player, g, env, bound)))
        g.swap_zones(zs[0], zs[1])

    def _marks(self, s: A.Mark | A.Unmark, g, env, bound, do: Callable[[int], None]) -> None:
        who = self._e(s.cards, g, env, bound)
        if isinstance(who, Player):
            do(-1 - _player(who))
        else:
            for c in cards(who):
                do(c)

    def _s_mark(self, s: A.Mark, g, env, bound) -> None:
        turns = s.turns

        def mark(key: int) -> None:
            g.mark(key, s.mark, REST_OF_GAME if turns is None else self._e(turns, g, env, bound))

        self._marks(s, g, env, bound, mark)

    def _s_unmark(self, s: A.Unmark, g, env, bound) -> None:
        self._marks(s, g, env, bound, lambda key: g.unmark(key, s.mark))

    def _counter_key(self, target: A.Node, g, env, bound) -> tuple[int, str]:
        assert isinstance(target, A.Attr)
        obj = self._e(target.obj, g, env, bound)
        key = -1 - _player(obj) if self.ctx.counters[target.name] == "player" else _first(obj)
        return key, target.name

    def _value_card(self, target: A.Node, g, env, bound) -> int | None:
        """The card of `X.value` as the target of `set`/`add`; None when the target is a counter."""
        if isinstance(target, A.Attr) and target.name == "value":
            return _first(self._e(target.obj, g, env, bound))
        return None

    def _s_set_counter(self, s: A.SetCounter, g, env, bound) -> None:
        card = self._value_card(s.target, g, env, bound)
        if card is None:
            key, name = self._counter_key(s.target, g, env, bound)
        v = self._e(s.value, g, env, bound)
        n = REST_OF_GAME if s.turns is None else self._e(s.turns, g, env, bound)
        if card is None:
            g.set_counter(key, name, v, n)
        elif card >= 0:  # (none has no value to set)
            g.set_counter(card, "value", _number(v), n)

    def _s_add_counter(self, s: A.AddCounter, g, env, bound) -> None:
        card = self._value_card(s.target, g, env, bound)
        if card is None:
            key, name = self._counter_key(s.target, g, env, bound)
            g.add_counter(key, name, self._e(s.value, g, env, bound))
            return
        v = _number(self._e(s.value, g, env, bound))
        if card >= 0:
            own = g.own_value(card)
            if own is None:
                g.set_counter(card, "value", _number(self.value[card] + v), REST_OF_GAME)
            else:
                g.add_counter(card, "value", v)

    def _s_for(self, s: A.ForEach, g, env, bound) -> None:
        for c in cards(self._e(s.source, g, env, bound)):
            self.run(s.body, g, {**env, s.var: c}, bound | {s.var})

    def _s_if(self, s: A.If, g, env, bound) -> None:
        self.run(s.then if self._e(s.cond, g, env, bound) else s.orelse, g, env, bound)

    def _s_ask(self, s: A.Ask, g, env, bound) -> None:
        """`if P agrees to VERB`: P answers (through `decide("ask", P, VERB)`: True for yes), or the seeded
        generator for `random` (yes or no, even odds)."""
        v = self._e(s.player, g, env, bound)
        asked = RANDOM if v == RANDOM else _player(v)
        if asked == RANDOM:
            yes = g.rng.below(2) == 1
        elif self.decide is None:
            raise RuleRuntimeError(f"line {s.line}: a player must answer here (no `decide` given)")
        else:
            yes = bool(self.decide("ask", asked, s.verb))
        self.run(s.then if yes else s.orelse, g, env, bound)

    def _s_let(self, s: A.Let, g, env, bound) -> None:
        v = self._e(s.value, g, env, bound)
        env[s.name] = tuple(v) if isinstance(v, list) else v
        bound.add(s.name)

    def _s_choose(self, s: A.Choose, g, env, bound) -> None:
        options = cards(self._e(s.source, g, env, bound))
        bound |= {s.verb, "chosen"}
        if s.ordered:
            k = len(options)
        else:
            k = min(self._e(s.count, g, env, bound), len(options))
            if k <= 0:
                env[s.verb] = env["chosen"] = ()
                return
        chooser = self._e(s.chooser, g, env, bound)
        if k <= 1 and s.ordered:
            picked = options
        elif chooser == RANDOM:
            pool = list(options)
            if s.ordered:
                g.rng.shuffle(pool)
                picked = tuple(pool)
            else:
                n = g.rng.below(k + 1) if s.upto else k  # (up to: how many, drawn first)
                picked = tuple(sorted(pool.pop(g.rng.below(len(pool))) for _ in range(n)))
        elif self.decide is None:
            raise RuleRuntimeError(f"line {s.line}: a player must choose here (no `decide` given)")
        elif s.upto:  # the decider may answer with fewer cards, none included
            picked = tuple(self.decide("choose", chooser, s.verb, k, options, s.ordered, upto=True))
        else:
            picked = tuple(self.decide("choose", chooser, s.verb, k, options, s.ordered))
        env[s.verb] = env["chosen"] = picked

    def _s_choose_number(self, s: A.ChooseNumber, g, env, bound) -> None:
        low, high = self._e(s.low, g, env, bound), self._e(s.high, g, env, bound)
        bound |= {s.verb}
        if not isinstance(low, int) or not isinstance(high, int) or isinstance(low, bool) or high < low:
            raise RuleRuntimeError(f"line {s.line}: no number from {low!r} to {high!r}")
        if high - low + 1 > MAX_NUMBERS:
            raise RuleRuntimeError(f"line {s.line}: more than MAX_NUMBERS numbers from {low} to {high}")
        chooser = self._e(s.chooser, g, env, bound)
        if chooser == RANDOM:
            env[s.verb] = low + g.rng.below(high - low + 1)
            return
        chooser = _player(chooser)
        if self.decide is None:
            raise RuleRuntimeError(f"line {s.line}: a player must name a number here (no `decide` given)")
        else:
            env[s.verb] = self.decide("number", chooser, s.verb, low, high)

    def _s_play_from(self, s: A.PlayFrom, g, env, bound) -> None:
        options = cards(self._e(s.source, g, env, bound))
        if self.decide is None:
            raise RuleRuntimeError(f"line {s.line}: a player may play here (no `decide` given)")
        self.decide("play", env.get("me"), None, 1, options, False)

    def _s_pass(self, s: A.Pass, g, env, bound) -> None:
        g.passed = True

    def _s_win(self, s: A.Win, g, env, bound) -> None:
        g.declare_winner(_player(self._e(s.player, g, env, bound)), WIN_REASON)

    def _s_nothing(self, s: A.Nothing, g, env, bound) -> None:
        return None

    def _s_show(self, s: A.Show, g, env, bound) -> None:
        for c in cards(self._e(s.cards, g, env, bound)):  # (the player worked out for each card, as `move`)
            g.show(c, 3 if s.player is None else 1 + _player(self._e(s.player, g, env, bound)))


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


def _minmax(fn: Callable[..., int]) -> Callable[..., Any]:
    def prim(r: Reference, args: list, g: Any, env: dict) -> Any:
        if len(args) == 1:
            if not isinstance(args[0], (list, tuple)):
                raise RuleRuntimeError("min()/max() of one value needs cards")
            return int(fn(args[0], default=0))  # a number (of a list of cards too)
        return fn(*args)

    return prim


def _top(r: Reference, args: list, g: Any, env: dict) -> Any:
    atts = g.atts.get(_first(args[0]))
    return (atts[-1],) if atts else ()


def _deck_top(r: Reference, args: list, g: Any, env: dict) -> Any:
    n = args[0]
    return () if n <= 0 else tuple(reversed(g.zones[DECK]))[:n]


def _marked(r: Reference, args: list, g: Any, env: dict) -> Any:
    who, mark = args
    return g.is_marked(-1 - int(who) if isinstance(who, Player) else _first(who), mark)


_PRIMITIVES: dict[str, Callable[[Reference, list, Any, dict], Any]] = {
    "count": lambda r, a, g, e: len(cards(a[0])),
    "any": lambda r, a, g, e: len(cards(a[0])) > 0,
    "total": lambda r, a, g, e: sum(r.value[c] for c in cards(a[0])),
    "min": _minmax(min),
    "max": _minmax(max),
    "top": _top,
    "first": lambda r, a, g, e: Card(_first(a[0])),
    "score": lambda r, a, g, e: g.rules.score_of(g, _player(a[0])),
    "goal": lambda r, a, g, e: g.rules.goal_of(g, _player(a[0])),
    "can_play": lambda r, a, g, e: g.can_play(e.get("me"), cards(a[0])),
    "marked": _marked,
    "other": lambda r, a, g, e: Player(1 - _player(a[0])),
    "same_rank": lambda r, a, g, e: len({RANK_OF[c] for c in cards(a[0])}) <= 1,
    "deck_top": _deck_top,
}

_EXPR: dict[type, Callable[..., Any]] = {
    A.Num: Reference._num,
    A.Str: Reference._str,
    A.Name: Reference._name,
    A.ListLit: Reference._list,
    A.Zone: Reference._zone,
    A.Where: Reference._where,
    A.BinOp: Reference._binop,
    A.Not: Reference._not,
    A.Neg: Reference._neg,
    A.Index: Reference._index,
    A.Attr: Reference._attr,
    A.Call: Reference._call,
}
_STMT: dict[type, Callable[..., None]] = {
    A.Scrap: Reference._s_scrap,
    A.Move: Reference._s_move,
    A.Attach: Reference._s_attach,
    A.Draw: Reference._s_draw,
    A.Reveal: Reference._s_reveal,
    A.Shuffle: Reference._s_shuffle,
    A.ShuffleUnder: Reference._s_shuffle_under,
    A.Swap: Reference._s_swap,
    A.Mark: Reference._s_mark,
    A.Unmark: Reference._s_unmark,
    A.SetCounter: Reference._s_set_counter,
    A.AddCounter: Reference._s_add_counter,
    A.ForEach: Reference._s_for,
    A.If: Reference._s_if,
    A.Ask: Reference._s_ask,
    A.Let: Reference._s_let,
    A.Choose: Reference._s_choose,
    A.ChooseNumber: Reference._s_choose_number,
    A.PlayFrom: Reference._s_play_from,
    A.Pass: Reference._s_pass,
    A.Win: Reference._s_win,
    A.Nothing: Reference._s_nothing,
    A.Show: Reference._s_show,
}
# what the attributes of `none` (no card) are: nothing, nobody's, nowhere
_OF_NONE: dict[str, Any] = {
    "rank": None,
    "suit": -1,
    "value": 0,
    "name": "none",
    "role": None,
    "owner": Nobody(-1),
    "controller": Nobody(-1),
    "last_owner": Nobody(-1),
    "last_controller": Nobody(-1),
    "host": Card(-1),
    "jacks": (),
    "top": False,
    "attached": False,
}

# the nodes that are neither an expression nor a statement, but parts of one
PARTS = frozenset({A.Node, A.Dest, A.Program})


def evaluate(node: A.Node, g: Any, env: dict, ctx: Any, bound: frozenset[str] | None = None) -> Any:
    """An expression's value on state `g` with bindings `env` (the names bound: env's, if not given)."""
    return Reference(ctx).ev(node, g, env, frozenset(env) if bound is None else bound)


def execute(
    body: A.Program | tuple[A.Node, ...],
    g: Any,
    env: dict,
    ctx: Any,
    decide: Callable[..., tuple[int, ...]] | None = None,
) -> None:
    """Run statements on `g` (changing it through the state's operations); `env` gets their bindings."""
    stmts = body.body if isinstance(body, A.Program) else body
    Reference(ctx, decide).run(stmts, g, env, set(env))
