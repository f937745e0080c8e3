"""``memref``: buffers are numpy arrays, and views (subview, reshapes, casts) share their memory.

``memref.store`` and ``memref.copy`` write in place; every access is bounds-checked.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import memref
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Operation

from mini_iree.compiler.interpreter.core import (
    InterpreterError,
    element_type,
    mixed_ints,
    numpy_dtype,
    result_shape,
    scalar_of,
)
from mini_iree.compiler.interpreter.relayout_origins import note_flat_write, note_write
from mini_iree.compiler.interpreter.tensor_ops import reduced_sizes, slice_spec


def _check_index(op: Operation, array: np.ndarray, indices: tuple[Any, ...]) -> tuple[Any, ...]:
    if len(indices) != array.ndim:
        raise InterpreterError(op, f"{len(indices)} indices into a memref of rank {array.ndim}")
    for dim, (index, extent) in enumerate(zip(indices, array.shape)):
        index = np.asarray(index)
        if index.size and (index.min() < 0 or index.max() >= extent):
            bad = index.min() if index.min() < 0 else index.max()
            raise InterpreterError(op, f"index {bad} is out of bounds in dimension {dim} of size {extent}")
    return tuple(indices)


def _reshape_view(op: Operation, array: np.ndarray, shape: list[int]) -> np.ndarray:
    view = array.view()
    try:
        view.shape = shape  # raises instead of copying when a view is impossible
    except AttributeError:
        raise InterpreterError(op, "this reshape of a strided memref cannot be a view") from None
    return view


@register_impls
class MemrefFunctions(InterpreterFunctions):
    @impl(memref.AllocOp)
    def run_alloc(self, interpreter: Interpreter, op: memref.AllocOp, args: tuple[Any, ...]):
        shape = result_shape(interpreter, op.memref.type, op.dynamic_sizes)
        return (np.zeros(shape, numpy_dtype(element_type(op.memref.type))),)

    @impl(memref.AllocaOp)
    def run_alloca(self, interpreter: Interpreter, op: memref.AllocaOp, args: tuple[Any, ...]):
        shape = result_shape(interpreter, op.memref.type, op.dynamic_sizes)
        return (np.zeros(shape, numpy_dtype(element_type(op.memref.type))),)

    @impl(memref.DeallocOp)
    def run_dealloc(self, interpreter: Interpreter, op: memref.DeallocOp, args: tuple[Any, ...]):
        return ()

    @impl(memref.LoadOp)
    def run_load(self, interpreter: Interpreter, op: memref.LoadOp, args: tuple[Any, ...]):
        array, *indices = args
        return (scalar_of(array[_check_index(op, array, tuple(indices))], op.res.type),)

    @impl(memref.StoreOp)
    def run_store(self, interpreter: Interpreter, op: memref.StoreOp, args: tuple[Any, ...]):
        value, array, *indices = args
        from mini_iree.compiler.interpreter.scf_ops import captured_stores, lane_mask

        mask = lane_mask(interpreter)
        if mask is not None and np.ndim(mask) == 0 and mask:
            # Every lane is active (scf_ops' tile loops): indices and value broadcast together.
            if np.shape(value):
                shape = np.broadcast_shapes(np.shape(value), *(np.shape(i) for i in indices))
                indices = [np.broadcast_to(i, shape) for i in indices]
        elif mask is not None:
            # Inside a loop nest running as lanes: store for the active lanes only (the
            # others may hold indices that are out of bounds).
            shape = np.broadcast_shapes(np.shape(mask), np.shape(value), *(np.shape(i) for i in indices))
            active = np.broadcast_to(mask, shape)
            indices = [np.broadcast_to(i, shape)[active] for i in indices]
            value = np.broadcast_to(value, shape)[active]
        if array.flags.c_contiguous and len(indices) == array.ndim and any(np.ndim(i) for i in indices):
            # Many lanes: one flat index per lane, bounds-checked by numpy in the same pass.
            try:
                flat = np.ravel_multi_index(tuple(indices), array.shape)
            except ValueError:
                _check_index(op, array, tuple(indices))  # names the index out of bounds
                raise
            if np.shape(value) and np.shape(value) != flat.shape:
                flat = np.broadcast_to(flat, np.broadcast_shapes(flat.shape, np.shape(value)))
            note_flat_write(interpreter, array, flat, value)
            array.reshape(-1)[flat] = value
            place, is_flat = flat, True
        else:
            note_write(interpreter, array)
            place, is_flat = _check_index(op, array, tuple(indices)), False
            array[place] = value
        stores = captured_stores(interpreter)
        if stores is not None:
            stores.append((op, is_flat, place, value))
        return ()

    @impl(memref.DimOp)
    def run_dim(self, interpreter: Interpreter, op: memref.DimOp, args: tuple[Any, ...]):
        array, index = args
        if not 0 <= index < array.ndim:
            raise InterpreterError(op, f"dimension {index} is out of range for a memref of rank {array.ndim}")
        return (int(array.shape[index]),)

    @impl(memref.SubviewOp)
    def run_subview(self, interpreter: Interpreter, op: memref.SubviewOp, args: tuple[Any, ...]):
        array = args[0]
        offsets = mixed_ints(interpreter, op.static_offsets.get_values(), op.offsets)
        sizes = mixed_ints(interpreter, op.static_sizes.get_values(), op.sizes)
        strides = mixed_ints(interpreter, op.static_strides.get_values(), op.strides)
        view = array[slice_spec(op, array.shape, offsets, sizes, strides)]
        return (_reshape_view(op, view, reduced_sizes(op, sizes, op.result.type.get_num_dims())),)

    @impl(memref.CopyOp)
    def run_copy(self, interpreter: Interpreter, op: memref.CopyOp, args: tuple[Any, ...]):
        source, dest = args
        if source.shape != dest.shape:
            raise InterpreterError(op, f"copy from shape {source.shape} into shape {dest.shape}")
        note_write(interpreter, dest)
        dest[...] = source
        return ()

    @impl(memref.ExpandShapeOp)
    def run_expand_shape(self, interpreter: Interpreter, op: memref.ExpandShapeOp, args: tuple[Any, ...]):
        shape = mixed_ints(interpreter, op.static_output_shape.get_values(), op.output_shape)
        return (_reshape_view(op, args[0], shape),)

    @impl(memref.CollapseShapeOp)
    def run_collapse_shape(self, interpreter: Interpreter, op: memref.CollapseShapeOp, args: tuple[Any, ...]):
        array = args[0]
        groups = [[int(getattr(d, 'value', d).data) for d in group] for group in op.reassociation]
        shape = [int(np.prod([array.shape[d] for d in group], dtype=np.int64)) for group in groups]
        return (_reshape_view(op, array, shape),)

    @impl(memref.CastOp)
    def run_cast(self, interpreter: Interpreter, op: memref.CastOp, args: tuple[Any, ...]):
        return (args[0],)

    @impl(memref.AssumeAlignmentOp)
    def run_assume_alignment(self, interpreter: Interpreter, op: memref.AssumeAlignmentOp, args: tuple[Any, ...]):
        return (args[0],)


FUNCTIONS = (MemrefFunctions,)
