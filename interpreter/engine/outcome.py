"""How a game ended, as the engine decided it: who won (a seat, or nobody), how (`Termination`) and
the rule that ended it. Made by the engine when the game ends (`State.outcome`, `Game.outcome`) and
read by every command, record, report and player; the English every command prints is written
from it (`Outcome.reason`, `str(outcome)`), never read back.

After python-chess's `Outcome` and `Termination`. A new way for a game to end is a member of
`Termination`, its sentence in `Outcome.reason`, and (if the lab is to count it apart) its row in
`lab/games.py`'s `record_of`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from interpreter.core.limits import MAX_HANDS, MAX_MOVES
from interpreter.core.zones import MAX_SEATS


class Termination(Enum):
    """How a game (or a hand of a match) ended. The value is the name the lab's reports use."""

    GOAL = "goal"  # a player reached their goal (`end.goal` against `end.score`)
    RULE = "rule"  # a rule's `win` statement (the rule is named; `win nobody`: a draw)
    PASSES = "passes"  # passes in a row (`end.passes`): most points win, or no winner, or `end.on_passes` says
    NO_LEGAL_MOVE = "no-move"  # the player to move had no legal move: a draw
    MATCH = "match"  # a match of several hands (`match.wins`) won: `hand` is the hand that decided it
    MOVE_LIMIT = "move-limit"  # the engine's cap on moves of one game (MAX_MOVES): a draw
    HAND_LIMIT = "hand-limit"  # the engine's cap on hands of one match (MAX_HANDS): a draw
    SETUP = "setup"  # a hand of a match that a scenario's setup says was won before it (`setup.match`)
    RESIGN = "resign"  # a player resigned (`seat`): the other wins (the move `resign`, in any ruleset)
    AGREED = "agreed"  # a draw offered (by `seat`) and accepted (the move `draw-agreed`, in any ruleset)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: `winner` a seat index (0 for p1, 1 for p2...) or None for a draw."""

    winner: int | None
    termination: Termination
    # the rule that ended it: 'end.goal', 'end.passes', 'match.wins', a `win` statement's rule
    # ('triggers.two jacks'; '' when not known), None for the engine's own ends (no move, the caps)
    rule: str | None = None
    seat: int | None = None  # the seat the ending is about: who reached the goal, who had no legal move
    points: tuple[int, ...] = ()  # each seat's points, when passes ended the game on points
    count: int = 0  # the passes in a row; the hands of a match
    wins: tuple[int, ...] = ()  # a match's hands won by each seat
    hand: Outcome | None = None  # a match: the outcome of its last hand
    # at a table with partners (`seats.teams`): every seat of the winning team, the winner among them
    # (who reached the goal, whose points were the most...); () when the winner plays alone
    side: tuple[int, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won: the winning team, the winner alone, or none (a draw)."""
        return self.side or (() if self.winner is None else (self.winner,))

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def reason(self) -> str:
        """How it ended, in the engine's words ('p1 reached the goal', '3 passes in a row: points
        12-9'): the `reason` column of the lab's games and the text after the colon of `str()`."""
        return self._reason(_seat_name)

    def _reason(self, name: Callable[[int | None], str]) -> str:
        t = self.termination
        if t is Termination.GOAL:
            return f"{name(self.seat)} reached the goal"
        if t is Termination.RULE:  # (`win nobody`: a rule declared a draw)
            said = RULE_WIN if self.winner is not None else RULE_DRAW
            return f"{said} ({self.rule})" if self.rule else said
        if t is Termination.PASSES:
            if self.points:
                decided = ", end.on_passes decides" if self.rule == "end.on_passes" else ""
                return f"{self.count} passes in a row: points " + "-".join(map(str, self.points)) + decided
            return f"{self.count} passes in a row end the game with no winner"
        if t is Termination.NO_LEGAL_MOVE:
            return f"{name(self.seat)} has no legal move"
        score = "-".join(map(str, self.wins))
        if t is Termination.MATCH:
            last = self.hand._reason(name) if self.hand is not None else ""
            who = (
                " and ".join(map(name, sorted(self.side))) + " win"
                if len(self.side) > 1
                else f"{name(self.winner)} wins"
            )
            return f"{who} the match {score} (hand {self.count}: {last})"
        if t is Termination.SETUP:
            return "before the scenario"
        if t is Termination.RESIGN:
            return f"{name(self.seat)} resigned"
        if t is Termination.AGREED:
            return f"{name(self.seat)} offered a draw and {name(other_seat(self.seat))} accepted"
        if t is Termination.MOVE_LIMIT:
            return f"the game reached {MAX_MOVES:,} moves (MAX_MOVES)"
        return f"the match reached {MAX_HANDS:,} hands (MAX_HANDS) at {score}"

    def __str__(self) -> str:
        """The result in the one wording every command uses: `P1 wins: P1 reached the goal`,
        `Draw: 3 passes in a row with equal points` (the REPL says `You win: ...` to its player)."""
        if self.winner is None:
            head = "Draw"
        elif len(self.side) > 1:
            head = " and ".join(_seat_name(s).upper() for s in sorted(self.side)) + " win"
        else:
            head = f"{_seat_name(self.winner).upper()} wins"
        return f"{head}: {self.sentence}"

    @property
    def sentence(self) -> str:
        """`reason` with the seats named as a sentence names them (`P1 reached the goal`)."""
        return self._reason(lambda seat: _seat_name(seat).upper())


RULE_WIN = "a rule declared the winner"
RULE_DRAW = "a rule declared a draw"


def _seat_name(seat: int | None) -> str:
    return f"p{seat + 1}" if seat is not None else "nobody"


def other_seat(seat: int | None) -> int | None:
    """The other seat of a two-player game."""
    return None if seat is None else 1 - seat


def resigned(seat: int) -> Outcome:
    """Seat `seat` resigned: the other seat wins."""
    return Outcome(other_seat(seat), Termination.RESIGN, None, seat)


def agreed_draw(seat: int) -> Outcome:
    """Seat `seat` offered a draw and the other accepted it."""
    return Outcome(None, Termination.AGREED, None, seat)


def goal_reached(seat: int, side: tuple[int, ...] = ()) -> Outcome:
    """Seat `seat` reached its goal and wins (with its team, `side`, at a table with partners)."""
    return Outcome(seat, Termination.GOAL, "end.goal", seat, side=side)


def no_legal_move(seat: int) -> Outcome:
    """Seat `seat` was to move and had no legal move: a draw."""
    return Outcome(None, Termination.NO_LEGAL_MOVE, None, seat)


# made once, by seat, for the engine's hot paths and its generated code (`WINS[me]`, `STUCK[turn]`)
SEATS = MAX_SEATS
GOALS = tuple(goal_reached(s) for s in range(SEATS))
STUCK = tuple(no_legal_move(s) for s in range(SEATS))

__all__ = [
    "Outcome",
    "Termination",
    "RULE_WIN",
    "RULE_DRAW",
    "goal_reached",
    "no_legal_move",
    "resigned",
    "agreed_draw",
    "GOALS",
    "STUCK",
]
