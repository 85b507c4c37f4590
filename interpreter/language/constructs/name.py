"""A name: a bound variable (`me`, `target`, `it`, a `let`), a definition, a constant, a rank, a role or
a mark, a seat (`p1`, `first player`), `nobody`, `turn`, `random`, `none`, `true` and `false`."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.errors import RuleRuntimeError, suggest
from interpreter.core.zones import RANDOM

from ..context import BOUND_ALWAYS, MORE_SEATS, NOBODY, ORDER_SEATS, PARTNER, PLAYER_SETS, SEATS
from ..cost import ONE
from ..node import Example, Expression, Pos
from ..phrasing import BOUND_WORDS, NP, RANK_WORDS, a, rank_noun, words
from ..pyast import _call, _Code, _const, _g, _item, _load
from ..values import Card, Nobody, Player, Players, _nobody_or

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference

#: the kinds of value of the names the engine binds (the compiler's type check)
_TYPES = {
    "me": "player",
    "opponent": "player",
    "player": "player",  # the player a play names (its `player:` key)
    "card": "card",
    "target": "card",
    "it": "card",
    "cards": "cards",
    "extra": "cards",
    "chosen": "cards",
    "answered": "cards",
    # bound by triggers (rules/triggers.py)
    "from_zone": "str",
    "to_zone": "str",
    "cause": "str",
    "countered": "bool",
    # bound in `turn.playable` (rules/sections.py): whether the card would answer a play (a response)
    "answering": "bool",
}

# the kinds of the names the engine binds, in the reference evaluator (anything else bound: a plain value)
_NAME_KINDS: dict[str, type] = {
    "me": Player,
    "opponent": Player,
    "player": Player,
    "card": Card,
    "target": Card,
    "it": Card,
}
_ALWAYS = frozenset({"me", "opponent"})
_CARD_NAMES = frozenset({"card", "cards", "target", "it", "extra", "chosen", "answered"})  # never a player


@dataclass(frozen=True)
class Name(Expression):
    name: str

    RULES = ("name",)
    EXAMPLES = (
        Example("me", "player"),
        Example("opponent", "player"),
        Example("p1", "player"),
        Example("p2", "player"),
        Example("first player", "player"),
        Example("second player", "player"),
        Example("none", "card"),
        Example("true", "bool"),
        Example("false", "bool"),
        Example("hand_limit", "int"),
        Example("turn", "int"),
    )

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Name:
        return cls(" ".join(str(c[0]).split()), **at)  # (`first  player` is `first player`)

    def text(self, p: Printer) -> str:
        return self.name

    def value_words(self, e: English) -> str:
        n, ctx = self.name, e.ctx
        if n in ("me", "opponent") or (n in (*PLAYER_SETS, PARTNER, "player") and n not in ctx.defines):
            return e.player(self)
        if n in ctx.aliases:
            return ctx.aliases[n]
        if n in ctx.chosen:
            return ctx.chosen[n]
        if n in BOUND_WORDS:
            return BOUND_WORDS[n]
        if n in ctx.constants:
            v = ctx.constants[n]
            shown = ", ".join(map(str, v)) if isinstance(v, list) else str(v)
            return f"the {words(n)} ({shown})"
        if n in ctx.defines and not ctx.defines[n][0]:
            np = e.noun(self)
            return np.plural() if np else words(n)
        if n in RANK_WORDS or n.isdigit():
            return a(rank_noun(n))
        return words(n)

    def condition_words(self, e: English, negated: bool) -> str | None:
        n = self.name
        if n in e.ctx.defines:
            return f"{'not ' if negated else ''}{words(n)}"
        if n in ("true", "false"):
            return "always" if (n == "true") != negated else "never"
        return None

    def noun(self, e: English) -> NP | None:
        n, ctx = self.name, e.ctx
        if n in ctx.defines and not ctx.defines[n][0]:
            if e.looks_like_set(ctx.defines[n][1]):
                return e.noun(ctx.defines[n][1])
            return None
        if n in ctx.aliases:
            return NP(definite=ctx.aliases[n])
        if n in ctx.chosen:
            return NP(definite=ctx.chosen[n], plural_definite=True)
        if n in ("cards", "extra", "chosen"):
            return NP(definite=BOUND_WORDS[n], plural_definite=True)
        if n in ("card", "target", "it"):
            return NP(definite=BOUND_WORDS[n])
        return None

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        n = self.name
        if n == "random":
            return _Code(_load("RANDOM"), "player")
        if n == "none":
            return _Code(_const(-1), "card")
        if n in ("true", "false"):
            return _Code(_const(n == "true"), "bool", value=n == "true")
        if n in scope or n in BOUND_ALWAYS:
            bound = scope.get(n)
            if bound is not None:
                typ = bound.typ if bound.typ != "any" else _TYPES.get(n, "any")
                return _Code(
                    _load(bound.node.id) if isinstance(bound.node, ast.Name) else _const(bound.node.value),  # type: ignore[attr-defined]
                    typ,
                    ONE,
                    bound.size,
                    bound.value,
                ).like(bound)
            typ = _TYPES.get(n, "cards" if n in c.ctx.verbs else "int" if n in c.ctx.numbers else "any")
            size = c._let_sizes.get(n, c.ctx.deck_size) if typ in ("cards", "any") else 1
            return _Code(c._env(n, used), typ, ONE, size)
        if n in c.ctx.defines:
            params, _, _ = c.ctx.defines[n]
            if params:
                raise c.error(self, f"'{n}' takes {len(params)} argument(s): write {n}(...)", "E206")
            return c.expand(self, n, (), scope, used, loop)
        if n in c.ctx.constants:
            c.ctx.used_names.add(n)
            v = c.ctx.constants[n]
            if isinstance(v, list):
                v = tuple(v)
                return _Code(c.const(v), "any", ONE, max(1, len(v)), v)
            return _Code(c.const(v), "any", value=v)
        if n in c.ctx.ranks or n in c.ctx.roles or n in c.ctx.marks:
            return _Code(c.const(n), "str", value=n)
        if n == "turn":  # the game's turn number: 1 for the first turn, then 2, 3...
            c.ctx.reads_turns = True
            return _Code(_g("turn_no"), "int")
        if n in SEATS:  # the seats: p1 (the first dealt, who moves first in a single game) and p2
            return _Code(_const(SEATS[n]), "player")
        if n in MORE_SEATS and MORE_SEATS[n] < c.ctx.seats:  # p3, p4 at a table of three or four
            return _Code(_const(MORE_SEATS[n]), "player")
        if n in PLAYER_SETS:  # opponents, others, players: each seat's, about `me`
            return _Code(_item(c.const(c.ctx.seat_table(n)), c._env("me", used)), "players", ONE, c.ctx.seats)
        if n == PARTNER:  # `me`'s partner, or nobody
            out = _Code(_item(c.const(c.ctx.seat_table(n)), c._env("me", used)), "player", ONE)
            out.nobody = True
            return out
        if n == NOBODY:  # no player: as a result (`win nobody`, an ending), a draw; as a player, an error
            out = _Code(_const(-1), "player")
            out.nobody = True
            return out
        if n in ORDER_SEATS:  # who moved first in this game (this hand of a match), and the other (the next)
            first = _call(_g("first_player"))
            if n == "first player":
                return _Code(first, "player")
            if c.ctx.seats != 2:
                return _Code(_item(_item(_load("NEXT_SEAT"), _const(c.ctx.seats)), first), "player")
            return _Code(ast.BinOp(_const(1), ast.Sub(), first), "player")
        if c.want == "player":  # a player is meant (`hand of P`, `win P`): suggested from the players' names
            known = {"me", "opponent", *SEATS, *ORDER_SEATS, NOBODY, *(k for k in scope if k not in _CARD_NAMES)}
            known |= {*PLAYER_SETS, PARTNER, *list(MORE_SEATS)[: c.ctx.seats - 2]} if c.ctx.seats > 2 else set()
            hint = "a player is me, opponent, p1, p2, first player, second player, or a card's owner or controller"
        else:
            known = set(scope) | BOUND_ALWAYS | set(c.ctx.defines) | set(c.ctx.constants) | set(c.ctx.ranks)
            known |= c.ctx.roles | {*SEATS, *ORDER_SEATS, NOBODY, "turn"}
            hint = (
                "names are bound variables (me, opponent, card, target, it...), definitions, constants, ranks and roles"
            )
        # `win second`: the seat in turn order is two words (`second player`), a prefix too short to be near
        near = f"{n} player" if n in ("first", "second") else suggest(n, known)
        raise c.error(self, f"unknown name '{n}'", "E202", f"did you mean '{near}'?" if near else hint)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        x = self.name
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
        if x in r.ctx.defines:
            return r._define(x, (), g, env, bound)
        if x in r.ctx.constants:
            v = r.ctx.constants[x]
            return tuple(v) if isinstance(v, list) else v
        if x in r.ctx.ranks or x in r.ctx.roles or x in r.ctx.marks:
            return x
        if x == "turn":
            return g.turn_no
        if x in ("p1", "p2"):
            return Player(0 if x == "p1" else 1)
        if x in MORE_SEATS and MORE_SEATS[x] < r.ctx.seats:
            return Player(MORE_SEATS[x])
        if x in PLAYER_SETS:
            return Players(Player(p) for p in r.ctx.seat_table(x)[int(env["me"])])
        if x == PARTNER:
            return _nobody_or(r.ctx.seat_table(x)[int(env["me"])])
        if x == NOBODY:
            return Nobody(-1)
        if x in ("first player", "second player"):  # the seat who moved first in this game, and the next
            first = g.first
            return Player(first if x == "first player" else (first + 1) % r.ctx.seats)
        raise RuleRuntimeError(f"line {self.line}: unknown name '{x}'")
