"""Game records: ruleset name and content hash, seed, optional setup, and the moves.

Replaying a record reproduces the game exactly; a record whose ruleset has changed since it was
saved is refused with a clear message instead of drifting silently.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from interpreter.core.errors import CuttleError, MoveError, RecordError
from interpreter.engine.game import Game
from interpreter.rules import load_ruleset

from .setup import build_position

FORMAT = "cuttle-record/1"


def record_of(game: Game) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": FORMAT, "ruleset": game.rules.spec, "ruleset_hash": game.rules.hash,
                           "seed": game.seed}
    if game.setup is not None:
        rec["setup"] = game.setup
    rec["moves"] = [str(m) for m in game.moves]
    if game.outcome:
        rec["result"] = str(game.outcome)
    return rec


def write_atomic(path: str | Path, text: str) -> None:
    """Write a file whole or not at all (a temporary file renamed over the target)."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as e:
        raise RecordError(f"cannot write '{path}': {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise RecordError(f"cannot write '{path}': {e.strerror}") from None


def save(game: Game, path: str | Path) -> None:
    write_atomic(path, yaml.safe_dump(record_of(game), sort_keys=False, allow_unicode=True))


def read(path: str | Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise RecordError(f"cannot read '{path}': {e.strerror}") from None
    except yaml.YAMLError as e:
        raise RecordError(f"'{path}' is not a valid record (bad YAML: {str(e).splitlines()[0]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"'{path}' is not a Cuttle Lab game record (expected 'format: {FORMAT}')")
    for key in ("ruleset", "ruleset_hash", "seed", "moves"):
        if key not in data:
            raise RecordError(f"'{path}': the record has no '{key}'")
    if not isinstance(data["moves"], list):
        raise RecordError(f"'{path}': moves must be a list")
    return data


def start(data: dict[str, Any], path: str | Path = "record", force: bool = False) -> Game:
    """A game at the start of a record, after checking its ruleset is unchanged."""
    try:
        rules = load_ruleset(str(data["ruleset"]))
    except CuttleError as e:
        raise RecordError(f"'{path}': cannot load its ruleset '{data['ruleset']}': {e}") from None
    if rules.hash != data["ruleset_hash"] and not force:
        raise RecordError(
            f"'{path}' was recorded with ruleset '{data['ruleset']}' version {data['ruleset_hash']}, but that "
            f"ruleset has changed (now {rules.hash}); replaying it could drift from the recorded game. "
            f"Use --force to replay anyway.")
    seed = data["seed"]
    if data.get("setup") is not None:
        return Game(rules, build_position(rules, data["setup"], seed), seed, setup=data["setup"])
    return Game.new(rules, seed)


def replay(data: dict[str, Any], path: str | Path = "record", force: bool = False) -> Game:
    game = start(data, path, force)
    for i, text in enumerate(data["moves"]):
        try:
            game.play(str(text))
        except MoveError as e:
            raise RecordError(f"'{path}': move {i + 1} '{text}' cannot be replayed: {e}") from None
    return game


def load(path: str | Path, force: bool = False) -> Game:
    return replay(read(path), path, force)
