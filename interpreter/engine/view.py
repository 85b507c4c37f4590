"""What one player may see of a game (`Game.view`): small frozen values, named, never a dict.

Cards are named in the notation (`9S`); players as `p1`/`p2`. Nothing hidden from the player is in a
view: the opponent's hand only when a rule shows it (else its size and the cards of it this player
knows), the deck's cards only where this player knows them, another player's decision only with the
options this player can see (engine/game.py builds it; tests/test_view_secrecy.py checks it).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PointView:
    """A point card in play: the card, the Jacks on it (bottom first), its owner."""

    card: str
    jacks: tuple[str, ...]
    owner: str


@dataclass(frozen=True)
class FaceDownView:
    """A card face down in play: the card when the viewer knows it (else None), and its role."""

    card: str | None
    role: str


@dataclass(frozen=True)
class SideView:
    """One player's side of the table: point cards (with their Jacks), the other cards in play
    (Royals, glasses), and the player's points and goal; the cards face down in play apart, each
    named only when the viewer knows it."""

    points: tuple[PointView, ...]
    royals: tuple[str, ...]
    score: int
    goal: int
    face_down: tuple[FaceDownView, ...] = ()


@dataclass(frozen=True)
class DecisionView:
    """The decision waiting: whose, of what kind, and what is chosen from (as far as the viewer may
    see: the options of another player's choice from a hidden hand are left out, their number kept)."""

    player: str
    kind: str
    verb: str | None
    count: int
    upto: bool  # any number of the options from none to `count`
    ask: bool  # a question: the moves are `verb` (yes) and `decline` (no)
    numbers: tuple[int, int] | None  # a number to name (`choose a number`): (lowest, highest), seen by both
    options: tuple[str, ...]
    option_count: int
    says: str | None = None  # a question: what agreeing does, in the rule's words ("return it to ...")


@dataclass(frozen=True)
class KnownToOpponent:
    """What the opponent knows of this player's hidden cards: which cards of the hand, and which places
    of the deck (not what is there, unless this player knows it too); which of this player's cards face
    down in play (those this player knows too)."""

    hand: tuple[str, ...]
    deck: tuple[int, ...]
    face_down: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatView:
    """Another player at the table, as the viewer sees them: their side of the table, their hand when a
    rule shows it (else its size and the cards of it the viewer knows), whether they are the viewer's
    partner, and what they know of the viewer's hidden cards."""

    player: str
    partner: bool
    side: SideView
    hand: tuple[str, ...] | None  # None: hidden
    hand_count: int
    hand_known: tuple[str, ...]  # the cards of a hidden hand the viewer knows
    knows: KnownToOpponent  # what this player knows of the viewer's hand and the deck's places


@dataclass(frozen=True)
class HandResult:
    """A finished hand of a match: its winner (`p1`, `p2` or `draw`) and why."""

    winner: str
    reason: str


@dataclass(frozen=True)
class MatchView:
    """The score of a match of several hands: hands won by each seat, the wins needed, the hand being
    played (1, 2, ...) and each finished hand's result."""

    wins: dict[str, int]
    needed: int
    hand: int
    hands: tuple[HandResult, ...]


@dataclass(frozen=True)
class View:
    """What `player` may see of the game now."""

    ruleset: str
    player: str
    turn: str  # whose turn it is
    turn_number: int
    decision: DecisionView | None  # None: the game is over
    hand: tuple[str, ...]
    opponent_hand: tuple[str, ...] | None  # None: hidden
    opponent_hand_count: int
    opponent_hand_known: tuple[str, ...]  # the cards of a hidden opponent hand this player knows
    you: SideView
    opponent: SideView
    deck_count: int
    deck_known: tuple[tuple[int, str], ...]  # (place from the top, 0 the top card; card), top first
    deck_top_known: tuple[str, ...]  # the unbroken run of known cards from the top
    opponent_knows: KnownToOpponent
    scrap: tuple[str, ...]
    shown: tuple[str, ...]
    stack: tuple[str, ...]
    chain: tuple[str, ...]  # the plays and counters waiting to resolve, as moves, first played first
    passes: int
    outcome: str | None
    match: MatchView | None = None  # a match of several hands only
    legal_moves: tuple[str, ...] | None = None  # when the decision is this player's
    # every other player, clockwise from the viewer (the `opponent...` fields above are the first
    # opponent's: in a two-seat game, the other player; at a larger table, read these)
    others: tuple[SeatView, ...] = ()
    chain_by: tuple[str, ...] = ()  # who made each play and answer of `chain`, first played first

    def replace(self, **changes: Any) -> View:
        """A copy with some fields changed (the hot-seat REPL shows the other hand face up)."""
        return dataclasses.replace(self, **changes)


__all__ = [
    "View",
    "SeatView",
    "SideView",
    "PointView",
    "FaceDownView",
    "DecisionView",
    "KnownToOpponent",
    "MatchView",
    "HandResult",
]
