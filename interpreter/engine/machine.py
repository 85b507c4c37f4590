"""The generic engine: decisions, legal moves, plays, response windows, effects, turns.

Nothing here knows what any rank does; it runs the compiled ruleset. The state machine:
a stack of frames (compiled programs with a program counter and bindings) runs until it needs a
decision (`State.pending`): the main action of a turn, a response to a play (counter/resolve),
a `choose` inside an effect, or a `play from` (a 7's revealed cards).
"""

from __future__ import annotations

from typing import Any

from interpreter.core.errors import RuleRuntimeError
from interpreter.core.limits import MAX_CHOICES, MAX_HANDS, MAX_MOVES
from interpreter.core.zones import DECK, DRAW, FIELD0, HAND0, RANDOM, SCRAP, SHOWN, STACK
from interpreter.language.compiler import BUILTIN, CHOOSE, EXEC, JUMP, JUMP_IF_NOT, PLAY, concat
from interpreter.language.runtime import as_cards, choices
from interpreter.rules import PlayDef, ResponseDef, Rules

from .decision import CHOOSE_D, MAIN, MAIN_OF, PLAY_D, RESPOND, RESPOND_OF, Decision
from .legal import enumerate_actions, env_of, legal_actions, move_of, plays_for
from .state import State


def _end_turn_prog(rules: Rules) -> tuple:
    prog = getattr(rules, "_end_turn_prog", None)
    if prog is None:
        prog = concat(rules.turn_end, ((BUILTIN, "end_turn", None),))
        rules._end_turn_prog = prog  # type: ignore[attr-defined]
    return prog


def apply_action(g: State, action: tuple) -> None:
    """Perform one legal action of the pending decision, then run until the next decision."""
    d: Decision = g.pending
    g.pending = None
    g.actions = None
    kind = action[0]
    if kind == "play":
        _, p, player, cards, target = action
        rec = (p, player, cards, target)
        if d.kind == PLAY_D:
            for c in cards:
                g.move(c, STACK)
            top = g.frames[-1]
            if any(ins[0] == BUILTIN and ins[1] == "start_chosen" for ins in top[0][top[1]:]):
                top[2]["chosen play"] = rec  # starts when the effect that offered it is done (START_CHOSEN)
            else:  # a `play from` outside a play's effect: the chosen play starts when the frame is done
                g.frames.insert(len(g.frames) - 1, [((BUILTIN, "start_play", rec),), 0, {}])
        else:
            if not p.free:
                rules = g.rules
                prog = rules._end_turn_prog if hasattr(rules, "_end_turn_prog") else _end_turn_prog(rules)
                g.frames.append([prog, 0, {"me": player, "opponent": 1 - player}])
            _start_play(g, rec)
    elif kind == "respond":
        _, r, player, cards, extra = action
        g.chain = g.chain + ((r, player, cards, extra),)
        env = env_of(player, cards, extra=extra, answered=g.chain[-2][2])
        g.frames.append([r.program, 0, env])
    elif kind == "resolve":
        _resolve_chain(g)
    else:  # choose
        env = g.frames[-1][2]
        env[d.verb] = env["chosen"] = action[1]
    g.moves_made += 1
    run(g)
    if g.moves_made >= MAX_MOVES and g.winner is None:  # a game that never ends is a draw
        g.pending, g.actions, g.hand_over = None, None, None
        g.winner, g.reason = DRAW, f"the game reached {MAX_MOVES:,} moves (MAX_MOVES)"


def _start_play(g: State, rec: tuple) -> None:
    p, player, cards, target = rec
    for c in cards:
        if g.zone_of[c] != STACK:
            g.move(c, STACK)
    env = {"me": player, "opponent": 1 - player, "card": cards[0] if cards else -1, "cards": cards,
           "target": target}
    if p.counterable is not None and g.rules.answering.get(p.kind) and p.counterable(g, env):
        g.chain = (rec,)
        g.pending = RESPOND_OF[1 - player]
        return
    _perform(g, p.program, env)


def _resolve_chain(g: State) -> None:
    chain = g.chain
    g.chain = ()
    p, player, cards, target = chain[0]
    env = env_of(player, cards, target=target)
    _perform(g, p.program if (len(chain) - 1) % 2 == 0 else p.countered, env)


def _perform(g: State, prog: tuple, env: dict) -> None:
    """Run a program now if it can never wait for a decision (plain steps only), else push its frame
    for `_run`. Both orders are the same: the new frame would be the next to run."""
    simple = g.rules.plain_programs.get(id(prog))
    if simple is None:  # worked out once per program (the rules keep their programs alive)
        simple = g.rules.plain_programs[id(prog)] = all(
            ins[0] == EXEC or ins[0] == BUILTIN and ins[1] in _PLAIN_BUILTINS for ins in prog)
        g.rules.program_refs.append(prog)
    if simple:
        for ins in prog:
            if ins[0] == EXEC:
                ins[1](g, env)
            else:
                BUILTINS[ins[1]](g, env, ins[2])
        return
    g.frames.append([prog, 0, env])


def check_win(g: State) -> None:
    if g.winner is not None:
        return
    rules: Rules = g.rules
    turn = g.turn
    if rules.win_reads_own_field_only:  # a player's result can change only with their own field
        fv, checked = g.fv, g.checked_fv
        for p in (turn, 1 - turn):
            if fv[p] != checked[p]:
                checked[p] = fv[p]
                if rules.reached_goal(g, p):
                    g.declare_winner(p, f"p{p + 1} reached the goal")
                    return
        return
    if rules.win_reads_fields_only:
        if g.fv == g.checked_fv:
            return
        g.checked_fv = g.fv[:]
    if rules.reached_goal(g, turn):
        g.declare_winner(turn, f"p{turn + 1} reached the goal")
    elif rules.reached_goal(g, 1 - turn):
        g.declare_winner(1 - turn, f"p{2 - turn} reached the goal")


def _next_turn(g: State) -> None:
    rules: Rules = g.rules
    g.passes = g.passes + 1 if g.passed else 0
    g.passed = False
    if rules.passes_to_end and g.passes >= rules.passes_to_end:
        if rules.on_passes == "most_points":
            a, b = rules.score_of(g, 0), rules.score_of(g, 1)
            g.declare_winner(0 if a > b else 1 if b > a else DRAW,
                             f"{g.passes} passes in a row: points {a}-{b}")
        else:
            g.declare_winner(DRAW, f"{g.passes} passes in a row end the game with no winner")
        return
    g.turn = 1 - g.turn
    g.turn_no += 1
    if g.marks:
        g.marks = {c: m for c, m in g.marks.items() if m[1] >= g.turn_no}


def run(g: State) -> None:
    """Execute frames until a decision is needed or the game is over. In a match, a hand that
    ends is recorded and the next hand dealt, until a player has won enough hands."""
    _run(g)
    while g.hand_over is not None:
        _end_hand(g)
        _run(g)


def _end_hand(g: State) -> None:
    rules: Rules = g.rules
    winner, reason = g.hand_over  # type: ignore[misc]
    g.hand_over = None
    g.hands = g.hands + ((winner, reason),)
    if winner in (0, 1):
        wins = list(g.wins)
        wins[winner] += 1
        g.wins = (wins[0], wins[1])
        if wins[winner] >= rules.match_wins:
            g.reason = (f"p{winner + 1} wins the match {g.wins[0]}-{g.wins[1]} "
                        f"(hand {len(g.hands)}: {reason})")
            return
    if len(g.hands) >= MAX_HANDS:  # hands that keep ending without a winner: the match is a draw
        g.reason = f"the match reached {MAX_HANDS:,} hands (MAX_HANDS) at {g.wins[0]}-{g.wins[1]}"
        g.winner = DRAW
        return
    g.winner = None
    g.reason = ""
    g.clear()
    _deal_hand(g, len(g.hands) % 2)


def _deal_hand(g: State, first: int) -> None:
    """Shuffle the deck with the game's generator and deal: `first` gets `deal.first` cards and moves
    first, the other `deal.second`; then each gets their `deal.extra` cards."""
    rules: Rules = g.rules
    extra = rules.deal_extra
    reserved = {c for cards in extra for c in cards}
    deck = [c for c in rules.deck_cards if c not in reserved]
    g.rng.shuffle(deck)
    g.zones[DECK] = deck
    for c in deck:
        g.zone_of[c] = DECK
    n_first, n_second = rules.deal
    g.draw(first, n_first)
    g.draw(1 - first, n_second)
    for p, cards in enumerate(extra):
        for c in cards:
            g.zones[HAND0 + p].append(c)
            g.zone_of[c] = HAND0 + p
    g.turn = first
    g.turn_no = 1


def _run(g: State) -> None:
    frames = g.frames
    builtins = BUILTINS
    while g.pending is None and g.winner is None:
        if not frames:
            g.pending = MAIN_OF[g.turn]
            if not legal_actions(g):
                g.pending = None
                g.declare_winner(DRAW, f"p{g.turn + 1} has no legal move")
            return
        fr = frames[-1]
        prog, pc, env = fr
        if pc >= len(prog):
            frames.pop()
            continue
        ins = prog[pc]
        fr[1] = pc + 1
        op = ins[0]
        if op == 0:  # EXEC
            ins[1](g, env)
        elif op == 5:  # BUILTIN
            builtins[ins[1]](g, env, ins[2])
        elif op == JUMP_IF_NOT:
            if not ins[1](g, env):
                fr[1] = ins[2]
        elif op == JUMP:
            fr[1] = ins[1]
        elif op == CHOOSE:
            options = tuple(as_cards(ins[2](g, env)))
            n = min(ins[1](g, env), len(options))
            verb = ins[4]
            if n <= 0:
                env[verb] = env["chosen"] = ()
                continue
            chooser = ins[3](g, env)
            if chooser == RANDOM:
                pool = list(options)
                picked = []
                for _ in range(n):
                    picked.append(pool.pop(g.rng.below(len(pool))))
                env[verb] = env["chosen"] = tuple(sorted(picked))
                continue
            if choices(len(options), n) > MAX_CHOICES:
                raise RuleRuntimeError(f"choosing {n} of {len(options)} cards offers more than {MAX_CHOICES:,} "
                                       f"choices (MAX_CHOICES); the move is refused and the game unchanged")
            g.pending = Decision(chooser, CHOOSE_D, verb, n, options)
        elif op == PLAY:
            options = tuple(c for c in as_cards(ins[1](g, env)))
            acts = deferred_plays(g, env["me"], options)
            if acts:
                g.pending = Decision(env["me"], PLAY_D, options=options)
                g.actions = acts


def deferred_plays(g: State, player: int, options: tuple[int, ...]) -> list[tuple]:
    """The plays a `play from` offers. The chosen play starts only when the current effect has
    finished (a 7's other card back on the deck; the 7 itself stays on the stack until the chosen
    play has resolved), so each card is judged in that position: the rest of the current effect runs
    on a copy with the card set aside."""
    out: list[tuple] = []
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
                if ins[1] != "finish_play":
                    BUILTINS[ins[1]](sim, frame[2], ins[2])
            elif op == JUMP_IF_NOT:
                if not ins[1](sim, frame[2]):
                    frame[1] = ins[2]
            elif op == JUMP:
                frame[1] = ins[1]
        out.extend(plays_for(sim, player, (c,), free_ok=False))
    return out


def _cleanup(g: State, env: dict, _arg: Any) -> None:
    """A played card that its effect left on the stack goes to the scrap (the second card of a twin)."""
    for c in env.get("cards", ()):
        if g.zone_of[c] == STACK:
            g.move(c, SCRAP)


def _finish_play(g: State, env: dict, arg: Any) -> None:
    """After a play's effect (or its countering): leftover played cards to the scrap, then the win check."""
    for c in env["cards"]:
        if g.zone_of[c] == STACK:
            g.move(c, SCRAP)
    check_win(g)


def _start_chosen(g: State, env: dict, _arg: Any) -> None:
    """The effect that offered a `play from` is done: the play chosen there starts (and may open a
    response window); the rest of the frame (the kind's `after`) waits until it has resolved."""
    rec = env.pop("chosen play", None)
    if rec is not None:
        _start_play(g, rec)


def _after_response(g: State, env: dict, _arg: Any) -> None:
    """The other player may answer a response in turn; otherwise the chain settles."""
    r, player = g.chain[-1][0], g.chain[-1][1]
    if r.counterable(g, env) and g.rules.answering.get(r.kind):
        g.pending = RESPOND_OF[1 - player]
    else:
        _resolve_chain(g)


# Engine steps that never set a decision nor touch the frames.
_PLAIN_BUILTINS = frozenset({"check_win", "cleanup", "finish_play"})

# The engine's own steps inside programs: (BUILTIN, name, argument).
BUILTINS = {
    "check_win": lambda g, env, arg: check_win(g),
    "next_turn": lambda g, env, arg: _next_turn(g),
    "cleanup": _cleanup,
    "finish_play": _finish_play,
    "end_turn": lambda g, env, arg: (check_win(g), g.winner is None and _next_turn(g)),
    "after_response": _after_response,
    "start_play": lambda g, env, rec: _start_play(g, rec),
    "start_chosen": _start_chosen,
}


def deal(rules: Rules, seed: int) -> State:
    """A new game: the deck shuffled by the seed, p1 dealt `deal.first` cards and moving first."""
    g = State(rules, seed)
    _deal_hand(g, 0)
    run(g)
    return g


__all__ = ["Decision", "deal", "run", "apply_action", "enumerate_actions", "legal_actions", "move_of", "plays_for",
           "check_win", "MAIN", "RESPOND", "CHOOSE_D", "PLAY_D", "FIELD0", "SHOWN", "PlayDef", "ResponseDef"]
