"""``tensor`` ops on numpy arrays.

Tensors are values: no op writes into an operand's array. Ops that produce a
modified tensor (``insert_slice``, ``insert``) copy their destination first;
slices are returned as numpy views, which is safe because nothing writes to
a tensor in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Operation

from mini_iree.compiler.interpreter.core import (
    InterpreterError,
    element_type,
    mixed_ints,
    numpy_dtype,
    result_shape,
    run_block,
    scalar_of,
)
from mini_iree.dialects import tensor


def check_shape(op: Operation, value: np.ndarray, type_: Any, what: str = "result") -> None:
    """Error unless ``value``'s shape fits ``type_``'s static dimensions."""
    expected = type_.get_shape()
    if len(expected) != value.ndim or any(e != DYNAMIC_INDEX and e != a for e, a in zip(expected, value.shape)):
        raise InterpreterError(op, f"{what} has shape {_shape_text(value.shape)}, which does not fit {type_}")


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join(str(d) for d in shape) if shape else "scalar"


def slice_spec(
    op: Operation, shape: Sequence[int], offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> tuple[slice, ...]:
    """numpy slices for an MLIR offsets/sizes/strides triple; out-of-bounds slices are errors."""
    if not (len(offsets) == len(sizes) == len(strides) == len(shape)):
        raise InterpreterError(op, f"slice of rank {len(sizes)} on a tensor of rank {len(shape)}")
    result = []
    for dim, (offset, size, stride, extent) in enumerate(zip(offsets, sizes, strides, shape)):
        last = offset + (size - 1) * stride
        if size < 0 or stride <= 0 or offset < 0 or (size > 0 and last >= extent) or offset > extent:
            raise InterpreterError(
                op,
                f"out-of-bounds slice in dimension {dim}: offset {offset}, size {size}, stride {stride} "
                f"on a dimension of size {extent}",
            )
        result.append(slice(offset, offset + size * stride, stride) if size > 0 else slice(offset, offset))
    return tuple(result)


def reduced_sizes(op: Operation, sizes: Sequence[int], rank: int) -> list[int]:
    """The shape of a rank-reducing slice: ``sizes`` without enough unit dimensions to reach ``rank``.

    Only unit dimensions are ever dropped, so which ones does not change the data.
    """
    drop = len(sizes) - rank
    out = []
    for size in sizes:
        if drop > 0 and size == 1:
            drop -= 1
            continue
        out.append(size)
    if drop:
        raise InterpreterError(op, f"cannot drop {len(sizes) - rank} unit dimensions from sizes {list(sizes)}")
    return out


def _slice_params(interpreter: Interpreter, op: Any) -> tuple[list[int], list[int], list[int]]:
    offsets = mixed_ints(interpreter, op.static_offsets.get_values(), op.offsets)
    sizes = mixed_ints(interpreter, op.static_sizes.get_values(), op.sizes)
    strides = mixed_ints(interpreter, op.static_strides.get_values(), op.strides)
    return offsets, sizes, strides


def insert_into(
    interpreter: Interpreter, op: Any, source: np.ndarray, dest: np.ndarray, *, in_place: bool = False
) -> np.ndarray:
    """``dest`` with ``source`` written at the op's offsets/sizes/strides (a copy unless ``in_place``)."""
    offsets, sizes, strides = _slice_params(interpreter, op)
    where = slice_spec(op, dest.shape, offsets, sizes, strides)
    if int(np.prod(source.shape)) != int(np.prod(sizes)):
        raise InterpreterError(op, f"source of shape {_shape_text(source.shape)} does not fill a slice of sizes {sizes}")
    out = dest if in_place else dest.copy()
    out[where] = np.reshape(source, sizes)
    return out


def _check_index(op: Operation, array: np.ndarray, indices: Sequence[int]) -> tuple[int, ...]:
    if len(indices) != array.ndim or any(not 0 <= i < d for i, d in zip(indices, array.shape)):
        raise InterpreterError(op, f"index [{', '.join(map(str, indices))}] is out of bounds for shape {_shape_text(array.shape)}")
    return tuple(int(i) for i in indices)


@register_impls
class TensorFunctions(InterpreterFunctions):
    @impl(tensor.EmptyOp)
    def run_empty(self, interpreter: Interpreter, op: tensor.EmptyOp, args: tuple[Any, ...]):
        # The static shape and the zero are read once per op (a dispatch makes its empty
        # tensors every call); the operands are the dynamic sizes, in order.
        known = interpreter.get_data(TensorFunctions, "empties", dict)
        entry = known.get(op)
        if entry is None:
            static = list(op.tensor.type.get_shape())
            entry = known[op] = [static, np.zeros((), numpy_dtype(element_type(op.tensor.type))), None, None]
        static, zero, last_shape, last = entry
        sizes = iter(args)
        shape = tuple(int(next(sizes)) if d == DYNAMIC_INDEX else d for d in static)
        if shape == last_shape:
            # The same read-only value as last time (nothing can write into it).
            return (last,)
        if any(d < 0 for d in shape):
            raise InterpreterError(op, f"negative dimension size in {shape}")
        # Reading an empty tensor is a bug, but a reproducible one: it reads zeros.
        # A read-only broadcast zero costs nothing, whatever the size.
        entry[2:] = [shape, np.broadcast_to(zero, shape)]
        return (entry[3],)

    @impl(tensor.DimOp)
    def run_dim(self, interpreter: Interpreter, op: tensor.DimOp, args: tuple[Any, ...]):
        array, index = args
        if not 0 <= index < np.ndim(array):
            raise InterpreterError(op, f"dimension {index} is out of range for a tensor of rank {np.ndim(array)}")
        return (int(np.shape(array)[index]),)

    @impl(tensor.CastOp)
    def run_cast(self, interpreter: Interpreter, op: tensor.CastOp, args: tuple[Any, ...]):
        check_shape(op, args[0], op.dest.type)
        return (args[0],)

    @impl(tensor.BitcastOp)
    def run_bitcast(self, interpreter: Interpreter, op: tensor.BitcastOp, args: tuple[Any, ...]):
        return (np.ascontiguousarray(args[0]).view(numpy_dtype(element_type(op.dest.type))),)

    @impl(tensor.ExpandShapeOp)
    def run_expand_shape(self, interpreter: Interpreter, op: tensor.ExpandShapeOp, args: tuple[Any, ...]):
        shape = mixed_ints(interpreter, op.static_output_shape.get_values(), op.output_shape)
        if int(np.prod(shape)) != args[0].size:
            raise InterpreterError(op, f"cannot expand {_shape_text(args[0].shape)} into {_shape_text(shape)}")
        return (np.reshape(args[0], shape),)

    @impl(tensor.CollapseShapeOp)
    def run_collapse_shape(self, interpreter: Interpreter, op: tensor.CollapseShapeOp, args: tuple[Any, ...]):
        source = args[0]
        groups = op.get_reassociation_indices()
        shape = [int(np.prod([source.shape[d] for d in group], dtype=np.int64)) for group in groups]
        return (np.reshape(source, shape),)

    @impl(tensor.ReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: tensor.ReshapeOp, args: tuple[Any, ...]):
        shape = [int(d) for d in np.asarray(args[1]).reshape(-1)]
        if int(np.prod(shape)) != args[0].size:
            raise InterpreterError(op, f"cannot reshape {_shape_text(args[0].shape)} into {_shape_text(shape)}")
        return (np.reshape(args[0], shape),)

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(self, interpreter: Interpreter, op: tensor.ExtractSliceOp, args: tuple[Any, ...]):
        source = args[0]
        offsets, sizes, strides = _slice_params(interpreter, op)
        view = source[slice_spec(op, source.shape, offsets, sizes, strides)]
        return (np.reshape(view, reduced_sizes(op, sizes, op.result.type.get_num_dims())),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(self, interpreter: Interpreter, op: tensor.InsertSliceOp, args: tuple[Any, ...]):
        return (insert_into(interpreter, op, args[0], args[1]),)

    @impl(tensor.PadOp)
    def run_pad(self, interpreter: Interpreter, op: tensor.PadOp, args: tuple[Any, ...]):
        source = args[0]
        low = mixed_ints(interpreter, op.static_low.get_values(), op.low)
        high = mixed_ints(interpreter, op.static_high.get_values(), op.high)
        if any(v < 0 for v in (*low, *high)):
            raise InterpreterError(op, "negative padding is not supported")
        shape = [lo + d + hi for lo, d, hi in zip(low, source.shape, high)]
        block = op.region.block
        if any(arg.uses for arg in block.args):
            # The padding value depends on the position: evaluate the body on index grids.
            grids = [
                np.arange(n).reshape([n if i == d else 1 for i in range(len(shape))]) for d, n in enumerate(shape)
            ]
            (value,) = run_block(interpreter, block, grids)
        else:
            (value,) = run_block(interpreter, block, [0] * len(shape))
        out = np.empty(shape, source.dtype)
        out[...] = value
        out[tuple(slice(lo, lo + d) for lo, d in zip(low, source.shape))] = source
        return (out,)

    @impl(tensor.ExtractOp)
    def run_extract(self, interpreter: Interpreter, op: tensor.ExtractOp, args: tuple[Any, ...]):
        array, *indices = args
        return (scalar_of(array[_check_index(op, array, indices)], op.result.type),)

    @impl(tensor.InsertOp)
    def run_insert(self, interpreter: Interpreter, op: tensor.InsertOp, args: tuple[Any, ...]):
        scalar, dest, *indices = args
        out = dest.copy()
        out[_check_index(op, dest, indices)] = scalar
        return (out,)

    @impl(tensor.SplatOp)
    def run_splat(self, interpreter: Interpreter, op: tensor.SplatOp, args: tuple[Any, ...]):
        shape = result_shape(interpreter, op.result.type, op.dynamicSizes)
        return (np.full(shape, args[0], dtype=numpy_dtype(element_type(op.result.type))),)

    @impl(tensor.FromElementsOp)
    def run_from_elements(self, interpreter: Interpreter, op: tensor.FromElementsOp, args: tuple[Any, ...]):
        dtype = numpy_dtype(element_type(op.result.type))
        return (np.array(args, dtype=dtype).reshape(op.result.type.get_shape()),)

    @impl(tensor.ConcatOp)
    def run_concat(self, interpreter: Interpreter, op: tensor.ConcatOp, args: tuple[Any, ...]):
        return (np.concatenate(args, axis=op.dim.value.data),)


FUNCTIONS = (TensorFunctions,)
