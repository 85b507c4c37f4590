"""The players' measured strength, for `cuttle players`: the ratings and CPU time per move of a
`cuttle ladder` run kept beside this file (`ratings.json`, written by `cuttle ladder ... --json`).
A player the ladder did not play has none; a missing or unreadable file shows none at all."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from interpreter.language.phrasing import join_or

FILE = "ratings.json"


def measured() -> dict[str, Any]:
    """The ladder's data (ruleset, games_a_pair, anchor, players: name -> rating, interval,
    ms_per_move), or {} when there is none to show."""
    try:
        data = json.loads(resources.files("interpreter.players").joinpath(FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    ok = isinstance(data, dict) and isinstance(data.get("players"), dict)
    return data if ok else {}


def strength(name: str, data: dict[str, Any], aliases: dict[str, str]) -> str | None:
    """`rating +516 (450 to 591) · 1.1 ms a move` for a player name (a level `X:default` is X, an
    alias is what it names), or None if the ladder did not play it."""
    players = data.get("players", {})
    for key in (name, aliases.get(name, ""), name.removesuffix(":default")):
        entry = players.get(key)
        if isinstance(entry, dict) and isinstance(entry.get("rating"), int | float):
            low, high = (entry.get("interval") or [None, None])[:2]
            rating = f"rating {entry['rating']:+.0f}"
            if key != data.get("anchor") and isinstance(low, int | float) and isinstance(high, int | float):
                rating += f" ({low:+.0f} to {high:+.0f})"
            ms = entry.get("ms_per_move")
            if not isinstance(ms, int | float):
                return rating
            return rating + (" · under 0.1 ms a move" if ms < 0.1 else f" · {ms:g} ms a move")
    return None


def source(data: dict[str, Any]) -> str:
    """Where the ratings come from, in a line."""
    names = ",".join(str(p) for p in data.get("players", {}))
    return (
        f"ratings: `cuttle ladder {data.get('ruleset', 'default')} --players {names} "
        f"--games {data.get('games_a_pair', '?')}` (Bradley–Terry on the Elo scale, {data.get('anchor', '?')} = 0, "
        "95% intervals); CPU time per move: the median over those games; " + _evaluations(data)
    )


def _evaluations(data: dict[str, Any]) -> str:
    """Which evaluation the searching players played with when the ladder ran (their strength depends
    on it: a ruleset's learnt evaluation, `cuttle train`, or the hand-set one)."""
    played = data.get("evaluations")
    if not isinstance(played, dict):
        return "which evaluation the searching players played with is not recorded"
    by_note: dict[str, list[str]] = {}
    for p, note in played.items():
        if isinstance(note, str):
            by_note.setdefault(note, []).append(str(p))
    notes = [f"{join_or(ps, 'and')} played with {note}" for note, ps in by_note.items()]
    return "; ".join(notes) if notes else "no player of the ladder plays with an evaluation"
