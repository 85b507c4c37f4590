"""Players: anything that chooses a move for a game's pending decision, made by name."""

from . import builtin  # noqa: F401  (registers the shipped players)
from .registry import Player, PlayerError, make_player, parse_spec, players, register

__all__ = ["Player", "PlayerError", "make_player", "parse_spec", "players", "register"]
