"""Memo tables: answers about immutable things, computed once.

The compiler's fast paths remember facts about attributes, types and op
classes (a segment-sizes attribute decoded, an op class's verification plan).
They all use one of these three tables, so each cache says in one line what it
is keyed by and how large it may grow, and `clear_all` empties every one (for
tests that want a cold start, and for benchmarks that want reproducible runs).

- `ClassMemo`: keyed by a class (op classes live as long as the process);
  unbounded.
- `IdentityMemo`: keyed by the identity of an immutable object. The entry keeps
  the object alive, so that no other object takes its id meanwhile; the table
  starts again when it reaches `limit` entries.
- `Memo`: keyed by a hashable value; starts again at `limit` entries (None:
  unbounded).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

_ALL: list[_Table] = []


class _Table:
    __slots__ = ("entries", "limit", "name")

    def __init__(self, name: str, limit: int | None):
        self.name = name
        self.limit = limit
        self.entries: dict = {}
        _ALL.append(self)

    def clear(self) -> None:
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)

    def _room(self) -> None:
        if self.limit is not None and len(self.entries) >= self.limit:
            self.entries.clear()


class ClassMemo(_Table, Generic[V]):
    """``cls -> value``, computed once per class."""

    __slots__ = ()

    def __init__(self, name: str):
        super().__init__(name, None)

    def lookup(self, cls: type, compute: Callable[[type], V]) -> V:
        try:
            return self.entries[cls]
        except KeyError:
            value = self.entries[cls] = compute(cls)
            return value


class IdentityMemo(_Table, Generic[K, V]):
    """``obj -> value`` by identity, the object kept alive with its answer."""

    __slots__ = ()

    def __init__(self, name: str, limit: int = 1 << 16):
        super().__init__(name, limit)

    def lookup(self, obj: K, compute: Callable[[K], V]) -> V:
        entry = self.entries.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1]
        value = compute(obj)
        self._room()
        self.entries[id(obj)] = (obj, value)
        return value


class Memo(_Table, Generic[K, V]):
    """``key -> value`` for hashable keys."""

    __slots__ = ()

    def __init__(self, name: str, limit: int | None = 1 << 16):
        super().__init__(name, limit)

    def lookup(self, key: Hashable, compute: Callable[..., V], *args: object) -> V:
        """The value for ``key``, ``compute(*args)`` the first time (arguments, not a closure: no
        function is made per call on the hot path)."""
        try:
            return self.entries[key]
        except KeyError:
            pass
        value = compute(*args)
        self._room()
        self.entries[key] = value
        return value


def all_memos() -> tuple[_Table, ...]:
    """Every memo table created so far (by modules already imported)."""
    return tuple(_ALL)


def clear_all() -> None:
    """Empty every memo table."""
    for table in _ALL:
        table.clear()
