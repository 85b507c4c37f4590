"""Game records: ruleset name and content hash, seed, optional setup, and the moves.

Replaying a record reproduces the game exactly; a record whose ruleset has changed since it was
saved is refused with a clear message instead of drifting silently.
"""

from __future__ import annotations

import datetime
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import yaml

from interpreter.core.errors import CuttleError, RecordError, RulesetError, ScenarioErrors
from interpreter.core.files import FileProblem, read_text
from interpreter.core.limits import MAX_SCENARIO_STEPS
from interpreter.engine.game import Game
from interpreter.rules import load_ruleset
from interpreter.rules.sources import looks_like_path, resolve_spec
from interpreter.rules.yamlsrc import load_yaml

from .setup import build_position

FORMAT = "cuttle-record/1"


def record_of(game: Game) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": game.rules.spec,
        "ruleset_hash": game.rules.hash,
        "seed": game.seed,
    }
    if game.setup is not None:
        rec["setup"] = game.setup
    rec["moves"] = [str(m) for m in game.moves]
    if game.outcome:
        rec["result"] = str(game.outcome)
    return rec


def writable(path: str | Path) -> os.stat_result | None:
    """What is at `path` now (None: nothing), or RecordError if a write may not go there: a symlink
    (dangling or not: it would carry the write elsewhere), a folder, a FIFO or a device. Commands
    that write after long work ask first, so that a refusal comes before the work."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise RecordError(f"cannot write '{path}': {getattr(e, 'strerror', None) or e}") from None
    if stat.S_ISLNK(st.st_mode):
        raise RecordError(f"cannot write '{path}': it is a symbolic link; write to another name, or remove the link")
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise RecordError(f"cannot write '{path}': it is {kind}")
    return st


def write_atomic(path: str | Path, text: str) -> None:
    """Write a file whole or not at all: a temporary file in the same folder, flushed to disk, renamed
    over the target, and the folder flushed too. A symlink or anything but a regular file at the
    target is refused (a planted link would carry the write elsewhere); an existing file keeps its
    permissions; the temporary file is removed on any failure, Ctrl-C included."""
    path = Path(path)
    st = writable(path)
    target = path
    directory = target.parent if str(target.parent) else Path(".")
    try:
        mode = stat.S_IMODE(st.st_mode) if st is not None else None
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except (OSError, ValueError) as e:
        raise RecordError(f"cannot write '{path}': {getattr(e, 'strerror', None) or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        else:  # a new file: the usual permissions (mkstemp makes it private)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as e:  # Ctrl-C too: never leave the temporary file behind
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise RecordError(f"cannot write '{path}': {e.strerror or e}") from None
        raise
    try:  # the rename itself survives a crash only once the folder is on disk
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:  # some file systems cannot sync a folder; the file itself is whole
        pass


def save(game: Game, path: str | Path, players: dict[str, str] | None = None) -> None:
    """Write the game's record; `players`: who played each seat (`{"p1": "human", "p2": "ismcts"}`),
    kept with the date it was saved. Neither changes play: a record is the same game without them."""
    rec = record_of(game)
    rec["ruleset"] = spec_for(game.rules.spec, Path(path))
    if players:
        rec = {**rec, "players": dict(players), "saved": datetime.date.today().isoformat()}
    write_atomic(path, yaml.safe_dump(rec, sort_keys=False, allow_unicode=True))


def spec_for(spec: str, record: Path) -> str:
    """A ruleset spec as a record at `record` names it: each file part relative to the record's folder
    (a record may only name files in its folder or below, see `start`)."""
    parts = []
    for part in spec.split("+"):
        if looks_like_path(part):
            try:
                part = os.path.relpath(os.path.abspath(part), os.path.abspath(record.parent or Path(".")))
            except ValueError:  # another drive
                pass
        parts.append(part)
    return "+".join(parts)


def read(path: str | Path) -> dict[str, Any]:
    try:
        text = read_text(path, "record")
    except FileProblem as e:
        raise RecordError(str(e)) from None
    try:
        data = load_yaml(text, str(path), code="R001").data
    except RulesetError as e:
        raise RecordError(f"'{path}' is not a valid record: {e.render()}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"'{path}' is not a Cuttle Lab game record (expected 'format: {FORMAT}')")
    for key in ("ruleset", "ruleset_hash", "seed", "moves"):
        if key not in data:
            raise RecordError(f"'{path}': the record has no '{key}'")
    if not isinstance(data["ruleset"], str) or not data["ruleset"].strip():
        raise RecordError(f"'{path}': ruleset must be a ruleset name or a path")
    if not isinstance(data["ruleset_hash"], str):
        raise RecordError(f"'{path}': ruleset_hash must be text")
    if not isinstance(data["seed"], int) or isinstance(data["seed"], bool):
        raise RecordError(f"'{path}': seed must be a whole number")
    if not isinstance(data["moves"], list) or not all(
        isinstance(m, (str, int)) and not isinstance(m, bool) for m in data["moves"]
    ):
        raise RecordError(f"'{path}': moves must be a list of moves")
    if len(data["moves"]) > MAX_SCENARIO_STEPS:
        raise RecordError(f"'{path}': more than {MAX_SCENARIO_STEPS:,} moves (MAX_SCENARIO_STEPS)")
    if data.get("setup") is not None and not isinstance(data["setup"], dict):
        raise RecordError(f"'{path}': setup must be a mapping")
    who = data.get("players")
    if who is not None and not (
        isinstance(who, dict)
        and set(who) <= {"p1", "p2", "p3", "p4"}
        and all(isinstance(v, str) and 0 < len(v) <= 200 for v in who.values())
    ):
        raise RecordError(f"'{path}': players must map seats (p1, p2, ...) to player names (human, heuristic, ...)")
    return data


def start(data: dict[str, Any], path: str | Path = "record", force: bool = False) -> Game:
    """A game at the start of a record, after checking its ruleset is unchanged. A file the record
    names is read relative to the record's folder, and only from that folder or below."""
    try:
        spec = resolve_spec(str(data["ruleset"]), Path(path))
        rules = load_ruleset(spec)
    except CuttleError as e:
        raise RecordError(f"'{path}': cannot load its ruleset '{data['ruleset']}': {e}") from None
    if rules.hash != data["ruleset_hash"] and not force:
        raise RecordError(
            f"'{path}' was recorded with ruleset '{data['ruleset']}' version {data['ruleset_hash']}, but that "
            f"ruleset has changed (now {rules.hash}); replaying it could drift from the recorded game. "
            f"Use --force to replay anyway."
        )
    seed = data["seed"]
    try:
        if data.get("setup") is not None:
            return Game(rules, build_position(rules, data["setup"], seed), seed, setup=data["setup"])
        return Game.new(rules, seed)
    except ScenarioErrors as e:  # the first problem, in one line
        raise RecordError(f"'{path}': its start cannot be set up: {e.errors[0].render().splitlines()[0]}") from None
    except CuttleError as e:
        raise RecordError(f"'{path}': its start cannot be set up: {e}") from None
    except (Exception, RecursionError) as e:  # the error boundary: never a traceback from a record
        raise RecordError(f"'{path}': its start cannot be set up: {type(e).__name__}: {e}") from e


def replay(data: dict[str, Any], path: str | Path = "record", force: bool = False) -> Game:
    game = start(data, path, force)
    for i, text in enumerate(data["moves"]):
        try:
            game.play(str(text))
        except CuttleError as e:
            raise RecordError(f"'{path}': move {i + 1} '{text}' cannot be replayed: {e}") from None
    return game


def load(path: str | Path, force: bool = False) -> Game:
    return replay(read(path), path, force)
