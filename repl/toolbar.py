"""The bottom toolbar: whose decision it is (a turn, a chance to counter, a pending choice), each
side's points and goal, and the deck and scrap counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .render import Painter, decision_text, player_label

if TYPE_CHECKING:
    from .session import Session


def toolbar_text(session: Session) -> str:
    """Plain text (no colour codes): prompt_toolkit styles the bar itself."""
    v = session.view()
    d = session.game.decision
    plain = Painter(False)
    if session.replay is not None:
        what = f"replay {session.replay.at}/{len(session.replay.moves)} · " + decision_text(v, False, plain)
    else:
        what = decision_text(v, d is not None and d.player == session.viewer, plain)
    me, opp = v["player"], "p2" if v["player"] == "p1" else "p1"
    you = "you" if session.replay is None else player_label(me)
    sides = (f"{you} {v['you']['score']}/{v['you']['goal']} · "
             f"{player_label(opp)} {v['opponent']['score']}/{v['opponent']['goal']}")
    return f" {what}  │  {sides}  │  deck {v['deck_count']} · scrap {len(v['scrap'])}  │  Tab: moves"
