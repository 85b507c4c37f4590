"""A ruleset as a readable rules page (`cuttle rules`), and what one ruleset changes against another
(`cuttle diff`). Everything is rendered from the ruleset's data and effect-language trees through
`english`, so a house rule's page and diff follow its data; a play's optional `text:` is quoted
beside the generated sentence, never instead of it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.core.cards import ALL_RANKS, JOKER_RANK, NAMES, RANK_OF, SUIT_SYMBOLS
from interpreter.core.errors import CuttleError
from interpreter.language import tree as A
from interpreter.language.english import (
    Context,
    English,
    a,
    cond_text,
    english,
    is_value,
    join_or,
    kind_word,
    one_target,
    rank_noun,
    sentence,
    words,
)
from interpreter.language.node import parts
from interpreter.language.parser import parse_expr, parse_program
from interpreter.language.printer import to_text

from .compose import COMMAND_LINE, compose
from .load import load_ruleset
from .model import play_hash
from .sources import looks_like_path
from .triggers import EACH_PLAYER

GENERAL = 4  # a play open to more ranks than this is described once, under "Your turn"


# -- reading the data -----------------------------------------------------------------------------


def _tree(src: Any, program: bool) -> A.Node | None:
    if src is None:
        return None
    if isinstance(src, bool):  # YAML true/false where a condition is expected
        return A.Name("true" if src else "false")
    try:
        return parse_program(str(src)) if program else parse_expr(str(src))
    except Exception:  # a broken ruleset is `cuttle check`'s business; here it reads as its text
        return A.Name(f"<{src}>")


def _say(src: Any, ctx: Context, program: bool = True, condition: bool = False) -> str:
    tree = _tree(src, program and not condition)
    if tree is None:
        return ""
    return english(tree, ctx, condition)


def _get(data: Any, *path: str) -> Any:
    for k in path:
        if not isinstance(data, dict):
            return None
        data = data.get(k)
    return data


def resolved_plays(data: dict, key: str = "plays") -> dict[str, dict]:
    """The plays with `like: OTHER` filled in from the play they copy (their own keys win)."""
    raw = data.get(key) or {}
    out: dict[str, dict] = {}

    def resolve(name: str, seen: tuple[str, ...]) -> dict:
        p = raw.get(name)
        if not isinstance(p, dict):
            return {}
        like = p.get("like")
        if not like or like in seen or like not in raw:
            return {k: v for k, v in p.items() if k != "like"}
        base = resolve(str(like), seen + (name,))
        return {**base, **{k: v for k, v in p.items() if k != "like"}}

    for name in raw:
        if isinstance(raw[name], dict):
            out[name] = resolve(name, ())
    return out


def natural(text: str) -> tuple:
    """A sort key that orders the numbers in names by value: wild2 before wild10."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part)


def rank_list(ranks: list | tuple | set | frozenset) -> str:
    """`A–10`, `K, Q`, `9`: ranks in deck order, runs of three or more shortened."""
    order = [r for r in ALL_RANKS if r in {str(x) for x in ranks}]
    idx = [ALL_RANKS.index(r) for r in order]
    out: list[str] = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and idx[j + 1] == idx[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{order[i]}–{order[j]}")
            i = j + 1
        else:
            out.append(order[i])
            i += 1
    return ", ".join(out)


def play_label(p: dict) -> str:
    verb = str(p.get("verb", "?"))
    return kind_word(verb) if verb in ("oneoff", "royal", "jack", "counter") else words(verb)


def describe_play(p: dict, ctx: Context, with_label: bool = True) -> str:
    """One play in words: its label, target, effect, conditions, and its optional text."""
    parts: list[str] = []
    ncards = int(p.get("cards", 1))
    label = play_label(p)
    head = label
    first_named = ncards > 1 and reads_card(p)
    if ncards > 1:
        head += f" ({ncards} cards of the same rank together)"
    if first_named:  # `card` is the first card named in the move (SPEC ruling 18)
        ctx = ctx.with_(aliases={**ctx.aliases, "card": "the first card you name"})
    if "target" in p:
        tree = _tree(p["target"], False)
        head += f", targeting {one_target(tree, ctx)}" if tree is not None else ""
    if "player" in p:  # a play naming a player (`player:`): one of a set, named last in the move
        anyone = {"players": "any player", "others": "any other player", "opponents": "any opponent"}
        named = anyone.get(str(p["player"]).strip()) or f"one of {_say(p['player'], ctx, program=False)}"
        head += f", naming {named} (the player named)"
    effect = _say(p.get("effect", "nothing"), ctx)
    if not with_label:
        head = head[len(label) :].lstrip(", ")
    parts.append(f"{head}: {effect}" if head else effect)
    if first_named:
        parts.append("the other card is scrapped")
    if "legal" in p and _only_if(p["legal"], ctx) != "always":  # ("only if always" says nothing)
        parts.append(_only_if(p["legal"], ctx))
    if p.get("free"):
        parts.append("it does not use up your action")
    if "countered" in p:
        parts.append(f"if it is countered, {_say(p['countered'], ctx)}")
    text = sentence(parts[0]) + "".join(" " + sentence(x) for x in parts[1:])
    if p.get("text"):
        text += f' ("{p["text"]}")'
    return text


def what_it_does(rules: Any, rule: Any) -> str:
    """A play's or a response's effect in words, for a list of moves (the REPL's `moves`): the
    rules page's sentence without the label."""
    ctx = Context.from_data(rules.data)
    src = rule.source if isinstance(rule.source, dict) else {}
    if hasattr(rule, "answers"):  # a response
        extra = int(src.get("extra", 0))
        cost = f" plus {extra} more card{'s' if extra > 1 else ''}" if extra else ""
        answers = join_or([a(kind_word(x)) for x in sorted(rule.answers)])
        effect = _say(src.get("effect", "scrap cards; scrap extra"), ctx)
        return sentence(f"answer {answers} with {a(rank_list(rule.ranks))}{cost}: {effect}")
    return " ".join([describe_play(src, ctx, with_label=False), *_counts_in(rules, ctx, list(rule.ranks))])


def _counts_in(rules: Any, ctx: Context, ranks: list[str]) -> list[str]:
    """What a card of a play of a few ranks counts in besides the play, said in full: the rules that
    name its rank, directly or through a term (glasses(p): what you can see; Kings: the goal)."""
    if not ranks or len(ranks) > GENERAL:  # (points, scuttle: a rank's other uses are its own plays')
        return []
    data = rules.data
    in_deck = ctx.with_(rank_counts=dict(Counter(RANK_OF[c] for c in rules.deck_cards)))
    places: list[tuple[tuple[str, str], str, Callable[[], str]]] = [
        (("visibility", "hand"), "what you can see", lambda: _visibility_text(data, ctx)),
        (("end", "goal"), "your goal", lambda: _say(_get(data, "end", "goal"), in_deck, program=False)),
        (("end", "score"), "your points", lambda: _say(_get(data, "end", "score"), ctx, program=False)),
    ]
    out = []
    for rank in ranks:
        terms = _terms_naming(data, rank)
        for path, label, said in places:
            tree = _tree(_get(data, *path), False)
            if tree is not None and (_mentions(tree, rank) or _uses(tree, terms)):
                text = said().rstrip(".")
                out.append(
                    sentence(f"{a(rank_noun(rank))} played this way counts in {label}: {text[:1].lower()}{text[1:]}")
                )
    return out


def reads_card(p: dict) -> bool:
    """Whether a play's rules name `card` (its first card) rather than only `cards` (all of them)."""
    for key, program in (("legal", False), ("target", False), ("effect", True), ("countered", True)):
        tree = _tree(p.get(key), program)
        if tree is not None and any(isinstance(n, A.Name) and n.name == "card" for n in A.walk(tree)):
            return True
    return False


def _deck_text(rules: Any) -> str:
    d = rules.data.get("deck") or {}
    n = len(rules.deck_cards)
    suits = " ".join(f"{SUIT_SYMBOLS.get(s, s)}" for s in rules.suits)
    if "cards" in d:
        cards = ", ".join(NAMES[c] for c in rules.deck_cards)
        return f"{n} cards: {cards}. Suits from low to high: {suits}."
    ranks = [r for r in rules.ranks_in_deck if r != "Joker"]
    jokers = sum(1 for c in rules.deck_cards if RANK_OF[c] == JOKER_RANK)
    text = f"{n} cards: {rank_list(ranks)} in each suit, the suits from low to high {suits}"
    if jokers:
        text += f", and {jokers} Joker{'s' if jokers > 1 else ''}"
    return text + "."


def _values_text(data: dict) -> str:
    vals = data.get("values") or {}
    if not vals:
        return "No card is worth points."
    by_rank = sorted(vals.items(), key=lambda kv: ALL_RANKS.index(str(kv[0])) if str(kv[0]) in ALL_RANKS else 99)
    same = all(str(k) == str(v) for k, v in by_rank if str(k).isdigit())
    shown = ", ".join(f"{rank_noun(str(k))} {v}" for k, v in by_rank if not (same and str(k).isdigit()))
    text = "Point values: "
    if same and any(str(k).isdigit() for k, _ in by_rank):
        text += "each number card is worth its rank"
        text += f"; {shown}" if shown else ""
    else:
        text += shown
    return text + ". Other cards are worth no points."


def _deal_text(rules: Any) -> str:
    if rules.seats > 2:
        return _deal_seats(rules)
    first, second = rules.deal
    extra = _get(rules.data, "deal", "extra") or {}
    given = sum(len(v or []) for v in extra.values()) if isinstance(extra, dict) else 0
    rest = len(rules.deck_cards) - first - second - given
    text = f"Deal {first} cards to the first player, who moves first, and {second} to the second player."
    if isinstance(extra, dict):
        for who, cards in extra.items():
            if cards:
                who_text = "The first" if who == "p1" else "The second"
                text += f" {who_text} player also gets {', '.join(map(str, cards))}."
    text += " There is no deck: every card is dealt." if rest <= 0 else f" The other {rest} cards form the deck."
    return text


def _deal_seats(rules: Any) -> str:
    """The deal at a table of more than two seats: p1 (the dealer's left) first, then clockwise."""
    first, second = rules.deal
    rest = len(rules.deck_cards) - sum(rules.deal_sizes) - sum(len(e) for e in rules.deal_extra)
    each = f"{first} cards to each player" if first == second else f"{first} cards to p1 and {second} to each other"
    text = f"The dealer is the last seat (P{rules.seats}). Deal {each}, starting with P1, to the dealer's left."
    for seat, cards in enumerate(rules.deal_extra):
        if cards:
            text += f" P{seat + 1} also gets {', '.join(NAMES[c] for c in cards)}."
    return text + (
        " There is no deck: every card is dealt." if rest <= 0 else f" The other {rest} cards form the deck."
    )


def _seats_section(rules: Any) -> list[str]:
    """The players at a table of more than two (SPEC rulings 21-25): only a ruleset that says `seats:`."""
    if "seats" not in rules.data:
        return []
    n = rules.seats
    seats = [f"P{s + 1}" for s in range(n)]
    out = ["", "The players", "-----------"]
    teams = sorted({t for t in rules.teams})
    if rules.has_teams:
        sides = [" and ".join(seats[s] for s in range(n) if rules.teams[s] == t) for t in teams]
        out.append(
            f"{n} players in {len(teams)} teams: {' against '.join(sides)}. Partners are not opponents; a team "
            "wins when either partner reaches their own goal. Hands, points and Royals are each player's own."
        )
    else:
        out.append(f"{n} players, each playing alone.")
    out.append(
        f"{', '.join(seats)} sit clockwise. P1, to the dealer's left, moves first, then the turns go clockwise. "
        "In a match, the dealer moves one seat clockwise each hand."
    )
    out.append(
        "A play aimed at a card may aim at a card on any opponent's side. A play aimed at your opponent without "
        "a card names one opponent, chosen when it is played: the move says which (oneoff 4C p3)."
    )
    out.append(
        "After a play that can be answered, the other players, in turn clockwise from the one after the player, "
        "may each answer it or let it go; an answer starts the round again from the player after the one who "
        "answered. A play stands when every other player has let it go in one round."
    )
    out.append(
        "Goals are checked for every player after everything that happens; if several players reach their goals "
        "at once, the first of them in turn order from the player whose turn it is wins."
    )
    return out


def _seats_short(rules: Any) -> str:
    """`2 players`, `3 players, each for themselves`, `4 players in teams: P1 and P3 against P2 and P4`."""
    if not rules.has_teams:
        return f"{rules.seats} players" + (", each for themselves" if rules.seats > 2 else "")
    teams = sorted(set(rules.teams))
    sides = [" and ".join(f"P{s + 1}" for s in range(rules.seats) if rules.teams[s] == t) for t in teams]
    return f"{rules.seats} players in teams: {' against '.join(sides)}"


def _deal_short(rules: Any) -> str:
    """`5 and 6 cards`, with the cards given besides the deal: `8 and 8 cards, plus RJ to the first player`."""
    text = f"{rules.deal[0]} and {rules.deal[1]} cards"
    given = [
        f"{', '.join(NAMES[c] for c in cards)} to the {who} player"
        for who, cards in zip(("first", "second"), rules.deal_extra, strict=False)
        if cards
    ]
    return text + (", plus " + " and ".join(given) if given else "")


def _rule_endings(data: dict, ctx: Context) -> list[str]:
    """Every other way the rules can end the game: each trigger, play, response or program holding a
    `win` statement, said where the Winning section can list it with the rest."""
    out = []
    for name, t in (data.get("triggers") or {}).items():
        if isinstance(t, dict) and _wins(t.get("effect")):
            out.append(f"The rule '{name}' can also end the game: {_trigger_text(t, ctx)}")
    for key, section in (("plays", resolved_plays(data)), ("responses", data.get("responses") or {})):
        for p in section.values():
            if isinstance(p, dict) and (_wins(p.get("effect")) or _wins(p.get("countered"))):
                where = "Responses and counters" if key == "responses" else "Your turn"
                out.append(f"The play '{play_label(p)}' can also end the game (see {where}).")
    programs = [("when your action has fully resolved", _get(data, "turn", "end"))]
    programs += [(f"after a {kind_word(k)}", (x or {}).get("after")) for k, x in (data.get("kinds") or {}).items()]
    out += [sentence(f"{when}: {_say(prog, ctx)}") for when, prog in programs if _wins(prog)]
    return out


def _wins(program: Any) -> bool:
    """Whether a program's text holds a `win` statement."""
    tree = _tree(program, True) if isinstance(program, str) else None
    return tree is not None and any(isinstance(n, A.Win) for n in A.walk(tree))


def _passes_text(data: dict, ctx: Context) -> str:
    n = (data.get("end") or {}).get("passes", 3)
    if n == 0:
        return "Passes never end the game (end.passes is 0)."
    return f"{n} passes in a row end the game: {_passes_result(data, ctx)}."


def _passes_result(data: dict, ctx: Context) -> str:
    """Who wins when passes end the game, in words."""
    how = (data.get("end") or {}).get("on_passes", "most_points")
    if how == "most_points" and "seats" in data:  # (a larger table: ruling 24)
        team = " (with their team)" if (data.get("seats") or {}).get("teams") else ""
        return f"the player with the most points wins{team}, and a tie for the most is a draw"
    if how == "most_points":
        return "the player with more points wins, and equal points is a draw"
    if how == "draw":
        return "the game is a draw, whatever the points"
    # an expression names the winner ("you": the player whose pass ended the game)
    tree = _tree(how, False) or A.Name("nobody")
    return f"you being the player who made the last pass, {English(ctx).outcome(tree)}"


def _visibility_text(data: dict, ctx: Context) -> str:
    v = _get(data, "visibility", "hand")
    tree = _tree(v, False)
    if v is None or tree == A.Name("false"):
        return "Hands are hidden: you never see your opponent's hand."
    if tree == A.Name("true"):
        return "Hands are face up: you always see your opponent's hand."
    return sentence(f"you see your opponent's hand when {_say(v, ctx, condition=True)}")


def _knowledge_text(data: dict, ctx: Context) -> list[str]:
    """visibility.deck_top and visibility.card, and what every player remembers (engine/knowledge.py)."""
    out = []
    top = _get(data, "visibility", "deck_top")
    if top is not None:
        tree = _tree(top, False)
        if isinstance(tree, A.Num):
            n = tree.value
            out.append(f"You see the top {'card' if n == 1 else f'{n} cards'} of the deck." if n > 0 else "")
        elif isinstance(tree, A.Name) and tree.name in ("true", "false"):
            out.append("You see the top card of the deck." if tree.name == "true" else "")
        elif isinstance(tree, A.Not) or isinstance(tree, A.BinOp) and tree.op not in ("+", "-", "*", "/"):
            out.append(sentence(f"you see the top card of the deck when {_say(top, ctx, condition=True)}"))
        else:
            out.append(sentence(f"you see as many cards at the top of the deck as {_say(top, ctx, program=False)}"))
    card = _get(data, "visibility", "card")
    if card is not None:
        out.append(
            sentence(
                f"you also see a hidden card (in the deck or your opponent's hand) when "
                f"{_say(card, ctx, condition=True)}"
            )
        )
    if out or _uses_statement(data, "show"):
        out.append(
            "A hidden card you saw go into the deck or a hand, or were shown, stays known to you while "
            "it moves between hidden places (drawn, put back); shuffling the deck forgets where its "
            "cards are."
        )
    return [x for x in out if x]


def _uses_statement(data: dict, word: str) -> bool:
    """Whether any program of the ruleset uses the statement `word` (e.g. show)."""

    def walk(x: Any) -> bool:
        if isinstance(x, dict):
            return any(walk(v) for v in x.values())
        if isinstance(x, list):
            return any(walk(v) for v in x)
        return isinstance(x, str) and any(line.strip().startswith(word + " ") for line in x.splitlines())

    return walk(data.get("plays")) or walk(data.get("turn")) or walk(data.get("kinds"))


def _kind_text(name: str, k: dict, ctx: Context, answered: bool = True) -> str:
    """What a kind of play shares; `answered`: whether some response answers this kind at all."""
    parts = []
    tree = _tree(k.get("counterable"), False)
    can = answered and tree is not None and tree not in (A.Name("false"), A.Name("never"))
    if not answered and tree is not None and tree not in (A.Name("false"), A.Name("never")):
        parts.append("it cannot be countered: no response answers it")
    elif not can:
        parts.append("it cannot be countered")
    elif tree == A.Name("true"):
        parts.append("when you play one, your opponent can always counter it")
    else:
        parts.append(
            f"when you play one, your opponent can counter it only if {_say(k['counterable'], ctx, condition=True)}"
        )
    if "after" in k:
        parts.append(f"once it has taken effect, {_say(k['after'], ctx)}")
    if can and "countered" in k:
        parts.append(f"when it is countered, {_say(k['countered'], ctx)} instead of its effect")
    return f"A {kind_word(name)}: " + "; ".join(parts) + "."


def _response_text(r: dict, ctx: Context, answered_by: dict[str, list[str]]) -> str:
    ranks = rank_list(r.get("ranks", []))
    extra = int(r.get("extra", 0))
    answers = [kind_word(x) for x in r.get("answers", [])]
    cost = f"{a(ranks)}" + (
        f" plus {extra} more card{'s' if extra > 1 else ''} of your choice" if extra else " by itself"
    )
    verb = play_label(r)
    text = (
        f"{sentence(verb).rstrip('.')}: when your opponent makes {join_or([a(x) for x in answers])}, "
        f"you can answer it with {cost}."
    )
    text += " " + sentence(f"playing it does this: {_say(r.get('effect', 'scrap cards; scrap extra'), ctx)}")
    if "window" in r and _only_if(r["window"], ctx) != "always":  # an answer where no counter may be made
        text += " " + sentence(f"it may answer a play that cannot be countered, {_only_if(r['window'], ctx)}")
    if "instead" in r:  # what it does to the play it answers, when it stands
        text += " " + sentence(
            f"if it stands, instead of the answered play's being countered: {_say(r['instead'], ctx)}"
        )
    if "legal" in r and _only_if(r["legal"], ctx) != "always":
        text += " " + sentence(_only_if(r["legal"], ctx))
    answerable = _tree(r.get("counterable"), False)
    if answerable == A.Name("false"):
        text += " It cannot be answered in turn."
    elif answerable is not None and answerable != A.Name("true"):
        text += " " + sentence(
            f"your opponent can answer it in turn only if {_say(r['counterable'], ctx, condition=True)}"
        )
    kind = str(r.get("kind", ""))
    if kind in answered_by:
        text += f" The answered play takes effect only if an even number of {kind_word(kind, True)} were played."
    if r.get("text"):
        text += f' ("{r["text"]}")'
    return text


def _mentions(node: Any, rank: str) -> bool:
    """Whether a tree compares a card's rank with `rank` (`it.rank == K`, `it.rank in [9, 10]`)."""
    if isinstance(node, tuple):
        return any(_mentions(x, rank) for x in node)
    if isinstance(node, A.BinOp) and node.op in ("==", "!=", "in", "not in"):
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(side, A.Attr) and side.name == "rank":
                lits = other.items if isinstance(other, A.ListLit) else (other,)
                if any(
                    isinstance(x, (A.Num, A.Name)) and str(getattr(x, "value", getattr(x, "name", ""))) == rank
                    for x in lits
                ):
                    return True
    if isinstance(node, A.Node):
        return any(_mentions(getattr(node, f), rank) for f in parts(node))
    return False


def _rule_mentions(data: dict, rank: str) -> list[str]:
    """The rules outside the plays that name a rank: the goal, a definition, what you can see..."""
    places: list[tuple[tuple[str, ...], str, bool]] = [
        (("end", "goal"), "the goal (see Winning)", False),
        (("end", "score"), "the points (see Winning)", False),
        (("visibility", "hand"), "what you can see", False),
        (("turn", "end"), "the end of a turn", True),
        (("turn", "playable"), "what can be played", False),
    ]
    found = [label for path, label, prog in places if _mentions(_tree(_get(data, *path), prog), rank)]
    defines = {str(k).split("(")[0].strip(): _tree(v, False) for k, v in (data.get("define") or {}).items()}
    named = _terms_naming(data, rank)
    terms = [n for n in defines if n in named]
    if terms:
        found.append(f"{join_or(terms, 'and')} (see Terms)")
    return found


def _terms_naming(data: dict, rank: str) -> set[str]:
    """The definitions that name a rank, directly or through another that does (queens -> protected)."""
    defines = {str(k).split("(")[0].strip(): _tree(v, False) for k, v in (data.get("define") or {}).items()}
    named = {n for n, t in defines.items() if _mentions(t, rank)}
    grew = True
    while grew:
        more = {n for n, t in defines.items() if n not in named and _uses(t, named)}
        named |= more
        grew = bool(more)
    return named


def _uses(node: Any, names: set[str]) -> bool:
    if isinstance(node, tuple):
        return any(_uses(x, names) for x in node)
    if isinstance(node, (A.Call, A.Name)) and getattr(node, "func", getattr(node, "name", None)) in names:
        return True
    if isinstance(node, A.Node):
        return any(_uses(getattr(node, f), names) for f in parts(node))
    return False


def _define_text(key: str, body: Any, ctx: Context) -> str:
    tree = _tree(body, False)
    name = str(key)
    if tree is None:
        return name
    is_set = isinstance(tree, (A.Zone, A.Where)) or (isinstance(tree, A.Call) and tree.func in ctx.defines)
    # a condition reads as a clause, a set of cards or a number as a noun ("worth(x): x's value plus
    # x's bonus count", not the code again)
    reading = english(tree, ctx, condition=not is_set and not is_value(tree))
    return f"{name}: {reading}  [{to_text(tree)}]"


# -- the rules page --------------------------------------------------------------------------------

#: the rules most online players know (cuttle.cards): the rules page and the REPL's first lines of
#: every other ruleset say what differs from them
FAMILIAR = "cuttle-cards"
#: keys of a ruleset file that say what it is rather than how it plays
_META = frozenset({"name", "kind", "description", "source", "extends", "options", "requires", "conflicts"})


@dataclass(frozen=True)
class Familiar:
    """What differs between a ruleset and the FAMILIAR rules (cuttle.cards'): `there`, the options of
    those rules that this one lacks (option, its description, the ruleset that adds it); `here`, the
    options this one adds that they lack (twinned plays...: option, description); `lines`, every
    other difference, as `cuttle diff` tells what the FAMILIAR rules change against this one."""

    there: list[tuple[str, str, str]] = field(default_factory=list)
    here: list[tuple[str, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: a house rule (a file of the user's that extends another ruleset): that ruleset, with the options
    #: given beside the house rule; the differences above are then that ruleset's, not the house rule's
    base: str | None = None

    def __bool__(self) -> bool:
        return bool(self.there or self.here or self.lines or self.base)

    def topics(self) -> list[str]:
        """What the other differences are about, once each: the start of each diff line."""
        out: list[str] = []
        for ln in self.lines:
            t = ln.split(":")[0].strip().removesuffix(" only if")
            t = t[:1].lower() + t[1:] if not t[1:2].isupper() else t
            if t not in out:
                out.append(t)
        return out


def _description(rules: Any, part: str) -> str:
    return _part_description(rules.composed, part)


def _part_description(composed: Any, part: str) -> str:
    doc = composed.lines.get(part)
    d = doc.data.get("description") if doc is not None and isinstance(doc.data, dict) else None
    return str(d).strip() if d else ""


def _about(rules: Any) -> list[str]:
    """The ruleset's description, then one line per option added to it (not those its base applies)."""
    c = rules.composed
    base = c.parts[-1] if c.parts else rules.name
    own = _description(rules, base)
    parent = c.parts[-2] if len(c.parts) > 1 and not own else None
    if parent is not None:  # a file that describes itself nowhere: what it is made from, and that one's words
        said = _description(rules, parent)
        out = [f"{c.label(base)} changes {c.label(parent)}" + (f", which reads: {said}" if said else ".")]
    else:
        out = [d for d in [own or str(rules.data.get("description") or "")] if d]
    added = [o for o in c.options if c.applied_by.get(o) not in c.parts]
    for o in added:
        desc = _description(rules, o)
        out.append(f"With {c.label(o)}: {desc}" if desc else f"With {c.label(o)}.")
    if len(rules.parts) > 1:
        out.append(f"Made of: {' + '.join(c.label(x) for x in _merge_order(c))}")
    return out


def _merge_order(c: Any) -> list[str]:
    """The parts of a ruleset in the order they are merged, each winning over those before it: each
    file after the options it applies (its own keys override them), the options named after `+` last."""
    out: list[str] = []
    for part in c.parts:
        out += [o for o in c.options if c.applied_by.get(o) == part]
        out.append(part)
    return out + [o for o in c.options if o not in out]


def _own_paths(composed: Any, part: str) -> set[tuple[str, ...]]:
    """The key paths the file of one part of a composed ruleset writes itself (not what it is)."""
    doc = composed.lines.get(part)
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    out: set[tuple[str, ...]] = set()

    def walk(x: Any, path: tuple[str, ...]) -> None:
        if isinstance(x, dict) and x:
            for k, v in x.items():
                walk(v, path + (str(k),))
        else:
            out.add(path)

    walk({k: v for k, v in data.items() if k not in _META}, ())
    return out


def house_base(rules: Any) -> str | None:
    """The ruleset a house rule changes (the one its file extends, with the options given beside it
    on the command line), or None for a shipped ruleset or a file that extends nothing."""
    c = rules.composed
    if len(c.parts) < 2 or not looks_like_path(c.parts[-1]):
        return None
    return "+".join([c.parts[-2]] + [o for o in c.options if c.applied_by.get(o) == COMMAND_LINE])


def familiar_differences(rules: Any) -> Familiar:
    """What differs between `rules` and the FAMILIAR rules, nothing for those rules themselves. An
    option on one side only is told by its description when the other side takes it too (so its
    own changes are not told again below); everything else is the diff of the two rulesets so
    completed. A house rule's own changes are its point, not differences to list: for one, what
    differs is its base's (each option still offered as the house rule with it)."""
    base = house_base(rules)
    if base is not None:
        try:
            found = familiar_differences(load_ruleset(base))
        except CuttleError:
            found = Familiar()
        offered = [(opt, desc, f"{rules.spec}+{opt}") for opt, desc, _ in found.there]
        return Familiar(offered, found.here, found.lines, base)
    try:
        ref = compose(FAMILIAR)
    except CuttleError:
        return Familiar()
    if play_hash(ref.data) == rules.hash:
        return Familiar()
    there: list[tuple[str, str, str]] = []
    for opt in ref.options:
        if opt in rules.parts:
            continue
        spec = f"{rules.spec}+{opt}"
        try:
            other = compose(spec)
        except CuttleError:
            continue  # the option does not combine with this ruleset
        if play_hash(other.data) != rules.hash:
            there.append((opt, _part_description(ref, opt), spec))
    own = _own_paths(ref, FAMILIAR)
    here: list[tuple[str, str]] = []
    for opt in rules.composed.options:
        if opt in ref.options or opt in ref.parts or _own_paths(rules.composed, opt) & own:
            continue  # the same on both sides, or a change of what the FAMILIAR rules write: the diff tells it
        try:
            compose(f"{FAMILIAR}+{opt}")
        except CuttleError:
            continue
        here.append((opt, _part_description(rules.composed, opt)))
    try:
        mine = load_ruleset("+".join([rules.spec] + [o for o, _, _ in there]))
        theirs = load_ruleset("+".join([FAMILIAR] + [o for o, _ in here]))
    except CuttleError:
        return Familiar([], [], diff_lines(rules, load_ruleset(FAMILIAR)))
    return Familiar(there, here, diff_lines(mine, theirs))


def rules_page(rules: Any) -> str:
    """The whole ruleset in words: set-up, goal and end, the turn, responses, then every rank."""
    data: dict = rules.data
    ctx = Context.from_data(data)
    plays = resolved_plays(data)
    # plays open to every card (draw, pass) or to many ranks (points, scuttle): told once, under Your turn
    general = {
        n: p
        for n, p in plays.items()
        if isinstance(p, dict) and (int(p.get("cards", 1)) == 0 or len(p.get("ranks", [])) > GENERAL)
    }
    title = f"{rules.name} — rules of Cuttle"
    out: list[str] = [title, "=" * len(title), *_about(rules)]
    out += _familiar_section(rules)
    out += _cards_section(rules, data)
    out += _seats_section(rules)
    out += ["", "The deal", "--------", _deal_text(rules)]
    out += _winning_section(rules, data, ctx)
    out += ["", "What you can see", "----------------", _visibility_text(data, ctx), *_knowledge_text(data, ctx)]
    out += _turn_section(data, ctx, plays, general)
    out += _triggers_section(data, ctx)
    out += _responses_section(data, ctx)
    out += _card_by_card_section(rules, data, ctx, plays, general)
    out += _terms_section(data, ctx)
    return "\n".join(out).rstrip() + "\n"


def _familiar_section(rules: Any) -> list[str]:
    if rules.seats > 2:  # (cuttle.cards hosts two players only: its rules page describes this game instead)
        return []
    found = familiar_differences(rules)
    if not found:
        return []
    out = ["", "If you know Cuttle from cuttle.cards", "-" * 36]
    here, spec = "here", rules.spec
    if found.base is not None:  # a house rule: what differs is its base's (its own rules are its point)
        here, spec = found.base, found.base
        said = f"'cuttle diff {found.base} {rules.spec}' says what it changes"
        if not (found.there or found.here or found.lines):
            out.append(f"This is a house rule on {found.base}, the rules of cuttle.cards ({said}).")
            return out
        out.append(f"This is a house rule on {found.base} ({said}).")
    out.append(
        f"Most online players play on cuttle.cards, whose rules are the {FAMILIAR} ruleset "
        f"(play them with --ruleset {FAMILIAR})."
    )
    if found.here:
        out.append(f"{'Here' if here == 'here' else 'In ' + here}, unlike on cuttle.cards:")
        out += [f"  * {desc.rstrip('.')} (the {opt} option)." for opt, desc in found.here]
    if found.there or found.lines:
        out.append(f"On cuttle.cards, unlike {here}:")
        out += [f"  * {desc.rstrip('.')} (play {spec} for that)." for _opt, desc, spec in found.there]
        out += [f"  * {ln}" for ln in found.lines]
    if found.lines:
        out.append(f"('was' is {here}, 'now' on cuttle.cards, as 'cuttle diff {spec} {FAMILIAR}' says it.)")
    return out


def _cards_section(rules: Any, data: dict) -> list[str]:
    out = ["", "The cards", "---------", _deck_text(rules), _values_text(data)]
    consts = data.get("constants") or {}
    if consts:
        out.append(
            "Numbers used by the rules: "
            + "; ".join(
                f"{words(k)} = {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in consts.items()
            )
            + "."
        )
    return out


def _winning_section(rules: Any, data: dict, ctx: Context) -> list[str]:
    out = ["", "Winning", "-------"]
    in_deck = ctx.with_(rank_counts=dict(Counter(RANK_OF[c] for c in rules.deck_cards)))
    out.append(sentence(f"your goal (in points): {_say(_get(data, 'end', 'goal') or '21', in_deck, program=False)}"))
    score = _get(data, "end", "score") or "total(field of me where it.role == point)"
    out.append(sentence(f"your points: {_say(score, ctx, program=False)}"))
    out.append("You win the moment your points reach your goal; this is checked after everything that happens.")
    out.append(_passes_text(data, ctx))
    out += _rule_endings(data, ctx)
    wins = _get(data, "match", "wins")
    if wins and int(wins) > 1:
        out.append(f"A match: the first player to win {wins} hands wins the match.")
    return out


def _turn_section(data: dict, ctx: Context, plays: dict[str, dict], general: dict[str, dict]) -> list[str]:
    out = ["", "Your turn", "---------", "Take one action a turn:"]
    for p in general.values():
        ranks = p.get("ranks", [])
        who = f" (with {rank_list(ranks)})" if ranks else ""
        out.append(f"  * {play_label(p)}{who} — {describe_play(p, ctx, with_label=False)}")
    others = sorted(
        {play_label(p) for n, p in plays.items() if isinstance(p, dict) and n not in general and not p.get("free")},
        key=natural,
    )
    if others:
        out.append(f"  * or play a card for its ability ({', '.join(others)}): see Card by card below.")
    free = [(n, p) for n, p in plays.items() if isinstance(p, dict) and p.get("free")]
    if free:  # each told where it is listed: above (a play open to any card) or under its rank
        here = sorted({play_label(p) for n, p in free if n in general}, key=natural)
        there = sorted({play_label(p) for n, p in free if n not in general}, key=natural)
        if here and there:
            told = f": {', '.join(here)} (see above); {', '.join(there)} (see Card by card)"
        else:
            told = f" (see {'above' if here else 'Card by card'}): {', '.join(here or there)}"
        out.append(
            f"Plays that do not use up your action{told}. Such a play is not your turn's "
            "action: it neither counts as a pass nor breaks a run of passes."
        )
    if _get(data, "turn", "playable") and _only_if(data["turn"]["playable"], ctx) != "always":
        out.append(sentence(f"a card can be played {_only_if(data['turn']['playable'], ctx)}"))
    if _get(data, "turn", "end"):
        out.append(sentence(f"when your action has fully resolved: {_say(data['turn']['end'], ctx)}"))
    counters = data.get("counters") or {}
    if counters:
        out.append(
            "Numbers kept during the game (each starts at 0): "
            + "; ".join(
                f"{words(str(k))} (of {'each player' if (c or {}).get('of', 'player') == 'player' else 'each card'})"
                + (f": {c['text']}" if isinstance(c, dict) and c.get("text") else "")
                for k, c in counters.items()
            )
            + "."
        )
    return out


def _triggers_section(data: dict, ctx: Context) -> list[str]:
    triggers = data.get("triggers") or {}
    if not triggers:
        return []
    out = ["", "When things happen", "------------------"]
    out += [f"  * {_trigger_text(t, ctx)}" for t in triggers.values() if isinstance(t, dict)]
    out.append(
        "These run once the play, response or end of turn that set them off has fully resolved, "
        "in the order things happened (rules of one event in the order listed); what they do in "
        "turn sets off rules after that."
    )
    return out


def _responses_section(data: dict, ctx: Context) -> list[str]:
    kinds = data.get("kinds") or {}
    responses = data.get("responses") or {}
    if not (kinds or responses):
        return []
    out = ["", "Responses and counters", "----------------------"]
    answered_by: dict[str, list[str]] = {}
    for name, r in responses.items():
        for x in r.get("answers", []):
            answered_by.setdefault(str(x), []).append(name)
    for name, k in kinds.items():
        out.append(_kind_text(name, k or {}, ctx, str(name) in answered_by))
    for _name, r in responses.items():
        out.append(_response_text(r, ctx, answered_by))
    return out


def _card_by_card_section(
    rules: Any, data: dict, ctx: Context, plays: dict[str, dict], general: dict[str, dict]
) -> list[str]:
    responses = data.get("responses") or {}
    out = ["", "Card by card", "------------"]
    for rank in rules.ranks_in_deck:
        mine = [
            (n, p) for n, p in plays.items() if isinstance(p, dict) and rank in {str(x) for x in p.get("ranks", [])}
        ]
        if not mine:
            out.append(f"{rank_noun(rank)}: cannot be played.")
            continue
        common = [play_label(p) for n, p in mine if n in general]
        special = [(n, p) for n, p in mine if n not in general]
        line = f"{rank_noun(rank)}:"
        if common:
            line += f" {join_or(common)}" + (" (see Your turn)." if special else " (see Your turn) only.")
        out.append(line)
        for _n, p in special:
            out.append(f"    {describe_play(p, ctx)}")
        mentions = _rule_mentions(data, rank)
        if mentions:
            out.append(f"    Also counts in {join_or(mentions, 'and')}.")
        resp = [r for r in responses.values() if rank in {str(x) for x in r.get("ranks", [])}]
        for r in resp:
            out.append(f"    Also {kind_word(str(r.get('verb', 'counter')))}s: see Responses and counters.")
    return out


def _terms_section(data: dict, ctx: Context) -> list[str]:
    defines = data.get("define") or {}
    if not defines:
        return []
    return ["", "Terms", "-----", *(f"  {_define_text(key, body, ctx)}" for key, body in defines.items())]


_EVENT_WORDS = {
    "game starts": "the game starts (you: the player who moves first)",
    "turn starts": "your turn starts",
    "turn ends": "your turn ends (after the end-of-turn rule)",
    "play resolves": "a play of yours resolves",
    "play is countered": "a play of yours is countered",
}
_ZONE_PHRASE = {
    "hand": "your hand",
    "field": "your field",
    "play": "play (you: the player who controlled it)",
    "deck": "the deck",
    "scrap": "the scrap",
    "shown": "the shown cards",
    "stack": "the stack",
}


def _event_text(event: Any) -> str:
    """`card leaves field` -> "a card leaves your field" (the words of an event on a rules page)."""
    words = " ".join(str(event).split())
    if words in _EVENT_WORDS:
        return _EVENT_WORDS[words]
    for verb in ("leaves", "enters"):
        head = f"card {verb} "
        if words.startswith(head) and words[len(head) :] in _ZONE_PHRASE:
            zone = words[len(head) :]
            mine = zone in ("hand", "field")
            return f"a card {verb} {_ZONE_PHRASE[zone]}" + (
                "" if mine or zone == "play" else " (you: whoever's turn it is, or who moved it)"
            )
    return words


def _trigger_text(t: dict, ctx: Context) -> str:
    """One trigger in words: when what happens, under which condition, what follows; and its text."""
    line = f"When {_event_text(t.get('event'))}"
    if (
        " ".join(str(t.get("for")).split()) == EACH_PLAYER
    ):  # run once for each player, `me` in turn: the event's player first
        first = "the player who moves first" if " ".join(str(t.get("event")).split()) == "game starts" else "you"
        line = line.replace(" (you: the player who moves first)", "")
        line += f", for each player in turn (first {first}, then the other; you: that player)"
    if t.get("when") is not None:
        line += f", if {_say(t['when'], ctx, program=False, condition=True)}"
    line += f": {_say(t.get('effect'), ctx)}"
    line = sentence(line)
    return f"{line} ({t['text']})" if t.get("text") else line


# -- diff ----------------------------------------------------------------------------------------


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _same(x: Any, y: Any, program: bool) -> bool:
    if x is None or y is None:
        return x is None and y is None
    return _tree(x, program) == _tree(y, program)


def _ranks_of(p: dict) -> str:
    ranks = [str(r) for r in p.get("ranks", [])]
    if len(ranks) == 1:
        return rank_noun(ranks[0])
    return rank_list(ranks) or play_label(p)


def diff_lines(a_rules: Any, b_rules: Any) -> list[str]:
    """What ruleset B changes against ruleset A, one line per change (none if they play alike)."""
    d = _Diff(a_rules, b_rules)
    for part in (d.cards, d.definitions, d.ending, d.kinds, d.plays, d.responses, d.triggers):
        part()
    return d.lines


def diff_rules(a_rules: Any, b_rules: Any) -> str:
    """What ruleset B changes against ruleset A, in words, rule by rule and card by card."""
    lines = diff_lines(a_rules, b_rules)
    da, db = a_rules.data, b_rules.data
    if da.get("description") != db.get("description") and not lines:
        lines.append(f"Only the description differs: {db.get('description')!r}")
    title = f"{b_rules.name} against {a_rules.name}"
    if not lines:
        return f"{title}: no differences — {b_rules.name} plays exactly like {a_rules.name}.\n"
    return (
        "\n".join([f"{title}: {len(lines)} change{'s' if len(lines) != 1 else ''}", ""] + [f"* {ln}" for ln in lines])
        + "\n"
    )


def _only_if(x: Any, ctx: Context) -> str:
    """A condition as a diff tells it: "only if ...", or "always" / "never" for `true` / `false`."""
    tree = _tree(x, False)
    if tree in (A.Name("true"), A.Name("false")):
        return "always" if tree == A.Name("true") else "never"
    return f"only if {_say(x, ctx, condition=True)}"


def _both_keys(a: dict, b: dict) -> list:
    """The keys of `a` in its order, then those only `b` has (the order a diff tells them in)."""
    return list(a) + [k for k in b if k not in a]


def _both(a: dict, b: dict) -> list[tuple[Any, Any, Any]]:
    """(key, a's value, b's value) for every key of either, in `_both_keys` order."""
    return [(k, a.get(k), b.get(k)) for k in _both_keys(a, b)]


class _Diff:
    """The changes found so far between two rulesets (`lines`), one method per part of a ruleset."""

    def __init__(self, a_rules: Any, b_rules: Any) -> None:
        self.a_rules, self.b_rules = a_rules, b_rules
        self.da, self.db = a_rules.data, b_rules.data
        self.ca, self.cb = Context.from_data(self.da), Context.from_data(self.db)
        self.lines: list[str] = []

    def change(self, what: str, old: str, new: str) -> None:
        self.lines.append(f"{what}: was: {old}; now: {new}")

    def cmp(
        self,
        path: tuple[str, ...],
        what: str,
        program: bool = True,
        condition: bool = False,
        absent: str = "nothing",
        fmt: Callable[[str], str] = lambda s: s,
    ) -> None:
        x, y = _get(self.da, *path), _get(self.db, *path)
        if _same(x, y, program and not condition):
            return
        old = fmt(_say(x, self.ca, program, condition)) if x is not None else absent
        new = fmt(_say(y, self.cb, program, condition)) if y is not None else absent
        self.change(what, old, new)

    def cards(self) -> None:
        """The deck, the values of the cards, the constants, the deal."""
        da, db, a_rules, b_rules = self.da, self.db, self.a_rules, self.b_rules
        if a_rules.deck_cards != b_rules.deck_cards or a_rules.suits != b_rules.suits:
            self.change("The deck", _deck_text(a_rules).rstrip("."), _deck_text(b_rules).rstrip("."))
        va, vb = da.get("values") or {}, db.get("values") or {}
        for k in sorted(set(va) | set(vb), key=lambda r: ALL_RANKS.index(str(r)) if str(r) in ALL_RANKS else 99):
            if va.get(k) != vb.get(k):
                self.change(
                    f"The value of {a(rank_noun(str(k)))}", f"{va.get(k, 'no')} points", f"{vb.get(k, 'no')} points"
                )
        ka, kb = da.get("constants") or {}, db.get("constants") or {}
        for k in _both_keys(ka, kb):
            if ka.get(k) != kb.get(k):

                def show(v: Any) -> str:
                    return "unset" if v is None else ", ".join(map(str, v)) if isinstance(v, list) else str(v)

                self.change(f"The {words(k)}", show(ka.get(k)), show(kb.get(k)))
        if a_rules.deal != b_rules.deal or a_rules.deal_extra != b_rules.deal_extra:
            self.change("The deal", _deal_short(a_rules), _deal_short(b_rules))
        if (a_rules.seats, a_rules.teams) != (b_rules.seats, b_rules.teams):
            self.change("The players", _seats_short(a_rules), _seats_short(b_rules))

    def definitions(self) -> None:
        """The terms of `define`."""
        da, db, ca, cb = self.da, self.db, self.ca, self.cb
        fa, fb = da.get("define") or {}, db.get("define") or {}
        for k in _both_keys(fa, fb):
            if not _same(fa.get(k), fb.get(k), False):
                old = _define_text(k, fa[k], ca) if k in fa else "not defined"
                new = _define_text(k, fb[k], cb) if k in fb else "not defined"
                self.change(f"The term {k.split('(')[0]}", old, new)

    def ending(self) -> None:
        """Goal, points, passes, the match, what you see, the turn."""
        da, db, ca, cb = self.da, self.db, self.ca, self.cb
        self.cmp(("end", "goal"), "Your goal", program=False, absent="21")
        self.cmp(("end", "score"), "Your points", program=False)
        ea, eb = da.get("end") or {}, db.get("end") or {}
        if ea.get("passes", 3) != eb.get("passes", 3):
            self.change("Passes in a row that end the game", str(ea.get("passes", 3)), str(eb.get("passes", 3)))
        if ea.get("on_passes", "most_points") != eb.get("on_passes", "most_points"):
            self.change(
                f"When {eb.get('passes', 3)} passes in a row end the game",
                _passes_result(da, ca),
                _passes_result(db, cb),
            )
        wa, wb = _get(da, "match", "wins") or 1, _get(db, "match", "wins") or 1
        if wa != wb:
            self.change(
                "Winning the match", f"win {wa} hand{'s' if wa != 1 else ''}", f"win {wb} hand{'s' if wb != 1 else ''}"
            )
        va_, vb_ = _get(da, "visibility", "hand"), _get(db, "visibility", "hand")
        if not _same(va_, vb_, False):

            def seen(v: Any, c: Context) -> str:
                tree = _tree(v, False)
                if tree is None or tree == A.Name("false"):
                    return "never (hands are hidden)"
                return "always (hands are face up)" if tree == A.Name("true") else f"when {_say(v, c, condition=True)}"

            self.change("You see your opponent's hand", seen(va_, ca), seen(vb_, cb))
        self.cmp(("turn", "end"), "When your action has resolved")
        xp, yp = _get(da, "turn", "playable"), _get(db, "turn", "playable")
        if not _same(xp, yp, False):  # ("only if ...", "always": never "only if: was: always")
            self.change(
                "A card can be played",
                _only_if(xp, ca) if xp is not None else "always",
                _only_if(yp, cb) if yp is not None else "always",
            )

    def kinds(self) -> None:
        """Kinds of play: whether they can be countered, what follows them."""
        da, db, ca, cb = self.da, self.db, self.ca, self.cb
        kda, kdb = da.get("kinds") or {}, db.get("kinds") or {}
        for k in _both_keys(kda, kdb):
            if k not in kdb:
                self.lines.append(f"There are no more {kind_word(k, True)}.")
                continue
            if k not in kda:
                self.lines.append(f"New kind of play: {_kind_text(k, kdb[k] or {}, cb)}")
                continue
            x, y = kda[k] or {}, kdb[k] or {}
            if not _same(x.get("counterable"), y.get("counterable"), False):
                if y.get("counterable") is None or _tree(y.get("counterable"), False) == A.Name("false"):
                    self.lines.append(f"{_cap(kind_word(k, True))} can no longer be countered")
                else:
                    self.change(
                        f"{_cap(kind_word(k, True))} can be countered",
                        _only_if(x["counterable"], ca) if "counterable" in x else "never",
                        _only_if(y["counterable"], cb),
                    )
            for f in ("after", "countered"):
                if not _same(x.get(f), y.get(f), True):
                    self.change(
                        f"After {a(kind_word(k))}" if f == "after" else f"A countered {kind_word(k)}",
                        _say(x.get(f), ca) if f in x else "nothing",
                        _say(y.get(f), cb) if f in y else "nothing",
                    )

    def plays(self) -> None:
        """The plays, new, gone or changed."""
        da, db, ca, cb = self.da, self.db, self.ca, self.cb
        pa, pb = resolved_plays(da), resolved_plays(db)
        for _name, x, y in _both(pa, pb):
            if not isinstance(x, dict) and isinstance(y, dict):
                self.lines.append(f"New play, {_ranks_of(y)}: {describe_play(y, cb)}")
                continue
            if isinstance(x, dict) and not isinstance(y, dict):
                self.lines.append(f"No more {play_label(x)} play for {_ranks_of(x)} (was: {describe_play(x, ca)})")
                continue
            if not isinstance(x, dict) or not isinstance(y, dict):
                continue
            self.lines += _play_diff(x, y, ca, cb)

    def responses(self) -> None:
        """The responses (counters), new, gone or changed."""
        da, db, ca, cb = self.da, self.db, self.ca, self.cb
        ra, rb = da.get("responses") or {}, db.get("responses") or {}
        for _name, x, y in _both(ra, rb):
            if x is None and y is not None:
                self.lines.append(f"New response: {_response_text(y, cb, {})}")
                continue
            if y is None and x is not None:
                self.lines.append(f"No more {play_label(x)}s with {a(rank_list(x.get('ranks', [])))}.")
                continue
            if x is None or y is None:
                continue
            self.lines += _response_diff(x, y, ca, cb)

    def triggers(self) -> None:
        """The rules that run when something happens."""
        da, db, ca, cb = self.da, self.db, self.ca, self.cb
        ta, tb = da.get("triggers") or {}, db.get("triggers") or {}
        for name, x, y in _both(ta, tb):
            if isinstance(y, dict) and not isinstance(x, dict):
                self.lines.append(f"New rule: {_trigger_text(y, cb)}")
            elif isinstance(x, dict) and not isinstance(y, dict):
                self.lines.append(f"No more rule '{name}' (was: {_trigger_text(x, ca)})")
            elif isinstance(x, dict) and isinstance(y, dict) and _trigger_text(x, ca) != _trigger_text(y, cb):
                self.change(f"The rule '{name}'", _trigger_text(x, ca), _trigger_text(y, cb))


def _play_diff(x: dict, y: dict, ca: Context, cb: Context) -> list[str]:
    label = f"{_ranks_of(x)} ({play_label(x)})" if x.get("ranks") else _cap(play_label(x))
    if int(x.get("cards", 1)) > 1:  # a twin: told apart from the play of one card of its rank
        label = label[:-1] + f", {x.get('cards')} cards together)"
    out: list[str] = []
    if {str(r) for r in x.get("ranks", [])} != {str(r) for r in y.get("ranks", [])}:
        out.append(
            f"{label}: was played with {rank_list(x.get('ranks', [])) or 'no card'}; "
            f"now with {rank_list(y.get('ranks', [])) or 'no card'}"
        )
    if x.get("verb") != y.get("verb"):
        out.append(f"{label}: now written '{y.get('verb')}' (was '{x.get('verb')}')")
    if x.get("kind") != y.get("kind"):

        def kind_of(p: dict) -> str:
            if p.get("kind"):
                return f"{a(kind_word(str(p['kind'])))} play"
            return "a play of no kind (it cannot be answered)"

        out.append(f"{label}: was {kind_of(x)}; now {kind_of(y)}")
    if int(x.get("cards", 1)) != int(y.get("cards", 1)):
        out.append(f"{label}: plays {y.get('cards', 1)} cards at once (was {x.get('cards', 1)})")
    if bool(x.get("free")) != bool(y.get("free")):
        out.append(f"{label}: {'no longer uses' if y.get('free') else 'now uses'} up your action")
    if not _same(x.get("target"), y.get("target"), False):

        def tgt(p: dict, c: Context) -> str:
            if "target" not in p:
                return "no target"
            tree = _tree(p["target"], False)
            return one_target(tree, c) if tree is not None else "no target"

        out.append(f"{label}: target was: {tgt(x, ca)}; now: {tgt(y, cb)}")
    if not _same(x.get("player"), y.get("player"), False):  # the players a move names (`player:`)

        def named(p: dict, c: Context) -> str:
            return _say(p["player"], c, program=False) if "player" in p else "nobody"

        out.append(f"{label}: names a player: was: {named(x, ca)}; now: {named(y, cb)}")
    if not _same(x.get("legal"), y.get("legal"), False):
        old = _only_if(x["legal"], ca) if "legal" in x else "always"
        new = _only_if(y["legal"], cb) if "legal" in y else "always"
        if old != new:  # (no condition and `true` read alike: no change to tell)
            out.append(f"{label}: can be played: was: {old}; now: {new}")
    if not _same(x.get("effect"), y.get("effect"), True):
        out.append(f"{label}: was: {_say(x.get('effect', 'nothing'), ca)}; now: {_say(y.get('effect', 'nothing'), cb)}")
    if not _same(x.get("countered"), y.get("countered"), True):
        old = _say(x["countered"], ca) if "countered" in x else "as its kind says"
        new = _say(y["countered"], cb) if "countered" in y else "as its kind says"
        out.append(f"{label}: when countered: was: {old}; now: {new}")
    if x.get("text") != y.get("text") and y.get("text"):
        out.append(f'{label}: its note now reads "{y["text"]}"')
    return out


def _response_diff(x: dict, y: dict, ca: Context, cb: Context) -> list[str]:
    who = a(rank_list(y.get("ranks", [])) or "card")
    out: list[str] = []
    if {str(r) for r in x.get("ranks", [])} != {str(r) for r in y.get("ranks", [])}:
        out.append(
            f"{sentence(play_label(y)).rstrip('.')}s are now made with {rank_list(y.get('ranks', []))} "
            f"(was {rank_list(x.get('ranks', []))})"
        )
    ex, ey = int(x.get("extra", 0)), int(y.get("extra", 0))
    if ex != ey:
        if ey == 0:
            out.append(f"{who} no longer costs an extra card: it {play_label(y)}s by itself")
        elif ex == 0:
            out.append(f"{who} now costs {ey} extra card{'s' if ey > 1 else ''} to {play_label(y)}")
        else:
            out.append(f"{who} now costs {ey} extra cards to {play_label(y)} (was {ex})")
    ax, ay = [str(k) for k in x.get("answers", [])], [str(k) for k in y.get("answers", [])]
    lost = [k for k in ax if k not in ay]
    gained = [k for k in ay if k not in ax]
    if lost:
        out.append(f"{who} can no longer {play_label(y)} {join_or([kind_word(k, True) for k in lost])}")
    if gained:
        out.append(f"{who} can now {play_label(y)} {join_or([kind_word(k, True) for k in gained])}")
    for f, what in (
        ("legal", "can be played"),
        ("counterable", "can be answered in turn"),
        ("window", "may answer a play that cannot be countered"),
    ):
        if not _same(x.get(f), y.get(f), False):
            old = _only_if(x[f], ca) if f in x else "always"
            new = _only_if(y[f], cb) if f in y else "always"
            if old != new:
                out.append(f"{sentence(play_label(y)).rstrip('.')} with {who}: {what}: was: {old}; now: {new}")
    if not _same(x.get("effect"), y.get("effect"), True):
        out.append(
            f"{sentence(play_label(y)).rstrip('.')} with {who}: was: "
            f"{_say(x.get('effect', 'scrap cards; scrap extra'), ca)}; "
            f"now: {_say(y.get('effect', 'scrap cards; scrap extra'), cb)}"
        )
    if not _same(x.get("instead"), y.get("instead"), True):  # what it does to the play it answers
        old = _say(x["instead"], ca) if "instead" in x else "the answered play is countered"
        new = _say(y["instead"], cb) if "instead" in y else "the answered play is countered"
        out.append(f"{sentence(play_label(y)).rstrip('.')} with {who}, when it stands: was: {old}; now: {new}")
    return out


# -- the reference of ruleset keys (docs/rulesets.md) -------------------------------------------


def _type_words(typ: Any) -> str:
    if isinstance(typ, tuple) and typ and typ[0] == "enum":
        return "one of " + ", ".join(f"`{x}`" for x in typ[1:])
    return {
        "str": "text",
        "int": "whole number",
        "bool": "true/false",
        "expr": "expression",
        "ending": "`most_points`, `draw` or an expression",
        "program": "program",
        "word": "word",
        "rank": "rank",
        "ranks": "list of ranks",
        "card-list": "list of cards",
        "words": "list of words",
        "any": "number or list",
    }.get(str(typ), str(typ))


def schema_reference(schema: dict | None = None, prefix: str = "") -> str:
    """A Markdown table of every key of a ruleset file, from `interpreter/rules/schema.py`."""
    from .schema import RULESET

    schema = RULESET if schema is None else schema
    rows: list[str] = []

    def walk(sch: dict, path: str) -> None:
        for key, spec in sch.items():
            here = f"{path}{key}" if key != "*" else f"{path}NAME"
            if isinstance(spec, dict):  # a mapping given directly (a KIND/PLAY/RESPONSE under "*")
                walk(spec, here + ".")
                continue
            typ, doc = spec
            if isinstance(typ, dict):
                rows.append(f"| `{here}` | mapping | {doc} |")
                walk(typ, here + ".")
            else:
                rows.append(f"| `{here}` | {_type_words(typ)} | {doc} |")

    walk(schema, prefix)
    return "\n".join(["| key | type | meaning |", "|---|---|---|", *rows]) + "\n"


__all__ = ["rules_page", "schema_reference", "diff_rules", "describe_play", "rank_list", "cond_text"]
