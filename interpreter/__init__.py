"""Cuttle Lab: rules-as-data Cuttle. The public API."""

from interpreter.core.cards import card_name, parse_card
from interpreter.core.errors import (
    AmbiguousMoveError,
    CuttleError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    RulesetError,
    RulesetErrors,
    ScenarioError,
)
from interpreter.engine.game import Game
from interpreter.engine.machine import Decision
from interpreter.engine.moves import Move
from interpreter.engine.outcome import Outcome, Termination
from interpreter.players import make_player, players
from interpreter.rules import Rules, check, load_ruleset, shipped_names

__all__ = [
    "Game",
    "Outcome",
    "Termination",
    "Move",
    "Decision",
    "Rules",
    "load_ruleset",
    "check",
    "shipped_names",
    "card_name",
    "parse_card",
    "CuttleError",
    "MoveError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "RulesetError",
    "RulesetErrors",
    "ScenarioError",
    "make_player",
    "players",
]
