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

They are templates of templates.py filled with names chosen here and integers (`generated.define`
checks them); the effect,
the window test, the score, the goal and the hand-limit test are the compiler's trees written in place
(`engine/inline.py`, each checked against the compiler's allow-list), their bindings the function's
locals. A play whose effect or window test cannot be written in place (a `let`, a definition's own
function) gets no function: the machine runs it as before. Rules with triggers never get them.
"""

from __future__ import annotations

import ast
from typing import Any

from interpreter.core.cards import CARD_COUNT
from interpreter.core.errors import RulesetError
from interpreter.core.zones import HAND0, HAND1, SCRAP, STACK
from interpreter.rules import PlayDef, Rules

from .decision import MAIN_OF, RESPOND_OF
from .generated import body, define, function, name
from .inline import Inliner
from .outcome import GOALS, STUCK
from .wincheck import keep

# the bindings of a play, and the generated function's local for each
_BINDINGS = {"me": "me", "opponent": "opp", "card": "c", "cards": "cs", "target": "target"}
# the knowledge of a card's hidden place, cleared as it enters a public zone (State.move)
_FORGET = tuple(~(15 << (c << 2)) for c in range(CARD_COUNT))


# The first argument of a drawn game's `declare_winner` in these functions (a two-seat game's only): the
# state stores DRAW for any outcome without a winner (State.declare_winner), so it is written as the
# number it has always been, which keeps the generated code of every two-seat ruleset as it was.
_DRAWN = 2

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
    rules: Rules, plan: Any, machine: dict[str, Any], p: PlayDef, fns: tuple[Any, ...], window: Any
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
        "WINS": GOALS,
        "STUCK": STUCK,
    }
    # the cards to the stack: from the hand as `move` does it (nothing else to update), else by `move`
    zones = {"HAND": HAND0, "HAND1": HAND1, "STACK": STACK, "SCRAP": SCRAP}
    to_stack = body("to_stack", **zones) if p.ncards else []
    opens: list[ast.stmt] = []
    if window is not None:
        w = inl.place(window)
        if w is None:
            ns["W"] = window
        opens = body("window_opens", WINDOW=name(w) if w else _expr(body("called_window")))
    steps: list[ast.stmt] = []
    for x in effect:
        assert x is not None  # (a play whose effect cannot be written in place has no function)
        steps += body("effect_step", EFFECT=x)
    if p.ncards:  # the played cards the effect left on the stack, to the scrap
        steps += body("played_to_scrap", **zones)
    steps += _win_check(rules, plan, inl, ns)
    steps += _turn_end(plan, inl)
    head = body("head_of_cards") if p.ncards else body("head_of_none")
    for k, v in inl.namespace().items():  # the compiler's constants and helpers, for the code in place
        if ns.setdefault(k, v) is not v:
            raise RulesetError(f"internal error: a play's function and the compiler both name {k!r}")
    splice: dict[str, Any] = {
        "splice": inl.splice,
        "placeholders": frozenset(inl.parts),
        "line_origins": inl.line_origins,
    }
    play = define(
        function("play", HEAD=head, TO_STACK=to_stack, OPENS=opens, BODY=steps),
        "play",
        ns,
        "<a direct play>",
        **splice,
        label=f"engine.play.{p.name}",
    )
    resolved = define(
        function("resolved", HEAD=head, BODY=steps),
        "resolved",
        ns,
        "<a play resolved>",
        **splice,
        label=f"engine.play.{p.name}.resolved",
    )
    return play, resolved


def _expr(stmts: list[ast.stmt]) -> ast.expr:
    """The expression of a template that is one expression statement."""
    (only,) = stmts
    assert isinstance(only, ast.Expr)
    return only.value


def _win_check(rules: Rules, plan: Any, inl: Inliner, ns: dict[str, Any]) -> list[ast.stmt]:
    """The win check after the effect (`check_win`): when goal and score read only the player's own
    field, each player's is worked out in place, and only if their field changed."""
    score = goal = score2 = goal2 = None
    if rules.win_reads_own_field_only and rules.score_fn is not None and rules.goal_fn is not None:
        score, goal = inl.place(rules.score_fn), inl.place(rules.goal_fn)
        score2, goal2 = inl.place(rules.score_fn, swapped=True), inl.place(rules.goal_fn, swapped=True)
    if score is None or goal is None or score2 is None or goal2 is None:
        check = body("check_win")
        return body("if_fields_changed", THEN=check) if plan.win_by_fields else check
    return body(
        "win_in_place", SCORE=score, GOAL=goal, SCORE2=score2, GOAL2=goal2, KEEP=keep(rules), KEEP2=keep(rules, "opp")
    )


def _turn_end(plan: Any, inl: Inliner) -> list[ast.stmt]:
    """The end of the turn (`_turn_ends`): its usual case written out when `turn.end` is an `if` whose
    condition is written in place, else the machine's general way."""
    guard = inl.place(plan.end_guard) if plan.end_guard is not None else None
    if guard is None:
        return body("turn_ends_generally")
    return body("turn_ends", GUARD=guard, DRAWN=_DRAWN)


__all__ = ["PENDING", "play_functions", "make_play"]
