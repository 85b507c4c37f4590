"""The generic engine: decisions, legal moves, plays, response windows, effects, turns.

Nothing here knows what any rank does; it runs the compiled ruleset. The state machine:
a stack of frames (compiled programs with a program counter and bindings) runs until it needs a
decision (`State.pending`): the main action of a turn, a response to a play (counter/resolve),
a `choose` inside an effect, or a `play from` (a 7's revealed cards).
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

from interpreter.core.cards import RANK_OF
from interpreter.language.compiler import BUILTIN, CHOOSE, EXEC, JUMP, JUMP_IF_NOT, PLAY, as_cards
from interpreter.rules.ruleset import PlayDef, ResponseDef, Rules

from .moves import Move
from .state import DECK, DRAW, FIELD0, HAND0, RANDOM, SCRAP, SHOWN, STACK, State

MAIN, RESPOND, CHOOSE_D, PLAY_D = "main", "respond", "choose", "play"
RESOLVE = Move("resolve", ())


class Decision(NamedTuple):
    """Who must decide now, and what kind of decision it is."""

    player: int
    kind: str                      # main | respond | choose | play
    verb: str = ""                 # choose: the verb of the move (discard, take...)
    count: int = 0                 # choose: how many cards
    options: tuple[int, ...] = ()  # choose/play: the cards to pick from


# The decisions that carry nothing but a player, made once (they are immutable values).
_MAIN_OF = (Decision(0, MAIN), Decision(1, MAIN))
_RESPOND_OF = (Decision(0, RESPOND), Decision(1, RESPOND))


def _env(player: int, cards: tuple[int, ...], **more: Any) -> dict:
    env = {"me": player, "opponent": 1 - player, "card": cards[0] if cards else -1, "cards": cards}
    env.update(more)
    return env


# ---- enumerating moves ---------------------------------------------------------------------------

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
        for p, first_counts in multi[rank]:
            if p.free and not free_ok:
                continue
            # When the play reads `card` (a twinned Royal or Jack puts its first card into play), the
            # first card named is the player's choice: each card may come first (ruling 18). When it
            # does not (a twinned one-off scraps both), the cards are a set, named in source order.
            others = [x for j, x in enumerate(source) if (j != i if first_counts else j > i)]
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
    rules._multi_by_rank = {r: [(p, _reads_card(rules, p)) for p in ps  # type: ignore[attr-defined]
                                if p.ncards > 1] for r, ps in rules.by_rank.items()}
    rules._singles = singles  # type: ignore[attr-defined]
    return singles


def _reads_card(rules: Rules, p: PlayDef) -> bool:
    """Whether a play's rules read `card` (its first card) rather than only `cards` (all of them):
    its legal condition, target, effect or countered program, or its kind's."""
    from interpreter.language import tree as A
    from interpreter.language.parser import parse_expr, parse_program

    kind = ((rules.data.get("kinds") or {}).get(p.kind) or {}) if p.kind else {}
    sources = [(p.source.get(k), k in ("effect", "countered")) for k in ("legal", "target", "effect", "countered")]
    sources += [(kind.get(k), k != "counterable") for k in ("counterable", "after", "countered")]
    for src, program in sources:
        if not isinstance(src, str):
            continue
        tree = parse_program(src) if program else parse_expr(src)
        if any(isinstance(n, A.Name) and n.name == "card" for n in A.walk(tree)):
            return True
    return False


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
                env = _env(player, (c,), extra=extra, answered=top[2])
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


# ---- performing actions --------------------------------------------------------------------------

def _end_turn_prog(rules: Rules) -> tuple:
    prog = getattr(rules, "_end_turn_prog", None)
    if prog is None:
        from interpreter.rules.ruleset import _concat
        prog = _concat(rules.turn_end, ((BUILTIN, "end_turn", None),))
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
        env = _env(player, cards, extra=extra, answered=g.chain[-2][2])
        g.frames.append([r.program, 0, env])
    elif kind == "resolve":
        _resolve_chain(g)
    else:  # choose
        env = g.frames[-1][2]
        env[d.verb] = env["chosen"] = action[1]
    g.moves_made += 1
    run(g)


def _start_play(g: State, rec: tuple) -> None:
    p, player, cards, target = rec
    for c in cards:
        if g.zone_of[c] != STACK:
            g.move(c, STACK)
    env = {"me": player, "opponent": 1 - player, "card": cards[0] if cards else -1, "cards": cards,
           "target": target}
    if p.counterable is not None and g.rules.answering.get(p.kind) and p.counterable(g, env):
        g.chain = (rec,)
        g.pending = _RESPOND_OF[1 - player]
        return
    _perform(g, p.program, env)


def _resolve_chain(g: State) -> None:
    chain = g.chain
    g.chain = ()
    p, player, cards, target = chain[0]
    env = _env(player, cards, target=target)
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
            g.pending = _MAIN_OF[g.turn]
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
        g.pending = _RESPOND_OF[1 - player]
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
