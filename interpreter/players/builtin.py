"""The shipped players, registered by name (see registry.py)."""

from __future__ import annotations

from .heuristic import Bot, RandomPlayer
from .ismcts import ISMCTS
from .registry import register


def _random(seed: int = 0) -> RandomPlayer:
    return RandomPlayer(seed)


def _heuristic(seed: int = 0, samples: int = 6, depth: int = 4, max_nodes: int = 2000) -> Bot:
    return Bot(seed, samples=samples, depth=depth, max_nodes=max_nodes)


def _ismcts(seed: int = 0, iterations: int = 600, exploration: float = 0.25, horizon: int = 10,
            temperature: float = 8.0, prior: int = 0, seconds: float = 0.0) -> ISMCTS:
    return ISMCTS(seed, iterations=iterations, exploration=exploration, horizon=horizon,
                  temperature=temperature, prior=prior, seconds=seconds)


register("random", "uniformly random legal moves", _random)
register("heuristic", "determinized look-ahead with a generic evaluation (the bot)", _heuristic,
         aliases=("bot",))
register("ismcts", "information-set Monte Carlo tree search from its own view", _ismcts,
         levels={"fast": {"iterations": 150}, "default": {"iterations": 600}, "strong": {"iterations": 2400}},
         default_level="default")
