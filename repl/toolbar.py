"""The bottom toolbar: whose decision it is (a turn, a chance to counter, a pending choice), each
side's points and goal, and the deck and scrap counts. On a narrow terminal it shortens its fields
rather than losing any: the longest form that fits the width is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine.view import View

from .render import Painter, decision_text, outcome_text, player_label
from .wrap import visible_width

if TYPE_CHECKING:
    from .session import Session


def toolbar_forms(session: Session) -> list[str]:
    """The toolbar from its longest form to its shortest (plain text: prompt_toolkit styles the bar)."""
    v = session.view()
    d = session.game.decision
    plain = Painter(False)
    over = session.game.outcome
    if over is not None:
        you = session.human if session.vs == "bot" and session.replay is None else None
        what = outcome_text(over, you)
        short_what = what.split(":")[0]
    else:
        mine = d is not None and d.player == session.viewer and session.replay is None
        what = decision_text(v, mine, plain)
        short_what = _short_decision(v, mine)
    if session.replay is not None:
        step = f"replay {session.replay.at}/{len(session.replay.moves)}"
        what, short_what = f"{step} · {what}", f"{step} · {short_what}"
    me, opp = v.player, "p2" if v.player == "p1" else "p1"
    you_label = "you" if session.replay is None else player_label(me)
    ours, theirs = f"{v.you.score}/{v.you.goal}", f"{v.opponent.score}/{v.opponent.goal}"
    sides = f"{you_label} {ours} · {player_label(opp)} {theirs}"
    deck, short_deck = f"deck {v.deck_count} · scrap {len(v.scrap)}", f"deck/scrap {v.deck_count}/{len(v.scrap)}"
    if session.replay is not None:
        keys, short_keys = "Enter: next · prev · resume", "Enter: next"
    elif over is not None:
        keys, short_keys = "new · undo · save · quit", "new · quit"
    else:
        keys = short_keys = "Tab: moves"
    # each form shortens or drops one thing more: the decision, the spacing, the keys (the help of
    # the bar's last field), then the counts, which keep both numbers; the scores go last
    return [
        f" {what}  │  {sides}  │  {deck}  │  {keys}",
        f" {what} │ {sides} │ {deck} │ {keys}",
        f" {short_what} │ {sides} │ {deck} │ {keys}",
        f" {short_what} │ {sides} │ {deck} │ {short_keys}",
        f" {short_what} │ {sides} │ {deck}",
        f" {short_what} │ {sides} │ {short_deck}",
        f" {short_what} │ {ours} · {theirs} │ {deck}",
        f" {short_what} │ {sides}",
        f" {short_what} │ {ours} · {theirs}",
    ]


def _short_decision(view: View, mine: bool) -> str:
    """The decision in two or three words: 'your turn', 'counter?', 'P2: discard 2'."""
    d = view.decision
    if d is None:
        return "game over"
    who = "" if mine else player_label(d.player) + ": "
    kind = d.kind
    if kind == "main":
        return "your turn" if mine else f"{player_label(d.player)}'s turn"
    if kind == "respond":
        legal = view.legal_moves or ()
        return "Enter: resolve" if mine and legal == ("resolve",) else f"{who}counter or resolve"
    if kind == "choose" and d.ask:
        return f"{who}{d.verb} or decline?"
    if kind == "choose" and d.numbers is not None:
        return f"{who}{d.verb} {d.numbers[0]}..{d.numbers[1]}"
    if kind == "choose":
        return f"{who}{d.verb} {d.count}"
    if kind == "play":
        return f"{who}play a revealed card"
    return f"{who}{kind}"


def toolbar_text(session: Session, width: int | None = None) -> str:
    forms = toolbar_forms(session)
    width = session.width() if width is None else width
    if width <= 0:
        return forms[0]
    for form in forms:
        if visible_width(form) <= width:
            return form
    return forms[-1]
