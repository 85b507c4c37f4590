"""The construct Name."""

from __future__ import annotations

from dataclasses import dataclass

from ..node import Expression


@dataclass(frozen=True)
class Name(Expression):
    name: str
