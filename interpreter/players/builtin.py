"""The shipped players, registered by name (see registry.py)."""

from __future__ import annotations

from .heuristic import Bot, RandomPlayer
from .ismcts import ISMCTS
from .registry import register
from .sharp import Sharp, SharpWeights


def _random(seed: int = 0) -> RandomPlayer:
    return RandomPlayer(seed)


def _heuristic(seed: int = 0, samples: int = 6, depth: int = 4, max_nodes: int = 2000) -> Bot:
    return Bot(seed, samples=samples, depth=depth, max_nodes=max_nodes)


def _ismcts(
    seed: int = 0,
    iterations: int = 1200,
    exploration: float = 0.25,
    horizon: int = 3,
    temperature: float = 8.0,
    prior: int = 0,
    seconds: float = 0.0,
    widening: float = 1.0,
    reach: float = 0.0,
) -> ISMCTS:
    return ISMCTS(
        seed,
        iterations=iterations,
        exploration=exploration,
        horizon=horizon,
        temperature=temperature,
        prior=prior,
        seconds=seconds,
        widening=widening,
        reach=reach,
    )


def _sharp(
    seed: int = 0,
    samples: int = 4,
    depth: int = 3,
    max_nodes: int = 600,
    reply: int = 2,
    tempo: float = 0.0,
    short: float = 0.0,
    need: float = 1.0,
    urgency: float = 12.0,
    hand: float = 2.5,
    in_play: float = 0.6,
    forget: bool = False,
) -> Sharp:
    return Sharp(
        seed,
        samples=samples,
        depth=depth,
        max_nodes=max_nodes,
        reply=reply,
        weights=SharpWeights(need=need, urgency=urgency, hand=hand, in_play=in_play, tempo=tempo, short=short),
        forget=forget,
    )


register("random", "uniformly random legal moves", _random)
register("heuristic", "determinized look-ahead with a generic evaluation", _heuristic, aliases=("bot",))
register(
    "ismcts",
    "information-set Monte Carlo tree search from its own view",
    _ismcts,
    levels={"fast": {"iterations": 300}, "default": {"iterations": 1200}, "strong": {"iterations": 4800}},
    default_level="default",
)
register(
    "sharp",
    "fast and competent: a few determinized worlds, the rest of the turn, cards in hand valued highly",
    _sharp,
    levels={"fast": {"reply": 1}, "default": {}, "strong": {"reply": 4, "max_nodes": 2000}},
    default_level="default",
)
