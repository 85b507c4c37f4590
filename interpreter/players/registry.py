"""The player registry: every player by name, made from a spec string.

    make_player("random", seed=3)
    make_player("heuristic")                  # today's bot
    make_player("ismcts:strong", seed=1)      # a named level
    make_player("ismcts?iterations=4000")     # options in the spec (key=value, joined by &)

A player is any object with `choose(game) -> Move` for the pending decision of a `Game`.
New players register with `register(...)` (the shipped ones in builtin.py, when the package
loads); the REPL, the lab and the CLI take any registered name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from interpreter.core.errors import CuttleError, suggest
from interpreter.engine.game import Game
from interpreter.engine.moves import Move


class Player(Protocol):
    def choose(self, game: Game) -> Move: ...


class PlayerError(CuttleError):
    """A player spec that names no player, level or option."""


@dataclass(frozen=True)
class Entry:
    name: str
    description: str
    factory: Callable[..., Player]
    levels: dict[str, dict[str, Any]] = field(default_factory=dict)
    default_level: str | None = None


_REGISTRY: dict[str, Entry] = {}
_ALIASES: dict[str, str] = {}


def register(
    name: str,
    description: str,
    factory: Callable[..., Player],
    *,
    levels: dict[str, dict[str, Any]] | None = None,
    default_level: str | None = None,
    aliases: tuple[str, ...] = (),
) -> None:
    """Add a player. `factory(seed=..., **options)` makes one; `levels` are named option sets."""
    _REGISTRY[name] = Entry(name, description, factory, dict(levels or {}), default_level)
    for a in aliases:
        _ALIASES[a] = name


def players() -> dict[str, str]:
    """Every player name (with its levels, `name:level`) and a one-line description."""
    out: dict[str, str] = {}
    for e in _REGISTRY.values():
        aliases = sorted(a for a, target in _ALIASES.items() if target == e.name)
        out[e.name] = e.description + (f"; also called {', '.join(aliases)}" if aliases else "")
        for lvl, opts in e.levels.items():
            shown = ", ".join(f"{k}={v}" for k, v in opts.items()) or "its own settings"
            plain = f"; plain '{e.name}' plays this level" if lvl == e.default_level else ""
            out[f"{e.name}:{lvl}"] = f"{e.description}: {lvl} level ({shown}){plain}"
    return out


def _convert(value: str, like: Any, spec: str, key: str) -> Any:
    if isinstance(like, bool):
        if value.lower() in ("1", "true", "yes", "on"):
            return True
        if value.lower() in ("0", "false", "no", "off"):
            return False
        raise PlayerError(f"player '{spec}': option {key} takes true or false, not '{value}'")
    if isinstance(like, int):
        try:
            return int(value)
        except ValueError:
            raise PlayerError(f"player '{spec}': option {key} takes a whole number, not '{value}'") from None
    if isinstance(like, float):
        try:
            return float(value)
        except ValueError:
            raise PlayerError(f"player '{spec}': option {key} takes a number, not '{value}'") from None
    return value


def parse_spec(spec: str) -> tuple[Entry, dict[str, Any]]:
    """`name[:level][?key=value&...]` → the entry and the options for its factory."""
    text = spec.strip()
    query = ""
    if "?" in text:
        text, query = text.split("?", 1)
    name, _, level = text.partition(":")
    name = _ALIASES.get(name.strip().lower(), name.strip().lower())
    entry = _REGISTRY.get(name)
    if entry is None:
        near = suggest(name, list(_REGISTRY) + list(_ALIASES))
        raise PlayerError(
            f"no player named '{spec}'"
            + (f"; did you mean '{near}'?" if near else "")
            + f" (players: {', '.join(sorted(players()))})"
        )
    options: dict[str, Any] = {}
    level = level.strip().lower() or (entry.default_level or "")
    if level:
        if level not in entry.levels:
            raise PlayerError(
                f"player '{entry.name}' has no level '{level}'"
                + (f" (levels: {', '.join(entry.levels)})" if entry.levels else " (it has none)")
            )
        options.update(entry.levels[level])
    params = _parameters(entry.factory)
    for item in filter(None, query.split("&")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise PlayerError(f"player '{spec}': write options as key=value (got '{item}')")
        if key == "seed" or key not in params:
            near = suggest(key, [p for p in params if p != "seed"])
            raise PlayerError(
                f"player '{entry.name}' has no option '{key}'"
                + (f"; did you mean '{near}'?" if near else "")
                + (
                    f" (options: {', '.join(p for p in params if p != 'seed')})"
                    if len(params) > 1
                    else " (it takes none)"
                )
            )
        options[key] = _convert(value.strip(), params[key], spec, key)
    return entry, options


def _parameters(factory: Callable[..., Any]) -> dict[str, Any]:
    """The keyword options a factory takes, with their defaults (for converting text values)."""
    out: dict[str, Any] = {}
    for p in inspect.signature(factory).parameters.values():
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is not p.empty:
            out[p.name] = p.default
    return out


def make_player(name: str, seed: int = 0, **options: Any) -> Player:
    """A player from its spec (`random`, `heuristic`, `ismcts:strong`, `ismcts?iterations=4000`);
    keyword options override the spec's."""
    entry, opts = parse_spec(name)
    opts.update(options)
    params = _parameters(entry.factory)
    for key in opts:
        if key not in params:
            raise PlayerError(f"player '{entry.name}' has no option '{key}'")
    return entry.factory(seed=seed, **opts)
