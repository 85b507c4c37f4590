"""`choose N from CARDS by P as VERB` (and `choose up to N ...`, `choose order of CARDS ...`): P picks
cards (the moves `VERB CARD ...`); VERB and `chosen` name them for the rest of the program."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.core.errors import RuleRuntimeError, RulesetError
from interpreter.core.limits import MAX_CHOICES
from interpreter.core.zones import RANDOM

from ..instructions import CHOOSE, UPTO
from ..node import Example, Node, Pos, Statement
from ..phrasing import AS_MANY, DOWN_TO
from ..runtime import choices
from ..values import cards
from .binary import BinOp
from .call import Call
from .number import Num

if TYPE_CHECKING:
    from ..compiler import Compiler
    from ..english import English
    from ..printer import Printer
    from ..protocol import ReferenceState
    from ..pyast import Scope
    from ..reference import Reference


def not_in_loop(c: Compiler, node: Node) -> RulesetError:
    """The error of a statement that waits for a player (or a `let`) inside `for each`."""
    return c.error(
        node,
        "'choose', 'choose a number', 'play from', 'let' and 'if ... agrees' cannot stand inside 'for each'",
        "E208",
    )


@dataclass(frozen=True)
class Choose(Statement):
    count: Node
    source: Node
    chooser: Node
    verb: str
    ordered: bool = False  # `choose order of CARDS by P as VERB`: all of them, in the order P names them
    upto: bool = False  # `choose up to N from ...`: any number from none to N (the move `VERB` alone: none)

    RULES = ("choose", "choose_upto", "choose_order")
    EXAMPLES = (
        Example("choose {int} from {cards} by random as pick\nscrap pick", "statement"),
        Example("choose up to {int} from {cards} by random as pick\nmove pick to shown", "statement"),
        Example("choose order of {cards} by random as pick\nmove pick to deck top", "statement"),
        Example("choose 1 from hand of me by me as discard\nscrap discard", "statement", fuzz=False),
        Example("choose up to {int} from {cards} by {player} as pick", "statement", fuzz=False),
    )
    SUSPENDS = True

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Choose:
        if rule == "choose_order":
            return cls(Call("count", (c[0],), **at), c[0], c[1], c[2], ordered=True, upto=False, **at)
        return cls(c[0], c[1], c[2], c[3], ordered=False, upto=rule == "choose_upto", **at)

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        e = p.expr
        if self.ordered:
            return f"choose order of {e(self.source)} by {e(self.chooser)} as {self.verb}"
        if self.upto:
            return f"choose up to {e(self.count)} from {e(self.source)} by {e(self.chooser)} as {self.verb}"
        return f"choose {e(self.count)} from {e(self.source)} by {e(self.chooser)} as {self.verb}"

    def english(self, e: English, then: Node | None = None) -> str:
        """`then`: the next statement, when it acts on the cards chosen (english.py's `clauses`), read as
        part of the same clause ("you choose 1 card from the scrap and put it into your hand")."""
        who = self.chooser
        who_text = "the game, at random," if e.is_name(who, "random") else e.player(who)
        sub = e.with_(subject=who)
        n, one = _count_phrase(self.count, self.source, sub)
        np = sub.noun(self.source)
        what = np.counted(n, one) if np else f"{n} from {sub.value(self.source)}"
        if n.startswith((DOWN_TO, AS_MANY)) and np is not None:
            what = f"{np.head(True)} from {np.source or np.plural()}{np.tail(True)}, {n[1:]},"
        elif n.startswith(AS_MANY):
            what = f"{n[1:]} from {sub.value(self.source)}"
        if one and np and not np.definite and what.startswith("1 "):
            what = "1 " + what[2:]
        if self.upto:  # any number from none to N: "you may choose 1 card", "... may choose up to 2 cards"
            text = f"{who_text} may choose {'' if one else 'up to '}{what}"
        else:
            text = f"{who_text} {e.conj('choose', who) if not e.is_name(who, 'random') else 'chooses'} {what}"
        if then is None:
            return text.rstrip(",")  # ("..., as many as N," ends the sentence here)
        if self.upto and not e.is_name(who, "me"):  # "may choose ... and scraps them" would not agree: told apart
            picked = "the card chosen" if one else "the cards chosen"
            chosen = {**e.ctx.chosen, self.verb: picked, "chosen": picked}
            return f"{text}; then {e.with_(chosen=chosen).stmt(then)}"
        pron = "it" if one else "them"
        chosen = {**e.ctx.chosen, self.verb: pron, "chosen": pron}
        inner = sub.with_(chosen=chosen, subject=who)  # "the game, at random, chooses ... and scraps them"
        return f"{text} and {inner.stmt(then)}"

    def instructions(self, c: Compiler, bound: set[str], out: list[Any]) -> None:
        fb = frozenset(bound)
        (count, n), (src, s) = c.sub_expr(self.count, fb, "choose"), c.sub_expr(self.source, fb)
        who, w = c.sub_expr(self.chooser, fb, "player")
        c._expect(s, ("card", "cards"), self.source, "'choose ... from'")
        c._expect(w, ("player",), self.chooser, "'choose ... by'")
        c.typed_word(
            self,
            self.verb,
            f"cannot begin a move: a player types the choice as '{self.verb} CARD'",
            "choice",
            "as pick",
        )
        if self.ordered:  # all the cards, in an order the chooser names (k! moves: bounded when played)
            c.ctx.verbs.add(self.verb)
            out.append([CHOOSE, count, src, who, self.verb, True])
            bound.add(self.verb)
            bound.add("chosen")
            return
        offered = choices(s.size, n.value) if n.value.__class__ is int else 0
        if self.upto and n.value.__class__ is int:  # any number from none to N
            offered = sum(choices(s.size, k) for k in range(min(n.value, s.size) + 1))
        if offered > MAX_CHOICES:
            raise c.error(
                self,
                f"choosing {n.value} of up to {s.size} cards offers more than {MAX_CHOICES:,} choices (MAX_CHOICES)",
                "E214",
            )
        c.ctx.verbs.add(self.verb)
        out.append([CHOOSE, count, src, who, self.verb] + ([UPTO] if self.upto else []))
        bound.add(self.verb)
        bound.add("chosen")

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        raise not_in_loop(c, self)  # (a program that may wait is made of instructions: `instructions`)

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        options = cards(r.ev(self.source, g, env, frozenset(bound)))
        bound |= {self.verb, "chosen"}
        if self.ordered:
            k = len(options)
        else:
            k = min(r.ev(self.count, g, env, frozenset(bound)), len(options))
            if k <= 0:
                env[self.verb] = env["chosen"] = ()
                return
        chooser = r.ev(self.chooser, g, env, frozenset(bound))
        if k <= 1 and self.ordered:
            picked = options
        elif chooser == RANDOM:
            pool = list(options)
            if self.ordered:
                g.rng.shuffle(pool)
                picked = tuple(pool)
            else:
                n = g.rng.below(k + 1) if self.upto else k  # (up to: how many, drawn first)
                picked = tuple(sorted(pool.pop(g.rng.below(len(pool))) for _ in range(n)))
        elif r.decide is None:
            raise RuleRuntimeError(f"line {self.line}: a player must choose here (no `decide` given)")
        elif self.upto:  # the decider may answer with fewer cards, none included
            picked = tuple(r.decide("choose", chooser, self.verb, k, options, self.ordered, upto=True))
        else:
            picked = tuple(r.decide("choose", chooser, self.verb, k, options, self.ordered))
        env[self.verb] = env["chosen"] = picked


def _count_phrase(n: Node, src: Node, e: English) -> tuple[str, bool]:
    """How many are chosen, and whether it is exactly one."""
    if isinstance(n, Num):
        return str(n.value), n.value == 1
    match n:
        case Call(func="min", args=(Num(value=k), Call(func="count", args=(s,)))) if s == src:
            return f"{k} (or all of them, if fewer)", False
        case Call(func="min", args=(Call(func="count", args=(s,)), Num(value=k))) if s == src:
            return f"{k} (or all of them, if fewer)", False
        case BinOp(op="-", left=Call(func="count", args=(s,)), right=keep) if s == src:
            return f"{DOWN_TO}{e.value(keep)}", False
    return f"{AS_MANY}{e.number(n)}", False  # ("the number named cards" would read two nouns as one)
