"""One builder per section of a ruleset file. Each reads its section of the composed data through
the shared `Builder` (which reports problems with their places) and sets what it builds on the
`Rules`. `SECTIONS` lists them in the order they run: what a later section compiles may use the
names an earlier one defined."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interpreter.core.cards import (
    ALL_RANKS,
    CARD_COUNT,
    JOKERS,
    NAMES,
    RANK_OF,
    SUIT_OF,
    SUITS,
    UnknownCardError,
    parse_card,
)
from interpreter.core.errors import RulesetError, suggest
from interpreter.core.limits import (
    MAX_BASE_COST,
    MAX_CHOICES,
    MAX_COST,
    MAX_DECISION_COST,
    MAX_INT,
    MAX_MATCH_WINS,
    MAX_STEP_COST,
    MAX_TRIGGERED,
)
from interpreter.core.zones import DECK, IS_HAND, MAX_SEATS, ZONE_NAMES
from interpreter.language import tree as A
from interpreter.language.analysis import reads_name
from interpreter.language.compiler import (
    CARD_ATTRS,
    DECLINE,
    PLAY,
    PLAYER_ATTRS,
    ZERO,
    Compiler,
    Cost,
    concat,
    reads_only_fields,
    reads_only_own_field,
)
from interpreter.language.context import UNKNOWN_KIND
from interpreter.language.english import Context as EnglishContext
from interpreter.language.english import english, subst
from interpreter.language.parser import parse_expr
from interpreter.language.runtime import choices

from .builder import BASE, NO_COST, Builder
from .compose import Composed, get_path
from .defs import AFTER_RESPONSE, FINISH_ANSWERED, FINISH_PLAY, START_CHOSEN, PlayDef, ResponseDef, TriggerDef
from .lint import lint, rank_hint
from .schema import ENDING_WORDS
from .seats import build_seats, seat_name
from .triggers import build_triggers
from .validate import int_or, list_or

if TYPE_CHECKING:
    from .model import Rules

_DEF_RE = re.compile(
    r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_]"
    r"[A-Za-z0-9_]*)*)?\s*\))?\s*$"
)
DEFAULT_GOAL = "21"
DEFAULT_SCORE = "total(field of me where it.role == point)"


def build_deck(b: Builder, r: Rules) -> None:
    """deck: the cards in the game (ranks x suits, or a list), Jokers, and the suits' order."""
    deck = b.d.get("deck", {}) or {}
    suits = [str(s) for s in deck.get("suits", list(SUITS))]
    for i, s in enumerate(suits):
        if s not in SUITS:
            b.error(f"deck.suits: unknown suit '{s}' (C, D, H, S)", ("deck", "suits", i), "E015")
    r.suits = tuple(s for s in suits if s in SUITS)
    if "cards" in deck:
        cards: list[int] = []
        for i, t in enumerate(deck["cards"]):
            try:
                cards.append(parse_card(str(t)))
            except UnknownCardError:
                pass  # already reported by validation
            if cards.count(cards[-1] if cards else -1) > 1:
                b.error(f"deck.cards: {t} appears twice", ("deck", "cards", i), "E016")
    else:
        ranks = [str(x) for x in deck.get("ranks", list(ALL_RANKS[:-1]))]
        cards = [i for i in range(CARD_COUNT) if RANK_OF[i] in ranks and SUIT_OF[i] in r.suits]
    jokers = int_or(deck.get("jokers"), 0)
    if jokers > len(JOKERS):
        b.error(f"deck.jokers: at most {len(JOKERS)}", ("deck", "jokers"), "E016")
    cards += [NAMES.index(j) for j in JOKERS[:jokers] if NAMES.index(j) not in cards]
    r.deck_cards = tuple(sorted(cards))
    r.ranks_in_deck = tuple(x for x in ALL_RANKS if any(RANK_OF[c] == x for c in r.deck_cards))


def build_values(b: Builder, r: Rules) -> None:
    """values: the point value of each rank."""
    data = b.d.get("values") or {}
    r.values = {str(k): int(v) for k, v in data.items() if isinstance(v, int)}
    for k in data:
        if str(k) not in ALL_RANKS:
            b.error(f"values: unknown rank '{k}'", ("values", k), "E013", rank_hint(str(k)), key=True)


def build_deal(b: Builder, r: Rules) -> None:
    """deal: how many cards each player gets, and particular cards given besides the deal."""
    deal = b.d.get("deal") or {}
    r.deal = (int_or(deal.get("first"), 5), int_or(deal.get("second"), 6))
    r.deal_sizes = (r.deal[0],) + (r.deal[1],) * (r.seats - 1)  # by seat: p1 `first`, every other `second`
    extra: list[tuple[int, ...]] = []
    names = [seat_name(s) for s in range(MAX_SEATS)]
    for pname in names[r.seats :]:
        if (deal.get("extra") or {}).get(pname):
            b.error(f"deal.extra.{pname}: this table has {r.seats} seats, no {pname}", ("deal", "extra", pname), "E028")
    for pname in names[: r.seats]:
        given: list[int] = []
        for i, t in enumerate((deal.get("extra") or {}).get(pname) or []):
            try:
                x = parse_card(str(t))
            except UnknownCardError:
                continue  # already reported by validation
            where = ("deal", "extra", pname, i)
            if x not in r.deck_cards:
                b.error(
                    f"deal.extra.{pname}: {NAMES[x]} is not in the deck",
                    where,
                    "E017",
                    "add it to deck.cards (or deck.jokers for RJ, BJ)",
                )
            elif x in given or any(x in e for e in extra):
                b.error(f"deal.extra.{pname}: {NAMES[x]} is given twice", where, "E017")
            else:
                given.append(x)
        extra.append(tuple(given))
    r.deal_extra = tuple(extra)
    dealt = sum(r.deal_sizes) + sum(len(e) for e in extra)
    if dealt > len(r.deck_cards):
        b.error(f"deal: {dealt} cards dealt from a deck of {len(r.deck_cards)}", ("deal",), "E017")


def build_match(b: Builder, r: Rules) -> None:
    """match: hands a player must win to win the match (1: a single game)."""
    r.match_wins = max(1, int_or((b.d.get("match") or {}).get("wins"), 1))
    if r.match_wins > MAX_MATCH_WINS:
        b.error(f"match.wins: at most {MAX_MATCH_WINS} (MAX_MATCH_WINS)", ("match", "wins"), "E016")
        r.match_wins = MAX_MATCH_WINS


def build_names(b: Builder, r: Rules) -> None:
    """The names expressions may use: ranks, suits' order, values, constants, and the roles, marks
    and choice verbs that the ruleset's own programs introduce (collected from the parsed trees)."""
    ctx = b.ctx
    ctx.suit_rank = {s: i for i, s in enumerate(r.suits)}
    ctx.values = r.values
    ctx.ranks = ALL_RANKS
    ctx.deck_size = max(1, len(r.deck_cards))
    for k, v in (b.d.get("constants") or {}).items():
        items = v if isinstance(v, list) else [v]
        if not items or not all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            b.error(f"constants.{k}: expected a number or a list of numbers", ("constants", k), "E012")
            ctx.constants[k] = 0  # still a known name, so its uses are not reported as well
        elif any(abs(x) > MAX_INT for x in items):
            b.error(f"constants.{k}: a number beyond the limit of {MAX_INT:.0e} (MAX_INT)", ("constants", k), "E213")
            ctx.constants[k] = 0
        else:
            ctx.constants[k] = v
    b.collect_names()
    r.ctx = ctx


def build_counters(b: Builder, r: Rules) -> None:
    """counters: numbers kept on players or cards, declared so that a misspelt one is caught."""
    for name, c in (b.d.get("counters") or {}).items():
        if not isinstance(c, dict):
            continue
        key = str(name)
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key) or key in CARD_ATTRS + PLAYER_ATTRS:
            b.error(
                f"counters: '{key}' cannot be a counter's name (a name like `bonus`, not an attribute: "
                f"{', '.join(CARD_ATTRS + PLAYER_ATTRS)})",
                ("counters", name),
                "E027",
                key=True,
            )
            continue
        of = str(c.get("of", "player"))
        # an `of` the validator refused (reported there): no second error at each use of the counter
        b.ctx.counters[key] = of if of in ("player", "card") else UNKNOWN_KIND
    r.counters = dict(b.ctx.counters)


def build_definitions(b: Builder, r: Rules) -> None:
    """define: named conditions and values, `name(x, y): expr`; each is checked, used or not (a
    cycle, an unknown name inside it)."""
    ctx = b.ctx
    for key, body in (b.d.get("define") or {}).items():
        m = _DEF_RE.match(str(key))
        if not m:
            b.error(f"define: '{key}' is not NAME or NAME(a, b)", ("define", key), "E018", key=True)
            continue
        params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
        span = b.c.span(("define", key))
        if isinstance(body, bool):  # YAML `true`/`false`: the condition it writes (str() would say True)
            body = "true" if body else "false"
        try:
            tree = parse_expr(str(body), span)
        except RulesetError as e:
            b.errors.append(e)
            continue
        b.errors.extend(lint(tree, span, ctx))
        ctx.defines[m.group(1)] = (params, tree, span)
    for dname, (params, _, dspan) in list(ctx.defines.items()):
        # (each parameter given as a binding of no known kind: a name no file can write, so a choice's
        # word elsewhere, `as x`, does not make the definition's `x` cards or a number)
        args = tuple(f" {i}" for i in range(len(params)))
        call = A.Call(dname, tuple(A.Name(a) for a in args)) if params else A.Name(dname)
        try:
            Compiler(ctx, dspan).expr(call, frozenset(args) | BASE)
        except RulesetError as e:
            b.errors.append(e)


def build_end(b: Builder, r: Rules) -> None:
    """end: the goal and score of each player (and whether the win check may be skipped while no
    field changed), and how passes end the game."""
    end = b.d.get("end") or {}
    r.passes_to_end = int_or(end.get("passes"), 3)
    how = end.get("on_passes", "most_points")
    r.on_passes = how if how in ENDING_WORDS else "expression"
    # an ending written as an expression: who wins (`me` the player whose pass ended the game), or nobody
    r.on_passes_fn = b.expr(("end", "on_passes"), BASE) if r.on_passes == "expression" else None
    tree = b.trees.get(("end", "on_passes"))
    if r.on_passes_fn is not None and tree is not None and _kind_of(b, tree) not in ("player", "any"):
        b.error(
            f"end.on_passes names the winner: it needs a player (me, opponent, p1, first player..., or "
            f"nobody for a draw), but this is {Compiler._KIND_WORDS.get(_kind_of(b, tree), 'a value')}",
            ("end", "on_passes"),
            "E210",
        )
    r.goal_fn = b.expr(("end", "goal"), BASE, DEFAULT_GOAL)
    r.score_fn = b.expr(("end", "score"), BASE, DEFAULT_SCORE)
    trees = [
        b.trees.get(("end", k)) or parse_expr(default)
        for k, default in (("goal", DEFAULT_GOAL), ("score", DEFAULT_SCORE))
    ]
    r.win_reads_fields_only = all(reads_only_fields(t, b.ctx) for t in trees)
    r.win_reads_own_field_only = all(reads_only_own_field(t, b.ctx) for t in trees)


def build_turn(b: Builder, r: Rules) -> None:
    """visibility and turn: who sees the opponent's hand, which cards may be played at all, and
    what happens when the acting player's action has resolved."""
    r.visible_fn = b.expr(("visibility", "hand"), BASE) or (lambda g, e: False)
    # `answering`: true when the card would answer a play (a response: a counter), false for a play
    r.playable_fn = b.expr(("turn", "playable"), BASE | {"it", "answering"})
    r.turn_end = b.prog(("turn", "end"), BASE)
    build_visibility(b, r)


def build_visibility(b: Builder, r: Rules) -> None:
    """visibility.deck_top and visibility.card: what each player sees of the deck and of single hidden
    cards (engine/knowledge.py), and which hidden zones a visibility rule watches (a card a rule shows
    is remembered when it moves on to another hidden place)."""
    r.deck_top_fn = b.expr(("visibility", "deck_top"), BASE)
    tree = b.trees.get(("visibility", "deck_top"))
    if r.deck_top_fn is not None and tree is not None:
        typ = _kind_of(b, tree)
        if typ not in ("int", "bool", "any"):
            b.error(
                f"visibility.deck_top needs a number of cards (or a condition: the top card when it holds), "
                f"but this is {Compiler._KIND_WORDS.get(typ, typ)}",
                ("visibility", "deck_top"),
                "E210",
            )
            r.deck_top_fn = None
    r.card_visible_fn = b.expr(("visibility", "card"), BASE | {"it"})
    hand = get_path(b.d, ("visibility", "hand"))
    r.hand_rule = hand is not None and hand is not False
    card = r.card_visible_fn is not None
    deck = card or r.deck_top_fn is not None
    r.watched = tuple(
        deck if z == DECK else (card or r.hand_rule) if IS_HAND[z] else False for z in range(len(ZONE_NAMES))
    )


def _kind_of(b: Builder, tree: A.Node) -> str:
    """The kind of value an expression yields (a number, a condition, cards...), as the compiler sees it."""
    try:
        comp = Compiler(b.ctx, None, dry=True)
        return comp.gen(tree, {n: None for n in BASE}, {}).typ
    except RulesetError:
        return "any"  # reported where it was compiled


def build_kinds(b: Builder, r: Rules) -> None:
    """kinds: whether a kind of play can be countered, what follows its effect, what countering does."""
    bound = BASE | {"card", "cards"}
    r.kinds = {
        k: {
            "counterable": b.expr(("kinds", k, "counterable"), bound),
            "after": b.prog(("kinds", k, "after"), bound),
            "countered": b.prog(("kinds", k, "countered"), bound, "scrap cards"),
        }
        for k in (b.d.get("kinds") or {})
    }


def build_plays(b: Builder, r: Rules) -> None:
    """plays: every way to play a card (or none: draw, pass), with what each inherits `like` another."""
    r.plays = []
    r.role_ranks = {}
    for name, (p, at) in resolve_likes(b.d.get("plays") or {}, b.c, b.errors).items():
        path = ("plays", name)

        def fpath(key: str, name: str = name, at: dict = at) -> tuple:
            return at.get(key, ("plays", name, key))

        kind = p.get("kind")
        if kind is not None and kind not in r.kinds:
            near = suggest(kind, r.kinds)
            b.error(
                f"plays.{name}.kind: unknown kind '{kind}'",
                fpath("kind"),
                "E019",
                f"did you mean '{near}'?" if near else f"kinds: {', '.join(r.kinds) or 'none defined'}",
            )
            kind = None
        if "verb" not in p:
            b.error(f"plays.{name}: needs a verb", path, "E020", key=True)
            continue
        ncards = int_or(p.get("cards"), 1)
        if ncards > 0 and not p.get("ranks"):
            b.error(f"plays.{name}: needs ranks (or cards: 0)", path, "E020", key=True)
            continue
        bound = BASE | {"card", "cards"}
        named = b.expr(fpath("player"), bound)  # the players the play may name (`player:`), if any
        if "player" in p:
            bound = bound | {"player"}
        b.last = NO_COST
        target = b.expr(fpath("target"), bound)
        tc, ts, tc1, ts1 = b.last
        b.last = NO_COST
        legal = b.expr(fpath("legal"), bound)
        b.play_costs.append(
            (
                frozenset(str(x) for x in list_or(p.get("ranks"))) if ncards else frozenset(),
                fpath("legal"),
                (b.last[0], b.last[2]),
                fpath("target"),
                (tc + Cost(ts), tc1 + Cost(ts1)),
            )
        )
        eff_bound = bound | ({"target"} if "target" in p else set())
        effect = b.prog(fpath("effect"), eff_bound)
        after = r.kinds[kind]["after"] if kind else ()
        countered = (
            b.prog(fpath("countered"), eff_bound) if "countered" in p else (r.kinds[kind]["countered"] if kind else ())
        )
        r.plays.append(
            PlayDef(
                name=name,
                verb=p["verb"],
                ranks=frozenset(str(x) for x in list_or(p.get("ranks"))),
                ncards=ncards,
                kind=kind,
                free=bool(p.get("free", False)),
                legal=legal,
                target=target,
                program=concat(_with_chosen_play(effect), after) + (FINISH_PLAY,),
                countered=countered + (FINISH_PLAY,),
                counterable=r.kinds[kind]["counterable"] if kind else None,
                source=p,
                first_card_matters=_reads_card(
                    b,
                    [fpath(k) for k in ("legal", "target", "effect", "countered")]
                    + [("kinds", kind, k) for k in ("counterable", "after", "countered") if kind],
                ),
                card_free=frozenset(k for k in ("legal", "target") if _card_free(b, fpath(k))),
                player=named,
                aims="player" not in p
                and _reads_opponent(
                    b,
                    [fpath(k) for k in ("legal", "target", "effect", "countered")]
                    + [("kinds", kind, k) for k in ("counterable", "after", "countered") if kind],
                ),
            )
        )
        _note_roles(r.role_ranks, b.trees.get(fpath("effect")), r.plays[-1].ranks)
    # whether a play's action names a player (engine/seating.py lists them; the generated paths do not)
    r.seated = r.seats != 2 or any(p.player is not None for p in r.plays)


def _with_chosen_play(effect: tuple) -> tuple:
    """An effect with `play from` ends by starting the play chosen there (START_CHOSEN)."""
    return effect + (START_CHOSEN,) if any(ins[0] == PLAY for ins in effect) else effect


def _reads_card(b: Builder, paths: list[tuple]) -> bool:
    """Whether any of these texts reads `card` (a play's first card) rather than only `cards`."""
    return any(
        isinstance(n, A.Name) and n.name == "card" for path in paths if path in b.trees for n in A.walk(b.trees[path])
    )


def _reads_opponent(b: Builder, paths: list[tuple]) -> bool:
    """Whether any of these texts (or a definition they use) reads `opponent`."""
    return any(reads_name(b.trees[path], b.ctx, "opponent") for path in paths if path in b.trees)


def _card_free(b: Builder, path: tuple) -> bool:
    """Whether the expression at `path` never reads the played card (`card`, `cards`): a field left
    out, a literal, or a tree naming neither."""
    tree = b.trees.get(path)
    if tree is None:
        return not isinstance(get_path(b.d, path), str)
    return not any(isinstance(n, A.Name) and n.name in ("card", "cards") for n in A.walk(tree))


def _note_roles(found: dict[str, set[str]], tree: A.Node | None, ranks: frozenset[str]) -> None:
    """Which ranks a play's effect puts into play in each role: what a position may hold. The play's own
    cards (`card`, `cards`) are of its ranks; any other cards (chosen from a hand, already in play) may
    be of any rank."""
    for n in A.walk(tree) if tree is not None else ():
        if isinstance(n, A.Move) and n.dest.zone == "field" and n.dest.role:
            found.setdefault(n.dest.role, set()).update(ranks if _own_cards(n.cards) else ALL_RANKS)
        elif isinstance(n, A.Attach):
            found.setdefault(n.role, set()).update(ranks if _own_cards(n.card) else ALL_RANKS)


def _own_cards(node: A.Node) -> bool:
    """Whether a statement's cards are the play's own: `card`, `cards`."""
    return isinstance(node, A.Name) and node.name in ("card", "cards")


def build_responses(b: Builder, r: Rules) -> None:
    """responses: plays made in answer to another play (counters), and what each can answer."""
    r.responses = []
    for name, x in (b.d.get("responses") or {}).items():
        if not isinstance(x, dict):
            continue
        path = ("responses", name)
        if "verb" not in x or not x.get("ranks"):
            b.error(f"responses.{name}: needs a verb and ranks", path, "E020", key=True)
            continue
        bound = BASE | {"card", "cards", "extra", "answered"}
        extra = int_or(x.get("extra"), 0)
        if choices(len(r.deck_cards), extra) > MAX_CHOICES:
            b.error(
                f"responses.{name}.extra: {extra} extra cards from a hand can be chosen in more than "
                f"{MAX_CHOICES:,} ways (MAX_CHOICES)",
                path + ("extra",),
                "E214",
            )
            continue
        b.last = NO_COST
        legal = b.expr(path + ("legal",), bound)
        b.response_costs.append((name, path + ("legal",), (b.last[0], b.last[2]), extra))
        r.responses.append(
            ResponseDef(
                name=name,
                verb=x["verb"],
                ranks=frozenset(str(k) for k in list_or(x["ranks"])),
                extra=extra,
                answers=frozenset(str(a) for a in list_or(x.get("answers"))),
                kind=str(x.get("kind", name)),
                legal=legal,
                program=b.prog(path + ("effect",), bound, "scrap cards; scrap extra") + (AFTER_RESPONSE,),
                counterable=b.expr(path + ("counterable",), bound) or (lambda g, e: True),
                source=x,
                instead=b.prog(path + ("instead",), bound) + (FINISH_ANSWERED,) if "instead" in x else (),
                window=b.expr(path + ("window",), BASE | {"card", "cards", "target"}),
            )
        )
    known_kinds = set(r.kinds) | {x.kind for x in r.responses}
    for x in r.responses:
        for i, a in enumerate(list_or(x.source.get("answers"))):
            if a not in known_kinds:
                near = suggest(a, known_kinds)
                b.error(
                    f"responses.{x.name}.answers: unknown kind '{a}'",
                    ("responses", x.name, "answers", i),
                    "E019",
                    f"did you mean '{near}'?" if near else None,
                )
    r.answering = {}
    for x in r.responses:
        for a in x.answers:
            r.answering.setdefault(a, []).append(x)
    # whether some answer may be made where its play's kind is not counterable (`window:`): the engine
    # then tests each play's window the general way (machine.py, legal.py)
    r.answer_windows = any(x.window is not None for x in r.responses)


def build_moves(b: Builder, r: Rules) -> None:
    """The move words, one play per word, rank and number of cards, and the engine's indexes."""
    asked = b.ctx.asked | ({DECLINE} if b.ctx.asked else set())  # a question's answers: VERB, decline
    r.verbs = sorted(
        {p.verb for p in r.plays} | {x.verb for x in r.responses} | {"resolve"} | b.ctx.verbs | asked | b.ctx.numbers
    )
    # Two plays of one verb, rank and number of cards are allowed when their moves can differ: each has
    # a target, given by different rules (a Jack on a point card, and a house Jack on a King). Where both
    # could name the same move, the first play in the ruleset's order makes it (r.shared_moves).
    seen: dict[tuple[str, str, int], PlayDef] = {}
    r.shared_moves = False
    for p in r.plays:
        for rank in p.ranks:
            q = seen.get((p.verb, rank, p.ncards))
            if q is None:
                seen[(p.verb, rank, p.ncards)] = p
                continue
            if (p.target is None) != (q.target is None):
                continue  # one names a target and the other does not: their moves always differ
            if p.target is None or _target_text(q) == _target_text(p):
                why = "neither names a target" if p.target is None else "they name their targets by the same rule"
                b.error(
                    f"plays.{p.name}: '{p.verb}' with {p.ncards if p.ncards != 1 else 'a'} {rank} is already "
                    f"defined by plays.{q.name}, and {why}, so every move of one is a move of the other",
                    ("plays", p.name, "ranks"),
                    "E021",
                    "give one of them another verb, another number of cards, or a target of its own",
                )
            else:
                r.shared_moves = True
    r.by_rank = {rank: [p for p in r.plays if rank in p.ranks and p.ncards > 0] for rank in ALL_RANKS}
    r.cardless = [p for p in r.plays if p.ncards == 0]


def _target_text(p: PlayDef) -> str:
    return " ".join(str(p.source.get("target", "")).split())


def check_constants(b: Builder, r: Rules) -> None:
    """A never-used constant whose name is close to a used one is a typo (E025)."""
    used = b.ctx.used_names
    for k in b.d.get("constants") or {}:
        near = suggest(k, [n for n in used if n != k])
        if k not in used and near:
            b.error(f"constants.{k} is never used", ("constants", k), "E025", f"did you mean '{near}'?", key=True)


def check_budgets(b: Builder, r: Rules) -> None:
    """The work any one evaluation can do, from the compiled fields' costs (docs/security.md): each
    expression or program within MAX_COST, listing the moves of a decision within MAX_DECISION_COST,
    both again with one card in each zone within MAX_BASE_COST (repetition no zone explains: a
    definition used again and again), and no rule that asks itself (`score()` inside end.score,
    `can_play()` inside a play's legal...)."""
    r.win_cost = r.move_floor = 0
    r.counts_wins = False
    for which, n, limit, decision_limit in (
        (0, max(1, len(r.deck_cards)), MAX_COST, MAX_DECISION_COST),
        (1, 1, MAX_BASE_COST, MAX_BASE_COST),
    ):
        if not _within_budget(b, which, n, limit, decision_limit):
            return
    if _within_a_move(b, r):
        _price_triggers(b, r)


def _listing(b: Builder, which: int, n: int, s: int, g: int, per_card: int) -> tuple[int, int]:
    """The work of listing the legal moves of one main decision (each card of a hand against the
    plays of its rank, and the plays of no card) and of one response decision."""
    decision = n * per_card + sum(legal[which].value(s, g, 0) for ranks, _, legal, _, _ in b.play_costs if not ranks)
    responses = sum(
        n * choices(n - 1, extra) * (legal[which].value(s, g, 0) + 1) for _, _, legal, extra in b.response_costs
    )
    return decision, responses


# Win checks one move can make: one per round of triggered effects (MAX_TRIGGERED), one per link of a
# chain of answers resolving and per play chosen from a card (each a card: CARD_COUNT each), and a few
# of the machine's own; far more than a move makes. A ruleset whose win checks could spend the move's
# budget in fewer has each of them counted as it happens (engine/machine.py `counts_wins`).
WIN_CHECKS_A_MOVE = MAX_TRIGGERED + 2 * CARD_COUNT + 16


def _within_a_move(b: Builder, r: Rules) -> bool:
    """One budget per move (MAX_STEP_COST): what every move can be known to do at load, listing the
    legal moves of a decision and checking the win (each player's score and goal), must fit in it;
    what depends on play (more win checks, triggers) is counted by the machine as it happens, against
    the same budget. `r.win_cost`: the work of one player's score and goal, which the machine counts."""
    costs = {path: c[0] for path, *c in b.costs}
    s, g, per_card = _amounts(b, costs, 0)
    r.win_cost = s + g
    r.counts_wins = 2 * r.win_cost * WIN_CHECKS_A_MOVE > MAX_STEP_COST
    listing = max(_listing(b, 0, max(1, len(r.deck_cards)), s, g, per_card))
    total = r.move_floor = listing + 2 * r.win_cost
    if total <= MAX_STEP_COST:
        return True
    path = ("end", "goal") if costs.get(("end", "goal"), ZERO).value(s, 0, 0) >= s else ("end", "score")
    b.error(
        f"{'.'.join(path)}: a move lists the legal moves of a decision ({listing:,} steps) and checks the win, "
        f"the score and goal of both players ({2 * r.win_cost:,} steps): {total:,} steps, more than the "
        f"{MAX_STEP_COST:,} one move may take (MAX_STEP_COST; each win check of every move counts)",
        path,
        "E215",
    )
    return False


def _amounts(b: Builder, costs: dict[tuple, Any], which: int) -> tuple[int, int, int]:
    """The work of one evaluation of end.score, of end.goal, and of listing the plays of one card."""
    s = costs.get(("end", "score"), ZERO).value(0, 0, 0)
    g = costs.get(("end", "goal"), ZERO).value(s, 0, 0)
    per_rank: dict[str, int] = {}
    for ranks, _, legal, _, target in b.play_costs:
        for rank in ranks:
            per_rank[rank] = per_rank.get(rank, 0) + legal[which].value(s, g, 0) + target[which].value(s, g, 0)
    return s, g, costs.get(("turn", "playable"), ZERO).value(s, g, 0) + max(per_rank.values(), default=0)


def _price_triggers(b: Builder, r: Rules) -> None:
    """Each trigger's work per test of its `when` and per run of its effect, counted as MAX_COST
    counts it: the machine sums them over a step's whole chain against MAX_STEP_COST."""
    if not r.triggers:
        return
    costs = {path: c[0] for path, *c in b.costs}
    s, g, per_card = _amounts(b, costs, 0)

    def price(t: TriggerDef, field: str) -> int:
        c = costs.get(("triggers", t.name, field))
        return 0 if c is None else c.value(s, g, per_card)

    r.triggers = tuple(
        dataclasses.replace(t, when_cost=price(t, "when") if t.when is not None else 0, effect_cost=price(t, "effect"))
        for t in r.triggers
    )


def _within_budget(b: Builder, which: int, n: int, limit: int, decision_limit: int) -> bool:
    costs = {path: c[which] for path, *c in b.costs}
    name = "MAX_COST" if which == 0 else "MAX_BASE_COST"
    how = (
        "(nested `where` and `for each` over zones multiply)"
        if which == 0
        else "even with one card in each zone (definitions used again and again multiply)"
    )

    def refuse(path: tuple, message: str, code: str = "E215") -> bool:
        b.error(message, path, code)
        return False

    score, goal = costs.get(("end", "score"), ZERO), costs.get(("end", "goal"), ZERO)
    if score.score or score.goal or score.plays:
        return refuse(
            ("end", "score"),
            "end.score cannot use score(), goal() or can_play(): the score would depend on itself",
            "E216",
        )
    if goal.goal or goal.plays:
        return refuse(
            ("end", "goal"), "end.goal cannot use goal() or can_play(): the goal would depend on itself", "E216"
        )
    s, g, per_card = _amounts(b, costs, which)
    listing = (
        [("turn", "playable")]
        + [p[1] for p in b.play_costs]
        + [p[3] for p in b.play_costs]
        + [x[1] for x in b.response_costs]
    )
    for path in listing:
        c = costs.get(path)
        if c is not None and c.plays:
            return refuse(
                path,
                f"{'.'.join(map(str, path))} cannot use can_play(): listing the legal moves would ask itself",
                "E216",
            )
    # listing the plays of one card: its rank's plays (the costliest rank counts; `_amounts`)
    decision, responses = _listing(b, which, n, s, g, per_card)
    for total, where in ((decision, ("plays",)), (responses, ("responses",))):
        if total > decision_limit:
            return refuse(
                where,
                f"{where[0]}: listing the legal moves of one decision may take {total:,} steps "
                f"{how}; the limit is {decision_limit:,} "
                f"({'MAX_DECISION_COST' if which == 0 else name})",
            )
    ok = True
    seen: set[tuple] = set()
    for path, cost in costs.items():
        total = cost.value(s, g, per_card)
        if total > limit and path not in seen:
            seen.add(path)
            ok = refuse(
                path,
                f"{'.'.join(map(str, path))}: one evaluation may take {total:,} steps {how}; "
                f"the limit is {limit:,} ({name})",
            )
    return ok


def build_questions(b: Builder, r: Rules) -> None:
    """What each question of the rules does when its player agrees (`if P agrees to VERB then ...`), in
    words, "you" being the player asked: the REPL shows it to them beside the question ("you may
    reclaim: return it to its last owner's hand"). Questions of one verb that do different things are
    told together, joined by "or"."""
    r.questions = {}
    if not b.ctx.asked:
        return
    said = EnglishContext.from_data(b.d)
    for tree in b.trees.values():
        for n in A.walk(tree):
            if isinstance(n, A.Ask):
                text = _said_to_the_asked(n, said)
                known = r.questions.get(n.verb)
                if known is None or text not in known.split(" or "):
                    r.questions[n.verb] = text if known is None else f"{known} or {text}"


_YOU = re.compile(r"\byou(r|rs)?\b", re.IGNORECASE)


def _said_to_the_asked(n: A.Ask, said: EnglishContext) -> str:
    """What agreeing does, said to the player asked as "you": `opponent agrees` swaps "you" and
    "your opponent"; any other player named (`it.last_owner`, `target.owner`) becomes "you" wherever
    the effect names them, unless the effect already says "you" to the rule's own player (which
    cannot then be said to another player): it is told as written."""
    p = n.player
    if isinstance(p, A.Name) and p.name in ("me", "random"):
        return english(n.then, said)
    if isinstance(p, A.Name) and p.name == "opponent":
        return english(subst(n.then, {"me": A.Name("opponent"), "opponent": A.Name("me")}), said)
    text = english(n.then, said)
    own = any(_names_its_own_player(x) for x in A.walk(n.then)) or _YOU.search(text)
    return text if own else english(_replaced(n.then, p, A.Name("me")), said)


def _names_its_own_player(x: Any) -> bool:
    """`x` is about the rule's own player, "you" in English: `me` or `opponent` named, or a statement
    whose actor is its player when none is named (`draw 1`, `pass`, `play from ...`)."""
    if isinstance(x, A.Name):
        return x.name in ("me", "opponent")
    return isinstance(x, A.PlayFrom | A.Pass) or (isinstance(x, A.Draw | A.Show) and x.player is None)


def _replaced(node: Any, old: A.Node, new: A.Node) -> Any:
    """`node` with every subtree equal to `old` (wherever it is written) replaced by `new`."""
    if node == old:
        return new
    if isinstance(node, tuple):
        return tuple(_replaced(x, old, new) for x in node)
    if isinstance(node, A.Node):
        changes = {f.name: _replaced(getattr(node, f.name), old, new) for f in dataclasses.fields(node)}
        return dataclasses.replace(node, **changes)
    return node


SECTIONS: tuple[Callable[[Builder, Rules], None], ...] = (
    build_seats,
    build_deck,
    build_values,
    build_deal,
    build_match,
    build_names,
    build_counters,
    build_definitions,
    build_end,
    build_turn,
    build_kinds,
    build_plays,
    build_responses,
    build_triggers,
    build_moves,
    build_questions,
    check_constants,
    check_budgets,
)


# -- plays written `like` another --------------------------------------------------------------


def resolve_likes(plays: dict, c: Composed, errors: list[RulesetError]) -> dict[str, tuple[dict, dict]]:
    """Each play with the fields it inherits through `like: OTHER` (its own fields win), and for each
    field the path where it is written (so errors point at the model's text)."""
    out: dict[str, tuple[dict, dict]] = {}

    def resolve(name: str, chain: list[str]) -> tuple[dict, dict] | None:
        if name in out:
            return out[name]
        p = plays.get(name)
        if not isinstance(p, dict):
            return None
        at = {k: ("plays", name, k) for k in p}
        model = p.get("like")
        if model is None:
            return dict(p), at
        if not isinstance(model, str) or model not in plays:
            near = suggest(str(model), [k for k in plays if k != name])
            errors.append(
                RulesetError(
                    f"plays.{name}.like: there is no play '{model}' to be like",
                    c.where(("plays", name, "like")),
                    code="E022",
                    hint=f"did you mean '{near}'?" if near else f"plays: {', '.join(plays)}",
                )
            )
            return dict(p), at
        if model in chain:
            errors.append(
                RulesetError(
                    f"plays.{name}.like: '{name}' is like itself ({' -> '.join(chain + [name, model])})",
                    c.where(("plays", name, "like")),
                    code="E023",
                )
            )
            return dict(p), at
        got = resolve(model, chain + [name])
        if got is None:
            return dict(p), at
        mp, mat = got
        merged: dict[str, Any] = {k: v for k, v in mp.items() if k != "like"}
        merged.update(p)
        where = {k: v for k, v in mat.items() if k != "like"}
        where.update(at)
        return merged, where

    for name in plays:
        got = resolve(name, [])
        if got is not None:
            out[name] = got
    return out
