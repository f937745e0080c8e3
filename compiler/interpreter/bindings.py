"""Bindings seen as typed arrays: what a dispatch reads and writes through.

A binding is a flat byte buffer (a ``uint8`` ndarray). A subspan op
(``stream.binding.subspan``, ``hal.interface.binding.subspan``) views it at a
byte offset as the type it declares: a dispatch tensor type gives a
:class:`DispatchTensor` (a mutable holder of one ndarray, written by
``dispatch.tensor.store`` and read by ``dispatch.tensor.load``), a memref type
the ndarray view itself. Either way the view shares the binding's bytes, so a
store is visible to whoever reads that memory afterwards.

The ``flow``, ``stream`` and ``hal`` implementations all view bindings, which
is why this lives apart from each of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, StridedLayoutAttr
from xdsl.ir import Attribute, Operation

from mini_iree.compiler.interpreter.core import InterpreterError, numpy_dtype
from mini_iree.dialects import iree_tensor_ext

__all__ = ["DispatchTensor", "shape_with_dims", "typed_view", "view_binding"]


def shape_with_dims(op: Operation, shape: Sequence[int], dims: Sequence[int]) -> tuple[int, ...]:
    """``shape`` with each ``?`` replaced by the next of ``dims`` (the ``{%d0, %d1}`` operands)."""
    dynamic = [i for i, extent in enumerate(shape) if extent == DYNAMIC_INDEX]
    if len(dynamic) != len(dims):
        raise InterpreterError(op, f"expected {len(dynamic)} dynamic dimension values, got {len(dims)}")
    result = list(shape)
    for position, value in zip(dynamic, dims):
        extent = int(value)
        if extent < 0:
            raise InterpreterError(op, f"negative dynamic dimension {extent}")
        result[position] = extent
    return tuple(result)



class DispatchTensor:
    """A binding seen as a tensor: a mutable holder of one ndarray.

    ``array`` has the declared shape of the dispatch tensor type (the logical
    shape when the bound type has an encoding). ``access`` is the declared
    access (``readonly``/``writeonly``/``readwrite``), checked by loads and stores.
    """

    def __init__(self, array: np.ndarray, access: str = "readwrite"):
        self.array = array
        self.access = access

    def __repr__(self) -> str:
        return f"DispatchTensor({self.access}, shape={self.array.shape}, dtype={self.array.dtype})"


def view_binding(op: Operation, buffer: np.ndarray, byte_offset: int, type_: Attribute, dims: Sequence[int]) -> Any:
    """A typed view of a binding's flat bytes, as a subspan op declares it.

    A dispatch tensor type gives a :class:`DispatchTensor` over the view, a
    memref type the ndarray view itself; writes through either land in the
    binding.
    """
    if isinstance(type_, iree_tensor_ext.DispatchTensorTypeBase):
        shape = shape_with_dims(op, type_.get_shape(), dims)
        array = typed_view(op, buffer, byte_offset, shape, numpy_dtype(type_.get_element_type()))
        return DispatchTensor(array, type_.access.data)
    if isinstance(type_, MemRefType):
        shape = shape_with_dims(op, type_.get_shape(), dims)
        _check_row_major(op, type_, shape)
        return typed_view(op, buffer, byte_offset, shape, numpy_dtype(type_.element_type))
    raise InterpreterError(op, f"cannot view a binding as {type_}")


def _check_row_major(op: Operation, type_: MemRefType, shape: Sequence[int]) -> None:
    """Bindings are viewed row-major: a strided layout must say the same (``?`` matches anything)."""
    layout = type_.layout
    if not isinstance(layout, StridedLayoutAttr):
        return
    expected, stride = [], 1
    for extent in reversed(shape):
        expected.insert(0, stride)
        stride *= extent
    for dim, (declared, actual) in enumerate(zip(layout.get_strides(), expected)):
        if declared is not None and declared != actual and shape[dim] != 1:
            raise InterpreterError(
                op, f"binding layout {layout} is not row-major for shape {tuple(shape)} (dim {dim})"
            )


def typed_view(
    op: Operation, buffer: np.ndarray, byte_offset: int, shape: Sequence[int], dtype: np.dtype
) -> np.ndarray:
    """The row-major array of ``shape`` and ``dtype`` at ``byte_offset`` of a flat byte buffer."""
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if byte_offset < 0 or byte_offset + nbytes > buffer.size:
        raise InterpreterError(
            op,
            f"binding of {buffer.size} bytes is too small for {'x'.join(map(str, shape)) or 'scalar'} "
            f"{dtype} at byte offset {byte_offset} ({nbytes} bytes)",
        )
    if byte_offset % dtype.itemsize:
        raise InterpreterError(op, f"byte offset {byte_offset} is not aligned to {dtype} elements")
    return buffer[byte_offset : byte_offset + nbytes].view(dtype).reshape(shape)
