"""Differential test: the interpreter running `rulesets/default.yaml` against the plain hand-written
engine of `benchmarks/handwritten.py`.

For each seed, a random game is played (moves chosen with `random.Random(seed)` among the
interpreter's legal moves sorted as text). At every decision both engines must offer the same set
of legal moves, and after every move they must agree on the position: hands, each side's point
cards with their Jacks, Jacks and royals in play, scrap, revealed cards, the deck in order, who
decides, the scores and the winner.
"""

from __future__ import annotations

import random

import pytest

from benchmarks import handwritten as hw
from benchmarks.handwritten import Cuttle
from interpreter import load_ruleset
from interpreter.core.cards import NAMES
from interpreter.core.zones import DRAW
from interpreter.engine.machine import apply_action, deal, enumerate_actions
from interpreter.engine.state import DECK, FIELD0, HAND0, SCRAP, SHOWN

pytestmark = pytest.mark.slow  # a harness of many seeded games: the full tier only

SEEDS = range(1500)
MAX_MOVES = 3000
# the interpreter's decision kinds (and a choice's verb) for the hand-written engine's phases
DECISION = {
    hw.MAIN: "main",
    hw.RESPOND: "respond",
    hw.SEVEN: "play",
    hw.TAKE: "choose take",
    hw.DISCARD4: "choose discard",
    hw.DISCARD5: "choose discard",
    hw.SCRAP7: "choose scrap",
    hw.LIMIT: "choose discard",
}


def _names(cards) -> list[str]:
    return sorted(NAMES[c] for c in cards)


def interp_position(g, rules) -> dict:
    sides = []
    for p in (0, 1):
        field = g.zones[FIELD0 + p]
        sides.append(
            {
                "points": sorted(
                    (NAMES[c], tuple(NAMES[j] for j in g.atts.get(c, ()))) for c in field if g.role[c] == "point"
                ),
                "jacks": _names(c for c in field if g.role[c] == "jack"),
                "royals": _names(c for c in field if g.role[c] == "royal"),
                "hand": _names(g.zones[HAND0 + p]),
                "score": rules.score_of(g, p),
            }
        )
    return {
        "sides": sides,
        "scrap": _names(g.zones[SCRAP]),
        "shown": _names(g.zones[SHOWN]),
        "deck": [NAMES[c] for c in g.zones[DECK]],
        "decides": None if g.pending is None else g.pending.player,
        "decision": None if g.pending is None else " ".join(filter(None, (g.pending.kind, g.pending.verb))),
        "winner": "draw" if g.winner == DRAW else g.winner,
    }


def hand_position(h: Cuttle) -> dict:
    sides = []
    for p in (0, 1):
        sides.append(
            {
                "points": sorted((NAMES[c], tuple(NAMES[j] for j in h.jk.get(c, ()))) for c in h.pts[p]),
                "jacks": _names(j for js in h.jk.values() for j in js if h.own[j] == p),
                "royals": _names(h.roy[p]),
                "hand": _names(h.hands[p]),
                "score": h.score(p),
            }
        )
    return {
        "sides": sides,
        "scrap": _names(h.scrap),
        "shown": _names(h.shown),
        "deck": [NAMES[c] for c in h.deck],
        "decides": None if h.winner is not None else h.dp,
        "decision": None if h.winner is not None else DECISION[h.phase],
        "winner": "draw" if h.winner == hw.DRAWN else h.winner,
    }


def uniform(rnd: random.Random, texts: list[str]) -> str:
    """The move, uniformly among the legal moves sorted as text."""
    return rnd.choice(texts)


def by_verb(rnd: random.Random, texts: list[str]) -> str:
    """A verb uniformly, then one of its moves: rare plays (7s, 9s, Jacks, counters) come up far more often."""

    def kind(text: str) -> str:  # a one-off's kind is its rank: `oneoff 9`
        parts = text.split()
        return parts[0] + " " + parts[1][:-1] if parts[0] == "oneoff" else parts[0]

    kinds = sorted({kind(t) for t in texts})
    k = rnd.choice(kinds)
    return rnd.choice([t for t in texts if kind(t) == k])


def play_both(seed: int, rules, policy=uniform) -> int:
    """Play one random game in both engines; returns the number of moves made."""
    g = deal(rules, seed)
    h = Cuttle(seed)
    rnd = random.Random(seed)
    history: list[str] = []

    def where() -> str:
        return f"seed {seed}, move {len(history) + 1}, after: {' | '.join(history[-12:])}"

    for _ in range(MAX_MOVES):
        a, b = interp_position(g, rules), hand_position(h)
        assert a == b, f"positions differ at {where()}\ninterpreter: {a}\nhandwritten: {b}"
        if g.winner is not None:
            break
        acts = enumerate_actions(g)
        theirs = {str(m): act for m, act in acts}
        mine_list = h.legal()
        mine = {h.move_text(m): m for m in mine_list}
        assert len(theirs) == len(acts) and len(mine) == len(mine_list), f"duplicate moves at {where()}"
        if set(theirs) != set(mine):
            pytest.fail(
                f"legal moves differ at {where()}\n"
                f"  only interpreter: {sorted(set(theirs) - set(mine))}\n"
                f"  only handwritten: {sorted(set(mine) - set(theirs))}"
            )
        text = policy(rnd, sorted(theirs))
        history.append(text)
        apply_action(g, theirs[text])
        h.apply(mine[text])
    return len(history)


@pytest.mark.parametrize("policy", [uniform, by_verb], ids=["uniform", "by_verb"])
def test_differential_random_games(policy):
    rules = load_ruleset("default")
    total = sum(play_both(seed, rules, policy) for seed in SEEDS)
    assert total > 20 * len(SEEDS)  # real games were played, not just deals
