"""A plain hand-written engine for the default Cuttle rules (no rules-as-data).

It exists for two reasons:

1. Differential testing (`tests/test_differential.py`): it follows the same decision protocol as the
   interpreter running `rulesets/default.yaml` (same seeded deal, same decisions, same move texts),
   but every rule is written out by hand from the rules text (`shared/seeds/000`, main rules) and the
   rulings of SPEC.md, so the two can be compared move by move.
2. A speed baseline: `python -m benchmarks.handwritten --games 2000` runs random playouts and prints
   games/s and decisions/s (median of 5 runs), for comparison with `cuttle bench`.

Cards are the interpreter's ids (`interpreter.cards`): id = rank_index * 4 + suit_index, ranks
A,2..10,J,Q,K and suits C<D<H<S. So for two point cards (A-10), "a outranks b" (by value, then suit)
is simply a > b. Moves are small tuples: (code, card, target) or (PICK, cards).

The protocol, as in the interpreter:
- deal: `Rng(seed)` shuffles the 52 cards sorted by id; p1 draws 5 from the end (the top), p2 6;
  p1 moves first.
- main decision: `draw` (deck not empty) or `pass` (deck empty), and every play of a card in hand.
- a one-off, a Royal (K, Q, glasses 8) or a Jack whose player has no Queen: the opponent always gets
  a respond decision (`counter 2X Y` for each 2 and each other card, or `resolve`); a counter by a
  player without a Queen opens a window for the other player, and so on (rulings 3, 4). The play
  takes effect iff an even number of counters were played.
- choices inside effects are decisions: `take` (3), `discard` (4, by the opponent, min(2, hand)),
  `discard` (5, one card if the hand is not empty, then draw 3), `scrap` (7 when neither revealed
  card can be played), and the hand limit's `discard` at the end of the acting player's action.
- 7: reveal up to 2; the player chooses any play a revealed card could make from hand, judged where
  that play will start: the other card back on top of the deck, the 7 not yet in the scrap (ruling
  16); then the other goes back on top and the chosen play starts (it can be countered); the 7 goes
  to the scrap once that play has resolved.
- the win is checked after every resolved play and at the end of each turn, turn player first;
  three passes in a row end the game on points (equal points: a draw).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import combinations

from interpreter.core.cards import NAMES
from interpreter.engine.state import Rng

# rank index of a card: 0 = A, 1 = 2, ..., 9 = 10, 10 = J, 11 = Q, 12 = K
R_A, R_2, R_3, R_4, R_5, R_6, R_7, R_8, R_9, R_10, R_J, R_Q, R_K = range(13)
VAL = [(c >> 2) + 1 if (c >> 2) <= R_10 else 0 for c in range(52)]
GOALS = (21, 14, 10, 5, 0)
HAND_LIMIT = 8
DRAWN = 2  # winner value of a drawn game (the interpreter's DRAW is -3: tests/test_differential.py maps both)

# move codes
DRAW, PASS, POINTS, SCUTTLE, ROYAL, GLASSES, JACK, ONEOFF, COUNTER, RESOLVE, PICK = range(11)
VERBS = ("draw", "pass", "points", "scuttle", "royal", "glasses", "jack", "oneoff", "counter", "resolve")
DRAW_MOVE = (DRAW, -1, -1)
PASS_MOVE = (PASS, -1, -1)
RESOLVE_MOVE = (RESOLVE, -1, -1)

# phases (the kind of the pending decision)
MAIN, RESPOND, SEVEN, TAKE, DISCARD4, DISCARD5, SCRAP7, LIMIT, OVER = range(9)
PICK_VERB = {TAKE: "take", DISCARD4: "discard", DISCARD5: "discard", SCRAP7: "scrap", LIMIT: "discard"}

MAX_DECISIONS = 20000


class Cuttle:
    """One game of default Cuttle. Plain lists and ints.

    pts[p]   point cards p controls (a stolen card sits with its controller)
    roy[p]   p's Kings, Queens and glasses 8s
    jk       point card -> its Jacks, bottom to top
    own[c]   who put card c in play (a point card's owner, a Jack's player)
    """

    __slots__ = (
        "deck",
        "scrap",
        "hands",
        "pts",
        "roy",
        "jk",
        "own",
        "turn",
        "phase",
        "dp",
        "winner",
        "passes",
        "passed",
        "ch",
        "ncounters",
        "npick",
        "options",
        "shown",
        "sevens",
    )

    def __init__(self, seed: int) -> None:
        deck = list(range(52))
        Rng(seed).shuffle(deck)
        h0 = [deck.pop() for _ in range(5)]
        h1 = [deck.pop() for _ in range(6)]
        self.deck = deck
        self.scrap: list[int] = []
        self.hands = [h0, h1]
        self.pts: list[list[int]] = [[], []]
        self.roy: list[list[int]] = [[], []]
        self.jk: dict[int, list[int]] = {}
        self.own = [-1] * 52
        self.turn = 0
        self.phase = MAIN
        self.dp = 0  # who decides now
        self.winner: int | None = None
        self.passes = 0
        self.passed = False
        self.ch = (DRAW, -1, -1)  # the play being resolved: (code, card, target)
        self.ncounters = 0
        self.npick = 0  # pick phases: how many cards to choose ...
        self.options: list[int] = []  # ... from these (sorted by id)
        self.shown: list[int] = []  # a 7's revealed cards
        self.sevens: list[int] = []  # 7s whose chosen play is resolving (they go to the scrap after it)

    # -- facts ----------------------------------------------------------------------------------
    def score(self, p: int) -> int:
        return sum([VAL[c] for c in self.pts[p]])

    def goal(self, p: int) -> int:
        return GOALS[sum([1 for c in self.roy[p] if c >> 2 == R_K])]

    def queens(self, p: int) -> int:
        return sum([1 for c in self.roy[p] if c >> 2 == R_Q])

    # -- legal moves ----------------------------------------------------------------------------
    def legal(self) -> list[tuple]:
        ph = self.phase
        if ph == MAIN:
            p = self.turn
            out = [DRAW_MOVE if self.deck else PASS_MOVE]
            self._plays(p, self.hands[p], out)
            return out
        if ph == RESPOND:
            hand = self.hands[self.dp]
            out = [(COUNTER, c, x) for c in hand if c >> 2 == R_2 for x in hand if x != c]
            out.append(RESOLVE_MOVE)
            return out
        if ph == SEVEN:
            return self._seven_plays(self.turn)
        if ph == OVER:
            return []
        if self.npick == 1:
            return [(PICK, (c,)) for c in self.options]
        return [(PICK, cs) for cs in combinations(self.options, self.npick)]

    def _seven_plays(self, p: int) -> list:
        """The plays of a 7's revealed cards, each judged where it will start: the other revealed card
        back on top of the deck (the 7 is not in the scrap until the chosen play has resolved)."""
        out: list = []
        shown, deck = self.shown, self.deck
        for c in list(shown):
            others = [x for x in shown if x != c]
            deck.extend(others)
            self._plays(p, [c], out)
            del deck[len(deck) - len(others) :]
        return out

    def _plays(self, p: int, cards: list[int], out: list) -> None:
        """Every play by p of one of `cards` (from hand, or revealed by a 7)."""
        opp = 1 - p
        opts = self.pts[opp]
        oroy = self.roy[opp]
        oq = 0
        for x in oroy:
            if x >> 2 == R_Q:
                oq += 1
        add = out.append
        for c in cards:
            r = c >> 2
            if r <= R_10:
                add((POINTS, c, -1))
                for t in opts:
                    if t < c:  # outranks: higher value, or same value and higher suit
                        add((SCUTTLE, c, t))
                if r == R_A or r == R_6:
                    add((ONEOFF, c, -1))
                elif r == R_2 or r == R_9:
                    # a Queen protects her side's other cards; one Queen can still be hit herself
                    if oq == 0:
                        for t in oroy:
                            add((ONEOFF, c, t))
                        if r == R_2:
                            jk = self.jk
                            for t in opts:
                                js = jk.get(t)
                                if js:
                                    add((ONEOFF, c, js[-1]))
                        else:
                            for t in opts:
                                add((ONEOFF, c, t))
                    elif oq == 1:
                        for t in oroy:
                            if t >> 2 == R_Q:
                                add((ONEOFF, c, t))
                elif r == R_3:
                    for x in self.scrap:
                        if x >> 2 != R_3:
                            add((ONEOFF, c, -1))
                            break
                elif r == R_4:
                    if self.hands[opp]:
                        add((ONEOFF, c, -1))
                elif r == R_5 or r == R_7:
                    if self.deck:
                        add((ONEOFF, c, -1))
                elif r == R_8:
                    add((GLASSES, c, -1))
            elif r == R_J:
                if oq == 0:
                    for t in opts:
                        add((JACK, c, t))
            else:
                add((ROYAL, c, -1))

    # -- playing --------------------------------------------------------------------------------
    def apply(self, m: tuple) -> None:
        """Perform one legal move of the pending decision."""
        ph = self.phase
        code = m[0]
        if ph == MAIN:
            if code == DRAW:
                self.hands[self.turn].append(self.deck.pop())
                self._finish(False)
            elif code == PASS:
                self.passed = True
                self._finish(False)
            else:
                self.hands[self.turn].remove(m[1])
                self._start(code, m[1], m[2])
        elif ph == RESPOND:
            if code == RESOLVE:
                self._resolve()
            else:
                dp = self.dp
                h = self.hands[dp]
                h.remove(m[1])
                h.remove(m[2])
                self.scrap.append(m[1])
                self.scrap.append(m[2])
                self.ncounters += 1
                if self.queens(dp):  # a counter by a player with a Queen cannot be countered
                    self._resolve()
                else:
                    self.dp = 1 - dp
        elif ph == SEVEN:
            c = m[1]
            shown = self.shown
            shown.remove(c)
            self.deck.extend(shown)  # the other card goes back on top
            shown.clear()
            self.sevens.append(self.ch[1])  # the 7 waits for the chosen play (ruling 16)
            self._start(code, c, m[2])
        else:
            self._pick(ph, m[1])

    def _start(self, code: int, c: int, t: int) -> None:
        """A card has been played (it is on the stack): open a response window or take effect."""
        if code >= ROYAL and not self.queens(self.turn):
            self.ch = (code, c, t)
            self.ncounters = 0
            self.phase = RESPOND
            self.dp = 1 - self.turn
        else:
            self._effect(code, c, t)

    def _resolve(self) -> None:
        code, c, t = self.ch
        if self.ncounters & 1:
            self.scrap.append(c)  # countered: to the scrap without effect
            self._finish(False)
        else:
            self._effect(code, c, t)

    def _effect(self, code: int, c: int, t: int) -> None:
        p = self.turn
        opp = 1 - p
        scrap = self.scrap
        if code == POINTS:
            self.pts[p].append(c)
            self.own[c] = p
        elif code == SCUTTLE:
            self._scrap_point(t)
            scrap.append(c)
        elif code == ROYAL or code == GLASSES:
            self.roy[p].append(c)
        elif code == JACK:
            self.pts[opp].remove(t)
            self.pts[p].append(t)
            js = self.jk.get(t)
            if js is None:
                self.jk[t] = [c]
            else:
                js.append(c)
            self.own[c] = p
        else:
            r = c >> 2
            if r == R_A:
                for side in (0, 1):
                    for x in self.pts[side]:
                        js = self.jk.pop(x, None)
                        if js:
                            scrap.extend(js)
                        scrap.append(x)
                    self.pts[side] = []
            elif r == R_2:
                if t in self.roy[opp]:
                    self.roy[opp].remove(t)
                    scrap.append(t)
                else:  # the top Jack on a card opp controls
                    for x in self.pts[opp]:
                        js = self.jk.get(x)
                        if js and js[-1] == t:
                            js.pop()
                            scrap.append(t)
                            self._recontrol(x, opp)
                            break
            elif r == R_3:
                opts = sorted([x for x in scrap if x >> 2 != R_3])
                if opts:
                    self.ch = (code, c, t)
                    self._ask(TAKE, p, 1, opts)
                    return
            elif r == R_4:
                h = self.hands[opp]
                if h:
                    self.ch = (code, c, t)
                    self._ask(DISCARD4, opp, min(2, len(h)), sorted(h))
                    return
            elif r == R_5:
                h = self.hands[p]
                if h:
                    self.ch = (code, c, t)
                    self._ask(DISCARD5, p, 1, sorted(h))
                    return
                self._draw(p, 3)
            elif r == R_6:
                jk, own, pts = self.jk, self.own, self.pts
                for x in jk:
                    scrap.extend(jk[x])
                jk.clear()
                allp = pts[0] + pts[1]
                pts[0] = [x for x in allp if own[x] == 0]
                pts[1] = [x for x in allp if own[x] == 1]
                for side in (0, 1):
                    scrap.extend(self.roy[side])
                    self.roy[side] = []
            elif r == R_7:
                deck, shown = self.deck, self.shown
                for _ in range(2):
                    if deck:
                        shown.append(deck.pop())
                if shown:
                    self.ch = (code, c, t)
                    if self._seven_plays(p):
                        self.phase = SEVEN
                        self.dp = p
                    else:  # neither can be played (only Jacks with nothing to steal)
                        self._ask(SCRAP7, p, 1, sorted(shown))
                    return
            elif r == R_9:
                if t in self.roy[opp]:
                    self.roy[opp].remove(t)
                    self.deck.append(t)
                else:
                    js = self.jk.get(t)
                    if js:  # only the top Jack goes; control passes back
                        self.deck.append(js.pop())
                        self._recontrol(t, opp)
                    else:
                        self.pts[opp].remove(t)
                        self.deck.append(t)
            scrap.append(c)
        self._finish()

    def _ask(self, phase: int, who: int, n: int, options: list[int]) -> None:
        self.phase = phase
        self.dp = who
        self.npick = n
        self.options = options

    def _pick(self, ph: int, cards: tuple) -> None:
        p = self.turn
        scrap = self.scrap
        if ph == LIMIT:
            h = self.hands[p]
            for x in cards:
                h.remove(x)
                scrap.append(x)
            self._next_turn()
            return
        if ph == TAKE:
            x = cards[0]
            scrap.remove(x)
            self.hands[p].append(x)
        elif ph == DISCARD4:
            h = self.hands[1 - p]
            for x in cards:
                h.remove(x)
                scrap.append(x)
        elif ph == DISCARD5:
            h = self.hands[p]
            for x in cards:
                h.remove(x)
                scrap.append(x)
            self._draw(p, 3)
        else:  # SCRAP7
            shown = self.shown
            for x in cards:
                shown.remove(x)
                scrap.append(x)
            self.deck.extend(shown)
            shown.clear()
        scrap.append(self.ch[1])  # the one-off itself
        self._finish()

    def _draw(self, p: int, n: int) -> None:
        deck, h = self.deck, self.hands[p]
        for _ in range(n):
            if not deck:
                break
            h.append(deck.pop())

    def _scrap_point(self, t: int) -> None:
        pts = self.pts
        if t in pts[0]:
            pts[0].remove(t)
        else:
            pts[1].remove(t)
        js = self.jk.pop(t, None)
        if js:
            self.scrap.extend(js)
        self.scrap.append(t)

    def _recontrol(self, x: int, holder: int) -> None:
        """After x lost its top Jack: the next Jack's player, or x's owner, controls it."""
        js = self.jk.get(x)
        if js:
            ctl = self.own[js[-1]]
        else:
            self.jk.pop(x, None)
            ctl = self.own[x]
        if ctl != holder:
            self.pts[holder].remove(x)
            self.pts[ctl].append(x)

    def _finish(self, changed: bool = True) -> None:
        """A play has resolved: check the win (only a change in play can make one: the last check
        saw every earlier change), then the hand limit, then the next turn. The chosen plays have
        resolved: their 7s go to the scrap, innermost first, also when the play won (ruling 20)."""
        if self.sevens:
            self.scrap.extend(reversed(self.sevens))
            self.sevens.clear()
        if changed and self._check_win():
            return
        h = self.hands[self.turn]
        if len(h) > HAND_LIMIT:
            self._ask(LIMIT, self.turn, len(h) - HAND_LIMIT, sorted(h))
            return
        self._next_turn()

    def _check_win(self) -> bool:
        t = self.turn
        pts, roy = self.pts, self.roy
        for p in (t, 1 - t):
            s = 0
            for c in pts[p]:
                s += VAL[c]
            k = 0
            for c in roy[p]:
                if c >= 48:  # a King
                    k += 1
            if s >= GOALS[k]:
                self.winner = p
                self.phase = OVER
                self.dp = -1
                return True
        return False

    def _next_turn(self) -> None:
        if self.passed:
            self.passes += 1
            self.passed = False
            if self.passes >= 3:
                a, b = self.score(0), self.score(1)
                self.winner = 0 if a > b else 1 if b > a else DRAWN
                self.phase = OVER
                self.dp = -1
                return
        else:
            self.passes = 0
        self.turn = t = 1 - self.turn
        self.phase = MAIN
        self.dp = t

    # -- text -----------------------------------------------------------------------------------
    def move_text(self, m: tuple) -> str:
        code = m[0]
        if code == PICK:
            return " ".join([PICK_VERB[self.phase]] + [NAMES[c] for c in m[1]])
        parts = [VERBS[code]]
        if m[1] >= 0:
            parts.append(NAMES[m[1]])
        if m[2] >= 0:
            parts.append(NAMES[m[2]])
        return " ".join(parts)


# ---- the speed baseline ----------------------------------------------------------------------------


def playout(seed: int, rnd: random.Random) -> int:
    """One random game from a seeded deal; returns the number of decisions made."""
    g = Cuttle(seed)
    n = 0
    randrange = rnd.randrange
    while g.winner is None and n < MAX_DECISIONS:
        acts = g.legal()
        g.apply(acts[randrange(len(acts))])
        n += 1
    return n


def bench(games: int = 2000, repeat: int = 5, seed: int = 0) -> dict:
    """As `cuttle bench`: the same seeds and generators per run, the median of `repeat` runs."""
    runs = []
    for r in range(repeat):
        rnd = random.Random(seed + r)
        t0 = time.perf_counter()
        decisions = sum(playout(seed + r * games + i, rnd) for i in range(games))
        dt = time.perf_counter() - t0
        runs.append((games / dt, decisions / dt, decisions / games))
    return {
        "games": games,
        "repeat": repeat,
        "games_per_s": statistics.median(r[0] for r in runs),
        "decisions_per_s": statistics.median(r[1] for r in runs),
        "decisions_per_game": statistics.median(r[2] for r in runs),
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.handwritten", description="random playouts of the hand-written default-rules engine"
    )
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    res = bench(a.games, a.repeat, a.seed)
    print(f"handwritten default: {res['games']} games x {res['repeat']} runs (median)")
    print(f"  games/s      {res['games_per_s']:,.1f}")
    print(f"  decisions/s  {res['decisions_per_s']:,.0f}")
    print(f"  decisions/game {res['decisions_per_game']:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
