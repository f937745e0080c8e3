"""Large arrays reused across ops and calls once nothing refers to them any more.

A fresh numpy array of more than a few pages costs page faults and the
kernel's zero fill on its first write, about as much as one pass copying it
(from 64 KiB on, a visible part of a 256x256 matmul's time). A program called
repeatedly (a benchmark, a serving loop) needs arrays of the same sizes every
call: a matmul's operand matrices, its product, a dispatch's result resource.
:class:`BufferPool` hands back an array of the same byte size that an earlier
op or call has dropped instead of allocating a new one.

"Dropped" is decided by reference counting: a pooled buffer is reused only when
the pool itself holds the last reference. Every numpy view of a buffer (a
reshape, a transpose, a ``typed_view`` of a resource, a strided relayout view)
keeps its base alive, so a value still in use, or a result the caller still
holds, is never handed out again. Like IREE's transient allocations, a reused
buffer is not cleared: whoever takes one writes all of it before reading it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["BufferPool", "scratch_pool"]


class BufferPool:
    """Flat ``uint8`` buffers of a few sizes, reused once nothing else holds them.

    Buffers smaller than ``MIN_BYTES`` (cheap to allocate) are always fresh; at
    most ``PER_SIZE`` buffers of one size are kept (a program creating ever new
    sizes allocates, as without the pool, but the pool stays small).
    """

    MIN_BYTES = 1 << 16
    PER_SIZE = 4

    def __init__(self) -> None:
        self._buffers: dict[int, list[np.ndarray]] = {}

    def new(self, nbytes: int) -> np.ndarray:
        """A buffer nobody has used: zeros (numpy's ``calloc`` maps zero pages)."""
        return np.zeros(nbytes, np.uint8)

    def take(self, nbytes: int) -> np.ndarray:
        """A flat ``uint8`` buffer of ``nbytes``: zeros if new, stale contents if reused."""
        nbytes = int(nbytes)
        if nbytes < self.MIN_BYTES:
            return self.new(nbytes)
        buffers = self._buffers.setdefault(nbytes, [])
        for buffer in buffers:
            # Held only by this list, this loop and the call: no value, view or
            # caller's result refers to it any more.
            if sys.getrefcount(buffer) == 3:
                return buffer
        buffer = self.new(nbytes)
        if len(buffers) < self.PER_SIZE:
            buffers.append(buffer)
        return buffer

    def empty(self, shape: Sequence[int], dtype: Any) -> np.ndarray:
        """A C-contiguous array of ``shape`` and ``dtype`` whose contents are undefined (``np.empty``)."""
        dtype = np.dtype(dtype)
        count = 1
        for extent in shape:
            count *= int(extent)
        nbytes = count * dtype.itemsize
        if nbytes < self.MIN_BYTES or dtype.hasobject:
            return np.empty(tuple(shape), dtype)
        return self.take(nbytes).view(dtype).reshape(tuple(shape))


def scratch_pool(interpreter: Any) -> BufferPool:
    """The interpreter's pool for arrays ops create (operand copies, products, relayouts)."""
    pool = getattr(interpreter, "_scratch_pool", None)
    if pool is None:
        pool = BufferPool()
        interpreter._scratch_pool = pool
    return pool
