"""What a game of a run did with its rules: which plays and responses became legal for each seat,
which were chosen, which plays were countered, and which choices inside effects were made (the
owner of a choice is the program waiting for it: a play, a response or the turn's end rule).

A `Recorder` works on the engine's own action tuples, and keeps a game as six short strings, one
character per rule (catalog.rule_code): per seat, the plays and responses that became legal (each
once, in rule order), everything chosen in the order it was chosen, and the plays that were
countered. Making them is a few joins in C; the counts per rule are read from them where they are
needed (`uses_of`, the store's view `uses`, the summary).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from interpreter.core.cards import CARD_COUNT, RANK_OF
from interpreter.core.zones import DECK, HAND1
from interpreter.engine.decision import MAIN, PLAY_D, RESPOND
from interpreter.engine.knowledge import deck_top_seen
from interpreter.engine.state import State
from interpreter.rules import Rules

from .catalog import Catalog, code_rule

Action = tuple[Any, ...]  # an action of the engine: ("play", PlayDef, ...), ("respond", ...), ("choose", ...)
Program = tuple[Any, ...]  # a compiled program: its instructions
Codes = tuple[str, str, str, str, str, str]  # p1 offered, used, countered; p2 offered, used, countered

second = itemgetter(1)  # the def an action carries: ("play", PlayDef, ...)

# a card's rank as one character in a game's record (`p1_ranks`): A 2-9 T(en) J Q K, X for a Joker
RANK_LETTERS = {"10": "T", "Joker": "X"}
RANK_CHAR: tuple[str, ...] = tuple(RANK_LETTERS.get(r, r) for r in RANK_OF[:CARD_COUNT])
RANK_NAME = {RANK_LETTERS.get(r, r): r for r in RANK_OF}  # the character -> the rank's own name


class Recorder:
    """Notes, per seat, what became legal, what was chosen and what was countered."""

    __slots__ = ("cat", "seen", "chosen", "countered", "ranks", "look", "shows", "sights", "started")

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.seen: tuple[set[Any], set[Any]] = (set(), set())  # the PlayDefs/ResponseDefs legal at least once
        self.chosen: tuple[list[Any], list[Any]] = ([], [])  # each play's and response's def, each choice's number
        self.countered: tuple[list[Any], list[Any]] = ([], [])  # the def of each play that was countered
        # beside `chosen`, one character each: the rank of the (first) card played ('-': none, a choice)
        self.ranks: tuple[list[str], list[str]] = ([], [])
        # the cards the player to move saw at each turn's start by each visibility rule (`sight`)
        self.look = sight(cat.rules)
        # the hand's rule when it is the only visibility rule (`look` is then that rule's count alone)
        self.shows = cat.rules.visible_fn if self.look is not None and is_hand_only(cat.rules) else None
        self.sights: dict[str, int] = {}
        self.started = False

    def observe(self, before: State, d: Any, acts: list[Action], a: Action, move: Any, after: State) -> None:
        """One decision of a game played through the Game API (playing.play): `d` was pending in
        `before` (kept as it was), `acts` were legal, the action `a` was chosen and led to `after`."""
        if not self.started:  # the first turn starts
            self.started = True
            if self.look is not None:
                self.look(before, self.sights)
        self.offer(d, acts)
        self.act(before, d, a)
        if d.kind == RESPOND:
            self.settle(after, a, before.chain)
        if (
            self.look is not None
            and after.winner is None
            and (after.turn_no != before.turn_no or len(after.hands) != len(before.hands))
        ):
            self.look(after, self.sights)  # a turn starts

    def offer(self, d: Any, acts: list[Action]) -> None:
        """The legal actions of a decision: a play action carries its PlayDef, a response its ResponseDef."""
        k = d.kind
        if k == MAIN or k == PLAY_D:
            self.seen[d.player].update(map(second, acts))
        elif k == RESPOND and len(acts) > 1:  # the last action is `resolve`
            self.seen[d.player].update(map(second, acts[:-1]))

    def act(self, g: State, d: Any, a: Action) -> None:
        """The chosen action, in the state it was chosen in."""
        a0 = a[0]
        if a0 == "play" or a0 == "respond":
            self.chosen[d.player].append(a[1])
            self.ranks[d.player].append(RANK_CHAR[a[3][0]] if a[3] else "-")
        elif a0 == "choose":
            declined = d.ask and len(a) > 2 and a[2] is False  # a question answered no
            self.chosen[d.player].append(self.cat.choice(g.frames[-1][0], d.verb, declined))
            self.ranks[d.player].append("-")

    def settle(self, g: State, a: Action, chain: Sequence[Any]) -> None:
        """After a response or `resolve` (`g` the state after it, `chain` the chain before it): if the
        chain of responses settled, whether the play was countered."""
        if a[0] == "resolve":
            responses = len(chain) - 1
        elif a[0] == "respond" and not (len(g.chain) == len(chain) + 1 and g.chain[0] is chain[0]):
            responses = len(chain)  # the response could not be answered: the chain settled at once
        else:
            return
        if responses % 2 == 1:
            self.countered[chain[0][1]].append(chain[0][0])

    def codes(self) -> Codes:
        """The game's six strings: per seat, the plays and responses offered (each once, in rule order),
        everything chosen (in the order chosen) and the plays countered."""
        code = self.cat.code.__getitem__
        seen, chosen, countered = self.seen, self.chosen, self.countered
        return (
            "".join(sorted(map(code, seen[0]))),
            "".join(map(code, chosen[0])),
            "".join(map(code, countered[0])),
            "".join(sorted(map(code, seen[1]))),
            "".join(map(code, chosen[1])),
            "".join(map(code, countered[1])),
        )


Look = Callable[[State, dict[str, int]], None]


def is_hand_only(rules: Rules) -> bool:
    """Whether `visibility.hand` is the ruleset's only visibility rule (the shipped rulesets)."""
    return bool(rules.hand_rule) and rules.deck_top_fn is None and rules.card_visible_fn is None


def sight(rules: Rules) -> Look | None:
    """What the player to move sees of the opponent's hidden cards by the ruleset's visibility rules
    (engine/knowledge.py), counted into a dict per rule: `visibility.hand` the opponent's hand while
    it shows it, `visibility.deck_top` the top cards of the deck it shows, `visibility.card` each
    hidden card it shows. None for a ruleset without visibility rules. The lab counts it at each
    turn's start (a card seen at three turns' starts counts three times)."""
    hand, top, card = rules.hand_rule, rules.deck_top_fn, rules.card_visible_fn
    if not (hand or top is not None or card is not None):
        return None
    shows, envs = rules.visible_fn, Rules._PLAYER_ENV  # visibility.hand, called as Rules.hand_visible does
    if is_hand_only(rules):  # the hand's rule alone (the shipped rulesets): kept short

        def look_hand(g: State, seen: dict[str, int]) -> None:
            p = g.turn
            opp = g.zones[HAND1 - p]
            if opp and shows(g, envs[p]):
                seen["visibility.hand"] = seen.get("visibility.hand", 0) + len(opp)

        return look_hand

    def look(g: State, seen: dict[str, int]) -> None:
        p = g.turn
        opp = g.zones[HAND1 - p]
        if hand and opp and shows(g, envs[p]):
            seen["visibility.hand"] = seen.get("visibility.hand", 0) + len(opp)
        if top is not None:
            n = min(deck_top_seen(g, p), len(g.zones[DECK]))
            if n:
                seen["visibility.deck_top"] = seen.get("visibility.deck_top", 0) + n
        if card is not None:
            k = sum(1 for c in (*g.zones[DECK], *opp) if card(g, {"me": p, "opponent": 1 - p, "it": c}))
            if k:
                seen["visibility.card"] = seen.get("visibility.card", 0) + k

    return look


def uses_of(codes: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """A game's six strings as counts per rule, as the view `uses` gives them: (rule, p1 offered, p1
    used, p1 countered, p2 offered, p2 used, p2 countered) per rule legal or used, in rule order (a
    rule chosen counts as offered, which is what a choice needs: it is never in the offered string)."""
    o1, u1, c1, o2, u2, c2 = codes
    return tuple(
        (
            code_rule(ch),
            int(ch in o1 or ch in u1),
            u1.count(ch),
            c1.count(ch),
            int(ch in o2 or ch in u2),
            u2.count(ch),
            c2.count(ch),
        )
        for ch in sorted(set(o1 + u1 + o2 + u2))
    )
