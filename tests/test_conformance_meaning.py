"""The conformance harness's meaning check: every ruleset under test played in lockstep against the
reference evaluator (interpreter/language/reference.py).

Two games of one ruleset are dealt with the same seed: one runs the compiled rules as every command
does (the compiler's functions, its run-time helpers, the enumerator, the direct plays and the win check
the engine generates with the rules written in place); the other runs the same rules with every rule
evaluated by walking its syntax tree (tests/reference_rules.py). At every decision both must offer the
same legal moves (the plays' `legal`, `target`, `turn.playable`, the responses' `legal`), each player's
score and goal must be what the reference makes of `end.score` and `end.goal` (through the compiled
functions and the lab's generated reader alike), and each player must see the same hands; after every
move, both games must be in the same position (every zone in order, roles, owners, attachments, marks,
counters, turn, passes, winner and reason, the pending decision, the chain, the generator, the
knowledge of hidden cards, a match's hands). A one-token slip in the compiler or runtime on a path a
shipped ruleset takes fails here, naming the ruleset, the seed and the move.

The fast tier plays a few games of each ruleset; the full tier many more (slow).
"""

from __future__ import annotations

import functools
import random

import pytest

from interpreter import load_ruleset
from interpreter.engine.machine import apply_action, deal, legal_actions, move_of
from interpreter.engine.state import State
from interpreter.engine.wincheck import points_goal_function, win_function
from interpreter.rules import Rules

from .reference_rules import normal, reference_rules
from .rulesets_under_test import RULESETS

FAST_GAMES = 8  # per ruleset, in the fast tier (about 0.2 s a ruleset)
SLOW_GAMES = 300  # per ruleset, in the full tier
MAX_MOVES = 3000

# the slots of State.key() that say how the engine got there rather than where it is: the waiting frames
# (a direct play runs without them) and which fields changed since the last win check
_KEY_SLOTS = [s for s in State.__slots__ if s not in State.NOT_IN_KEY]
_PATH_SLOTS = {_KEY_SLOTS.index(s) for s in ("frames", "fv", "checked_fv")}


def _position(g: State) -> tuple:
    return normal(tuple(v for i, v in enumerate(g.key()) if i not in _PATH_SLOTS))


@functools.cache
def _pair(spec: str) -> tuple[Rules, Rules]:
    rules = load_ruleset(spec)
    return rules, reference_rules(rules)


@functools.cache
def _generated(spec: str) -> tuple:
    """The engine's generated win check and the lab's reader of points and goals (None: calls)."""
    rules = _pair(spec)[0]
    return win_function(rules), points_goal_function(rules)


def _check_results(spec: str, a: State, b: State, where: str) -> None:
    """Each player's score, goal and win, and what each sees of the other's hand, both ways."""
    rules, ref = _pair(spec)
    won, points_goal = _generated(spec)
    for p in (0, 1):
        want = (ref.score_of(b, p), ref.goal_of(b, p))
        assert (rules.score_of(a, p), rules.goal_of(a, p)) == want, f"{where}: p{p + 1}'s score and goal"
        if points_goal is not None:
            assert tuple(points_goal(a, p)) == want, f"{where}: p{p + 1}'s points and goal as the lab reads them"
        if won is not None:
            assert bool(won(a, p)) == (want[0] >= want[1]), f"{where}: whether p{p + 1} reached the goal"
        assert rules.hand_visible(a, p) == ref.hand_visible(b, p), f"{where}: what p{p + 1} sees of the hand"


def play_in_lockstep(spec: str, seed: int) -> int:
    """One random game of `spec` with the compiled rules and with the reference, move by move; the
    number of decisions compared."""
    rules, ref = _pair(spec)
    a, b = deal(rules, seed), deal(ref, seed)
    rnd = random.Random(f"{spec} {seed}")
    # every other game leans to the first move (drawing, in most rulesets): full hands, the hand limit,
    # an empty deck and its passes come up more often than in uniformly random play
    first_move = 0.6 if seed % 2 else 0.0
    for n in range(MAX_MOVES):
        where = f"{spec}, seed {seed}, after {n} moves"
        assert _position(a) == _position(b), f"{where}: the compiled rules and the reference reach different positions"
        if a.winner is not None:
            return n
        _check_results(spec, a, b, where)
        acts, ref_acts = legal_actions(a), legal_actions(b)
        moves = [str(move_of(a, x)) for x in acts]
        ref_moves = [str(move_of(b, x)) for x in ref_acts]
        assert moves == ref_moves, f"{where}: legal moves differ (compiled rules, then the reference)"
        assert normal(acts) == normal(ref_acts), f"{where}: the same moves are made by different plays"
        i = 0 if rnd.random() < first_move else rnd.randrange(len(acts))
        apply_action(a, acts[i])
        apply_action(b, ref_acts[i])
    raise AssertionError(f"{spec}, seed {seed}: the game did not end within {MAX_MOVES} moves")


def _games(spec: str, games: int, first: int = 0) -> None:
    decisions = sum(play_in_lockstep(spec, seed) for seed in range(first, first + games))
    assert decisions >= 5 * games


@pytest.mark.parametrize("spec", RULESETS)
def test_compiled_rules_play_as_the_reference_says(spec: str) -> None:
    _games(spec, FAST_GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("spec", RULESETS)
def test_compiled_rules_play_as_the_reference_says_in_many_games(spec: str) -> None:
    _games(spec, SLOW_GAMES, first=FAST_GAMES)


def test_the_reference_rules_call_no_compiled_rule() -> None:
    """The reference side really is the reference: no compiled function of the rules is left in it
    (but constants: a condition written true), and the engine generated nothing with a rule in place."""
    rules, ref = _pair("tests/scenarios/triggers-house/rules/triggers-house.yaml")
    compiled = set(map(id, rules.ctx.trees.keys())) | set(map(id, rules.ctx.programs.keys()))
    used = [ref.goal_fn, ref.score_fn, ref.visible_fn, ref.playable_fn]
    for p in ref.plays:
        used += [p.legal, p.target, p.counterable] + [f for ins in p.program + p.countered for f in ins[1:]]
    for x in ref.responses:
        used += [x.legal, x.counterable] + [f for ins in x.program for f in ins[1:]]
    for t in ref.triggers:
        used += [t.when] + [f for ins in t.program for f in ins[1:]]
    assert not [f for f in used if callable(f) and id(f) in compiled]
    assert ref.engine_cache["machine"].won is None and not ref.engine_cache["machine"].play_fns
