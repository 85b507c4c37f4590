"""Compiling statements: a program that never waits for a player becomes one generated function; one
that may (`choose`, `play from`, a question) becomes a flat list of instructions (instructions.py)
around generated functions. One function per statement (`_s_*`, given the `Compiler` at work as
`c`), registered in `_SGEN`."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import MOVE_WORD
from interpreter.core.errors import suggest
from interpreter.core.limits import MAX_CHOICES, MAX_EXPR_DEPTH, MAX_NUMBERS
from interpreter.core.zones import DECK, FIELD0, HAND0, SCRAP, SHOWN

from . import tree as A
from .analysis import _suspends
from .context import FOREVER
from .cost import ONE, ZERO, Cost
from .instructions import AGREED, ASK, CHOOSE, DECLINE, EXEC, JUMP, JUMP_IF_NOT, NUMBER, PLAY, UPTO, win_reason
from .pyast import Fn, Scope, _call, _Code, _compare, _const, _for, _g, _item, _load, _plus, _stmt, _store, _zone
from .runtime import choices

if TYPE_CHECKING:
    from .compiler import Compiler


# -- statements ---------------------------------------------------------------------------
def compile_program(c: Compiler, prog: A.Program | tuple[A.Node, ...], bound: frozenset[str]) -> tuple:
    body = prog.body if isinstance(prog, A.Program) else prog
    c.cost = ZERO
    if not body:
        return ()
    if not any(_suspends(stmt) for stmt in body):
        # nothing in it waits for a player: the whole program is one generated function
        used: dict[str, str] = {}
        scope: Scope = {n: None for n in bound}
        lines: list[ast.stmt] = []
        for stmt in body:
            lines += stmt_lines(c, stmt, scope, used)
        fn = c._function(lines, used)
        if fn is not None:
            c.ctx.programs[fn] = (tuple(body), frozenset(bound))
        return ((EXEC, fn),)
    out: list = []
    block(c, body, set(bound), out)
    return tuple(tuple(i) for i in out)


def block(c: Compiler, body, bound: set[str], out: list) -> None:
    for stmt in body:
        _stmt_instructions(c, stmt, bound, out)


def _ask(c: Compiler, node: A.Ask, fb: frozenset[str], bound: set[str], out: list) -> None:
    """`if P agrees to VERB then ... else ... end`: P answers VERB or `decline` (an ASK), then the
    jump of an `if` on the answer."""
    who, w = sub_expr(c, node.player, fb)
    c._expect(w, ("player",), node.player, "'agrees'")
    if not MOVE_WORD.match(node.verb) or node.verb == DECLINE:
        raise c.error(
            node,
            f"'{node.verb}' cannot name the answer yes: a player answers '{node.verb}' or '{DECLINE}'",
            "E217",
            hint="name the answer with a lower-case word, a letter first, other than decline (e.g. 'to mulligan')",
        )
    c.ctx.asked.add(node.verb)
    out.append([CHOOSE, None, None, who, node.verb, ASK])
    branches(c, _agreed, node.then, node.orelse, bound, out)


def branches(c: Compiler, test: Any, then: Any, orelse: Any, bound: set[str], out: list) -> None:
    """The instructions of `if`: a jump past `then` unless `test` holds, then `orelse` (if any) jumped
    over after `then`."""
    jif = [JUMP_IF_NOT, test, -1]
    out.append(jif)
    block(c, then, bound, out)
    if orelse:
        j = [JUMP, -1]
        out.append(j)
        jif[2] = len(out)
        block(c, orelse, bound, out)
        j[1] = len(out)
    else:
        jif[2] = len(out)


def sub_expr(c: Compiler, node: A.Node, bound: frozenset[str]) -> tuple[Fn, _Code]:
    used: dict[str, str] = {}
    pre, code = c._apart(lambda: c.gen(node, {n: None for n in bound}, used))
    c.cost = c.cost + code.cost
    fn = c._function(pre + [ast.Return(value=code.node)], used)
    if fn is not None:
        c.ctx.trees[fn] = (node, bound)
    return fn, code


def _stmt_instructions(c: Compiler, node: A.Node, bound: set[str], out: list) -> None:
    if isinstance(node, A.Statement) and _own(node, "instructions", "lines"):
        node.instructions(c, bound, out)
        return
    fb = frozenset(bound)
    if isinstance(node, A.If):
        cond, _ = sub_expr(c, node.cond, fb)
        branches(c, cond, node.then, node.orelse, bound, out)
        return
    if isinstance(node, A.Ask):
        _ask(c, node, fb, bound, out)
        return
    if isinstance(node, A.Choose):
        (count, n), (src, s) = sub_expr(c, node.count, fb), sub_expr(c, node.source, fb)
        who, w = sub_expr(c, node.chooser, fb)
        c._expect(n, ("int",), node.count, "choose")
        c._expect(s, ("card", "cards"), node.source, "'choose ... from'")
        c._expect(w, ("player",), node.chooser, "'choose ... by'")
        if not MOVE_WORD.match(node.verb):
            raise c.error(
                node,
                f"'{node.verb}' cannot begin a move: a player types the choice as '{node.verb} CARD'",
                "E217",
                hint="name the choice with a lower-case word, a letter first (e.g. 'as pick')",
            )
        if node.ordered:  # all the cards, in an order the chooser names (k! moves: bounded when played)
            c.ctx.verbs.add(node.verb)
            out.append([CHOOSE, count, src, who, node.verb, True])
            bound.add(node.verb)
            bound.add("chosen")
            return
        offered = choices(s.size, n.value) if n.value.__class__ is int else 0
        if node.upto and n.value.__class__ is int:  # any number from none to N
            offered = sum(choices(s.size, k) for k in range(min(n.value, s.size) + 1))
        if offered > MAX_CHOICES:
            raise c.error(
                node,
                f"choosing {n.value} of up to {s.size} cards offers more than {MAX_CHOICES:,} choices (MAX_CHOICES)",
                "E214",
            )
        c.ctx.verbs.add(node.verb)
        out.append([CHOOSE, count, src, who, node.verb] + ([UPTO] if node.upto else []))
        bound.add(node.verb)
        bound.add("chosen")
        return
    if isinstance(node, A.ChooseNumber):
        _choose_number(c, node, fb, out)
        bound.add(node.verb)
        return
    if isinstance(node, A.PlayFrom):
        src, s = sub_expr(c, node.source, fb)
        c.cost = c.cost + Cost(0, plays=s.size)
        out.append([PLAY, src])
        return
    if isinstance(node, A.Let):
        used: dict[str, str] = {}
        pre, code = c._apart(lambda: c.gen(node.value, {n: None for n in fb}, used))
        c.cost = c.cost + code.cost
        c._let_sizes[node.name] = code.size
        fn = c._function(pre + [ast.Assign(targets=[_env_item(c, node.name)], value=_snapshot(code))], used)
        if fn is not None:  # (every plain step of a program is known by its statements)
            c.ctx.programs[fn] = ((node,), fb)
        out.append([EXEC, fn])
        bound.add(node.name)
        return
    plain_step(c, node, bound, out)


def plain_step(c: Compiler, node: A.Node, bound: set[str], out: list) -> None:
    """A statement that cannot suspend, at the top of a program: one EXEC of its lines."""
    fb = frozenset(bound)
    used: dict[str, str] = {}
    lines = stmt_lines(c, node, {n: None for n in fb}, used)
    fn = c._function(lines, used)
    if fn is not None:
        c.ctx.programs[fn] = ((node,), fb)
    out.append([EXEC, fn])


def _choose_number(c: Compiler, node: A.ChooseNumber, fb: frozenset[str], out: list) -> None:
    """`choose a number from LOW to HIGH by P as NAME`: one move per number (`NAME 7`), at most
    MAX_NUMBERS of them (refused here when both ends are known, else when it is played)."""
    (low, lo), (high, hi) = sub_expr(c, node.low, fb), sub_expr(c, node.high, fb)
    who, w = sub_expr(c, node.chooser, fb)
    c._expect(lo, ("int",), node.low, "'choose a number from'")
    c._expect(hi, ("int",), node.high, "'choose a number ... to'")
    c._expect(w, ("player",), node.chooser, "'choose a number ... by'")
    if not MOVE_WORD.match(node.verb):
        raise c.error(
            node,
            f"'{node.verb}' cannot begin a move: a player types the number as '{node.verb} 7'",
            "E217",
            hint="name the number with a lower-case word, a letter first (e.g. 'as value')",
        )
    if node.verb in c.ctx.verbs:
        raise c.error(node, f"'{node.verb}' already names a choice of cards; name the number otherwise", "E217")
    if lo.value.__class__ is int and hi.value.__class__ is int and hi.value - lo.value + 1 > MAX_NUMBERS:
        raise c.error(
            node,
            f"choosing a number from {lo.value} to {hi.value} offers {hi.value - lo.value + 1:,} moves; "
            f"at most {MAX_NUMBERS:,} (MAX_NUMBERS)",
            "E214",
        )
    known = lo.value.__class__ is int and hi.value.__class__ is int
    c.cost = c.cost + Cost(max(1, hi.value - lo.value + 1) if known else MAX_NUMBERS)  # the moves offered
    out.append([CHOOSE, low, high, who, node.verb, NUMBER])


def _env_item(c: Compiler, name: str) -> ast.Subscript:
    return ast.Subscript(value=_load("e"), slice=c.const(name), ctx=ast.Store())


def stmt_lines(c: Compiler, node: A.Node, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
    """The Python statements of a statement that cannot suspend (its work is added to `cost`):
    those its expressions need first, then its own."""
    pre, lines = c._apart(lambda: _stmt_lines(c, node, scope, used))
    return pre + lines


def _own(node: A.Statement, *methods: str) -> bool:
    """Whether a construct compiles itself (the constructs not moved yet are compiled here)."""
    return any(getattr(type(node), m) is not getattr(A.Statement, m) for m in methods)


def _stmt_lines(c: Compiler, node: A.Node, scope: Scope, used: dict[str, str]) -> list[ast.stmt]:
    c._depth += 1
    try:
        if c._depth > 2 * MAX_EXPR_DEPTH:
            raise c.error(node, f"this is nested more than {2 * MAX_EXPR_DEPTH} deep (MAX_EXPR_DEPTH)", "E212")
        if isinstance(node, A.Statement) and _own(node, "lines"):
            return node.lines(c, scope, used)
        if isinstance(node, A.Let) and not c._in_loop:
            code = c.gen(node.value, scope, used)
            c.cost = c.cost + code.cost
            scope[node.name] = None
            c._let_sizes[node.name] = code.size
            local = c._env(node.name, used)
            return [ast.Assign(targets=[_env_item(c, node.name), _store(local.id)], value=_snapshot(code))]
        method = _SGEN.get(type(node))
        if method is None:
            if isinstance(node, (A.Choose, A.ChooseNumber, A.PlayFrom, A.Let, A.Ask)):
                raise c.error(
                    node,
                    "'choose', 'choose a number', 'play from', 'let' and 'if ... agrees' "
                    "cannot stand inside 'for each'",
                    "E208",
                )
            raise c.error(node, f"{type(node).__name__} is not a statement")
        return method(c, node, scope, used)
    finally:
        c._depth -= 1


def each(
    c: Compiler, cards: _Code, call: Callable[[ast.expr], ast.expr], inner: list[ast.stmt] | None = None
) -> list[ast.stmt]:
    """`call(card)` for each of the cards (a copy: the calls may move them); `inner`: statements the
    call needs, run before each."""
    c.cost = c.cost + cards.cost + Cost(cards.size)
    if cards.typ == "card" and not c.plain:  # a card, or none (-1): no set to build
        x = cards.node
        if not isinstance(x, ast.Name):
            x = c._local(x)
        return [ast.If(test=_compare(x, ast.GtE(), _const(0)), body=(inner or []) + [_stmt(call(x))], orelse=[])]
    var = c._fresh()
    source = c._cards_of(cards) if cards.typ == "card" else _call("tuple", c._cards_of(cards))
    return [_for(var, source, (inner or []) + [_stmt(call(_load(var)))])]


def cards_arg(c: Compiler, node: A.Node, scope, used, what: str) -> _Code:
    code = c.gen(node, scope, used)
    c._expect(code, ("card", "cards"), node, what)
    return code


def _s_scrap(c: Compiler, node: A.Scrap, scope, used) -> list[ast.stmt]:
    return each(c, cards_arg(c, node.cards, scope, used, "scrap"), lambda card: _call(_g("move"), card, _const(SCRAP)))


def _s_move(c: Compiler, node: A.Move, scope, used) -> list[ast.stmt]:
    cards = cards_arg(c, node.cards, scope, used, "move")
    d = node.dest
    if d.zone in ("deck top", "deck bottom", "scrap", "shown"):
        zone = {"deck top": DECK, "deck bottom": DECK, "scrap": SCRAP, "shown": SHOWN}[d.zone]
        if cards.typ != "card" and (d.zone == "deck top") != d.reversed and d.zone != "scrap" and d.zone != "shown":
            # several cards onto the deck keep their order read from the top: put on the top, the
            # first ends topmost (the last goes first); `reversed` turns it round (docs: ordered moves)
            cards = _Code(_call("_from_top", c._cards_of(cards)), "cards", cards.cost, cards.size)
        if d.zone == "deck bottom":
            return each(c, cards, lambda card: _call(_g("move"), card, _const(zone), _const(True)))
        return each(c, cards, lambda card: _call(_g("move"), card, _const(zone)))
    # the player is worked out for each card (before it moves)
    whose = d.player
    assert whose is not None  # the parser gives a hand or a field its player
    inner, p = c._apart(lambda: c.gen(whose, scope, used))
    c.cost = c.cost + p.cost
    player = c._as_player(p, whose, f"'to {d.zone} of'")
    if d.zone == "hand":
        return each(c, cards, lambda card: _call(_g("move"), card, _plus(_const(HAND0), player)), inner)
    if d.role is not None:
        c.ctx.roles.add(d.role)
    role = c.const(d.role)
    return each(c, cards, lambda card: _call(_g("put_in_play"), card, player, role), inner)


def _s_attach(c: Compiler, node: A.Attach, scope, used) -> list[ast.stmt]:
    cards = cards_arg(c, node.card, scope, used, "attach")
    host = cards_arg(c, node.host, scope, used, "'attach ... to'")
    c.cost = c.cost + host.cost
    c.ctx.roles.add(node.role)
    h = c._fresh()
    me, role = c._env("me", used), c.const(node.role)
    body = each(c, cards, lambda card: _call(_g("attach"), card, _load(h), me, role))
    first = host.node if host.typ == "card" and not c.plain else _call("_first", host.node)
    return [
        ast.Assign(targets=[_store(h)], value=first),
        ast.If(test=_compare(_load(h), ast.GtE(), _const(0)), body=body, orelse=[]),
    ]


def _s_draw(c: Compiler, node: A.Draw, scope, used) -> list[ast.stmt]:
    n = c.gen(node.count, scope, used)
    c._expect(n, ("int",), node.count, "draw")
    if node.player is not None:
        pc = c.gen(node.player, scope, used)
        c.cost = c.cost + pc.cost
        p = c._as_player(pc, node.player, "'draw ... for'")
    else:
        p = c._env("me", used)
    c.cost = c.cost + n.cost + Cost(c.ctx.deck_size)
    return [_stmt(_call(_g("draw"), p, _count_of(n)))]


def _count_of(n: _Code) -> ast.expr:
    """A number of cards: checked when it runs if the checks at load time could not prove it one."""
    return n.node if n.typ == "int" else _call("_count", n.node)


def _s_reveal(c: Compiler, node: A.Reveal, scope, used) -> list[ast.stmt]:
    n = c.gen(node.count, scope, used)
    c._expect(n, ("int",), node.count, "reveal")
    c.cost = c.cost + n.cost + Cost(c.ctx.deck_size)
    deck = _zone(_const(DECK))
    top = _item(_zone(_const(DECK)), _const(-1))
    return [
        _for(
            c._fresh(),
            _call("range", _call("min", _count_of(n), _call("len", deck))),
            [_stmt(_call(_g("move"), top, _const(SHOWN)))],
        )
    ]


def _s_shuffle(c: Compiler, node: A.Shuffle, scope, used) -> list[ast.stmt]:
    cards = cards_arg(c, node.cards, scope, used, "shuffle")
    c.cost = c.cost + Cost(c.ctx.deck_size)
    return each(c, cards, lambda card: _call(_g("move"), card, _const(DECK))) + [_stmt(_call(_g("shuffle_deck")))]


def _s_shuffle_under(c: Compiler, node: A.ShuffleUnder, scope, used) -> list[ast.stmt]:
    cards = cards_arg(c, node.cards, scope, used, "shuffle")
    c.cost = c.cost + cards.cost + Cost(cards.size)
    return [_stmt(_call(_g("shuffle_under"), _call("tuple", c._cards_of(cards))))]


def _s_swap(c: Compiler, node: A.Swap, scope, used) -> list[ast.stmt]:
    zs = []
    for side in (node.left, node.right):
        if not isinstance(side, A.Zone) or side.zone not in ("hand", "field"):
            raise c.error(side, "swap exchanges two zones: write e.g. swap hand of me with hand of opponent", "E209")
        base = HAND0 if side.zone == "hand" else FIELD0
        owner = side.player
        assert owner is not None  # a hand or a field has its player
        p = c.gen(owner, scope, used)
        c.cost = c.cost + p.cost
        zs.append(_plus(_const(base), c._as_player(p, owner, f"'{side.zone} of'")))
    c.cost = c.cost + Cost(c.ctx.deck_size)
    return [_stmt(_call(_g("swap_zones"), zs[0], zs[1]))]


def _s_mark(c: Compiler, node: A.Mark, scope, used) -> list[ast.stmt]:
    c.ctx.marks.add(node.mark)
    turns = node.turns
    inner: list[ast.stmt]
    if turns is None:  # for the rest of the game
        inner, n = [], _Code(_const(FOREVER), "int")
    else:
        inner, n = c._apart(lambda: c.gen(turns, scope, used))  # worked out for each card
        c._expect(n, ("int",), turns, "'mark ... for'")
    c.cost = c.cost + n.cost
    mark = c.const(node.mark)
    who = _marked_player(c, node.cards, scope, used)
    if who is not None:
        return inner + [_stmt(_call(_g("mark"), who, mark, n.node))]
    return each(
        c, cards_arg(c, node.cards, scope, used, "mark"), lambda card: _call(_g("mark"), card, mark, n.node), inner
    )


def _counter_target(c: Compiler, node: A.Node, scope, used) -> tuple[ast.expr, ast.expr]:
    if not isinstance(node, A.Attr) or node.name not in c.ctx.counters:
        name = node.name if isinstance(node, A.Attr) else None
        near = suggest(name, c.ctx.counters) if name else None
        raise c.error(
            node,
            f"unknown counter '{name}'" if name else "'set'/'add' need X.COUNTER (a counter declared in `counters:`)",
            "E216",
            f"did you mean '{near}'?"
            if near
            else f"counters: {', '.join(c.ctx.counters) or 'none declared (add a `counters:` section)'}",
        )
    obj = c.gen(node.obj, scope, used)
    c.cost = c.cost + obj.cost
    return c._counter_key(obj, node, node.name), c.const(node.name)


def _value_card(c: Compiler, node: A.Node, scope, used) -> ast.expr | None:
    """The card of `X.value` as the target of `set`/`add` (a card's own value), or None when the
    target is a counter."""
    if not (isinstance(node, A.Attr) and node.name == "value"):
        return None
    obj = c.gen(node.obj, scope, used)
    c._expect(obj, ("card", "cards"), node.obj, "'.value'")
    c.cost = c.cost + obj.cost
    return obj.node if obj.typ == "card" else _call("_first", obj.node)


def _s_set_counter(c: Compiler, node: A.SetCounter, scope, used) -> list[ast.stmt]:
    card = _value_card(c, node.target, scope, used)
    if card is None:
        key, name = _counter_target(c, node.target, scope, used)
    v = c.gen(node.value, scope, used)
    c._expect(v, ("int",), node.value, "'set ... to'")
    if node.turns is None:
        n = _Code(_const(FOREVER), "int")
    else:
        n = c.gen(node.turns, scope, used)
        c._expect(n, ("int",), node.turns, "'set ... for'")
    c.cost = c.cost + v.cost + n.cost
    if card is not None:  # a card's own value: it keeps it while it stays in play
        return [_stmt(_call("_set_value", _load("g"), card, v.node, n.node))]
    return [_stmt(_call(_g("set_counter"), key, name, v.node, n.node))]


def _s_add_counter(c: Compiler, node: A.AddCounter, scope, used) -> list[ast.stmt]:
    card = _value_card(c, node.target, scope, used)
    if card is None:
        key, name = _counter_target(c, node.target, scope, used)
    v = c.gen(node.value, scope, used)
    c._expect(v, ("int",), node.value, "'add'")
    c.cost = c.cost + v.cost
    if card is not None:
        return [_stmt(_call("_add_value", _load("g"), card, v.node, _load("VAL")))]
    return [_stmt(_call(_g("add_counter"), key, name, v.node))]


def _s_unmark(c: Compiler, node: A.Unmark, scope, used) -> list[ast.stmt]:
    c.ctx.marks.add(node.mark)
    mark = c.const(node.mark)
    who = _marked_player(c, node.cards, scope, used)
    if who is not None:
        return [_stmt(_call(_g("unmark"), who, mark))]
    return each(c, cards_arg(c, node.cards, scope, used, "unmark"), lambda card: _call(_g("unmark"), card, mark))


def _marked_player(c: Compiler, node: A.Node, scope, used) -> ast.expr | None:
    """A player being marked (or tested for a mark): their key among the marks, -1 - player; None
    for cards. (Players and cards share the marks: a player's key is negative.)"""
    pre, x = c._apart(lambda: c.gen(node, scope, used))
    if x.typ != "player":
        return None  # cards: the caller builds them itself
    c._pre.extend(pre)
    c.cost = c.cost + x.cost
    return ast.BinOp(left=_const(-1), op=ast.Sub(), right=c._as_player(x, node, "mark"))


def _s_for(c: Compiler, node: A.ForEach, scope, used) -> list[ast.stmt]:
    src = cards_arg(c, node.source, scope, used, "for each")
    var = c._fresh()
    inner = {**scope, node.var: _Code(_load(var), c._TYPES.get(node.var, "any"))}
    body: list[ast.stmt] = []
    saved, c.cost = c.cost, ZERO
    c._in_loop += 1
    try:
        for s in node.body:
            body += stmt_lines(c, s, inner, used)
    finally:
        c._in_loop -= 1
        c.cost = saved + src.cost + (c.cost + ONE).times(src.size)
    return [_for(var, _call("tuple", c._cards_of(src)), body)]


def _s_if(c: Compiler, node: A.If, scope, used) -> list[ast.stmt]:  # an `if` inside `for each`
    cond = c.gen(node.cond, scope, used)
    c.cost = c.cost + cond.cost
    then: list[ast.stmt] = []
    for s in node.then:
        then += stmt_lines(c, s, scope, used)
    orelse: list[ast.stmt] = []
    for s in node.orelse:
        orelse += stmt_lines(c, s, scope, used)
    return [ast.If(test=cond.node, body=then or [ast.Pass()], orelse=orelse)]


def _s_pass(c: Compiler, node: A.Pass, scope, used) -> list[ast.stmt]:
    c.cost = c.cost + ONE
    return [ast.Assign(targets=[ast.Attribute(value=_load("g"), attr="passed", ctx=ast.Store())], value=_const(True))]


def _s_win(c: Compiler, node: A.Win, scope, used) -> list[ast.stmt]:
    p = c.gen(node.player, scope, used)
    if isinstance(node.player, A.Name) and node.player.name == "random":
        raise c.error(node.player, "win needs a player (me, opponent, a card's owner...), not random", "E210")
    c.cost = c.cost + p.cost
    return [
        _stmt(
            _call(
                _g("declare_winner"),
                c._as_player(p, node.player, "win"),
                c.const(win_reason(rule_name(c))),
            )
        )
    ]


def _s_nothing(c: Compiler, node: A.Nothing, scope, used) -> list[ast.stmt]:
    return [ast.Pass()]


def _s_show(c: Compiler, node: A.Show, scope, used) -> list[ast.stmt]:
    """`show CARDS to P`: g.show(card, bits), bits 1 + P (1: p1, 2: p2) or 3 (`to all`)."""
    cards = cards_arg(c, node.cards, scope, used, "show")
    if node.player is None:
        bits: ast.expr = _const(3)
    else:
        if isinstance(node.player, A.Name) and node.player.name == "random":
            raise c.error(
                node.player, "show needs a player (me, opponent, a card's owner...) or all, not random", "E210"
            )
        p = c.gen(node.player, scope, used)
        c.cost = c.cost + p.cost
        bits = _plus(_const(1), c._as_player(p, node.player, "'show ... to'"))
    rule = rule_name(c)
    if not rule:
        return each(c, cards, lambda card: _call(_g("show"), card, bits))
    name = c.const(rule)
    return each(c, cards, lambda card: _call(_g("show"), card, bits, name))


def rule_name(c: Compiler) -> str:
    """The rule being compiled, as the lab names it ('plays.three', 'triggers.NAME', 'turn.end'):
    its label less a last `.effect`; '' when the code is made for no rule."""
    label = c.label  # a definition's statements belong to the rule that uses it
    if not label:
        return ""
    return label[: -len(".effect")] if label.endswith(".effect") else label


def _agreed(g: Any, env: dict) -> bool:
    """Whether the question just asked was answered yes (the condition of the jump after an ASK)."""
    return env[AGREED]


def _snapshot(code: _Code) -> ast.expr:
    """A `let` names a value: the cards of a zone as they are now, not the zone as it changes."""
    return _call("tuple", code.node) if code.typ == "cards" else code.node


_SGEN: dict[type, Callable[..., list[ast.stmt]]] = {
    A.Scrap: _s_scrap,
    A.Move: _s_move,
    A.Attach: _s_attach,
    A.Draw: _s_draw,
    A.Reveal: _s_reveal,
    A.Shuffle: _s_shuffle,
    A.ShuffleUnder: _s_shuffle_under,
    A.Swap: _s_swap,
    A.Mark: _s_mark,
    A.Unmark: _s_unmark,
    A.SetCounter: _s_set_counter,
    A.AddCounter: _s_add_counter,
    A.ForEach: _s_for,
    A.If: _s_if,
    A.Pass: _s_pass,
    A.Win: _s_win,
    A.Nothing: _s_nothing,
    A.Show: _s_show,
}
