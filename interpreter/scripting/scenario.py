"""Scenario files: a setup, moves and expectations, run like tests (`cuttle run FILE|DIR...`).

The format is documented in docs/scenarios.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.core.errors import (
    CuttleError,
    InvalidMoveError,
    LocatedError,
    MoveError,
    RulesetError,
    ScenarioError,
    ScenarioErrors,
    suggest,
)
from interpreter.core.files import FileProblem, read_text, scan_root
from interpreter.core.limits import MAX_SCENARIO_STEPS
from interpreter.engine.game import Game
from interpreter.rules import Rules, load_ruleset
from interpreter.rules.sources import resolve_spec
from interpreter.rules.yamlsrc import YamlDoc, load_yaml

from . import records
from .expectations import EXPECT_KEYS, PLAYERS, SIDE_EXPECT, Check, failing, read_expect
from .records import FORMAT as RECORD_FORMAT
from .setup import build_position

TOP_KEYS = ("name", "ruleset", "seed", "setup", "moves", "expect", "description")
STEP_FORMS = ("a move", "{move: MOVE}", "{expect: {...}}", "{illegal: MOVE, error: TEXT, by: p1}")


@dataclass
class Result:
    path: str
    name: str
    ok: bool
    failures: list[str] = field(default_factory=list)


def run_file(path: str | Path, ruleset_override: str | None = None, within: Path | None = None) -> Result:
    """Run one scenario file; `within`: the folder a file found by scanning may not lead out of."""
    path = str(path)
    try:
        text = read_text(path, "scenario", within)
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
    except ScenarioErrors as e:  # every problem of the file, each at its own line
        return Result(path, name, False, [x.render() for x in e.errors])
    except ScenarioError as e:
        return Result(path, name, False, [e.render()])
    except RulesetError as e:
        return Result(path, name, False, [e.render()])
    except CuttleError as e:  # a ruleset whose rules fail at run time, a record problem...: said with the file
        return Result(path, name, False, [f"{path}: {e}"])
    except Exception as e:  # a bug of ours must not hide the other scenarios behind a traceback
        return Result(path, name, False, [f"internal error while running this scenario: {type(e).__name__}: {e}"])


@dataclass
class _Step:
    kind: str  # move | expect | illegal
    where: str  # file:line:col of the step
    move: str = ""  # move, illegal: the move's text
    error: str | None = None  # illegal: text its error must contain
    by: int | None = None  # illegal: the player whose move it is (None: whoever decides)
    checks: list[Check] = field(default_factory=list)  # expect


def _read_steps(doc, data: dict, problems: list[LocatedError], seats: int = 2) -> list[_Step]:
    """Every step of `moves:`, read and validated before anything is played; each problem found is
    added to `problems` (every step is read)."""
    moves = data.get("moves")
    if moves is None:
        return []
    if not isinstance(moves, list):
        problems.append(ScenarioError("moves must be a list", doc.where(("moves",)), code="S003"))
        return []
    if len(moves) > MAX_SCENARIO_STEPS:
        many = f"more than {MAX_SCENARIO_STEPS:,} steps (MAX_SCENARIO_STEPS)"
        problems.append(ScenarioError(many, doc.where(("moves",)), code="S003"))
        return []
    steps = []
    for i, step in enumerate(moves):
        try:
            steps.append(_read_step(doc, i, step, problems, seats))
        except ScenarioError as e:
            problems.append(e)
    return steps


def _read_step(doc, i: int, step: object, problems: list[LocatedError], seats: int = 2) -> _Step:
    path = ("moves", i)
    loc = doc.where(path)
    at = str(loc) if loc is not None else f"{doc.file}: moves[{i}]"
    if isinstance(step, (str, int)) and not isinstance(step, bool) and str(step).strip():
        return _Step("move", at, move=str(step).strip())
    if not isinstance(step, dict) or not step:
        raise ScenarioError(f"a step is {', '.join(STEP_FORMS[:-1])} or {STEP_FORMS[-1]}", loc, code="S004")
    allowed = ("expect",) if "expect" in step else ("illegal", "error", "by") if "illegal" in step else ("move",)
    for k in step:
        if k not in allowed:
            near = suggest(str(k), allowed)
            raise ScenarioError(
                f"unknown key '{k}' in this step",
                doc.key_where(path + (k,)),
                code="S004",
                hint=f"did you mean '{near}'?" if near else f"a step has: {', '.join(allowed)}",
            )
    if "expect" in step:
        return _Step("expect", at, checks=read_expect(step["expect"], path + ("expect",), doc, problems, seats))
    key = allowed[0]
    text = step[key]
    if not isinstance(text, (str, int)) or isinstance(text, bool) or not str(text).strip():
        raise ScenarioError(f"{key}: must be a move, e.g. 'points 7H'", doc.where(path + (key,)), code="S004")
    error = step.get("error")
    if "error" in step and (not isinstance(error, (str, int)) or isinstance(error, bool) or not str(error).strip()):
        raise ScenarioError(
            "error: must be the text the move's error contains (an empty one matches every error)",
            doc.where(path + ("error",)),
            code="S004",
        )
    by = step.get("by")
    players = {k: p for k, p in PLAYERS.items() if p < seats}  # the players of the scenario's table
    if "by" in step and by not in players:
        who = " or ".join(players) if seats == 2 else f"a player, {', '.join(players)}"
        raise ScenarioError(f"by: must be {who} (whose move it is), not '{by}'", doc.where(path + ("by",)), code="S004")
    return _Step(key, at, move=str(text).strip(), error=None if error is None else str(error), by=players.get(str(by)))


def _run(doc, data: dict, path: str, name: str, ruleset_override: str | None) -> Result:
    if data.get("format") == RECORD_FORMAT:
        raise ScenarioError(
            "this is a saved game record, not a scenario",
            doc.key_where(("format",)),
            code="S003",
            hint="step through it with `cuttle replay FILE` (or `cuttle replay FILE --print`)",
        )
    game, steps, final = _prepare(doc, data, path, ruleset_override)
    return _play(doc, game, steps, final, path, name)


def _prepare(doc, data: dict, path: str, ruleset_override: str | None) -> tuple[Game, list[_Step], list[Check] | None]:
    """The game at the scenario's start, its steps and its final expectations, every part of the file
    read before anything is played: every problem found is reported at once (ScenarioErrors)."""
    problems: list[LocatedError] = []
    for k in data:
        if k not in TOP_KEYS:
            near = suggest(k, TOP_KEYS)
            hint = f"did you mean '{near}'?" if near else f"expected one of: {', '.join(TOP_KEYS)}"
            if k in ("plays", "kind", "extends", "deck", "responses", "kinds", "define"):
                hint = "this looks like a ruleset: check it with `cuttle check FILE`, use it with --ruleset FILE"
            problems.append(ScenarioError(f"unknown key '{k}'", doc.key_where((k,)), code="S003", hint=hint))
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        problems.append(ScenarioError("seed must be a whole number", doc.where(("seed",)), code="S003"))
        seed = 0
    rules = None
    spec = ruleset_override or str(data.get("ruleset", "default"))
    try:
        if ruleset_override is None:  # a file the scenario names: beside it or below, nowhere else
            spec = resolve_spec(spec, Path(path))
        rules = load_ruleset(spec)
    except RulesetError as e:
        if e.where is None and "ruleset" in data and ruleset_override is None:
            e = RulesetError(e.message, doc.where(("ruleset",)), code=e.code, hint=e.hint)
        problems.append(e)
    seats = rules.seats if rules is not None else 2  # (p3 is a player only at a table of three or four)
    steps = _read_steps(doc, data, problems, seats)
    final = read_expect(data["expect"], ("expect",), doc, problems, seats) if "expect" in data else None
    game = None
    if rules is not None:
        try:
            game = _first_position(rules, data, seed, doc)
        except ScenarioErrors as e:
            problems += e.errors
        except ScenarioError as e:
            problems.append(e)
    if problems:
        raise ScenarioErrors(sorted(problems, key=_line_of))
    assert game is not None
    return game, steps, final


def _line_of(e: LocatedError) -> tuple[int, int]:
    return (e.where.line, e.where.column) if e.where is not None else (0, 0)


def _play(doc, game: Game, steps: list[_Step], final: list[Check] | None, path: str, name: str) -> Result:
    out: list[str] = []
    last = "the start"
    played: list[str] = []  # each move played, as the step that played it: "step 3 'resolve' (line 12)"
    for i, step in enumerate(steps):
        at = f"{step.where}: step {i + 1}"
        if step.kind == "move":
            try:
                game.play(step.move)
            except MoveError as e:
                out.append(f"{at}: move '{step.move}' was expected to be legal, but: {e}")
                break
            last = f"step {i + 1} '{step.move}'"
            line = step.where.rsplit(":", 2)[-2] if step.where.count(":") >= 2 else ""
            played.append(last + (f" (line {line})" if line.isdigit() else ""))
        elif step.kind == "expect":
            wrong = failing(game, step.checks)
            if wrong:
                out += [f"{c.at or step.where}: step {i + 1} (after {last}): {f}" for c, f in wrong]
                out += _diverged(game, [c for c, _ in wrong], played)
                break
        else:
            out += _check_illegal(game, step, at)
            if out:
                break
    if not out and final is not None:
        wrong = failing(game, final)
        out += [f"{c.at or doc.where(('expect',))}: final expectations (after {last}): {f}" for c, f in wrong]
        if wrong:
            out += _diverged(game, [c for c, _ in wrong], played)
    return Result(path, name, not out, out)


def _check_illegal(game: Game, step: _Step, at: str) -> list[str]:
    """`{illegal: MOVE, error: TEXT}`: the move is refused, with an error containing TEXT, and the game
    is unchanged. A text that is not a move of the ruleset at all tests nothing, so it fails."""
    out = []
    before = game.state.key()
    by = "" if step.by is None else f" for p{step.by + 1}"
    try:
        game.parse_move(step.move, step.by)
        out.append(f"{at}: '{step.move}' was expected to be illegal{by}, but it is legal")
    except InvalidMoveError as e:
        out.append(
            f"{at}: '{step.move}' was expected to be illegal, but it is not a move of this "
            f"ruleset, so this step tests nothing: {e}"
        )
    except MoveError as e:
        if step.error is not None and step.error.lower() not in str(e).lower():
            out.append(
                f"{at}: '{step.move}' is illegal as expected, but its error\n"
                f"      {e}\n    does not contain '{step.error}'"
            )
    if game.state.key() != before:
        out.append(f"{at}: an illegal move changed the game")
    return out


def _diverged(game: Game, checks: list[Check], played: list[str]) -> list[str]:
    """Where the game left each failing expectation: the game is played again from its start and
    the expectation checked after every move, to name the step (the move of `moves:`, numbered as
    in the file, `played`) after which it stopped holding."""
    notes = []
    moves = game.moves
    for check in checks:
        if check.test(game) is None:
            continue
        again = Game(game.rules, game.initial.copy(), game.seed, game.setup)
        held = 0 if check.test(again) is None else None
        for n, m in enumerate(moves, 1):
            again.push(m)
            if check.test(again) is None:
                held = n
        if held is None:
            notes.append(f"    {check.key}: it did not hold at any point of the game")
        elif held < len(moves):
            since = "at the start" if held == 0 else f"after {played[held - 1]}"
            notes.append(f"    {check.key}: it held {since}; {played[held]} is where the game diverged from it")
    return notes


def collect(paths: list[str]) -> list[tuple[Path, Path | None]]:
    """Scenario files: each file named, and every `*.yaml` under a directory except ruleset files
    (a house ruleset kept beside the scenarios that use it, marked by `kind: base` or `kind: option`).
    Each comes with the folder it may not lead out of (a symlink found while scanning; core/files.py
    `scan_root`), None for a file named by the user."""
    files: list[tuple[Path, Path | None]] = []
    for p in paths:
        pp = Path(p)
        if pp.is_dir():
            root = scan_root(pp)
            files += [(x, root) for x in sorted(pp.rglob("*.yaml")) if not _is_ruleset_file(x, root)]
        else:
            files.append((pp, None))
    return files


def _is_ruleset_file(path: Path, root: Path) -> bool:
    try:
        text = read_text(path, "file", root)
    except FileProblem:
        return False  # run_file reports it
    if not re.search(r"^kind:\s*(base|option)\s*(#.*)?$", text, re.MULTILINE):
        return False
    return not re.search(r"^(setup|moves|expect):", text, re.MULTILINE)


def _first_position(rules: Rules, data: dict, seed: int, doc: YamlDoc) -> Game:
    """The game a scenario starts from: its setup's position (errors located in the file), or the deal
    of its seed."""
    if "setup" not in data:
        return Game.new(rules, seed)
    position = build_position(rules, data["setup"], seed, doc.where, doc.key_where)
    return Game(rules, position, seed, setup=data["setup"])


def scenario_game(path: str | Path) -> Game:
    """The game of a scenario file after its moves (its expectations are not checked): the position
    that `cuttle solve FILE` solves. Raises a ScenarioError/RulesetError/CuttleError naming the problem."""
    path = str(path)
    text = read_text(path, "scenario")
    doc = load_yaml(text, path, code="S001")
    data = doc.data
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a mapping (setup:, moves:, expect:)", doc.where(()), code="S001")
    rules = load_ruleset(resolve_spec(str(data.get("ruleset", "default")), Path(path)))
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioError("seed must be a whole number", doc.where(("seed",)), code="S003")
    game = _first_position(rules, data, seed, doc)
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
            raise ScenarioError(
                f"move {i + 1} '{text_move}' cannot be played: {e}", doc.where(("moves", i)), code="S004"
            ) from None
    return game


def load_position(path: str | Path, force: bool = False) -> tuple[Game, str]:
    """A game to play on from a file, and what the file is, in words: a saved game record (its moves
    replayed; `force`: under a ruleset changed since) or a scenario (its setup after its moves, as
    `scenario FILE --here` exports a position; its expectations are `cuttle run`'s business)."""
    path = str(path)
    text = read_text(path, "file")  # (a FileProblem says what is wrong with the file, in one line)
    doc = load_yaml(text, path, code="S001")
    data = doc.data
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        game = records.load(path, force=force)
        return game, f"a game record, {_count(len(game.moves), 'move')}"
    if isinstance(data, dict) and {"setup", "moves", "expect"} & set(data):
        game = scenario_game(path)
        moves = f"after its {_count(len(game.moves), 'move')}" if game.moves else "its setup"
        return game, f"a scenario, {moves} (`cuttle run {path}` checks its expectations)"
    raise ScenarioError(
        f"'{path}' is neither a game record (`save FILE`) nor a scenario (`scenario FILE --here`): "
        "it has no 'format: cuttle-record/1' and none of setup:, moves:, expect:",
        doc.where(()),
        code="S003",
    )


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


__all__ = [
    "run_file",
    "collect",
    "scenario_game",
    "load_position",
    "Result",
    "TOP_KEYS",
    "EXPECT_KEYS",
    "SIDE_EXPECT",
]
