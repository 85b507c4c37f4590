"""The typed tree of the effect language: small frozen dataclasses, one per construct."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# ---- expressions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    line: int = field(default=0, compare=False, kw_only=True)
    column: int = field(default=0, compare=False, kw_only=True)


@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    value: str


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True)
class Zone(Node):
    """A zone: `deck`, `scrap`, `shown`, `play` (both fields), or `hand of P` / `field of P`."""

    zone: str
    player: Node | None = None


@dataclass(frozen=True)
class Where(Node):
    source: Node
    cond: Node
    var: str | None = None  # `where x: COND`: the card tested is named x (else `it`)


@dataclass(frozen=True)
class BinOp(Node):
    op: str  # or and == != < <= > >= in notin + - * /
    left: Node
    right: Node


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


# ---- destinations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dest(Node):
    """Where `move` puts cards: deck top/bottom, scrap, shown, hand of P, field of P as ROLE."""

    zone: str
    player: Node | None = None
    role: str | None = None
    reversed: bool = False  # deck top/bottom: the last card ends topmost (by default the first does)


# ---- statements --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scrap(Node):
    cards: Node


@dataclass(frozen=True)
class Move(Node):
    cards: Node
    dest: Dest


@dataclass(frozen=True)
class Attach(Node):
    card: Node
    host: Node
    role: str


@dataclass(frozen=True)
class Draw(Node):
    count: Node
    player: Node | None = None


@dataclass(frozen=True)
class Reveal(Node):
    count: Node


@dataclass(frozen=True)
class Shuffle(Node):
    cards: Node


@dataclass(frozen=True)
class ShuffleUnder(Node):
    """`shuffle CARDS under deck`: only those cards are shuffled, then put under the deck."""

    cards: Node


@dataclass(frozen=True)
class Swap(Node):
    left: Node
    right: Node


@dataclass(frozen=True)
class Choose(Node):
    count: Node
    source: Node
    chooser: Node
    verb: str
    ordered: bool = False  # `choose order of CARDS by P as VERB`: all of them, in the order P names them
    upto: bool = False  # `choose up to N from ...`: any number from none to N (the move `VERB` alone: none)


@dataclass(frozen=True)
class ChooseNumber(Node):
    """`choose a number from LOW to HIGH by P as NAME`: P names a whole number from LOW to HIGH (the move
    `NAME 7`); NAME is that number for the rest of the program."""

    low: Node
    high: Node
    chooser: Node
    verb: str


@dataclass(frozen=True)
class PlayFrom(Node):
    source: Node


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class If(Node):
    cond: Node
    then: tuple[Node, ...]
    orelse: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Ask(Node):
    """`if P agrees to VERB then ... else ... end`: P is asked; the move VERB agrees, `decline` does not."""

    player: Node
    verb: str
    then: tuple[Node, ...]
    orelse: tuple[Node, ...] = ()


@dataclass(frozen=True)
class ForEach(Node):
    var: str
    source: Node
    body: tuple[Node, ...]


@dataclass(frozen=True)
class Mark(Node):
    cards: Node  # cards, or a player
    mark: str
    turns: Node | None  # None: for the rest of the game


@dataclass(frozen=True)
class SetCounter(Node):
    """`set X.NAME to VALUE [for N turns]` (a counter declared in `counters:`)."""

    target: Node  # X.NAME: an Attr
    value: Node
    turns: Node | None  # None: until set again


@dataclass(frozen=True)
class AddCounter(Node):
    """`add VALUE to X.NAME`."""

    value: Node
    target: Node


@dataclass(frozen=True)
class Unmark(Node):
    cards: Node  # cards, or a player
    mark: str


@dataclass(frozen=True)
class Pass(Node):
    pass


@dataclass(frozen=True)
class Win(Node):
    player: Node


@dataclass(frozen=True)
class Nothing(Node):
    pass


@dataclass(frozen=True)
class Show(Node):
    """`show CARDS to P` (player None: `to all`): the players learn where those hidden cards are."""

    cards: Node
    player: Node | None = None


@dataclass(frozen=True)
class Program(Node):
    body: tuple[Node, ...]


def walk(tree: Any) -> Iterator[Node]:
    """Every node of a tree (or of a tuple of trees), parents before their children."""
    if isinstance(tree, tuple):
        for x in tree:
            yield from walk(x)
    elif isinstance(tree, Node):
        yield tree
        for f in tree.__dataclass_fields__:
            if f not in ("line", "column"):
                yield from walk(getattr(tree, f))
