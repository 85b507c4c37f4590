"""Determinization: a copy of the game in which every card a player does not know is dealt again.

A player searching a position of a hidden-information game may use only what it knows. Each
sample keeps every public fact of the state (fields, scrap, revealed cards, the size of every zone),
the player's own hand, and every hidden card the player knows where it is (engine/knowledge.py: a
card both saw go onto the deck, a card shown to them, the top cards or the hand a visibility rule
shows them), and re-deals the *set* of the other hidden cards — in the deck, the opponent's hand, and
face down in play — at random into the places they leave. What the opponent knows stays attached to
the places: if the opponent knows the card second from the top, in each sample they know whichever
card is dealt there; so does every other fact of a place (a face-down card's role, owner, Jacks and
host, marks and counters, where it last left play), which the card dealt there takes.
The game's own generator (which would tell future shuffles and random choices) is replaced by one
drawn from the player's generator. Only the sorted set of unknown cards and their places are read,
so the samples do not depend on where the hidden cards really are.
"""

from __future__ import annotations

import random

from interpreter.core.zones import FIELDS, HANDS
from interpreter.engine.knowledge import known_hidden, knows
from interpreter.engine.state import DECK, HAND0, Rng, State


def hidden_zones(state: State, me: int) -> list[int]:
    """The zones that may hold cards `me` does not know: the deck and every other player's hand."""
    seats = len(state.fv)
    if seats == 2:
        return [DECK, HAND0 + 1 - me]
    return [DECK] + [HANDS[p] for p in range(seats) if p != me]


def unseen_places(state: State, me: int, zones: list[int] | None = None, forget: bool = False) -> list[tuple[int, int]]:
    """(zone, index) of every card of `zones` (default: `hidden_zones`) that `me` does not know, and of
    every card face down in play that `me` does not know (a face-down card is an unseen card); with
    `forget`, of every card of `zones` (as if `me` knew none of them: a control for measuring what
    knowing them is worth)."""
    if forget:
        known: set[int] = set()
    elif len(state.fv) == 2:
        hand, deck = known_hidden(state, me)
        known = set(hand) | {c for _, c in deck}
    else:  # a larger table: each card of the hidden zones asked (every other player's hand)
        known = {c for z in hidden_zones(state, me) for c in state.zones[z] if knows(state, me, c)}
    places = [
        (z, i)
        for z in (hidden_zones(state, me) if zones is None else zones)
        for i, c in enumerate(state.zones[z])
        if c not in known
    ]
    if state.down:  # (one carrying a Jack, or carried, too: the place keeps its Jacks, its host)
        places += [
            (FIELDS[p], i)
            for p in range(len(state.fv))
            for i, c in enumerate(state.zones[FIELDS[p]])
            if state.down >> c & 1 and not knows(state, me, c)
        ]
    return places


def unseen_cards(state: State, me: int) -> list[int]:
    """The cards `me` does not know, sorted (in the deck, in a hidden opponent hand)."""
    return sorted(state.zones[z][i] for z, i in unseen_places(state, me))


class Sampler:
    """The determinizations of one position from one player's view. What they share — which places
    hold cards the player does not know, which cards those are, what the opponent knows of each
    place — is worked out once; each `sample(rng)` then costs a copy and a shuffle. (A search draws
    hundreds of samples of the same position: the per-card knowledge tests were a third of its time.)
    The samples are those `determinize` gives, for the same generator."""

    __slots__ = ("state", "places", "cards", "held", "known", "down", "old")

    #: the cards of the places in order, when a fact of the position is tied to one of them (a card
    #: face down in play, a Jack's host, a mark, a counter, where it last left play): the card dealt
    #: to a place then takes every fact of the card that was there; None: the plain copy suffices
    old: list[int] | None

    def __init__(self, state: State, me: int, zones: list[int] | None = None, forget: bool = False) -> None:
        self.state = state
        self.places = unseen_places(state, me, zones, forget)
        zs = state.zones
        self.cards = sorted(zs[z][i] for z, i in self.places)
        # the other players' knowledge bits (p1 = 1, p2 = 2, p3 = 4, p4 = 8): what they knew of each place
        others = ((1 << len(state.fv)) - 1) & ~(1 << me)
        known = state.known
        self.held = [known >> (zs[z][i] << 2) & others for z, i in self.places]  # theirs, by place
        down = state.down
        for c in self.cards:
            known &= ~(15 << (c << 2))
            down &= ~(1 << c)
        self.known = known  # with the re-dealt cards' bits cleared
        self.down = down  # and their face-down bits: set again for the places face down in play
        old = [zs[z][i] for z, i in self.places]
        self.old = old if _tied(state, old) else None

    def sample(self, rng: random.Random) -> State:
        """A copy of the position with the unknown cards dealt again at random (see the module doc)."""
        g = self.state.copy()
        cards = self.cards[:]
        rng.shuffle(cards)
        zones, zone_of = g.zones, g.zone_of
        known = self.known
        for (z, i), c, bit in zip(self.places, cards, self.held, strict=True):
            zones[z][i] = c
            zone_of[c] = z
            known |= bit << (c << 2)
        g.known = known
        if self.old is not None:
            _move_facts(self.state, g, dict(zip(self.old, cards, strict=True)), self.down)
        g.rng = Rng(rng.getrandbits(64))
        return g


def _tied(state: State, cards: list[int]) -> bool:
    """Whether a fact of the position is tied to one of `cards` (not only its place in a zone)."""
    down, host, atts, seats = state.down, state.host, state.atts, state.last_seats
    if any(down >> c & 1 or host[c] >= 0 or c in atts or seats[c] for c in cards):
        return True
    among = set(cards)
    return any(c in among for c, _ in state.marks) or any(c in among for c, _ in state.counters)


def _move_facts(state: State, g: State, dealt: dict[int, int], down: int) -> None:
    """In the sample `g`, each card dealt to a place (`dealt`: the card that was there -> the card
    dealt there) takes every fact of the card that was there: role, owner, face down, its host and its
    Jacks, marks, counters, where it last left play. The real card, dealt elsewhere, keeps none of
    them: a player cannot tell which card carries what it cannot see."""
    role, owner, host, seats = state.role, state.owner, state.host, state.last_seats
    for was, now in dealt.items():
        g.role[now], g.owner[now], g.last_seats[now] = role[was], owner[was], seats[was]
        g.host[now] = dealt.get(host[was], host[was])
        if state.down >> was & 1:
            down |= 1 << now
    g.down = down
    if state.atts:
        g.atts = {dealt.get(h, h): [dealt.get(j, j) for j in js] for h, js in state.atts.items()}
        for h, js in g.atts.items():
            for j in js:
                g.host[j] = h
    if state.marks:
        g.marks = {(dealt.get(c, c), name): turns for (c, name), turns in state.marks.items()}
    if state.counters:
        g.counters = {(dealt.get(c, c), name): value for (c, name), value in state.counters.items()}
    g.fv = [v + 1 for v in g.fv]  # the fields' caches (the win check's) and the legal moves read cards
    g.actions = None


def determinize(state: State, me: int, rng: random.Random, zones: list[int] | None = None) -> State:
    """A copy of `state` with the cards `me` does not know dealt again at random (see the module doc).
    `zones`: the zones to re-deal (default: `hidden_zones`). For many samples of one position, make a
    `Sampler` once."""
    return Sampler(state, me, zones).sample(rng)


def position_rng(kind: str, seed: int, state: State) -> random.Random:
    """A generator for one decision, from the player's seed and public counters only (so the same
    position and view give the same samples in any process)."""
    return random.Random(f"{kind}:{seed}:{state.turn_no}:{state.moves_made}:{len(state.hands)}")
