"""Scenario files: a setup, moves and expectations, run like tests (`cuttle run FILE|DIR...`).

The format is documented in docs/scenarios.md.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.core.cards import NAMES, UnknownCardError, parse_card
from interpreter.core.errors import CuttleError, MoveError, RulesetError, ScenarioError, suggest
from interpreter.core.files import FileProblem, read_text
from interpreter.core.limits import MAX_SCENARIO_STEPS
from interpreter.engine.game import PLAYER_NAMES, Game
from interpreter.engine.state import DECK, FIELD0, HAND0, SCRAP
from interpreter.rules import load_ruleset
from interpreter.rules.sources import resolve_spec
from interpreter.rules.yamlsrc import load_yaml

from .setup import PLAYERS, build_position

TOP_KEYS = ("name", "ruleset", "seed", "setup", "moves", "expect", "description")
EXPECT_KEYS = ("turn", "decider", "winner", "p1", "p2", "scrap", "scrap_has", "deck_top", "deck_count",
               "legal", "illegal", "decision", "match", "hand_number", "hand_visible")
SIDE_EXPECT = ("hand", "hand_count", "points", "royals", "score", "goal", "hand_has")


@dataclass
class Result:
    path: str
    name: str
    ok: bool
    failures: list[str] = field(default_factory=list)


class _Fail(Exception):
    pass


def run_file(path: str | Path, ruleset_override: str | None = None) -> Result:
    path = str(path)
    try:
        text = read_text(path, "scenario")
    except FileProblem as e:
        return Result(path, path, False, [str(e)])
    try:
        doc = load_yaml(text, path, code="S001")
    except RulesetError as e:
        return Result(path, path, False, [e.render()])
    data = doc.data
    name = Path(path).stem
    if not isinstance(data, dict):
        return Result(path, name, False, [f"{path}:1:1: [S001] a scenario must be a mapping (setup:, moves:, expect:)"])
    name = str(data.get("name", name))
    try:
        return _run(doc, data, path, name, ruleset_override)
    except ScenarioError as e:
        return Result(path, name, False, [e.render()])
    except RulesetError as e:
        return Result(path, name, False, [e.render()])
    except CuttleError as e:
        return Result(path, name, False, [str(e)])
    except Exception as e:  # a bug of ours must not hide the other scenarios behind a traceback
        return Result(path, name, False, [f"internal error while running this scenario: {type(e).__name__}: {e}"])


def _run(doc, data: dict, path: str, name: str, ruleset_override: str | None) -> Result:
    def where(p):
        return doc.where(p)

    for k in data:
        if k not in TOP_KEYS:
            near = suggest(k, TOP_KEYS)
            hint = f"did you mean '{near}'?" if near else f"expected one of: {', '.join(TOP_KEYS)}"
            if k in ("plays", "kind", "extends", "deck", "responses", "kinds", "define"):
                hint = "this looks like a ruleset: check it with `cuttle check FILE`, use it with --ruleset FILE"
            raise ScenarioError(f"unknown key '{k}'", doc.key_where((k,)), code="S003", hint=hint)
    spec = ruleset_override or str(data.get("ruleset", "default"))
    try:
        if ruleset_override is None:  # a file the scenario names: beside it or below, nowhere else
            spec = resolve_spec(spec, Path(path))
        rules = load_ruleset(spec)
    except RulesetError as e:
        if e.where is None and "ruleset" in data and ruleset_override is None:
            raise RulesetError(e.message, where(("ruleset",)), code=e.code, hint=e.hint) from None
        raise
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioError("seed must be a whole number", where(("seed",)), code="S003")
    if "setup" in data:
        state = build_position(rules, data["setup"], seed, where)
        game = Game(rules, state, seed, setup=data["setup"])
    else:
        game = Game.new(rules, seed)
    failures: list[str] = []
    moves = data.get("moves") or []
    if not isinstance(moves, list):
        raise ScenarioError("moves must be a list", where(("moves",)), code="S003")
    if len(moves) > MAX_SCENARIO_STEPS:
        raise ScenarioError(f"more than {MAX_SCENARIO_STEPS:,} steps (MAX_SCENARIO_STEPS)", where(("moves",)),
                            code="S003")
    last = "the start"
    for i, step in enumerate(moves):
        loc = where(("moves", i))
        at = f"{loc}: step {i + 1}"
        if isinstance(step, str) or isinstance(step, int):
            try:
                game.play(str(step))
            except MoveError as e:
                failures.append(f"{at}: move '{step}' was expected to be legal, but: {e}")
                break
            last = f"move {i + 1} '{step}'"
            continue
        if not isinstance(step, dict):
            raise ScenarioError("a step is a move, {expect: ...} or {illegal: MOVE, error: TEXT}", loc, code="S004")
        allowed = ("expect",) if "expect" in step else ("illegal", "error") if "illegal" in step else ("move",)
        for k in step:
            if k not in allowed:
                near = suggest(str(k), allowed)
                raise ScenarioError(f"unknown key '{k}' in this step", doc.key_where(("moves", i, k)), code="S004",
                                    hint=f"did you mean '{near}'?" if near else f"a step has: {', '.join(allowed)}")
        if "expect" in step:
            failures += [f"{at} (after {last}): {f}" for f in _check(game, step["expect"], ("moves", i, "expect"), doc)]
            if failures:
                failures += _diverged(game, step["expect"], ("moves", i, "expect"), doc)
                break
        elif "illegal" in step:
            before = game.state.key()
            try:
                game.parse_move(str(step["illegal"]))
                failures.append(f"{at}: '{step['illegal']}' was expected to be illegal, but it is legal")
            except MoveError as e:
                want = step.get("error")
                if want is not None and str(want).lower() not in str(e).lower():
                    failures.append(f"{at}: '{step['illegal']}' is illegal as expected, but its error\n"
                                    f"      {e}\n    does not contain '{want}'")
            if game.state.key() != before:
                failures.append(f"{at}: an illegal move changed the game")
            if failures:
                break
        elif "move" in step:
            try:
                game.play(str(step["move"]))
            except MoveError as e:
                failures.append(f"{at}: move '{step['move']}' was expected to be legal, but: {e}")
                break
            last = f"move {i + 1} '{step['move']}'"
        else:
            raise ScenarioError("a step is a move, {expect: ...} or {illegal: MOVE, error: TEXT}", loc, code="S004")
    if not failures and "expect" in data:
        failures += [f"{where(('expect',))}: final expectations (after {last}): {f}"
                     for f in _check(game, data["expect"], ("expect",), doc)]
        if failures:
            failures += _diverged(game, data["expect"], ("expect",), doc)
    return Result(path, name, not failures, failures)


def _diverged(game: Game, exp: Any, path: tuple, doc) -> list[str]:
    """Where the game left each failing expectation: the game is played again from its start and
    the expectation checked after every move, to name the move after which it stopped holding."""
    if not isinstance(exp, dict):
        return []
    notes = []
    moves = game.moves
    for key, want in exp.items():
        if not _check(game, {key: want}, path, doc):
            continue
        again = Game(game.rules, game.initial.copy(), game.seed, game.setup)
        held = 0 if not _check(again, {key: want}, path, doc) else None
        for n, m in enumerate(moves, 1):
            again.push(m)
            if not _check(again, {key: want}, path, doc):
                held = n
        if held is None:
            notes.append(f"    {key}: it did not hold at any point of the game")
        elif held < len(moves):
            since = "at the start" if held == 0 else f"after move '{moves[held - 1]}' (move {held} played)"
            notes.append(f"    {key}: it held {since}; move '{moves[held]}' (move {held + 1} played) "
                         f"is where the game diverged from it")
    return notes


def _cards(value: Any, loc) -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError("expected a list of cards", loc, code="S005")
    out = []
    for v in value:
        try:
            out.append(parse_card(str(v)))
        except UnknownCardError as e:
            raise ScenarioError(str(e), loc, code="S005") from None
    return out


def _names(cards) -> str:
    return "[" + ", ".join(NAMES[c] for c in cards) + "]"


def _check(game: Game, exp: Any, path: tuple, doc) -> list[str]:
    if not isinstance(exp, dict):
        raise ScenarioError("expect must be a mapping", doc.where(path), code="S005")
    g = game.state
    out: list[str] = []

    def bad(what: str, expected: Any, got: Any) -> None:
        out.append(f"{what}: expected {expected}, got {got}")

    for key, want in exp.items():
        loc = doc.where(path + (key,))
        if key not in EXPECT_KEYS:
            near = suggest(key, EXPECT_KEYS)
            raise ScenarioError(f"unknown expectation '{key}'", doc.key_where(path + (key,)), code="S006",
                                hint=f"did you mean '{near}'?" if near else
                                f"expected one of: {', '.join(EXPECT_KEYS)}")
        if key == "turn":
            got = PLAYER_NAMES[g.turn]
            if got != want:
                bad("turn", want, got)
        elif key == "decider":
            got = PLAYER_NAMES[g.pending.player] if g.pending else "nobody"
            if got != want:
                bad("decider", want, got)
        elif key == "decision":
            got = g.pending.kind if g.pending else "none"
            if got != want:
                bad("decision", want, got)
        elif key == "winner":
            o = game.outcome
            got = "none" if o is None else ("draw" if o.winner is None else PLAYER_NAMES[o.winner])
            if str(want) != got:
                bad("winner", want, got + (f" ({o.reason})" if o else ""))
        elif key in ("scrap", "scrap_has"):
            want_cards = _cards(want, loc)
            have = g.zones[SCRAP]
            if key == "scrap" and Counter(want_cards) != Counter(have):
                bad("scrap", _names(sorted(want_cards)), _names(sorted(have)))
            if key == "scrap_has" and not set(want_cards) <= set(have):
                bad("scrap to contain", _names(want_cards), _names(sorted(have)))
        elif key == "deck_top":
            want_cards = _cards(want, loc)
            top = list(reversed(g.zones[DECK]))[:len(want_cards)]
            if top != want_cards:
                bad("deck top", _names(want_cards), _names(top))
        elif key == "match":  # hands won in a match: {p1: 1, p2: 0}
            if not isinstance(want, dict) or set(want) - {"p1", "p2"}:
                raise ScenarioError("match must be a mapping {p1: N, p2: N} of hands won", loc, code="S005")
            got = {"p1": g.wins[0], "p2": g.wins[1]}
            if any(got[k] != v for k, v in want.items()):
                bad("hands won", want, got)
        elif key == "hand_visible":  # who sees the opponent's hand: {p1: true, p2: false}
            if not isinstance(want, dict) or set(want) - {"p1", "p2"}:
                raise ScenarioError("hand_visible must be a mapping {p1: true, p2: false}", loc, code="S005")
            for k, v in want.items():
                seen = game.rules.hand_visible(g, PLAYERS[k])
                if seen != bool(v):
                    bad(f"{k} to {'see' if v else 'not see'} the opponent's hand", bool(v), seen)
        elif key == "hand_number":  # which hand of a match is being played (1 for the first)
            got_n = game.match()["hand"]
            if got_n != want:
                bad("hand number", want, got_n)
        elif key == "deck_count":
            if len(g.zones[DECK]) != want:
                bad("deck count", want, len(g.zones[DECK]))
        elif key in ("legal", "illegal"):
            if not isinstance(want, list):
                want = [want]
            for m in want:
                ok = game.is_legal(str(m))
                if key == "legal" and not ok:
                    bad(f"'{m}' to be legal", "legal", f"illegal ({game.explain(str(m))})")
                if key == "illegal" and ok:
                    bad(f"'{m}' to be illegal", "illegal", "legal")
        else:  # p1 / p2
            p = PLAYERS[key]
            if not isinstance(want, dict):
                raise ScenarioError(f"{key} must be a mapping (hand:, points:, ...)", loc, code="S005")
            out += _check_side(game, p, key, want, path + (key,), doc)
    return out


def _check_side(game: Game, p: int, pname: str, want: dict, path: tuple, doc) -> list[str]:
    g = game.state
    out = []
    field_cards = g.zones[FIELD0 + p]
    for key, w in want.items():
        loc = doc.where(path + (key,))
        if key not in SIDE_EXPECT:
            near = suggest(key, SIDE_EXPECT)
            raise ScenarioError(f"unknown expectation '{key}' for {pname}", doc.key_where(path + (key,)),
                                code="S006", hint=f"did you mean '{near}'?" if near else
                                f"expected one of: {', '.join(SIDE_EXPECT)}")
        if key == "hand":
            wc, have = _cards(w, loc), g.zones[HAND0 + p]
            if Counter(wc) != Counter(have):
                out.append(f"{pname} hand: expected {_names(sorted(wc))}, got {_names(sorted(have))}")
        elif key == "hand_has":
            wc, have = _cards(w, loc), g.zones[HAND0 + p]
            if not set(wc) <= set(have):
                out.append(f"{pname} hand to contain {_names(wc)}, got {_names(sorted(have))}")
        elif key == "hand_count":
            if len(g.zones[HAND0 + p]) != w:
                out.append(f"{pname} hand count: expected {w}, got {len(g.zones[HAND0 + p])}")
        elif key == "points":
            if not isinstance(w, list):
                raise ScenarioError("points must be a list", loc, code="S005")
            got = [c for c in field_cards if g.role[c] == "point" and g.host[c] < 0]
            got_text = sorted(NAMES[c] + "".join("+" + NAMES[j] for j in g.atts.get(c, [])) for c in got)
            want_text = []
            for item in w:
                parts = str(item).split("+")
                try:
                    cs = [parse_card(x) for x in parts]
                except UnknownCardError as e:
                    raise ScenarioError(str(e), loc, code="S005") from None
                want_text.append("+".join(NAMES[c] for c in cs))
            cmp_got = [t if any("+" in x and x.split("+")[0] == t.split("+")[0] for x in want_text) else t.split("+")[0]
                       for t in got_text]
            if sorted(want_text) != sorted(cmp_got):
                out.append(f"{pname} points: expected [{', '.join(sorted(want_text))}], got [{', '.join(got_text)}]")
        elif key == "royals":
            wc = _cards(w, loc)
            got = [c for c in field_cards if g.role[c] not in ("point",) and g.host[c] < 0]
            if Counter(wc) != Counter(got):
                out.append(f"{pname} royals: expected {_names(sorted(wc))}, got {_names(sorted(got))}")
        elif key == "score":
            if game.score(p) != w:
                out.append(f"{pname} score: expected {w}, got {game.score(p)}")
        elif key == "goal":
            if game.goal(p) != w:
                out.append(f"{pname} goal: expected {w}, got {game.goal(p)}")
    return out


def collect(paths: list[str]) -> list[Path]:
    """Scenario files: each file named, and every `*.yaml` under a directory except ruleset files
    (a house ruleset kept beside the scenarios that use it, marked by `kind: base` or `kind: option`)."""
    files: list[Path] = []
    for p in paths:
        pp = Path(p)
        if pp.is_dir():
            files += sorted(x for x in pp.rglob("*.yaml") if not _is_ruleset_file(x))
        else:
            files.append(pp)
    return files


def _is_ruleset_file(path: Path) -> bool:
    try:
        text = read_text(path, "file")
    except FileProblem:
        return False  # run_file reports it
    if not re.search(r"^kind:\s*(base|option)\s*(#.*)?$", text, re.MULTILINE):
        return False
    return not re.search(r"^(setup|moves|expect):", text, re.MULTILINE)


__all__ = ["run_file", "collect", "Result"]


def scenario_game(path: str | Path) -> Game:
    """The game of a scenario file after its moves (its expectations are not checked): the position
    that `cuttle solve FILE` solves. Raises a ScenarioError/RulesetError/CuttleError naming the problem."""
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise CuttleError(f"cannot read {path}: {e.strerror}") from None
    doc = load_yaml(text, path, code="S001")
    data = doc.data
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a mapping (setup:, moves:, expect:)", doc.where(()), code="S001")
    spec = str(data.get("ruleset", "default"))
    if ("/" in spec or spec.endswith(".yaml")) and not Path(spec).is_absolute():
        spec = str(Path(path).parent / spec)
    rules = load_ruleset(spec)
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioError("seed must be a whole number", doc.where(("seed",)), code="S003")
    if "setup" in data:
        game = Game(rules, build_position(rules, data["setup"], seed, doc.where), seed, setup=data["setup"])
    else:
        game = Game.new(rules, seed)
    moves = data.get("moves") or []
    if not isinstance(moves, list):
        raise ScenarioError("moves must be a list", doc.where(("moves",)), code="S003")
    for i, step in enumerate(moves):
        text_move = step if isinstance(step, (str, int)) else step.get("move") if isinstance(step, dict) else None
        if text_move is None:
            continue  # an expectation or an illegal-move check
        try:
            game.play(str(text_move))
        except MoveError as e:
            raise ScenarioError(f"move {i + 1} '{text_move}' cannot be played: {e}", doc.where(("moves", i)),
                                code="S004") from None
    return game
