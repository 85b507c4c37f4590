"""The construct Str."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression


@dataclass(frozen=True)
class Str(Expression):
    value: str
