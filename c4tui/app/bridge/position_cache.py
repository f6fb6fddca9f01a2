"""A mapping that keeps only the most recently used positions' entries.

The app caches per position what the engine found (exact values, threat verdicts, column
values, the graph's values). Unbounded, those caches grew with every position visited in
a long session (docs/reliability.md); bounded, a session's memory stays flat.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

from .settings import RECENT_POSITIONS

V = TypeVar("V")


class PositionCache(Generic[V]):
    """Position key -> value, at most ``size`` of them; the least recently used go."""

    def __init__(self, size: int = RECENT_POSITIONS) -> None:
        self._size = size
        self._items: OrderedDict[int, V] = OrderedDict()

    def get(self, key: int, default: V | None = None) -> V | None:
        """The value of ``key`` (now the most recent), else ``default``."""
        if key not in self._items:
            return default
        self._items.move_to_end(key)
        return self._items[key]

    def setdefault(self, key: int, default: V) -> V:
        """The value of ``key``, storing ``default`` first if there is none."""
        if key not in self._items:
            self[key] = default
            return default
        self._items.move_to_end(key)
        return self._items[key]

    def pop(self, key: int, default: V | None = None) -> V | None:
        return self._items.pop(key, default)

    def __setitem__(self, key: int, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)
