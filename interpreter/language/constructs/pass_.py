"""The construct Pass."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Statement


@dataclass(frozen=True)
class Pass(Statement):
    pass
