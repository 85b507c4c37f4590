"""What each player knows of the hidden cards: the deck and the hands (docs/effect-language.md,
"Knowledge").

Two sources, kept apart:

* **knowledge** — remembered facts, recorded as cards move (`State.known`, two bits per card: bit
  `2*card + p` says that player p knows where the card is while it sits in a hidden zone). A card
  that enters the deck or a hand from a public zone is known to both; one that leaves a hand for
  another hidden place is known to that hand's holder (and to whoever knew it already); a drawn
  card stays known to whoever knew it (its new holder sees it anyway); moving within the deck keeps
  knowledge; a shuffle forgets the positions of the shuffled cards; `show CARDS to P` teaches P.
* **visibility rules** — `visibility.hand`, `visibility.deck_top`, `visibility.card` of the
  ruleset, evaluated with `me` = the viewer. They show cards while they hold. A card a rule lets a
  player see, moved from there to another hidden place, is remembered by that player (they saw it
  go); a rule that stops holding shows nothing more, and is not remembered.

A player always sees their own hand and every public zone (fields, scrap, revealed cards, stack),
but for the cards **face down in play** (`State.down`, `move ... as ROLE face down`): each is hidden
as a card of a hidden zone is, known to whom the knowledge bits say (its owner, as the rule put it, and
whoever saw it go there or was shown it) or a `visibility.card` rule shows; `turn up` makes it public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.core.zones import DECK, FIELDS, HANDS, IS_HAND

if TYPE_CHECKING:
    from .state import State

BOTH = 3  # the knowledge bits of p1 and p2 (of every player in a two-seat game)
KNOWN_SHIFT = 2  # a card's knowledge bits start at bit `card << KNOWN_SHIFT` (four bits: one per seat)


def known_bit(card: int, player: int) -> int:
    """The bit of `State.known` saying that `player` knows where `card` is."""
    return 1 << ((card << KNOWN_SHIFT) + player)


def card_bits(card: int) -> int:
    """Every seat's knowledge bit of `card` (to forget where it is, for everyone)."""
    return 15 << (card << KNOWN_SHIFT)


def _env(g: State, viewer: int) -> dict[str, int]:
    """The bindings of `visibility.deck_top` and `visibility.card` for `viewer` (`opponent`: the viewer's
    first opponent; `visibility.hand`, which is about one hand, binds its holder: Rules.hand_visible)."""
    return {"me": viewer, "opponent": g.rules.opponent_of[viewer]}


def bit_known(g: State, player: int, card: int) -> bool:
    """Whether `player` remembers where `card` is (the knowledge bits only)."""
    return bool(g.known >> ((card << KNOWN_SHIFT) + player) & 1)


def deck_top_seen(g: State, viewer: int) -> int:
    """How many top cards of the deck `viewer` sees by `visibility.deck_top` (0 without the rule)."""
    fn = g.rules.deck_top_fn
    if fn is None:
        return 0
    n = fn(g, _env(g, viewer))
    return max(0, int(n))


def _card_rule(g: State, viewer: int, card: int) -> bool:
    fn = g.rules.card_visible_fn
    if fn is None:
        return False
    return bool(fn(g, {**_env(g, viewer), "it": card}))


def knows(g: State, viewer: int, card: int, top_seen: int | None = None) -> bool:
    """Whether `viewer` knows where `card` is and what it is, now. `top_seen`: `deck_top_seen` if
    the caller already has it."""
    z = g.zone_of[card]
    if z < 0:
        return False
    if z == HANDS[viewer] or not (z == DECK or IS_HAND[z]):
        if not (g.down >> card & 1):
            return True  # their own hand, or a public zone
        # face down in play: known to whoever saw it go there or was shown it, or by `visibility.card`
        return bool(g.known >> ((card << KNOWN_SHIFT) + viewer) & 1) or _card_rule(g, viewer, card)
    if g.known >> ((card << KNOWN_SHIFT) + viewer) & 1:
        return True
    if z == DECK:
        deck = g.zones[DECK]
        n = deck_top_seen(g, viewer) if top_seen is None else top_seen
        if n and len(deck) - 1 - deck.index(card) < n:
            return True
    elif g.rules.hand_visible(g, viewer, HANDS.index(z)):
        return True
    return _card_rule(g, viewer, card)


def known_hidden(g: State, viewer: int, holder: int | None = None) -> tuple[list[int], list[tuple[int, int]]]:
    """The hidden cards `viewer` knows: those of the hand of `holder` (the opponent in a two-seat game;
    with more seats, each other player's: ask for each), in hand order, and those of the deck as
    (position from the top, card), top first."""
    other = (1 - viewer if g.rules.seats == 2 else g.rules.opponent_of[viewer]) if holder is None else holder
    opp = g.zones[HANDS[other]]
    visible = bool(opp) and g.rules.hand_visible(g, viewer, other)
    hand = list(opp) if visible else [c for c in opp if knows(g, viewer, c)]
    deck = g.zones[DECK]
    n = deck_top_seen(g, viewer) if deck else 0
    top = len(deck) - 1
    in_deck = [(top - i, c) for i, c in enumerate(deck) if knows(g, viewer, c, n)]
    in_deck.reverse()
    return hand, in_deck


def face_down(g: State, player: int) -> list[int]:
    """The cards face down in play in front of `player`, in the order they arrived there."""
    if not g.down:
        return []
    return [c for c in g.zones[FIELDS[player]] if g.down >> c & 1]


def unknown_cards(g: State, viewer: int) -> list[int]:
    """The hidden cards `viewer` does not know (the deck, every other player's hand, the cards face down
    in play), sorted."""
    seats = g.rules.seats
    down = [c for p in range(seats) for c in face_down(g, p) if not knows(g, viewer, c)]
    if seats == 2:
        hand, deck = known_hidden(g, viewer)
        seen = set(hand) | {c for _, c in deck}
        return sorted([c for z in (DECK, HANDS[1 - viewer]) for c in g.zones[z] if c not in seen] + down)
    top = deck_top_seen(g, viewer) if g.zones[DECK] else 0
    zones = [DECK] + [HANDS[p] for p in range(seats) if p != viewer]
    return sorted([c for z in zones for c in g.zones[z] if not knows(g, viewer, c, top)] + down)


def seen_by_rule(g: State, card: int) -> int:
    """The players who see `card` where it is now (a hidden zone, or face down in play) by a visibility
    rule, as bits: what they remember when it moves on to another hidden place."""
    z = g.zone_of[card]
    bits = 0
    for viewer in range(g.rules.seats):
        if z == HANDS[viewer]:
            continue
        if not (z == DECK or IS_HAND[z]):  # face down in play: only `visibility.card`
            if _card_rule(g, viewer, card):
                bits |= 1 << viewer
        elif z == DECK:
            deck = g.zones[DECK]
            n = deck_top_seen(g, viewer)
            if n and len(deck) - 1 - deck.index(card) < n or _card_rule(g, viewer, card):
                bits |= 1 << viewer
        elif g.rules.hand_visible(g, viewer, HANDS.index(z)) or _card_rule(g, viewer, card):
            bits |= 1 << viewer
    return bits


__all__ = [
    "BOTH",
    "KNOWN_SHIFT",
    "known_bit",
    "card_bits",
    "bit_known",
    "deck_top_seen",
    "face_down",
    "knows",
    "known_hidden",
    "unknown_cards",
    "seen_by_rule",
]
