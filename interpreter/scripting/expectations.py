"""The expectations of a scenario file (`expect:`): each key read and validated once, before any move
is played, into a check that a game either meets or fails with a message saying what was expected
and what is so. docs/scenarios.md documents every key; tests/test_expectations.py tests every key.

A key's value is checked as written: a number is a number (`hand_count: "1"` is an error, not a
silent mismatch), a player is p1 or p2, cards are cards, and an expectation that checks nothing
(`expect: {}`, `legal: []`) is refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

from interpreter.core.cards import NAMES, UnknownCardError, parse_card
from interpreter.core.errors import InvalidMoveError, LocatedError, Location, MoveError, ScenarioError, suggest
from interpreter.core.zones import CONTROLLER, FIELDS, HANDS, IS_FIELD, IS_HAND
from interpreter.engine.game import PLAYER_NAMES, Game
from interpreter.engine.knowledge import face_down, known_hidden, knows
from interpreter.engine.machine import CHOOSE_D, MAIN, PLAY_D, RESPOND
from interpreter.engine.state import DECK, SCRAP, SHOWN, STACK

PLAYERS = {"p1": 0, "p2": 1, "p3": 2, "p4": 3}  # (p3, p4: a table of three or four)
DECISIONS = (MAIN, RESPOND, CHOOSE_D, PLAY_D, "none")


class Check(NamedTuple):
    """One expectation, ready to test: `test(game)` is None when it holds, else what went wrong."""

    key: str  # as written: "turn", "p1.hand"
    test: Callable[[Game], str | None]
    at: Location | None = None  # where the file writes it (its key)


class _Reader:
    """Locates the values of one `expect:` mapping in the file, for error messages; `players`: those of
    the scenario's table (p1 and p2, and p3, p4 at a table of three or four)."""

    def __init__(self, doc: Any, path: tuple, seats: int = 2) -> None:
        self.doc, self.path = doc, path
        self.players = {k: p for k, p in PLAYERS.items() if p < seats}
        self.named = ", ".join(self.players)  # `p1, p2` (or `p1, p2, p3`...)

    def fail(self, key: tuple, message: str, hint: str | None = None, at_key: bool = False) -> ScenarioError:
        """The error of the value at `key` (`at_key`: of the key itself, e.g. a card that is not one)."""
        where = self.doc.key_where if at_key else self.doc.where
        return ScenarioError(message, where(self.path + key), code="S005", hint=hint)


# -- reading values --------------------------------------------------------------------------------


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (yes/no)"
    if isinstance(value, str):
        return f"the text '{value}'"
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


def _count(r: _Reader, key: tuple, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    name = ".".join(map(str, key))
    hint = "write the number without quotes" if isinstance(value, str) and value.strip().isdigit() else None
    raise r.fail(key, f"{name} must be a whole number (0 or more), not {_describe(value)}", hint)


def _choice(r: _Reader, key: tuple, value: Any, choices: tuple[str, ...]) -> str:
    if isinstance(value, str) and value in choices:
        return value
    near = suggest(str(value), choices)
    raise r.fail(
        key,
        f"{'.'.join(map(str, key))} must be one of {', '.join(choices)}, not {_describe(value)}",
        f"did you mean '{near}'?" if near else None,
    )


def _cards(r: _Reader, key: tuple, value: Any, *, empty_ok: bool) -> list[int]:
    name = ".".join(map(str, key))
    if not isinstance(value, list):
        raise r.fail(key, f"{name} must be a list of cards, e.g. [7H, 10S], not {_describe(value)}")
    if not value and not empty_ok:
        raise r.fail(key, f"{name} is empty, so it checks nothing: list the cards it must contain")
    out = []
    for i, v in enumerate(value):
        try:
            c = parse_card(str(v))
        except UnknownCardError as e:
            raise r.fail(key + (i,), str(e)) from None
        if c in out:
            raise r.fail(key + (i,), f"{NAMES[c]} is listed twice in {name}")
        out.append(c)
    return out


def _flag_map(r: _Reader, key: tuple, value: Any, example: str, item: str, ok: Callable[[Any], bool]) -> dict:
    name = ".".join(map(str, key))
    if not isinstance(value, dict) or not value:
        why = ", and this one is empty, so it checks nothing" if value == {} else f", not {_describe(value)}"
        raise r.fail(key, f"{name} must be a mapping such as {example}{why}")
    for k, v in value.items():
        if k not in r.players:
            raise r.fail(key + (k,), f"{name} has a key '{k}': its keys are {' and '.join(r.players)}", at_key=True)
        if not ok(v):
            raise r.fail(key + (k,), f"{name}.{k} must be {item}, not {_describe(v)}")
    return value


def _names(cards) -> str:
    return "[" + ", ".join(NAMES[c] for c in cards) + "]"


def _over(game: Game) -> str:
    """Why a game has no turn or decision any more, for a message about turns and decisions."""
    return f" (the game is over; {game.outcome})" if game.outcome is not None else ""


def _mismatch(what: str, expected: Any, got: Any) -> str:
    return f"{what}: expected {expected}, got {got}"


def _order_notes(game: Game, want: list[int], have: list[int]) -> str:
    """What differs between an ordered list of cards expected and the one there: each card missing
    and where it is, each card there but not expected, or that only the order differs."""
    notes = [f"{NAMES[c]} is missing ({_where(game, c)})" for c in want if c not in have]
    notes += [f"{NAMES[c]} is there but not expected" for c in have if c not in want]
    return ": " + "; ".join(notes or ["the same cards, in another order"])


def _cards_mismatch(game: Game, what: str, want: list[int], have: list[int]) -> str | None:
    """None if `have` holds exactly the cards `want` (in any order), else the two lists and, card by
    card, what differs: `7C is missing (on the stack)`, `10H is there but not expected`."""
    missing, extra = Counter(want) - Counter(have), Counter(have) - Counter(want)
    if not missing and not extra:
        return None
    diff = [f"{NAMES[c]} is missing ({_where(game, c)})" for c in sorted(missing)]
    diff += [f"{NAMES[c]} is there but not expected" for c in sorted(extra)]
    return _mismatch(what, _names(sorted(want)), _names(sorted(have))) + ": " + "; ".join(diff)


# -- the keys of `expect:` --------------------------------------------------------------------------


def _turn(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _choice(r, ("turn",), value, tuple(r.players))

    def test(game: Game) -> str | None:
        got = PLAYER_NAMES[game.state.turn]
        return None if got == want else _mismatch("turn", want, got + _over(game))

    return test


def _decider(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _choice(r, ("decider",), value, (*r.players, "nobody"))

    def test(game: Game) -> str | None:
        d = game.state.pending
        got = PLAYER_NAMES[d.player] if d is not None else "nobody"
        return None if got == want else _mismatch("decider", want, got + _over(game))

    return test


def _decision(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _choice(r, ("decision",), value, DECISIONS)

    def test(game: Game) -> str | None:
        d = game.state.pending
        got = d.kind if d is not None else "none"
        return None if got == want else _mismatch("decision", want, got + _over(game))

    return test


def _winner(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _choice(r, ("winner",), value, (*r.players, "draw", "none"))

    def test(game: Game) -> str | None:
        o = game.outcome
        got = "none" if o is None else ("draw" if o.winner is None else PLAYER_NAMES[o.winner])
        if got == want:
            return None
        return _mismatch("winner", want, f"{got} ({o.reason})" if o is not None else "none (the game goes on)")

    return test


def _winners(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    """`winners: [p1, p3]`: exactly the seats that won (a team, at a table with partners; one player
    alone; `[]` for a draw or a game that goes on)."""
    if not isinstance(value, list) or any(v not in r.players for v in value) or len(set(value)) != len(value):
        raise r.fail(("winners",), f"winners must be a list of players such as [p1, p3], not {_describe(value)}")
    want = sorted(value)

    def test(game: Game) -> str | None:
        o = game.outcome
        got = sorted(PLAYER_NAMES[s] for s in (o.winners if o is not None else ()))
        if got == want:
            return None
        return _mismatch("winners", "[" + ", ".join(want) + "]", "[" + ", ".join(got) + "]")

    return test


def _scrap(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _cards(r, ("scrap",), value, empty_ok=True)

    def test(game: Game) -> str | None:
        return _cards_mismatch(game, "scrap", want, game.state.zones[SCRAP])

    return test


def _stack(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _cards(r, ("stack",), value, empty_ok=True)

    def test(game: Game) -> str | None:
        have = list(game.state.zones[STACK])
        if list(want) == have:
            return None
        return _mismatch("stack (bottom first)", _names(want), _names(have)) + _order_notes(game, want, have)

    return test


def _scrap_has(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _cards(r, ("scrap_has",), value, empty_ok=False)

    def test(game: Game) -> str | None:
        have = game.state.zones[SCRAP]
        missing = [c for c in want if c not in have]
        return (
            None
            if not missing
            else (f"scrap to contain {_names(want)}, but {_names(missing)} not in it: got {_names(sorted(have))}")
        )

    return test


def _deck_top(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _cards(r, ("deck_top",), value, empty_ok=False)

    def test(game: Game) -> str | None:
        top = list(reversed(game.state.zones[DECK]))[: len(want)]
        if top == want:
            return None
        deck = list(reversed(game.state.zones[DECK]))
        notes = [
            f"{NAMES[c]} is {_where(game, c)}" + (f", card {deck.index(c) + 1} from the top" if c in deck else "")
            for c in want
            if c not in top
        ]
        notes += [f"{NAMES[c]} is there but not expected" for c in top if c not in want]
        if not notes:
            notes = ["the same cards, in another order"]
        return _mismatch("deck top (top card first)", _names(want), _names(top)) + ": " + "; ".join(notes)

    return test


def _deck_count(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _count(r, ("deck_count",), value)

    def test(game: Game) -> str | None:
        got = len(game.state.zones[DECK])
        return None if got == want else _mismatch("deck count", want, got)

    return test


def _moves(r: _Reader, key: str, value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise r.fail((key,), f"{key} is empty, so it checks nothing: list the moves")
    for i, m in enumerate(items):
        if not isinstance(m, str) or not m.strip():
            raise r.fail(
                (key, i) if isinstance(value, list) else (key,),
                f"{key} must be a move or a list of moves, e.g. [draw, points 7H], not {_describe(m)}",
            )
    return [m.strip() for m in items]


def _is_legal(game: Game, text: str, by: int | None = None) -> tuple[bool, str]:
    """Whether a move is legal now (`by`: as that player's move), and the reason it is not. A text that
    is not a move of this ruleset at all (no such verb, not a card) is a mistake of the file, not an
    illegal move; an incomplete move (`discard 3H` where two cards are due) is illegal as written."""
    try:
        game.parse_move(text, by)
    except InvalidMoveError as e:
        raise _NotAMove(str(e)) from None
    except MoveError as e:
        return False, str(e)
    return True, ""


class _NotAMove(Exception):
    pass


def _legal(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _move_items(r, "legal", value, ("by",))

    def test(game: Game) -> str | None:
        bad = []
        for m, _, by in want:
            try:
                ok, why = _is_legal(game, m, by)
            except _NotAMove as e:
                bad.append(f"'{m}' to be legal, but it is not a move of this ruleset: {e}")
                continue
            if not ok:
                why = why if by is not None and game.state.pending is not None else game.explain(m)
                bad.append(_mismatch(f"'{m}'{_by(by)} to be legal", "legal", f"illegal ({why})"))
        return "; ".join(bad) or None

    return test


def _by(by: int | None) -> str:
    return "" if by is None else f" by {PLAYER_NAMES[by]}"


def _move_items(r: _Reader, key: str, value: Any, extra: tuple[str, ...]) -> list[tuple[str, str | None, int | None]]:
    """The items of `legal:` or `illegal:`: a move, or a mapping {move: MOVE} with the keys of `extra`:
    `error: TEXT` (the move's error must contain TEXT, any case), `by: p1|p2` (the move as that
    player's: illegal while the other player decides). (move, error, player) each."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise r.fail((key,), f"{key} is empty, so it checks nothing: list the moves")
    form = "{move: MOVE, " + ", ".join(f"{k}: {'TEXT' if k == 'error' else 'p1'}" for k in extra) + "}"
    out: list[tuple[str, str | None, int | None]] = []
    for i, m in enumerate(items):
        at = (key, i) if isinstance(value, list) else (key,)
        if isinstance(m, dict):
            move, error, by = m.get("move"), m.get("error"), m.get("by")
            wrong = set(m) - {"move", *extra}
            if (
                wrong
                or "move" not in m
                or len(m) < 2
                or not isinstance(move, str)
                or not move.strip()
                or ("error" in m and (not isinstance(error, str) or not error.strip()))
                or ("by" in m and by not in r.players)
            ):
                raise r.fail(at, f"a move of {key} with more to check is written {form}, not {_describe_map(m)}")
            out.append((move.strip(), None if error is None else error.strip(), None if by is None else r.players[by]))
        elif isinstance(m, str) and m.strip():
            out.append((m.strip(), None, None))
        else:
            raise r.fail(
                at, f"{key} must be a move or a list of moves, e.g. [draw, points 7H], or {form}, not {_describe(m)}"
            )
    return out


def _describe_map(m: dict) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in m.items()) + "}"


def _illegal(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _move_items(r, "illegal", value, ("error", "by"))

    def test(game: Game) -> str | None:
        bad = []
        for m, error, by in want:
            try:
                ok, why = _is_legal(game, m, by)
            except _NotAMove as e:
                bad.append(f"'{m}' to be illegal, but it is not a move of this ruleset, so it tests nothing: {e}")
                continue
            if ok:
                bad.append(_mismatch(f"'{m}'{_by(by)} to be illegal", "illegal", "legal"))
            elif error is not None and error.lower() not in why.lower():
                bad.append(f"'{m}' to be illegal with an error containing '{error}', but its error is: {why}")
        return "; ".join(bad) or None

    return test


def _legal_exactly(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _moves(r, "legal_exactly", value)

    def test(game: Game) -> str | None:
        norm = []
        for m in want:
            try:
                norm.append(str(game.parse_move(m)))
            except InvalidMoveError as e:
                return f"'{m}' in legal_exactly is not a move of this ruleset: {e}"
            except MoveError:
                norm.append(" ".join(m.split()))
        have = [str(m) for m in game.legal_moves()]
        missing = [m for m in norm if m not in have]
        extra = [m for m in have if m not in norm]
        if not missing and not extra:
            return None
        parts = ([f"not legal: {', '.join(missing)}"] if missing else []) + (
            [f"also legal: {', '.join(extra)}"] if extra else []
        )
        return f"legal moves exactly [{', '.join(norm)}], but {'; '.join(parts)}"

    return test


def _owner(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    name = "owner"
    if not isinstance(value, dict) or not value:
        why = ", and this one is empty, so it checks nothing" if value == {} else f", not {_describe(value)}"
        raise r.fail((name,), "owner must be a mapping of cards to p1, p2 or nobody, e.g. {7H: p1, KS: p2}" + why)
    want: dict[int, str] = {}
    for k, v in value.items():
        try:
            c = parse_card(str(k))
        except UnknownCardError as e:
            raise r.fail((name, k), str(e), at_key=True) from None
        if v not in (*r.players, "nobody"):
            raise r.fail(
                (name, k), f"owner.{k} must be {', '.join(r.players)} or nobody (not in play), not {_describe(v)}"
            )
        want[c] = v

    def test(game: Game) -> str | None:
        g = game.state
        bad = []
        for c, w in want.items():
            o = g.owner[c] if IS_FIELD[g.zone_of[c]] else -1
            got = PLAYER_NAMES[o] if o >= 0 else "nobody"
            if got != w:
                where = f"controlled by {PLAYER_NAMES[CONTROLLER[g.zone_of[c]]]}" if o >= 0 else "not in play"
                bad.append(_mismatch(f"owner of {NAMES[c]}", w, f"{got} ({where})"))
        return "; ".join(bad) or None

    return test


def _match(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _flag_map(
        r,
        ("match",),
        value,
        "{p1: 1, p2: 0} (hands won)",
        "a whole number of hands won",
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    )

    def test(game: Game) -> str | None:
        wins = game.state.wins
        got = {k: wins[PLAYERS[k]] if PLAYERS[k] < len(wins) else None for k in want}
        return None if got == want else _mismatch("hands won", want, {PLAYER_NAMES[p]: n for p, n in enumerate(wins)})

    return test


def _hand_number(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _count(r, ("hand_number",), value)

    def test(game: Game) -> str | None:
        got = game.match().hand
        return None if got == want else _mismatch("hand number", want, got)

    return test


def _hand_visible(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    if len(r.players) == 2:
        example, item = "{p1: true, p2: false} (who sees the other's hand)", "true or false"
    else:  # a larger table: the other players whose hands a player sees
        example = "{p1: true, p2: false} (who sees the other's hand), or {p1: [p2, p3]} (whose hands p1 sees)"
        item = "true or false, or a list of the players whose hands it sees"
    want = _flag_map(
        r,
        ("hand_visible",),
        value,
        example,
        item,
        lambda v: isinstance(v, bool) or isinstance(v, list) and all(x in r.players for x in v),
    )

    def test(game: Game) -> str | None:
        bad = []
        g, rules = game.state, game.rules
        for k, v in want.items():
            p = PLAYERS[k]
            if p >= rules.seats:
                bad.append(f"there is no {k} at this table of {rules.seats}")
            elif isinstance(v, list):  # exactly these other players' hands
                hands = [PLAYER_NAMES[o] for o in rules.order_from[p][1:] if rules.hand_visible(g, p, o)]
                if sorted(hands) != sorted(v):
                    bad.append(_mismatch(f"the hands {k} sees", sorted(v), sorted(hands)))
            elif (seen := bool(rules.hand_visible(g, p))) != v:
                bad.append(_mismatch(f"{k} to {'see' if v else 'not see'} the opponent's hand", v, seen))
        return "; ".join(bad) or None

    return test


# -- the keys of `p1:` and `p2:` ------------------------------------------------------------------

SideTest = Callable[[Game, int, str], str | None]


def _hand(r: _Reader, key: tuple, value: Any) -> SideTest:
    want = _cards(r, key, value, empty_ok=True)

    def test(game: Game, p: int, pname: str) -> str | None:
        return _cards_mismatch(game, f"{pname} hand", want, game.state.zones[HANDS[p]])

    return test


def _hand_has(r: _Reader, key: tuple, value: Any) -> SideTest:
    want = _cards(r, key, value, empty_ok=False)

    def test(game: Game, p: int, pname: str) -> str | None:
        have = game.state.zones[HANDS[p]]
        missing = [c for c in want if c not in have]
        return (
            None
            if not missing
            else (
                f"{pname} hand to contain {_names(want)}, but {_names(missing)} not in it: got {_names(sorted(have))}"
            )
        )

    return test


def _hand_count(r: _Reader, key: tuple, value: Any) -> SideTest:
    want = _count(r, key, value)

    def test(game: Game, p: int, pname: str) -> str | None:
        got = len(game.state.zones[HANDS[p]])
        return None if got == want else _mismatch(f"{pname} hand count", want, got)

    return test


def _point_text(game: Game, c: int, with_jacks: bool) -> str:
    g = game.state
    return NAMES[c] + ("".join("+" + NAMES[j] for j in g.atts.get(c, [])) if with_jacks else "")


def _points(r: _Reader, key: tuple, value: Any) -> SideTest:
    name = ".".join(map(str, key))
    if not isinstance(value, list):
        raise r.fail(key, f'{name} must be a list of point cards, e.g. [7H, "9C+JD"], not {_describe(value)}')
    # point card -> its text with exactly its Jacks ("9C" has none), or None for "9C+*" (one Jack or more)
    want: dict[int, str | None] = {}
    for i, item in enumerate(value):
        parts = str(item).split("+")
        any_jacks = len(parts) == 2 and parts[1] == "*"
        try:
            cs = [parse_card(x) for x in (parts[:1] if any_jacks else parts)]
        except UnknownCardError as e:
            raise r.fail(key + (i,), str(e)) from None
        if cs[0] in want:
            raise r.fail(key + (i,), f"{NAMES[cs[0]]} is listed twice in {name}")
        want[cs[0]] = None if any_jacks else "+".join(NAMES[c] for c in cs)

    def test(game: Game, p: int, pname: str) -> str | None:
        g = game.state
        got = [c for c in g.zones[FIELDS[p]] if g.role[c] == "point" and g.host[c] < 0 and not g.is_face_down(c)]
        same = set(got) == set(want) and all(
            _point_text(game, c, True) == w if w is not None else bool(g.atts.get(c)) for c, w in want.items()
        )
        if same:
            return None
        expected = sorted(w or NAMES[c] + "+*" for c, w in want.items())
        notes = [f"{NAMES[c]} is missing ({_where_point(game, c)})" for c in want if c not in got]
        notes += [f"{_point_text(game, c, True)} is there but not expected" for c in got if c not in want]
        notes += [
            f"{NAMES[c]} has " + (f"the Jacks {_point_text(game, c, True)}" if g.atts.get(c) else "no Jack")
            for c, w in want.items()
            if c in got and (w is None and not g.atts.get(c) or w is not None and _point_text(game, c, True) != w)
        ]
        return _mismatch(
            f"{pname} points",
            "[" + ", ".join(expected) + "]",
            "[" + ", ".join(sorted(_point_text(game, c, True) for c in got)) + "]",
        ) + (": " + "; ".join(notes) if notes else "")

    return test


def _royals(r: _Reader, key: tuple, value: Any) -> SideTest:
    """The Royals in front of a player, exactly; `"KS+RJ"`: the KS with a Joker that took it on it."""
    items = value if isinstance(value, list) else None
    stacked = {str(x).split("+")[0]: str(x).upper() for x in items or () if "+" in str(x)}
    want = _cards(r, key, [str(x).split("+")[0] for x in items] if items is not None else value, empty_ok=True)

    def test(game: Game, p: int, pname: str) -> str | None:
        g = game.state
        got = [c for c in g.zones[FIELDS[p]] if g.role[c] == "royal" and g.host[c] < 0 and not g.is_face_down(c)]
        missed = _cards_mismatch(game, f"{pname} royals", want, got)
        if missed is not None:
            return missed
        for c in got:  # each Royal with exactly the cards on it the expectation names
            now = "+".join([NAMES[c], *(NAMES[x] for x in g.atts.get(c, ()))])
            named = next((t for k, t in stacked.items() if parse_card(k) == c), NAMES[c])
            if now != "+".join(NAMES[parse_card(x)] for x in named.split("+")):
                return _mismatch(f"{pname} royal {NAMES[c]}", named, now)
        return None

    return test


def _by_role(r: _Reader, key: tuple, value: Any, down: bool) -> SideTest:
    """`roles: {vault: [7H]}` (the cards face up in each role named) or `face_down: {vault: [9S]}` (the
    cards face down in each role named): exactly these, in any order (`[]` for none)."""
    name = ".".join(map(str, key))
    if not isinstance(value, dict) or not value:
        why = ", and this one is empty, so it checks nothing" if value == {} else f", not {_describe(value)}"
        raise r.fail(key, f"{name} must map roles to cards, e.g. {{vault: [7H]}}{why}")
    want = {str(role): _cards(r, key + (role,), cards, empty_ok=True) for role, cards in value.items()}

    def test(game: Game, p: int, pname: str) -> str | None:
        g = game.state
        bad = []
        for role, cards in want.items():
            got = [c for c in g.zones[FIELDS[p]] if g.role[c] == role and g.host[c] < 0 and g.is_face_down(c) == down]
            what = f"{pname} {'face-down' if down else 'face-up'} {role} cards"
            if (msg := _cards_mismatch(game, what, cards, got)) is not None:
                bad.append(msg)
        return "; ".join(bad) or None

    return test


def _roles(r: _Reader, key: tuple, value: Any) -> SideTest:
    return _by_role(r, key, value, False)


def _face_down(r: _Reader, key: tuple, value: Any) -> SideTest:
    return _by_role(r, key, value, True)


def _score(r: _Reader, key: tuple, value: Any) -> SideTest:
    want = _count(r, key, value)

    def test(game: Game, p: int, pname: str) -> str | None:
        got = game.score(p)
        return None if got == want else _mismatch(f"{pname} score", want, got)

    return test


def _goal(r: _Reader, key: tuple, value: Any) -> SideTest:
    want = _count(r, key, value)

    def test(game: Game, p: int, pname: str) -> str | None:
        got = game.goal(p)
        return None if got == want else _mismatch(f"{pname} goal", want, got)

    return test


def _known_now(game: Game, p: int) -> set[int]:
    """The hidden cards (the deck, the opponent's hand, the cards face down in play) player `p` knows
    now (engine/knowledge.py)."""
    g = game.state
    down = {c for q in range(game.rules.seats) for c in face_down(g, q) if knows(g, p, c)}
    if game.rules.seats > 2:  # every other player's hand and the deck, card by card
        hidden = [c for z in (DECK, *(HANDS[q] for q in range(game.rules.seats) if q != p)) for c in g.zones[z]]
        return {c for c in hidden if knows(g, p, c)} | down
    hand, deck = known_hidden(g, p)
    return set(hand) | {c for _, c in deck} | down


def _hidden_from(game: Game, c: int, p: int) -> bool:
    """Whether card `c` is hidden from player `p` where it is: in the deck, the other hand, face down."""
    g = game.state
    z = g.zone_of[c]
    return z == DECK or IS_HAND[z] and z != HANDS[p] or g.is_face_down(c)


def _where(game: Game, c: int) -> str:
    z = game.state.zone_of[c]
    if IS_HAND[z]:
        return f"in {PLAYER_NAMES[CONTROLLER[z]]}'s hand"
    if IS_FIELD[z]:
        how = "in play" if not game.state.is_face_down(c) else "face down in play"
        return f"{how} ({PLAYER_NAMES[CONTROLLER[z]]})"
    return {DECK: "in the deck", SCRAP: "in the scrap", STACK: "on the stack", SHOWN: "revealed"}.get(
        z, "not in this game"
    )


def _where_point(game: Game, c: int) -> str:
    """Where a point card expected in front of a player is: on the other side, or not in play."""
    g = game.state
    z = g.zone_of[c]
    if IS_FIELD[z] and g.role[c] == "point":
        return f"a point card of {PLAYER_NAMES[CONTROLLER[z]]}"
    if IS_FIELD[z]:
        return f"in play ({PLAYER_NAMES[CONTROLLER[z]]}) as {a_role(g.role[c])}"
    return _where(game, c)


def a_role(role: str | None) -> str:
    return {"royal": "a Royal", "jack": "a Jack"}.get(str(role), f"'{role}'")


def _knows(r: _Reader, key: tuple, value: Any) -> SideTest:
    want = _cards(r, key, value, empty_ok=True)

    def test(game: Game, p: int, pname: str) -> str | None:
        got = _known_now(game, p)
        if got == set(want):
            return None
        public = [
            f"{NAMES[c]} is not hidden from {pname} ({_where(game, c)})" for c in want if not _hidden_from(game, c, p)
        ]
        return _mismatch(
            f"{pname} knows (the hidden cards of the deck, the opponent's hand and face down in play)",
            _names(sorted(want)),
            _names(sorted(got)) + (": " + "; ".join(public) if public else ""),
        )

    return test


def _does_not_know(r: _Reader, key: tuple, value: Any) -> SideTest:
    want = _cards(r, key, value, empty_ok=False)

    def test(game: Game, p: int, pname: str) -> str | None:
        got = _known_now(game, p)
        bad = [f"{NAMES[c]} ({_where(game, c)})" for c in want if c in got or not _hidden_from(game, c, p)]
        return None if not bad else f"{pname} not to know {_names(want)}, but {pname} sees or knows " + ", ".join(bad)

    return test


GAME_CHECKS: dict[str, Callable[[_Reader, Any], Callable[[Game], str | None]]] = {
    "turn": _turn,
    "decider": _decider,
    "decision": _decision,
    "winner": _winner,
    "winners": _winners,
    "scrap": _scrap,
    "scrap_has": _scrap_has,
    "stack": _stack,
    "deck_top": _deck_top,
    "deck_count": _deck_count,
    "legal": _legal,
    "illegal": _illegal,
    "legal_exactly": _legal_exactly,
    "owner": _owner,
    "match": _match,
    "hand_number": _hand_number,
    "hand_visible": _hand_visible,
}
SIDE_CHECKS: dict[str, Callable[[_Reader, tuple, Any], SideTest]] = {
    "hand": _hand,
    "hand_has": _hand_has,
    "hand_count": _hand_count,
    "points": _points,
    "royals": _royals,
    "score": _score,
    "goal": _goal,
    "knows": _knows,
    "does_not_know": _does_not_know,
    "roles": _roles,
    "face_down": _face_down,
}


# -- turn state, marks and counters (issue 9A) -----------------------------------------------------


def _turn_number(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    want = _count(r, ("turn_number",), value)

    def test(game: Game) -> str | None:
        return None if game.state.turn_no == want else _mismatch("turn number", want, game.state.turn_no)

    return test


def _marks(r: _Reader, key: tuple, value: Any) -> SideTest:
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise r.fail(key, f"{'.'.join(map(str, key))} must be a list of mark names, e.g. [wronged] ([] for none)")
    want = sorted(value)

    def test(game: Game, p: int, pname: str) -> str | None:
        g = game.state
        got = sorted(name for (k, name) in g.marks if k == -1 - p and g.is_marked(k, name))
        return (
            None
            if got == want
            else _mismatch(f"{pname} marks", "[" + ", ".join(want) + "]", "[" + ", ".join(got) + "]")
        )

    return test


def _counters(r: _Reader, key: tuple, value: Any) -> SideTest:
    if (
        not isinstance(value, dict)
        or not value
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())
    ):
        raise r.fail(key, f"{'.'.join(map(str, key))} must map counter names to numbers, e.g. {{scuttles: 2}}")
    want = {str(k): v for k, v in value.items()}

    def test(game: Game, p: int, pname: str) -> str | None:
        declared = getattr(game.rules, "counters", {})
        bad = [k for k in want if declared.get(k) != "player"]
        if bad:
            return f"{pname} counters: '{bad[0]}' is not a counter of players in this ruleset"
        got = {k: game.state.counter(-1 - p, k) for k in want}
        return None if got == want else _mismatch(f"{pname} counters", want, got)

    return test


def _card_state(r: _Reader, value: Any) -> Callable[[Game], str | None]:
    """`cards: {9S: {marks: [frozen], counters: {uses: 1}}}`: exactly these marks on the card now (`[]`
    for none), and these counters' values."""
    example = "e.g. {9S: {marks: [frozen]}}"
    if not isinstance(value, dict) or not value:
        raise r.fail(("cards",), f"cards must map cards to their marks and counters, {example}")
    wants: list[tuple[int, str, list[str] | None, dict[str, int]]] = []
    for text, spec in value.items():
        key = ("cards", text)
        try:
            c = parse_card(str(text))
        except UnknownCardError as e:
            raise r.fail(key, str(e), at_key=True) from None
        if not isinstance(spec, dict) or not spec or set(spec) - {"marks", "counters"}:
            raise r.fail(key, f"cards.{text} must be a mapping of marks: and/or counters:, {example}")
        marks = spec.get("marks")
        if marks is not None and (not isinstance(marks, list) or not all(isinstance(m, str) for m in marks)):
            raise r.fail(key + ("marks",), f"cards.{text}.marks must be a list of mark names ([] for none)")
        counters = spec.get("counters", {})
        if not isinstance(counters, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in counters.values()
        ):
            raise r.fail(key + ("counters",), f"cards.{text}.counters must map counter names to numbers")
        wants.append((c, NAMES[c], None if marks is None else sorted(marks), {str(k): v for k, v in counters.items()}))

    def test(game: Game) -> str | None:
        g = game.state
        declared = getattr(game.rules, "counters", {})
        for c, name, marks, counters in wants:
            if marks is not None:
                got = sorted(m for (k, m) in g.marks if k == c and g.is_marked(k, m))
                if got != marks:
                    return _mismatch(f"{name} marks", "[" + ", ".join(marks) + "]", "[" + ", ".join(got) + "]")
            bad = [k for k in counters if declared.get(k) != "card"]
            if bad:
                return f"{name} counters: '{bad[0]}' is not a counter of cards in this ruleset"
            got_c = {k: g.counter(c, k) for k in counters}
            if got_c != counters:
                return _mismatch(f"{name} counters", counters, got_c)
        return None

    return test


GAME_CHECKS["turn_number"] = _turn_number
GAME_CHECKS["cards"] = _card_state
SIDE_CHECKS.update({"marks": _marks, "counters": _counters})

EXPECT_KEYS: tuple[str, ...] = (*GAME_CHECKS, *PLAYERS)
SIDE_EXPECT: tuple[str, ...] = tuple(SIDE_CHECKS)


def read_expect(
    value: Any, path: tuple, doc: Any, problems: list[LocatedError] | None = None, seats: int = 2
) -> list[Check]:
    """The checks of an `expect:` mapping at `path` of the file; a ScenarioError for anything that is
    not a valid expectation (an unknown key, a value of the wrong kind, an expectation of nothing).
    With `problems`, every problem is added to it (each key read in turn) instead of the first raised.
    `seats`: the players of the scenario's table (p3 is a player only at a table of three or four)."""
    r = _Reader(doc, path, seats)
    if not isinstance(value, dict):
        return _problem(
            problems,
            ScenarioError(
                "expect must be a mapping of expectations, e.g. {turn: p2, p1: {score: 7}}"
                + (", not nothing" if value is None else ""),
                doc.where(path),
                code="S005",
            ),
        )
    if not value:
        return _problem(
            problems,
            ScenarioError(
                "expect is empty, so it checks nothing: give at least one expectation", doc.where(path), code="S005"
            ),
        )
    checks: list[Check] = []
    for key, want in value.items():
        try:
            if key in r.players:
                checks += _read_side(r, key, want, problems)
            elif key in GAME_CHECKS:
                checks.append(Check(key, GAME_CHECKS[key](r, want), doc.key_where(path + (key,))))
            else:
                keys = [k for k in EXPECT_KEYS if k not in PLAYERS or k in r.players]
                near = suggest(key, keys)
                raise ScenarioError(
                    f"unknown expectation '{key}'",
                    doc.key_where(path + (key,)),
                    code="S006",
                    hint=f"did you mean '{near}'?" if near else f"expected one of: {', '.join(keys)}",
                )
        except ScenarioError as e:
            _problem(problems, e)
    return checks


def _problem(problems: list[LocatedError] | None, e: ScenarioError) -> list[Check]:
    """Raise `e`, or add it to `problems` when they are being collected (no checks, then)."""
    if problems is None:
        raise e
    problems.append(e)
    return []


def _side_check(test: Any, p: int, pname: str) -> Callable[[Any], Any]:
    """The check of one side's expectation, bound to that side (a seat the table lacks: a failure)."""
    return lambda game: (
        test(game, p, pname) if p < game.rules.seats else f"there is no {pname} at this table of {game.rules.seats}"
    )


def _read_side(r: _Reader, pname: str, want: Any, problems: list[LocatedError] | None = None) -> list[Check]:
    if not isinstance(want, dict) or not want:
        raise r.fail(
            (pname,),
            f"{pname} must be a mapping of expectations (hand:, points:, score: ...)"
            + (", and this one is empty, so it checks nothing" if want == {} or want is None else ""),
        )
    p = PLAYERS[pname]
    out = []
    for key, w in want.items():
        try:
            if key not in SIDE_CHECKS:
                near = suggest(key, SIDE_EXPECT)
                raise ScenarioError(
                    f"unknown expectation '{key}' for {pname}",
                    r.doc.key_where(r.path + (pname, key)),
                    code="S006",
                    hint=f"did you mean '{near}'?" if near else f"expected one of: {', '.join(SIDE_EXPECT)}",
                )
            side_test = SIDE_CHECKS[key](r, (pname, key), w)
            out.append(
                Check(f"{pname}.{key}", _side_check(side_test, p, pname), r.doc.key_where(r.path + (pname, key)))
            )
        except ScenarioError as e:
            _problem(problems, e)
    return out


def failures(game: Game, checks: list[Check]) -> list[str]:
    """What does not hold of `checks` in `game`, one message each."""
    return [msg for c in checks if (msg := c.test(game)) is not None]


def failing(game: Game, checks: list[Check]) -> list[tuple[Check, str]]:
    """The checks that do not hold in `game`, each with what went wrong."""
    return [(c, msg) for c in checks if (msg := c.test(game)) is not None]


__all__ = ["Check", "read_expect", "failures", "failing", "EXPECT_KEYS", "SIDE_EXPECT", "PLAYERS"]
