"""Rulesets: YAML files with positions → composed → validated → built `Rules` (see docs/architecture.md)."""

from .compose import Composed, compose
from .defs import PlayDef, ResponseDef
from .load import check, load_ruleset
from .model import Rules
from .sources import shipped_names

__all__ = ["Composed", "compose", "PlayDef", "ResponseDef", "check", "load_ruleset", "Rules", "shipped_names"]
