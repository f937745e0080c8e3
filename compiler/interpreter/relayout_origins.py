"""Packed buffers known to hold, element for element, a strided view of a value still alive.

An encoding dispatch packs a matrix into tiles (``map_scatter`` into its result
binding); the matmul dispatch then loads the packed buffer, and the ``mmt4d``
reads it as a plain matrix again: numpy must copy the tiles back into rows for
BLAS. When the pack is a pure digit renaming that writes every element
(``relayout_view.ScatterPlan.view``), the packed buffer equals a strided view
of the pack's source, and that view, seen as a matrix, is the source matrix
itself: the GEMM can read the original rows without any copy.

:class:`RelayoutOrigins` remembers that fact per buffer. The packed buffer is
still written exactly as the program says (anything may read its bytes); only
a later ``load_from_buffer`` of a read-only buffer is handed the equivalent
view instead of the buffer, which gives every consumer the same values.

A pack with padding (a source whose rows or columns do not fill the last tiles)
cannot be a view: the packed buffer holds elements the source does not have.
When such a pack writes every source element and leaves the initial value (a
constant) everywhere else, the record is *padded*: the buffer, the pack's plan,
its source and that pad value (:meth:`RelayoutOrigins.padded`). A contraction
reading the buffer as a matrix computes on the source itself and on the pad
value instead (``padded_products.py``).

It is sound while neither the buffer nor the source changes after the record:

* the source is a read-only array (a value: an imported input or a load from a
  ``ReadOnly`` binding) sharing no memory with the buffer;
* every op implementation that writes memory in place (``memref.store``,
  ``memref.copy``, ``store_to_buffer``, a ``map_scatter`` or ``linalg`` op on
  memrefs, a product computed in its store destination, a dispatch tensor
  store) calls :func:`note_write` first, which forgets every record whose
  buffer or source shares memory with the written array (a ``memref.store``
  that writes the values already there, as a padding loop storing the pad value
  over a padded pack's padding does, changes nothing and forgets nothing);
* records hold their buffer and source, so neither is freed or handed out
  again by a buffer pool while recorded, and they are all forgotten when the
  outermost call returns (the caller may change its arrays between calls).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["RelayoutOrigins", "note_flat_write", "note_write", "relayout_origins"]


def _key(array: np.ndarray) -> tuple:
    return (array.__array_interface__["data"][0], array.shape, array.strides, array.dtype.str)


class RelayoutOrigins:
    """Buffer -> a read-only view of another array with the same values (see the module docstring)."""

    def __init__(self) -> None:
        self._records: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._padded: dict[tuple, tuple[np.ndarray, np.ndarray, Any, Any]] = {}

    def __bool__(self) -> bool:
        return bool(self._records) or bool(self._padded)

    def record(self, buffer: np.ndarray, view: np.ndarray) -> None:
        """``buffer`` now holds exactly ``view``'s values (``view`` read-only, sharing no memory with it)."""
        if view.flags.writeable or view.shape != buffer.shape or view.dtype != buffer.dtype:
            return
        if np.may_share_memory(buffer, view):
            return
        self._records[_key(buffer)] = (buffer, view)

    def record_padded(self, buffer: np.ndarray, source: np.ndarray, plan: Any, pad: np.ndarray) -> None:
        """``buffer`` now holds ``source`` as ``plan`` relays it out, and ``pad``'s one value (a
        broadcast) everywhere else."""
        if source.flags.writeable or np.may_share_memory(buffer, source):
            return
        self._padded[_key(buffer)] = (buffer, source, plan, pad)

    def padded(self, buffer: np.ndarray) -> tuple[np.ndarray, Any, Any] | None:
        """``(source, plan, pad)`` recorded for exactly this memory, or None."""
        if not self._padded:
            return None
        found = self._padded.get(_key(buffer))
        return found[1:] if found is not None else None

    def origin(self, buffer: np.ndarray) -> np.ndarray | None:
        """The view recorded for exactly this memory (address, shape, strides, dtype), or None."""
        if not self._records:
            return None
        found = self._records.get(_key(buffer))
        return found[1] if found is not None else None

    def forget_overlapping(self, target: np.ndarray) -> None:
        """Forget every record whose buffer or view may share memory with ``target``."""
        stale = [
            key
            for key, (buffer, view) in self._records.items()
            if np.may_share_memory(target, buffer) or np.may_share_memory(target, view)
        ]
        for key in stale:
            del self._records[key]
        stale = [
            key
            for key, (buffer, source, _, _) in self._padded.items()
            if np.may_share_memory(target, buffer) or np.may_share_memory(target, source)
        ]
        for key in stale:
            del self._padded[key]

    def clear(self) -> None:
        self._records.clear()
        self._padded.clear()


def relayout_origins(interpreter: Any) -> RelayoutOrigins:
    """The interpreter's records (made on first use)."""
    origins = getattr(interpreter, "_relayout_origins", None)
    if origins is None:
        origins = RelayoutOrigins()
        interpreter._relayout_origins = origins
    return origins


def note_write(interpreter: Any, target: Any) -> None:
    """Call before writing ``target`` in place: records it may change are forgotten."""
    origins = getattr(interpreter, "_relayout_origins", None)
    if origins and isinstance(target, np.ndarray):
        origins.forget_overlapping(target)


def note_flat_write(interpreter: Any, target: np.ndarray, flat: Any, value: Any) -> None:
    """Call before ``target.reshape(-1)[flat] = value`` (``target`` C-contiguous): records are
    forgotten unless every element written already holds its value, bit for bit."""
    origins = getattr(interpreter, "_relayout_origins", None)
    if not origins:
        return
    itemsize = target.dtype.itemsize
    if itemsize in (1, 2, 4, 8) and target.dtype.kind in "biuf":
        bits = np.dtype(f"u{itemsize}")
        old = target.reshape(-1)[flat]
        new = np.asarray(value, dtype=target.dtype)
        if np.array_equal(old.view(bits), np.broadcast_to(new, old.shape).view(bits)):
            return
    origins.forget_overlapping(target)
