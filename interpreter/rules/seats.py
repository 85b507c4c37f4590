"""seats: how many players sit at the table and which of them are partners (SPEC rulings 21-26).

Seats p1..pN sit clockwise; p1 (the dealer's left) moves first in a single game and the turns go
clockwise; in a match the dealer moves one seat clockwise each hand. Without `seats:` a ruleset has
two seats, each playing for itself. A team is a list of seats (`teams: [[p1, p3], [p2, p4]]`): its
players are partners, who are not each other's opponents, and a team wins when one of its players
does. Everything the engine asks about seats is worked out here once, as tables by seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.core.zones import MAX_SEATS

if TYPE_CHECKING:
    from .builder import Builder
    from .model import Rules

MIN_SEATS = 2


def seat_name(seat: int) -> str:
    """`p1` for seat 0, `p2` for seat 1..."""
    return f"p{seat + 1}"


def build_seats(b: Builder, r: Rules) -> None:
    """seats.count and seats.teams, checked; then the engine's tables (`set_seats`)."""
    data = b.d.get("seats") or {}
    count = data.get("count", MIN_SEATS) if isinstance(data, dict) else MIN_SEATS
    if not isinstance(count, int) or isinstance(count, bool) or not MIN_SEATS <= count <= MAX_SEATS:
        if "count" in data:
            b.error(
                f"seats.count: a table seats {MIN_SEATS} to {MAX_SEATS} players, not {count!r}",
                ("seats", "count"),
                "E028",
            )
        count = MIN_SEATS
    teams = _teams(b, data.get("teams") if isinstance(data, dict) else None, count)
    set_seats(r, count, teams)
    b.ctx.seats, b.ctx.teams = count, teams


def _teams(b: Builder, raw: Any, count: int) -> tuple[int, ...]:
    """The team of each seat (a team per seat when the ruleset names none), checked: every seat in
    exactly one team, at least two teams."""
    alone = tuple(range(count))
    if raw is None:
        return alone
    where = ("seats", "teams")
    names = [seat_name(s) for s in range(count)]
    if not isinstance(raw, list) or not all(isinstance(t, list) for t in raw):
        b.error("seats.teams: expected a list of teams, each a list of seats ([[p1, p3], [p2, p4]])", where, "E028")
        return alone
    team_of: dict[int, int] = {}
    ok = True
    for i, team in enumerate(raw):
        for j, s in enumerate(team):
            if str(s) not in names:
                b.error(f"seats.teams: '{s}' is not a seat of this table ({', '.join(names)})", where + (i, j), "E028")
                ok = False
            elif names.index(str(s)) in team_of:
                b.error(f"seats.teams: {s} is in two teams", where + (i, j), "E028")
                ok = False
            else:
                team_of[names.index(str(s))] = i
    missing = [names[s] for s in range(count) if s not in team_of]
    if ok and missing:
        b.error(f"seats.teams: {', '.join(missing)} in no team (every seat plays in one)", where, "E028")
        ok = False
    if ok and len({t for t in team_of.values()}) < 2:
        b.error("seats.teams: at least two teams (partners play against someone)", where, "E028")
        ok = False
    return tuple(team_of[s] for s in range(count)) if ok else alone


def set_seats(r: Rules, count: int, teams: tuple[int, ...]) -> None:
    """The seat tables of `r`: the turn order from each seat, each seat's partners and opponents (in
    turn order from it), its first opponent clockwise (what `opponent` means where nothing chooses
    one) and the bindings of an expression about one player."""
    r.seats = count
    r.teams = teams
    r.next_seat = tuple((s + 1) % count for s in range(count))
    r.order_from = tuple(tuple((s + k) % count for k in range(count)) for s in range(count))
    r.partners_of = tuple(tuple(o for o in r.order_from[s][1:] if teams[o] == teams[s]) for s in range(count))
    r.opponents_of = tuple(tuple(o for o in r.order_from[s][1:] if teams[o] != teams[s]) for s in range(count))
    r.opponent_of = tuple(r.opponents_of[s][0] for s in range(count))
    r.player_env = tuple({"me": s, "opponent": r.opponent_of[s]} for s in range(count))
    r.team_seats = tuple(tuple(o for o in range(count) if teams[o] == teams[s]) for s in range(count))
    r.has_teams = any(len(t) > 1 for t in r.team_seats)


__all__ = ["build_seats", "set_seats", "seat_name", "MIN_SEATS"]
