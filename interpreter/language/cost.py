"""How much work one evaluation of compiled rule code may do, counted by the compiler while it
generates the code (see rules/sections.py `check_budgets` and docs/security.md)."""

from __future__ import annotations


class Cost:
    """How much work one evaluation may do, in cards visited, as a sum of a number and of multiples
    of three amounts known only once the whole ruleset is built: one evaluation of `end.score`, of
    `end.goal`, and the listing of the plays of one card (`can_play`, `play from`)."""

    __slots__ = ("base", "score", "goal", "plays")
    CAP = 10**30  # beyond any limit: keeps the numbers small however deep the nesting

    def __init__(self, base: int = 1, score: int = 0, goal: int = 0, plays: int = 0) -> None:
        cap = Cost.CAP
        self.base, self.score, self.goal, self.plays = min(base, cap), min(score, cap), min(goal, cap), min(plays, cap)

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.base + other.base, self.score + other.score, self.goal + other.goal, self.plays + other.plays)

    def times(self, n: int) -> Cost:
        return Cost(self.base * n, self.score * n, self.goal * n, self.plays * n)

    def value(self, score: int, goal: int, plays: int) -> int:
        return self.base + self.score * score + self.goal * goal + self.plays * plays

    def __repr__(self) -> str:
        return f"Cost({self.base}, score={self.score}, goal={self.goal}, plays={self.plays})"


ZERO = Cost(0)
ONE = Cost(1)

__all__ = ["Cost", "ZERO", "ONE"]
