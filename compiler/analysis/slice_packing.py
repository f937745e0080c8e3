"""Where ``stream.resource.pack`` puts its slices: IREE's layout of one allocation shared by many resources.

A pack op lists slices, each a byte size and a lifetime interval ``[start,
end]`` (op indices of the region using it). IREE's ``iree-stream-layout-slices``
lays them out in two steps, which ``iree-stream-layout-slices`` and the
interpreter's ``stream.resource.pack`` both follow (through this module):

1. slices of a constant size first, greedily from the base offset: each goes
   in the smallest gap (between slices whose lifetimes it overlaps) that fits
   it, else after them (``packStaticSlicesGreedily``);
2. then the others, conservatively (``packDynamicSlicesConservatively``):
   bucketed by their size value, in order of first appearance; within a
   bucket, slices with disjoint lifetimes share a bin; each new bin starts at
   the running offset.

Offsets and sizes are aligned to 64 bytes, IREE's default minimum buffer
offset and range alignment (``#stream.resource_config``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

__all__ = ["ALIGNMENT", "align", "dynamic_bins", "intersects", "pack_static"]

ALIGNMENT = 64


def align(value: int, alignment: int = ALIGNMENT) -> int:
    return (value + alignment - 1) // alignment * alignment


def intersects(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """IREE's ``Slice::intersects``: the lifetimes overlap."""
    return a[1] >= b[0] and b[1] >= a[0]


def pack_static(intervals: Sequence[tuple[int, int]], sizes: Sequence[int]) -> tuple[list[int], int]:
    """Offsets (from the base) of constant-size slices, and the aligned high-water mark."""
    reservations: list[tuple[int, int, tuple[int, int]]] = []  # (offset, aligned size, interval), by offset
    offsets: list[int] = []
    high = 0
    for interval, size in zip(intervals, sizes):
        aligned_size = align(size)
        best: int | None = None
        best_fit: int | None = None
        current = 0
        for offset, reserved, other in reservations:
            if not intersects(other, interval):
                continue
            aligned_offset = align(current)
            if aligned_offset + aligned_size <= offset and (best_fit is None or offset - aligned_offset < best_fit):
                best, best_fit = aligned_offset, offset - current
            current = max(current, offset + reserved)
        if best is None:
            best = align(current)
        position = 0
        while position < len(reservations) and reservations[position][0] < best:
            position += 1
        reservations.insert(position, (best, aligned_size, interval))
        offsets.append(best)
        high = max(high, best + aligned_size)
    return offsets, align(high)


def dynamic_bins(intervals: Sequence[tuple[int, int]], keys: Sequence[Hashable]) -> list[list[int]]:
    """The bins of the dynamic slices, in allocation order: slice indices sharing one range.

    Slices are bucketed by ``keys`` (their size values) in order of first
    appearance; within a bucket, in lifetime order, a slice joins the first bin
    none of whose slices it overlaps.
    """
    buckets: dict[Hashable, list[int]] = {}
    for index, key in enumerate(keys):
        buckets.setdefault(key, []).append(index)
    bins: list[list[int]] = []
    for members in buckets.values():
        bucket_bins: list[list[int]] = []
        for index in sorted(members, key=lambda i: intervals[i]):
            target = next(
                (b for b in bucket_bins if not any(intersects(intervals[j], intervals[index]) for j in b)), None
            )
            if target is None:
                target = []
                bucket_bins.append(target)
                bins.append(target)
            target.append(index)
    return bins
