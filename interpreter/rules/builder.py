"""The workshop where one ruleset is built: its composed data, the problems found so far, the
effect-language trees of every field (parsed once, before anything is compiled), the names those
trees define (roles, marks, choice verbs), and the helpers that compile a field.

A ruleset file becomes rules in three passes: parse every effect text into a tree; collect the
names the trees introduce; then the section builders (sections.py) compile what they need.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from typing import Any, cast

from interpreter.core.errors import RulesetError
from interpreter.language import tree as A
from interpreter.language.compiler import ZERO, Compiler, Context, Cost
from interpreter.language.listing import label_of
from interpreter.language.parser import parse_expr, parse_program

from .compose import Composed, get_path
from .lint import lint, rank_hint, rank_word, same_place
from .schema import ENDING_WORDS, RULESET, ending_slip

BASE = frozenset({"me", "opponent"})
NO_COST = (ZERO, 0, ZERO, 0)


def effect_fields(data: Any, schema: dict = RULESET, path: tuple = ()) -> Iterator[tuple[tuple, bool]]:
    """Every place in the data that holds effect-language text, as (path, is_program); definitions
    are left to the definitions section (their keys carry parameters)."""
    if not isinstance(data, dict):
        return
    for key, value in data.items():
        p = path + (key,)
        if p == ("define",):
            continue
        sub = schema.get("*", schema.get(key))
        if sub is None:
            continue
        typ = sub[0] if isinstance(sub, tuple) else sub
        if isinstance(typ, dict):
            yield from effect_fields(value, typ, p)
        elif typ in ("expr", "program") and isinstance(value, str):
            yield p, typ == "program"
        elif typ == "ending" and isinstance(value, str) and value not in ENDING_WORDS and not ending_slip(value):
            yield p, False
        elif typ == "expr" and _whole_number(value):  # `goal: 21`: the expression 21
            yield p, False


def _whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Builder:
    """What the section builders share while one ruleset is built."""

    def __init__(self, composed: Composed, errors: list[RulesetError]) -> None:
        self.c = composed
        self.d = composed.data
        self.errors = errors
        self.ctx = Context()
        self.trees: dict[tuple, A.Node] = {}
        # the work of every compiled field (checked against the limits once the ruleset is built),
        # and of the last one compiled with the most cards it yields
        # Each cost twice: with every zone holding the whole deck, and with every zone holding one card
        # (what is left is repetition that no zone size explains: a definition used again and again).
        self.costs: list[tuple[tuple, Cost, Cost]] = []
        self.last: tuple[Cost, int, Cost, int] = NO_COST
        # per play: (its ranks, legal's path, its costs, target's path, its costs with the targets it lists)
        self.play_costs: list[tuple[frozenset[str], tuple, tuple[Cost, Cost], tuple, tuple[Cost, Cost]]] = []
        self.response_costs: list[tuple[str, tuple, tuple[Cost, Cost], int]] = []  # (name, legal, costs, extra)
        self._dry: Context | None = None

    # -- pass 1 and 2: trees, and the names they introduce -------------------------------------
    def parse_all(self) -> None:
        """Parse every effect text of the ruleset once (syntax errors are collected here)."""
        for path, program in effect_fields(self.d):
            joined = self.c.joined.get(path)
            if joined is not None:  # a rule several files wrote: its parts were parsed where they stand
                self.trees[path] = joined.tree
                continue
            try:
                self.trees[path] = (parse_program if program else parse_expr)(
                    str(get_path(self.d, path)), self.c.span(path)
                )
            except RulesetError as e:
                self.errors.append(e)

    def collect_names(self) -> None:
        """Roles (`... to field of me as ROLE`, `attach ... as ROLE`), marks (`mark ... as NAME`),
        choice verbs (`choose ... as VERB`) and chosen numbers (`choose a number ... as NAME`) are names
        wherever the ruleset uses them; and whether any effect sets a card's value."""
        for tree in self.trees.values():
            for n in A.walk(tree):
                if isinstance(n, A.Move) and n.dest.role:
                    self.ctx.roles.add(n.dest.role)
                elif isinstance(n, A.Attach):
                    self.ctx.roles.add(n.role)
                elif isinstance(n, (A.Mark, A.Unmark)):
                    self.ctx.marks.add(n.mark)
                elif isinstance(n, A.Choose):
                    self.ctx.verbs.add(n.verb)
                elif isinstance(n, A.ChooseNumber):
                    self.ctx.numbers.add(n.verb)
                elif isinstance(n, (A.SetCounter, A.AddCounter)) and _is_value(n.target):
                    self.ctx.card_values = True  # `set X.value to N`: `.value` and `total` read each card's own

    # -- pass 3: compiling a field --------------------------------------------------------------
    def compiled(self, path: tuple, bound: frozenset[str] | set[str], default: str | None, program: bool) -> Any:
        src = get_path(self.d, path)
        if src is None:
            if default is None:
                return None
            return self._compile_default(path, bound, default, program)
        if isinstance(src, bool) and not program:  # an expression may be written true or false
            value = src
            return lambda g, e: value
        tree = self.trees.get(path)
        if tree is None:  # it did not parse (reported), or it is not text (reported by validation)
            return None
        span = self.c.span(path)
        found = lint(tree, span, self.ctx)
        self.errors.extend(found)
        try:
            comp = Compiler(self.ctx, span, label=label_of(path))
            fn = comp.program(cast(A.Program, tree), frozenset(bound)) if program else comp.expr(tree, frozenset(bound))
            self._note(path, comp, tree, bound, program, span)
            return fn
        except RulesetError as e:
            if not any(same_place(e, f) for f in found):
                m = re.match(r"unknown name '(.+)'$", e.message)
                meant_player = (e.hint or "").startswith("a player is")  # (where a player is needed, not a rank)
                if (
                    m
                    and (e.hint is None or "did you mean" not in e.hint)
                    and rank_word(m.group(1))
                    and not meant_player
                ):
                    e = RulesetError(e.message + " (not a rank)", e.where, code=e.code, hint=rank_hint(m.group(1)))
                self.errors.append(e)
            return None

    def _compile_default(self, path: tuple, bound, default: str, program: bool) -> Any:
        """A field the ruleset left out, compiled from its built-in default text."""
        try:
            tree = (parse_program if program else parse_expr)(default, None)
            comp = Compiler(self.ctx, None, label=label_of(path))
            fn = comp.program(cast(A.Program, tree), frozenset(bound)) if program else comp.expr(tree, frozenset(bound))
            self._note(path, comp, tree, bound, program, None)
            return fn
        except RulesetError as e:  # the built-in default does not fit this ruleset
            dotted = ".".join(map(str, path))
            self.errors.append(
                RulesetError(
                    f"{dotted} is not given, and its default `{default}` does not fit this ruleset ({e.message}): "
                    f"write {dotted}",
                    self.c.where(()),
                    code="E024",
                )
            )
            return None

    def _note(self, path: tuple, comp: Compiler, tree: A.Node, bound, program: bool, span) -> None:
        """Record the work of a compiled field, and count it again with one card in each zone."""
        if self._dry is None:
            self._dry = dataclasses.replace(
                self.ctx, deck_size=1, namespace=None, define_fns={}, define_sizes={}, const_names={}, used_names=set()
            )
        dry = Compiler(self._dry, span, dry=True)
        dry.program(cast(A.Program, tree), frozenset(bound)) if program else dry.expr(tree, frozenset(bound))
        self.costs.append((path, comp.cost, dry.cost))
        self.last = (comp.cost, comp.size, dry.cost, dry.size)

    def expr(self, path: tuple, bound: frozenset[str] | set[str], default: str | None = None) -> Callable | None:
        return self.compiled(path, bound, default, False)

    def prog(self, path: tuple, bound: frozenset[str] | set[str], default: str = "nothing") -> tuple:
        return self.compiled(path, bound, default, True) or ()

    def error(self, message: str, path: tuple, code: str, hint: str | None = None, key: bool = False) -> None:
        """Report a problem at the value (or, with key=True, the key) of `path`."""
        self.errors.append(
            RulesetError(message, self.c.key_where(path) if key else self.c.where(path), code=code, hint=hint)
        )


def _is_value(target: A.Node) -> bool:
    """`X.value`, the target of a `set` or `add` that changes a card's value."""
    return isinstance(target, A.Attr) and target.name == "value"
