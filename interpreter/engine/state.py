"""The mutable state of one game: zones, per-card facts, turn counters, the seeded generator.

Only generic operations live here (move a card, put it in play with a role, attach it, draw,
shuffle, mark). What the cards *do* is in the ruleset. `copy()` is the snapshot used for undo.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import CARD_COUNT, card_name
from interpreter.core.errors import RuleRuntimeError
from interpreter.core.limits import MAX_INT
from interpreter.core.zones import (
    CONTROLLER,
    DECK,
    DRAW,
    FIELD0,
    FIELD1,
    FIELDS,
    HAND0,
    HAND1,
    HANDS,
    IS_FIELD,
    IS_HAND,
    MAX_SEATS,
    RANDOM,
    SCRAP,
    SHOWN,
    STACK,
    ZONE_COUNT,
    ZONE_NAMES,
    zone_count,
)
from interpreter.language.compiler import FOREVER
from interpreter.language.runtime import VALUE

from .knowledge import seen_by_rule
from .legal import plays_for
from .outcome import Outcome, Termination

MASK = (1 << 64) - 1
_NO_LOG: dict[tuple[str, str], int] = {}  # every new state's log (never changed in place)


class Rng:
    """splitmix64: a tiny seeded generator whose whole state is one integer (cheap to snapshot,
    identical in every process)."""

    __slots__ = ("s",)

    def __init__(self, seed: int) -> None:
        self.s = seed & MASK

    def next(self) -> int:
        self.s = (self.s + _GAMMA) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates from the end, each index drawn as `below(i + 1)`. The generator's state is a
        counter (each draw adds the same constant), so the n draws of a long list are worked out at once:
        n 64-bit lanes of one big integer, 128 bits apart so that no product reaches the next lane, mixed
        by the same operations in step (`_Lanes`), then read out as one C call. The same numbers as
        drawing them one by one (tests/test_determinism.py), in about a third of the time."""
        n = len(items) - 1
        if n < _LANES_FROM:
            s = self.s
            for i in range(n, 0, -1):
                s = (s + _GAMMA) & MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
                j = (z ^ (z >> 31)) % (i + 1)
                items[i], items[j] = items[j], items[i]
            self.s = s
            return
        lanes = _LANES.get(n) or _lanes(n)
        m = lanes.mask
        x = (self.s * lanes.ones + lanes.steps) & m
        x = ((x ^ ((x >> 30) & m)) * 0xBF58476D1CE4E5B9) & m
        x = ((x ^ ((x >> 27) & m)) * 0x94D049BB133111EB) & m
        zs = lanes.read(x ^ ((x >> 31) & m))
        for i, z in zip(range(n, 0, -1), zs, strict=True):
            j = z % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.s = (self.s + n * _GAMMA) & MASK


_GAMMA = 0x9E3779B97F4A7C15  # what each draw adds to the state
_LANES_FROM = 6  # shorter lists are shuffled draw by draw (the lanes cost more than they save)


class _Lanes:
    """For drawing n numbers at once: lane k (bits 128k to 128k+63) holds the state after k + 1 draws."""

    __slots__ = ("ones", "steps", "mask", "read")

    def __init__(self, n: int) -> None:
        self.ones = sum(1 << (128 * k) for k in range(n))
        self.steps = sum((((k + 1) * _GAMMA) & MASK) << (128 * k) for k in range(n))
        self.mask = MASK * self.ones  # the low 64 bits of every lane
        unpack = struct.Struct(f"<{2 * n}Q").unpack  # each lane as two 64-bit words, low word first
        size = 16 * n
        self.read = lambda x: unpack(x.to_bytes(size, "little"))[::2]


_LANES: dict[int, _Lanes] = {}


def _lanes(n: int) -> _Lanes:
    lanes = _Lanes(n)
    if n <= 4 * CARD_COUNT:  # a list of cards: kept for the next shuffle of that length (bounded)
        _LANES[n] = lanes
    return lanes


_new = object.__new__  # an instance without running __init__ (copy() fills every slot)

# Per zone number (and -1, no zone): whether it is a field (a card there is in play), and whose hand
# or field it is.
_IN_PLAY = IS_FIELD
# Knowledge (engine/knowledge.py): the hidden zones, and who knows a card that leaves a zone for a
# hidden one: both players from a public zone, the holder from a hand, nobody new from the deck.
# the zones where a card has left play: it loses the value an effect gave it (the stack does not: a
# card played from the field, or moved between the fields through it, is still on its way into play)
_FORGETS = tuple(z in (DECK, SCRAP, SHOWN) or IS_HAND[z] for z in range(ZONE_COUNT)) + (False,)
_HIDDEN = tuple(z == DECK or IS_HAND[z] for z in range(ZONE_COUNT)) + (False,)
_CONTROLLER = CONTROLLER
# Knowledge bits (engine/knowledge.py): four per card, bit `4*card + p` for seat p (KNOWN_SHIFT, ALL_SEATS).
# Who knows a card that leaves a zone for a hidden one: every seat from a public zone, the holder from a
# hand, nobody new from the deck; by the number of seats, then zone number (and -1).
_SEEN_FROM = tuple(
    tuple(0 if z == DECK else 1 << CONTROLLER[z] if IS_HAND[z] else (1 << n) - 1 for z in range(ZONE_COUNT)) + (0,)
    for n in range(MAX_SEATS + 1)
)


class State:
    """Everything that changes during a game. Plain lists and ints, so a snapshot is a copy."""

    __slots__ = (
        "rules",
        "zones",
        "zone_of",
        "role",
        "owner",
        "host",
        "atts",
        "marks",
        "turn",
        "turn_no",
        "passes",
        "passed",
        "winner",
        "outcome",
        "frames",
        "pending",
        "chain",
        "rng",
        "moves_made",
        "acted",
        "fv",
        "checked_fv",
        "pg",
        "actions",
        "wins",
        "hands",
        "hand_over",
        "known",
        "cur",
        "counters",
        "log",
        "last_seats",
        "down",
        "first",
    )

    def __init__(self, rules: Any, seed: int) -> None:
        self.rules = rules
        seats = getattr(rules, "seats", 2)
        # the eight zones of core.zones, and in a game of more seats the hands and fields of p3 and p4
        self.zones: list[list[int]] = [[] for _ in range(zone_count(seats))]
        # per card, and one slot more at the end: `none` (card -1) is in no zone, has no role, no owner
        # and no host, so a rule reading `target.owner` with no target reads nobody (never another card)
        self.zone_of: list[int] = [-1] * (CARD_COUNT + 1)
        self.role: list[str | None] = [None] * (CARD_COUNT + 1)
        self.owner: list[int] = [-1] * (CARD_COUNT + 1)
        self.host: list[int] = [-1] * (CARD_COUNT + 1)
        self.atts: dict[int, list[int]] = {}
        # (card, or -1 - player; mark) -> the last turn number the mark lasts
        self.marks: dict[tuple[int, str], int] = {}
        self.turn = 0
        self.turn_no = 1
        self.passes = 0
        self.passed = False
        self.winner: int | None = None  # the winning seat, or DRAW, once the game is over
        self.outcome: Outcome | None = None  # how it ended (engine/outcome.py), once it is over
        self.frames: list[list[Any]] = []
        self.pending: Any = None
        self.chain: tuple[Any, ...] = ()
        self.rng = Rng(seed)
        self.moves_made = 0
        self.acted = False
        # each field's version, bumped whenever a card enters or leaves it (caches the win check)
        self.fv = [0] * seats
        self.checked_fv = [-1] * seats
        # each player's (field version, points, goal) as the generated win check (`won`, `win_in_place`)
        # last worked them out: when a ruleset's score and goal read only the player's own field, they
        # are p's now if pg[p][0] == fv[p] (what the lab records after each turn, without a call)
        self.pg: list[tuple[int, int, int]] = [(-1, 0, 0)] * seats
        self.actions: list[Any] | None = None  # the legal actions of a main decision, once enumerated
        # a match of several hands (`match.wins`): hands won by each seat, the outcome of each finished
        # hand, and of a hand that has just ended
        self.wins: tuple[int, ...] = (0,) * seats
        self.hands: tuple[Outcome, ...] = ()
        self.hand_over: Outcome | None = None
        # who knows where each hidden card is: bit 4*card + p for seat p (engine/knowledge.py)
        self.known = 0
        self.cur: dict[str, Any] | None = None  # the bindings of the program running (for EventState)
        # `counters:` (card, or -1 - player; name) -> (value, the last turn it lasts). Never changed in
        # place (a change makes a new dict), so a snapshot shares it.
        self.counters: dict[tuple[int, str], tuple[int, int]] = {}
        # what the game's history did that its position does not hold, for the lab (lab/columns.py):
        # (what, rule) -> times: ("trigger", NAME) each firing, ("counter", NAME) each change of a
        # counter's value, ("shown", RULE) each hidden card a `show` of that rule showed. Never changed
        # in place (a note makes a new dict), so a snapshot shares it; not part of the position's key.
        self.log: dict[tuple[str, str], int] = _NO_LOG
        # per card, its owner and controller when it last left play, as (owner + 1) * 5 + controller + 1
        # (0: nobody's, it has not left play this game or hand): last_owner_of, last_controller_of
        self.last_seats: list[int] = [0] * (CARD_COUNT + 1)
        # the cards face down in play (bit `card`): who knows each is in `known`, as for a hidden zone
        # (`move ... as ROLE face down`; engine/knowledge.py)
        self.down = 0
        # the player who moved first in this game (this hand of a match): the deal's first player, or
        # what a scenario's setup says (`first:`); the turns alternate from it
        self.first = 0

    # -- snapshot -------------------------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """A deep copy is the engine's own copy: the position copied, the rules and the program
        objects it points into (which the engine knows by identity) shared."""
        return self.copy()

    def copy(self) -> State:
        s = _new(self.__class__)
        s.rules = self.rules
        z = self.zones  # the eight zones of core.zones, copied one by one (no loop: copies are frequent)
        if len(z) == 8:
            s.zones = [z[0][:], z[1][:], z[2][:], z[3][:], z[4][:], z[5][:], z[6][:], z[7][:]]
        else:  # a game of more than two seats
            s.zones = [x[:] for x in z]
        s.zone_of = self.zone_of[:]
        s.role = self.role[:]
        s.owner = self.owner[:]
        s.host = self.host[:]
        s.atts = {k: v[:] for k, v in self.atts.items()} if self.atts else {}
        s.marks = self.marks.copy()
        s.turn, s.turn_no, s.passes, s.passed = self.turn, self.turn_no, self.passes, self.passed
        s.winner, s.outcome = self.winner, self.outcome
        s.frames = [[f[0], f[1], f[2].copy()] for f in self.frames] if self.frames else []
        s.pending, s.chain = self.pending, self.chain
        s.rng = rng = _new(Rng)
        rng.s = self.rng.s
        s.moves_made, s.acted = self.moves_made, self.acted
        s.fv, s.checked_fv, s.pg, s.actions = self.fv[:], self.checked_fv[:], self.pg[:], self.actions
        s.wins, s.hands, s.hand_over = self.wins, self.hands, self.hand_over
        s.known = self.known
        s.counters = self.counters
        s.log = self.log
        s.last_seats = self.last_seats[:]
        s.down, s.first = self.down, self.first
        return s

    # Slots that are not part of the position: the ruleset itself, and the legal actions of the pending
    # decision, a cache filled on demand (asking for the legal moves must not change the position).
    # `cur` is the bindings of the program running (read only by EventState, for what caused a move).
    # `log` is what the game's history did (for the lab's counts), not where it stands; `pg` is what
    # the win check worked out from the fields, a cache tagged with the field version it was read at.
    NOT_IN_KEY = frozenset({"rules", "actions", "cur", "log", "pg"})

    def key(self) -> tuple[Any, ...]:
        """Every slot but NOT_IN_KEY, for exact comparisons (undo, replay, an illegal move changing nothing).
        tests/test_conformance.py checks that a change to any other slot changes the key."""
        return (
            tuple(map(tuple, self.zones)),
            tuple(self.zone_of),
            tuple(self.role),
            tuple(self.owner),
            tuple(self.host),
            tuple(sorted((k, tuple(v)) for k, v in self.atts.items() if v)),
            tuple(sorted(self.marks.items())),
            self.turn,
            self.turn_no,
            self.passes,
            self.passed,
            self.winner,
            self.outcome,
            tuple((f[0], f[1], tuple(sorted(f[2].items()))) for f in self.frames),
            self.pending,
            self.chain,
            self.rng.s,
            self.moves_made,
            self.acted,
            tuple(self.fv),
            tuple(self.checked_fv),
            self.wins,
            self.hands,
            self.hand_over,
            self.known,
            tuple(sorted(self.counters.items())),
            tuple(self.last_seats),
            self.down,
            self.first,
        )

    # -- facts ----------------------------------------------------------------------------------

    def controller(self, card: int) -> int:
        return _CONTROLLER[self.zone_of[card]]

    def first_player(self) -> int:
        """The player who moved first in this game (this hand of a match): the turns go round from it."""
        return self.first

    def is_top(self, card: int) -> bool:
        h = self.host[card]
        return h >= 0 and self.atts[h][-1] == card

    def is_marked(self, card: int, name: str) -> bool:
        """Whether a card (or a player, given as -1 - player) carries this mark now."""
        m = self.marks.get((card, name))
        return m is not None and self.turn_no <= m

    def turns_of(self, player: int) -> int:
        """The turns `player` has had, the current one included (the turns go round from the deal)."""
        n = len(self.fv)  # (the seats)
        if n == 2:
            return (self.turn_no + 1) // 2 if player == self.first else self.turn_no // 2
        first_turn = (player - self.first) % n + 1  # the turn number of the player's first turn
        return 0 if self.turn_no < first_turn else (self.turn_no - first_turn) // n + 1

    # -- moving cards ---------------------------------------------------------------------------
    def _relocate(self, card: int, zone: int) -> None:
        src = self.zone_of[card]
        if self.counters and _FORGETS[zone]:
            self._forget_value(card)
        if _IN_PLAY[src]:
            self.fv[_CONTROLLER[src]] += 1
        if _IN_PLAY[zone]:
            self.fv[_CONTROLLER[zone]] += 1
        if self.known and not (self.down >> card & 1):  # into play: knowledge of a hidden place is over
            self.known &= ~(15 << (card << 2))  # (keeps equal positions equal); a face-down card keeps it
        self.zones[src].remove(card)
        self.zones[zone].append(card)
        self.zone_of[card] = zone

    def _detach(self, card: int) -> None:
        h = self.host[card]
        atts = self.atts[h]
        atts.remove(card)
        self.host[card] = -1
        controller = self.owner[atts[-1]] if atts else self.owner[h]
        if self.zone_of[h] != FIELDS[controller]:
            self._relocate(h, FIELDS[controller])

    def move(self, card: int, zone: int, bottom: bool = False) -> None:
        """Move a card. A card leaving play loses its role, owner and attachments (which go to scrap),
        and the value an effect gave it."""
        src = self.zone_of[card]
        face_down = 0  # whether it leaves play face down (read before `_leave_play` turns it up)
        if self.counters and _FORGETS[zone]:
            self._forget_value(card)
        if _IN_PLAY[src]:
            self.fv[_CONTROLLER[src]] += 1
            if not _IN_PLAY[zone]:
                atts = self.atts.pop(card, None)
                if atts:
                    for j in atts:
                        self.host[j] = -1
                        self._leave_play(j)
                        self._relocate(j, SCRAP)
                if self.host[card] >= 0:
                    self._detach(card)
                if self.down:
                    face_down = self.down >> card & 1
                self._leave_play(card)
        if _IN_PLAY[zone]:
            self.fv[_CONTROLLER[zone]] += 1
        if _HIDDEN[zone]:  # who knows where it goes (engine/knowledge.py)
            if not face_down:
                seen = _SEEN_FROM[len(self.fv)][src]
            else:  # a face-down card: whoever knew it, or saw it by a visibility rule
                seen = self.known >> (card << 2) & 15
                if self.rules.card_visible_fn is not None:
                    seen |= seen_by_rule(self, card)
            if _HIDDEN[src] and self.rules.watched[src]:
                seen |= seen_by_rule(self, card)
            if seen:
                self.known |= seen << (card << 2)
        elif self.known:  # into a public zone: what was known of its hidden place is over
            self.known &= ~(15 << (card << 2))
        self.zones[src].remove(card)
        if bottom:
            self.zones[zone].insert(0, card)
        else:
            self.zones[zone].append(card)
        self.zone_of[card] = zone

    def _leave_play(self, card: int) -> None:
        """A card leaves play (it is still in its field): it remembers its owner and controller; a card
        face down is face down no more."""
        self.last_seats[card] = (self.owner[card] + 1) * 5 + _CONTROLLER[self.zone_of[card]] + 1
        self.role[card] = None
        self.owner[card] = -1
        if self.down:
            self.down &= ~(1 << card)

    def _seen_leaving(self, card: int, src: int) -> int:
        """Who knows a card that leaves `src` for a hidden place (as bits): a face-down card, whoever
        knew it (engine/knowledge.py); any other, as `_SEEN_FROM` says."""
        if self.down >> card & 1:
            return self.known >> (card << 2) & 15
        return _SEEN_FROM[len(self.fv)][src]

    # -- cards face down in play (`move ... as ROLE face down`, `turn up`) ---------------------------
    def put_face_down(self, card: int, player: int, role: str | None, owner_sees: bool) -> None:
        """Put a card in play in front of `player` in `role`, face down: known to its owner (`player`)
        when `owner_sees`, and to whoever knew it where it came from (a hand's holder, everyone for a
        card from a public zone: they saw it go there), as a card going into a hidden place is."""
        src = self.zone_of[card]
        if self.down >> card & 1 or _HIDDEN[src]:
            seen = self.known >> (card << 2) & 15 | (_SEEN_FROM[len(self.fv)][src] if _HIDDEN[src] else 0)
            if self.rules.card_visible_fn is not None or _HIDDEN[src] and self.rules.watched[src]:
                seen |= seen_by_rule(self, card)
        else:
            seen = (1 << len(self.fv)) - 1  # from a public zone: everyone saw it go face down
        if owner_sees:
            seen |= 1 << player
        self.put_in_play(card, player, role)
        self.down |= 1 << card
        self.known = self.known & ~(15 << (card << 2)) | seen << (card << 2)
        self.fv[player] += 1

    def turn_up(self, card: int, rule: str = "") -> None:
        """`turn up`: a face-down card in play is face up, seen by both (noted in the log as `shown`
        by `rule`, as a `show` to both would be); a card that is not face down is left as it is."""
        if self.down >> card & 1:
            self.down &= ~(1 << card)
            self.known &= ~(15 << (card << 2))
            self.fv[_CONTROLLER[self.zone_of[card]]] += 1
            self.note("shown", rule or "turn up")

    def is_face_down(self, card: int) -> bool:
        """`CARD.face_down`: whether the card is face down in play."""
        return card >= 0 and bool(self.down >> card & 1)

    def last_owner_of(self, card: int) -> int:
        """`CARD.last_owner`: its owner while in play, else the owner it had when it last left play."""
        o = self.owner[card]
        return o if o >= 0 else self.last_seats[card] // 5 - 1

    def last_controller_of(self, card: int) -> int:
        """`CARD.last_controller`: the player whose field holds it, else the one whose field it last left."""
        z = self.zone_of[card]
        return _CONTROLLER[z] if _IN_PLAY[z] else self.last_seats[card] % 5 - 1

    def put_in_play(self, card: int, player: int, role: str | None) -> None:
        src = self.zone_of[card]
        if _IN_PLAY[src]:
            self.move(card, STACK)
            src = STACK
        # what `_relocate` does for a card that is not in play (written out: the commonest move of a play)
        self.fv[player] += 1
        if self.known:
            self.known &= ~(15 << (card << 2))
        self.zones[src].remove(card)
        field = FIELDS[player]
        self.zones[field].append(card)
        self.zone_of[card] = field
        self.role[card] = role
        self.owner[card] = player

    def attach(self, card: int, host: int, player: int, role: str) -> None:
        h = host
        while h >= 0:  # (a card on itself, or on a card that sits on it, would hold itself up)
            if h == card:
                raise RuleRuntimeError(
                    f"the rules attached {card_name(card)} to itself "
                    f"or to a card on it; the move is refused and the game unchanged"
                )
            h = self.host[h]
        if not _IN_PLAY[self.zone_of[host]]:  # (it would be in front of a player with no one's role)
            raise RuleRuntimeError(
                f"the rules attached {card_name(card)} to {card_name(host)}, which is not in play; "
                f"the move is refused and the game unchanged"
            )
        self.put_in_play(card, player, role)
        self.host[card] = host
        self.atts.setdefault(host, []).append(card)
        if self.zone_of[host] != FIELDS[player]:
            self._relocate(host, FIELDS[player])

    def draw(self, player: int, n: int) -> None:
        deck = self.zones[DECK]
        if n == 1 and deck and not self.rules.watched[DECK]:
            # the common case, as `move` does it: the top card to the hand (whoever knew it still does)
            card = deck.pop()
            if self.counters:
                self._forget_value(card)
            hand = HANDS[player]
            self.zones[hand].append(card)
            self.zone_of[card] = hand
            return
        for _ in range(min(n, len(deck))):
            self.move(deck[-1], HANDS[player])

    def shuffle_under(self, cards: tuple[int, ...]) -> None:
        """Shuffle only these cards (with the game's generator) and put them under the deck: the cards
        above them, and what both players know of the top, stay as they were."""
        pile = list(cards)
        self.rng.shuffle(pile)
        mask = 0
        for c in pile:
            self.move(c, DECK, bottom=True)
            mask |= 15 << (c << 2)
        if self.known:  # shuffled: nobody knows where these are (as `shuffle_deck` forgets)
            self.known &= ~mask

    def shuffle_deck(self) -> None:
        """Shuffle the deck: nobody knows where its cards are any more."""
        deck = self.zones[DECK]
        if self.known:
            mask = 0
            for c in deck:
                mask |= 15 << (c << 2)
            self.known &= ~mask
        self.rng.shuffle(deck)

    def show(self, card: int, players: int, rule: str = "") -> None:
        """`show`: the players (bits: 1 p1, 2 p2, 4 p3, 8 p4) learn where a hidden card is (or what a card
        face down in play is); `rule` (the rule whose `show` it is) is noted in the log."""
        if _HIDDEN[self.zone_of[card]] or self.down >> card & 1:
            self.known |= players << (card << 2)
            self.note("shown", rule or "show")

    def note(self, what: str, name: str, times: int = 1) -> None:
        """Count an event of the game's history in `log` (a new dict: snapshots share the old one)."""
        log = self.log.copy()
        log[(what, name)] = log.get((what, name), 0) + times
        self.log = log

    def swap_zones(self, a: int, b: int) -> None:
        self.fv = [v + 1 for v in self.fv]
        za, zb = self.zones[a], self.zones[b]
        for cards, src, dst in ((za, a, b), (zb, b, a)):  # knowledge, as `move` records it
            if _HIDDEN[dst]:
                for c in cards:
                    seen = self._seen_leaving(c, src) if self.down else _SEEN_FROM[len(self.fv)][src]
                    seen |= seen_by_rule(self, c) if _HIDDEN[src] and self.rules.watched[src] else 0
                    if self.down >> c & 1 and self.rules.card_visible_fn is not None:
                        seen |= seen_by_rule(self, c)
                    self.known |= seen << (c << 2)
            if self.down and _IN_PLAY[src] and not _IN_PLAY[dst]:  # out of play: face down no more
                for c in cards:
                    self.down &= ~(1 << c)
        if self.counters:  # the cards that leave play lose the values effects gave them
            for cards, dst in ((za, b), (zb, a)):
                if _FORGETS[dst]:
                    for c in cards:
                        self._forget_value(c)
        self.zones[a], self.zones[b] = zb, za
        for c in zb:
            self.zone_of[c] = a
        for c in za:
            self.zone_of[c] = b

    def can_play(self, player: int, cards) -> bool:
        """Whether `player` could play one of `cards` now (the effect language's `can_play`)."""
        return bool(plays_for(self, player, tuple(cards), free_ok=False))

    def mark(self, card: int, name: str, turns: int) -> None:
        """Mark a card (or a player, given as -1 - player) until the end of turn `turn_no + turns`; a
        card or player carries any number of marks at once."""
        self.marks[(card, name)] = self.turn_no + turns

    def unmark(self, card: int, name: str) -> None:
        self.marks.pop((card, name), None)

    # -- counters (a card's, or a player's given as -1 - player) ---------------------------------
    def counter(self, key: int, name: str) -> int:
        """A counter's value: 0 when it was never set or its turns are over."""
        e = self.counters.get((key, name))
        return e[0] if e is not None and self.turn_no <= e[1] else 0

    def set_counter(self, key: int, name: str, value: int, turns: int) -> None:
        if abs(value) > MAX_INT:
            raise RuleRuntimeError(f"the counter {name} would reach {value}, beyond the limit of {MAX_INT:.0e}")
        if value != self.counter(key, name):
            self.note("counter", name)
        self.counters = {**self.counters, (key, name): (value, self.turn_no + turns)}

    # -- a card's own value (`set X.value to N`), kept as its counter "value" --------------------
    def own_value(self, card: int) -> int | None:
        """The value an effect gave this card, while it lasts; None: its rank's (`values:`)."""
        e = self.counters.get((card, VALUE)) if card >= 0 else None
        return e[0] if e is not None and self.turn_no <= e[1] else None

    def add_value(self, card: int, delta: int, base: int) -> None:
        """`add N to X.value`: the card's value now (its own, or `base`, its rank's) and N, as its own."""
        e = self.counters.get((card, VALUE))
        if e is not None and self.turn_no <= e[1]:
            self.set_counter(card, VALUE, e[0] + delta, e[1] - self.turn_no)
        else:
            self.set_counter(card, VALUE, base + delta, FOREVER)

    def _forget_value(self, card: int) -> None:
        """A card that leaves play (to a hand, the deck, the scrap or the revealed cards) loses the
        value an effect gave it (checked only while some counter is set: `if self.counters`)."""
        if (card, VALUE) in self.counters:
            kept = dict(self.counters)
            del kept[(card, VALUE)]
            self.counters = kept

    def add_counter(self, key: int, name: str, delta: int) -> None:
        """Add to a counter; a counter that was not set (or is over) starts from 0 and lasts the game."""
        e = self.counters.get((key, name))
        if e is not None and self.turn_no <= e[1]:
            self.set_counter(key, name, e[0] + delta, e[1] - self.turn_no)
        else:
            self.set_counter(key, name, delta, FOREVER)

    def declare_winner(self, player: int, outcome: Outcome) -> None:
        """End the game (or, in a match, the hand: the engine then records it and deals the next):
        `player` the winning seat, `outcome` how it ended (its winner the same, None for a draw: the
        state's winner is then DRAW, whatever `player` says)."""
        if self.winner is None:
            self.winner = player if outcome.winner is not None else DRAW
            self.outcome = outcome
            if getattr(self.rules, "match_wins", 1) > 1:
                self.hand_over = outcome

    def win_by_rule(self, player: int, rule: str) -> None:
        """`win P` in the rule named `rule` ('' when not known): P wins the game at once (with their team,
        at a table with partners; `win nobody`, DRAW: the game ends in a draw)."""
        rules = self.rules
        side = rules.team_seats[player] if getattr(rules, "has_teams", False) and 0 <= player < rules.seats else ()
        self.declare_winner(player, Outcome(None if player == DRAW else player, Termination.RULE, rule, side=side))

    def clear(self) -> None:
        """Every card out of every zone and every per-card fact reset (before a new hand is dealt)."""
        for z in self.zones:
            z.clear()
        n = len(self.zone_of)
        self.zone_of = [-1] * n
        self.role = [None] * n
        self.owner = [-1] * n
        self.host = [-1] * n
        self.atts = {}
        self.marks = {}
        self.counters = {}
        self.last_seats = [0] * n
        self.passes, self.passed = 0, False
        self.frames, self.pending, self.chain, self.actions = [], None, (), None
        self.fv = [v + 1 for v in self.fv]
        self.checked_fv = [-1] * len(self.fv)
        self.known = 0
        self.down = 0


# -- the states of rulesets with triggers ----------------------------------------------------------

_ZONE_WORD = ("deck", "scrap", "hand", "hand", "field", "field", "shown", "stack", "hand", "hand", "field", "field")


class EventState(State):
    """The state of a game whose ruleset has triggers: it also holds the events that happened and
    whose triggers have not run yet (rules/triggers.py; the machine runs them). A ruleset without
    triggers plays with `State` and pays nothing for events."""

    __slots__ = ("events", "spent")

    def __init__(self, rules: Any, seed: int) -> None:
        super().__init__(rules, seed)
        self.events: list[tuple[Any, ...]] = []
        self.cur: dict[str, Any] | None = None
        self.spent = (-1, 0)  # (moves_made, work): what the triggers of that step have cost so far

    def copy(self) -> State:
        s = State.copy(self)
        s.events = self.events[:]  # type: ignore[attr-defined]
        s.spent = self.spent  # type: ignore[attr-defined]
        s.cur = self.cur
        return s

    def key(self) -> tuple[Any, ...]:
        return State.key(self) + (tuple(self.events),)

    def clear(self) -> None:
        State.clear(self)
        self.events = []


class MoveEventState(EventState):
    """An EventState whose ruleset listens to cards moving (`card leaves ZONE`, `card enters ZONE`):
    every move is queued as ("move", card, from, to, cause, countered, acting player)."""

    __slots__ = ()

    def _note(self, card: int, src: int, zone: int) -> None:
        cur = self.cur
        by = cur.get(" by") if cur else None
        cause, countered = by if by is not None else ("", False)
        me = cur.get("me", self.turn) if cur else self.turn
        self.events.append(("move", card, src, zone, cause, countered, me))

    def _relocate(self, card: int, zone: int) -> None:
        self._note(card, self.zone_of[card], zone)
        State._relocate(self, card, zone)

    def move(self, card: int, zone: int, bottom: bool = False) -> None:
        self._note(card, self.zone_of[card], zone)
        State.move(self, card, zone, bottom)

    def put_in_play(self, card: int, player: int, role: str | None) -> None:  # each move noted (by `_relocate`)
        if _IN_PLAY[self.zone_of[card]]:
            self.move(card, STACK)
        self._relocate(card, FIELDS[player])
        self.role[card] = role
        self.owner[card] = player

    def draw(self, player: int, n: int) -> None:
        deck = self.zones[DECK]
        for _ in range(min(n, len(deck))):
            self.move(deck[-1], HANDS[player])

    def swap_zones(self, a: int, b: int) -> None:
        for c in self.zones[a]:
            self._note(c, a, b)
        for c in self.zones[b]:
            self._note(c, b, a)
        State.swap_zones(self, a, b)


def zone_word(zone: int) -> str:
    """The word of a zone in a trigger's bindings (`from_zone`, `to_zone`): hand, field, deck..."""
    return _ZONE_WORD[zone] if 0 <= zone < len(_ZONE_WORD) else "nowhere"


def new_state(rules: Any, seed: int) -> State:
    """A new state of the class these rules need (State unless they have triggers, or count the work of
    their win checks: an EventState keeps the work of the move so far)."""
    if not getattr(rules, "triggers", ()) and not getattr(rules, "counts_wins", False):
        return State(rules, seed)
    return (MoveEventState if rules.trigger_moves else EventState)(rules, seed)


__all__ = [
    "State",
    "EventState",
    "MoveEventState",
    "new_state",
    "zone_word",
    "Rng",
    "DECK",
    "SCRAP",
    "HAND0",
    "HAND1",
    "FIELD0",
    "FIELD1",
    "SHOWN",
    "STACK",
    "ZONE_NAMES",
    "RANDOM",
    "DRAW",
]


if TYPE_CHECKING:
    from interpreter.language.protocol import ReferenceState

    def _a_state_is_what_rule_code_may_use(g: State) -> ReferenceState:
        """Never run: mypy checks here that the engine's state offers every operation, with its types,
        that language/protocol.py declares generated code and the reference evaluator may use."""
        return g

    def _so_is_an_event_state(g: EventState) -> ReferenceState:
        return g
