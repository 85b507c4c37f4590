"""One generated function per direct play: its common path as the turn's action, without frames.

A play is *direct* when its program is plain steps then the engine's finish (machine.py, `_Plan`). For
each such play the engine generates two functions of `(g, me, cs, target)`:

- `play`: the play as the turn's action: its cards from the hand to the stack, its response-window
  test (when the window opens: the chain, the respond decision and the end of the turn waiting, and it
  returns), then what `resolved` does;
- `resolved`: the play taking effect once nobody answered: the effect's statements, the played cards it
  left on the stack to the scrap, the win check (each player's score and goal in place, when they
  read only the player's own field), the end of the turn when `turn.end` is an `if` (the hand limit)
  whose condition is written in place and false, and the next main decision (the generated enumerator).

Anything else (a pass to count, a mark to expire, the hand limit holding, `turn.end` of another shape)
goes the machine's general way (`turn_ends_generally`). What these functions do is what `_direct_play`,
`_settle`, `check_win` and `_turn_ends` do, step for step; `tests/test_engine_paths.py` plays every
ruleset under test with and without them, move by move.

The source is engine-made (names chosen here and integers, `generated.define` checks it); the effect,
the window test, the score, the goal and the hand-limit test are the compiler's trees written in place
(`engine/inline.py`, each checked against the compiler's allow-list), their bindings the function's
locals. A play whose effect or window test cannot be written in place (a `let`, a definition's own
function) gets no function: the machine runs it as before. Rules with triggers never get them.
"""

from __future__ import annotations

from typing import Any

from interpreter.core.cards import CARD_COUNT
from interpreter.core.errors import RulesetError
from interpreter.core.zones import DRAW, HAND0, HAND1, SCRAP, STACK
from interpreter.rules import PlayDef, Rules

from .decision import MAIN_OF, RESPOND_OF
from .generated import define
from .inline import Inliner

# the bindings of a play, and the generated function's local for each
_BINDINGS = {"me": "me", "opponent": "opp", "card": "c", "cards": "cs", "target": "target"}
# the knowledge of a card's hidden place, cleared as it enters a public zone (State.move)
_FORGET = tuple(~(3 << (c << 1)) for c in range(CARD_COUNT))
_WINS = ("p1 reached the goal", "p2 reached the goal")
_STUCK = ("p1 has no legal move", "p2 has no legal move")


# a direct play whose functions are generated when it is first played (or when the rules are prepared)
PENDING: tuple[Any, Any] = (None, None)


def play_functions(rules: Rules, plan: Any) -> dict[PlayDef, tuple[Any, Any]]:
    """play -> PENDING for each direct play that is a turn's action: `make_play` generates its two
    functions when it is first played (a game, a test or a command that plays a few moves makes only
    those), and drops the play if it cannot be generated."""
    return {p: PENDING for p in rules.plays if plan.direct.get(id(p)) is not None and not p.free}


def make_play(rules: Rules, plan: Any, machine: dict[str, Any], p: PlayDef) -> tuple[Any, Any] | None:
    """(play, resolved) for a pending direct play, kept in `plan.play_fns`; None (and the play dropped
    from it) when it cannot be generated. `machine`: the machine's own steps the functions fall back
    to (`check_win`, `turn_ends_generally`)."""
    direct = plan.direct[id(p)]
    made = _generate(rules, plan, machine, p, direct[0], direct[1])
    if made is None:
        del plan.play_fns[p]
    else:
        plan.play_fns[p] = made
    return made


def _generate(
    rules: Rules, plan: Any, machine: dict[str, Any], p: PlayDef, fns: tuple, window: Any
) -> tuple[Any, Any] | None:
    inl = Inliner(rules, _BINDINGS)
    effect = [inl.place_statements(f) for f in fns]
    if any(x is None for x in effect):
        return None
    ns: dict[str, Any] = {
        "P": p,
        "END": plan.end,
        "RESPOND_OF": RESPOND_OF,
        "MAIN_OF": MAIN_OF,
        "MAIN": plan.main,
        "PLAN": plan,
        "GENERALLY": machine["turn_ends_generally"],
        "CHECK": machine["check_win"],
        "FORGET": _FORGET,
        "WINS": _WINS,
        "STUCK": _STUCK,
    }
    # the cards to the stack: from the hand as `move` does it (nothing else to update), else by `move`
    to_stack = (
        [
            "    zones = g.zones",
            "    for x in cs:",
            "        src = zone_of[x]",
            f"        if src == {HAND0} or src == {HAND1}:",
            "            zones[src].remove(x)",
            f"            zones[{STACK}].append(x)",
            f"            zone_of[x] = {STACK}",
            "            if g.known:",
            "                g.known = g.known & FORGET[x]",
            "        else:",
            f"            g.move(x, {STACK})",
        ]
        if p.ncards
        else []
    )
    opens: list[str] = []
    if window is not None:
        w = inl.place(window)
        if w is None:
            ns["W"] = window
            w = "W(g, {'me': me, 'opponent': opp, 'card': c, 'cards': cs, 'target': target})"
        opens = [
            f"    if {w}:",
            "        g.chain = ((P, me, cs, target),)",
            "        g.pending = RESPOND_OF[opp]",
            "        g.frames.append([END, 0, {'me': me, 'opponent': opp}])",
            "        return",
        ]
    body: list[str] = []
    for x in effect:
        body += [f"    {x}", "    if g.winner is not None:", "        return"]
    if p.ncards:  # the played cards the effect left on the stack, to the scrap
        body += ["    for x in cs:", f"        if zone_of[x] == {STACK}:", f"            g.move(x, {SCRAP})"]
    body += _win_check(rules, plan, inl, ns)
    body += _turn_end(plan, inl)
    head = ["    opp = 1 - me"] + (["    zone_of = g.zone_of", "    c = cs[0]"] if p.ncards else ["    c = -1"])
    for k, v in inl.namespace().items():  # the compiler's constants and helpers, for the code in place
        if ns.setdefault(k, v) is not v:
            raise RulesetError(f"internal error: a play's function and the compiler both name {k!r}")
    splice: dict[str, Any] = {
        "splice": inl.splice,
        "placeholders": frozenset(inl.parts),
        "line_origins": inl.line_origins,
    }
    play = define(
        "\n".join(["def play(g, me, cs, target):"] + head + to_stack + opens + body),
        "play",
        ns,
        "<a direct play>",
        **splice,
        label=f"engine.play.{p.name}",
    )
    resolved = define(
        "\n".join(["def resolved(g, me, cs, target):"] + head + body),
        "resolved",
        ns,
        "<a play resolved>",
        **splice,
        label=f"engine.play.{p.name}.resolved",
    )
    return play, resolved


def _win_check(rules: Rules, plan: Any, inl: Inliner, ns: dict[str, Any]) -> list[str]:
    """The win check after the effect (`check_win`): when goal and score read only the player's own
    field, each player's is worked out in place, and only if their field changed."""
    score = goal = score2 = goal2 = None
    if rules.win_reads_own_field_only and rules.score_fn is not None and rules.goal_fn is not None:
        score, goal = inl.place(rules.score_fn), inl.place(rules.goal_fn)
        score2, goal2 = inl.place(rules.score_fn, swapped=True), inl.place(rules.goal_fn, swapped=True)
    if score is None or goal is None or score2 is None or goal2 is None:
        lines = ["    CHECK(g)", "    if g.winner is not None:", "        return"]
        return (["    if g.fv != g.checked_fv:"] + ["    " + ln for ln in lines]) if plan.win_by_fields else lines
    return [
        "    fv = g.fv",
        "    ck = g.checked_fv",
        "    if fv[me] != ck[me]:",
        "        ck[me] = fv[me]",
        f"        s = {score}",
        f"        w = {goal}",
        "        if s >= w:",
        "            g.declare_winner(me, WINS[me])",
        "            return",
        "    if fv[opp] != ck[opp]:",
        "        ck[opp] = fv[opp]",
        f"        s = {score2}",
        f"        w = {goal2}",
        "        if s >= w:",
        "            g.declare_winner(opp, WINS[opp])",
        "            return",
    ]


def _turn_end(plan: Any, inl: Inliner) -> list[str]:
    """The end of the turn (`_turn_ends`): its usual case written out when `turn.end` is an `if` whose
    condition is written in place, else the machine's general way."""
    guard = inl.place(plan.end_guard) if plan.end_guard is not None else None
    if guard is None:
        return ["    GENERALLY(g, PLAN, me)"]
    return [
        "    if g.passed or g.marks:",
        "        GENERALLY(g, PLAN, me)",
        "        return",
        f"    if {guard}:",
        "        GENERALLY(g, PLAN, me)",
        "        return",
        "    g.passes = 0",
        "    g.turn = turn = 1 - g.turn",
        "    g.turn_no = g.turn_no + 1",
        "    g.pending = MAIN_OF[turn]",
        "    acts = MAIN(g, turn)",
        "    g.actions = acts",
        "    if not acts:",
        "        g.pending = None",
        f"        g.declare_winner({DRAW}, STUCK[turn])",
    ]


__all__ = ["PENDING", "play_functions", "make_play"]
