"""The shipped players, registered by name (see registry.py)."""

from __future__ import annotations

from .heuristic import Bot, RandomPlayer
from .ismcts import ISMCTS
from .registry import PlayerError, register
from .sharp import Sharp, SharpWeights


def _random(seed: int = 0) -> RandomPlayer:
    return RandomPlayer(seed)


def _heuristic(seed: int = 0, samples: int = 6, depth: int = 4, max_nodes: int = 2000) -> Bot:
    return Bot(seed, samples=samples, depth=depth, max_nodes=max_nodes)


def _ismcts(
    seed: int = 0,
    iterations: int = 2500,
    exploration: float = 0.25,
    horizon: int = 0,
    temperature: float = 11.6,
    prior: int = 0,
    seconds: float = 0.0,
    widening: float = 1.0,
    need: float = 1.0,
    urgency: float = 50.0,
    hand: float = 5.0,
    in_play: float = 2.0,
    sees: float = 0.4,
    reach: float = 0.0,
    hand_value: float = 0.0,
    weights: str = "auto",
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
        weights=SharpWeights(
            need=need,
            urgency=urgency,
            hand=hand,
            in_play=in_play,
            sees_hand=sees,
            reach=reach,
            hand_value=hand_value,
        ),
        learnt=_learnt("ismcts", weights),
    )


def _sharp(
    seed: int = 0,
    samples: int = 4,
    depth: int = 3,
    max_nodes: int = 300,
    reply: int = 2,
    tempo: float = 0.0,
    short: float = 0.0,
    need: float = 1.0,
    urgency: float = 50.0,
    hand: float = 5.0,
    in_play: float = 2.0,
    sees: float = 0.4,
    reach: float = 0.0,
    hand_value: float = 0.0,
    forget: bool = False,
    weights: str = "auto",
) -> Sharp:
    return Sharp(
        seed,
        samples=samples,
        depth=depth,
        max_nodes=max_nodes,
        reply=reply,
        weights=SharpWeights(
            need=need,
            urgency=urgency,
            hand=hand,
            in_play=in_play,
            sees_hand=sees,
            tempo=tempo,
            short=short,
            reach=reach,
            hand_value=hand_value,
        ),
        forget=forget,
        learnt=_learnt("sharp", weights),
    )


def _learnt(player: str, weights: str) -> bool:
    """`weights=auto`: the ruleset's learnt evaluation when it has one; `weights=default`: the hand-set."""
    if weights not in ("auto", "default"):
        raise PlayerError(
            f"player '{player}': option weights takes auto (the ruleset's learnt evaluation, when it has "
            f"one) or default (the hand-set evaluation), not '{weights[:40]}'"
        )
    return weights == "auto"


# The values each option may take (registry.py checks them before a player is made; an option not
# listed takes a number of at most MAX_PLAYER_OPTION): a count of samples, nodes or iterations is at
# least 1, a search depth at most what a search can use, a temperature above 0 (it divides), seconds
# at most an hour; the evaluation's weights take any number of at most MAX_PLAYER_OPTION.
_SEARCH: dict[str, tuple[float, float]] = {"samples": (1, 1_000), "depth": (0, 64), "max_nodes": (1, 10_000_000)}
register("random", "uniformly random legal moves", _random)
register("heuristic", "determinized look-ahead with a generic evaluation", _heuristic, aliases=("bot",), ranges=_SEARCH)
register(
    "ismcts",
    "information-set Monte Carlo tree search from its own view",
    _ismcts,
    levels={"fast": {"iterations": 300}, "default": {"iterations": 2500}, "strong": {"iterations": 4800}},
    default_level="default",
    ranges={
        "iterations": (1, 10_000_000),
        "exploration": (0.0, 100.0),
        "horizon": (-1, 100_000),
        "temperature": (0.001, 1_000_000.0),
        "prior": (0, 1_000_000),
        "seconds": (0.0, 3_600.0),
        "widening": (0.0, 1_000.0),
    },
)
register(
    "sharp",
    "fast and competent: a few determinized worlds, the rest of the turn, an evaluation fitted to game results",
    _sharp,
    levels={"fast": {"reply": 1}, "default": {}, "strong": {"reply": 4, "max_nodes": 2000}},
    default_level="default",
    ranges={**_SEARCH, "reply": (0, 64)},
)
