"""The board as text, from one player's view (a `Game.view` dict): suit symbols, red suits in colour.

Colour is ANSI and only used when asked for (`use_color()` says whether stdout wants it: a terminal,
and no NO_COLOR in the environment).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from interpreter.core.cards import UnknownCardError, card_symbol, is_red, parse_card
from interpreter.core.terminal import sgr
from interpreter.engine.outcome import Outcome
from interpreter.engine.view import PointView, SideView, View

RED, BOLD, DIM, RESET = sgr("red"), sgr("bold"), sgr("dim"), sgr("reset")


def use_color(stream: TextIO | None = None) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    stream = stream or sys.stdout
    if "NO_COLOR" in os.environ:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def player_label(p: int | str) -> str:
    """'P1' / 'P2' from 0/1 or 'p1'/'p2'."""
    if isinstance(p, str):
        return p.upper()
    return f"P{p + 1}"


class Painter:
    """Turns card names into symbols, in red for red suits when colour is on."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def card(self, name: str) -> str:
        try:
            c = parse_card(name)
        except UnknownCardError:
            return name
        text = card_symbol(c)
        return f"{RED}{text}{RESET}" if self.color and is_red(c) else text

    def cards(self, names: Iterable[str], sep: str = " ") -> str:
        return sep.join(self.card(n) for n in names)

    def bold(self, text: str) -> str:
        return f"{BOLD}{text}{RESET}" if self.color else text

    def dim(self, text: str) -> str:
        return f"{DIM}{text}{RESET}" if self.color else text

    def move(self, text: str) -> str:
        """A move in canonical notation with its cards as symbols: `counter 2♦ 4♣`."""
        verb, *cards = text.split()
        return " ".join([verb, *(self.card(c) for c in cards)])


def sorted_cards(names: Iterable[str]) -> list[str]:
    """Cards in the order a player sorts a hand: by rank (A to K, then Jokers), then by suit (♣ ♦ ♥ ♠)."""

    def key(name: str) -> int:
        try:
            return parse_card(name)
        except UnknownCardError:
            return 10_000

    return sorted(names, key=key)


def outcome_text(outcome: Outcome, you: int | None = None) -> str:
    """A finished game in words: 'You win: P1 reached the goal', 'P2 wins: ...', 'Draw: ...'.

    `you`: the player told 'You win'/'You lose' (against the bot); None names both players."""
    if outcome.winner is None or you is None:
        return str(outcome)  # (engine/outcome.py: the wording of every command)
    head = "You win" if outcome.winner == you else "You lose"
    return f"{head}: {outcome.sentence}"


def _point_text(p: Painter, entry: PointView, side_owner: str) -> str:
    text = p.card(entry.card)
    if entry.jacks:
        text += "+" + "+".join(p.card(j) for j in entry.jacks)
    if entry.owner and entry.owner != side_owner:
        text += p.dim(f"(from {player_label(entry.owner)})")
    return text


def _royal_text(p: Painter, name: str, played_as: dict[str, str]) -> str:
    how = played_as.get(name)
    return p.card(name) + (p.dim(f"({how})") if how and how != "royal" else "")


def side_lines(p: Painter, side: SideView, title: str, owner: str, played_as: dict[str, str]) -> list[str]:
    points = "  ".join(_point_text(p, e, owner) for e in side.points) or p.dim("—")
    royals = "  ".join(_royal_text(p, r, played_as) for r in side.royals) or p.dim("—")
    lines = [f" {p.bold(title)}  {side.score}/{side.goal} points", f"   points  {points}", f"   royals  {royals}"]
    if side.face_down:  # cards face down in play: named when this player knows them, else `?`
        cards = "  ".join((p.card(f.card) if f.card else "?") + p.dim(f"({f.role})") for f in side.face_down)
        lines.append(f"   face down  {cards}")
    return lines


def describe_chain(
    p: Painter, chain: Sequence[str], stack: Sequence[str] | None = None, scrap: Sequence[str] | None = None
) -> str:
    """The plays waiting to resolve, each answer after what it answers; a play whose cards have
    already gone to the scrap (a 2 that counters goes there at once) says so."""
    out = []
    for m in chain:
        cards = m.split()[1:]
        gone = stack is not None and cards and not any(c in stack for c in cards)
        note = " (in the scrap)" if gone and scrap is not None and all(c in scrap for c in cards) else ""
        out.append(p.move(m) + note)
    return "  ←  ".join(out)


def board(
    view: View,
    color: bool = False,
    names: tuple[str, str] | None = None,
    played_as: dict[str, str] | None = None,
    shown_note: str = "face up",
    width: int = 60,
    titles: dict[str, str] | None = None,
) -> str:
    """The whole board from `view`: the opponent's side on top, the middle, your side and hand; the
    header's rule is `width` wide (the terminal's, up to 100 columns).

    `names` overrides the titles of (you, opponent); `played_as` maps a card in play to the verb that
    put it there (to label glasses and the like without knowing any rank). At a table of more seats,
    `titles` names each other player (`P2 (bot)`, `P3 (partner)`), whose sides are shown in turn from
    the one after you.
    """
    p = Painter(color)
    played_as = played_as or {}
    me, opp = view.player, ("p2" if view.player == "p1" else "p1")
    you_title, opp_title = names or (f"You ({player_label(me)})", player_label(opp))
    d = view.decision
    who = f"{player_label(d.player)} to act" if d and not view.outcome else "game over"
    head = f"── {view.ruleset} · turn {view.turn_number} · {who} "
    lines = [p.bold(head + "─" * max(0, width - len(head)))]
    if titles is not None:  # every other player, clockwise from the one after you
        for o in view.others:
            lines += side_lines(p, o.side, titles.get(o.player, player_label(o.player)), o.player, played_as)
            lines.append(f"   hand    {_hand_text(p, o.hand, o.hand_count, o.hand_known, shown_note)}")
    else:
        lines += side_lines(p, view.opponent, opp_title, opp, played_as)
        hand = _hand_text(p, view.opponent_hand, view.opponent_hand_count, view.opponent_hand_known, shown_note)
        lines.append(f"   hand    {hand}")
    scrap = view.scrap
    known = view.deck_top_known
    deeper = [f"{i + 1}. {p.card(c)}" for i, c in view.deck_known if i >= len(known)]
    deck_note = ", ".join(([f"top {p.cards(known)}"] if known else []) + deeper)
    middle = [
        f"deck {view.deck_count}" + (f" ({deck_note}, known)" if deck_note else ""),
        f"scrap {len(scrap)}" + (f" (top {p.card(scrap[-1])})" if scrap else ""),
    ]
    if view.shown:
        middle.append("revealed " + p.cards(view.shown))
    if view.chain:
        middle.append("stack " + describe_chain(p, view.chain, view.stack, view.scrap))
    elif view.stack:
        middle.append("stack " + p.cards(view.stack))
    if view.passes:
        middle.append(f"passes {view.passes}")
    lines.append(" " + p.dim("·" * 3) + " " + "   ".join(middle))
    lines += side_lines(p, view.you, you_title, me, played_as)
    lines.append(f"   hand    {p.cards(sorted_cards(view.hand)) or p.dim('empty')}")
    for o in view.others if titles is not None else ():  # what each other player knows of your hand
        if o.knows.hand and len(o.knows.hand) < len(view.hand):
            lines[-1] += p.dim(f"  ({player_label(o.player)} knows ") + p.cards(sorted_cards(o.knows.hand)) + p.dim(")")
    theirs = view.opponent_knows.hand if titles is None else ()
    if theirs and len(theirs) < len(view.hand):  # (all of it: a rule shows them the hand)
        lines[-1] += p.dim(f"  ({player_label(opp)} knows ") + p.cards(sorted_cards(theirs)) + p.dim(")")
    return "\n".join(lines)


def _hand_text(p: Painter, hand: Sequence[str] | None, count: int, known: Sequence[str], shown_note: str) -> str:
    """Another player's hand: its cards when shown, else how many (and the ones this player knows)."""
    if hand is None:
        text = p.dim(f"{count} card{'' if count == 1 else 's'}, hidden" if count else "empty")
        if known:  # cards of it this player saw go there or was shown
            text += p.dim(" (you know ") + p.cards(sorted_cards(known)) + p.dim(")")
        return text
    return (p.cards(sorted_cards(hand)) or p.dim("empty")) + p.dim(f"  ({shown_note})")


def scrap_text(view: View, painter: Painter | None = None) -> str:
    """The scrap pile, oldest first and the top last."""
    p = painter or Painter(False)
    scrap = view.scrap
    if not scrap:
        return "The scrap is empty."
    return f"Scrap ({len(scrap)} card{'s' if len(scrap) != 1 else ''}, the top last): {p.cards(scrap)}"


def asked_text(view: View) -> str:
    """What the deciding seat is asked, for the hot-seat hand-over screen that both players may see
    ('to play', 'to discard 2 cards', 'to answer the counter: ...'): nothing but what both see."""
    d = view.decision
    if d is None:
        return "to see the game's end"
    if d.kind == "main":
        return "to play"
    if d.kind == "respond":
        verb = (view.chain[-1] if view.chain else "play").split()[0]
        return f"to answer the {verb}: counter it or let it resolve"
    if d.kind == "choose" and d.ask:
        return f"to answer a question: {d.verb} or decline"
    if d.kind == "choose" and d.numbers is not None:
        return f"to name a number ({d.verb})"
    if d.kind == "choose":
        return f"to {d.verb} {'up to ' if d.upto else ''}{d.count} card{'s' if d.count != 1 else ''}"
    if d.kind == "play":
        return "to play one of the revealed cards"
    return f"to decide ({d.kind})"


def decision_text(view: View, viewer_is_decider: bool, painter: Painter | None = None) -> str:
    """What is being decided, in a few words: 'your turn', 'P2 may counter 6♦', 'you must discard 2'."""
    p = painter or Painter(False)
    d = view.decision
    if d is None:
        return view.outcome or "game over"
    who = "you" if viewer_is_decider else player_label(d.player)
    kind = d.kind
    legal = view.legal_moves if viewer_is_decider else None
    only = legal is not None and len(legal) == 1
    if kind == "main":
        text = "your turn" if viewer_is_decider else f"{who}'s turn"
    elif kind == "respond":
        top = (view.chain[-1] if view.chain else "play ?").split()
        other = (view.chain_by[-1] if view.chain_by else "") or ("p2" if d.player == "p1" else "p1")
        owner = "your" if other == view.player else player_label(other) + "'s"
        what = f"{owner} {p.card(top[1])} ({top[0]})" if len(top) > 1 else f"{owner} {top[0]}"
        if only:  # nothing to answer with: the window is there, but the only move is to let it resolve
            return f"you cannot counter {what}: press Enter to continue"
        text = f"{who} may counter {what} or let it resolve"
    elif kind == "choose" and d.ask:  # a question: `VERB` (yes) or `decline` (no), and what agreeing does
        if viewer_is_decider:
            text = f"{who} may {d.verb}" + (f": {d.says}" if d.says else "") + f" ('{d.verb}' or 'decline')"
        else:  # (what agreeing does is said to the player asked, as "you")
            text = f"{who} may {d.verb} or decline"
    elif kind == "choose" and d.numbers is not None:  # `choose a number`: both players see what is named
        low, high = d.numbers
        text = f"{who} must name a number from {low} to {high} ({d.verb})"
        if viewer_is_decider:
            text += f": '{d.verb} {low}' to '{d.verb} {high}'"
    elif kind == "choose":
        hidden = len(d.options) < d.option_count
        must, upto = ("may", "up to ") if d.upto else ("must", "")
        if hidden:  # another player picks among cards this viewer may not see (a 4's victim, own hand)
            count = d.count
            text = f"{who} {must} {d.verb} {upto}{count} card{'s' if count != 1 else ''}"
        else:
            text = f"{who} {must} {d.verb} {upto}{d.count} of {p.cards(d.options)}"
        if d.upto and viewer_is_decider:
            text += f" ('{d.verb}' alone: none)"
    elif kind == "play":
        text = f"{who} must play one of the revealed {p.cards(d.options)}"
    else:
        text = f"{who} to decide ({kind})"
    if only and legal:
        text += f" — the only legal move is '{legal[0]}': Enter plays it"
    return text
