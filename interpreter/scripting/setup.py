"""Building a position from a partial setup (scenario files, the REPL's `scenario` command)."""

from __future__ import annotations

from typing import Any

from interpreter.core.cards import ALL_RANKS, NAMES, RANK_OF, UnknownCardError, parse_card
from interpreter.core.errors import CuttleError, Location, ScenarioError, rule_failure, suggest
from interpreter.engine.machine import run
from interpreter.engine.state import DECK, FIELD0, HAND0, SCRAP, State, new_state
from interpreter.rules import Rules

PLAYERS = {"p1": 0, "p2": 1}
PLAYER_NAMES_BY_INDEX = ("p1", "p2")
SETUP_KEYS: tuple[str, ...] = ("turn", "p1", "p2", "deck", "scrap", "unplaced", "match", "rng")
SIDE_KEYS: tuple[str, ...] = ("hand", "points", "royals", "knows")
# -- turn state, marks and counters (issue 9A): `turn_number: N`; per player `marks: [NAME...]` (for the
# rest of the game) and `counters: {NAME: N}` (counters of players declared in the ruleset)
# and `cards: {9S: {marks: [frozen], counters: {NAME: N}}}` for the marks and counters of single cards
SETUP_KEYS += ("turn_number", "cards")
SIDE_KEYS += ("marks", "counters")
UNPLACED = ("deck", "scrap", "hands")


def _deal_leaves_a_deck(rules: Rules) -> bool:
    """Whether the ruleset's own deal leaves cards in the deck (Micro's deals them all)."""
    dealt = sum(rules.deal) + sum(len(e) for e in getattr(rules, "deal_extra", ()))
    return dealt < len(rules.deck_cards)


def build_position(rules: Rules, setup: dict, seed: int, where=lambda path: None) -> State:
    """A state from `setup` (see docs/scenarios.md). `where(path)` locates errors in the file."""
    g = new_state(rules, seed)
    placed: dict[int, tuple] = {}
    universe = set(rules.deck_cards)

    def err(msg: str, path: tuple, hint: str | None = None) -> ScenarioError:
        return ScenarioError(msg, where(path), code="S002", hint=hint)

    def card(text: Any, path: tuple, again: bool = False) -> int:
        """A card of the setup; `again`: one already placed, named once more (`knows:`)."""
        try:
            c = parse_card(str(text))
        except UnknownCardError as e:
            raise err(str(e), path) from None
        if c not in universe:
            raise err(f"{NAMES[c]} is not in the deck of ruleset '{rules.name}'", path)
        if again:
            return c
        if c in placed:
            raise err(f"{NAMES[c]} is placed twice (also at {'.'.join(map(str, placed[c]))})", path)
        placed[c] = path
        return c

    by_role = rules.ranks_by_role()

    def fits(c: int, role: str, path: tuple, what: str) -> None:
        """A card in play in a role no play of this ruleset gives its rank is an impossible position."""
        ranks = by_role.get(role)
        if ranks is not None and RANK_OF[c] not in ranks:
            raise err(
                f"{NAMES[c]} cannot be {what} in ruleset '{rules.name}' (only "
                f"{', '.join(r for r in ALL_RANKS if r in ranks)})",
                path,
            )

    def place(c: int, zone: int) -> None:
        g.zones[zone].append(c)
        g.zone_of[c] = zone

    def cards_at(path: tuple, value: Any) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            raise err(f"{'.'.join(path)} must be a list of cards, e.g. [7H, 10S]", path)
        return value

    if not isinstance(setup, dict):
        raise err("setup must be a mapping (turn:, p1:, p2:, deck:, scrap:)", ("setup",))
    for k in setup:
        if k not in SETUP_KEYS:
            from interpreter.core.errors import suggest

            near = suggest(k, SETUP_KEYS)
            raise err(
                f"unknown key '{k}' in setup",
                ("setup", k),
                f"did you mean '{near}'?" if near else f"expected one of: {', '.join(SETUP_KEYS)}",
            )
    for pname, p in PLAYERS.items():
        side = setup.get(pname) or {}
        if not isinstance(side, dict):
            raise err(f"setup.{pname} must be a mapping (hand:, points:, royals:)", ("setup", pname))
        for k in side:
            if k not in SIDE_KEYS:
                from interpreter.core.errors import suggest

                near = suggest(k, SIDE_KEYS)
                raise err(
                    f"unknown key '{k}' in setup.{pname}",
                    ("setup", pname, k),
                    f"did you mean '{near}'?" if near else f"expected one of: {', '.join(SIDE_KEYS)}",
                )
        for i, t in enumerate(cards_at(("setup", pname, "hand"), side.get("hand"))):
            place(card(t, ("setup", pname, "hand", i)), HAND0 + p)
        for i, t in enumerate(cards_at(("setup", pname, "royals"), side.get("royals"))):
            c = card(t, ("setup", pname, "royals", i))
            fits(c, "royal", ("setup", pname, "royals", i), "a Royal")
            place(c, FIELD0 + p)
            g.role[c], g.owner[c] = "royal", p
        for i, t in enumerate(cards_at(("setup", pname, "points"), side.get("points"))):
            path = ("setup", pname, "points", i)
            names = str(t).split("+")
            base = card(names[0], path)
            jacks = [card(j, path) for j in names[1:]]
            fits(base, "point", path, "a point card")
            for j in jacks:
                fits(j, "jack", path, "on a point card")
            n = len(jacks)
            # jacks alternate owners, the top one belonging to this player
            owners = [p if (n - 1 - k) % 2 == 0 else 1 - p for k in range(n)]
            place(base, FIELD0 + p)
            g.role[base], g.owner[base] = "point", (p if n % 2 == 0 else 1 - p)
            for j, o in zip(jacks, owners, strict=True):
                place(j, FIELD0 + o)
                g.role[j], g.owner[j], g.host[j] = "jack", o, base
                g.atts.setdefault(base, []).append(j)
    top = [card(t, ("setup", "deck", i)) for i, t in enumerate(cards_at(("setup", "deck"), setup.get("deck")))]
    for i, t in enumerate(cards_at(("setup", "scrap"), setup.get("scrap"))):
        place(card(t, ("setup", "scrap", i)), SCRAP)
    # cards the ruleset gives a player besides the deal (deal.extra) are in their hand unless placed
    extra = getattr(rules, "deal_extra", ())
    for p, given in enumerate(extra):
        for c in given:
            if c not in placed:
                placed[c] = ("deal", "extra", PLAYER_NAMES_BY_INDEX[p])
                place(c, HAND0 + p)
    rest = [c for c in rules.deck_cards if c not in placed]
    unplaced_to = setup.get("unplaced", "deck" if _deal_leaves_a_deck(rules) else "hands")
    if unplaced_to not in UNPLACED:
        raise err(f"setup.unplaced must be {', '.join(UNPLACED[:-1])} or {UNPLACED[-1]}", ("setup", "unplaced"))
    if unplaced_to != "scrap":
        g.rng.shuffle(rest)
    if unplaced_to == "hands":  # dealt as the ruleset deals: each hand up to its size, the rest to the scrap
        sizes = [rules.deal[p] + (len(extra[p]) if p < len(extra) else 0) for p in (0, 1)]
        p = 0
        while rest and any(len(g.zones[HAND0 + q]) < sizes[q] for q in (0, 1)):
            if len(g.zones[HAND0 + p]) < sizes[p]:
                place(rest.pop(), HAND0 + p)
            p = 1 - p
    for c in rest:
        place(c, DECK if unplaced_to == "deck" else SCRAP)
    for c in reversed(top):
        place(c, DECK)
    for pname, p in PLAYERS.items():  # hidden cards a player knows (engine/knowledge.py)
        side = setup.get(pname) or {}
        for i, t in enumerate(cards_at(("setup", pname, "knows"), side.get("knows"))):
            c = card(t, ("setup", pname, "knows", i), again=True)
            if g.zone_of[c] not in (DECK, HAND0 + 1 - p):
                raise err(
                    f"setup.{pname}.knows: {NAMES[c]} is not hidden from {pname} (only cards in the deck or "
                    f"the opponent's hand can be known)",
                    ("setup", pname, "knows", i),
                )
            g.known |= 1 << ((c << 1) + p)
    match = setup.get("match")
    if match is not None:  # hands already won in a match: {p1: 2, p2: 1}
        if (
            not isinstance(match, dict)
            or set(match) - set(PLAYERS)
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in match.values())
        ):
            raise err("setup.match must be the hands won so far, e.g. {p1: 2, p2: 1}", ("setup", "match"))
        wins = (int(match.get("p1", 0)), int(match.get("p2", 0)))
        if max(wins) >= rules.match_wins:
            raise err(
                f"setup.match: the match is already over (a player needs {rules.match_wins} hands)", ("setup", "match")
            )
        g.wins = wins
        g.hands = tuple((p, "before the scenario") for p in (0, 1) for _ in range(wins[p]))
    turn = setup.get("turn", "p1")
    if not isinstance(turn, str) or turn not in PLAYERS:
        raise err("setup.turn must be p1 or p2", ("setup", "turn"))
    g.turn = PLAYERS[turn]
    if "rng" in setup:  # the generator's exact state, so that a written-out position replays exactly
        value = setup["rng"]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise err("setup.rng must be the generator state, a whole number", ("setup", "rng"))
        g.rng.s = value
    _set_turn_state(g, rules, setup, err)
    _set_card_state(g, rules, setup.get("cards"), card, err)
    try:
        run(g)  # no win check here: winning is checked after each resolved effect (ruling 13), so a
        # position where a player already stands at their goal is refused below
    except CuttleError:
        raise
    except Exception as e:
        raise rule_failure(rules.name, "setting up the position", e) from None
    for pname, p in PLAYERS.items():
        try:
            score, goal = rules.score_of(g, p), rules.goal_of(g, p)
        except Exception:  # noqa: BLE001  a rule failing here fails, as a rule failure, at the first win check
            continue
        if score >= goal:
            raise err(
                f"{pname} already stands at their goal ({score} points, goal {goal}): a setup is not "
                "checked for a win, so the game would go on as if nobody had won",
                ("setup", pname),
                f"give {pname} fewer points, or reach the goal with a move of the scenario",
            )
    return g


def _set_turn_state(g: State, rules: Rules, setup: dict, err: Any) -> None:
    """The 9A keys of a setup: the turn number, and each player's marks and counters."""
    if "turn_number" in setup:
        n = setup["turn_number"]
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 10**6:
            raise err("setup.turn_number must be a whole number from 1 (the first turn)", ("setup", "turn_number"))
        g.turn_no = n
    for pname, p in PLAYERS.items():
        side = setup.get(pname) or {}
        marks = side.get("marks")
        if marks is not None:
            if not isinstance(marks, list) or not all(isinstance(m, str) and m.isidentifier() for m in marks):
                raise err(
                    f"setup.{pname}.marks must be a list of mark names, e.g. [wronged]", ("setup", pname, "marks")
                )
            for m in marks:
                g.mark(-1 - p, m, 10**12)
        if side.get("counters") is not None:
            _set_counters(g, rules, -1 - p, "player", side["counters"], ("setup", pname, "counters"), err)


def _set_card_state(g: State, rules: Rules, cards: Any, card: Any, err: Any) -> None:
    """`setup.cards`: marks (for the rest of the game) and counters (declared `of: card`) of single cards."""
    if cards is None:
        return
    example = "e.g. {9S: {marks: [frozen]}}"
    if not isinstance(cards, dict) or not cards:
        raise err(f"setup.cards must map cards to their marks and counters, {example}", ("setup", "cards"))
    for text, spec in cards.items():
        path = ("setup", "cards", text)
        c = card(text, path, again=True)
        if not isinstance(spec, dict) or not spec or set(spec) - {"marks", "counters"}:
            raise err(f"setup.cards.{text} must be a mapping of marks: and/or counters:, {example}", path)
        marks = spec.get("marks", [])
        if not isinstance(marks, list) or not all(isinstance(m, str) and m.isidentifier() for m in marks):
            raise err(f"setup.cards.{text}.marks must be a list of mark names, e.g. [frozen]", path + ("marks",))
        for m in marks:
            g.mark(c, m, 10**12)
        _set_counters(g, rules, c, "card", spec.get("counters", {}), path + ("counters",), err)


def _set_counters(g: State, rules: Rules, key: int, of: str, counters: Any, path: tuple, err: Any) -> None:
    """Counters of a player (key -1 - player, `of` "player") or a card (`of` "card") from a setup, for the
    rest of the game; each must be declared in the ruleset's `counters:` with that `of`."""
    where = ".".join(map(str, path))
    if not isinstance(counters, dict):
        raise err(f"{where} must map counter names to numbers, e.g. {{scuttles: 1}}", path)
    declared = rules.counters
    for name, v in counters.items():
        if declared.get(str(name)) != of:
            near = suggest(str(name), [k for k, o in declared.items() if o == of])
            raise err(
                f"'{name}' is not a counter of {of}s in ruleset '{rules.name}'",
                path + (name,),
                f"did you mean '{near}'?" if near else None,
            )
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > 10**18:
            raise err(f"{where}.{name} must be a whole number", path + (name,))
        g.set_counter(key, str(name), v, 10**12)


__all__ = ["build_position", "PLAYERS", "Location"]
