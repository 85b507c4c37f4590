"""A dict keyed by paths (tuples of keys) that finds every key under a path, or along it, without
scanning the others: composition asks this for every value it merges, so a scan would make loading
a file quadratic in its size (9,000 constants on `extends: default` took minutes)."""

from __future__ import annotations

from typing import Any


class PathDict(dict):
    """`d.under(p)`: the keys that start with `p` (p itself included), in the order they were added;
    `d.along(p)`: the keys that `p` starts with (p itself included), shortest first. Every prefix of
    every key holds the keys below it, so both cost what they return (times the depth)."""

    __slots__ = ("_below",)

    def __init__(self, items: Any = ()) -> None:
        super().__init__()
        self._below: dict[tuple, dict[tuple, None]] = {}
        for key, value in dict(items).items():
            self[key] = value

    def __setitem__(self, key: tuple, value: Any) -> None:
        if key not in self:
            below = self._below
            for i in range(len(key) + 1):
                below.setdefault(key[:i], {})[key] = None
        super().__setitem__(key, value)

    def __delitem__(self, key: tuple) -> None:
        super().__delitem__(key)
        below = self._below
        for i in range(len(key) + 1):
            keys = below[key[:i]]
            del keys[key]
            if not keys:
                del below[key[:i]]

    def pop(self, key: tuple, *default: Any) -> Any:
        if key in self:
            value = self[key]
            del self[key]
            return value
        if default:
            return default[0]
        raise KeyError(key)

    def under(self, path: tuple) -> list[tuple]:
        return list(self._below.get(path, ()))

    def along(self, path: tuple) -> list[tuple]:
        return [path[:i] for i in range(len(path) + 1) if path[:i] in self]

    def copy(self) -> PathDict:
        return PathDict(self)

    def __reduce__(self) -> tuple:
        return (PathDict, (dict(self),))

    # the dict methods that would change the keys without the index
    def _refused(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("PathDict keeps an index: set and delete keys one by one")

    update = setdefault = popitem = clear = __ior__ = _refused
