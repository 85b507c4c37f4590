"""Reasons in words for what the rules forbid, used by `Game.explain`: why a card is not a legal
target, why a play opened no response window, why cards cannot be played together.

Every reason is read from the ruleset's data (its expressions through `language.english`), never
from what a rank is known to do: a house rule explains itself the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.core.cards import RANK_OF, card_symbol
from interpreter.core.errors import CuttleError
from interpreter.language import tree as A
from interpreter.language.compiler import Compiler, as_cards
from interpreter.language.constructs.binary import conjuncts
from interpreter.language.english import (
    Context,
    a,
    comparative,
    cond_text,
    join_or,
    kind_word,
    rank_noun,
    subst,
    value,
)
from interpreter.language.parser import parse_expr

from .moves import Move
from .seating import play_env
from .state import STACK

if TYPE_CHECKING:
    from .game import Game

BOUND = frozenset({"me", "opponent", "card", "cards", "it", "target"})


def _label(p: Any) -> str:
    verb = str(getattr(p, "verb", "") or "")
    return kind_word(verb) if verb in ("oneoff", "royal", "jack", "counter") else verb


def _define_call(node: A.Node) -> A.Call | None:
    while isinstance(node, A.Not):
        node = node.operand
    return node if isinstance(node, A.Call) else None


def target_reason(game: Game, p: Any, env: dict[str, Any], target: int) -> str | None:
    """Why `target` is not among the cards play `p` may target: the first part of its target
    condition that the card fails, in words ('5♠ does not beat 8♣ (a scuttle needs a higher value, or
    the same value and a higher suit)'). None when the target is not written `SET where CONDITION`."""
    src = p.source.get("target") if isinstance(p.source, dict) else None
    if not isinstance(src, str):
        return None
    try:
        tree = parse_expr(src)
    except CuttleError:
        return None
    if not isinstance(tree, A.Where):
        return None
    rules, g = game.rules, game.state
    card = env.get("card", -1)
    ctx = Context.from_data(rules.data)
    ctx = ctx.with_(
        aliases={**ctx.aliases, "it": card_symbol(target), **({"card": card_symbol(card)} if card >= 0 else {})}
    )
    compiler = Compiler(rules.ctx, None)
    try:
        pool = as_cards(compiler.expr(tree.source, BOUND)(g, env))
        if target not in pool:
            return f"{card_symbol(target)} is not one of {value(tree.source, ctx)}"
        for part in conjuncts(tree.cond):
            if compiler.expr(part, BOUND)(g, {**env, "it": target}):
                continue
            reason = cond_text(part, ctx, negated=True)
            call = _define_call(part)
            if call is not None and call.func in ctx.defines:
                params, body = ctx.defines[call.func]
                names = [x.name for x in call.args if isinstance(x, A.Name)]
                if len(params) == 2 and names == ["card", "it"]:
                    need = comparative(body, params[0], params[1])
                    if need:
                        reason += f" ({a(_label(p))} needs {need})"
            return reason
    except (CuttleError, TypeError, ValueError, KeyError, IndexError):  # a reason is a courtesy, never a crash
        return None
    return None


def no_window_reason(game: Game) -> str | None:
    """Why the last move, a play or a response, opened no response window: it is of no kind a
    response answers, no response answers its kind in these rules, or its kind's `counterable`
    (or the response's) did not hold — said with the player's name ('P1 has a Queen')."""
    if not game.moves:
        return None
    before, move = game.state_after(len(game.moves) - 1), game.moves[-1]
    from .machine import enumerate_actions

    try:
        action = next((act for m, act in enumerate_actions(before.copy()) if m == move), None)
    except CuttleError:
        return None
    if action is None or action[0] not in ("play", "respond"):
        return None
    rules = game.rules
    p, player, cards = action[1], action[2], action[3]
    who = game.who(player).upper()
    what = f"{who}'s {move.pretty()}"
    answered = list(dict.fromkeys(k for r in rules.responses for k in r.source.get("answers", [])))
    kind = p.kind
    if kind is None:
        return (
            f"{what} cannot be countered (only {join_or([kind_word(k, True) for k in answered], 'and')} can be)"
            if answered
            else f"{what} cannot be countered"
        )
    src = (
        p.source.get("counterable")
        if action[0] == "respond"
        else ((rules.data.get("kinds") or {}).get(kind) or {}).get("counterable")
    )
    path = ("responses", p.name, "counterable") if action[0] == "respond" else ("kinds", kind, "counterable")
    if src is None or src is False or str(src).strip() in ("false", "never"):
        setter = rules.composed.setters.get(path)
        under = f" under {rules.composed.label(setter)}" if setter and setter in rules.composed.options else ""
        return f"{what} cannot be countered: {kind_word(kind, True)} cannot be countered{under}"
    if not rules.answering.get(kind):
        return f"{what} cannot be countered: no response answers {kind_word(kind, True)} in these rules"
    try:
        tree = parse_expr(str(src))
    except CuttleError:
        return None
    env = {"me": player, "opponent": rules.opponent_of[player], "card": cards[0] if cards else -1, "cards": cards}
    if action[0] == "play" and len(action) > 5:  # at a larger table: as the engine binds it (the player aimed at)
        env = play_env(rules, action[1:6])
    elif action[0] == "respond" and before.chain:  # the player whose play it answers
        env["opponent"] = before.chain[-1][1]
    reader = game.state.pending.player if game.state.pending is not None else player
    if rules.seats == 2 and reader != player:  # told to the other player
        tree = subst(tree, {"me": A.Name("opponent"), "opponent": A.Name("me")})
    elif rules.seats > 2:  # each named by its seat, except the one told ("you")
        tree = subst(tree, {k: A.Name("me" if env[k] == reader else f"p{env[k] + 1}") for k in ("me", "opponent")})
    ctx = Context.from_data(rules.data)
    state = before.copy()
    for c in cards:
        if state.zone_of[c] != STACK:
            state.move(c, STACK)
    try:
        if p.counterable(state, env):
            return None
    except (CuttleError, TypeError, ValueError, KeyError, IndexError):
        return None
    return f"{what} could not be countered, because {cond_text(tree, ctx, negated=True)}"


def together_reason(game: Game, move: Move, source: tuple[int, ...]) -> str | None:
    """Why cards of one rank cannot be played together in `move` ('10s cannot be twinned'), or None
    when the move does not name several cards of one rank from `source`."""
    if len(move.cards) < 2 or move.cards[0] not in source:
        return None
    rank = RANK_OF[move.cards[0]]
    n = 1
    while (
        n < len(move.cards)
        and RANK_OF[move.cards[n]] == rank
        and move.cards[n] in source
        and move.cards[n] not in move.cards[:n]
    ):
        n += 1
    if n < 2:
        return None
    plays = [p for p in game.rules.plays if rank in p.ranks and p.ncards == n]
    plural = rank_noun(rank, plural=True)
    if not plays:
        together = "be twinned" if n == 2 else f"be played {n} at a time"
        return f"{plural} cannot {together}: no play takes {n} {plural} together"
    if not any(p.verb == move.verb for p in plays):
        verbs = sorted({p.verb for p in plays})
        return f"'{move.verb}' does not take {n} {plural} together (that is: {', '.join(verbs)})"
    return None


__all__ = ["target_reason", "no_window_reason", "together_reason"]
