"""What a lab run is: its rulesets (`Side`), its players, its master seed and its cap (`Job`), the
seeds of its games, and the rules and players a process builds for them.

Game `i` of a run gets its seed from (master seed, i) alone, and each seat's player its seed from
the game's seed and the seat: a game is the same whatever process, machine or order plays it, and
game `i` of two rulesets with the same deck and deal starts from the same deal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.core.errors import CuttleError
from interpreter.engine.wincheck import keep_points
from interpreter.players import parse_spec
from interpreter.players.heuristic import RandomPlayer
from interpreter.players.learnt import Evaluation, digest, use
from interpreter.players.picks import Picks
from interpreter.players.registry import Player
from interpreter.rules import Composed, Rules

MAX_DECISIONS = 20000  # a game of a run is cut off after this many decisions (`--max-decisions`)
MASK = (1 << 64) - 1

# -- seeds ---------------------------------------------------------------------------------------


def game_seed(master: int, index: int) -> int:
    """The seed of game `index` of a run: a function of the master seed and the index only (63 bits of
    BLAKE2b of `cuttle-lab-game:MASTER:INDEX`, so that it fits SQLite's INTEGER)."""
    digest = hashlib.blake2b(b"cuttle-lab-game:%d:%d" % (master, index), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def player_seed(seed: int, seat: int) -> int:
    """The seed of the player in `seat` (0 = p1) of the game with this seed: splitmix64's mixer
    applied to another sequence than the game's own generator walks (that one adds the golden
    ratio to `seed`), so a player's choices owe nothing to the shuffle."""
    z = (seed * 0xD1B54A32D192ED03 + (seat + 1) * 0x8CB92BA72F3D8DD7) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return (z ^ (z >> 31)) >> 1


# -- what a run is -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One ruleset of a run. Workers build the rules from the merged data (`composed`), so they
    read no file: a worker on another machine needs only Cuttle Lab installed."""

    label: str  # "a" (or "b" in a comparison)
    spec: str  # as the user wrote it
    name: str
    hash: str
    composed: Composed = field(repr=False, compare=False)
    # the learnt evaluation its players play with (None: the hand-set one), decided once for the run and
    # carried to every worker with the job: a worker reads no cache folder (lab/learning.py)
    evaluation: Evaluation | None = field(default=None, repr=False, compare=False)

    def show(self, other: Side | None = None) -> str:
        """How to call this ruleset in a report: its name, or what the user wrote if two share a name."""
        return self.spec if other is not None and other.name == self.name else self.name

    @classmethod
    def of(cls, label: str, rules: Rules, evaluation: Evaluation | None = None) -> Side:
        remember(rules)
        use(rules, evaluation)
        return cls(label, rules.spec, rules.name, rules.hash, rules.composed, evaluation)


@dataclass(frozen=True)
class Job:
    sides: tuple[Side, ...]
    players: tuple[str, str]  # canonical player specs, p1 then p2
    seed: int
    max_decisions: int = MAX_DECISIONS
    learning: bool = False  # whether a player plays with the rulesets' learnt evaluations (`Side.evaluation`)

    def identity(self) -> dict[str, Any]:
        """What makes two runs the same run: the rulesets' contents (not the paths they were read
        from), the players, the seed and the cap; not the number of games."""
        out: dict[str, Any] = {
            "rulesets": [{"side": s.label, "name": s.name, "hash": s.hash} for s in self.sides],
            "players": list(self.players),
            "seed": self.seed,
            "max_decisions": self.max_decisions,
        }
        if self.learning:  # the same players with another evaluation play other games
            out["evaluations"] = [digest(s.evaluation) for s in self.sides]
        return out


def canonical_player(spec: str) -> str:
    """A player spec in one spelling (`bot` → `heuristic`, options sorted), so that the same player
    written two ways is the same run; raises PlayerError for an unknown player, level or option."""
    entry, _ = parse_spec(spec)  # validates everything
    text = spec.strip()
    text, _, query = text.partition("?")
    _, _, level = text.partition(":")
    level = level.strip().lower() or (entry.default_level or "")
    items = sorted(i.strip() for i in query.split("&") if i.strip())
    return entry.name + (f":{level}" if level else "") + ("?" + "&".join(items) if items else "")


def players_note(players: tuple[str, str]) -> str:
    """What the players of a run make its numbers measure, in one line (every lab report says it)."""
    random = [p.split(":")[0].split("?")[0] == "random" for p in players]
    if all(random):
        return (
            "random players measure the rules, not skill: what can happen and which rules fire; "
            "to see the game as people play it, run with --players sharp"
        )
    if any(random):
        return (
            "a competent player against a random one: the numbers mostly measure the gap between them, "
            "not the rules or the game as people play it"
        )
    return (
        "competent players measure the game as people play it: their strategy shapes who wins, how long "
        "games last and which plays are used (players of other strength may see other numbers)"
    )


def players_line(players: tuple[str, str]) -> str:
    """The line of a report that says who played and what that makes its numbers measure."""
    p1, p2 = players
    who = f"{p1} in both seats" if p1 == p2 else f"{p1} (p1) and {p2} (p2)"
    return f"players: {who}: {players_note(players)}"


def evaluations_line(job: Job) -> str | None:
    """The line of a report that says which evaluation the learning players (sharp, ismcts) played
    with under each ruleset; None when no player learns."""
    if not job.learning:
        return None
    many = len(job.sides) > 1
    parts = [
        (f"{s.label} ({s.name}): " if many else "")
        + (s.evaluation.describe() if s.evaluation else "the hand-set evaluation (untrained)")
        for s in job.sides
    ]
    return "evaluations: sharp and ismcts play with " + "; ".join(parts)


def evaluations_json(job: Job) -> dict[str, Any] | None:
    """The same for a report's JSON: per ruleset, the evaluation's fingerprint and what it gained."""
    if not job.learning:
        return None
    out: dict[str, Any] = {}
    for s in job.sides:
        ev = s.evaluation
        out[s.label] = {
            "digest": digest(ev),
            "describe": ev.describe() if ev else "the hand-set evaluation (untrained)",
            "gain": None if ev is None or ev.gain is None else ev.to_json()["trained"]["gain"],
        }
    return out


# -- the rules and players of a process, built once ----------------------------------------------

_RULES: dict[str, Rules] = {}
_FACTORIES: dict[str, Callable[[int], Player]] = {}
_PLAIN: dict[str, bool] = {}


def remember(rules: Rules) -> None:
    """Keep a loaded ruleset for the games of this process (and of processes forked from it)."""
    _RULES.setdefault(rules.hash, rules)


def rules_of(side: Side) -> Rules:
    rules = _RULES.get(side.hash)
    if rules is None:
        rules = Rules(side.composed)
        rules.spec = side.spec
        if rules.hash != side.hash:
            raise CuttleError(
                f"this worker builds ruleset '{side.name}' with hash {rules.hash}, not {side.hash}: "
                "every worker needs the same version of Cuttle Lab"
            )
        _RULES[side.hash] = rules
    use(rules, side.evaluation)  # the run's, never what this machine's cache holds
    keep_points(rules)  # the win check notes each player's points and goal: each turn's progress
    return rules


def player_factory(spec: str) -> Callable[[int], Player]:
    """The maker of the player `spec` names, from a seed."""
    f = _FACTORIES.get(spec)
    if f is None:
        entry, options = parse_spec(spec)

        def f(seed: int) -> Player:
            return entry.factory(seed=seed, **options)

        _FACTORIES[spec] = f
    return f


def plain_random(spec: str) -> bool:
    """Whether `spec` makes a plain `RandomPlayer` (its picks: `Picks(seed)`, see players/picks.py),
    whose games the lab plays on its fast path (playing.play_random)."""
    plain = _PLAIN.get(spec)
    if plain is None:
        p = player_factory(spec)(0)
        plain = _PLAIN[spec] = type(p) is RandomPlayer and type(getattr(p, "rng", None)) is Picks
    return plain
