"""A game of more than two seats (SPEC rulings 21-26): the plays each player may make, whom they aim
at, who wins.

A two-seat game never comes here: its plays are listed by the functions generated per ruleset
(engine/legal.py) and its programs run on the direct paths (engine/direct.py), which this module
leaves as they are. At a larger table every program runs the general way (machine.py) and the plays
are listed by the plain loops below, in the same order as the generated enumerator lists them (the
cardless plays, then each card of the hand: its single plays in the ruleset's order, then its twins).

**Whom a play aims at** (ruling 22). A play whose rules read `opponent` (`PlayDef.aims`) is offered
once for each opponent, in turn order from the player, with `opponent` bound to that one: a scuttle
may take a point card on any opponent's side, a 4 names the opponent who discards. An action of a
larger table carries that seat last: ("play", p, player, cards, target, named); its move names the
player (`oneoff 4C p3`) unless its target card is already on that player's side (`scuttle 9H 9D`).
A play that reads no `opponent` names nobody (-1), and `opponent` is then the player's first opponent
clockwise, as it is in every other rule (triggers, the end of a turn, a goal).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import RANK_OF
from interpreter.core.zones import CONTROLLER, DRAW, HANDS
from interpreter.language.runtime import as_cards

from .outcome import GOALS, Outcome, Termination, goal_reached

if TYPE_CHECKING:
    from interpreter.rules import PlayDef, Rules

    from .state import State


def play_env(rules: Rules, rec: tuple[Any, ...]) -> dict[str, Any]:
    """The bindings of a play whose action names a player: `rec` is (play, player, cards, target, named)."""
    p, player, cards, target, named = rec
    env = {
        "me": player,
        "opponent": named if named >= 0 and p.aims else rules.opponent_of[player],
        "card": cards[0] if cards else -1,
        "cards": cards,
        "target": target,
    }
    if p.player is not None:
        env["player"] = named
    return env


def names_player(g: State, action: tuple[Any, ...]) -> int | None:
    """The seat a play's move names (`oneoff 4C p3`), or None: nobody, or the player on whose side its
    target card lies (the target says whom it aims at)."""
    if len(action) < 6:
        return None
    named, target = action[5], action[4]
    if named < 0 or (target >= 0 and CONTROLLER[g.zone_of[target]] == named and action[1].player is None):
        return None
    return named


def _aims(g: State, p: PlayDef, player: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """The seats a play of `player` may name: the players of its `player:` key, each opponent in turn
    (a play aimed at its opponent, at a larger table), or nobody (-1)."""
    rules = g.rules
    if p.player is not None:
        env = {"me": player, "opponent": rules.opponent_of[player], "card": cards[0] if cards else -1, "cards": cards}
        named = p.player(g, env)
        return tuple(named) if isinstance(named, (tuple, list)) else (named,) if 0 <= named < rules.seats else ()
    return rules.opponents_of[player] if p.aims and rules.seats > 2 else (-1,)


def _add(g: State, p: PlayDef, player: int, cards: tuple[int, ...], out: list[Any]) -> None:
    """The actions of play `p` with these cards, for each player it may name: its legal test, then one
    action per target (or one action)."""
    rules = g.rules
    first = rules.opponent_of[player]
    card = cards[0] if cards else -1
    for named in _aims(g, p, player, cards):
        env = {"me": player, "opponent": named if named >= 0 and p.aims else first, "card": card, "cards": cards}
        env["answering"] = False
        if p.player is not None:
            env["player"] = named
        if p.legal is not None and not p.legal(g, env):
            continue
        if p.target is not None:
            for t in as_cards(p.target(g, env)):
                out.append(("play", p, player, cards, t, named))
        else:
            out.append(("play", p, player, cards, -1, named))


def seat_plays(g: State, player: int, source: tuple[int, ...] | list[int], free_ok: bool = True) -> list[Any]:
    """Every play of cards from `source` by `player` at a larger table (engine/legal.py `plays_for`)."""
    rules = g.rules
    playable = rules.playable_fn
    out: list[Any] = []
    first = rules.opponent_of[player]
    for i, c in enumerate(source):
        if playable is not None and not playable(g, {"me": player, "opponent": first, "it": c, "answering": False}):
            continue
        plays = rules.by_rank.get(RANK_OF[c], ())
        for p in plays:
            if p.ncards == 1 and (free_ok or not p.free):
                _add(g, p, player, (c,), out)
        for p in plays:
            if p.ncards > 1 and (free_ok or not p.free):
                _twins(g, p, player, source, i, c, out)
    return out


def _twins(g: State, p: PlayDef, player: int, source: Any, i: int, c: int, out: list[Any]) -> None:
    """The plays of card `c` (at `source[i]`) together with other cards of its rank (as legal.py's)."""
    playable = g.rules.playable_fn
    first = g.rules.opponent_of[player]
    rank = RANK_OF[c]
    others = [x for j, x in enumerate(source) if (j != i if p.first_card_matters else j > i)]
    same = [
        x
        for x in others
        if RANK_OF[x] == rank
        and (playable is None or playable(g, {"me": player, "opponent": first, "it": x, "answering": False}))
    ]
    for rest in itertools.combinations(same, p.ncards - 1):
        _add(g, p, player, (c,) + rest, out)


def seat_main(g: State, me: int) -> list[Any]:
    """The actions of `me`'s main decision at a larger table: the cardless plays, then the hand's."""
    out: list[Any] = []
    for p in g.rules.cardless:
        _add(g, p, me, (), out)
    out += seat_plays(g, me, g.zones[HANDS[me]], True)
    return out


def answerable(g: State, p: PlayDef, env: dict[str, Any]) -> bool:
    """Whether an answer with a `window:` of its own may answer this play (whose kind's `counterable`
    does not hold, or it has none): a response window opens for it."""
    return any(r.window is not None and r.window(g, env) for r in g.rules.answering.get(p.kind, ()))


def the_answers(g: State, rs: list[Any]) -> list[Any]:
    """The responses that may make the first answer to the play on the stack: those with a `window:` that
    holds, and the others only if the play's kind is counterable now."""
    rec = g.chain[0]
    p = rec[0]
    env = (
        play_env(g.rules, rec)
        if len(rec) > 4
        else {
            "me": rec[1],
            "opponent": 1 - rec[1],
            "card": rec[2][0] if rec[2] else -1,
            "cards": rec[2],
            "target": rec[3],
        }
    )
    counterable = p.counterable is not None and p.counterable(g, env)
    return [r for r in rs if (r.window(g, env) if r.window is not None else counterable)]


def check_win_round(g: State, won: Any) -> None:
    """Whether a player has reached their goal, each in turn order from the player whose turn it is:
    the first who has wins, with their team (ruling 25)."""
    rules = g.rules
    if rules.win_reads_fields_only:
        if g.fv == g.checked_fv:
            return
        g.checked_fv = g.fv[:]
    for s in rules.order_from[g.turn]:
        if won(g, s):
            g.declare_winner(s, goal_reached(s, rules.team_seats[s]) if rules.has_teams else GOALS[s])
            return


def most_points_win(g: State) -> None:
    """Passes ended the game at a larger table: the player with the most points in play wins (with their
    team); a tie for the most is a draw (ruling 24)."""
    rules = g.rules
    points = tuple(rules.score_of(g, s) for s in range(rules.seats))
    best = max(points)
    top = [s for s, n in enumerate(points) if n == best]
    w = top[0] if len(top) == 1 else None
    side = rules.team_seats[w] if w is not None and rules.has_teams else ()
    ended = Outcome(w, Termination.PASSES, "end.passes", points=points, count=g.passes, side=side)
    g.declare_winner(DRAW if w is None else w, ended)


__all__ = [
    "play_env",
    "names_player",
    "seat_plays",
    "seat_main",
    "answerable",
    "the_answers",
    "check_win_round",
    "most_points_win",
]
