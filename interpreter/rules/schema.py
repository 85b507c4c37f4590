"""The shape of a ruleset file: every key, its type, and what it means (used for validation,
for `cuttle check`, and for docs/rulesets.md)."""

from __future__ import annotations

from typing import Any

from interpreter.core.errors import suggest

# An "expr" may also be written `true` or `false` (a condition that always or never holds).
# kinds of value: "str", "int", "bool", "expr", "program", "word", "rank", "ranks", "card-list",
# "words", "any", "ending" (a word of ENDING_WORDS or an expression), ("enum", ...), {"*": sub} (a
# mapping of user names), {key: sub} (fixed keys)

#: the shipped words of an ending (`end.on_passes`); any other text is an expression naming the winner
ENDING_WORDS = ("most_points", "draw")
_PLAYER_WORDS = ("me", "opponent", "p1", "p2", "nobody")  # one-word endings that name a player


def ending_slip(value: Any) -> str | None:
    """The shipped word of an ending that `value` misspells (`most_point`), or None: one word, not a
    player's, near a shipped word (the file is refused with that suggestion, not read as an expression)."""
    if not isinstance(value, str) or value in ENDING_WORDS or not value.isidentifier() or value in _PLAYER_WORDS:
        return None
    return suggest(value, ENDING_WORDS)


PLAY: dict[str, Any] = {
    "like": (
        "word",
        "another play whose fields this one inherits; its own fields override them "
        "(a twin: `like: ace, cards: 2, free: true`)",
    ),
    "verb": ("word", "the word that starts the move in notation (points, oneoff, royal, counter...)"),
    "ranks": ("ranks", "the ranks that can make this play"),
    "cards": ("int", "how many cards of one rank it plays (0 for draw/pass, 2 for a twin; default 1)"),
    "kind": ("word", "its kind (a key of `kinds`): decides whether it can be countered and what follows"),
    "free": ("bool", "true if it does not use up the turn's action (twinned plays)"),
    "legal": ("expr", "a condition that must hold to play it (me, opponent, card, cards are bound)"),
    "target": ("expr", "the set of cards it may target; the move names one of them after its cards"),
    "player": (
        "expr",
        "the players it may name (a set, such as `players` or `opponents`, or one player): it is offered "
        "once for each, the move naming the player last (`jack JC 7H p4`); its `legal`, `target` and effect "
        "read the one named as `player`",
    ),
    "effect": ("program", "what it does when it resolves (target is bound if it has one)"),
    "countered": ("program", "what happens instead when it is countered (default: its kind's)"),
    "text": ("str", "an optional sentence shown on the rules page beside the generated one"),
}

RESPONSE: dict[str, Any] = {
    "verb": ("word", "the word of the move (counter, block...)"),
    "ranks": ("ranks", "the ranks that can respond"),
    "extra": ("int", "how many more cards of the responder's choice it costs (default 0)"),
    "answers": ("words", "the kinds of play it can answer (kinds of plays or of responses)"),
    "kind": ("word", "its own kind, so that other responses can answer it"),
    "legal": ("expr", "a condition that must hold to respond this way"),
    "effect": ("program", "what playing it does at once (usually: scrap its cards)"),
    "counterable": ("expr", "whether the other player may answer it in turn"),
    "window": (
        "expr",
        "a condition on the play it answers (`me` its player) under which this answer may be made even when "
        "that play cannot be countered (its kind's `counterable` is false): an answer that is not a counter "
        "(teams: a 9 answers a Royal no 2 may counter); without it, only when the play's kind is counterable",
    ),
    "instead": (
        "program",
        "what happens to the play it answers when this answer stands, instead of that play's `countered` "
        "(teams: a 9 returns an opponent's Royal to its owner's hand): `answered` is that play's cards, "
        "`opponent` its player; its cards still on the stack then go to the scrap",
    ),
    "text": ("str", "an optional sentence shown on the rules page"),
}

KIND: dict[str, Any] = {
    "legal": ("expr", "a condition every play of this kind must also meet (added to each play's own `legal`)"),
    "target": (
        "expr",
        "a condition on the target `it` of every play of this kind that has a target (its targets are "
        "only those for which it holds)",
    ),
    "counterable": ("expr", "whether a play of this kind opens a response window"),
    "after": ("program", "what follows its effect (a one-off goes to the scrap)"),
    "countered": ("program", "what happens to a countered play of this kind"),
}

TRIGGER: dict[str, Any] = {
    "event": (
        "str",
        "the event: game starts, turn starts, turn ends, play resolves, play is countered, "
        "card leaves ZONE, card enters ZONE (ZONE: hand, field, play, deck, scrap, shown, stack)",
    ),
    "for": (
        "str",
        "`each player`: the trigger runs once for each player, `me` being each in turn (the event's player "
        "first: at game starts the first player, then the second)",
    ),
    "when": ("expr", "a condition on the event's bindings; the trigger runs only if it holds"),
    "effect": ("program", "what it does (it may `choose`); its own events queue behind"),
    "text": ("str", "an optional sentence shown on the rules page"),
}

RULESET: dict[str, Any] = {
    "name": ("str", "the ruleset's name"),
    "description": ("str", "a line about it"),
    "kind": (("enum", "base", "option"), "base (a whole game) or option (changes applied to a base)"),
    "extends": ("str", "a ruleset this one starts from (a shipped name or a path)"),
    "options": ("words", "options applied after extends"),
    "requires": ("words", "(options) the ruleset parts this option needs"),
    "conflicts": ("words", "(options) the ruleset parts this option cannot be combined with"),
    "source": ("str", "where the rules come from"),
    "deck": (
        {
            "ranks": ("ranks", "ranks of the deck, each in every suit"),
            "suits": ("words", "suits from low to high (scuttle order)"),
            "cards": ("card-list", "an explicit list of cards instead of ranks x suits"),
            "jokers": ("int", "how many Jokers (RJ, BJ) are added"),
        },
        "the cards in the game",
    ),
    "values": ({"*": ("int", "point value")}, "point value of each rank (ranks without one have none)"),
    "constants": ({"*": ("any", "a number or a list")}, "named numbers and lists usable in expressions"),
    "define": ({"*": ("expr", "the definition's body")}, "named conditions/values: `name(x, y)`: expr"),
    "seats": (
        {
            "count": (
                "int",
                "how many players sit at the table, 2 to 4 (p1..pN clockwise; p1 moves first, then the turns "
                "go clockwise; default 2)",
            ),
            "teams": (
                "any",
                "partners, as a list of teams, each a list of seats (`[[p1, p3], [p2, p4]]`): partners are not "
                "opponents, and a team wins when one of its players does (default: each player alone)",
            ),
        },
        "the players at the table (SPEC rulings 21-26: `cutthroat`, `teams`); without it, two",
    ),
    "deal": (
        {
            "first": ("int", "cards dealt to p1, who moves first"),
            "second": ("int", "cards dealt to p2 (with more seats: to each player after p1)"),
            "extra": (
                {
                    "p1": ("card-list", "cards p1 gets besides the deal"),
                    "p2": ("card-list", "cards p2 gets besides the deal"),
                    "p3": ("card-list", "cards p3 gets besides the deal (three seats or more)"),
                    "p4": ("card-list", "cards p4 gets besides the deal (four seats)"),
                },
                "particular cards each player gets on top of the shuffled deal (they are never in the deck)",
            ),
        },
        "the deal",
    ),
    "visibility": (
        {
            "hand": ("expr", "whether `me` sees the hand of `opponent`"),
            "deck_top": (
                "expr",
                "how many cards at the top of the deck `me` sees (a number; a condition means "
                "the top card while it holds)",
            ),
            "card": ("expr", "whether `me` sees card `it` wherever it is hidden (the deck, the opponent's hand)"),
        },
        "hidden information: what each player sees (docs/effect-language.md, Knowledge)",
    ),
    "turn": (
        {
            "end": ("program", "what happens when the acting player's action has resolved (hand limit)"),
            "playable": (
                "expr",
                "whether card `it` may be played at all (e.g. not frozen); "
                "`answering` is true when it would answer a play (a counter)",
            ),
        },
        "the turn",
    ),
    "end": (
        {
            "goal": ("expr", "the points `me` needs to win"),
            "score": ("expr", "the points `me` has"),
            "passes": ("int", "consecutive passes that end the game"),
            "on_passes": (
                "ending",
                "who wins when passes end the game: `most_points`, `draw`, or an expression naming the winner "
                "(`nobody`: a draw), e.g. `p1 if score(p1) > score(p2) else p2`",
            ),
        },
        "how the game ends",
    ),
    "kinds": ({"*": KIND}, "kinds of play and what they share"),
    "plays": ({"*": PLAY}, "every way to play a card (or none: draw, pass)"),
    "responses": ({"*": RESPONSE}, "plays made in answer to another play (counters)"),
    "counters": (
        {
            "*": {
                "of": (("enum", "player", "card"), "whose counter it is: each player has one, or each card"),
                "text": ("str", "what it counts, for the rules page"),
            }
        },
        "named numbers kept on players or cards: `set X.NAME to N`, `add N to X.NAME`, read `X.NAME`",
    ),
    "triggers": ({"*": TRIGGER}, "rules that run when something happens (docs/effect-language.md#triggers)"),
    "match": (
        {
            "wins": (
                "int",
                "hands a player must win to win the match (each new hand is dealt from the "
                "game's seeded generator, the players taking turns to move first)",
            ),
        },
        "a match of several hands",
    ),
}
