"""`cuttle compare A B --until-different`: a behavioural diff of two rulesets.

Paired games are played move by move under both rulesets at once (the players decide under A and
the same move is played under B) until the two first differ: B offers other legal moves than A, or
the same move leads to different positions, or a player knows other hidden cards (a rule's `show`,
a visibility rule). That position and move are shown; if no game of the
run differs, the two rule texts play identically for these players and seeds. Game A is played by
the lab's game loop (playing.play), and `Lockstep` follows it under B.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.core.cards import NAMES
from interpreter.core.errors import CuttleError
from interpreter.core.zones import IS_FIELD, IS_HAND
from interpreter.engine.game import Game
from interpreter.engine.knowledge import face_down, known_hidden, knows
from interpreter.engine.moves import Move
from interpreter.engine.state import DECK, SCRAP, ZONE_NAMES, State

from .job import Job, game_seed, player_factory, player_seed, rules_of
from .playing import play
from .recorder import Action


@dataclass
class Divergence:
    game: int
    seed: int
    moves: list[str]  # the moves played before the difference (under both)
    kind: str  # "legal moves" | "position" | "knowledge"
    move: str = ""  # position: the move after which the positions differ
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    zones: list[tuple[str, str, str]] = field(default_factory=list)  # position: (what, in A, in B)
    position: str = ""  # the position under A where they differ

    def json(self) -> dict[str, Any]:
        return {
            "found": True,
            "game": self.game,
            "seed": self.seed,
            "kind": self.kind,
            "moves": self.moves,
            "move": self.move,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "differences": [{"what": w, "a": a, "b": b} for w, a, b in self.zones],
        }


def _cards(cards: Any) -> str:
    return " ".join(NAMES[c] for c in cards) or "—"


def _facts(g: State) -> list[tuple[str, str]]:
    """What a position is, zone by zone, in words (hands as sets, the deck in order)."""
    out = []
    for z, name in enumerate(ZONE_NAMES[: len(g.zones)]):
        cards = g.zones[z]
        if IS_FIELD[z]:
            text = " ".join(
                NAMES[c]
                + f"({g.role[c]}"
                + (f", on {NAMES[g.host[c]]}" if g.host[c] >= 0 else "")
                + (", face down" if g.down >> c & 1 else "")
                + ")"
                for c in sorted(cards)
            )
            out.append((name, text or "—"))
        elif z == DECK:
            out.append(
                (
                    name,
                    f"{len(cards)} cards, top first: {_cards(reversed(cards[-5:]))}"
                    + (" ..." if len(cards) > 5 else ""),
                )
            )
        elif z == SCRAP or IS_HAND[z]:
            out.append((name, _cards(sorted(cards))))
        else:
            out.append((name, _cards(cards)))
    d = g.pending
    out.append(
        (
            "to decide",
            "nobody (game over)"
            if d is None
            else f"p{d.player + 1} ({d.kind}" + (f" {d.verb}" if d.verb else "") + ")",
        )
    )
    out.append(("result", "game goes on" if g.outcome is None else g.outcome.reason))
    out.append(
        (
            "marks",
            ", ".join(
                f"{NAMES[c] if c >= 0 else f'p{-c}'} {name} until turn {last}"
                for (c, name), last in sorted(g.marks.items())
            )
            or "—",
        )
    )
    out.append(("counters", _counters(g)))
    return out


def _counters(g: State) -> str:
    """Every counter that holds a value now, in words (`p1 tally 2`, `7H heat 1`)."""
    held = []
    for key, name in sorted(g.counters):
        v = g.counter(key, name)
        if v:
            held.append(f"{NAMES[key] if key >= 0 else f'p{-key}'} {name} {v}")
    return ", ".join(held) or "—"


def knowledge_facts(g: State) -> list[tuple[str, str]]:
    """What each player knows of the hidden cards (engine/knowledge.py), in words: the opponent's hand
    cards they know, and the deck's cards they know by their place from the top."""
    out = []
    for p in (0, 1):
        hand, deck = known_hidden(g, p)
        out.append((f"p{p + 1} knows of p{2 - p}'s hand", _cards(sorted(hand))))
        out.append(
            (f"p{p + 1} knows of the deck", " ".join(f"{NAMES[c]} ({i + 1} from the top)" for i, c in deck) or "—")
        )
        if g.down:  # the cards face down in play this player knows
            down = sorted(c for q in (0, 1) for c in face_down(g, q) if knows(g, p, c))
            out.append((f"p{p + 1} knows face down", _cards(down)))
    return out


def position_text(g: State) -> str:
    return "\n".join(f"    {k:<12} {v}" for k, v in _facts(g) if v != "—" or k.startswith("hand"))


class GameFailed(CuttleError):
    """A move that the rules of A or B could not play, with the game named."""


class Lockstep:
    """Game B played in lockstep with game A, as A is played (playing.play): every move of A is
    played under B too, and the first difference is noted: other legal moves (before each decision:
    `differs`), or other positions after the same move (`observe`)."""

    def __init__(self, index: int, seed: int, b: Game) -> None:
        self.index, self.seed, self.b = index, seed, b
        self.moves: list[str] = []  # the moves played under both
        self.found: Divergence | None = None

    def differs(self, a: Game) -> bool:
        if self.found is None:
            la, lb = set(a.legal_moves()), set(self.b.legal_moves())
            if la != lb:
                only_a, only_b = sorted(str(m) for m in la - lb), sorted(str(m) for m in lb - la)
                self.found = Divergence(
                    self.index,
                    self.seed,
                    self.moves,
                    "legal moves",
                    only_a=only_a,
                    only_b=only_b,
                    position=position_text(a.state),
                )
            else:
                self.knowledge(a.state)
        return self.found is not None

    def knowledge(self, ga: State) -> None:
        """The same position and legal moves, but a player knows other hidden cards under A than under B
        (a rule's `show`, a visibility rule): the first difference too."""
        ka, kb = knowledge_facts(ga), knowledge_facts(self.b.state)
        if ka != kb:
            zones = [(k, x, y) for (k, x), (_, y) in zip(ka, kb, strict=True) if x != y]
            self.found = Divergence(
                self.index,
                self.seed,
                self.moves,
                "knowledge",
                move=self.moves[-1] if self.moves else "",
                zones=zones,
                position=position_text(ga),
            )

    def observe(self, before: State, d: Any, acts: list[Action], act: Action, move: Move, after: State) -> None:
        try:
            self.b.push(move)
        except CuttleError as e:
            raise GameFailed(f"game {self.index} (seed {self.seed}): '{move}' failed: {e}") from None
        self.moves.append(str(move))
        fa, fb = _facts(after), _facts(self.b.state)
        if fa != fb:
            zones = [(k, x, y) for (k, x), (_, y) in zip(fa, fb, strict=True) if x != y]
            self.found = Divergence(
                self.index,
                self.seed,
                self.moves[:-1],
                "position",
                move=str(move),
                zones=zones,
                position=position_text(before),
            )


def first_difference(job: Job, games: int) -> tuple[Divergence | None, int]:
    """Play paired games until A and B differ; returns the difference (or None) and games played."""
    a, b = rules_of(job.sides[0]), rules_of(job.sides[1])
    make = [player_factory(job.players[0]), player_factory(job.players[1])]
    cap = job.max_decisions
    for i in range(games):
        seed = game_seed(job.seed, i)
        ga = Game.new(a, seed)
        step = Lockstep(i, seed, Game.new(b, seed))
        players = [make[s](player_seed(seed, s)) for s in (0, 1)]
        try:
            played = play(ga, players, cap, observer=step, until=step.differs)
        except GameFailed:
            raise
        except CuttleError as e:  # a move under A (under B: Lockstep.observe says so itself)
            raise GameFailed(f"game {i} (seed {seed}): {e}") from None
        if played.state.winner is not None and played.decisions < cap:
            step.differs(ga)  # where A ended, B may go on
        if step.found is not None:
            return step.found, i + 1
    return None, games


def describe(d: Divergence | None, played: int, name_a: str, name_b: str) -> str:
    if d is None:
        return (
            f"no difference in {played:,} paired games: {name_a} and {name_b} offered the same legal moves, "
            "reached the same positions and gave each player the same knowledge at every step (for these "
            "players and seeds)"
        )
    shown = d.moves[-8:]
    lines = [
        f"game {d.game} (seed {d.seed}) differs after {len(d.moves)} moves"
        + ("" if not d.moves else f" ({'the last 8: ' if len(d.moves) > 8 else ''}{' ; '.join(shown)})")
    ]
    if d.kind == "knowledge":
        lines.append(
            "the position is the same under both, but a player knows other hidden cards"
            + (f" (after '{d.move}')" if d.move else " (from the deal)")
            + ":"
        )
        width = max(len(w) for w, _, _ in d.zones)
        for w, x, y in d.zones:
            lines.append(f"  {w:<{width}}  {name_a}: {x}")
            lines.append(f"  {'':<{width}}  {name_b}: {y}")
        lines.append("  the position:")
        lines.append(d.position)
    elif d.kind == "legal moves":
        lines.append(f"here {name_a} and {name_b} offer different legal moves:")
        lines.append(f"  only under {name_a}: " + (", ".join(d.only_a) or "—"))
        lines.append(f"  only under {name_b}: " + (", ".join(d.only_b) or "—"))
        lines.append("  the position (the same under both):")
        lines.append(d.position)
    else:
        lines.append("the position (the same under both):")
        lines.append(d.position)
        lines.append(f"the move '{d.move}' leads to different positions:")
        width = max(len(w) for w, _, _ in d.zones)
        for w, x, y in d.zones:
            lines.append(f"  {w:<{width}}  {name_a}: {x}")
            lines.append(f"  {'':<{width}}  {name_b}: {y}")
    lines.append(f"(to play this deal yourself: cuttle play --seed {d.seed} --ruleset RULESET --vs human)")
    return "\n".join(lines)
