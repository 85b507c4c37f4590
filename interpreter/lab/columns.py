"""One game of a run as a typed record (`GameRecord`), and the columns of the table `games` declared
once (`COLUMNS`): the store's schema, its inserts, the summary, the comparison and the reports all
read this table, so a new per-game number is one `Column` here.

A column's value is a field of the record (the default: the field of its name) or a function of the
record, which carries the game's last position, its rules and its recorder for that. A column with
a `Measure` is a number summarised per ruleset (median, quartiles, mean with its 95% interval,
range), compared between two rulesets (B − A and the relative change, paired when the games are),
shown as a row of a report's table and as a histogram in report.html:

    Column("deck_left", "INTEGER NOT NULL", "cards left in the deck at the end",
           lambda r: len(r.state.zones[DECK]), Measure("cards left in the deck"))

A worker sends each game as a plain tuple in the order of COLUMNS (`row_maker`), which costs the
parent a tenth of what unpickling records would; everything that reads the rows back reads them by
column name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from interpreter.engine.state import State
from interpreter.rules import Rules

from .recorder import Codes, Recorder, uses_of


@dataclass(slots=True)
class GameRecord:
    """What one game of one ruleset of a run did: one row of `games` (each field its column), and
    what the game left for computed columns (not stored, not compared)."""

    side: str  # "a" (or "b" in a comparison)
    idx: int  # the game's number in the run
    seed: int
    p1: str  # the players' specs
    p2: str
    winner: str | None  # p1 | p2 | draw, or None for a game cut off at the decision cap
    end_reason: str  # goal | passes | no-move | rule (a `win` statement) | cutoff | other
    goal: int | None  # the winner's goal when the game ended at it
    p1_points: int
    p2_points: int
    turns: int
    decisions: int
    real_choices: int  # decisions with more than one legal move
    hands: int
    reason: str
    # per seat, one character per rule (catalog.rule_code): the plays and responses that became legal
    # (each once, in rule order), what was chosen (in the order chosen), the plays that were countered
    p1_offered: str
    p1_used: str
    p1_countered: str
    p2_offered: str
    p2_used: str
    p2_countered: str
    progress: str  # JSON: [p1 points, p1 goal, p2 points, p2 goal] after each turn (playing.Played)
    ended_by: str  # the rule that ended the game: end.goal, end.passes, a rule's name for its `win`, ...
    fired: str  # the triggers that fired, one character per firing (catalog.rule_code), in rule order
    counters: str  # JSON: {counter: [changes, p1's final value, p2's, the cards' final sum]} ({} for none)
    knowledge: str  # JSON: {"shown": {rule: cards}, "seen": {visibility rule: cards}} (recorder.sight)
    p1_ranks: str  # beside each character of p1_used, the rank of the card played (A 2-9 T J Q K X; '-' none)
    p2_ranks: str
    state: State | None = field(default=None, compare=False, repr=False)  # the last position
    rules: Rules | None = field(default=None, compare=False, repr=False)
    recorder: Recorder | None = field(default=None, compare=False, repr=False)

    @property
    def codes(self) -> Codes:
        return (self.p1_offered, self.p1_used, self.p1_countered, self.p2_offered, self.p2_used, self.p2_countered)

    @property
    def uses(self) -> tuple[tuple[int, ...], ...]:
        """The game's rows of the view `uses` (recorder.uses_of)."""
        return uses_of(self.codes)


@dataclass(frozen=True)
class Measure:
    """How a per-game number is summarised and shown. `label` names it in reports; `section` is the
    report's table it is a row of; `group` the key of the summary (and of the comparison) it sits
    under, '' for the summary itself (which then also gives its median as `median_NAME`); `order`
    where it is listed among the measures (then in the columns' order)."""

    label: str
    section: str = "Game length"
    group: str = ""
    order: int = 0


@dataclass(frozen=True)
class Column:
    name: str  # the column of `games` (and the summary's key, for a measure)
    sql: str  # its SQLite type and constraints
    doc: str  # what it holds (the schema's comment)
    value: Callable[[GameRecord], Any] | None = None  # None: the record's field `name`
    measure: Measure | None = None

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"a column is named like an SQL identifier, not {self.name!r}")


COLUMNS: tuple[Column, ...] = (
    Column("side", "TEXT NOT NULL", "'a' (sim, or compare's first ruleset) or 'b'"),
    Column("idx", "INTEGER NOT NULL", "the game's number in the run (0, 1, ...)"),
    Column("seed", "INTEGER NOT NULL", "its deal: `cuttle play --seed SEED` deals the same cards"),
    Column("p1", "TEXT NOT NULL", "the player in the first seat (moves first)"),
    Column("p2", "TEXT NOT NULL", "the player in the second seat"),
    Column("winner", "TEXT", "'p1', 'p2', 'draw'; NULL if cut off at the decision cap"),
    Column("end_reason", "TEXT NOT NULL", "goal | passes | no-move | rule (a rule's `win`) | cutoff | other"),
    Column("goal", "INTEGER", "the winner's goal when the game ended at it"),
    Column("p1_points", "INTEGER NOT NULL", "points at the end"),
    Column("p2_points", "INTEGER NOT NULL", "points at the end"),
    Column("turns", "INTEGER NOT NULL", "turns played", measure=Measure("turns", order=1)),
    Column(
        "real_choices",
        "INTEGER NOT NULL",
        "real choices: decisions with more than one legal move (a forced move is none)",
        measure=Measure("real choices", order=2),
    ),
    Column(
        "decisions",
        "INTEGER NOT NULL",
        "every move of either player, forced ones, responses and choices included",
        measure=Measure("decisions", order=3),
    ),
    Column("hands", "INTEGER NOT NULL", "hands played (a match of several hands: best-of-5)"),
    Column("reason", "TEXT NOT NULL", "the engine's words for the ending"),
    Column("p1_offered", "TEXT NOT NULL", "the plays and responses that became legal for p1, each once (rules.code)"),
    Column("p1_used", "TEXT NOT NULL", "what p1 chose: plays, responses and choices, in the order chosen"),
    Column("p1_countered", "TEXT NOT NULL", "p1's plays that were countered"),
    Column("p2_offered", "TEXT NOT NULL", "the same for p2"),
    Column("p2_used", "TEXT NOT NULL", "the same for p2"),
    Column("p2_countered", "TEXT NOT NULL", "the same for p2"),
    Column(
        "progress",
        "TEXT NOT NULL",
        "JSON, one [p1 points, p1 goal, p2 points, p2 goal] after each turn (and at a stop inside one)",
    ),
    Column(
        "ended_by",
        "TEXT NOT NULL",
        "the rule that ended the game: end.goal, end.passes, no legal move, the rule whose `win` did ('' if cut off)",
    ),
    Column("fired", "TEXT NOT NULL", "the triggers that fired: one character per firing (rules.code), in rule order"),
    Column("counters", "TEXT NOT NULL", "JSON {counter: [changes, p1's final value, p2's, the cards' final sum]}"),
    Column(
        "knowledge",
        "TEXT NOT NULL",
        "JSON {shown: {rule: hidden cards its show showed}, seen: {visibility rule: cards seen at turn starts}}",
    ),
    Column("p1_ranks", "TEXT NOT NULL", "beside each character of p1_used, its card's rank (A 2-9 T J Q K X; - none)"),
    Column("p2_ranks", "TEXT NOT NULL", "the same for p2"),
)
Row = tuple[Any, ...]  # a row of `games`: its values in the order of COLUMNS
KEY = ("side", "idx")  # the primary key of `games`
CODES = ("p1_offered", "p1_used", "p1_countered", "p2_offered", "p2_used", "p2_countered")


def columns() -> tuple[Column, ...]:
    """The columns of `games`, in their order (read at each use: a test may declare one more)."""
    return COLUMNS


def measures() -> list[tuple[Column, Measure]]:
    """The columns that are measures, with their measures, in the order they are listed."""
    found = [(c, c.measure) for c in columns() if c.measure is not None]
    return sorted(found, key=lambda cm: cm[1].order)


def names() -> list[str]:
    return [c.name for c in columns()]


def games_table() -> str:
    """The SQL that creates the table `games`, one line per column with what it holds."""
    lines = [f"    {c.name} {c.sql},  -- {c.doc}" for c in columns()]
    return "CREATE TABLE IF NOT EXISTS games (\n" + "\n".join(lines) + f"\n    PRIMARY KEY ({', '.join(KEY)})\n);\n"


def insert_game() -> str:
    """The SQL that inserts one row of `games` (a tuple in the order of the columns)."""
    cols = names()
    return f"INSERT INTO games ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"


def row_maker() -> Callable[[GameRecord], Row]:
    """The function that makes a record's row of `games` (a plain tuple, in the columns' order): one
    C call when every column is a field of the record, as the lab's own columns are."""
    cols = columns()
    if all(c.value is None for c in cols):
        return attrgetter(*(c.name for c in cols))
    getters = [attrgetter(c.name) if c.value is None else c.value for c in cols]
    return lambda r: tuple([g(r) for g in getters])


def by_name(rows: Sequence[Sequence[Any]], cols: Sequence[str]) -> dict[str, list[Any]]:
    """Rows of the columns `cols` (as a SELECT of them returns them) turned into one list per column."""
    if not rows:
        return {c: [] for c in cols}
    return dict(zip(cols, map(list, zip(*rows, strict=True)), strict=True))
