"""Writing a value straight into the buffer it is about to be stored to.

A dispatch ends by storing its result tensor: ``iree_codegen.store_to_buffer
%value, %binding``. When ``%value`` is computed by a relayout
(``iree_linalg_ext.map_scatter``: a pack, an unpack) or by a contraction whose
only consumer is such a relayout (a matmul dispatch's ``mmt4d`` and its
unpack), the interpreter may compute it in the binding's memory: the store then
finds the value already in place and copies nothing (``copy_into``).

That is safe when:

* the value's only use (besides ``tensor.dim``, which reads the shape) is the
  chain ending in the store, so no one sees the value after the store;
* the buffer exists before the producer runs (an argument of the block or an
  earlier op) and nothing between the producer and the store touches memory
  (only index arithmetic, ``tensor.dim``, ``tensor.empty`` and the relayout):
  the buffer's old contents are never read after the value lands there;
* the store writes the whole buffer (it stores a whole tensor), so whatever
  the buffer held is replaced exactly as the program says;
* at run time, the buffer is a writable C-contiguous array that shares no
  memory with the producer's operands (a resource bound twice).

The static part is read once per op (:func:`store_buffer_value`); the caller
checks the rest with :func:`usable_buffer`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation, SSAValue

__all__ = ["RELAYOUTS", "store_buffer_value", "usable_buffer"]

RELAYOUTS = ("iree_linalg_ext.map_scatter", "iree_linalg_ext.map_store")
_STORE = "iree_codegen.store_to_buffer"
_PURE_PREFIXES = ("arith.", "affine.")
_PURE_OPS = ("tensor.dim", "tensor.empty")


def _only_user(value: SSAValue) -> Operation | None:
    """The one op using ``value``, not counting ``tensor.dim``s; None if there are more or none."""
    users = [use.operation for use in value.uses if use.operation.name != "tensor.dim"]
    return users[0] if len(users) == 1 else None


def store_buffer_value(op: Operation, through_relayout: bool) -> SSAValue | None:
    """The buffer ``op``'s single result may be computed in (see the module docstring), or None.

    ``through_relayout``: ``op`` is a contraction whose result goes through one
    relayout before the store; otherwise ``op`` is the relayout itself.
    """
    if len(op.results) != 1:
        return None
    value = op.results[0]
    skipped: Operation | None = None
    if through_relayout:
        relayout = _only_user(value)
        if relayout is None or relayout.name not in RELAYOUTS or relayout.operands[0] is not value:
            return None
        if len(relayout.results) != 1:
            return None
        skipped, value = relayout, relayout.results[0]
    store = _only_user(value)
    if store is None or store.name != _STORE or store.operands[0] is not value:
        return None
    buffer = store.operands[1]
    block = op.parent_block()
    if block is None:
        return None
    ops = list(block.ops)
    try:
        at, stored = ops.index(op), ops.index(store)
        defined = -1 if buffer.owner is block else ops.index(buffer.owner)  # type: ignore[arg-type]
    except ValueError:
        return None
    if not defined < at < stored:
        return None
    for between in ops[at + 1 : stored]:
        if between is not skipped and not (between.name.startswith(_PURE_PREFIXES) or between.name in _PURE_OPS):
            return None
    return buffer


def usable_buffer(buffer: Any, shape: Sequence[int] | None, dtype: Any, operands: Sequence[Any]) -> bool:
    """Whether ``buffer`` (the runtime value) can take the value: writable, C-contiguous, of
    ``shape`` (when given) and ``dtype``, and sharing no memory with any of ``operands``."""
    if not isinstance(buffer, np.ndarray) or not buffer.flags.writeable or not buffer.flags.c_contiguous:
        return False
    if buffer.dtype != dtype or (shape is not None and buffer.shape != tuple(shape)):
        return False
    return not any(isinstance(x, np.ndarray) and np.may_share_memory(buffer, x) for x in operands)
