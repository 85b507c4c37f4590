"""Writing a game as a scenario file (docs/scenarios.md) that `cuttle run` accepts and passes.

The setup is the game's own (a scenario or a record with a setup) or, for a dealt game, the dealt
position written out card by card: both hands, the whole deck in order, whose turn. Then come the
moves, and an `expect:` of the position reached (whose turn and decision, scores, goals, hand sizes,
the winner) so the file checks something.
"""

from __future__ import annotations

from typing import Any

import yaml

from interpreter import Game
from interpreter.core.cards import NAMES
from interpreter.engine.state import DECK, FIELD0, HAND0, SCRAP, State
from interpreter.scripting import records

PLAYER_KEYS = ("p1", "p2")


def setup_of(state: State) -> dict[str, Any]:
    """A scenario `setup` that places every card of `state` where it is (a start position)."""
    setup: dict[str, Any] = {"turn": PLAYER_KEYS[state.turn]}
    for p, key in enumerate(PLAYER_KEYS):
        side: dict[str, Any] = {"hand": [NAMES[c] for c in state.zones[HAND0 + p]]}
        points, royals = [], []
        for c in state.zones[FIELD0 + p]:
            if state.host[c] >= 0:
                continue
            if state.role[c] == "point":
                points.append("+".join([NAMES[c], *(NAMES[j] for j in state.atts.get(c, []))]))
            else:
                royals.append(NAMES[c])
        if points:
            side["points"] = points
        if royals:
            side["royals"] = royals
        known = [
            NAMES[c]
            for c in range(len(state.zone_of))
            if state.known >> ((c << 1) + p) & 1 and state.zone_of[c] in (DECK, HAND0 + 1 - p)
        ]
        if known:  # the hidden cards this player knows (engine/knowledge.py)
            side["knows"] = known
        marks = sorted(m for (k, m) in state.marks if k == -1 - p and state.is_marked(k, m))
        if marks:  # (a setup's marks last the rest of the game)
            side["marks"] = marks
        counters = {n: state.counter(k, n) for (k, n) in sorted(state.counters) if k == -1 - p and state.counter(k, n)}
        if counters:
            side["counters"] = counters
        setup[key] = side
    setup["deck"] = [NAMES[c] for c in reversed(state.zones[DECK])]  # top first
    if state.zones[SCRAP]:
        setup["scrap"] = [NAMES[c] for c in state.zones[SCRAP]]
    if state.turn_no != 1:
        setup["turn_number"] = state.turn_no
    cards: dict[str, Any] = {}
    for k, m in sorted(state.marks):
        if k >= 0 and state.is_marked(k, m):
            cards.setdefault(NAMES[k], {}).setdefault("marks", []).append(m)
    for k, n in sorted(state.counters):
        if k >= 0 and state.counter(k, n):
            cards.setdefault(NAMES[k], {}).setdefault("counters", {})[n] = state.counter(k, n)
    if cards:  # marks and counters of single cards
        setup["cards"] = cards
    setup["rng"] = state.rng.s  # random effects (a random 4, a reshuffle) then replay exactly
    return setup


def expectations(game: Game) -> dict[str, Any]:
    g = game.state
    exp: dict[str, Any] = {"turn": PLAYER_KEYS[g.turn]}
    if g.pending is not None:
        exp["decider"] = PLAYER_KEYS[g.pending.player]
        exp["decision"] = str(g.pending.kind)
    out = game.outcome
    exp["winner"] = "none" if out is None else ("draw" if out.winner is None else PLAYER_KEYS[out.winner])
    for p, key in enumerate(PLAYER_KEYS):
        exp[key] = {"score": game.score(p), "goal": game.goal(p), "hand_count": len(g.zones[HAND0 + p])}
    exp["deck_count"] = len(g.zones[DECK])
    return exp


def scenario_of(game: Game, ruleset: str | None = None, name: str | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": name or f"{len(game.moves)} moves of a {game.rules.name} game",
        "ruleset": ruleset or game.rules.spec,
        "seed": game.seed,
    }
    doc["setup"] = game.setup if game.setup is not None else setup_of(game.initial)
    doc["moves"] = [str(m) for m in game.moves]
    doc["expect"] = expectations(game)
    return doc


def write_scenario(game: Game, path: str, ruleset: str | None = None) -> None:
    """Write the scenario whole or not at all."""
    text = yaml.safe_dump(scenario_of(game, ruleset), sort_keys=False, allow_unicode=True, width=100)
    records.write_atomic(path, "# written by `cuttle play` (scenario command); run it with `cuttle run FILE`\n" + text)
