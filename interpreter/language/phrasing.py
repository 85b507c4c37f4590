"""The vocabulary of the effect language's English (english.py and each construct's `english`):
words for ranks, roles, kinds and comparisons, articles, lists, and the noun phrase (NP) a set of cards
is told as. Nothing here reads a tree or a ruleset."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

DOWN_TO = "\x00down to "  # choose count(S) - k from S: keep k
AS_MANY = "\x00as many as "  # choose N from S, N not a number written out: "cards from S, as many as N,"
BE = "\x00be"  # "is" or "are" in a relative clause, decided when the noun phrase is rendered
RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King", "Joker": "Joker"}
ROLE_WORDS = {"point": ("point card", "point cards"), "royal": ("Royal", "Royals"), "jack": ("Jack", "Jacks")}
#: roles a rank carries without saying so ("a Queen", not "a Queen played as a Royal")
IMPLIED_ROLE = {("Q", "royal"), ("K", "royal"), ("J", "jack")}
KIND_WORDS = {
    "oneoff": ("one-off", "one-offs"),
    "royal": ("Royal", "Royals"),
    "jack": ("Jack", "Jacks"),
    "counter": ("counter", "counters"),
}
BOUND_WORDS = {
    "card": "this card",
    "cards": "the played cards",
    "target": "the target",
    "it": "it",
    "extra": "the extra card",
    "chosen": "the chosen card",
    "answered": "the answered play",
    "random": "a random player",
    "none": "nobody",
    # bound by triggers: what moved a card (the name of a play, response or rule), and where
    "cause": "the cause",
    "from_zone": "the zone it left",
    "to_zone": "the zone it entered",
    "countered": "the play was countered",
    "answering": "it answers a play",
    "turn": "the turn number",
}
COMPARE_WORDS = {
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
    "in": "is in",
    "not in": "is not in",
}
NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in"}
ARITH_WORDS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}


def rank_noun(rank: str, plural: bool = False) -> str:
    word = RANK_WORDS.get(rank, rank)
    return word + "s" if plural else word


def article(word: str) -> str:
    """`a` or `an` before a word (`an Ace`, `an 8`, `a Queen`)."""
    w = word.lstrip("(").lower()
    if w.startswith(("one", "uni", "use")):
        return "a"
    return "an" if w[:1] in "aeio" or w.startswith(("8", "11", "18")) else "a"


def a(word: str) -> str:
    return f"{article(word)} {word}"


def words(name: str) -> str:
    return name.replace("_", " ")


def kind_word(kind: str, plural: bool = False) -> str:
    s, p = KIND_WORDS.get(kind, (words(kind), words(kind) + "s"))
    return p if plural else s


def role_noun(role: str, plural: bool = False) -> str:
    s, p = ROLE_WORDS.get(role, (f"{words(role)} card", f"{words(role)} cards"))
    return p if plural else s


def join_or(items: Sequence[str], conj: str = "or") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


def counted(n: int, word: str, many: str = "") -> str:
    """`1 card`, `3 cards`, `0 moves` (`many`: a plural that is not the word and an s)."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"


def sentence(text: str) -> str:
    """Capitalise and end with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ":")) else text + "."


# -- noun phrases for sets of cards ------------------------------------------------------------


_RELATIVE = ("whose ", "that ", "such that ")  # the qualifiers that are relative clauses


@dataclass
class NP:
    """A description of a set of cards: heads, where they are, and what they must be."""

    rank: str | None = None
    role: str | None = None
    heads: list[tuple[str, str]] | None = None  # alternatives, when a condition is an `or` of kinds
    pre: list[str] = field(default_factory=list)
    owner: str | None = None  # possessive: "your opponent's"
    holder: Any = None  # the player whose field it is ("you have ...")
    place: str | None = None  # "in play", "in the scrap"
    source: str | None = None  # "the scrap" (for "from the scrap")
    quals: list[str] = field(default_factory=list)
    definite: str | None = None  # "the target", "the revealed cards"
    plural_definite: bool = False

    def head(self, plural: bool = False) -> str:
        if self.heads:
            parts = [p if plural else s for s, p in self.heads]
            return " ".join(self.pre + [join_or(parts)])
        if self.rank is not None:
            h = rank_noun(self.rank, plural)
        elif self.role is not None:
            h = role_noun(self.role, plural)
        else:
            h = "cards" if plural else "card"
        return " ".join(self.pre + [h])

    def tail(self, plural: bool = False) -> str:
        quals = [q.replace(BE, "are" if plural else "is") for q in self.quals]
        if self.rank is not None and self.role is not None and (self.rank, self.role) not in IMPLIED_ROLE:
            quals.insert(0, f"played as {role_noun(self.role, True) if plural else a(role_noun(self.role))}")
        out, relative = "", False
        for q in quals:  # two relative clauses in a row are joined: "whose value ... and whose suit ..."
            now = q.startswith(_RELATIVE)
            out += (" and " if now and relative else " ") + q
            relative = now
        return out

    def plural(self) -> str:
        if self.definite:
            return self.definite
        if self.owner:
            return f"{self.owner} {self.head(True)}{self.tail(True)}"
        return f"{self.head(True)}{' ' + self.place if self.place else ''}{self.tail(True)}"

    def every(self) -> str:
        if self.definite:
            return self.definite
        if self.bare() and self.source:
            return self.source
        if self.owner:
            return f"all of {self.owner} {self.head(True)}{self.tail(True)}"
        return f"every {self.head()}{' ' + self.place if self.place else ''}{self.tail()}"

    def one(self) -> str:
        if self.definite:
            return self.definite
        if self.bare() and self.source:
            return f"one of {self.source}"
        if self.owner:
            return f"one of {self.owner} {self.head(True)}{self.tail(True)}"
        return f"{a(self.head())}{' ' + self.place if self.place else ''}{self.tail()}"

    def counted(self, n: str, one: bool) -> str:
        """`2 cards from your hand (not a 3)`."""
        if self.definite:
            return f"{n} of {self.definite}"
        src = self.source or (f"{self.owner} cards in play" if self.owner else None)
        head = self.head(not one)
        if self.owner and (self.rank or self.role or self.heads):
            return f"{n} of {self.owner} {self.head(True)}{self.tail(True)}"
        return f"{n} {head}{' from ' + src if src else ''}{self.tail(not one)}"

    def bare(self) -> bool:
        return not (self.rank or self.role or self.heads or self.pre or self.quals)
