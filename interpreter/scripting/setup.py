"""Building a position from a partial setup (scenario files, the REPL's `scenario` command)."""

from __future__ import annotations

from typing import Any

from interpreter.core.cards import ALL_RANKS, NAMES, RANK_OF, UnknownCardError, parse_card
from interpreter.core.errors import (
    CuttleError,
    LocatedError,
    Location,
    ScenarioError,
    ScenarioErrors,
    rule_failure,
    suggest,
)
from interpreter.core.limits import MAX_HANDS
from interpreter.core.zones import FIELDS, HANDS, IS_HAND
from interpreter.engine.machine import run
from interpreter.engine.outcome import Outcome, Termination
from interpreter.engine.state import DECK, SCRAP, State, new_state
from interpreter.rules import Rules
from interpreter.rules.defs import fire

PLAYERS = {"p1": 0, "p2": 1, "p3": 2, "p4": 3}  # (p3 and p4 at a table of three or four: `seats.count`)
PLAYER_NAMES_BY_INDEX = ("p1", "p2", "p3", "p4")
SETUP_KEYS: tuple[str, ...] = ("turn", "p1", "p2", "p3", "p4", "deck", "scrap", "unplaced", "match", "rng")
SIDE_KEYS: tuple[str, ...] = ("hand", "points", "royals", "knows")
# -- turn state, marks and counters (issue 9A): `turn_number: N`; per player `marks: [NAME...]` (for the
# rest of the game) and `counters: {NAME: N}` (counters of players declared in the ruleset)
# and `cards: {9S: {marks: [frozen], counters: {NAME: N}}}` for the marks and counters of single cards
SETUP_KEYS += ("turn_number", "cards", "passes")
# `game_starts: true`: the ruleset's `game starts` rules run on the position before its first decision
# (a setup is a position inside a game, so by default they are taken to have run before it)
SETUP_KEYS += ("game_starts",)
# `first: p1`: who moved first in this game (`first player`), whatever the turn number; by default the
# turns are taken to have alternated from turn 1 (on an odd turn the player to move moved first)
SETUP_KEYS += ("first",)
SIDE_KEYS += ("marks", "counters")
# cards in play in other roles (issue 44): `roles: {vault: [7H]}` face up; `face_down: {vault: [9S]}` face
# down, seen by the player; `unseen: {ambush: [5C]}` face down, seen by nobody (`knows:` adds who else)
SIDE_KEYS += ("roles", "face_down", "unseen")
ROLE_KEYS = ("roles", "face_down", "unseen")
UNPLACED = ("deck", "scrap", "hands")


def _deal_leaves_a_deck(rules: Rules) -> bool:
    """Whether the ruleset's own deal leaves cards in the deck (Micro's deals them all)."""
    dealt = sum(rules.deal_sizes) + sum(len(e) for e in getattr(rules, "deal_extra", ()))
    return dealt < len(rules.deck_cards)


def build_position(
    rules: Rules, setup: dict, seed: int, where: Any = lambda path: None, key_where: Any = None
) -> State:
    """A state from `setup` (see docs/scenarios.md). `where(path)` locates errors in the file, at the
    value found at `path`; `key_where(path)` at its key (a key that is wrong itself: an unknown card,
    counter, role or key); without it, at the value."""
    return _Position(rules, seed, where, key_where or where).build(setup)


def _unknown_key(what: str, key: Any, keys: tuple[str, ...]) -> tuple[str, str]:
    near = suggest(key, keys)
    hint = f"did you mean '{near}'?" if near else f"expected one of: {', '.join(keys)}"
    return f"unknown key '{key}' in {what}", hint


class _Position:
    """A position being placed from a setup, card by card: each part of the setup is one method, in
    the order `build` calls them (the sides, the deck and the scrap, the cards not placed, what each
    player knows, the match, whose turn and the generator, marks and counters, then the checks)."""

    def __init__(self, rules: Rules, seed: int, where: Any, key_where: Any) -> None:
        self.rules = rules
        self.g = new_state(rules, seed)
        self.where, self.key_where = where, key_where
        self.placed: dict[int, tuple] = {}  # card -> where in the setup it was placed
        self.universe = set(rules.deck_cards)
        self.by_role = rules.ranks_by_role()
        self.problems: list[LocatedError] = []  # what is wrong with the cards placed so far, all of it
        self.seats = {k: p for k, p in PLAYERS.items() if p < rules.seats}  # the players at this table

    def each(self, items: list, place: Any) -> None:
        """`place(i, item)` for each item of a list of the setup, every problem noted, none stopping."""
        for i, item in enumerate(items):
            try:
                place(i, item)
            except ScenarioError as e:
                self.problems.append(e)

    def build(self, setup: dict) -> State:
        if not isinstance(setup, dict):
            raise self.err("setup must be a mapping (turn:, p1:, p2:, deck:, scrap:)", ("setup",))
        for k in setup:
            if k in PLAYERS and k not in self.seats:
                n = self.rules.seats
                problem = self.err(f"setup.{k}: this table has {n} players, p1 to p{n}", ("setup", k), at_key=True)
                self.problems.append(problem)
            elif k not in SETUP_KEYS:
                msg, hint = _unknown_key("setup", k, SETUP_KEYS)
                self.problems.append(self.err(msg, ("setup", k), hint, at_key=True))
        for pname, p in self.seats.items():
            try:
                self.side(pname, p, setup.get(pname) or {})
            except ScenarioError as e:
                self.problems.append(e)
        top: list[int] = []
        try:
            self.each(
                self.cards_at(("setup", "deck"), setup.get("deck")),
                lambda i, t: top.append(self.card(t, ("setup", "deck", i))),
            )
            self.each(
                self.cards_at(("setup", "scrap"), setup.get("scrap")),
                lambda i, t: self.place(self.card(t, ("setup", "scrap", i)), SCRAP),
            )
        except ScenarioError as e:
            self.problems.append(e)
        if self.problems:  # every card is read; what follows needs them all in their places
            raise ScenarioErrors(self.problems)
        self.unplaced(setup.get("unplaced", "deck" if _deal_leaves_a_deck(self.rules) else "hands"), top)
        for pname, p in self.seats.items():
            self.knows(pname, p, setup.get(pname) or {})
        self.match(setup.get("match"))
        self.turn_and_generator(setup)
        _set_turn_state(self.g, self.rules, setup, self.err)
        self.first_player(setup.get("first"))
        _set_card_state(self.g, self.rules, setup.get("cards"), self.card, self.err)
        self.game_starts(setup.get("game_starts", False))
        return self.finish()

    # -- reading cards -------------------------------------------------------------------------
    def err(self, msg: str, path: tuple, hint: str | None = None, at_key: bool = False) -> ScenarioError:
        """The error of the value at `path` (`at_key`: of the key itself, e.g. a card that is not one)."""
        return ScenarioError(msg, (self.key_where if at_key else self.where)(path), code="S002", hint=hint)

    def card(self, text: Any, path: tuple, again: bool = False, at_key: bool = False) -> int:
        """A card of the setup; `again`: one already placed, named once more (`knows:`); `at_key`: the
        card is a key of a mapping (`cards: {9S: ...}`), where its errors point."""
        try:
            c = parse_card(str(text))
        except UnknownCardError as e:
            raise self.err(str(e), path, at_key=at_key) from None
        if c not in self.universe:
            raise self.err(f"{NAMES[c]} is not in the deck of ruleset '{self.rules.name}'", path, at_key=at_key)
        if again:
            return c
        if c in self.placed:
            raise self.err(f"{NAMES[c]} is placed twice (also at {'.'.join(map(str, self.placed[c]))})", path)
        self.placed[c] = path
        return c

    def cards_at(self, path: tuple, value: Any) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.err(f"{'.'.join(path)} must be a list of cards, e.g. [7H, 10S]", path)
        return value

    def fits(self, c: int, role: str, path: tuple, what: str) -> None:
        """A card in play in a role no play of this ruleset gives its rank is an impossible position."""
        ranks = self.by_role.get(role)
        if ranks is not None and RANK_OF[c] not in ranks:
            raise self.err(
                f"{NAMES[c]} cannot be {what} in ruleset '{self.rules.name}' (only "
                f"{', '.join(r for r in ALL_RANKS if r in ranks)})",
                path,
            )

    def place(self, c: int, zone: int) -> None:
        self.g.zones[zone].append(c)
        self.g.zone_of[c] = zone

    # -- the parts of a setup --------------------------------------------------------------------
    def side(self, pname: str, p: int, side: Any) -> None:
        """A player's hand, Royals and point cards (each with its Jacks, bottom to top)."""
        g = self.g
        if not isinstance(side, dict):
            raise self.err(f"setup.{pname} must be a mapping (hand:, points:, royals:)", ("setup", pname))
        for k in side:
            if k not in SIDE_KEYS:
                msg, hint = _unknown_key(f"setup.{pname}", k, SIDE_KEYS)
                self.problems.append(self.err(msg, ("setup", pname, k), hint, at_key=True))
        hand = self.cards_at(("setup", pname, "hand"), side.get("hand"))
        self.each(hand, lambda i, t: self.place(self.card(t, ("setup", pname, "hand", i)), HANDS[p]))

        def royal(i: int, t: Any) -> None:  # `KS`, or a Royal with a Joker that took it: `KS+RJ` (`KS@p2+RJ`)
            path = ("setup", pname, "royals", i)
            if "+" in str(t):
                self.attached(p, pname, path, str(t), "royal")
                return
            c = self.card(t, path)
            self.fits(c, "royal", path, "a Royal")
            self.place(c, FIELDS[p])
            g.role[c], g.owner[c] = "royal", p

        for key in ROLE_KEYS:
            if side.get(key) is not None:
                self.in_roles(pname, p, key, side[key])
        self.each(self.cards_at(("setup", pname, "royals"), side.get("royals")), royal)
        self.each(
            self.cards_at(("setup", pname, "points"), side.get("points")), lambda i, t: self.point(p, pname, i, t)
        )

    def point(self, p: int, pname: str, i: int, t: Any) -> None:
        """A point card of a side, with its Jacks (bottom to top): `"7H+JC"`."""
        self.attached(p, pname, ("setup", pname, "points", i), str(t), "point")

    def attached(self, p: int, pname: str, path: tuple, text: str, role: str) -> None:
        """A card in play with the cards on it, bottom to top (`"7H+JC"`, a Royal a Joker took: `"KS+RJ"`),
        controlled by this player. The attached cards alternate owners, the top one this player's, with
        the player's first opponent clockwise (the other player, in a two-seat game); `CARD@pN` names a
        card's owner instead (`"7H@p3+JC"`: the 7H is p3's)."""
        g, named = self.g, [self.owned(x, path) for x in text.split("+")]
        base, owner = named[0]
        tops = [c for c, _ in named[1:]]
        self.fits(base, role, path, "a point card" if role == "point" else "a Royal")
        for j in tops:
            self.fits(
                j, "jack" if role == "point" else "royal", path, "on a point card" if role == "point" else "on a Royal"
            )
        other = self.rules.opponent_of[p]
        n = len(tops)
        owners = [o if o is not None else (p if (n - 1 - k) % 2 == 0 else other) for k, (_, o) in enumerate(named[1:])]
        base_owner = owner if owner is not None else (p if n % 2 == 0 else other)
        self.place(base, FIELDS[p])
        g.role[base], g.owner[base] = role, base_owner
        for j, o in zip(tops, owners, strict=True):
            self.place(j, FIELDS[o])  # (a card attached is in play in front of its owner)
            g.role[j], g.owner[j], g.host[j] = "jack" if role == "point" else "royal", o, base
            g.atts.setdefault(base, []).append(j)

    def owned(self, text: str, path: tuple) -> tuple[int, int | None]:
        """A card of a stack, and the owner `@pN` names (None: the default)."""
        card, _, who = text.partition("@")
        if who and who not in self.seats:
            raise self.err(f"'{text}': {who} is not a player of this table ({', '.join(self.seats)})", path)
        return self.card(card, path), (self.seats[who] if who else None)

    def in_roles(self, pname: str, p: int, key: str, spec: Any) -> None:
        """`roles:`, `face_down:` or `unseen:` of a side: cards in front of the player in roles of the
        ruleset, face up, face down seen by the player (its owner), or face down seen by nobody."""
        g, path = self.g, ("setup", pname, key)
        if not isinstance(spec, dict) or not spec:
            raise self.err(f"setup.{pname}.{key} must map roles to cards, e.g. {{vault: [7H]}}", path)
        roles = sorted(self.rules.ctx.roles - {"jack"})
        for role, cards in spec.items():
            where = path + (role,)
            if key == "roles" and role in ("point", "royal"):
                raise self.err(f"setup.{pname}.roles: write {role} cards under {role}s:", where, at_key=True)
            if role not in roles:
                near = suggest(str(role), roles)
                raise self.err(
                    f"setup.{pname}.{key}: '{role}' is not a role of ruleset '{self.rules.name}'",
                    where,
                    f"did you mean '{near}'?" if near else f"its roles: {', '.join(roles)}",
                    at_key=True,
                )
            for i, t in enumerate(self.cards_at(where, cards)):
                c = self.card(t, where + (i,))
                self.fits(c, role, where + (i,), f"put in play as {role}")
                self.place(c, FIELDS[p])
                g.role[c], g.owner[c] = role, p
                if key != "roles":  # face down: known to the player (`face_down`) or to nobody (`unseen`)
                    g.down |= 1 << c
                    if key == "face_down":
                        g.known |= 1 << ((c << 2) + p)

    def unplaced(self, to: Any, top: list[int]) -> None:
        """The cards the setup does not place (`unplaced:` deck, scrap or hands), then the deck's
        listed top. Cards the ruleset gives a player besides the deal (deal.extra) are in their hand
        unless placed."""
        rules, g = self.rules, self.g
        extra = getattr(rules, "deal_extra", ())
        for p, given in enumerate(extra):
            for c in given:
                if c not in self.placed:
                    self.placed[c] = ("deal", "extra", PLAYER_NAMES_BY_INDEX[p])
                    self.place(c, HANDS[p])
        rest = [c for c in rules.deck_cards if c not in self.placed]
        if to not in UNPLACED:
            choices = f"{', '.join(UNPLACED[:-1])} or {UNPLACED[-1]}"
            raise self.err(f"setup.unplaced must be {choices}", ("setup", "unplaced"))
        if to != "scrap":
            g.rng.shuffle(rest)
        if to == "hands":  # dealt as the ruleset deals: each hand up to its size, the rest to the scrap
            seats = range(rules.seats)
            sizes = [rules.deal_sizes[p] + (len(extra[p]) if p < len(extra) else 0) for p in seats]
            p = 0
            while rest and any(len(g.zones[HANDS[q]]) < sizes[q] for q in seats):
                if len(g.zones[HANDS[p]]) < sizes[p]:
                    self.place(rest.pop(), HANDS[p])
                p = rules.next_seat[p]
        for c in rest:
            self.place(c, DECK if to == "deck" else SCRAP)
        for c in reversed(top):
            self.place(c, DECK)

    def knows(self, pname: str, p: int, side: dict) -> None:
        """Hidden cards a player knows (engine/knowledge.py): only cards in the deck, the other hand, or
        face down in play."""
        for i, t in enumerate(self.cards_at(("setup", pname, "knows"), side.get("knows"))):
            c = self.card(t, ("setup", pname, "knows", i), again=True)
            z = self.g.zone_of[c]
            if not (z == DECK or IS_HAND[z] and z != HANDS[p]) and not self.g.down >> c & 1:
                raise self.err(
                    f"setup.{pname}.knows: {NAMES[c]} is not hidden from {pname} (only cards in the deck, "
                    f"another player's hand or face down in play can be known)",
                    ("setup", pname, "knows", i),
                )
            self.g.known |= 1 << ((c << 2) + p)

    def match(self, match: Any) -> None:
        """Hands already played in a match: {p1: 2, p2: 1}, and `draws: N` hands that ended in a draw."""
        if match is None:
            return
        if (
            not isinstance(match, dict)
            or set(match) - {*self.seats, "draws"}
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in match.values())
        ):
            raise self.err(
                "setup.match must be the hands won so far (and drawn), e.g. {p1: 2, p2: 1, draws: 1}",
                ("setup", "match"),
            )
        wins = tuple(int(match.get(k, 0)) for k in self.seats)
        if max(wins) >= self.rules.match_wins:
            raise self.err(
                f"setup.match: the match is already over (a player needs {self.rules.match_wins} hands)",
                ("setup", "match"),
            )
        draws = int(match.get("draws", 0))
        if sum(wins) + draws >= MAX_HANDS:
            raise self.err(f"setup.match: a match has at most {MAX_HANDS:,} hands (MAX_HANDS)", ("setup", "match"))
        self.g.wins = wins
        won = tuple(Outcome(p, Termination.SETUP) for p in range(len(wins)) for _ in range(wins[p]))
        self.g.hands = won + (Outcome(None, Termination.SETUP),) * draws

    def turn_and_generator(self, setup: dict) -> None:
        turn = setup.get("turn", "p1")
        if not isinstance(turn, str) or turn not in self.seats:
            raise self.err(f"setup.turn must be {' or '.join(self.seats)}", ("setup", "turn"))
        self.g.turn = PLAYERS[turn]
        if "rng" in setup:  # the generator's exact state, so that a written-out position replays exactly
            value = setup["rng"]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise self.err("setup.rng must be the generator state, a whole number", ("setup", "rng"))
            self.g.rng.s = value

    def first_player(self, value: Any) -> None:
        """`first: p1`: who moved first (`first player`, `P.turns`); by default, from the turn number:
        the player to move on an odd turn moved first, on an even turn the other."""
        g = self.g
        if value is None:
            g.first = (g.turn - g.turn_no + 1) % self.rules.seats
            return
        if not isinstance(value, str) or value not in self.seats:
            raise self.err(
                f"setup.first must be {' or '.join(self.seats)} (who moved first in this game)", ("setup", "first")
            )
        g.first = PLAYERS[value]

    def game_starts(self, value: Any) -> None:
        """`game_starts: true`: the `game starts` rules run first, for the player whose turn it is."""
        if not isinstance(value, bool):
            raise self.err("setup.game_starts must be true or false", ("setup", "game_starts"))
        if value and self.rules.triggers:
            me = self.g.turn
            self.g.frames.append([(fire("game"),), 0, {"me": me, "opponent": self.rules.opponent_of[me]}])

    def finish(self) -> State:
        """The first decision, and the check that nobody already stands at their goal."""
        rules, g = self.rules, self.g
        try:
            run(g)  # no win check here: winning is checked after each resolved effect (ruling 13), so a
            # position where a player already stands at their goal is refused below
        except CuttleError:
            raise
        except Exception as e:
            raise rule_failure(rules.name, "setting up the position", e) from None
        for pname, p in self.seats.items():
            try:
                score, goal = rules.score_of(g, p), rules.goal_of(g, p)
            except Exception:  # noqa: BLE001  a rule failing here fails, as a rule failure, at the first win check
                continue
            if score >= goal:
                raise self.err(
                    f"{pname} already stands at their goal ({score} points, goal {goal}): a setup is not "
                    "checked for a win, so the game would go on as if nobody had won",
                    ("setup", pname),
                    f"give {pname} fewer points, or reach the goal with a move of the scenario",
                )
        return g


def _set_turn_state(g: State, rules: Rules, setup: dict, err: Any) -> None:
    """The 9A keys of a setup: the turn number, the passes in a row, and each player's marks and counters."""
    if "turn_number" in setup:
        n = setup["turn_number"]
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 10**6:
            raise err("setup.turn_number must be a whole number from 1 (the first turn)", ("setup", "turn_number"))
        g.turn_no = n
    if "passes" in setup:  # passes in a row so far (a position written out in the middle of a deck-out)
        n = setup["passes"]
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < max(rules.passes_to_end, 1):
            raise err(
                f"setup.passes must be the passes in a row so far, from 0 to {max(rules.passes_to_end - 1, 0)}",
                ("setup", "passes"),
            )
        g.passes = n
    for pname, p in PLAYERS.items():
        side = setup.get(pname) or {} if p < rules.seats else {}
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
        c = card(text, path, again=True, at_key=True)
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
                at_key=True,
            )
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > 10**18:
            raise err(f"{where}.{name} must be a whole number", path + (name,))
        g.set_counter(key, str(name), v, 10**12)


__all__ = ["build_position", "PLAYERS", "Location"]
