"""Source locations kept through rewrites, as MLIR keeps them.

MLIR gives every op a location when it is created: a rewrite passes the
location of the op it replaces (``rewriter.create<X>(op.getLoc(), ...)``), an op
made from several ops takes ``FusedLoc::get`` of theirs, and a clone keeps the
location of what it clones. xDSL ops start with ``loc(unknown)``, so the passes
say where a new op comes from through the two functions below:

- ``fused_location(*sources)``: MLIR's ``FusedLoc::get``: nested fused locations
  flattened, unknown ones and repeats dropped; one location stands alone, none
  is ``loc(unknown)``.
- ``give_location(ops, location)``: stamps ``location`` on each op, the ops
  nested in it and the arguments of its blocks that have none yet, so ops a
  pass built for plumbing take the location of the op they serve and explicit
  locations are never overwritten.

``LocationStamping`` does the stamping for pattern rewrites: every op inserted
while a pattern rewrites an op, and still without a location, takes the
location of that op (``SelectivePatternRewriteWalker`` applies it to every
pattern pass).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    LocationAttr,
    NameLoc,
    NoneAttr,
    UnknownLoc,
)
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

__all__ = ["LocationStamping", "file_locations", "fused_location", "give_location", "is_unknown"]

_UNKNOWN = UnknownLoc()


def is_unknown(location: object) -> bool:
    return isinstance(location, UnknownLoc)


def _location_of(source: Operation | LocationAttr) -> LocationAttr:
    return source.location if isinstance(source, Operation) else source


def fused_location(*sources: Operation | LocationAttr | Iterable[Operation | LocationAttr]) -> LocationAttr:
    """The location of an op made from ``sources`` (ops or locations), as ``FusedLoc::get``."""
    flat: list[LocationAttr] = []
    seen: set[LocationAttr] = set()
    # Fused locations already flattened, by identity: many sources often share one (every use of a
    # constant that CSE merged), and flattening it again per source costs its size each time.
    expanded: set[int] = set()

    def add(location: LocationAttr) -> None:
        if isinstance(location, FusedLoc) and isinstance(location.metadata, NoneAttr):
            if id(location) in expanded:
                return
            expanded.add(id(location))
            for inner in location.locations.data:
                add(inner)
        elif not isinstance(location, UnknownLoc) and location not in seen:
            seen.add(location)
            flat.append(location)

    for source in sources:
        if isinstance(source, Operation | LocationAttr):
            add(_location_of(source))
        else:
            for item in source:
                add(_location_of(item))
    if not flat:
        return _UNKNOWN
    if len(flat) == 1:
        return flat[0]
    return FusedLoc(ArrayAttr(flat), NoneAttr())


def file_locations(location: object) -> list[FileLineColLoc]:
    """Every ``file:line:col`` a location is or contains, in order: the parts of a
    fused location, a name's own location, a call site's callee then caller."""
    if isinstance(location, FileLineColLoc):
        return [location]
    if isinstance(location, FusedLoc):
        return [found for inner in location.locations.data for found in file_locations(inner)]
    if isinstance(location, NameLoc):
        return file_locations(location.location)
    if isinstance(location, CallSiteLoc):
        return file_locations(location.callee) + file_locations(location.caller)
    return []


def give_location(ops: Operation | Iterable[Operation], location: Operation | LocationAttr) -> None:
    """Stamp ``location`` on the ops, their nested ops and block arguments that have no location yet."""
    location = _location_of(location)
    if isinstance(location, UnknownLoc):
        return
    for op in (ops,) if isinstance(ops, Operation) else ops:
        for inner in op.walk():
            if isinstance(inner.location, UnknownLoc):
                inner.location = location
            for region in inner.regions:
                for block in region.blocks:
                    for arg in block.args:
                        if isinstance(arg.location, UnknownLoc):
                            arg.location = location


class LocationStamping(RewritePattern):
    """Runs ``pattern``; the ops its rewrite of ``op`` inserts take ``op``'s location.

    Only ops without a location are stamped: a pattern that knows better
    (a fused location, the location of another op it folds) sets it itself.
    """

    def __init__(self, pattern: RewritePattern):
        self.pattern = pattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        location = op.location
        if isinstance(location, UnknownLoc):
            self.pattern.match_and_rewrite(op, rewriter)
            return

        def stamp(new_op: Operation) -> None:
            give_location(new_op, location)

        handlers = rewriter.operation_insertion_handler
        handlers.append(stamp)
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        finally:
            handlers.remove(stamp)
