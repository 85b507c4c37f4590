"""Determinization: a copy of the game in which every card a player does not know is dealt again.

A player searching a position of a hidden-information game may use only what it knows. Each
sample keeps every public fact of the state (fields, scrap, revealed cards, the size of every zone),
the player's own hand, and every hidden card the player knows where it is (engine/knowledge.py: a
card both saw go onto the deck, a card shown to them, the top cards or the hand a visibility rule
shows them), and re-deals the *set* of the other hidden cards — in the deck and the opponent's hand —
at random into the places they leave. What the opponent knows stays attached to the places: if the
opponent knows the card second from the top, in each sample they know whichever card is dealt there.
The game's own generator (which would tell future shuffles and random choices) is replaced by one
drawn from the player's generator. Only the sorted set of unknown cards and their places are read,
so the samples do not depend on where the hidden cards really are.
"""

from __future__ import annotations

import random

from interpreter.core.zones import FIELDS, HANDS, IS_FIELD
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
    if state.down:  # (one not attached to another card or carrying one: those stay where they are)
        places += [
            (FIELDS[p], i)
            for p in range(len(state.fv))
            for i, c in enumerate(state.zones[FIELDS[p]])
            if state.down >> c & 1 and not knows(state, me, c) and state.host[c] < 0 and not state.atts.get(c)
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

    __slots__ = ("state", "places", "cards", "held", "known", "down", "in_play")

    in_play: list[tuple[str | None, int] | None] | None

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
        # a place face down in play: its role and owner, which the card dealt there takes
        in_play = [(state.role[zs[z][i]], state.owner[zs[z][i]]) if IS_FIELD[z] else None for z, i in self.places]
        self.in_play = in_play if any(in_play) else None  # (None: no card face down is dealt again)

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
        if self.in_play is not None:  # cards face down in play dealt again: the places keep their roles
            down = self.down  # and owners, the cards dealt elsewhere have none
            for c, fact in zip(cards, self.in_play, strict=True):
                if fact is None:
                    g.role[c], g.owner[c] = None, -1
                else:
                    g.role[c], g.owner[c] = fact
                    down |= 1 << c
            g.down = down
        g.rng = Rng(rng.getrandbits(64))
        return g


def determinize(state: State, me: int, rng: random.Random, zones: list[int] | None = None) -> State:
    """A copy of `state` with the cards `me` does not know dealt again at random (see the module doc).
    `zones`: the zones to re-deal (default: `hidden_zones`). For many samples of one position, make a
    `Sampler` once."""
    return Sampler(state, me, zones).sample(rng)


def position_rng(kind: str, seed: int, state: State) -> random.Random:
    """A generator for one decision, from the player's seed and public counters only (so the same
    position and view give the same samples in any process)."""
    return random.Random(f"{kind}:{seed}:{state.turn_no}:{state.moves_made}:{len(state.hands)}")
