"""Legal moves: enumerating the actions of the pending decision, and their notation.

An action is a plain tuple: ("play", PlayDef, player, cards, target), ("respond", ResponseDef,
player, cards, extra), ("resolve",) or ("choose", cards); `move_of` gives its Move.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import RANK_OF
from interpreter.core.zones import HAND0
from interpreter.language.runtime import as_cards
from interpreter.rules import Rules

from .decision import CHOOSE_D, MAIN, RESOLVE, RESPOND, Decision
from .moves import Move

if TYPE_CHECKING:
    from .state import State


def env_of(player: int, cards: tuple[int, ...], **more: Any) -> dict:
    env = {"me": player, "opponent": 1 - player, "card": cards[0] if cards else -1, "cards": cards}
    env.update(more)
    return env


def plays_for(g: State, player: int, source: tuple[int, ...], free_ok: bool = True) -> list[tuple]:
    """Every play action of cards from `source` by `player` (main actions, free plays, plays from a 7).

    An action is a plain tuple ("play", PlayDef, player, cards, target); `move_of` gives its Move.
    Single-card plays go through one generated function per rank (`_single_plays`); plays of several
    cards of a rank (twins) through the general loop below.
    """
    rules: Rules = g.rules
    playable = rules.playable_fn
    opp = 1 - player
    out: list[tuple] = []
    singles = _single_plays(rules)
    multi = rules._multi_by_rank  # type: ignore[attr-defined]
    for i, c in enumerate(source):
        if playable is not None and not playable(g, {"me": player, "opponent": opp, "it": c}):
            continue
        rank = RANK_OF[c]
        fn = singles[rank]
        if fn is not None:
            fn(g, player, c, out, free_ok)
        for p in multi[rank]:
            if p.free and not free_ok:
                continue
            # When the play reads `card` (a twinned Royal or Jack puts its first card into play), the
            # first card named is the player's choice: each card may come first (ruling 18). When it
            # does not (a twinned one-off scraps both), the cards are a set, named in source order.
            others = [x for j, x in enumerate(source) if (j != i if p.first_card_matters else j > i)]
            same = [x for x in others if RANK_OF[x] == rank and (
                playable is None or playable(g, {"me": player, "opponent": opp, "it": x}))]
            for rest in itertools.combinations(same, p.ncards - 1):
                cards = (c,) + rest
                env = {"me": player, "opponent": opp, "card": c, "cards": cards}
                if p.legal is not None and not p.legal(g, env):
                    continue
                if p.target is not None:
                    for t in as_cards(p.target(g, env)):
                        out.append(("play", p, player, cards, t))
                else:
                    out.append(("play", p, player, cards, -1))
    return out


def _single_plays(rules: Rules) -> dict[str, Any]:
    """For each rank, one generated function appending every single-card play of a card of that
    rank: the plays' `legal` and `target` functions called in turn with one shared binding dict
    (generated expressions only read their bindings). Built once per ruleset."""
    cached = getattr(rules, "_singles", None)
    if cached is not None:
        return cached
    ns: dict[str, Any] = {"__builtins__": {}, "_cards": as_cards}
    singles: dict[str, Any] = {}
    for rank, plays in rules.by_rank.items():
        plays = [p for p in plays if p.ncards == 1]
        if not plays:
            singles[rank] = None
            continue
        lines = ["def enum(g, me, c, out, free_ok):", "    add = out.append", "    cards = (c,)",
                 "    e = {'me': me, 'opponent': 1 - me, 'card': c, 'cards': cards}"]
        for i, p in enumerate(plays):
            ns[f"P{i}"], ns[f"L{i}"], ns[f"T{i}"] = p, p.legal, p.target
            indent = "    "
            if p.free:
                lines.append(indent + "if free_ok:")
                indent += "    "
            if p.legal is not None:
                lines.append(f"{indent}if L{i}(g, e):")
                indent += "    "
            if p.target is not None:
                lines.append(f"{indent}for t in _cards(T{i}(g, e)):")
                lines.append(f"{indent}    add(('play', P{i}, me, cards, t))")
            else:
                lines.append(f"{indent}add(('play', P{i}, me, cards, -1))")
        local: dict[str, Any] = {}
        exec(compile("\n".join(lines), f"<plays of a {rank}>", "exec"), dict(ns), local)  # noqa: S102
        singles[rank] = local["enum"]
    rules._multi_by_rank = {r: [p for p in ps if p.ncards > 1]  # type: ignore[attr-defined]
                            for r, ps in rules.by_rank.items()}
    rules._singles = singles  # type: ignore[attr-defined]
    return singles


def _responses(g: State, player: int) -> list[tuple]:
    top = g.chain[-1]
    kind = top[0].kind
    hand = g.zones[HAND0 + player]
    rules: Rules = g.rules
    out = []
    for r in rules.answering.get(kind, ()):
        for c in hand:
            if RANK_OF[c] not in r.ranks:
                continue
            if rules.playable_fn is not None and not rules.playable_fn(
                    g, {"me": player, "opponent": 1 - player, "it": c}):
                continue
            others = [x for x in hand if x != c]
            for extra in itertools.combinations(sorted(others), r.extra):
                env = env_of(player, (c,), extra=extra, answered=top[2])
                if r.legal is not None and not r.legal(g, env):
                    continue
                out.append(("respond", r, player, (c,), extra))
    return out


RESOLVE_ACTION = ("resolve",)


def legal_actions(g: State) -> list[tuple]:
    """The legal actions of the pending decision (plain tuples; see `move_of`)."""
    d: Decision = g.pending
    if d is None:
        return []
    if g.actions is not None:
        return g.actions
    if d.kind == MAIN:
        p = d.player
        env = {"me": p, "opponent": 1 - p, "card": -1, "cards": ()}
        out = [("play", pd, p, (), -1) for pd in g.rules.cardless if pd.legal is None or pd.legal(g, env)]
        out.extend(plays_for(g, p, tuple(g.zones[HAND0 + p])))
        g.actions = out
        return out
    if d.kind == RESPOND:
        out = _responses(g, d.player)
        out.append(RESOLVE_ACTION)
        return out
    if d.kind == CHOOSE_D:
        return [("choose", combo) for combo in itertools.combinations(sorted(d.options), d.count)]
    return plays_for(g, d.player, d.options, free_ok=False)


def move_of(g: State, action: tuple) -> Move:
    """The notation of an action of the pending decision."""
    kind = action[0]
    if kind == "play":
        _, p, _, cards, target = action
        return Move(p.verb, cards + (target,) if target >= 0 else cards)
    if kind == "respond":
        return Move(action[1].verb, action[3] + action[4])
    if kind == "resolve":
        return RESOLVE
    return Move(g.pending.verb, action[1])


def enumerate_actions(g: State) -> list[tuple[Move, tuple]]:
    """The legal moves of the pending decision, each with the action it performs."""
    return [(move_of(g, a), a) for a in legal_actions(g)]


__all__ = ["plays_for", "legal_actions", "move_of", "enumerate_actions", "RESOLVE_ACTION", "env_of"]
