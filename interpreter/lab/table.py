"""`cuttle sim` at a table of more than two seats (SPEC rulings 21-26: `cutthroat`, `teams`): seeded games
between players by name, and what they say about the rules — the win rate of each seat and of each team
with 95% intervals, each seat's advantage over a fair share, how games end, how long they last, and
quality measures defined for any number of players.

The seats' players rotate from game to game (game i seats player k at seat (k + i) mod N), so that each
player sits in each seat as often; with one player for every seat the rotation changes nothing.

Quality measures (each per game, summarised over the run):

- **lead changes**: how often the leader changes from one turn to the next, the leader being the player
  (or team) fewest points from their goal, a tie leading nobody;
- **comebacks**: the share of games won by a player who did not lead at the halfway turn;
- **margin**: when a game is won, how many points the runner-up (the best other side) still lacked.

The games database, its reports and `cuttle compare` and `sweep` hold two-seat games (their columns are
each seat's: p1, p2); at a larger table `cuttle sim` prints this summary (text, or `--json`).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from interpreter.core.errors import CuttleError
from interpreter.engine.game import Game
from interpreter.engine.machine import prepare as prepare_engine
from interpreter.players.registry import make_player
from interpreter.rules import Rules, load_ruleset

from .stats import wilson


@dataclass
class TableGame:
    """One game of a run at a larger table: who sat where, who won, how it ended and lasted."""

    seed: int
    seats: tuple[str, ...]  # the player of each seat
    winners: tuple[int, ...]  # the seats that won (a team together; none: a draw or a cut-off game)
    ending: str  # goal, passes, rule, no-move, match, cutoff...
    turns: int
    decisions: int
    lead_changes: int
    comeback: bool  # won by a side that did not lead at the halfway turn
    margin: int | None  # points the runner-up still lacked when the game was won


@dataclass
class TableReport:
    """A run's summary (see the module doc)."""

    ruleset: str
    seats: int
    teams: tuple[tuple[int, ...], ...]
    players: tuple[str, ...]
    games: list[TableGame] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        n = len(self.games)
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "seats": self.seats,
            "players": list(self.players),
            "games": n,
            "draws": sum(1 for g in self.games if not g.winners and g.ending != "cutoff"),
            "cutoff": sum(1 for g in self.games if g.ending == "cutoff"),
            "seat_wins": [self._rate(s) for s in range(self.seats)],
            "endings": dict(Counter(g.ending for g in self.games)),
            "turns": _spread([g.turns for g in self.games]),
            "decisions": _spread([g.decisions for g in self.games]),
            "lead_changes": _spread([g.lead_changes for g in self.games]),
            "comebacks": _share(
                sum(g.comeback for g in self.games if g.winners), sum(bool(g.winners) for g in self.games)
            ),
            "margin": _spread([g.margin for g in self.games if g.margin is not None]),
        }
        if len(self.teams) < self.seats:  # partners: each team's wins
            out["team_wins"] = [
                {"team": [f"p{s + 1}" for s in t], **_share(sum(1 for g in self.games if t[0] in g.winners), n)}
                for t in self.teams
            ]
        return out

    def _rate(self, seat: int) -> dict[str, Any]:
        """A seat's wins, its share with a 95% interval, and its advantage over a fair share (the share a
        seat would win if every seat were alike: its team's share of the teams, over the games won)."""
        n = len(self.games)
        won = sum(1 for g in self.games if seat in g.winners)
        fair = len(next(t for t in self.teams if seat in t)) / self.seats * self._decided_share()
        return {"seat": f"p{seat + 1}", **_share(won, n), "advantage": (won / n - fair) if n else 0.0}

    def _decided_share(self) -> float:
        n = len(self.games)
        return sum(1 for g in self.games if g.winners) / n if n else 0.0


def _share(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n) if n else (0.0, 0.0)
    return {"wins": k, "share": k / n if n else 0.0, "low": lo, "high": hi}


def _spread(xs: Sequence[int]) -> dict[str, Any]:
    if not xs:
        return {"median": None, "mean": None, "min": None, "max": None}
    return {"median": statistics.median(xs), "mean": statistics.fmean(xs), "min": min(xs), "max": max(xs)}


def _leader(rules: Rules, needs: list[int]) -> int | None:
    """The side (team index) fewest points from its goal, or None on a tie."""
    best: dict[int, int] = {}
    for s, n in enumerate(needs):
        t = rules.teams[s]
        best[t] = min(best.get(t, n), n)
    low = min(best.values())
    leaders = [t for t, n in best.items() if n == low]
    return leaders[0] if len(leaders) == 1 else None


def play_table_game(spec: str, seed: int, players: Sequence[str], max_decisions: int) -> TableGame:
    """One seeded game at a larger table to its end (or the decision cap)."""
    rules = load_ruleset(spec)
    game = Game.new(rules, seed)
    seats = tuple(players[(s - seed) % len(players)] for s in range(rules.seats))
    bots = [make_player(p, seed=seed * 8 + s) for s, p in enumerate(seats)]
    leaders: list[int | None] = []
    last_turn = 0
    decisions = 0
    while game.outcome is None and decisions < max_decisions:
        d = game.decision
        assert d is not None  # (the game goes on)
        game.play(bots[d.player].choose(game))
        decisions += 1
        g = game.state
        if g.turn_no != last_turn:  # a turn ended: who leads now
            last_turn = g.turn_no
            needs = [max(rules.goal_of(g, s) - rules.score_of(g, s), 0) for s in range(rules.seats)]
            leaders.append(_leader(rules, needs))
    out = game.outcome
    winners = out.winners if out is not None else ()
    changes = sum(1 for a, b in zip(leaders, leaders[1:], strict=False) if a is not None and b is not None and a != b)
    team = rules.teams[winners[0]] if winners else None
    half = leaders[len(leaders) // 2] if leaders else None
    margin = None
    if winners and out is not None:
        g = game.state
        others = [s for s in range(rules.seats) if rules.teams[s] != team]
        margin = min(max(rules.goal_of(g, s) - rules.score_of(g, s), 0) for s in others)
    return TableGame(
        seed=seed,
        seats=seats,
        winners=tuple(winners),
        ending=out.termination.value if out is not None else "cutoff",
        turns=game.state.turn_no,
        decisions=decisions,
        lead_changes=changes,
        comeback=bool(winners) and half != team,
        margin=margin,
    )


def _game(args: tuple[str, int, tuple[str, ...], int]) -> TableGame:
    return play_table_game(*args)


def simulate_table(
    spec: str, games: int, players: Sequence[str], seed: int = 0, jobs: int | None = 1, max_decisions: int = 5000
) -> TableReport:
    """`games` seeded games (seeds seed, seed + 1, ...) of a ruleset of three or four seats."""
    rules = load_ruleset(spec)
    if rules.seats == 2:
        raise CuttleError(f"{spec} has two seats: use the lab's two-seat run")
    if len(players) not in (1, rules.seats):
        raise CuttleError(f"--players: name one player for every seat, or one for each of the {rules.seats} seats")
    names = tuple(players) * (rules.seats if len(players) == 1 else 1)
    prepare_engine(rules)
    teams = tuple(tuple(s for s in range(rules.seats) if rules.teams[s] == t) for t in sorted(set(rules.teams)))
    report = TableReport(spec, rules.seats, teams, names)
    todo = [(spec, seed + i, names, max_decisions) for i in range(games)]
    if jobs is None or jobs <= 1:
        report.games = [_game(t) for t in todo]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            report.games = list(pool.map(_game, todo, chunksize=max(1, games // (jobs * 4))))
    return report


def render(report: TableReport) -> str:
    """The summary as text."""
    j = report.json()
    n = j["games"]
    lines = [
        f"{report.ruleset}: {n:,} games at a table of {report.seats} ({', '.join(report.players)}, seats rotating)",
        "Wins by seat (95% interval; advantage: the share won over a fair share of the games won):",
    ]
    for r in j["seat_wins"]:
        lines.append(
            f"  {r['seat'].upper()}  {r['wins']:>5,}  {r['share']:6.1%}  ({r['low']:.1%}–{r['high']:.1%})"
            f"  advantage {r['advantage']:+.1%}"
        )
    for t in j.get("team_wins", ()):
        team = " and ".join(x.upper() for x in t["team"])
        lines.append(f"  team {team}  {t['wins']:,}  {t['share']:.1%}  ({t['low']:.1%}–{t['high']:.1%})")
    lines.append(f"Draws {j['draws']:,}; cut off at the decision cap {j['cutoff']:,}.")
    lines.append("Endings: " + ", ".join(f"{k} {v:,}" for k, v in sorted(j["endings"].items())))
    for key, what in (("turns", "turns"), ("decisions", "decisions")):
        s = j[key]
        lines.append(f"Length: {what} median {s['median']}, mean {s['mean']:.1f}, {s['min']}–{s['max']}")
    lc, m, cb = j["lead_changes"], j["margin"], j["comebacks"]
    lines.append(f"Lead changes per game: median {lc['median']}, mean {lc['mean']:.2f}")
    lines.append(f"Comebacks (won without leading at halfway): {cb['share']:.1%} of the games won")
    if m["median"] is not None:
        lines.append(f"Margin (points the runner-up still lacked): median {m['median']}, mean {m['mean']:.1f}")
    return "\n".join(lines)


__all__ = ["TableGame", "TableReport", "play_table_game", "simulate_table", "render"]
