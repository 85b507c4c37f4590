"""What every construct of the effect language is: a syntax-tree node that owns its passes.

A construct is one class in `constructs/` (one module each): a small frozen dataclass, the node of the
syntax tree, whose methods are the construct's part in every pass over a tree:

    RULES, parse      its parse actions: the grammar rules (`-> name` in effect.lark) it is built from
    text              its printed form (printer.py: the exact inverse of the parser)
    english, ...      its plain English (english.py: the vocabulary shared by every construct)
    compile / lines   its Python code, and what it costs (compiler.py, statements.py)
    evaluate/execute  its meaning in the reference evaluator (reference.py)
    EXAMPLES          its examples (`Example`, after Ludii's `@example`): the tests fuzz the language,
                      take every construct through every pass and write the docs' table from them

The passes dispatch on the node (`node.text(printer)`, `node.compile(compiler, ...)`) and hand
themselves over, so that a construct reaches the rest of its pass (its children, the vocabulary, the
compiler's helpers) through the pass object, and this module and `constructs/` import no pass at run
time. `constructs/__init__.py` is the one table of constructs; tests/test_every_construct.py fails
when a construct lacks a pass.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .compiler import Compiler
    from .english import NP, English
    from .printer import Printer
    from .protocol import ReferenceState
    from .pyast import Scope, _Code
    from .reference import Reference

#: precedence levels of expressions (higher binds tighter): what the printer parenthesises
WHERE, OR, AND, NOT, COMPARE, SUM, PRODUCT, UNARY, POSTFIX, ATOM = range(10)
CONDITIONAL = -1  # `A if C else B`: below `where`, so a statement's expression prints it in parentheses

#: where a node begins in its text: `{"line": L, "column": C}` (keyword arguments of every node)
Pos = dict[str, int]

#: the holes an example's form may hold, each with the plain texts `Example.plain` fills it with (the
#: n-th hole of a kind takes the n-th text, round): any expression of a kind of value (`it:` and `x:`:
#: one in which the card `it`, or the card `x` of `where x:`, is bound too), a destination of `move`,
#: statements, a comparison or arithmetic operator, a small constant (0, 1 or 2)
HOLES: dict[str, tuple[str, ...]] = {
    "player": ("me", "opponent"),
    "card": ("card", "target"),
    "cards": ("hand of me", "field of opponent"),
    "int": ("1", "2"),
    "bool": ("count(deck) > 0", "any(scrap)"),
    "it:int": ("it.value",),
    "it:bool": ("it.rank == Q",),
    "x:bool": ("x.value > 3",),
    "dest": ("hand of me",),
    "body": ("draw 1", "scrap card"),
    "compare": (">", "=="),
    "arith": ("+", "-"),
    "n": ("0", "1"),
}
#: what an example is: the kind of value of an expression, a destination of `move`, or statements
KINDS = ("player", "card", "cards", "int", "bool", "dest", "statement")
_HOLE = re.compile(r"\{([a-z:]+)\}")
_SIMPLE = re.compile(r"[A-Za-z0-9_.]+")


@dataclass(frozen=True)
class Example:
    """An example of a construct (after Ludii's `@example`): `form`, effect text in which each `{HOLE}`
    (a key of `HOLES`) stands for anything of that kind, and `kind`, what the whole is (`KINDS`).

    Every construct class carries its examples in `EXAMPLES`. From them, and from no list of its own,
    tests/test_reference_evaluator.py generates the expressions and statements it fuzzes (Hypothesis
    fills each hole with generated text of its kind, and a form without holes is a leaf of its kind),
    tests/test_every_construct.py takes each example, filled plainly, through every pass, and
    docs/effect-language.md's table of constructs is written (`python tools/construct_table.py`). An
    example is written for the default rules with a mark `stunned`, a number `num`, the counters
    `tokens` (of cards) and `debt` (of players), and the bindings `me`, `opponent`, `card` and
    `target`. `fuzz`: False for an example the fuzzing cannot answer (a choice of cards or a play made
    by a player); it still goes through every pass."""

    form: str
    kind: str
    fuzz: bool = True

    def holes(self) -> tuple[str, ...]:
        """The kinds of its holes, in order."""
        return tuple(_HOLE.findall(self.form))

    def fill(self, texts: Iterable[str]) -> str:
        """The form with its holes filled by `texts`, in order (an expression in parentheses unless it
        is one word, so that it keeps its meaning wherever it stands)."""
        each = iter(texts)

        def one(m: re.Match[str]) -> str:
            text = next(each)
            if m.group(1) in ("dest", "body", "compare", "arith", "n") or _SIMPLE.fullmatch(text):
                return text
            return f"({text})"

        return _HOLE.sub(one, self.form)

    def plain(self) -> str:
        """The form filled with the plain texts of `HOLES`."""
        seen: Counter[str] = Counter()
        texts = []
        for hole in self.holes():
            texts.append(HOLES[hole][seen[hole] % len(HOLES[hole])])
            seen[hole] += 1
        return self.fill(texts)


@dataclass(frozen=True)
class Node:
    line: int = field(default=0, compare=False, kw_only=True)
    column: int = field(default=0, compare=False, kw_only=True)

    #: the grammar rules (the aliases `-> name` of effect.lark) whose parse action is `parse`
    RULES: ClassVar[tuple[str, ...]] = ()
    #: its examples: what the tests fuzz and take through every pass, and what the docs' table shows
    EXAMPLES: ClassVar[tuple[Example, ...]] = ()

    @classmethod
    def parse(cls, rule: str, c: list[Any], at: Pos) -> Any:
        """The parse action of grammar rule `rule`: the node from the rule's children `c`, at `at`."""
        raise NotImplementedError(f"{cls.__name__} has no parse action for '{rule}'")


@dataclass(frozen=True)
class Expression(Node):
    """An expression: a value (a number, a player, a card or cards, a truth) computed from a state."""

    def level(self) -> int:
        """Its precedence level (the printer parenthesises a child whose level is below the need)."""
        return ATOM

    def text(self, p: Printer) -> str:
        """Its source text (children through `p.expr(child, need)`)."""
        raise NotImplementedError(type(self).__name__)

    def value_words(self, e: English) -> str:
        """Its English as a noun phrase or a quantity ("the number of cards in your hand")."""
        raise NotImplementedError(type(self).__name__)

    def condition_words(self, e: English, negated: bool) -> str | None:
        """Its English as a clause ("the deck is empty"; the opposite if `negated`), or None when it
        reads as its value (`e.cond` then says "not ..." itself)."""
        return None

    def noun(self, e: English) -> NP | None:
        """Its English as a set of cards that a clause can narrow ("every point card in play"), or None
        when it is not one."""
        return None

    def compile(self, c: Compiler, scope: Scope, used: dict[str, str], loop: bool = False) -> _Code:
        """Its Python expression (`_Code`: the tree, its type, size and cost). `loop`: a set made by
        `where` may be handed on as a loop of its own (only Where, Name and Call take it)."""
        raise NotImplementedError(type(self).__name__)

    def evaluate(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: frozenset[str]) -> Any:
        """Its value on state `g` (the reference evaluator: plain, obviously right)."""
        raise NotImplementedError(type(self).__name__)


@dataclass(frozen=True)
class Statement(Node):
    """A statement: a step of an effect, which changes the game or asks a player."""

    #: whether it can wait for a player's decision (choose, play from, a question): a program holding
    #: one is compiled to instructions (analysis.py's `_suspends` reads it)
    SUSPENDS: ClassVar[bool] = False

    def text(self, p: Printer, depth: int, multiline: bool) -> str:
        """Its source text (nested statements through `p.nested(body, depth, multiline)`)."""
        raise NotImplementedError(type(self).__name__)

    def english(self, e: English) -> str:
        """Its English as an imperative clause (lower case, no full stop)."""
        raise NotImplementedError(type(self).__name__)

    def lines(self, c: Compiler, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
        """Its Python statements where it cannot suspend (inside `for each`, or a plain step)."""
        raise NotImplementedError(type(self).__name__)

    def instructions(self, c: Compiler, bound: set[str], out: list[Any]) -> None:
        """Its instructions at the top of a program (statements.py): by default one step running its
        `lines`; a statement that waits for a player (choose, ask, play from) or branches overrides it."""
        c.plain_step(self, bound, out)

    def execute(self, r: Reference, g: ReferenceState, env: dict[str, Any], bound: set[str]) -> None:
        """Its effect on state `g` in the reference evaluator."""
        raise NotImplementedError(type(self).__name__)


_PARTS: dict[type, tuple[str, ...]] = {}


def parts(node: Node) -> tuple[str, ...]:
    """The names of a node's parts: its fields less its place (not `RULES` and the other class-level
    declarations, which `__dataclass_fields__` lists too)."""
    cls = type(node)
    found = _PARTS.get(cls)
    if found is None:
        found = _PARTS[cls] = tuple(f.name for f in dataclasses.fields(node) if f.name not in ("line", "column"))
    return found


def walk(tree: Any) -> Iterator[Node]:
    """Every node of a tree (or of a tuple of trees), parents before their children."""
    if isinstance(tree, tuple):
        for x in tree:
            yield from walk(x)
    elif isinstance(tree, Node):
        yield tree
        for f in parts(tree):
            yield from walk(getattr(tree, f))
