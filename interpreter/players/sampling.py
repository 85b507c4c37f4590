"""Determinization: a copy of the game in which every card a player cannot see is dealt again.

A player searching a position of a hidden-information game may use only what it sees. Each
sample keeps every public fact of the state (fields, scrap, revealed cards, the known cards on top
of the deck, the player's own hand, the size of every zone) and re-deals the *set* of cards the
player cannot see — the deck below its known top and, while it is hidden, the opponent's hand — at
random into those places. The game's own generator (which would tell future shuffles and random
choices) is replaced by one drawn from the player's generator. Only the sorted set of unseen cards
and the zone sizes are read, so the samples do not depend on where the hidden cards really are.
"""

from __future__ import annotations

import random

from interpreter.engine.state import DECK, HAND0, Rng, State


def hidden_zones(state: State, me: int) -> list[int]:
    """The zones whose order or contents `me` cannot see: the deck, and the opponent's hand while
    the ruleset's visibility rule hides it."""
    zones = [DECK]
    if not state.rules.hand_visible(state, me):
        zones.append(HAND0 + 1 - me)
    return zones


def unseen_cards(state: State, me: int) -> list[int]:
    """The cards `me` cannot see, sorted (the deck below its known top, a hidden opponent hand)."""
    out: list[int] = []
    for z in hidden_zones(state, me):
        cards = state.zones[z]
        if z == DECK and state.known_top:
            cards = cards[:len(cards) - state.known_top]
        out.extend(cards)
    return sorted(out)


def determinize(state: State, me: int, rng: random.Random, zones: list[int] | None = None) -> State:
    """A copy of `state` with the cards `me` cannot see dealt again at random (see the module doc).
    `zones` are the hidden zones if already known (`hidden_zones`)."""
    g = state.copy()
    if zones is None:
        zones = hidden_zones(state, me)
    deck = g.zones[DECK]
    known = deck[len(deck) - g.known_top:] if g.known_top else []  # public: stays on top
    g.zones[DECK] = deck[:len(deck) - len(known)]
    sizes = [len(g.zones[z]) for z in zones]
    unseen = sorted(c for z in zones for c in g.zones[z])
    rng.shuffle(unseen)
    i = 0
    for z, n in zip(zones, sizes, strict=True):
        part = unseen[i:i + n]
        g.zones[z] = part
        for c in part:
            g.zone_of[c] = z
        i += n
    g.zones[DECK].extend(known)
    g.rng = Rng(rng.getrandbits(64))
    return g


def position_rng(kind: str, seed: int, state: State) -> random.Random:
    """A generator for one decision, from the player's seed and public counters only (so the same
    position and view give the same samples in any process)."""
    return random.Random(f"{kind}:{seed}:{state.turn_no}:{state.moves_made}:{len(state.hands)}")
