"""Learnt evaluations as data: the weights `cuttle train` fitted for one ruleset, kept by its play hash.

An evaluation is a JSON file of numbers and words, never code:

    {"format": "cuttle-evaluation/1", "ruleset": "default", "hash": "9f0c...", "horizon": 41,
     "weights": {"need": 1.02, "urgency": 48.7, "hand:2": 3.1, ...},
     "trained": {"games": 1500, "rounds": 3, "positions": 41210, "cpu_seconds": 171.4,
                 "started_from": "hand-set", "gain": {"games": 200, "wins": 112, ...}}}

Where they are looked for, in order: the user's cache folder (`$XDG_CACHE_HOME/cuttle-lab/evaluations`,
else `~/.cache/cuttle-lab/evaluations`; `CUTTLE_EVALUATIONS` names another folder), then the ones shipped
with the shipped rulesets (`interpreter/players/evaluations/`). A file is read through the project's
reader (core/files.py) and checked like a stranger's: a wrong format, an unknown key, a weight that is not
a finite number within bounds, a feature the ruleset does not have, or a hash that is not the ruleset's
is refused with one line naming the file (`EvaluationError`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from interpreter.core.errors import CuttleError
from interpreter.core.files import FileProblem, read_text
from interpreter.rules.model import Rules

from .features import HAND_SET, Linear, feature_names

FORMAT = "cuttle-evaluation/1"
MAX_WEIGHT = 1e4  # a learnt weight beyond this (in evaluation units) is refused: no fit makes one
MAX_HORIZON = 10_000
_SHIPPED = "interpreter.players"
_KEYS = {"format", "ruleset", "hash", "horizon", "weights", "trained"}
_TRAINED_NUMBERS = {"games": int, "rounds": int, "positions": int, "cpu_seconds": float}
_GAIN_NUMBERS = {"games": int, "wins": int, "losses": int, "draws": int, "score": float, "low": float, "high": float}


class EvaluationError(CuttleError):
    """A learnt evaluation file that cannot be used (malformed, or made for other rules)."""


@dataclass(frozen=True)
class Gain:
    """The trained evaluation against the untrained one, on paired deals, seats alternating."""

    games: int
    wins: int
    losses: int
    draws: int
    score: float  # (wins + draws / 2) / games
    low: float  # its 95% interval
    high: float

    def text(self) -> str:
        return (
            f"{100 * self.score:.1f}% against the untrained one over {self.games:,} games "
            f"(95% interval {100 * self.low:.1f}-{100 * self.high:.1f}%)"
        )


@dataclass(frozen=True)
class Evaluation:
    """The weights of the linear evaluation (players/features.py) learnt for one ruleset."""

    ruleset: str
    hash: str
    horizon: int
    weights: dict[str, float]
    games: int = 0
    rounds: int = 0
    positions: int = 0
    cpu_seconds: float = 0.0
    started_from: str = "hand-set"
    gain: Gain | None = None
    origin: str = field(default="", compare=False)  # the file it was read from ("" if made here)

    def linear(self, rules: Rules) -> Linear:
        return Linear(rules, self.weights, self.horizon)

    def describe(self) -> str:
        """What it is, after "plays with": what it was trained on and what it gained."""
        shipped = self.origin.startswith("shipped:")
        trained = f"{self.games:,} self-play games of {self.ruleset}"
        if self.weights == HAND_SET:
            head = f"the hand-set evaluation, as training ({trained}) found nothing better"
        elif self.rounds == 0 and self.started_from != "hand-set":
            head = f"{self.started_from}, as training ({trained}) found nothing better"
        else:
            head = f"the evaluation learnt from {trained} ({self.rounds} round{'s' if self.rounds != 1 else ''} kept)"
        head += " (shipped)" if shipped else ""
        return f"{head}: {self.gain.text()}" if self.gain else head

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "hash": self.hash,
            "horizon": self.horizon,
            "weights": {k: round(v, 6) for k, v in self.weights.items() if v},
            "trained": {
                "games": self.games,
                "rounds": self.rounds,
                "positions": self.positions,
                "cpu_seconds": round(self.cpu_seconds, 1),
                "started_from": self.started_from,
            },
        }
        if self.gain is not None:
            g = self.gain
            out["trained"]["gain"] = {
                "games": g.games,
                "wins": g.wins,
                "losses": g.losses,
                "draws": g.draws,
                "score": round(g.score, 4),
                "low": round(g.low, 4),
                "high": round(g.high, 4),
            }
        return out


def hand_set_evaluation(rules: Rules) -> Evaluation:
    """Today's hand-set weights, as an evaluation of `rules` (what training starts from)."""
    return Evaluation(rules.name, rules.hash, 1, dict(HAND_SET), started_from="hand-set")


# -- reading -------------------------------------------------------------------------------------------


def parse(text: str, where: str) -> Evaluation:
    """An evaluation from its JSON text; EvaluationError naming `where` if it is not a valid one."""

    def bad(why: str) -> EvaluationError:
        return EvaluationError(f"learnt evaluation '{where}': {why}")

    try:
        data = json.loads(text, parse_constant=lambda c: math.nan)
    except (ValueError, RecursionError) as e:
        raise bad(f"not valid JSON ({str(e).splitlines()[0][:120]})") from None
    if not isinstance(data, dict):
        raise bad("expected a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise bad(f"unknown key '{unknown[0][:40]}' (keys: {', '.join(sorted(_KEYS))})")
    missing = sorted(_KEYS - set(data))
    if missing:
        raise bad(f"missing key '{missing[0]}'")
    if data["format"] != FORMAT:
        raise bad(f"format must be '{FORMAT}'")
    for key in ("ruleset", "hash"):
        if not isinstance(data[key], str) or not 0 < len(data[key]) <= 200:
            raise bad(f"'{key}' must be a short text")
    horizon = data["horizon"]
    if not _whole(horizon) or not 1 <= horizon <= MAX_HORIZON:
        raise bad(f"'horizon' must be a whole number from 1 to {MAX_HORIZON:,}")
    weights = data["weights"]
    if not isinstance(weights, dict) or len(weights) > 1000:
        raise bad("'weights' must be an object of at most 1,000 feature names and numbers")
    for k, v in weights.items():
        if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v) or abs(v) > MAX_WEIGHT:
            raise bad(f"the weight of '{str(k)[:40]}' must be a finite number of at most {MAX_WEIGHT:g} in size")
    trained = data["trained"]
    if not isinstance(trained, dict):
        raise bad("'trained' must be an object")
    numbers = _numbers(trained, _TRAINED_NUMBERS, {"started_from", "gain"}, "trained", bad)
    started = trained.get("started_from", "hand-set")
    if not isinstance(started, str) or len(started) > 200:
        raise bad("'trained.started_from' must be a short text")
    gain = None
    if "gain" in trained:
        if not isinstance(trained["gain"], dict):
            raise bad("'trained.gain' must be an object")
        gain = Gain(**_numbers(trained["gain"], _GAIN_NUMBERS, set(), "trained.gain", bad, required=True))
    return Evaluation(
        data["ruleset"],
        data["hash"],
        int(horizon),
        {str(k): float(v) for k, v in weights.items()},
        started_from=started,
        gain=gain,
        origin=where,
        **numbers,
    )


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _numbers(d: dict, spec: dict[str, type], also: set[str], where: str, bad: Any, required: bool = False) -> dict:
    out: dict[str, Any] = {}
    unknown = sorted(set(d) - set(spec) - also)
    if unknown:
        raise bad(f"unknown key '{str(unknown[0])[:40]}' in '{where}'")
    for k, kind in spec.items():
        if k not in d:
            if required:
                raise bad(f"missing key '{where}.{k}'")
            continue
        v = d[k]
        ok = _whole(v) and v >= 0 if kind is int else isinstance(v, int | float) and not isinstance(v, bool)
        if not ok or (kind is float and not (math.isfinite(v) and 0 <= v <= 1e9)):
            raise bad(f"'{where}.{k}' must be a {'whole ' if kind is int else ''}number of at least 0")
        out[k] = kind(v)
    return out


def check_for(ev: Evaluation, rules: Rules) -> Evaluation:
    """`ev` if it is made for `rules` (its hash, and features this ruleset has), else EvaluationError."""
    where = ev.origin or "(in memory)"
    if ev.hash != rules.hash:
        raise EvaluationError(
            f"learnt evaluation '{where}' was made for rules of hash {ev.hash[:16]}, not {rules.name}'s {rules.hash}"
        )
    names = set(feature_names(rules))
    extra = sorted(set(ev.weights) - names)
    if extra:
        raise EvaluationError(f"learnt evaluation '{where}': {rules.name} has no feature '{extra[0][:40]}'")
    return ev


# -- where they are kept ------------------------------------------------------------------------------


def cache_folder() -> Path:
    """The user's folder of learnt evaluations (made on first save)."""
    if os.environ.get("CUTTLE_EVALUATIONS"):
        return Path(os.environ["CUTTLE_EVALUATIONS"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cuttle-lab" / "evaluations"


def cached_path(rules: Rules) -> Path:
    return cache_folder() / f"{rules.hash}.json"


_SHIPPED_BY_HASH: dict[str, Evaluation] | None = None


def shipped() -> dict[str, Evaluation]:
    """The evaluations shipped with the shipped rulesets, by hash (read once per process)."""
    global _SHIPPED_BY_HASH
    if _SHIPPED_BY_HASH is None:
        found: dict[str, Evaluation] = {}
        folder = resources.files(_SHIPPED).joinpath("evaluations")
        if folder.is_dir():
            for f in sorted(folder.iterdir(), key=lambda p: p.name):
                if f.name.endswith(".json"):
                    ev = parse(f.read_text(encoding="utf-8"), f"shipped:{f.name}")
                    found[ev.hash] = ev
        _SHIPPED_BY_HASH = found
    return _SHIPPED_BY_HASH


def lookup(rules: Rules) -> Evaluation | None:
    """The learnt evaluation of `rules`: the user's own (trained here) first, then a shipped one; None
    if there is none. Kept in the rules' cache, so a game asks the disk once. EvaluationError if the
    file found is malformed or made for other rules."""
    cache = rules.engine_cache
    if "learnt" not in cache:
        cache["learnt"] = _find(rules)
    found: Evaluation | None = cache["learnt"]
    return found


def _find(rules: Rules) -> Evaluation | None:
    path = cached_path(rules)
    if path.exists() or path.is_symlink():
        try:
            text = read_text(path, "learnt evaluation", suffixes=(".json",))
        except FileProblem as e:
            raise EvaluationError(str(e)) from None
        return check_for(parse(text, str(path)), rules)
    ev = shipped().get(rules.hash)
    return None if ev is None else check_for(ev, rules)


def use(rules: Rules, ev: Evaluation | None) -> None:
    """Make `ev` the learnt evaluation of `rules` in this process, whatever the cache folder holds (a lab
    run decides it once and carries it to its workers)."""
    rules.engine_cache["learnt"] = ev
    rules.engine_cache.pop("learnt_linear", None)


def forget(rules: Rules) -> None:
    """Drop what `lookup` kept for `rules` (after a new evaluation is saved)."""
    rules.engine_cache.pop("learnt", None)
    rules.engine_cache.pop("learnt_linear", None)


def linear_for(rules: Rules) -> tuple[Linear | None, Evaluation | None]:
    """The learnt linear evaluation of `rules` (made once per rules), or (None, None) without one."""
    cache = rules.engine_cache
    if "learnt_linear" not in cache:
        ev = lookup(rules)
        cache["learnt_linear"] = (None if ev is None else ev.linear(rules), ev)
    lin, ev = cache["learnt_linear"]
    return lin, ev


def to_text(ev: Evaluation) -> str:
    return json.dumps(ev.to_json(), indent=1, sort_keys=False) + "\n"


def digest(ev: Evaluation | None) -> str:
    """A short fingerprint of an evaluation's weights (what a lab run's identity records), or 'hand-set'."""
    if ev is None:
        return "hand-set"
    text = json.dumps([ev.horizon, sorted(ev.weights.items())])
    return hashlib.sha256(text.encode()).hexdigest()[:16]
