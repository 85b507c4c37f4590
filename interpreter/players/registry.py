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

from interpreter.core.ceilings import OptionError, real, whole
from interpreter.core.errors import CuttleError, rule_failure, suggest
from interpreter.core.limits import MAX_PLAYER_OPTION
from interpreter.core.origins import rule_at
from interpreter.engine.game import Game
from interpreter.engine.moves import Move


class Player(Protocol):
    def choose(self, game: Game) -> Move: ...


class PlayerError(CuttleError):
    """A player spec that names no player, level or option."""


class PlayerFailure(CuttleError):
    """A player that failed while choosing a move: the player's fault (or its options'), not the rules'."""


def player_failure(who: str, exc: Exception, rules_name: str) -> CuttleError:
    """What to say when `choose` raised `exc`: the rules' fault if the failing code is a rule's own
    (a player simulating the game runs the rules), else the player's."""
    if rule_at(exc.__traceback__):
        return rule_failure(rules_name, f"player '{who}' was choosing a move", exc)
    return PlayerFailure(
        f"player '{who}' failed while choosing a move: {type(exc).__name__}: {exc} (a fault of the player "
        f"or of its options, not of the ruleset '{rules_name}'; the game is unchanged)"
    )


@dataclass(frozen=True)
class Entry:
    name: str
    description: str
    factory: Callable[..., Player]
    levels: dict[str, dict[str, Any]] = field(default_factory=dict)
    default_level: str | None = None
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)  # option -> (lowest, highest)

    def range_of(self, key: str, like: Any) -> tuple[float, float]:
        """The values option `key` (whose default is `like`) may take: its declared range, else any
        number of at most MAX_PLAYER_OPTION (a whole one for a whole default, at least 0)."""
        if key in self.ranges:
            return self.ranges[key]
        return (0, MAX_PLAYER_OPTION) if isinstance(like, int) else (-MAX_PLAYER_OPTION, MAX_PLAYER_OPTION)


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
    ranges: dict[str, tuple[float, float]] | None = None,
) -> None:
    """Add a player. `factory(seed=..., **options)` makes one; `levels` are named option sets;
    `ranges` the values a numeric option may take (others: Entry.range_of)."""
    _REGISTRY[name] = Entry(name, description, factory, dict(levels or {}), default_level, dict(ranges or {}))
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


def _convert(value: Any, like: Any, spec: str, key: str, entry: Entry) -> Any:
    """Option `key`'s value (text from a spec, or a value from a caller) as the type of its default
    `like`, within its range (core/ceilings.py checks every number in one place)."""
    if isinstance(like, bool):
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("1", "true", "yes", "on"):
            return True
        if str(value).lower() in ("0", "false", "no", "off"):
            return False
        raise PlayerError(f"player '{spec}': option {key} takes true or false, not '{value}'")
    if isinstance(like, int | float):
        lo, hi = entry.range_of(key, like)
        name = f"player '{entry.name}': option {key}"
        try:
            if isinstance(like, int):
                return whole(value, name, int(lo), int(hi))
            return real(value, name, float(lo), float(hi))
        except OptionError as e:
            raise PlayerError(str(e)) from None
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
        options[key] = _convert(value.strip(), params[key], spec, key, entry)
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
    params = _parameters(entry.factory)
    for key, value in options.items():
        if key not in params:
            raise PlayerError(f"player '{entry.name}' has no option '{key}'")
        opts[key] = _convert(value, params[key], name, key, entry)
    return entry.factory(seed=seed, **opts)
