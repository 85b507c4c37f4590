"""Writing a game as a scenario file (docs/scenarios.md) that `cuttle run` accepts and passes.

The setup is the game's own (a scenario or a record with a setup) or, for a dealt game, the dealt
position written out card by card: both hands, the whole deck in order, whose turn. Then come the
moves, and an `expect:` of the position reached (whose turn and decision, scores, goals, hand sizes,
the winner) so the file checks something.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from interpreter import Game
from interpreter.core.cards import NAMES
from interpreter.core.zones import FIELDS, HANDS
from interpreter.engine.state import DECK, SCRAP, SHOWN, STACK, State
from interpreter.language.phrasing import counted
from interpreter.scripting import records

PLAYER_KEYS = ("p1", "p2", "p3", "p4")


def seat_keys(state: State) -> tuple[str, ...]:
    """The players of the table, as a scenario names them (`p1`, `p2`, ...)."""
    return PLAYER_KEYS[: state.rules.seats]


def setup_of(state: State) -> dict[str, Any]:
    """A scenario `setup` that places every card of `state` where it is (a start position)."""
    setup: dict[str, Any] = {"turn": PLAYER_KEYS[state.turn]}
    # where the hidden cards a player may know lie: the deck, another player's hand
    others = {p: [DECK] + [HANDS[q] for q in range(state.rules.seats) if q != p] for p in range(state.rules.seats)}
    for p, key in enumerate(seat_keys(state)):
        side: dict[str, Any] = {"hand": [NAMES[c] for c in state.zones[HANDS[p]]]}
        points, royals = _points_text(state, p)
        if points:
            side["points"] = points
        if royals:
            side["royals"] = royals
        side.update(_in_roles(state, p))
        known = [
            NAMES[c]
            for c in range(len(state.zone_of))
            if state.known >> ((c << 2) + p) & 1
            and (state.zone_of[c] in others[p] or state.is_face_down(c) and state.owner[c] != p)
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
    if state.first != (state.turn - state.turn_no + 1) % state.rules.seats:  # (else it follows from the turn)
        setup["first"] = PLAYER_KEYS[state.first]
    if state.passes:
        setup["passes"] = state.passes
    if state.hands:  # hands of a match already played: won by each player, and drawn
        match = {key: state.wins[p] for p, key in enumerate(seat_keys(state)) if state.wins[p]}
        draws = len(state.hands) - sum(state.wins)
        setup["match"] = {**match, "draws": draws} if draws else match
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
    for p, key in enumerate(seat_keys(g)):
        exp[key] = {"score": game.score(p), "goal": game.goal(p), "hand_count": len(g.zones[HANDS[p]])}
    exp["deck_count"] = len(g.zones[DECK])
    return exp


def settled_before(game: Game) -> int:
    """The number of moves after which the game last stood at a turn's action with nothing resolving
    (no card on the stack or revealed, no step waiting): a position a `setup:` can hold exactly."""
    for n in range(len(game.moves), -1, -1):
        g = game.state_after(n)
        if (
            g.pending is not None
            and str(g.pending.kind) == "main"
            and not g.frames
            and not g.zones[STACK]
            and not g.zones[SHOWN]
            and not g.chain
        ):
            return n
    return 0


def _points_text(g: State, p: int, owners: bool = True) -> tuple[list[str], list[str]]:
    """A side's point cards (with the cards on them) and Royals; `owners`: with `@pN` where a setup
    needs it (an expectation names the cards alone)."""
    points, royals = [], []
    for c in g.zones[FIELDS[p]]:
        if g.host[c] >= 0 or g.is_face_down(c):
            continue
        if g.role[c] == "point":
            points.append(_stacked(g, p, c, owners))
        elif g.role[c] == "royal":
            royals.append(_stacked(g, p, c, owners) if g.atts.get(c) and g.rules.seats > 2 else NAMES[c])
    return points, royals


def _stacked(g: State, p: int, base: int, owners: bool) -> str:
    """A card in play with the cards on it, as a setup writes it (`7H+JC`): the owners alternate, the
    top one `p`'s, with p's first opponent (scripting/setup.py); an owner the alternation does not give
    (at a larger table: a Jack or Joker for another player) is written `CARD@pN`."""
    tops = g.atts.get(base, [])
    other, n = g.rules.opponent_of[p], len(tops)
    expected = [p if n % 2 == 0 else other] + [p if (n - 1 - k) % 2 == 0 else other for k in range(n)]
    return "+".join(
        NAMES[c] + ("" if g.owner[c] == want or not owners else f"@{PLAYER_KEYS[g.owner[c]]}")
        for c, want in zip([base, *tops], expected, strict=True)
    )


def _in_roles(g: State, p: int) -> dict[str, dict[str, list[str]]]:
    """A side's cards in other roles, as a setup writes them: `roles` (face up), `face_down` (face down,
    the player knows it) and `unseen` (face down, the player does not know it)."""
    out: dict[str, dict[str, list[str]]] = {}
    for c in g.zones[FIELDS[p]]:
        role = g.role[c]
        if g.host[c] >= 0 or role is None or not g.is_face_down(c) and role in ("point", "royal"):
            continue
        key = "roles" if not g.is_face_down(c) else "face_down" if g.known >> ((c << 2) + p) & 1 else "unseen"
        out.setdefault(key, {}).setdefault(role, []).append(NAMES[c])
    return out


def card_expectations(game: Game) -> dict[str, Any]:
    """`expectations`, with every card spelled out: each hand, point card (with its Jacks), royal,
    the scrap, the top of the deck and the cards still resolving."""
    g = game.state
    exp = expectations(game)
    for p, key in enumerate(seat_keys(g)):
        points, royals = _points_text(g, p, owners=False)
        side = {k: v for k, v in exp[key].items() if k != "hand_count"}  # (the hand is spelled out)
        exp[key] = {"hand": [NAMES[c] for c in g.zones[HANDS[p]]], "points": points, "royals": royals, **side}
        in_roles = _in_roles(g, p)
        if "roles" in in_roles:
            exp[key]["roles"] = in_roles["roles"]
        down: dict[str, list[str]] = {}  # (face down, whoever sees it: `knows:` says who does)
        for k in ("face_down", "unseen"):
            for role, cards in in_roles.get(k, {}).items():
                down.setdefault(role, []).extend(cards)
        if down:
            exp[key]["face_down"] = down
    exp["scrap"] = [NAMES[c] for c in g.zones[SCRAP]]
    if g.zones[DECK]:
        exp["deck_top"] = [NAMES[c] for c in reversed(g.zones[DECK][-3:])]
    exp["stack"] = [NAMES[c] for c in g.zones[STACK]]
    return exp


def position_scenario(game: Game, ruleset: str | None = None) -> dict[str, Any]:
    """This position as a scenario (`scenario FILE --here`): the board at the start of the current
    turn's action as `setup:`, the moves played since (none when nothing is resolving), and every
    card of the position reached in `expect:`; ready for `cuttle run FILE` and `cuttle solve FILE`."""
    n = settled_before(game)
    g = game.state_after(n)
    now, d = game.state, game.decision  # the name tells the position exported, not the setup's
    doing = {"respond": "answer the play", "choose": "choose", "play": "play a revealed card"}
    to = f"{PLAYER_KEYS[d.player]} to {doing.get(d.kind, 'act')}" if d is not None else "the game over"
    return {
        "name": f"{game.rules.name}: the position of turn {now.turn_no}, {to}",
        "ruleset": ruleset or game.rules.spec,
        "seed": game.seed,
        "setup": setup_of(g),
        "moves": [str(m) for m in game.moves[n:]],
        "expect": card_expectations(game),
    }


def scenario_of(game: Game, ruleset: str | None = None, name: str | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": name or f"{counted(len(game.moves), 'move')} of a {game.rules.name} game",
        "ruleset": ruleset or game.rules.spec,
        "seed": game.seed,
    }
    doc["setup"] = game.setup if game.setup is not None else setup_of(game.initial)
    doc["moves"] = [str(m) for m in game.moves]
    doc["expect"] = expectations(game)
    return doc


def write_scenario(game: Game, path: str, ruleset: str | None = None, here: bool = False) -> None:
    """Write the scenario (the whole game, or with `here` this position) whole or not at all. The
    ruleset (`ruleset`, else the game's, as it was loaded: from the folder you work in) is named with
    each file relative to the scenario's folder, as a record names it (a scenario may name only files
    in its folder or below, never an absolute path: `cuttle run` refuses those)."""
    ruleset = records.spec_for(ruleset or game.rules.spec, Path(path))
    doc = position_scenario(game, ruleset) if here else scenario_of(game, ruleset)
    if not doc["moves"]:
        del doc["moves"]
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)
    how = "scenario --here" if here else "scenario"
    records.write_atomic(path, f"# written by `cuttle play` ({how} command); run it with `cuttle run FILE`\n" + text)
