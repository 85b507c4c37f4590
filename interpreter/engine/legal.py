"""Legal moves: enumerating the actions of the pending decision, and their notation.

An action is a plain tuple: ("play", PlayDef, player, cards, target), ("respond", ResponseDef,
player, cards, extra), ("resolve",) or ("choose", cards); `move_of` gives its Move.

The plays of a set of cards are listed by one function generated per ruleset (`_Tables`): each
card's plays in the ruleset's order, the actions that name no target built once and reused, and a
play's `legal` or `target` that does not read the played card worked out once per call instead of
once per card.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import CARD_COUNT, RANK_OF
from interpreter.core.errors import RulesetError
from interpreter.core.zones import HAND0
from interpreter.language.runtime import as_cards
from interpreter.rules import PlayDef, Rules

from .decision import CHOOSE_D, MAIN, RESOLVE, RESPOND, Decision
from .generated import define
from .inline import Inliner
from .moves import Move

if TYPE_CHECKING:
    from .state import State


def env_of(player: int, cards: tuple[int, ...], **more: Any) -> dict:
    env = {"me": player, "opponent": 1 - player, "card": cards[0] if cards else -1, "cards": cards}
    env.update(more)
    return env


# One-card tuples, made once: the `cards` of every single-card action.
ONE = tuple((c,) for c in range(CARD_COUNT))


def plays_for(g: State, player: int, source: tuple[int, ...] | list[int], free_ok: bool = True) -> list[tuple]:
    """Every play action of cards from `source` by `player` (main actions, free plays, plays from a 7).

    An action is a plain tuple ("play", PlayDef, player, cards, target); `move_of` gives its Move.
    For each card in turn: its single-card plays (the generated `cards` function of `_tables`), then
    its plays together with other cards of its rank (twins, `_twins`).
    """
    out: list[tuple] = []
    _tables(g.rules).cards(
        g, player, source, free_ok, out, {"me": player, "opponent": 1 - player, "card": -1, "cards": ()}
    )
    return out if not g.rules.shared_moves else first_play_wins(g, out)


def _twins(g: State, player: int, source, i: int, c: int, out: list, free_ok: bool) -> None:
    """The plays of card `c` (at `source[i]`) together with other cards of its rank."""
    rules: Rules = g.rules
    playable = rules.playable_fn
    opp = 1 - player
    rank = RANK_OF[c]
    for p in _tables(rules).twins[rank]:
        if p.free and not free_ok:
            continue
        # When the play reads `card` (a twinned Royal or Jack puts its first card into play), the
        # first card named is the player's choice: each card may come first (ruling 18). When it
        # does not (a twinned one-off scraps both), the cards are a set, named in source order.
        others = [x for j, x in enumerate(source) if (j != i if p.first_card_matters else j > i)]
        same = [
            x
            for x in others
            if RANK_OF[x] == rank and (playable is None or playable(g, {"me": player, "opponent": opp, "it": x}))
        ]
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


class _Tables:
    """What enumerating plays needs of one ruleset, built once: the plays of several cards by rank,
    and two generated functions: `cards` (the plays of a set of cards) and `main` (a main decision:
    the cardless plays, then the plays of the hand)."""

    __slots__ = ("twins", "cards", "main")

    def __init__(self, rules: Rules) -> None:
        self.twins = {r: [p for p in ps if p.ncards > 1] for r, ps in rules.by_rank.items()}
        self.cards, self.main = _generate(rules, self.twins)


def _tables(rules: Rules) -> _Tables:
    t = rules.engine_cache.get("legal")
    if t is None:
        t = rules.engine_cache["legal"] = _Tables(rules)
    return t


def _rank_block(
    singles: list[PlayDef], twinned: bool, inl: Inliner, ns: dict[str, Any], hoisted: list[str], n: int
) -> tuple[list[str], int]:
    """The lines listing the plays of one card of a rank (its single-card plays in order, then its
    twins), and the next free play number; each play's functions and actions go into `ns` under
    names numbered from `n`, and the names of values worked out once per call into `hoisted`."""
    # each play's `legal` and `target`: written in place (a placeholder) or called (None)
    placed = [(inl.place(p.legal), inl.place(p.target, loop="target" not in p.card_free)) for p in singles]
    lines: list[str] = ["cs = ONE[c]"]
    if any(
        (p.legal is not None and "legal" not in p.card_free and x is None)
        or (p.target is not None and "target" not in p.card_free and y is None)
        for p, (x, y) in zip(singles, placed, strict=True)
    ):
        lines += ["e['card'] = c", "e['cards'] = cs"]  # a call reads the played card from the bindings
    for p, (lx, tx) in zip(singles, placed, strict=True):
        i = n
        n += 1
        ns[f"P{i}"], ns[f"L{i}"], ns[f"T{i}"] = p, p.legal, p.target
        ind = ""
        if p.free:
            lines.append("if free_ok:")
            ind += "    "
        if p.legal is not None:
            if "legal" in p.card_free:  # the same for every card: worked out once per call
                hoisted.append(f"l{i}")
                lines += [
                    f"{ind}if l{i} is None:",
                    f"{ind}    l{i} = {lx}" if lx else f"{ind}    l{i} = not not L{i}(g, e)",
                    f"{ind}if l{i}:",
                ]
            else:
                lines.append(f"{ind}if {lx}:" if lx else f"{ind}if L{i}(g, e):")
            ind += "    "
        if p.target is not None:
            if "target" in p.card_free:
                hoisted.append(f"t{i}")
                lines += [
                    f"{ind}if t{i} is None:",
                    f"{ind}    t{i} = {tx}" if tx else f"{ind}    t{i} = T{i}(g, e)",
                    f"{ind}    if t{i}.__class__ is not list:",
                    f"{ind}        t{i} = _cards(t{i})",
                    f"{ind}for t in t{i}:",
                ]
            elif tx:
                lines.append(f"{ind}for t in {tx}:")
            else:
                lines += [
                    f"{ind}x = T{i}(g, e)",
                    f"{ind}if x.__class__ is not list:",
                    f"{ind}    x = _cards(x)",
                    f"{ind}for t in x:",
                ]
            lines.append(f"{ind}    add(('play', P{i}, me, cs, t))")
        else:  # an action made once per player and card
            ns[f"A{i}"] = tuple(tuple(("play", p, who, ONE[c], -1) for c in range(CARD_COUNT)) for who in (0, 1))
            lines.append(f"{ind}add(A{i}[me][c])")
    if twinned:
        lines.append("TW(g, me, source, i, c, out, free_ok)")
    return lines, n


def _generate(rules: Rules, twins: dict[str, list[PlayDef]]) -> tuple[Any, Any]:
    """Two functions listing plays in the ruleset's order. `cards(g, me, source, free_ok, out, e)`:
    for each card of `source` (that `turn.playable` allows) its single-card plays, then its twins;
    `main(g, me)`: the cardless plays, then the same for `me`'s hand.

    The source is made only of names chosen here (L3, T3, P3, A3, ...) and integers: the plays'
    compiled `legal` and `target` functions, their PlayDefs and their prebuilt actions are passed in
    the namespace, never written as text (`generated.define` checks it).
    """
    ns: dict[str, Any] = {"ONE": ONE, "TW": _twins, "_cards": as_cards, "list": list}
    inl = Inliner(rules)
    blocks: list[list[str]] = []  # per rank that has plays, its lines
    block_of = [-1] * CARD_COUNT
    hoisted: list[str] = []
    n = 0
    for rank, plays in rules.by_rank.items():
        singles = [p for p in plays if p.ncards == 1]
        if not singles and not twins.get(rank):
            continue
        lines, n = _rank_block(singles, bool(twins.get(rank)), inl, ns, hoisted, n)
        for c in range(CARD_COUNT):
            if RANK_OF[c] == rank:
                block_of[c] = len(blocks)
        blocks.append(lines)
    ns["BLOCK"] = block_of
    head = ["def main(g, me):", "    e = {'me': me, 'opponent': 1 - me, 'card': -1, 'cards': ()}", "    out = []"]
    cardless: list[str] = []
    for j, p in enumerate(rules.cardless):  # the plays of no card (draw, pass), first
        ns[f"C{j}"] = (("play", p, 0, (), -1), ("play", p, 1, (), -1))
        add = [f"out.append(C{j}[me])"]
        if p.target is not None:  # a play of no card with a target: one move per target (`dig 3S`)
            ns[f"CP{j}"], ns[f"CT{j}"] = p, p.target
            add = [f"for t in _cards(CT{j}(g, e)):", f"    out.append(('play', CP{j}, me, (), t))"]
        if p.legal is None:
            cardless += [f"    {x}" for x in add]
        else:
            ns[f"CL{j}"] = p.legal
            cardless += [f"    if {inl.place(p.legal) or f'CL{j}(g, e)'}:"] + [f"        {x}" for x in add]
    for k, v in inl.namespace().items():  # the compiler's constants and helpers, for the expressions in place
        if ns.setdefault(k, v) is not v:
            raise RulesetError(f"internal error: the enumerator and the compiler both name {k!r}")
    opp = ["    opp = 1 - me"] if inl.parts else []  # the bindings of the expressions in place: me, opp, c, cs
    loop = ["    add = out.append"] + [f"    {h} = None" for h in hoisted]
    # the index of a card is needed only to pair it with the later cards of its rank (twins)
    loop.append("    for i, c in enumerate(source):" if any(twins.values()) else "    for c in source:")
    if rules.playable_fn is not None:
        ns["PLAYABLE"] = rules.playable_fn
        loop += ["        e['it'] = c", "        if not PLAYABLE(g, e):", "            continue"]
    loop += ["        k = BLOCK[c]", "        if k >= 0:"]  # -1: no play of this card's rank
    loop += _dispatch(blocks, 0, len(blocks), "            ")
    splice: dict[str, Any] = (
        {
            "splice": inl.splice,
            "placeholders": frozenset(inl.parts),
            "line_origins": inl.line_origins,
        }
        if inl.parts
        else {}
    )
    cards = define(
        "\n".join(["def cards(g, me, source, free_ok, out, e):"] + opp + loop),
        "cards",
        ns,
        "<plays of a ruleset>",
        **splice,
        label="engine.plays_of_cards",
    )
    if not any("(g, e)" in ln or "e['" in ln for ln in cardless + loop):  # no call reads the bindings
        head.remove("    e = {'me': me, 'opponent': 1 - me, 'card': -1, 'cards': ()}")
    head += opp + cardless + [f"    source = g.zones[{HAND0} + me]", "    free_ok = True"]
    main = define(
        "\n".join(head + loop + ["    return out"]),
        "main",
        ns,
        "<main decisions of a ruleset>",
        **splice,
        label="engine.main_decisions",
    )
    return cards, main


def _dispatch(blocks: list[list[str]], lo: int, hi: int, ind: str) -> list[str]:
    """Lines running block `k` (lo <= k < hi) by halving the range."""
    if hi - lo <= 1:
        return [ind + ln for ln in (blocks[lo] if hi > lo and blocks[lo] else ["pass"])]
    mid = (lo + hi) // 2
    return (
        [f"{ind}if k < {mid}:"]
        + _dispatch(blocks, lo, mid, ind + "    ")
        + [f"{ind}else:"]
        + _dispatch(blocks, mid, hi, ind + "    ")
    )


def main_actions(g: State, me: int) -> list[tuple]:
    """The actions of `me`'s main decision: the cardless plays (draw, pass), then every card in hand."""
    acts = _tables(g.rules).main(g, me)
    return acts if not g.rules.shared_moves else first_play_wins(g, acts)


def main_function(rules: Rules) -> Any:
    """The generated function `main(g, me)` behind `main_actions` (for the machine to call directly);
    where two plays may name the same move, it keeps the first play's (`first_play_wins`)."""
    main = _tables(rules).main
    if not rules.shared_moves:
        return main

    def first_only(g: State, me: int) -> list[tuple]:
        return first_play_wins(g, main(g, me))

    return first_only


def first_play_wins(g: State, acts: list[tuple]) -> list[tuple]:
    """Where two plays of one verb name the same move (same cards, same target), only the first play in
    the ruleset's order makes it (docs/rulesets.md, "Adding to a rule")."""
    order = {id(p): i for i, p in enumerate(g.rules.plays)}
    best: dict[tuple, tuple] = {}
    for a in acts:
        if a[0] == "play":
            key = (a[1].verb, a[3], a[4])
            b = best.get(key)
            if b is None or order[id(a[1])] < order[id(b[1])]:
                best[key] = a
    return [a for a in acts if a[0] != "play" or best[(a[1].verb, a[3], a[4])] is a]


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
                g, {"me": player, "opponent": 1 - player, "it": c}
            ):
                continue
            others = sorted([x for x in hand if x != c])
            cards = ONE[c]
            if r.legal is None:
                out += [("respond", r, player, cards, extra) for extra in itertools.combinations(others, r.extra)]
                continue
            for extra in itertools.combinations(others, r.extra):
                env = {
                    "me": player,
                    "opponent": 1 - player,
                    "card": c,
                    "cards": cards,
                    "extra": extra,
                    "answered": top[2],
                }  # what env_of makes, written out (one dict per response)
                if r.legal(g, env):
                    out.append(("respond", r, player, cards, extra))
    return out


RESOLVE_ACTION = ("resolve",)


def legal_actions(g: State) -> list[tuple]:
    """The legal actions of the pending decision (plain tuples; see `move_of`)."""
    acts = g.actions
    if acts is not None:
        return acts
    d: Decision = g.pending
    if d is None:
        return []
    kind = d.kind
    if kind == MAIN:
        acts = g.actions = main_actions(g, d.player)
        return acts
    if kind == RESPOND:
        acts = _responses(g, d.player)
        acts.append(RESOLVE_ACTION)
        return acts
    if kind == CHOOSE_D:
        if d.numbers is not None:  # `choose a number`: one move per number, in order
            return [("choose", n) for n in range(d.numbers[0], d.numbers[1] + 1)]
        if d.ordered:  # `choose order of`: every order of the cards, the first named first
            return [("choose", order) for order in itertools.permutations(d.options)]
        sizes = range(d.count + 1) if d.upto else (d.count,)  # (up to: none first, `VERB` alone)
        return [("choose", combo) for n in sizes for combo in itertools.combinations(sorted(d.options), n)]
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
    if action[1].__class__ is int:  # a number named (`choose a number ... as VERB`)
        return Move(g.pending.verb, (), action[1])
    return Move(g.pending.verb, action[1])


def enumerate_actions(g: State) -> list[tuple[Move, tuple]]:
    """The legal moves of the pending decision, each with the action it performs."""
    return [(move_of(g, a), a) for a in legal_actions(g)]


__all__ = [
    "plays_for",
    "legal_actions",
    "main_actions",
    "main_function",
    "move_of",
    "enumerate_actions",
    "RESOLVE_ACTION",
    "env_of",
]
