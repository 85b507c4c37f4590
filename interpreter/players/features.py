"""The generic features of a position, and the linear evaluation over them that training learns.

Every feature is read from the position as the ruleset scores it — its deck's ranks, its roles,
counters and marks, its score and goal, its visibility rule — never from a rank named in Python,
so the same features describe every ruleset and house rule. Each is a difference between the two
sides as seen from one player (`me`): f(position, me) = -f(position, opponent), so an evaluation
made of them is zero-sum and one fit serves both seats.

| feature | what it reads (mine less the opponent's) |
|---|---|
| `need` | points still missing to the goal (the opponent's less mine) |
| `urgency` | 1 / (need + 1): a side near its goal |
| `hand` | cards in hand |
| `in_play` | cards in play that are neither point cards nor attached to one |
| `sees` | seeing the other side's hand (the ruleset's `visibility.hand`) |
| `move` | whose decision it is (+1 mine) |
| `hand:R` | cards of rank R in hand |
| `play:R` | cards of rank R in play other than as point cards (Royals, glasses, Jacks, any role) |
| `top:R` | a card of rank R known (to either player) on the deck's top, +1 if I am the next to draw |
| `counter:N` | the counter N: a player's own, or summed over the cards in front of each side |
| `mark:N` | the mark N: on the player, or on the cards in each side's hand and field |
| `wins` | hands won in a match |
| `late:lead` | who leads in points (+1, 0, -1), times how late the game is (turn / horizon, at most 1) |
| `late:points` | the lead in points times how late the game is |
| `late:seat` | being the first player (+1) or the second (-1), times how late the game is |
| `out:lead` | who leads in points once the deck is empty (when passes can end the game) |

`horizon` is the number of turns after which a game counts as late: a turn limit written in the rules
shows as games piling up at it, so training sets it from the length of its own games (docs/players.md).
The first five features are the hand-set evaluation's (players/sharp.py `evaluate`): a linear
evaluation with only those weights and the hand-set values is exactly today's `sharp`.
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.core.cards import CARD_COUNT, RANK_OF
from interpreter.engine.knowledge import card_bits
from interpreter.engine.machine import MAIN
from interpreter.engine.state import DECK, DRAW, FIELD0, HAND0, State
from interpreter.engine.wincheck import points_goal_function
from interpreter.rules.model import Rules

from .evaluation import DEFAULT_SHARP, WIN, card_values

BASE = ("need", "urgency", "hand", "in_play", "sees", "move")
LATE = ("late:lead", "late:points", "late:seat", "out:lead", "wins")
#: the hand-set evaluation (players/sharp.py), as weights of the base features
HAND_SET: dict[str, float] = {
    "need": DEFAULT_SHARP.need,
    "urgency": DEFAULT_SHARP.urgency,
    "hand": DEFAULT_SHARP.hand,
    "in_play": DEFAULT_SHARP.in_play,
    "sees": DEFAULT_SHARP.sees_hand,
}


def feature_names(rules: Rules) -> list[str]:
    """Every feature of a ruleset, in a fixed order: the base, then per rank of its deck, its
    counters and marks, and the late-game terms."""
    ranks = _ranks(rules)
    names = list(BASE)
    names += [f"hand:{r}" for r in ranks]
    names += [f"play:{r}" for r in ranks]
    names += [f"top:{r}" for r in ranks]
    names += [f"counter:{n}" for n in sorted(rules.counters)]
    names += [f"mark:{n}" for n in sorted(rules.ctx.marks)]
    names += list(LATE)
    return names


def _ranks(rules: Rules) -> list[str]:
    seen: list[str] = []
    for c in rules.deck_cards:
        r = RANK_OF[c]
        if r not in seen:
            seen.append(r)
    return seen


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


class Linear:
    """A linear evaluation of positions of one ruleset: `value(g, me)` = the weights · the features.

    Built once per ruleset and set of weights: the per-rank weights become per-card tables, so a
    value costs a pass over the hands, the fields and the deck's top (it is what the search players
    call at every leaf)."""

    def __init__(self, rules: Rules, weights: dict[str, float], horizon: int) -> None:
        self.rules = rules
        self.names = feature_names(rules)
        self.weights = {n: float(weights.get(n, 0.0)) for n in self.names}
        self.horizon = max(1, int(horizon))
        w = self.weights
        self.need, self.urgency, self.hand, self.in_play = w["need"], w["urgency"], w["hand"], w["in_play"]
        self.sees, self.move = w["sees"], w["move"]
        self.hand_w = _per_card(w, "hand:")
        self.play_w = _per_card(w, "play:")
        self.top_w = _per_card(w, "top:")
        self.any_hand = any(self.hand_w)
        self.any_play = any(self.play_w)
        self.any_top = any(self.top_w)
        self.counters = [(n, rules.counters[n], w[f"counter:{n}"]) for n in sorted(rules.counters)]
        self.counters = [c for c in self.counters if c[2]]
        self.marks = [(n, w[f"mark:{n}"]) for n in sorted(rules.ctx.marks) if w[f"mark:{n}"]]
        self.late = (w["late:lead"], w["late:points"], w["late:seat"])
        self.any_late = any(self.late)
        self.out_lead = w["out:lead"]
        self.wins = w["wins"]

    def value(self, g: State, me: int) -> float:
        """The position from `me`'s side, in the hand-set evaluation's units (a won game is +WIN)."""
        if g.winner is not None:
            return 0.0 if g.winner == DRAW else WIN if g.winner == me else -WIN
        opp = 1 - me
        s_me, goal_me, s_opp, goal_opp = _scores(g, me)
        need_me, need_opp = max(goal_me - s_me, 0), max(goal_opp - s_opp, 0)
        v = self.need * (need_opp - need_me) + self.urgency * (1.0 / (need_me + 1) - 1.0 / (need_opp + 1))
        zones = g.zones
        hand_me, hand_opp = zones[HAND0 + me], zones[HAND0 + opp]
        v += self.hand * (len(hand_me) - len(hand_opp))
        if self.any_hand:
            hw = self.hand_w
            v += sum(hw[c] for c in hand_me) - sum(hw[c] for c in hand_opp)
        host, role = g.host, g.role
        pw, play = self.play_w, self.any_play
        perm = 0
        for c in zones[FIELD0 + me]:
            if role[c] != "point":
                if host[c] < 0:
                    perm += 1
                if play:
                    v += pw[c]
        for c in zones[FIELD0 + opp]:
            if role[c] != "point":
                if host[c] < 0:
                    perm -= 1
                if play:
                    v -= pw[c]
        v += self.in_play * perm
        rules = g.rules
        if self.sees:
            v += self.sees * (bool(rules.hand_visible(g, me)) - bool(rules.hand_visible(g, opp)))
        pending = g.pending
        if self.move and pending is not None:
            v += self.move if pending.player == me else -self.move
        deck = zones[DECK]
        if self.any_top and deck:
            top = deck[-1]
            if g.known & card_bits(top):  # (someone knows it)
                v += self.top_w[top] if _next_to_draw(g) == me else -self.top_w[top]
        if self.counters:
            v += sum(w * _counter(g, name, of, me) for name, of, w in self.counters)
        if self.marks:
            v += sum(w * _mark(g, name, me) for name, w in self.marks)
        if self.any_late:
            late = min(g.turn_no / self.horizon, 1.0)
            lead = s_me - s_opp
            seat = 1 if g.first_player() == me else -1
            w_lead, w_points, w_seat = self.late
            v += late * (w_lead * _sign(lead) + w_points * lead + w_seat * seat)
        if self.out_lead and not deck:
            v += self.out_lead * _sign(s_me - s_opp)
        if self.wins:
            v += self.wins * (g.wins[me] - g.wins[opp])
        return v

    def features(self, g: State, me: int) -> list[float]:
        """Every feature of the position from `me`'s side, in `names` order (for fitting)."""
        return extract(g, me, self.names, self.horizon)


def _per_card(w: dict[str, float], prefix: str) -> list[float]:
    return [w.get(prefix + RANK_OF[c], 0.0) for c in range(CARD_COUNT)] + [0.0]


def _scores(g: State, me: int) -> tuple[int, int, int, int]:
    rules = g.rules
    pg = points_goal_function(rules)
    if pg is not None:
        s_me, goal_me = pg(g, me)
        s_opp, goal_opp = pg(g, 1 - me)
    else:
        s_me, goal_me = rules.score_of(g, me), rules.goal_of(g, me)
        s_opp, goal_opp = rules.score_of(g, 1 - me), rules.goal_of(g, 1 - me)
    return s_me, goal_me, s_opp, goal_opp


def _next_to_draw(g: State) -> int:
    """Who draws next: the turn's player before their action, else the other player."""
    p = g.pending
    return g.turn if p is not None and p.kind == MAIN and p.player == g.turn else 1 - g.turn


def _counter(g: State, name: str, of: str, me: int) -> int:
    """Counter `name`: mine less the opponent's (a card counter summed over each side's field)."""
    now = g.turn_no

    def read(key: int) -> int:
        v = g.counters.get((key, name))
        return v[0] if v is not None and now <= v[1] else 0

    if of == "player":
        return read(-1 - me) - read(-1 - (1 - me))
    return sum(read(c) for c in g.zones[FIELD0 + me]) - sum(read(c) for c in g.zones[FIELD0 + 1 - me])


def _mark(g: State, name: str, me: int) -> int:
    """Mark `name`: on me less on the opponent, plus my marked cards (hand and field) less theirs."""
    opp = 1 - me
    n = int(g.is_marked(-1 - me, name)) - int(g.is_marked(-1 - opp, name))
    for p, sign in ((me, 1), (opp, -1)):
        for z in (HAND0 + p, FIELD0 + p):
            n += sign * sum(1 for c in g.zones[z] if g.is_marked(c, name))
    return n


def extract(g: State, me: int, names: Sequence[str], horizon: int) -> list[float]:
    """The features `names` of a position from `me`'s side: the plain definitions, written for
    reading (the tests hold `Linear.value` to them)."""
    opp = 1 - me
    rules = g.rules
    s_me, goal_me, s_opp, goal_opp = _scores(g, me)
    need_me, need_opp = max(goal_me - s_me, 0), max(goal_opp - s_opp, 0)
    hands = {me: g.zones[HAND0 + me], opp: g.zones[HAND0 + opp]}
    fields = {me: g.zones[FIELD0 + me], opp: g.zones[FIELD0 + opp]}

    def ranks_in(cards: list[int], rank: str, *, off_points: bool = False) -> int:
        return sum(1 for c in cards if RANK_OF[c] == rank and not (off_points and g.role[c] == "point"))

    deck = g.zones[DECK]
    top = deck[-1] if deck and g.known & card_bits(deck[-1]) else None
    top_sign = 1 if _next_to_draw(g) == me else -1
    late = min(g.turn_no / max(1, horizon), 1.0)
    lead = s_me - s_opp
    out: list[float] = []
    for n in names:
        kind, _, arg = n.partition(":")
        if n == "need":
            x: float = need_opp - need_me
        elif n == "urgency":
            x = 1.0 / (need_me + 1) - 1.0 / (need_opp + 1)
        elif n == "hand":
            x = len(hands[me]) - len(hands[opp])
        elif n == "in_play":
            x = sum(1 for c in fields[me] if g.host[c] < 0 and g.role[c] != "point") - sum(
                1 for c in fields[opp] if g.host[c] < 0 and g.role[c] != "point"
            )
        elif n == "sees":
            x = int(bool(rules.hand_visible(g, me))) - int(bool(rules.hand_visible(g, opp)))
        elif n == "move":
            x = 0 if g.pending is None else 1 if g.pending.player == me else -1
        elif kind == "hand":
            x = ranks_in(hands[me], arg) - ranks_in(hands[opp], arg)
        elif kind == "play":
            x = ranks_in(fields[me], arg, off_points=True) - ranks_in(fields[opp], arg, off_points=True)
        elif kind == "top":
            x = top_sign if top is not None and RANK_OF[top] == arg else 0
        elif kind == "counter":
            x = _counter(g, arg, rules.counters[arg], me)
        elif kind == "mark":
            x = _mark(g, arg, me)
        elif n == "late:lead":
            x = late * _sign(lead)
        elif n == "late:points":
            x = late * lead
        elif n == "late:seat":
            x = late * (1 if g.first_player() == me else -1)
        elif n == "out:lead":
            x = 0 if deck else _sign(lead)
        elif n == "wins":
            x = g.wins[me] - g.wins[opp]
        else:
            raise KeyError(n)
        out.append(float(x))
    return out


def hand_set(rules: Rules) -> Linear:
    """The hand-set evaluation (today's `sharp`) as a linear evaluation of this ruleset."""
    card_values(rules)  # (kept in the rules' cache, as the hand-set player does)
    return Linear(rules, HAND_SET, horizon=1)
