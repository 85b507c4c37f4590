"""The shapes of the functions the engine generates for a ruleset, written as Python.

Nothing here is ever called. `generated.template(name)` reads a function of this module as a syntax
tree, and the engine fills it (`generated.fill`): a statement that is one UPPER-CASE name is replaced
by a list of statements (none, to drop it), an UPPER-CASE name inside an expression by an expression,
and a name ending in `_N` is renamed after the play it belongs to (`l_N` -> `l3`). What is filled in
is either more of these templates, engine names and integers, or a placeholder (`X3`) that
`engine/inline.py` replaces by a rule's compiled code once `generated.define` has checked the whole
function against its allow-list. So every generated function is a syntax tree from start to end: no
source text is assembled, and no indentation is tracked by hand.

The placeholders are declared below so that linters and readers know them; their values are given at
generation (`generated.fill`), per ruleset and play.
"""
# ruff: noqa: F821, F841, B018, B007
# (templates, not code: a name alone is a statement to fill, `l_N` a name renamed per play, and a
# local used only by what is filled in looks unused here)

from __future__ import annotations

from typing import Any

# -- what the engine fills in --------------------------------------------------------------------
HOISTED: Any  # statements: `l3 = None` for each value worked out once per call
PLAYABLE: Any  # statements: skip a card `turn.playable` does not allow (none without such a rule)
DISPATCH: Any  # statements: run the block of the card's rank (a halving `if k < N` tree)
OPP: Any  # statements: `opp = 1 - me` where code written in place reads `opp`
BINDINGS: Any  # statements: the bindings dict, where some call reads it
CARDLESS: Any  # statements: the plays of no card (draw, pass)
PLAYS: Any  # statements: the plays of one card, in the ruleset's order
THEN: Any  # statements: what follows a play's legal test
LEGAL: Any  # an expression: a play's `legal` (a placeholder, or a call of its compiled function)
TARGETS: Any  # an expression: a play's targets
EFFECT: Any  # statements: a direct play's effect (a placeholder)
WINDOW: Any  # an expression: the response window's test
SCORE: Any  # an expression: a player's score (a placeholder)
GOAL: Any  # an expression: a player's goal (a placeholder)
KEEP: Any  # statements: `keep` below, where the rules keep each player's points (wincheck.keep_points), else none
KEEP2: Any  # statements: the same for the other player (`opp`)
GUARD: Any  # an expression: the test of `turn.end`'s `if` (a placeholder)
HAND: Any  # an integer: the zone number of p1's hand
STACK: Any  # an integer: the zone number of the stack
SCRAP: Any  # an integer: the zone number of the scrap
HAND1: Any  # an integer: the zone number of p2's hand
DRAWN: Any  # an integer: the first argument of a drawn game's `declare_winner` (direct.py `_DRAWN`)


# -- the plays of a set of cards and a main decision (legal.py) -------------------------------------
def plays_of_cards(g, me, source, free_ok, out, e):
    OPP
    add = out.append
    HOISTED
    for i, c in enumerate(source):
        PLAYABLE
        k = BLOCK[c]
        if k >= 0:  # -1: no play of this card's rank
            DISPATCH


def main_decisions(g, me):
    BINDINGS
    out = []
    OPP
    CARDLESS
    source = g.zones[HAND + me]
    free_ok = True
    add = out.append
    HOISTED
    for i, c in enumerate(source):
        PLAYABLE
        k = BLOCK[c]
        if k >= 0:
            DISPATCH
    return out


def bindings(g, me):
    e = {"me": me, "opponent": 1 - me, "card": -1, "cards": (), "answering": False}


def opp(g, me):
    opp = 1 - me


def hoisted_value(g, e):
    v_N = None


def playable_test(g, e, source):  # (the loop's body is what is used)
    for c in source:
        e["it"] = c
        if not PLAYABLE_FN(g, e):
            continue


def one_card(g, e, c):  # the first lines of a rank's block
    cs = ONE[c]


def card_bindings(g, e, c, cs):  # where a play's call reads the played card
    e["card"] = c
    e["cards"] = cs


def free_only(free_ok):
    if free_ok:
        PLAYS


def legal_test(g, e):
    if LEGAL:
        THEN


def legal_once(g, e):  # a `legal` that does not read the played card
    if l_N is None:
        l_N = LEGAL
    if l_N:
        THEN


def called_legal(g, e):
    not not L_N(g, e)


def targets_once(g, e):  # a `target` that does not read the played card
    if t_N is None:
        t_N = TARGETS
        if t_N.__class__ is not list:
            t_N = _cards(t_N)
    for t in t_N:
        add(("play", P_N, me, cs, t))


def targets_in_place(g, e):
    for t in TARGETS:
        add(("play", P_N, me, cs, t))


def targets_called(g, e):
    x = T_N(g, e)
    if x.__class__ is not list:
        x = _cards(x)
    for t in x:
        add(("play", P_N, me, cs, t))


def no_target(me, c):  # an action made once per player and card
    add(A_N[me][c])


def twins(g, me, source, i, c, out, free_ok):
    TW(g, me, source, i, c, out, free_ok)


def halves(k):
    if k < MID:
        LOW
    else:
        HIGH


def cardless_play(me):
    out.append(C_N[me])


def cardless_targets(g, e, me):  # a play of no card with a target: `dig 3S`
    for t in _cards(CT_N(g, e)):
        out.append(("play", CP_N, me, (), t))


def cardless_legal(g, e):
    if LEGAL:
        THEN


# -- the win check (wincheck.py) -------------------------------------------------------------------
def won(g, me):
    opp = 1 - me
    s = SCORE
    w = GOAL
    KEEP
    return s >= w


def keep(g, me, s, w):  # what the lab reads after each turn (State.pg), when its rules keep points
    g.pg[me] = (g.fv[me], s, w)


def points_goal(g, me):
    opp = 1 - me
    s = SCORE
    w = GOAL
    return (s, w)


# -- a direct play (direct.py) ---------------------------------------------------------------------
def play(g, me, cs, target):
    HEAD
    TO_STACK
    OPENS
    BODY


def resolved(g, me, cs, target):
    HEAD
    BODY


def head_of_cards(me, cs):
    opp = 1 - me
    zone_of = g.zone_of
    c = cs[0]


def head_of_none(me):
    opp = 1 - me
    c = -1


def to_stack(g, cs):  # from the hand as `move` does it, else by `move`
    zones = g.zones
    for x in cs:
        src = zone_of[x]
        if src == HAND or src == HAND1:
            zones[src].remove(x)
            zones[STACK].append(x)
            zone_of[x] = STACK
            if g.known:
                g.known = g.known & FORGET[x]
        else:
            g.move(x, STACK)


def window_opens(g, me, cs, target):
    if WINDOW:
        g.chain = ((P, me, cs, target),)
        g.pending = RESPOND_OF[opp]
        g.frames.append([END, 0, {"me": me, "opponent": opp}])
        return


def called_window(g, me, cs, target):
    W(g, {"me": me, "opponent": opp, "card": c, "cards": cs, "target": target})


def effect_step(g):
    EFFECT
    if g.winner is not None:
        return


def played_to_scrap(g, cs):  # what the effect left on the stack
    for x in cs:
        if zone_of[x] == STACK:
            g.move(x, SCRAP)


def check_win(g):
    CHECK(g)
    if g.winner is not None:
        return


def if_fields_changed(g):
    if g.fv != g.checked_fv:
        THEN


def win_in_place(g, me, opp):  # each player's only if their field changed
    fv = g.fv
    ck = g.checked_fv
    if fv[me] != ck[me]:
        ck[me] = fv[me]
        s = SCORE
        w = GOAL
        KEEP
        if s >= w:
            g.declare_winner(me, WINS[me])
            return
    if fv[opp] != ck[opp]:
        ck[opp] = fv[opp]
        s = SCORE2
        w = GOAL2
        KEEP2
        if s >= w:
            g.declare_winner(opp, WINS[opp])
            return


def turn_ends_generally(g, me):
    GENERALLY(g, PLAN, me)


def turn_ends(g, me):  # the usual end of a turn, written out
    if g.passed or g.marks:
        GENERALLY(g, PLAN, me)
        return
    if GUARD:
        GENERALLY(g, PLAN, me)
        return
    g.passes = 0
    g.turn = turn = 1 - g.turn
    g.turn_no = g.turn_no + 1
    g.pending = MAIN_OF[turn]
    acts = MAIN(g, turn)
    g.actions = acts
    if not acts:
        g.pending = None
        g.declare_winner(DRAWN, STUCK[turn])
