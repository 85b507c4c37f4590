"""Cuttle Lab: rules-as-data Cuttle. The public API."""

from .cards import card_name, parse_card
from .engine import Decision
from .errors import (
                     AmbiguousMoveError,
                     CuttleError,
                     IllegalMoveError,
                     InvalidMoveError,
                     MoveError,
                     RulesetError,
                     RulesetErrors,
                     ScenarioError,
)
from .game import Game, Outcome
from .moves import Move
from .ruleset import Rules, check, load_ruleset, shipped_names

__all__ = ["Game", "Outcome", "Move", "Decision", "Rules", "load_ruleset", "check", "shipped_names",
           "card_name", "parse_card", "CuttleError", "MoveError", "InvalidMoveError", "IllegalMoveError",
           "AmbiguousMoveError", "RulesetError", "RulesetErrors", "ScenarioError"]
