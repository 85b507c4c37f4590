"""The built rules: `Rules`, immutable once loaded and shared by every game played with it, and
the queries that generated code and the engine ask of it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from interpreter.core.errors import RulesetError, RulesetErrors, tidy
from interpreter.language.compiler import Context

from .builder import Builder
from .compose import Composed
from .defs import PlayDef, ResponseDef, TriggerDef
from .sections import SECTIONS
from .validate import validate

# Prose, shown on the rules page and nowhere in play: the ruleset's `description`, and the `text` of
# each play, response, trigger and counter. Rewording it keeps the ruleset's hash, so the games
# saved under it still replay.
_PROSE_SECTIONS = ("plays", "responses", "triggers", "counters")


def play_hash(data: dict) -> str:
    """The hash of what changes play: the whole merged ruleset but its prose."""
    kept = {k: v for k, v in data.items() if k != "description"}
    for section in _PROSE_SECTIONS:
        entries = kept.get(section)
        if isinstance(entries, dict):
            kept[section] = {
                n: {k: v for k, v in e.items() if k != "text"} if isinstance(e, dict) else e for n, e in entries.items()
            }
    return hashlib.sha256(json.dumps(kept, sort_keys=True, default=str).encode()).hexdigest()[:16]


class Rules:
    """A loaded ruleset: immutable, shared by every game played with it."""

    # set by the section builders (sections.py; the seats' tables by seats.py)
    seats: int  # players at the table (2 without `seats:`)
    teams: tuple[int, ...]  # the team of each seat (each seat its own without `seats.teams`)
    has_teams: bool  # whether some seat has a partner
    next_seat: tuple[int, ...]  # the seat after each, clockwise
    order_from: tuple[tuple[int, ...], ...]  # each seat, then the others clockwise
    partners_of: tuple[tuple[int, ...], ...]  # each seat's partners, clockwise from it
    opponents_of: tuple[tuple[int, ...], ...]  # each seat's opponents, clockwise from it
    opponent_of: tuple[int, ...]  # each seat's first opponent clockwise (`opponent` where no play names one)
    team_seats: tuple[tuple[int, ...], ...]  # the seats of each seat's team, itself included
    player_env: tuple[dict[str, int], ...]  # the bindings of an expression about one player
    deal_sizes: tuple[int, ...]  # the cards dealt to each seat
    # whether plays' actions name a player (a larger table, or a play with `player:`): engine/seating.py
    # lists the plays, and programs run the general way
    seated: bool
    answer_windows: bool  # whether a response has `window:` (an answer where no counter may be made)
    suits: tuple[str, ...]
    deck_cards: tuple[int, ...]
    ranks_in_deck: tuple[str, ...]
    values: dict[str, int]
    deal: tuple[int, int]
    deal_extra: tuple[tuple[int, ...], ...]
    match_wins: int
    ctx: Context
    passes_to_end: int
    on_passes: str  # most_points, draw, or "expression": `on_passes_fn` names the winner
    on_passes_fn: Callable | None
    goal_fn: Callable | None
    score_fn: Callable | None
    win_reads_fields_only: bool
    win_reads_own_field_only: bool
    win_cost: int  # the work of one player's score and goal, as MAX_COST counts it (sections.check_budgets)
    counts_wins: bool  # whether the machine counts each win check against the move's budget (MAX_STEP_COST)
    move_floor: int  # the work every move can be known to do at load: list a decision, check the win once
    visible_fn: Callable
    deck_top_fn: Callable | None
    card_visible_fn: Callable | None
    hand_rule: bool
    watched: tuple[bool, ...]
    playable_fn: Callable | None
    # two plays of one verb and rank may name the same move (their targets overlap): the first play in
    # the ruleset's order makes it (sections.build_moves, engine/legal.py)
    shared_moves: bool
    turn_end: tuple
    kinds: dict[str, dict[str, Any]]
    plays: list[PlayDef]
    role_ranks: dict[str, set[str]]
    responses: list[ResponseDef]
    answering: dict[str, list[ResponseDef]]
    verbs: list[str]
    by_rank: dict[str, list[PlayDef]]
    cardless: list[PlayDef]
    counters: dict[str, str]  # `counters:` name -> "player" or "card"
    triggers: tuple[TriggerDef, ...]  # in file order (rules/triggers.py)
    trigger_moves: bool  # whether a trigger listens to cards moving
    questions: dict[str, str]  # a question's verb -> what agreeing does, in words (the REPL shows it)

    def __init__(self, composed: Composed) -> None:
        self.composed = composed
        self.data = composed.data
        self.name = str(self.data.get("name", "?"))
        # what the engine derives from these rules on first use (generated enumerators, programs):
        # the rules themselves never change
        self.engine_cache: dict[str, Any] = {}
        self.spec = self.name  # how it was asked for (a name, NAME+OPTION..., or a path): set by load_ruleset
        self.parts = list(composed.parts) + list(composed.options)
        self.hash = play_hash(self.data)
        errors: list[RulesetError] = []
        validate(composed, errors)
        invalid = bool(errors)
        builder = Builder(composed, errors)
        try:
            builder.parse_all()
            for build in SECTIONS:
                build(builder, self)
        except (TypeError, ValueError, AttributeError, KeyError, IndexError):
            if not invalid:  # data that passed validation must build: a bug, not a user error
                raise
        if errors:
            raise RulesetErrors(tidy(errors))

    # -- queries used by expressions and the engine --------------------------------------------
    def ranks_by_role(self) -> dict[str, set[str]]:
        """Which ranks the plays put into play in each role (`move card to field of me as ROLE`,
        `attach card to target as ROLE`): what a position may hold, for checking scenario setups."""
        return {role: set(ranks) for role, ranks in self.role_ranks.items()}

    # Bindings for expressions about one player. Generated code only reads its bindings, so these
    # two dicts are shared by every call instead of being built each time.
    _PLAYER_ENV = ({"me": 0, "opponent": 1}, {"me": 1, "opponent": 0})

    def score_of(self, g, player: int) -> int:
        return self.score_fn(g, self.player_env[player]) if self.score_fn else 0

    def goal_of(self, g, player: int) -> int:
        return self.goal_fn(g, self.player_env[player]) if self.goal_fn else 21

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        """The rules never change once loaded, and the engine keys what it generates for them by the
        identity of their parts: a copy of a game (`copy.deepcopy` of a state, a Game, the PettingZoo
        environment) shares them rather than copying them."""
        return self

    def reached_goal(self, g, player: int) -> bool:
        env = self.player_env[player]
        score, goal = self.score_fn, self.goal_fn
        assert score is not None and goal is not None  # a loaded ruleset has both
        return score(g, env) >= goal(g, env)

    def hand_visible(self, g, viewer: int, holder: int | None = None) -> bool:
        """Whether `viewer` sees the hand of `holder` (`visibility.hand`, `opponent` bound to the holder;
        without one, the viewer's first opponent: in a two-seat game, the other player)."""
        other = self.opponent_of[viewer] if holder is None else holder
        return bool(self.visible_fn(g, {"me": viewer, "opponent": other}))

    def winners(self, seat: int) -> tuple[int, ...]:
        """The seats that win when `seat` does: its team (itself alone without partners)."""
        return self.team_seats[seat]
