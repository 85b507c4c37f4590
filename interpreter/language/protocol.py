"""The state operations the effect language may use: one declaration, read three ways.

- `RuleState`: what generated rule code may touch on the state `g` (its attributes and methods).
  The allow-list checked before any generated code is compiled (`allowlist.STATE_ATTRS`) is made
  from its members, so a new operation is declared here once, with its types.
- `ReferenceState`: that and what the run-time helpers (runtime.py) and the reference evaluator
  (reference.py, each construct's `evaluate` / `execute`) read besides: the generator, whose turn it
  is, a card's own value. mypy checks the reference against it, so `g.burry(...)` in a construct
  fails `mypy`.
- the engine's `State` (engine/state.py) is checked by mypy to be a `ReferenceState`.

Nothing here runs: these are types (`typing.Protocol`).
"""

from __future__ import annotations

from typing import Any, Protocol


class RulesReader(Protocol):
    """What generated code reads of the rules through the state: `g.rules.score_of(g, p)`."""

    def score_of(self, g: ReferenceState, player: int) -> int: ...
    def goal_of(self, g: ReferenceState, player: int) -> int: ...


class RuleState(Protocol):
    """The attributes and methods of the state that generated rule code may read or call."""

    # per zone, its cards (bottom first); per card (and one slot more, for `none`), its zone, role,
    # owner and host; per host, its attachments
    zones: list[list[int]]
    zone_of: list[int]
    role: list[str | None]
    owner: list[int]
    host: list[int]
    atts: dict[int, list[int]]
    turn_no: int  # the turn being played, from 1
    passed: bool  # the turn's action was a pass (the only attribute generated code assigns)
    rules: RulesReader  # read only as `g.rules.score_of` / `g.rules.goal_of`

    def controller(self, card: int) -> int: ...
    def is_top(self, card: int) -> bool: ...
    def is_marked(self, card: int, name: str) -> bool: ...
    def can_play(self, player: int, cards: Any) -> bool: ...
    def move(self, card: int, zone: int, bottom: bool = False) -> None: ...
    def put_in_play(self, card: int, player: int, role: str | None) -> None: ...
    def attach(self, card: int, host: int, player: int, role: str) -> None: ...
    def draw(self, player: int, n: int) -> None: ...
    def shuffle_deck(self) -> None: ...
    def swap_zones(self, a: int, b: int) -> None: ...
    def mark(self, card: int, name: str, turns: int) -> None: ...
    def unmark(self, card: int, name: str) -> None: ...
    def win_by_rule(self, player: int, rule: str) -> None: ...
    def show(self, card: int, players: int, rule: str = "") -> None: ...
    def turns_of(self, player: int) -> int: ...
    def shuffle_under(self, cards: tuple[int, ...]) -> None: ...
    def counter(self, key: int, name: str) -> int: ...
    def set_counter(self, key: int, name: str, value: int, turns: int) -> None: ...
    def add_counter(self, key: int, name: str, delta: int) -> None: ...
    def first_player(self) -> int: ...
    def last_owner_of(self, card: int) -> int: ...
    def last_controller_of(self, card: int) -> int: ...


class Generator(Protocol):
    """The game's seeded generator, as the reference draws from it (as the engine does)."""

    def below(self, n: int) -> int: ...
    def shuffle(self, items: list[Any]) -> None: ...


class ReferenceState(RuleState, Protocol):
    """`RuleState` and what the run-time helpers and the reference evaluator read besides."""

    turn: int  # whose turn it is (0: p1)
    last_seats: list[int]  # per card, its owner and controller when it last left play

    @property
    def rng(self) -> Generator: ...

    def own_value(self, card: int) -> int | None: ...
    def add_value(self, card: int, delta: int, base: int) -> None: ...


def members(protocol: type) -> frozenset[str]:
    """The names a protocol declares (its attributes and methods, its bases' included)."""
    names: set[str] = set()
    for cls in protocol.__mro__:
        if cls is object or cls is Protocol or cls.__name__ == "Generic":
            continue
        names |= {n for n in getattr(cls, "__annotations__", {}) if not n.startswith("_")}
        names |= {n for n, v in vars(cls).items() if not n.startswith("_") and (callable(v) or isinstance(v, property))}
    return frozenset(names)


__all__ = ["RuleState", "ReferenceState", "RulesReader", "Generator", "members"]
