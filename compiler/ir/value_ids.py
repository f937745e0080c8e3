"""One object standing for all equal attributes, for caches keyed by identity.

Attributes and types are immutable and verifiers read only their values, so
what held for one object holds for every equal one. Passes build new type
objects all the time (each ``tensor<?x?xf32>`` a rewrite creates is a new
object): a cache keyed by ``id()`` misses where one keyed by value would hit,
but hashing a type by value walks all its parameters on every lookup.
``canonical`` hashes each object once and answers the first equal object seen;
a cache keyed by the ids of canonical objects must keep those objects alive
(so that no other object takes one of their ids while the key is remembered).
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

# id(object) -> (object, its canonical object); the object is kept alive with
# the answer, so its id cannot be reused meanwhile.
_BY_ID: dict[int, tuple[object, object]] = {}
_BY_VALUE: dict[object, object] = {}
# How many objects are remembered before starting again (keys already built
# keep their canonical objects alive themselves).
_LIMIT = 1 << 16


def canonical(obj: T) -> T:
    """The first object seen equal to ``obj`` (``obj`` itself if unhashable)."""
    entry = _BY_ID.get(id(obj))
    if entry is not None and entry[0] is obj:
        return entry[1]  # type: ignore[return-value]
    if len(_BY_ID) >= _LIMIT:
        _BY_ID.clear()
        _BY_VALUE.clear()
    try:
        found = _BY_VALUE.setdefault(obj, obj)
    except TypeError:  # unhashable: stands for itself
        found = obj
    _BY_ID[id(obj)] = (obj, found)
    return found  # type: ignore[return-value]
