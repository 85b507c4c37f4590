"""One line in words for each move, told from one player's view.

Built only from two views of that player (before and after the move), the move and the decision it
answered, so a line can never tell a card its reader may not see. Nothing here knows what a rank
does: the sentence is the move's verb (the notation's verbs are fixed by the spec) plus what the
move changed — which cards went where, how many hidden cards were drawn.

    "P2 counters your 6♦ with 2♣, discarding 3♥"
    "You let 6♦ resolve: K♠ and J♣ go to the scrap, 7♥ goes to P2's points"
"""

from __future__ import annotations

from collections import Counter

from interpreter import Move
from interpreter.engine.game import DRAW_AGREED, META_VERBS, RESIGN
from interpreter.engine.view import DecisionView, SeatView, View

from .render import Painter, player_label

# How a main action reads: {0} the first card, {t} the target, {rest} the other cards.
PHRASES = {
    "draw": "draws",
    "pass": "passes",
    "points": "plays {0} for points",
    "scuttle": "scuttles {town} {t} with {0}",
    "royal": "plays {0} as a Royal",
    "glasses": "plays {0} as glasses",
    "jack": "puts {0} on {town} {t}",
    "oneoff": "plays {0} as a one-off",
    "oneoff+t": "plays {0} as a one-off on {town} {t}",
}
SECOND_PERSON = {
    "draws": "draw",
    "passes": "pass",
    "plays": "play",
    "scuttles": "scuttle",
    "puts": "put",
    "counters": "counter",
    "lets": "let",
    "discards": "discard",
    "takes": "take",
    "scraps": "scrap",
    "goes": "go",
    "comes": "come",
}


# where the cards of a choice go when its verb says it: `take 7H` (into the hand), `discard 3H`
IMPLIED = {"take": "hand", "discard": "scrap", "scrap": "scrap"}


def _third(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _as_you(sentence: str, verb: str = "") -> str:
    """'draws 7♥' → 'draw 7♥' for the second person; `verb`: the move's own verb, whose third person
    (`_third`) turns back into it ('scries' → 'scry', 'stashes' → 'stash', never 'scrie')."""
    first, _, rest = sentence.partition(" ")
    if verb and first == _third(verb):
        you = verb
    else:
        you = SECOND_PERSON.get(first, first[:-1] if first.endswith("s") else first)
    return you + (" " + rest if rest else "")


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def locations(view: View) -> dict[str, tuple]:
    """Where each card that this view shows is: ('hand', p), ('points', p), ('jack', p, host), ..."""
    me = view.player
    opp = "p2" if me == "p1" else "p1"
    out: dict[str, tuple] = {}
    for c in view.hand:
        out[c] = ("hand", me)
    sides = [(view.you, me)]
    if len(view.others) > 1:  # a larger table: every other player's side, and each hand shown
        for o in view.others:
            for c in o.hand or ():
                out[c] = ("hand", o.player)
            sides.append((o.side, o.player))
    else:
        for c in view.opponent_hand or ():
            out[c] = ("hand", opp)
        sides.append((view.opponent, opp))
    for side, who in sides:
        for e in side.points:
            out[e.card] = ("points", who)
            for j in e.jacks:
                out[j] = ("jack", who, e.card)
        for r in side.royals:
            out[r] = ("royals", who)
        for f in side.face_down:  # (the cards face down that this view names: those its player knows)
            if f.card is not None:
                out[f.card] = ("face down", who, f.role)
    for zone, cards in (("scrap", view.scrap), ("shown", view.shown), ("stack", view.stack)):
        for c in cards:
            out[c] = (zone,)
    return out


def _sorted(names: list[str]) -> list[str]:
    from .render import sorted_cards

    return sorted_cards(names)


class Teller:
    """Tells moves from the view of `viewer` (0/1), naming players 'you' or 'P1'/'P2'."""

    def __init__(self, viewer: int, painter: Painter | None = None, names: dict[int, str] | None = None) -> None:
        self.viewer = viewer
        self.p = painter or Painter(False)
        self.names = names or {}

    def _idx(self, who: str | int) -> int:
        return who if isinstance(who, int) else int(who[1]) - 1

    def name(self, who: str | int) -> str:
        i = self._idx(who)
        return "you" if i == self.viewer else self.names.get(i, player_label(i))

    def subject(self, who: str | int) -> str:
        n = self.name(who)
        return n[0].upper() + n[1:]

    def owner(self, who: str | int) -> str:
        i = self._idx(who)
        return "your" if i == self.viewer else self.names.get(i, player_label(i)) + "'s"

    def place(self, loc: tuple) -> str:
        kind = loc[0]
        if kind == "hand":
            return f"to {self.owner(loc[1])} hand"
        if kind == "points":
            return f"to {self.owner(loc[1])} points"
        if kind == "royals":
            return f"to {self.owner(loc[1])} Royals"
        if kind == "jack":
            return f"onto {self.p.card(loc[2])}"
        if kind == "face down":
            return f"face down in front of {self.name(loc[1])} ({loc[2]})"
        return {"scrap": "to the scrap", "shown": "face up", "stack": "onto the stack"}.get(kind, "away")

    def cards(self, names: list[str], known: dict[str, tuple]) -> str:
        return _and([self.p.card(c) if c in known else "a hidden card" for c in names])

    # -- the sentence ----------------------------------------------------------------------------
    def tell(self, before: View, after: View, move: Move) -> str:
        """One line for `move`, made from the viewer's views `before` and `after` it."""
        d = before.decision
        mover = self._idx(d.player if d is not None else "p1")
        if move.verb in META_VERBS and not move.cards:  # resign, a draw offered: every ruleset's
            return self._meta(move, mover)
        seen_before, seen_after = locations(before), locations(after)
        known = {**seen_after, **seen_before}
        names = [str(Move(move.verb, (c,))).split()[1] for c in move.cards]
        action = self._action(before, d, move, names, known, mover)
        if move.player is not None:  # a play that names a player (`jack JC 7H p3`): whom, not what it does
            action += f", naming {self.name(move.player)}"
        subj = self.subject(mover)
        line = f"{subj} {_as_you(action, move.verb) if mover == self.viewer else action}"
        chose = move.verb if d is not None and d.kind == "choose" and not d.ask and move.number is None else None
        effects = self._effects(before, after, seen_before, seen_after, names, chose)
        # a card-less action whose first consequence is the mover's own draw reads as one clause
        own = f"{self.name(mover)} draw"
        if not names and effects and effects[0].startswith(own) and action == "draws":
            line = f"{subj} {effects.pop(0)[len(own) - 4 :]}"
        if effects:
            line += ": " + "; ".join(effects)
        return line

    def _meta(self, move: Move, mover: int) -> str:
        """'You resign', 'P1 offers a draw; you refuse'."""
        subj, other = self.subject(mover), self.name(1 - mover)
        mine = mover == self.viewer
        if move.verb == RESIGN:
            return f"{subj} {'resign' if mine else 'resigns'}"
        answer = "accept" if move.verb == DRAW_AGREED else "refuse"
        return f"{subj} {'offer' if mine else 'offers'} a draw; {other} {answer if not mine else answer + 's'}"

    def _action(
        self, before: View, d: DecisionView | None, move: Move, names: list[str], known: dict, mover: int
    ) -> str:
        kind = d.kind if d is not None else "main"
        chain = before.chain
        if kind == "respond":
            top = chain[-1].split() if chain else ["?"]
            answered = self.p.card(top[1]) if len(top) > 1 else top[0]
            whose = self.owner(before.chain_by[-1] if before.chain_by else 1 - mover)
            if move.verb == "resolve":
                return f"lets {whose} {answered} resolve"
            text = f"{_third(move.verb)} {whose} {answered}"
            if names:
                text += f" with {self.p.card(names[0])}"
            if len(names) > 1:
                text += f", discarding {self.cards(names[1:], known)}"
            return text
        if kind == "choose" and d is not None and d.ask:  # a question answered: "mulligans", "declines to mulligan"
            return _third(move.verb) if move.verb != "decline" else f"declines to {d.verb or ''}"
        if kind == "choose" and move.number is not None:  # a number named: "names 7 (value)"
            return f"names {move.number} ({move.verb})"
        if kind == "choose":
            return f"{_third(move.verb)} {self.cards(names, known)}"
        key = move.verb + ("+t" if len(names) > 1 and move.verb + "+t" in PHRASES else "")
        phrase = PHRASES.get(key)
        if phrase is None:
            return (f"{_third(move.verb)} {self.cards(names, known)}").strip()
        target = names[-1] if len(names) > 1 else ""
        tloc = known.get(target, ("", -1))
        town = self.owner(tloc[1]) if len(tloc) > 1 and isinstance(tloc[1], str) else "the"
        text = phrase.format(self.p.card(names[0]) if names else "", t=self.p.card(target) if target else "", town=town)
        if kind == "play":
            text += " from the revealed cards"
        return text

    def _effects(
        self, before: View, after: View, seen_before: dict, seen_after: dict, names: list[str], chose: str | None = None
    ) -> list[str]:
        """What the move did besides its own words; `chose`: the verb of a choice the move made, whose
        cards are said where they went unless the verb says it (`take` into the hand)."""
        groups: dict[str, list[str]] = {}
        drawn: dict[str, list[str]] = {}
        turned_up = 0
        deck_delta = after.deck_count - before.deck_count
        known_before = before.deck_top_known
        known_after = set(after.deck_top_known)
        me = after.player
        opp = _others(after)[0].player  # (the opponent; at a larger table, the next player)
        # cards seen going into the deck: onto its top where both know them (a 9's target), or shuffled
        # in (then also those that went on through the deck into a hand); the cards that left the deck
        # were drawn or turned up
        gone = [c for c, loc in seen_before.items() if c not in seen_after and loc[0] != "hand"]
        onto_top = [c for c in gone if c in known_after]
        shuffled = [c for c in gone if c not in known_after and deck_delta > 0]
        if shuffled:
            shuffled += [
                c
                for c, loc in seen_after.items()
                if loc[0] == "hand" and seen_before.get(c, ("",))[0] in ("scrap", "points", "royals", "jack", "shown")
            ]
        outflow = len(onto_top) + len(shuffled) - deck_delta
        # the other players whose hand turned face up or down, and who took cards into a hidden hand
        shown, hidden, grew = _hands_changed(before, after)
        revealed: dict[str, list[str]] = {}
        for c, loc in seen_after.items():
            if seen_before.get(c) == loc:
                continue
            if c not in seen_before and loc[0] == "hand" and loc[1] in shown:
                revealed.setdefault(loc[1], []).append(c)  # it did not move: the hand is now face up
                continue
            if names and (c == names[0] or (c in names and loc[0] in ("stack", "scrap", "jack"))):
                # where a card went face down is not in the move: say it; and where a chosen card went,
                # unless the choice's verb says it (`You draft K♣: K♣ goes to your hand`)
                told = chose is not None and loc[0] not in ("scrap", "stack") and IMPLIED.get(chose) != loc[0]
                if loc[0] != "face down" and not told:
                    continue
            if loc[0] == "hand" and outflow > 0 and (c not in seen_before or c in shuffled):
                drawn.setdefault(loc[1], []).append(c)
                continue
            if loc[0] == "shown" and c not in seen_before:
                turned_up += 1
                groups.setdefault("is turned up", []).append(c)
                continue
            groups.setdefault(self.place(loc), []).append(c)
        # a card both knew on top of the deck, drawn into a hidden hand, is still named
        known_drawn = [
            c for c in known_before if c not in known_after and c not in seen_after and c not in (after.hand or ())
        ]
        for c, loc in seen_before.items():
            if c in seen_after or c in shuffled:
                continue
            if loc[0] == "hand" and loc[1] in hidden:
                continue  # the hand is face down again; its cards did not move
            if c in onto_top:
                dest = "to the top of the deck"
            elif loc == ("hand", me):
                dest = "out of sight"
            else:
                dest = "to the deck" if deck_delta > 0 else f"to {self.owner(grew[0] if grew else opp)} hand"
            groups.setdefault(dest, []).append(c)
        # what moved first, then what it taught (`P2 sees your K♥` after `you draw K♥`)
        out: list[str] = self._face_down(before, after)
        for who in hidden:
            out.append(f"{self.owner(who)} hand is hidden again")
        for who, cards in revealed.items():
            out.append(f"{self.owner(who)} hand is now face up: " + _and([self.p.card(c) for c in cards]))
        if shuffled:  # told first: a shuffle comes before the draws it makes possible
            whole_scrap = len(shuffled) > 1 and set(shuffled) == {c for c in before.scrap if c not in names}
            listed = self.p.cards(_sorted(shuffled))
            deck = "a new deck" if before.deck_count == 0 else "the deck"
            out.append(
                f"the scrap ({listed}) is shuffled into {deck}"
                if whole_scrap
                else f"{listed} {'is' if len(shuffled) == 1 else 'are'} shuffled into {deck}"
            )
        for who, cards in drawn.items():
            verb = "draw" if self._idx(who) == self.viewer else "draws"
            out.append(f"{self.name(who)} {verb} " + _and([self.p.card(c) for c in cards]))
        takers = [p for p in grew if _hand_of(after, p) is None] or [opp] * (_hand_of(after, opp) is None)
        if known_drawn and takers:
            out.append(f"{self.name(takers[0])} draws " + _and([self.p.card(c) for c in known_drawn]))
        hidden_drawn = outflow - sum(len(v) for v in drawn.values()) - turned_up - len(known_drawn)
        if hidden_drawn > 0 and len(takers) > 1:  # (a larger table: each player who drew, how many)
            for p, n in _drawn_each(before, after, takers, hidden_drawn):
                out.append(f"{self.name(p)} draws {n} card{'s' if n > 1 else ''}")
        elif hidden_drawn > 0 and takers:
            out.append(f"{self.name(takers[0])} draws {hidden_drawn} card{'s' if hidden_drawn > 1 else ''}")
        for dest, cards in groups.items():
            if dest == "is turned up":
                verb, dest = ("are" if len(cards) > 1 else "is"), "turned up"
            else:
                verb = "go" if len(cards) > 1 else "goes"
            out.append(f"{_and([self.p.card(c) for c in cards])} {verb} {dest}")
        return out + self._knowledge(before, after, seen_before, deck_delta)

    def _face_down(self, before: View, after: View) -> list[str]:
        """Cards this viewer does not know that went face down in front of a player (`a card goes face
        down in front of P1 (vault)`), or that left the face-down cards of a player unseen."""
        out: list[str] = []
        me = self._idx(after.player)
        sides = [(before.you, after.you, me)] + [
            (_seat(before, o.player).side, o.side, self._idx(o.player)) for o in _others(after)
        ]
        for was, now, who in sides:
            ahead = Counter(f.role for f in now.face_down if f.card is None)
            ahead.subtract(Counter(f.role for f in was.face_down if f.card is None))
            for role, n in sorted(ahead.items()):
                if n > 0:
                    cards = "a card goes" if n == 1 else f"{n} cards go"
                    out.append(f"{cards} face down in front of {self.name(who)} ({role})")
        return out

    def _knowledge(self, before: View, after: View, seen_before: dict, deck_delta: int) -> list[str]:
        """What the move taught, from this view alone: hidden cards the viewer now knows that it did not
        (a card shown to them, the top card a rule lets them see), and how many of the viewer's hidden
        cards or places of the deck the opponent has come to know (never which deck cards: the viewer
        may not know them)."""
        out: list[str] = []
        others = _others(after)
        had = {c for _, c in before.deck_known or ()} | {c for o in _others(before) for c in o.hand_known}
        new_deck = [(i, c) for i, c in after.deck_known or () if c not in had and c not in seen_before]
        me = self._idx(after.player)
        you = f"{self.name(me)} {'see' if me == self.viewer else 'sees'}"
        for o in others:
            new_hand = [c for c in o.hand_known if c not in had and c not in seen_before]
            if new_hand:
                out.append(f"{you} {self.owner(o.player)} {_and([self.p.card(c) for c in new_hand])} (in hand)")
        if new_deck:
            if [i for i, _ in new_deck] == list(range(len(new_deck))):
                where = "the top card of the deck" if len(new_deck) == 1 else "the top of the deck, top first"
            else:
                where = "in the deck: " + ", ".join(f"{_nth(i + 1)} from the top" for i, _ in new_deck)
            out.append(f"{you} {_and([self.p.card(c) for _, c in new_deck])} ({where})")
        for o in others:
            opp = self._idx(o.player)
            theirs_before, theirs_after = _seat(before, o.player).knows, o.knows
            learnt = [
                c
                for c in theirs_after.hand
                if c not in theirs_before.hand and (c not in seen_before or seen_before[c][0] == "face down")
            ]
            if learnt:
                out.append(
                    f"{self.name(opp)} {'see' if opp == self.viewer else 'sees'} {self.owner(me)} "
                    + _and([self.p.card(c) for c in learnt])
                )
            looked = len(theirs_after.deck) - len(theirs_before.deck) - max(0, deck_delta)
            if looked > 0:
                out.append(
                    f"{self.name(opp)} {'look' if opp == self.viewer else 'looks'} at {looked} "
                    f"card{'s' if looked > 1 else ''} of the deck"
                )
        return out


def _others(view: View) -> tuple[SeatView, ...]:
    """Every other player as `view` shows them (a two-seat view: the opponent, from its own fields)."""
    if len(view.others) > 1:
        return view.others
    opp = "p2" if view.player == "p1" else "p1"
    return (
        SeatView(
            opp,
            False,
            view.opponent,
            view.opponent_hand,
            view.opponent_hand_count,
            tuple(view.opponent_hand_known),
            view.opponent_knows,
        ),
    )


def _seat(view: View, player: str) -> SeatView:
    """Another player `player` as `view` shows them."""
    return next(o for o in _others(view) if o.player == player)


def _hand_of(view: View, player: str) -> tuple[str, ...] | None:
    """Another player's hand as `view` shows it (None: hidden)."""
    return _seat(view, player).hand


def _hands_changed(before: View, after: View) -> tuple[list[str], list[str], list[str]]:
    """The other players whose hand turned face up, whose hand turned face down again, and who hold
    more cards than before (clockwise from the viewer; at two seats, only the opponent)."""
    shown, hidden, grew = [], [], []
    for o in _others(after):
        was = _seat(before, o.player)
        if was.hand is None and o.hand is not None:
            shown.append(o.player)
        if was.hand is not None and o.hand is None:
            hidden.append(o.player)
        if o.hand_count > was.hand_count and len(after.others) > 1:
            grew.append(o.player)
    return shown, hidden, grew


def _drawn_each(before: View, after: View, takers: list[str], total: int) -> list[tuple[str, int]]:
    """How many hidden cards each of several players took (each hand's growth, within `total`)."""
    out = []
    for p in takers:
        n = min(total, _seat(after, p).hand_count - _seat(before, p).hand_count)
        if n > 0:
            out.append((p, n))
            total -= n
    return out


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
