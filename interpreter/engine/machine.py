"""The generic engine: decisions, legal moves, plays, response windows, effects, turns.

Nothing here knows what any rank does; it runs the compiled ruleset. The state machine:
a stack of frames (compiled programs with a program counter and bindings) runs until it needs a
decision (`State.pending`): the main action of a turn, a response to a play (counter/resolve),
a `choose` inside an effect, or a `play from` (a 7's revealed cards).
"""

from __future__ import annotations

from math import comb, factorial
from typing import Any

from interpreter.core.cards import CARD_COUNT
from interpreter.core.errors import RuleRuntimeError
from interpreter.core.limits import MAX_CHOICES, MAX_HANDS, MAX_MOVES, MAX_NUMBERS, MAX_STEP_COST, MAX_TRIGGERED
from interpreter.core.zones import CONTROLLER, DECK, DRAW, FIELD0, HAND0, HAND1, HANDS, RANDOM, SCRAP, SHOWN, STACK
from interpreter.language.compiler import (
    AGREED,
    ASK,
    BUILTIN,
    CHOOSE,
    EXEC,
    JUMP,
    JUMP_IF_NOT,
    NUMBER,
    PLAY,
    UPTO,
    concat,
)
from interpreter.language.runtime import _winner, as_cards, choices
from interpreter.rules import PlayDef, ResponseDef, Rules
from interpreter.rules.defs import CHECK_WIN, FINISH_PLAY, fire

from .decision import CHOOSE_D, MAIN, MAIN_OF, PLAY_D, RESPOND, RESPOND_OF, Decision
from .direct import PENDING, make_play, play_functions
from .legal import enumerate_actions, legal_actions, main_function, move_of, plays_for
from .outcome import GOALS, STUCK, Outcome, Termination
from .seating import answerable, check_win_round, most_points_win, play_env
from .state import State, new_state, zone_word
from .wincheck import points_goal_function, win_function

END_TURN = (BUILTIN, "end_turn", None)
MOVE_LIMIT = Outcome(None, Termination.MOVE_LIMIT, None, count=MAX_MOVES)
# up to this many cards, no choice of some of them can offer more than MAX_CHOICES choices
_FEW_OPTIONS = max(n for n in range(1, 64) if comb(n, n // 2) <= MAX_CHOICES)


class _Plan:
    """What the machine works out once per ruleset, to run the common path of a play without frames.

    A program is *direct* when it is plain steps (EXEC) then FINISH_PLAY: nothing in it can wait for
    a decision, so it runs as a loop over its functions (`settle`, by program; `direct`, by play, with
    the play's window test). The end of a turn is direct when `turn.end` is empty, plain, or a single
    `if` around everything (the hand limit): the condition is tested, and only when it holds does the
    end of the turn run as a program. A direct play that can be a turn's action also gets functions of
    its own, generated with its expressions and effect written in (`play_fns`, engine/direct.py).
    """

    __slots__ = (
        "deck",
        "in_deck",
        "end",
        "end_fns",
        "end_guard",
        "win_by_fields",
        "direct",
        "settle",
        "main",
        "won",
        "play_fns",
        "rules",
    )

    def __init__(self, rules: Rules, shortcuts: bool = True) -> None:
        """`shortcuts=False` (for tests): every program and every end of turn through `_exec`. Rules with
        triggers run every program through `_exec` (each step ends by running the triggers); so do rules
        whose win checks are counted (`counts_wins`), and a table of more than two seats (engine/seating.py)."""
        counted = counts_wins(rules)
        shortcuts = shortcuts and not rules.triggers and not counted and not rules.seated and not rules.answer_windows
        reserved = {c for cards in rules.deal_extra for c in cards}
        self.deck = tuple(c for c in rules.deck_cards if c not in reserved)  # what is shuffled and dealt
        self.in_deck = [DECK if c in self.deck else -1 for c in range(CARD_COUNT + 1)]  # zone_of once it is
        # the win check has nothing to do while no field changed since the last one
        self.win_by_fields = rules.win_reads_fields_only
        te = rules.turn_end
        self.end = (
            concat(te, (END_TURN,))
            if not rules.triggers
            else concat(te, (fire("turn end"), END_TURN, fire("turn start")))
        )
        self.end_fns: tuple[Any, ...] | None = None  # turn.end made of plain steps only
        self.end_guard: Any = None  # or: turn.end is `if COND then ... end`
        if shortcuts and all(ins[0] == EXEC for ins in te):
            self.end_fns = tuple(ins[1] for ins in te)
        elif shortcuts and te[0][0] == JUMP_IF_NOT and te[0][2] == len(te):
            self.end_guard = te[0][1]
        self.settle: dict[int, tuple[Any, ...]] = {}
        self.direct: dict[int, tuple[Any, ...] | None] = {}
        for p in rules.plays:
            for prog in (p.program, p.countered):
                if shortcuts and prog and prog[-1] == FINISH_PLAY and all(ins[0] == EXEC for ins in prog[:-1]):
                    self.settle[id(prog)] = tuple(ins[1] for ins in prog[:-1])
            fns = self.settle.get(id(p.program))
            answered = p.kind is not None and rules.answering.get(p.kind)
            window = p.counterable if p.counterable is not None and answered else None
            self.direct[id(p)] = None if fns is None else (fns, window)
        self.main = main_function(rules)  # the generated enumerator of a main decision
        # the generated win check (score and goal in place), or None: the two compiled calls
        self.won = _counted_win(rules) if counted else win_function(rules) if shortcuts else None
        # play -> its generated functions (play, resolved), for the direct plays (engine/direct.py),
        # each made when first played (PENDING until then)
        self.rules = rules
        self.play_fns = play_functions(rules, self) if shortcuts else {}

    def make_play(self, p: PlayDef) -> tuple[Any, Any] | None:
        """The generated functions of a pending direct play (None: it has none)."""
        return make_play(self.rules, self, _STEPS, p)

    def make_all(self) -> None:
        """Generate every pending direct play's functions now."""
        for p in [p for p, fns in self.play_fns.items() if fns is PENDING]:
            self.make_play(p)


def counts_wins(rules: Rules) -> bool:
    """Whether the machine counts the work of each win check against the move's budget (MAX_STEP_COST):
    only when the score and goal cost so much that the win checks of one move could exceed it (decided
    at load: rules/sections.py `WIN_CHECKS_A_MOVE`). For every other ruleset (the shipped ones spend a
    few hundred steps a check) the count at load decides, and the win check runs uncounted, on the
    engine's direct paths."""
    return bool(getattr(rules, "counts_wins", False))


def _counted_win(rules: Rules) -> Any:
    """`won(g, me)` that first spends one player's score and goal (`rules.win_cost`) from the move's
    budget: the move is refused (the game unchanged) when its win checks would take more."""
    cost, reached = rules.win_cost, rules.reached_goal

    def won(g: State, me: int) -> bool:
        spend(g, cost, "checking whether a player reached the goal (end.score and end.goal)")
        return reached(g, me)

    return won


def spend(g: State, work: int, doing: str) -> None:
    """Count `work` (steps, as MAX_COST counts them) against the budget of the current move, shared by
    everything the machine counts while the move runs (triggers, win checks)."""
    step, spent = g.spent  # type: ignore[attr-defined]
    spent = (spent if step == g.moves_made else 0) + work
    g.spent = (g.moves_made, spent)  # type: ignore[attr-defined]
    if spent > MAX_STEP_COST:
        raise RuleRuntimeError(
            f"one move would do more than {MAX_STEP_COST:,} steps of work (MAX_STEP_COST; the last: {doing}); "
            "the move is refused and the game unchanged"
        )


def set_shortcuts(rules: Rules, on: bool) -> None:
    """Run these rules with or without the direct paths (tests compare the two: same games)."""
    plan = rules.engine_cache["machine"] = _Plan(rules, on)
    plan.make_all()


def _plan(rules: Rules) -> _Plan:
    plan = rules.engine_cache.get("machine")
    if plan is None:
        plan = rules.engine_cache["machine"] = _Plan(rules)
    return plan


def prepare(rules: Rules) -> None:
    """Generate now what the engine generates for these rules (the move enumerators, each direct play's
    function, the win check), which the first game would otherwise do: a tool that times its games
    (the lab) prepares the rules while loading them."""
    _plan(rules).make_all()
    points_goal_function(rules)  # the lab's reader of points and goals, generated like the win check


def apply_action(g: State, action: tuple[Any, ...]) -> None:
    """Perform one legal action of the pending decision, then run until the next decision.

    A game that ends while cards are still resolving (a 7's revealed card wins, a one-off's effect
    reaches a goal) puts them where the rest of the play would have: what is left on the stack goes
    to the scrap, top first (SPEC ruling 20), so a finished game's board holds nothing on the stack."""
    _perform(g, action)
    if g.winner is not None and g.zones[STACK]:
        stack = g.zones[STACK]
        while stack:
            g.move(stack[-1], SCRAP)


def _act_play(g: State, plan: _Plan, d: Decision, action: tuple[Any, ...]) -> bool:
    """A play chosen at a decision (the turn's action, a card a 7 revealed, a free play). True when
    a direct play took the game to its next decision already (nothing is left for `_perform`)."""
    p, player, cards, target = action[1], action[2], action[3], action[4]
    fns = plan.play_fns.get(p)
    if fns is PENDING:
        fns = plan.make_play(p)
    if fns is not None and d[1] == MAIN:  # (d[1]: the decision's kind)
        # a direct play as the turn's action: its own generated function (engine/direct.py) ends at a
        # decision or the game's end; a hand of a match that has just ended, and the move limit, are
        # checked below as for any action
        fns[0](g, player, cards, target)
        if g.hand_over is None and g.moves_made < MAX_MOVES:
            return True
    elif d.kind == MAIN and not p.free:
        direct = plan.direct[id(p)]
        if direct is not None:
            # the same without a generated function (no frame left to run)
            _direct_play(g, plan, direct, p, player, cards, target)
            if g.hand_over is None and g.moves_made < MAX_MOVES:
                return True
        else:
            # the play, then the end of the turn (which waits below the play's frames)
            frames = g.frames
            base = len(frames)
            _start_play(g, action[1:])
            if g.pending is None and g.winner is None and len(frames) == base:
                _end_turn(g, plan, player)
            else:
                frames.insert(base, [plan.end, 0, {"me": player, "opponent": g.rules.opponent_of[player]}])
    elif d.kind == PLAY_D:
        for c in cards:
            g.move(c, STACK)
        rec = action[1:]  # (the play, its player, cards, target, and the seat it names at a larger table)
        top = g.frames[-1]
        if any(ins[0] == BUILTIN and ins[1] == "start_chosen" for ins in top[0][top[1] :]):
            top[2]["chosen play"] = rec  # starts when the effect that offered it is done (START_CHOSEN)
        else:  # a `play from` outside a play's effect: the chosen play starts when the frame is done
            g.frames.insert(len(g.frames) - 1, [((BUILTIN, "start_play", rec),), 0, {}])
    else:  # a free play (a twin): not the turn's action
        _start_play(g, action[1:])
    return False


def _perform(g: State, action: tuple[Any, ...]) -> None:
    d: Decision = g.pending
    g.pending = None
    g.actions = None
    g.moves_made += 1
    plan: _Plan = g.rules.engine_cache["machine"]  # made by `_run`, which set the pending decision
    kind = action[0]
    if kind == "play":
        if _act_play(g, plan, d, action):
            return
    elif kind == "resolve":
        chain = g.chain
        frames = g.frames
        fns = plan.play_fns.get(chain[0][0]) if len(chain) == 1 else None
        if fns is PENDING:
            fns = plan.make_play(chain[0][0])
        if (
            fns is not None
            and len(frames) == 1
            and frames[0][0] is plan.end
            and frames[0][1] == 0
            and frames[0][2]["me"] == chain[0][1]
        ):
            # an unanswered direct play that was the turn's action: its generated function takes it to the
            # end of the turn (what `_resolve_chain`, `_settle` and the end of the turn below do)
            _, player, cards, target = chain[0]
            g.chain = ()
            frames.pop()
            fns[1](g, player, cards, target)
            if g.hand_over is None and g.moves_made < MAX_MOVES:
                return
        elif g.rules.seats == 2:
            _resolve_chain(g)
        else:  # the next player in the round may answer, until every other player has let it go (ruling 23)
            nxt = g.rules.next_seat[d.player]
            if nxt == chain[-1][1]:
                _resolve_chain(g)
            else:
                g.pending = RESPOND_OF[nxt]
    elif kind == "respond":
        _, r, player, cards, extra = action
        g.chain = g.chain + ((r, player, cards, extra),)
        _exec(
            g,
            r.program,
            0,
            {
                "me": player,
                "opponent": g.chain[-2][1],  # the player whose play (or answer) it answers
                "card": cards[0],
                "cards": cards,
                "extra": extra,
                "answered": g.chain[-2][2],
                " by": (r.name, False),
            },
        )
    else:  # choose, or answer a question (its action says yes or no)
        env = g.frames[-1][2]
        if d.ask:
            env[AGREED] = action[2]
        elif d.numbers is not None:  # a number named: bound to the verb alone (`chosen` stays cards)
            env[d.verb] = action[1]
        else:
            env[d.verb] = env["chosen"] = action[1]
    if g.pending is None and g.winner is None:
        frames = g.frames
        if not frames:
            _main_decision(g, plan)
        elif len(frames) == 1 and frames[0][0] is plan.end and frames[0][1] == 0:
            # only the end of the turn waits (a play that was answered has resolved)
            player = frames.pop()[2]["me"]
            if not plan.win_by_fields or g.fv != g.checked_fv:
                check_win(g)
            if g.winner is None:
                _turn_ends(g, plan, player)
        else:
            run(g)
    if g.hand_over is not None:  # a hand of a match has just ended: record it, deal the next
        run(g)
    if g.moves_made >= MAX_MOVES and g.winner is None:  # a game that never ends is a draw
        g.pending, g.actions, g.hand_over = None, None, None
        g.winner, g.outcome = DRAW, MOVE_LIMIT


def _direct_play(
    g: State, plan: _Plan, direct: tuple[Any, ...], p: PlayDef, player: int, cards: tuple[Any, ...], target: int
) -> None:
    """A direct play as the turn's action: what `_start_play`, its program and the end of the turn do,
    without frames. Its cards go on the stack; then the window, or the effect, the cards it left on
    the stack to the scrap, the win check, and the end of the turn (its usual case written out here,
    as `_turn_ends` does it)."""
    fns, window = direct
    zone_of = g.zone_of
    if cards:
        zones = g.zones
        stack = zones[STACK]
        for c in cards:
            src = zone_of[c]
            if src == HAND0 or src == HAND1:  # from the hand to the stack: what `move` does for that
                zones[src].remove(c)
                stack.append(c)
                zone_of[c] = STACK
                if g.known:  # into a public zone: forgotten, as `move` does
                    g.known &= ~(15 << (c << 2))
            else:
                g.move(c, STACK)
        env = {"me": player, "opponent": 1 - player, "card": cards[0], "cards": cards, "target": target}
    else:
        env = {"me": player, "opponent": 1 - player, "card": -1, "cards": cards, "target": target}
    if window is not None and window(g, env):
        g.chain = ((p, player, cards, target),)
        g.pending = RESPOND_OF[1 - player]
        g.frames.append([plan.end, 0, {"me": player, "opponent": 1 - player}])
        return
    for f in fns:
        f(g, env)
        if g.winner is not None:
            return
    for c in cards:
        if zone_of[c] == STACK:
            g.move(c, SCRAP)
    if not plan.win_by_fields or g.fv != g.checked_fv:
        check_win(g)
        if g.winner is not None:
            return
    _turn_ends(g, plan, player)


def _turn_ends(g: State, plan: _Plan, player: int) -> None:
    """The acting player's action has resolved and the win checked: the end of the turn, then the next
    main decision. The usual case is written out: `turn.end` is an `if` whose condition is false,
    nothing changed since the win check, no pass to count, no mark to expire (see `_end_turn`,
    `_next_turn`, `_main_decision`); anything else goes the general way."""
    guard = plan.end_guard
    if guard is None or g.passed or g.marks or guard(g, _PLAYER_ENV[player]):
        _turn_ends_generally(g, plan, player)
        return
    g.passes = 0
    g.turn = turn = 1 - g.turn
    g.turn_no += 1
    g.pending = MAIN_OF[turn]
    acts = g.actions = plan.main(g, turn)
    if not acts:
        g.pending = None
        g.declare_winner(DRAW, STUCK[turn])


def _turn_ends_generally(g: State, plan: _Plan, player: int) -> None:
    """The end of the turn the general way (`_end_turn`), then what waits or the next main decision."""
    _end_turn(g, plan, player)
    if g.pending is None and g.winner is None:
        if g.frames:  # the end of the turn left steps to run (triggers)
            _run(g)
        else:
            _main_decision(g, plan)


def _settle(g: State, plan: _Plan, fns: tuple[Any, ...], env: dict[str, Any]) -> None:
    """A direct program (plain steps, then FINISH_PLAY) run as a loop: the steps, the played cards
    left on the stack to the scrap, the win check."""
    for f in fns:
        f(g, env)
        if g.winner is not None:
            return
    zone_of = g.zone_of
    for c in env["cards"]:
        if zone_of[c] == STACK:
            g.move(c, SCRAP)
    if not plan.win_by_fields or g.fv != g.checked_fv:
        check_win(g)


def _end_turn(g: State, plan: _Plan, player: int) -> None:
    """The acting player's action has resolved: `turn.end`, the win check, the next turn."""
    guard = plan.end_guard
    if guard is not None:
        if guard(g, _PLAYER_ENV[player]):  # it holds: the rest runs as a program (it may wait)
            _exec(g, plan.end, 1, {"me": player, "opponent": 1 - player})
            return
    elif plan.end_fns is None:
        _exec(g, plan.end, 0, {"me": player, "opponent": g.rules.opponent_of[player]})
        return
    elif plan.end_fns:
        env = {"me": player, "opponent": 1 - player}
        for f in plan.end_fns:
            f(g, env)
            if g.winner is not None:
                return
    if not plan.win_by_fields or g.fv != g.checked_fv:
        check_win(g)
        if g.winner is not None:
            return
    _next_turn(g)


def _main_decision(g: State, plan: _Plan) -> None:
    """No frame is left: the turn player's main decision (no legal move at all is a draw)."""
    turn = g.turn
    g.pending = MAIN_OF[turn]
    acts = g.actions = plan.main(g, turn)
    if not acts:
        g.pending = None
        g.declare_winner(DRAW, STUCK[turn])


def _start_play(g: State, rec: tuple[Any, ...]) -> None:
    """A play begins: its cards on the stack, then a response window if it opens one, else its effect."""
    if len(rec) == 4:
        p, player, cards, target = rec
        env = {
            "me": player,
            "opponent": 1 - player,
            "card": cards[0] if cards else -1,
            "cards": cards,
            "target": target,
            " by": (p.name, False),
        }
    else:  # at a table of more seats: the play names the player it aims at (engine/seating.py)
        p, player, cards, target = rec[0], rec[1], rec[2], rec[3]
        env = play_env(g.rules, rec)
        env[" by"] = (p.name, False)
    g.cur = env
    zone_of = g.zone_of
    for c in cards:
        if zone_of[c] != STACK:
            g.move(c, STACK)
    if (p.counterable is not None and g.rules.answering.get(p.kind) and p.counterable(g, env)) or (
        g.rules.answer_windows and answerable(g, p, env)
    ):
        g.chain = (rec,)
        g.pending = RESPOND_OF[g.rules.next_seat[player]]  # (the other player, or the next round the table)
        return
    plan: _Plan = g.rules.engine_cache["machine"]
    fns = plan.settle.get(id(p.program))
    if fns is not None:
        _settle(g, plan, fns, env)
    else:
        _exec(g, p.program, 0, env)


def _resolve_chain(g: State) -> None:
    """The chain of responses settles: the play takes effect iff an even number of responses were played."""
    chain = g.chain
    g.chain = ()
    rec = chain[0]
    if len(rec) == 4:
        p, player, cards, target = rec
        env = {
            "me": player,
            "opponent": 1 - player,
            "card": cards[0] if cards else -1,
            "cards": cards,
            "target": target,
        }
    else:  # at a table of more seats (engine/seating.py)
        p = rec[0]
        env = play_env(g.rules, rec)
    prog = p.program if (len(chain) - 1) % 2 == 0 else p.countered
    if prog is p.countered and chain[1][0].instead:  # the answer that stands does something else instead
        _answered_instead(g, chain)
        return
    env[" by"] = (p.name, prog is p.countered)
    plan: _Plan = g.rules.engine_cache["machine"]
    fns = plan.settle.get(id(prog))
    if fns is not None:
        _settle(g, plan, fns, env)
    else:
        _exec(g, prog, 0, env)


def _answered_instead(g: State, chain: tuple[Any, ...]) -> None:
    """The first answer to a play stands and has an `instead`: that runs in place of the play's
    `countered` (the teams 9 returns an opponent's Royal to its owner's hand before it takes effect)."""
    player, cards = chain[0][1], chain[0][2]
    r, responder, rcards, extra = chain[1]
    env = {
        "me": responder,
        "opponent": player,
        "card": rcards[0],
        "cards": rcards,
        "extra": extra,
        "answered": cards,
        " by": (r.name, False),
    }
    _exec(g, r.instead, 0, env)


def _finish_answered(g: State, env: dict[str, Any], _arg: Any) -> None:
    """After an answer's `instead`: the answered play's cards still on the stack to the scrap, then the
    win check."""
    for c in env["answered"]:
        if g.zone_of[c] == STACK:
            g.move(c, SCRAP)
    check_win(g)


def _exec(g: State, prog: tuple[Any, ...], pc: int, env: dict[str, Any]) -> None:
    """Run a program from `pc` at once, until it ends, waits for a decision or the game is won; a
    program that stops before its end leaves its frame (with the next pc) on the stack for `_run`.

    Running a program at once is the same as pushing its frame and letting `_run` take it: it would be
    the next to run. An engine step that may itself push frames or wait (a play starting, a response
    settling) first leaves the rest of this program below what it pushes."""
    n = len(prog)
    g.cur = env
    while pc < n:
        ins = prog[pc]
        pc += 1
        op = ins[0]
        if op == EXEC:
            ins[1](g, env)
        elif op == BUILTIN:
            name = ins[1]
            if name not in _PLAIN_BUILTINS:
                if pc < n:
                    g.frames.append([prog, pc, env])
                BUILTINS[name](g, env, ins[2])
                return
            BUILTINS[name](g, env, ins[2])
        elif op == JUMP_IF_NOT:
            if not ins[1](g, env):
                pc = ins[2]
        elif op == JUMP:
            pc = ins[1]
        elif op == CHOOSE:
            if ins[-1] == ASK:  # `if P agrees to VERB`: P answers VERB or decline
                if _ask(g, ins, env):
                    g.frames.append([prog, pc, env])
                    return
                continue
            if _choose_number(g, ins, env) if len(ins) > 5 and ins[5] == NUMBER else _choose(g, ins, env):
                g.frames.append([prog, pc, env])
                return
        else:  # PLAY: the plays are judged with the rest of this frame run (deferred_plays)
            g.frames.append([prog, pc, env])
            options = tuple(as_cards(ins[1](g, env)))
            acts = deferred_plays(g, env["me"], options)
            if acts:
                g.pending = Decision(env["me"], PLAY_D, options=options)
                g.actions = acts
                return
            g.frames.pop()
        if g.winner is not None:
            if pc < n:
                g.frames.append([prog, pc, env])
            return


def _ask(g: State, ins: list[Any], env: dict[str, Any]) -> bool:
    """`if P agrees to VERB`: True when P must answer (VERB or decline); a random player's answer is
    drawn from the game's generator (yes or no, even odds)."""
    who = ins[3](g, env)
    if who == RANDOM:
        env[AGREED] = g.rng.below(2) == 1
        return False
    if not 0 <= who < g.rules.seats:
        raise RuleRuntimeError(
            "the rules asked nobody (the owner or controller of no card, or of a card nobody holds) "
            "whether to " + ins[4]
        )
    g.pending = Decision(who, CHOOSE_D, ins[4], ask=True)
    return True


def _choose(g: State, ins: list[Any], env: dict[str, Any]) -> bool:
    """`choose [up to] N from CARDS by P as VERB` (or `choose order of CARDS`): binds VERB and `chosen`
    to the cards chosen; True when P must decide (a random chooser's cards are drawn from the game's
    generator: up to N, how many first, from none to N)."""
    options = tuple(as_cards(ins[2](g, env)))
    upto = len(ins) > 5 and ins[5] == UPTO  # `choose up to N`: from none to N
    if len(ins) > 5 and not upto:  # choose order of
        return _choose_order(g, ins, options, env)
    k = min(ins[1](g, env), len(options))
    verb = ins[4]
    if k <= 0:
        env[verb] = env["chosen"] = ()
        return False
    chooser = ins[3](g, env)
    if chooser == RANDOM:
        pool = list(options)
        picked = []
        for _ in range(g.rng.below(k + 1) if upto else k):  # (up to: how many, drawn first)
            picked.append(pool.pop(g.rng.below(len(pool))))
        env[verb] = env["chosen"] = tuple(sorted(picked))
        return False
    if (upto or len(options) > _FEW_OPTIONS) and (
        sum(choices(len(options), i) for i in range(k + 1)) if upto else choices(len(options), k)
    ) > MAX_CHOICES:
        raise RuleRuntimeError(
            f"choosing {k} of {len(options)} cards offers more than {MAX_CHOICES:,} "
            f"choices (MAX_CHOICES); the move is refused and the game unchanged"
        )
    g.pending = Decision(chooser, CHOOSE_D, verb, k, options, upto=upto)
    return True


def _choose_number(g: State, ins: list[Any], env: dict[str, Any]) -> bool:
    """`choose a number from LOW to HIGH by P as VERB`: binds VERB to the number P names; True when P
    must decide (a random chooser's number is drawn from the game's generator)."""
    low, high = ins[1](g, env), ins[2](g, env)
    if low.__class__ is bool:  # a condition where a number is needed counts 1 or 0
        low = int(low)
    if high.__class__ is bool:
        high = int(high)
    if low.__class__ is not int or high.__class__ is not int or high < low:
        raise RuleRuntimeError(
            f"choosing a number from {low!r} to {high!r}: no number is offered; "
            f"the move is refused and the game unchanged"
        )
    if high - low + 1 > MAX_NUMBERS:
        raise RuleRuntimeError(
            f"choosing a number from {low} to {high} offers more than {MAX_NUMBERS:,} moves (MAX_NUMBERS); "
            f"the move is refused and the game unchanged"
        )
    chooser = ins[3](g, env)
    if chooser == RANDOM:
        env[ins[4]] = low + g.rng.below(high - low + 1)
        return False
    if not 0 <= chooser < g.rules.seats:  # (nobody: the owner of no card)
        raise RuleRuntimeError("the rules used nobody as a player; the move is refused and the game unchanged")
    g.pending = Decision(chooser, CHOOSE_D, ins[4], numbers=(low, high))
    return True


def _choose_order(g: State, ins: list[Any], options: tuple[Any, ...], env: dict[str, Any]) -> bool:
    """`choose order of CARDS by P as VERB`: binds VERB to the cards in the order P names them; True
    when P must decide (a random chooser's order is drawn from the game's generator)."""
    verb = ins[4]
    if len(options) <= 1:
        env[verb] = env["chosen"] = options
        return False
    chooser = ins[3](g, env)
    if chooser == RANDOM:
        pile = list(options)
        g.rng.shuffle(pile)
        env[verb] = env["chosen"] = tuple(pile)
        return False
    if factorial(len(options)) > MAX_CHOICES:
        raise RuleRuntimeError(
            f"putting {len(options)} cards in order offers more than {MAX_CHOICES:,} "
            f"choices (MAX_CHOICES); the move is refused and the game unchanged"
        )
    g.pending = Decision(chooser, CHOOSE_D, verb, len(options), options, True)
    return True


def check_win(g: State) -> None:
    """Whether a player has reached their goal (the turn player first)."""
    if g.winner is not None:
        return
    rules: Rules = g.rules
    turn = g.turn
    # the generated check (score and goal in place), or the two compiled calls
    won = (rules.engine_cache.get("machine") or _plan(rules)).won or rules.reached_goal
    if rules.seats != 2:
        check_win_round(g, won)
        return
    if rules.win_reads_own_field_only:  # a player's result can change only with their own field
        fv, checked = g.fv, g.checked_fv
        if fv[turn] != checked[turn]:
            checked[turn] = fv[turn]
            if won(g, turn):
                g.declare_winner(turn, GOALS[turn])
                return
        other = 1 - turn
        if fv[other] != checked[other]:
            checked[other] = fv[other]
            if won(g, other):
                g.declare_winner(other, GOALS[other])
        return
    if rules.win_reads_fields_only:
        if g.fv == g.checked_fv:
            return
        g.checked_fv = g.fv[:]
    if won(g, turn):
        g.declare_winner(turn, GOALS[turn])
    elif won(g, 1 - turn):
        g.declare_winner(1 - turn, GOALS[1 - turn])


# The bindings of an expression about one player (generated code only reads its bindings).
_PLAYER_ENV = Rules._PLAYER_ENV


def _next_turn(g: State) -> None:
    rules: Rules = g.rules
    g.passes = g.passes + 1 if g.passed else 0
    g.passed = False
    if rules.passes_to_end and g.passes >= rules.passes_to_end:
        if rules.on_passes == "most_points" and rules.seats != 2:
            most_points_win(g)
        elif rules.on_passes == "most_points":
            a, b = rules.score_of(g, 0), rules.score_of(g, 1)
            w = 0 if a > b else 1 if b > a else None
            ended = Outcome(w, Termination.PASSES, "end.passes", points=(a, b), count=g.passes)
            g.declare_winner(DRAW if w is None else w, ended)
        elif rules.on_passes_fn is not None:  # an expression names the winner (nobody: a draw)
            w = _winner(rules.on_passes_fn(g, rules.player_env[g.turn]), rules.seats)
            points = tuple(rules.score_of(g, s) for s in range(rules.seats))
            won = None if w == DRAW else w
            side = rules.team_seats[w] if won is not None and rules.has_teams else ()
            ended = Outcome(won, Termination.PASSES, "end.on_passes", points=points, count=g.passes, side=side)
            g.declare_winner(w, ended)
        else:
            g.declare_winner(DRAW, Outcome(None, Termination.PASSES, "end.passes", count=g.passes))
        return
    g.turn = rules.next_seat[g.turn]
    g.turn_no += 1
    if g.marks:
        g.marks = {k: last for k, last in g.marks.items() if last >= g.turn_no}


def run(g: State) -> None:
    """Execute frames until a decision is needed or the game is over. In a match, a hand that
    ends is recorded and the next hand dealt, until a player has won enough hands."""
    _run(g)
    while g.hand_over is not None:
        _end_hand(g)
        _run(g)


def _end_hand(g: State) -> None:
    rules: Rules = g.rules
    hand: Outcome = g.hand_over  # type: ignore[assignment]
    g.hand_over = None
    g.hands = g.hands + (hand,)
    winner = hand.winner
    if winner is not None:
        wins = list(g.wins)
        for w in hand.winners:  # (a team wins the hand together)
            wins[w] += 1
        g.wins = tuple(wins)
        if wins[winner] >= rules.match_wins:
            g.outcome = Outcome(
                winner, Termination.MATCH, "match.wins", count=len(g.hands), wins=g.wins, hand=hand, side=hand.side
            )
            return
    if len(g.hands) >= MAX_HANDS:  # hands that keep ending without a winner: the match is a draw
        g.outcome = Outcome(None, Termination.HAND_LIMIT, None, count=len(g.hands), wins=g.wins, hand=hand)
        g.winner = DRAW
        return
    g.winner = None
    g.outcome = None
    g.clear()
    _deal_hand(g, len(g.hands) % rules.seats)  # the dealer moves one seat clockwise (ruling 21)


def _deal_hand(g: State, first: int) -> None:
    """Shuffle the deck with the game's generator and deal: `first` gets `deal.first` cards and moves
    first, each other player in turn clockwise `deal.second`; then each gets their `deal.extra` cards.
    (Each dealt card is drawn from the top, one by one, as `State.draw` would: a hand holds the top
    cards, topmost first.)"""
    rules: Rules = g.rules
    plan = _plan(rules)
    deck = list(plan.deck)
    g.rng.shuffle(deck)
    g.zones[DECK] = deck
    g.zone_of = zone_of = plan.in_deck[:]  # every card of the deck in it (the others nowhere, as before)
    for i, p in enumerate(rules.order_from[first]):
        k = min(rules.deal[0] if i == 0 else rules.deal[1], len(deck))
        if k:
            top = deck[len(deck) - k :]
            del deck[len(deck) - k :]
            top.reverse()
            g.zones[HANDS[p]].extend(top)
            for c in top:
                zone_of[c] = HANDS[p]
    for p, cards in enumerate(rules.deal_extra):
        for c in cards:
            g.zones[HANDS[p]].append(c)
            zone_of[c] = HANDS[p]
    g.turn = g.first = first
    g.turn_no = 1
    if rules.triggers:  # the game (or this hand of a match) starts, and so does its first turn
        g.frames.append([(fire("game"),), 0, {"me": first, "opponent": rules.opponent_of[first]}])


def _run(g: State) -> None:
    """Resume the waiting frames, top first; when none is left, the turn player's main decision."""
    frames = g.frames
    plan = _plan(g.rules)
    while g.pending is None and g.winner is None:
        if not frames:
            _main_decision(g, plan)
            return
        prog, pc, env = frames.pop()
        if prog is plan.end and pc == 0:
            _end_turn(g, plan, env["me"])
        else:
            _exec(g, prog, pc, env)


def deferred_plays(g: State, player: int, options: tuple[int, ...]) -> list[tuple[Any, ...]]:
    """The plays a `play from` offers. The chosen play starts only when the current effect has
    finished (a 7's other card back on the deck; the 7 itself stays on the stack until the chosen
    play has resolved), so each card is judged in that position: the rest of the current effect runs
    on a copy with the card set aside."""
    out: list[tuple[Any, ...]] = []
    for c in options:
        sim = g.copy()
        sim.move(c, STACK)
        frame = sim.frames[-1]
        sim.frames = [frame]
        while frame[1] < len(frame[0]) and sim.pending is None and sim.winner is None:
            ins = frame[0][frame[1]]
            if ins[0] in (CHOOSE, PLAY):
                sim = g  # the rest waits for a decision: judge the card where it stands now
                break
            frame[1] += 1
            op = ins[0]
            if op == EXEC:
                ins[1](sim, frame[2])
            elif op == BUILTIN:
                if ins[1] == "start_chosen":
                    break  # the effect is done: here the chosen play starts
                if ins[1] != "finish_play" and ins[1] != "fire":
                    BUILTINS[ins[1]](sim, frame[2], ins[2])
            elif op == JUMP_IF_NOT:
                if not ins[1](sim, frame[2]):
                    frame[1] = ins[2]
            elif op == JUMP:
                frame[1] = ins[1]
        out.extend(plays_for(sim, player, (c,), free_ok=False))
    return out


def _cleanup(g: State, env: dict[str, Any], _arg: Any) -> None:
    """A played card that its effect left on the stack goes to the scrap (the second card of a twin)."""
    for c in env.get("cards", ()):
        if g.zone_of[c] == STACK:
            g.move(c, SCRAP)


def _finish_play(g: State, env: dict[str, Any], arg: Any) -> None:
    """After a play's effect (or its countering): leftover played cards to the scrap, then the win check."""
    for c in env["cards"]:
        if g.zone_of[c] == STACK:
            g.move(c, SCRAP)
    check_win(g)


def _start_chosen(g: State, env: dict[str, Any], _arg: Any) -> None:
    """The effect that offered a `play from` is done: the play chosen there starts (and may open a
    response window); the rest of the frame (the kind's `after`) waits until it has resolved."""
    rec = env.pop("chosen play", None)
    if rec is not None:
        _start_play(g, rec)


def _after_response(g: State, env: dict[str, Any], _arg: Any) -> None:
    """The other player may answer a response in turn; otherwise the chain settles."""
    r, player = g.chain[-1][0], g.chain[-1][1]
    if r.counterable(g, env) and g.rules.answering.get(r.kind):
        g.pending = RESPOND_OF[g.rules.next_seat[player]]  # the round starts again after the answer
    else:
        _resolve_chain(g)


def _fire(g: State, env: dict[str, Any], arg: tuple[Any, ...]) -> None:
    """A step has resolved (`arg`: which): queue its own event, then run the triggers of every event
    queued so far, events in the order they happened and the triggers of one event in file order. The
    events of those triggers' effects queue behind: a last frame runs them when all have run (a chain,
    bounded by MAX_TRIGGERED triggered effects), then checks for a win."""
    what, name = arg
    events = g.events  # type: ignore[attr-defined]
    if what == "play" or what == "countered":
        events.append(
            (
                "play is countered" if what == "countered" else "play resolves",
                env["me"],
                env["card"],
                env["cards"],
                env.get("target", -1),
                name,
            )
        )
    elif what == "turn end":
        events.append(("turn ends", env["me"]))
    elif what == "turn start":
        events.append(("turn starts", g.turn))
    elif what == "game":
        events.append(("game starts", g.turn))
        events.append(("turn starts", g.turn))
    if not events:
        return
    queued = events[:]
    events.clear()
    runs = []
    triggers = g.rules.triggers
    step, spent = g.spent  # type: ignore[attr-defined]
    if step != g.moves_made:  # the first triggers of this step
        spent = 0
    for e in queued:
        kind = e[0]
        for t in triggers:
            found = _trigger_env(g.rules, t, e) if kind == "move" or t.event == kind else None
            if found is None:
                continue
            # `for: each player`: once for the event's player, then once for each other in turn
            for tenv in _each_player(g.rules, found) if t.each_player else (found,):
                spent += t.when_cost
                if spent > MAX_STEP_COST:
                    _overspent(t)
                if t.when is None or t.when(g, tenv):
                    spent += t.effect_cost
                    if spent > MAX_STEP_COST:
                        _overspent(t)
                    tenv[" by"] = (t.name, False)
                    runs.append((t, tenv))
    g.spent = (g.moves_made, spent)  # type: ignore[attr-defined]
    if not runs:
        return
    log = g.log.copy()  # each firing counted, for the lab (State.log)
    for t, _ in runs:
        log[("trigger", t.name)] = log.get(("trigger", t.name), 0) + 1
    g.log = log
    fired = env.get(" fired", 0) + len(runs)
    if fired > MAX_TRIGGERED:
        raise RuleRuntimeError(
            f"triggers set off more than {MAX_TRIGGERED:,} triggered effects in a row "
            f"(MAX_TRIGGERED; the last: {runs[-1][0].name}); the move is refused and the "
            f"game unchanged"
        )
    frames = g.frames
    frames.append([_CHAIN, 0, {"me": g.turn, "opponent": g.rules.opponent_of[g.turn], " fired": fired}])
    for t, tenv in reversed(runs):
        frames.append([t.program, 0, tenv])


def _each_player(rules: Rules, found: dict[str, Any]) -> list[dict[str, Any]]:
    """The bindings of a trigger run `for: each player`: the event's player first, then each other
    player clockwise (in a two-seat game, `me` and `opponent` swapped)."""
    me = found["me"]
    if rules.seats == 2:
        return [found, {**found, "me": found["opponent"], "opponent": me}]
    return [found] + [{**found, "me": s, "opponent": rules.opponent_of[s]} for s in rules.order_from[me][1:]]


def _overspent(t: Any) -> None:
    raise RuleRuntimeError(
        f"the triggers of one move would do more than {MAX_STEP_COST:,} steps of work "
        f"(MAX_STEP_COST; the last: {t.name}); the move is refused and the game unchanged"
    )


def _trigger_env(rules: Rules, t: Any, e: tuple[Any, ...]) -> dict[str, Any] | None:
    """The bindings of trigger `t` for event `e`, or None if `t` does not listen to it (`opponent`: the
    other player; at a larger table, the player's first opponent clockwise)."""
    if e[0] != "move":
        if e[0].startswith("play"):
            _, me, card, cards, target, name = e
            return {
                "me": me,
                "opponent": rules.opponent_of[me],
                "card": card,
                "cards": cards,
                "target": target,
                "cause": name,
                "countered": e[0] == "play is countered",
            }
        return {"me": e[1], "opponent": rules.opponent_of[e[1]]}
    _, card, src, dst, cause, countered, me = e
    if src == dst:  # within one zone (a card put back on the deck): nothing left or entered
        return None
    if t.event == "card leaves":
        zone = src
        if zone not in t.zones or t.within and dst in t.zones:  # from field to field is still in play
            return None
    elif t.event == "card enters":
        zone = dst
        if zone not in t.zones or t.within and src in t.zones:
            return None
    else:
        return None
    if CONTROLLER[zone] >= 0:  # a player's hand or field
        me = CONTROLLER[zone]
    return {
        "me": me,
        "opponent": rules.opponent_of[me],
        "it": card,
        "from_zone": zone_word(src),
        "to_zone": zone_word(dst),
        "cause": cause,
        "countered": countered,
    }


def _win_then_next_turn(g: State) -> None:
    """The end of a play's turn: the win check, then the next turn unless someone won."""
    check_win(g)
    if g.winner is None:
        _next_turn(g)


_CHAIN = (fire("chain"), CHECK_WIN)  # after a round of triggered effects: the triggers of their events


# the machine's own steps a direct play's generated function falls back to
_STEPS = {"check_win": check_win, "turn_ends_generally": _turn_ends_generally}

# Engine steps that never set a decision nor touch the frames (they run inside `_exec`).
_PLAIN_BUILTINS = frozenset({"check_win", "cleanup", "finish_play", "finish_answered", "end_turn", "next_turn"})

# The engine's own steps inside programs: (BUILTIN, name, argument).
BUILTINS = {
    "check_win": lambda g, env, arg: check_win(g),
    "next_turn": lambda g, env, arg: _next_turn(g),
    "cleanup": _cleanup,
    "finish_play": _finish_play,
    "finish_answered": _finish_answered,
    "end_turn": lambda g, env, arg: _win_then_next_turn(g),
    "after_response": _after_response,
    "start_play": lambda g, env, rec: _start_play(g, rec),
    "start_chosen": _start_chosen,
    "fire": _fire,
}


def deal(rules: Rules, seed: int) -> State:
    """A new game: the deck shuffled by the seed, p1 dealt `deal.first` cards and moving first."""
    g = new_state(rules, seed)
    _deal_hand(g, 0)
    if g.frames:  # the triggers of the game's start
        run(g)
    else:  # what `run` does when no frame waits
        _main_decision(g, _plan(rules))
        if g.hand_over is not None:
            run(g)
    return g


__all__ = [
    "Decision",
    "deal",
    "prepare",
    "run",
    "apply_action",
    "enumerate_actions",
    "legal_actions",
    "move_of",
    "plays_for",
    "check_win",
    "MAIN",
    "RESPOND",
    "CHOOSE_D",
    "PLAY_D",
    "FIELD0",
    "SHOWN",
    "PlayDef",
    "ResponseDef",
]
