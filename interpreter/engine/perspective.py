"""Building what one player may see of a game (`Game.view`): the frozen values of view.py, filled from
the state so that nothing hidden from the player leaks.

Every other player is shown from the viewer's seat, clockwise (`View.others`): their side of the table,
their hand when a rule shows it (else its size and the cards of it the viewer knows), and what they know
of the viewer's hidden cards. The `opponent...` fields are the first opponent's, which in a two-seat
game is the other player, as they always were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import NAMES
from interpreter.core.zones import DECK, FIELDS, HANDS, SCRAP, SHOWN, STACK

from .decision import Decision
from .knowledge import face_down, known_hidden, knows
from .moves import Move
from .seating import names_player
from .view import (
    DecisionView,
    FaceDownView,
    HandResult,
    KnownToOpponent,
    MatchView,
    PointView,
    SeatView,
    SideView,
    View,
)

if TYPE_CHECKING:
    from .game import Game
    from .state import State

PLAYER_NAMES = ("p1", "p2", "p3", "p4")


def view_of(game: Game, player: int) -> View:
    """What `player` may see now (see the module doc)."""
    g, rules = game.state, game.rules
    opp = rules.opponent_of[player]
    others = tuple(_seat(game, player, o) for o in rules.order_from[player][1:])
    first = next(s for s in others if s.player == PLAYER_NAMES[opp])
    deck_known = known_hidden(g, player, opp)[1]
    top_run = 0
    while top_run < len(deck_known) and deck_known[top_run][0] == top_run:
        top_run += 1
    view = View(
        ruleset=rules.name,
        player=PLAYER_NAMES[player],
        turn=PLAYER_NAMES[g.turn],
        turn_number=g.turn_no,
        decision=None,
        hand=names(g.zones[HANDS[player]]),
        opponent_hand=first.hand,
        opponent_hand_count=first.hand_count,
        opponent_hand_known=first.hand_known,
        you=side(game, player, player),
        opponent=first.side,
        deck_count=len(g.zones[DECK]),
        deck_known=tuple((i, NAMES[c]) for i, c in deck_known),
        deck_top_known=tuple(NAMES[c] for _, c in deck_known[:top_run]),
        opponent_knows=first.knows,
        scrap=names(g.zones[SCRAP]),
        shown=names(g.zones[SHOWN]),
        stack=names(g.zones[STACK]),
        chain=tuple(str(chain_move(x, g)) for x in g.chain),
        passes=g.passes,
        outcome=str(game.outcome) if game.outcome else None,
        match=match_view(game) if rules.match_wins > 1 else None,
        others=others,
        chain_by=tuple(PLAYER_NAMES[x[1]] for x in g.chain),
    )
    d = g.pending
    if d is None:
        return view
    options = names(d.options)
    if d.player == player:
        decision = decision_view(d, options, rules.questions.get(d.verb) if d.ask else None)
        return view.replace(decision=decision, legal_moves=tuple(str(m) for m in game.legal_moves()))
    if options:  # another player's choice: only the options the rest of the view shows
        seen = seen_names(view)
        options = tuple(n for n in options if n in seen)
    return view.replace(decision=decision_view(d, options))


def _seat(game: Game, viewer: int, other: int) -> SeatView:
    """Player `other` as `viewer` sees them."""
    g, rules = game.state, game.rules
    hand = g.zones[HANDS[other]]
    visible = rules.hand_visible(g, viewer, other)
    known = known_hidden(g, viewer, other)[0]
    mine_known, deck_theirs = known_hidden(g, other, viewer)  # what they know of the viewer's cards
    mine_down = [c for c in face_down(g, viewer) if knows(g, other, c) and knows(g, viewer, c)]
    return SeatView(
        player=PLAYER_NAMES[other],
        partner=rules.teams[other] == rules.teams[viewer],
        side=side(game, other, viewer),
        hand=names(hand) if visible else None,
        hand_count=len(hand),
        hand_known=() if visible else names(known),
        knows=KnownToOpponent(names(mine_known), tuple(i for i, _ in deck_theirs), names(mine_down)),
    )


def side(game: Game, p: int, viewer: int) -> SideView:
    """Player p's side of the table as `viewer` sees it: point cards with their Jacks, the other cards
    in play (a Royal with cards attached to it, a Joker that took it, as `KS+RJ`), the points and the
    goal; a card face down is named only when the viewer knows it."""
    g, rules = game.state, game.rules
    cards = g.zones[FIELDS[p]]
    down = g.down
    if down:
        hidden = [c for c in cards if down >> c & 1]
        cards = [c for c in cards if not down >> c & 1]
    return SideView(
        points=tuple(
            PointView(NAMES[c], names(g.atts.get(c, ())), PLAYER_NAMES[g.owner[c]])
            for c in cards
            if g.host[c] < 0 and g.role[c] == "point"
        ),
        royals=tuple(
            "+".join((NAMES[c], *names(g.atts.get(c, ())))) for c in cards if g.host[c] < 0 and g.role[c] != "point"
        ),
        score=rules.score_of(g, p),
        goal=rules.goal_of(g, p),
        face_down=tuple(FaceDownView(NAMES[c] if knows(g, viewer, c) else None, str(g.role[c])) for c in hidden)
        if down
        else (),
    )


def match_view(game: Game) -> MatchView:
    """The score of a match of several hands (`match.wins`): hands won by each seat, the hand being
    played, and each finished hand's result."""
    g = game.state
    return MatchView(
        wins={PLAYER_NAMES[p]: n for p, n in enumerate(g.wins)},
        needed=game.rules.match_wins,
        hand=len(g.hands) + (0 if g.winner is not None else 1),
        hands=tuple(HandResult("draw" if h.winner is None else PLAYER_NAMES[h.winner], h.reason) for h in g.hands),
    )


def seen_names(view: View) -> set[str]:
    """Every card a view shows (its hands, fields, open zones and the hidden cards its player knows):
    what another player's decision may name to this player."""
    seen = set(view.hand) | set(view.opponent_hand or ()) | set(view.opponent_hand_known)
    sides = [view.you, view.opponent]
    for other in view.others:
        seen |= set(other.hand or ()) | set(other.hand_known)
        sides.append(other.side)
    for s in sides:
        seen.update(f.card for f in s.face_down if f.card is not None)
        for r in s.royals:
            seen.update(r.split("+"))
        for pt in s.points:
            seen.add(pt.card)
            seen.update(pt.jacks)
    seen.update(view.scrap, view.shown, view.stack, (n for _, n in view.deck_known))
    return seen


def names(cards: Sequence[int] | tuple[int, ...]) -> tuple[str, ...]:
    return tuple(NAMES[c] for c in cards)


def decision_view(d: Decision, options: tuple[str, ...], says: str | None = None) -> DecisionView:
    """The decision `d` as a view shows it, with the `options` the viewer may see (and, for a question
    to the viewer, what agreeing does)."""
    return DecisionView(
        player=PLAYER_NAMES[d.player],
        kind=str(d.kind),
        verb=d.verb,
        count=d.count,
        upto=d.upto,
        ask=d.ask,
        numbers=d.numbers,
        options=options,
        option_count=len(d.options),
        says=says,
    )


def chain_move(x: tuple[Any, ...], g: State) -> Move:
    """A play or counter waiting on the chain, as its move: the verb, the cards, then the target or
    the extra cards (and the player it names, at a larger table, as its move did)."""
    more = x[3]
    extra = (more,) if isinstance(more, int) and more >= 0 else tuple(more) if isinstance(more, tuple) else ()
    named = names_player(g, ("play", *x)) if len(x) > 4 else None
    return Move(x[0].verb, tuple(x[2]) + extra, None, named)


__all__ = ["view_of", "side", "match_view", "seen_names", "names", "decision_view", "chain_move", "PLAYER_NAMES"]
