"""Legal moves: enumerating the actions of the pending decision, and their notation.

An action is a plain tuple: ("play", PlayDef, player, cards, target), ("respond", ResponseDef,
player, cards, extra), ("resolve",) or ("choose", cards); `move_of` gives its Move.

The plays of a set of cards are listed by one function generated per ruleset (`_Tables`): each
card's plays in the ruleset's order, the actions that name no target built once and reused, and a
play's `legal` or `target` that does not read the played card worked out once per call instead of
once per card.
"""

from __future__ import annotations

import ast
import itertools
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import CARD_COUNT, RANK_OF
from interpreter.core.errors import RulesetError
from interpreter.core.zones import HAND0, HANDS
from interpreter.language.compiler import DECLINE
from interpreter.language.runtime import as_cards
from interpreter.rules import PlayDef, Rules

from .decision import CHOOSE_D, MAIN, RESOLVE, RESPOND, Decision
from .generated import body, call, define, function, loop_body, name
from .inline import Inliner
from .moves import Move
from .seating import names_player, seat_main, seat_plays, the_answers

if TYPE_CHECKING:
    from .state import State


def env_of(player: int, cards: tuple[int, ...], **more: Any) -> dict[str, Any]:
    """The bindings of a play of a two-seat game (a larger table's: seating.play_env)."""
    env = {"me": player, "opponent": 1 - player, "card": cards[0] if cards else -1, "cards": cards}
    env.update(more)
    return env


# One-card tuples, made once: the `cards` of every single-card action.
ONE = tuple((c,) for c in range(CARD_COUNT))


def plays_for(
    g: State, player: int, source: tuple[int, ...] | list[int], free_ok: bool = True
) -> list[tuple[Any, ...]]:
    """Every play action of cards from `source` by `player` (main actions, free plays, plays from a 7).

    An action is a plain tuple ("play", PlayDef, player, cards, target); `move_of` gives its Move.
    For each card in turn: its single-card plays (the generated `cards` function of `_tables`), then
    its plays together with other cards of its rank (twins, `_twins`).
    """
    if g.rules.seated:  # a larger table: every play for each player it may aim at (engine/seating.py)
        plays = seat_plays(g, player, source, free_ok)
        return plays if not g.rules.shared_moves else first_play_wins(g, plays)
    out: list[tuple[Any, ...]] = []
    _tables(g.rules).cards(
        g,
        player,
        source,
        free_ok,
        out,
        {"me": player, "opponent": 1 - player, "card": -1, "cards": (), "answering": False},
    )
    return out if not g.rules.shared_moves else first_play_wins(g, out)


def _twins(g: State, player: int, source, i: int, c: int, out: list[Any], free_ok: bool) -> None:
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
            if RANK_OF[x] == rank
            and (playable is None or playable(g, {"me": player, "opponent": opp, "it": x, "answering": False}))
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
) -> tuple[list[ast.stmt], int]:
    """The statements listing the plays of one card of a rank (its single-card plays in order, then its
    twins), and the next free play number; each play's functions and actions go into `ns` under
    names numbered from `n`, and the names of values worked out once per call into `hoisted`."""
    # each play's `legal` and `target`: written in place (a placeholder) or called (None)
    placed = [(inl.place(p.legal), inl.place(p.target, loop="target" not in p.card_free)) for p in singles]
    stmts = body("one_card")
    if any(
        (p.legal is not None and "legal" not in p.card_free and x is None)
        or (p.target is not None and "target" not in p.card_free and y is None)
        for p, (x, y) in zip(singles, placed, strict=True)
    ):
        stmts += body("card_bindings")  # a call reads the played card from the bindings
    for p, (lx, tx) in zip(singles, placed, strict=True):
        ns[f"P{n}"], ns[f"L{n}"], ns[f"T{n}"] = p, p.legal, p.target
        play = _play(p, n, lx, tx, ns, hoisted)
        stmts += body("free_only", PLAYS=play) if p.free else play
        n += 1
    if twinned:
        stmts += body("twins")
    return stmts, n


def _play(p: PlayDef, i: int, lx: str | None, tx: str | None, ns: dict[str, Any], hoisted: list[str]) -> list[ast.stmt]:
    """The statements adding the actions of play `p` (number `i`) of the card `c`: its targets (or its
    one action), under its legal test."""
    names = {"l_N": f"l{i}", "t_N": f"t{i}", "P_N": f"P{i}", "A_N": f"A{i}", "L_N": f"L{i}", "T_N": f"T{i}"}
    if p.legal is not None and "legal" in p.card_free:  # worked out once per call (first the legal test)
        hoisted.append(f"l{i}")
    if p.target is None:  # an action made once per player and card
        ns[f"A{i}"] = tuple(tuple(("play", p, who, ONE[c], -1) for c in range(CARD_COUNT)) for who in (0, 1))
        acts = body("no_target", **names)
    elif "target" in p.card_free:  # the same for every card: worked out once per call
        hoisted.append(f"t{i}")
        acts = body("targets_once", TARGETS=name(tx) if tx else call(f"T{i}", "g", "e"), **names)
    elif tx:
        acts = body("targets_in_place", TARGETS=name(tx), **names)
    else:
        acts = body("targets_called", **names)
    if p.legal is None:
        return acts
    if "legal" in p.card_free:
        test = name(lx) if lx else _expr(body("called_legal", **names))
        return body("legal_once", LEGAL=test, THEN=acts, **names)
    return body("legal_test", LEGAL=name(lx) if lx else call(f"L{i}", "g", "e"), THEN=acts)


def _expr(stmts: list[ast.stmt]) -> ast.expr:
    """The expression of a template that is one expression statement."""
    (only,) = stmts
    assert isinstance(only, ast.Expr)
    return only.value


def _generate(rules: Rules, twins: dict[str, list[PlayDef]]) -> tuple[Any, Any]:
    """Two functions listing plays in the ruleset's order. `cards(g, me, source, free_ok, out, e)`:
    for each card of `source` (that `turn.playable` allows) its single-card plays, then its twins;
    `main(g, me)`: the cardless plays, then the same for `me`'s hand.

    Both are the templates `plays_of_cards` and `main_decisions` (templates.py) filled with engine names
    (L3, T3, P3, A3, ...), integers and placeholders: the plays' compiled `legal` and `target`
    functions, their PlayDefs and their prebuilt actions are passed in the namespace, or their compiled
    trees spliced in place of a placeholder (inline.py), never written as text.
    """
    ns: dict[str, Any] = {"ONE": ONE, "TW": _twins, "_cards": as_cards, "list": list}
    inl = Inliner(rules)
    blocks: list[list[ast.stmt]] = []  # per rank that has plays, its statements
    block_of = [-1] * CARD_COUNT
    hoisted: list[str] = []
    n = 0
    for rank, plays in rules.by_rank.items():
        singles = [p for p in plays if p.ncards == 1]
        if not singles and not twins.get(rank):
            continue
        stmts, n = _rank_block(singles, bool(twins.get(rank)), inl, ns, hoisted, n)
        for c in range(CARD_COUNT):
            if RANK_OF[c] == rank:
                block_of[c] = len(blocks)
        blocks.append(stmts)
    ns["BLOCK"] = block_of
    cardless = _cardless(rules, inl, ns)
    for k, v in inl.namespace().items():  # the compiler's constants and helpers, for the expressions in place
        if ns.setdefault(k, v) is not v:
            raise RulesetError(f"internal error: the enumerator and the compiler both name {k!r}")
    parts: dict[str, Any] = {
        # the bindings of the expressions in place: me, opp, c, cs
        "OPP": body("opp") if inl.parts else [],
        "HOISTED": [s for h in hoisted for s in body("hoisted_value", v_N=h)],
        "PLAYABLE": [],
        "DISPATCH": _dispatch(blocks, 0, len(blocks)),
        "HAND": HAND0,
    }
    if rules.playable_fn is not None:
        ns["PLAYABLE_FN"] = rules.playable_fn
        parts["PLAYABLE"] = loop_body("playable_test")
    splice: dict[str, Any] = (
        {"splice": inl.splice, "placeholders": frozenset(inl.parts), "line_origins": inl.line_origins}
        if inl.parts
        else {}
    )
    cards_tree = _plain_loop(function("plays_of_cards", "cards", **parts), any(twins.values()))
    cards = define(cards_tree, "cards", ns, "<plays of a ruleset>", **splice, label="engine.plays_of_cards")
    main_tree = _plain_loop(
        function("main_decisions", "main", CARDLESS=cardless, BINDINGS=[], **parts), any(twins.values())
    )
    if _reads_bindings(main_tree):
        main_tree = _plain_loop(
            function("main_decisions", "main", CARDLESS=cardless, BINDINGS=body("bindings"), **parts),
            any(twins.values()),
        )
    main = define(main_tree, "main", ns, "<main decisions of a ruleset>", **splice, label="engine.main_decisions")
    return cards, main


def _cardless(rules: Rules, inl: Inliner, ns: dict[str, Any]) -> list[ast.stmt]:
    """The plays of no card (draw, pass), listed first in a main decision."""
    out: list[ast.stmt] = []
    for j, p in enumerate(rules.cardless):
        names = {"C_N": f"C{j}", "CP_N": f"CP{j}", "CT_N": f"CT{j}"}
        ns[f"C{j}"] = (("play", p, 0, (), -1), ("play", p, 1, (), -1))
        add = body("cardless_play", **names)
        if p.target is not None:  # a play of no card with a target: one move per target (`dig 3S`)
            ns[f"CP{j}"], ns[f"CT{j}"] = p, p.target
            add = body("cardless_targets", **names)
        if p.legal is None:
            out += add
        else:
            ns[f"CL{j}"] = p.legal
            out += body(
                "cardless_legal",
                LEGAL=name(inl.place(p.legal) or "") if inl.place(p.legal) else call(f"CL{j}", "g", "e"),
                THEN=add,
            )
    return out


def _reads_bindings(tree: ast.Module) -> bool:
    """Whether a call in `tree` reads the bindings dict `e` (else the main decision makes none)."""
    return any(isinstance(n, ast.Name) and n.id == "e" for n in ast.walk(tree))


def _plain_loop(tree: ast.Module, twinned: bool) -> ast.Module:
    """`tree` with its `for i, c in enumerate(source)` made `for c in source` when no play pairs a card
    with later cards of its rank (the index is needed only for twins)."""
    if not twinned:
        for node in ast.walk(tree):
            if isinstance(node, ast.For) and isinstance(node.target, ast.Tuple):
                node.target = ast.Name(id="c", ctx=ast.Store())
                node.iter = ast.Name(id="source", ctx=ast.Load())
    return tree


def _dispatch(blocks: list[list[ast.stmt]], lo: int, hi: int) -> list[ast.stmt]:
    """Statements running block `k` (lo <= k < hi) by halving the range."""
    if hi - lo <= 1:
        return (blocks[lo] if hi > lo else []) or [ast.Pass()]
    mid = (lo + hi) // 2
    return body("halves", MID=mid, LOW=_dispatch(blocks, lo, mid), HIGH=_dispatch(blocks, mid, hi))


def main_actions(g: State, me: int) -> list[tuple[Any, ...]]:
    """The actions of `me`'s main decision: the cardless plays (draw, pass), then every card in hand."""
    acts = seat_main(g, me) if g.rules.seated else _tables(g.rules).main(g, me)
    return acts if not g.rules.shared_moves else first_play_wins(g, acts)


def main_function(rules: Rules) -> Any:
    """The generated function `main(g, me)` behind `main_actions` (for the machine to call directly);
    where two plays may name the same move, it keeps the first play's (`first_play_wins`)."""
    main = seat_main if rules.seated else _tables(rules).main
    if not rules.shared_moves:
        return main

    def first_only(g: State, me: int) -> list[tuple[Any, ...]]:
        return first_play_wins(g, main(g, me))

    return first_only


def first_play_wins(g: State, acts: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Where two plays of one verb name the same move (same cards, same target), only the first play in
    the ruleset's order makes it (docs/rulesets.md, "Adding to a rule")."""
    order = {id(p): i for i, p in enumerate(g.rules.plays)}
    best: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for a in acts:
        if a[0] == "play":
            key = (a[1].verb, a[3], a[4], a[5] if len(a) > 5 else -1)
            b = best.get(key)
            if b is None or order[id(a[1])] < order[id(b[1])]:
                best[key] = a
    return [a for a in acts if a[0] != "play" or best[(a[1].verb, a[3], a[4], a[5] if len(a) > 5 else -1)] is a]


def _responses(g: State, player: int) -> list[tuple[Any, ...]]:
    top = g.chain[-1]
    kind = top[0].kind
    hand = g.zones[HANDS[player]]
    answered = top[1]  # the player whose play (or answer) this answers: `opponent`
    rules: Rules = g.rules
    out = []
    answering = rules.answering.get(kind, ())
    if rules.answer_windows and len(g.chain) == 1:  # the first answer: each by its own window (seating.py)
        answering = the_answers(g, list(answering))
    for r in answering:
        for c in hand:
            if RANK_OF[c] not in r.ranks:
                continue
            if rules.playable_fn is not None and not rules.playable_fn(
                g, {"me": player, "opponent": answered, "it": c, "answering": True}
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
                    "opponent": answered,
                    "card": c,
                    "cards": cards,
                    "extra": extra,
                    "answered": top[2],
                }  # what env_of makes, written out (one dict per response)
                if r.legal(g, env):
                    out.append(("respond", r, player, cards, extra))
    return out


RESOLVE_ACTION = ("resolve",)
ASK_ACTIONS = (("choose", (), True), ("choose", (), False))  # the answers to a question: yes, no
DECLINE_MOVE = Move(DECLINE, ())


def legal_actions(g: State) -> list[tuple[Any, ...]]:
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
        if d.ask:  # a question: VERB (yes), then decline (no)
            return list(ASK_ACTIONS)
        if d.numbers is not None:  # `choose a number`: one move per number, in order
            return [("choose", n) for n in range(d.numbers[0], d.numbers[1] + 1)]
        if d.ordered:  # `choose order of`: every order of the cards, the first named first
            return [("choose", order) for order in itertools.permutations(d.options)]
        sizes = range(d.count + 1) if d.upto else (d.count,)  # (up to: none first, `VERB` alone)
        return [("choose", combo) for n in sizes for combo in itertools.combinations(sorted(d.options), n)]
    return plays_for(g, d.player, d.options, free_ok=False)


def move_of(g: State, action: tuple[Any, ...]) -> Move:
    """The notation of an action of the pending decision."""
    kind = action[0]
    if kind == "play":
        p, cards, target = action[1], action[3], action[4]
        if len(action) > 5:  # at a larger table, the player it aims at (engine/seating.py)
            return Move(p.verb, cards + (target,) if target >= 0 else cards, None, names_player(g, action))
        return Move(p.verb, cards + (target,) if target >= 0 else cards)
    if kind == "respond":
        return Move(action[1].verb, action[3] + action[4])
    if kind == "resolve":
        return RESOLVE
    if len(action) > 2 and not action[2]:  # a question answered no
        return DECLINE_MOVE
    if action[1].__class__ is int:  # a number named (`choose a number ... as VERB`)
        return Move(g.pending.verb, (), action[1])
    return Move(g.pending.verb, action[1])


def enumerate_actions(g: State) -> list[tuple[Move, tuple[Any, ...]]]:
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
