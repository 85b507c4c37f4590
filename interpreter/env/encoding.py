"""Observations for learning agents, encoded from a player's own view (`Game.view`) only.

Per card of the universe (52 cards and two Jokers), one plane per place the player can see it in,
or knows it is in (a card of the opponent's hidden hand or of the deck that this player has seen:
a 9's target back in a hand, a card shown to them; docs/effect-language.md, "Knowledge"), and
one plane for the cards of their own hand that the opponent knows; a card in none of them is
unseen (the rest of the deck, the rest of a hidden hand, a card face down in play this player does
not know, which is counted per seat). Then a few numbers (scores, goals, counts, whose decision and
what kind), and the tokens of the move being built.

At a table of more seats the "opponent" planes and numbers are those of the player after this one
(clockwise), and each further player (a partner, another opponent) has a block of its own after the
numbers: its hand when shown, its point cards, Royals and Jacks, the cards of its hidden hand this
player knows (`OTHER_PLANES`), and its hand's size, points, goal, hands won, whether it is a partner and
whether its hand is shown (`OTHER_SCALARS`); the tokens of the move being built come last.
"""

from __future__ import annotations

import numpy as np

from interpreter.core.cards import CARD_COUNT, parse_card
from interpreter.engine.view import View

PLANES = (
    "hand",
    "opponent_hand",
    "my_points",
    "my_royals",
    "my_jacks",
    "opponent_points",
    "opponent_royals",
    "opponent_jacks",
    "scrap",
    "shown",
    "stack",
    "deck_top_known",
    "opponent_hand_known",
    "deck_known",
    "hand_known_to_opponent",
    "my_face_down",  # cards face down in play (house rules): each side's that this player knows
    "opponent_face_down",
    "face_down_known_to_opponent",  # this player's own face-down cards that the opponent knows
)
KINDS = ("main", "respond", "choose", "play")
SCALARS = (
    "my_decision",
    *(f"kind_{k}" for k in KINDS),
    "choose_count",
    "my_turn",
    "deck_count",
    "opponent_hand_count",
    "my_score",
    "my_goal",
    "opponent_score",
    "opponent_goal",
    "passes",
    "chain_length",
    "my_hands_won",
    "opponent_hands_won",
    "opponent_hand_visible",
    "my_face_down_unseen",  # cards face down in play this player does not know, per seat
    "opponent_face_down_unseen",
)


OTHER_PLANES = ("hand", "points", "royals", "jacks", "hand_known")
OTHER_SCALARS = ("hand_count", "score", "goal", "hands_won", "partner", "hand_visible")
OTHER_SIZE = len(OTHER_PLANES) * CARD_COUNT + len(OTHER_SCALARS)


def size(n_tokens: int, seats: int = 2) -> int:
    return len(PLANES) * CARD_COUNT + len(SCALARS) + (seats - 2) * OTHER_SIZE + n_tokens


def _others(out: np.ndarray, view: View, base: int) -> int:
    """The blocks of the players after the next one (a larger table); the index after them."""
    wins = view.match.wins if view.match is not None else {}
    for o in view.others[1:]:
        planes = out[base : base + len(OTHER_PLANES) * CARD_COUNT].reshape(len(OTHER_PLANES), CARD_COUNT)
        for plane, names in (
            ("hand", o.hand),
            ("points", [p.card for p in o.side.points]),
            ("royals", [r.split("+")[0] for r in o.side.royals]),
            ("jacks", [j for p in o.side.points for j in p.jacks]),
            ("hand_known", o.hand_known),
        ):
            for n in names or ():
                planes[OTHER_PLANES.index(plane), parse_card(n)] = 1.0
        base += len(OTHER_PLANES) * CARD_COUNT
        numbers = (o.hand_count, o.side.score, o.side.goal, wins.get(o.player, 0), o.partner, o.hand is not None)
        for i, v in enumerate(numbers):
            out[base + i] = max(0.0, float(v))
        base += len(OTHER_SCALARS)
    return base


def encode(view: View, prefix: list[int], n_tokens: int) -> np.ndarray:
    """The observation of `view` (what one player may see) with the move tokens chosen so far."""
    seats = len(view.others) + 1 if view.others else 2
    out = np.zeros(size(n_tokens, seats), dtype=np.float32)
    planes = out[: len(PLANES) * CARD_COUNT].reshape(len(PLANES), CARD_COUNT)

    def put(plane: str, names) -> None:
        i = PLANES.index(plane)
        for n in names or ():
            planes[i, parse_card(n)] = 1.0

    nxt = view.others[0] if seats > 2 else None  # (a larger table: the player after this one)
    put("hand", view.hand)
    put("opponent_hand", nxt.hand if nxt is not None else view.opponent_hand)
    for s, prefix_name in ((view.you, "my"), (nxt.side if nxt is not None else view.opponent, "opponent")):
        put(f"{prefix_name}_points", [p.card for p in s.points])
        put(f"{prefix_name}_jacks", [j for p in s.points for j in p.jacks])
        put(f"{prefix_name}_royals", [r.split("+")[0] for r in s.royals])
    put("scrap", view.scrap)
    put("shown", view.shown)
    put("stack", view.stack)
    put("deck_top_known", view.deck_top_known)
    put("opponent_hand_known", nxt.hand_known if nxt is not None else view.opponent_hand_known)
    put("deck_known", [name for _, name in view.deck_known])  # anywhere in the deck (the top: above)
    put("hand_known_to_opponent", view.opponent_knows.hand)
    opposite = nxt.side if nxt is not None else view.opponent  # (a larger table: the next player's side)
    put("my_face_down", [x.card for x in view.you.face_down if x.card is not None])
    put("opponent_face_down", [x.card for x in opposite.face_down if x.card is not None])
    put("face_down_known_to_opponent", view.opponent_knows.face_down)
    d = view.decision
    me = view.player
    wins = view.match.wins if view.match is not None else {}
    opp = nxt.player if nxt is not None else "p2" if me == "p1" else "p1"
    theirs = nxt.side if nxt is not None else view.opponent
    values = {
        "my_decision": float(d is not None and d.player == me),
        "choose_count": float(d.count) if d else 0.0,
        "my_turn": float(view.turn == me),
        "deck_count": view.deck_count,
        "opponent_hand_count": nxt.hand_count if nxt is not None else view.opponent_hand_count,
        "my_score": view.you.score,
        "my_goal": view.you.goal,
        "opponent_score": theirs.score,
        "opponent_goal": theirs.goal,
        "passes": view.passes,
        "chain_length": len(view.chain),
        "my_hands_won": wins.get(me, 0),
        "opponent_hands_won": wins.get(opp, 0),
        "opponent_hand_visible": float((nxt.hand if nxt is not None else view.opponent_hand) is not None),
        "my_face_down_unseen": sum(x.card is None for x in view.you.face_down),
        "opponent_face_down_unseen": sum(x.card is None for x in opposite.face_down),
    }
    if d is not None:
        values[f"kind_{d.kind}"] = 1.0
    base = len(PLANES) * CARD_COUNT
    for i, name in enumerate(SCALARS):
        out[base + i] = max(0.0, float(values.get(name, 0.0)))
    base += len(SCALARS)
    base = _others(out, view, base)
    for t in prefix:
        out[base + t] = 1.0
    return out
