"""The shipped players, registered by name (see registry.py)."""

from __future__ import annotations

from .heuristic import Bot, RandomPlayer
from .registry import register


def _random(seed: int = 0) -> RandomPlayer:
    return RandomPlayer(seed)


def _heuristic(seed: int = 0, samples: int = 6, depth: int = 4, max_nodes: int = 2000) -> Bot:
    return Bot(seed, samples=samples, depth=depth, max_nodes=max_nodes)


register("random", "uniformly random legal moves", _random)
register("heuristic", "determinized look-ahead with a generic evaluation (the bot)", _heuristic,
         aliases=("bot",))
