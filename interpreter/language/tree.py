"""The typed tree of the effect language: one frozen dataclass per construct.

Each construct lives in its own module of `constructs/` with every pass over it (parse action, printed
form, English, code, reference meaning); `node.py` says what a construct provides. This module is the
tree as the rest of the house reads it: `from interpreter.language import tree as A` and `A.Scrap`.
"""

from __future__ import annotations

from . import constructs
from .constructs import *  # noqa: F403 (the constructs, listed once: constructs/__init__.py)
from .node import Expression, Node, Statement, walk

__all__ = ["Node", "Expression", "Statement", "walk"]
__all__ += constructs.__all__
