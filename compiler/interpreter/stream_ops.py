"""``stream``: resources, their sizes, and dispatches with bindings.

A ``!stream.resource`` value is a flat ``uint8`` array: the bytes of the
tensor it holds, row-major, at offset 0. Its length is the size the program
computed (``stream.tensor.sizeof``), which for an encoded tensor with a
resolved layout is the *padded* size the packed layout needs, so it is at
least the logical size. ``!stream.binding`` values are those same byte arrays
(or slices of them), and ``stream.binding.subspan`` views one as a typed
dispatch tensor, so a dispatch writes its results straight into the result
resources.

What the bytes of an encoded tensor mean is decided by the code that writes
and reads them. Before device code is materialized both sides see the logical
array (``stream.tensor.encode`` copies the logical value); after
materialization the encoding dispatches write packed tiles and the consumer
reads packed tiles. Either way producer and consumer agree.

Because the logical value would fit a resource sized without the layout's
padding, ``stream.tensor.encode`` results and ``stream.binding.subspan`` views of
tensors with a resolved layout check that the resource has room for the stored
layout: a host-side size computed too small fails at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, ReturnedValues, impl, impl_terminator, register_impls
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from mini_iree.compiler.interpreter.buffers import BufferPool
from mini_iree.compiler.interpreter.core import InterpreterError, numpy_dtype, run_block
from mini_iree.compiler.interpreter.bindings import shape_with_dims, typed_view, view_binding
from mini_iree.compiler.interpreter.exports import call_exported_function, resolved_export
from mini_iree.compiler.interpreter.flow_ops import slice_to_shape
from mini_iree.compiler.interpreter.util_ops import attribute_value, is_global_value
from mini_iree.dialects import iree_encoding, stream
from mini_iree.dialects.iree_codegen import EncodingResolverAttr
from mini_iree.dialects.iree_tensor_ext import DispatchTensorTypeBase

__all__ = ["READY", "StreamFunctions", "pack_slice_offsets", "storage_size"]


# ---------------------------------------------------------------------------
# Storage sizes
# ---------------------------------------------------------------------------


def _padded_shape(layout: Attribute, shape: Sequence[int]) -> list[int] | None:
    """A shape with as many elements as one resolved layout stores for ``shape``; None if unchanged.

    A packed layout (``encoding_info``) is stored as its ``linalg.pack`` result,
    which rounds each ``innerDimsPos`` dim up to its inner tile size (IREE's
    ``calculatePackedStorageSizeInBytes``); the swizzle moves elements but does
    not change their number. A padding layout adds its static pad to each dim.
    """
    if isinstance(layout, EncodingResolverAttr):
        info = layout.encoding_info
        if info is None or info.is_identity():
            return None
        # The packed shape comes from the shared layout algebra (imported here so
        # that only programs with resolved layouts need it).
        from mini_iree.compiler.layout.iree_encoding import packed_tensor_shape

        if layout.name == "iree_cpu.vmvx_encoding_resolver" and DYNAMIC_INDEX in info.inner_tile_sizes:
            # VMVX's microkernels pick the tile at run time; the host sizes for 16 (compiler/layout/storage.py).
            tiles = [16 if t == DYNAMIC_INDEX else t for t in info.inner_tile_sizes]
            info = dataclasses.replace(info, inner_tile_sizes=tiles)
        if info.scalable_tiles and any(info.scalable_tiles):
            # A scalable tile holds `tile * vscale` elements: the vscale the interpreter runs with.
            from mini_iree.compiler.interpreter.vector_ops import interpreter_vscale

            vscale = interpreter_vscale()
            tiles = [t * vscale if s else t for t, s in zip(info.inner_tile_sizes, info.scalable_tiles)]
            info = dataclasses.replace(info, inner_tile_sizes=tiles, scalable_tiles=None)
        packed = packed_tensor_shape(info, tuple(shape))
        if any(extent is None or extent < 0 for extent in packed):
            raise ValueError(f"dynamic inner tile size in {layout}")
        return list(packed)
    if isinstance(layout, iree_encoding.PaddingAttr | iree_encoding.PadEncodingLayoutAttr):
        # The padded shape of the pad-only layout, from the shared layout algebra.
        from mini_iree.compiler.layout.padding import padded_shape

        return list(padded_shape(layout.get_padding(), tuple(shape)))  # type: ignore[arg-type]
    return None


def storage_size(op: Operation, type_: Attribute, dims: Sequence[int]) -> int:
    """The byte size of a resource holding a tensor of ``type_`` with dynamic dims ``dims``.

    A plain tensor or one with an unserialized encoding takes product(shape) x
    element bytes. A tensor with a serialized ``#iree_encoding.layout`` takes
    the padded size of its layout (the largest, when it lists several devices).
    """
    if not isinstance(type_, TensorType):
        raise InterpreterError(op, f"cannot size {type_}")
    shape = shape_with_dims(op, type_.get_shape(), dims)
    itemsize = numpy_dtype(type_.element_type).itemsize
    plain = int(np.prod(shape, dtype=np.int64)) * itemsize
    encoding = type_.encoding
    if isinstance(encoding, iree_encoding.LayoutAttr):
        sizes = [plain]
        for layout in encoding.layouts.data:
            try:
                padded = _padded_shape(layout, shape)
            except ValueError as error:
                raise InterpreterError(op, str(error)) from error
            if padded is not None:
                sizes.append(int(np.prod(padded, dtype=np.int64)) * itemsize)
        return max(sizes)
    return plain


def _check_fits(op: Operation, size: int, type_: Attribute, dims: Sequence[int]) -> None:
    """A resource holding a tensor with a resolved layout must have room for the stored layout.

    Before device code is materialized the interpreter keeps the logical value
    in such a resource, which would fit a too-small (e.g. unpadded) size; this
    check makes a wrong host-side size computation an error at once.
    """
    if not isinstance(type_, TensorType) or not isinstance(type_.encoding, iree_encoding.LayoutAttr):
        return
    needed = storage_size(op, type_, dims)
    if size < needed:
        raise InterpreterError(op, f"a {size}-byte resource is too small for {type_}: its layout needs {needed} bytes")


def _region(op: Operation, values: dict, starts: Sequence[SSAValue], lengths: Sequence[SSAValue], rank: int) -> tuple:
    """The slices `[starts for lengths]` select (the whole tensor when none are given)."""
    if not starts:
        return tuple(slice(None) for _ in range(rank))
    return tuple(slice(int(values[s]), int(values[s]) + int(values[n])) for s, n in zip(starts, lengths))


def _new_resource(op: Operation, size: int) -> np.ndarray:
    if size < 0:
        raise InterpreterError(op, f"negative resource size {size}")
    return np.zeros(int(size), np.uint8)


class ResultBuffers(BufferPool):
    """Dispatch result buffers of earlier calls, reused once nothing holds them.

    A large fresh buffer costs a zero fill (page faults) as long as the copy
    that then fills it; a program called repeatedly (a benchmark, a serving
    loop) gets back buffers it has dropped instead (``buffers.BufferPool``).
    Like IREE's transient allocations, a reused buffer is not cleared: the
    first call sees zeros, later ones what an earlier call left where the
    dispatch writes nothing (a correct dispatch writes its whole result).
    Small buffers, cheap to zero, are always fresh.
    """

    def resource(self, op: Operation, size: int) -> np.ndarray:
        if size < 0:
            raise InterpreterError(op, f"negative resource size {size}")
        return self.take(size)

    def new(self, nbytes: int) -> np.ndarray:
        return _new_resource(None, nbytes)  # type: ignore[arg-type]


def _store_array(op: Operation, array: np.ndarray, size: int) -> np.ndarray:
    """A resource of ``size`` bytes holding ``array`` row-major at offset 0."""
    data = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
    if data.size > size:
        raise InterpreterError(op, f"a {data.size}-byte tensor does not fit a {size}-byte resource")
    resource = _new_resource(op, size)
    resource[: data.size] = data
    return resource


def _load_array(op: Operation, resource: Any, type_: Attribute, dims: Sequence[int]) -> np.ndarray:
    """The tensor of ``type_`` a resource holds: a view of its first bytes."""
    if not isinstance(resource, np.ndarray) or resource.dtype != np.uint8:
        raise InterpreterError(op, f"expected a resource, got {type(resource).__name__}")
    assert isinstance(type_, TensorType)
    shape = shape_with_dims(op, type_.get_shape(), dims)
    return typed_view(op, resource, 0, shape, numpy_dtype(type_.element_type))


@register_impls
class StreamFunctions(InterpreterFunctions):
    """Stream tensor ops, async ops and dispatches."""

    @impl(stream.TensorSizeOfOp)
    def run_sizeof(self, interpreter: Interpreter, op: stream.TensorSizeOfOp, args: tuple):
        return (storage_size(op, op.encoding, args),)

    @impl(stream.TensorImportOp)
    def run_import(self, interpreter: Interpreter, op: stream.TensorImportOp, args: tuple):
        values = dict(zip(op.operands, args))
        view = values[op.source]
        dims = [int(values[d]) for d in op.result_encoding_dims]
        type_ = op.result_encoding
        assert isinstance(type_, TensorType)
        shape = shape_with_dims(op, type_.get_shape(), dims)
        if not isinstance(view, np.ndarray) or view.shape != shape:
            raise InterpreterError(op, f"imported buffer view has shape {np.shape(view)}, expected {shape}")
        size = int(values[op.result_size])
        if view.flags.c_contiguous and view.nbytes == size and view.dtype.itemsize:
            # Like IREE's import, the resource is the caller's buffer itself (no
            # copy); read-only, since nothing may change the caller's array.
            resource = view.reshape(-1).view(np.uint8)
            resource.flags.writeable = False
            return (resource,)
        return (_store_array(op, view, size),)

    @impl(stream.TensorExportOp)
    def run_export(self, interpreter: Interpreter, op: stream.TensorExportOp, args: tuple):
        values = dict(zip(op.operands, args))
        dims = [int(values[d]) for d in op.source_encoding_dims]
        resource = values[op.source]
        array = _load_array(op, resource, op.source_encoding, dims)
        if resource.flags.writeable and not is_global_value(interpreter, resource):
            # A resource this call produced: like IREE's export, the buffer view
            # wraps it without a copy (resources are values: nothing writes into
            # it again). An imported buffer (read-only: the caller's own array)
            # or a global's value is copied, so that the caller can neither see
            # its input aliased nor change the program's state through a result.
            return (array,)
        return (array.copy(),)

    @impl(stream.TensorEncodeOp)
    def run_encode(self, interpreter: Interpreter, op: stream.TensorEncodeOp, args: tuple):
        # The logical value is kept: the result resource holds the same tensor
        # (cut to smaller result dims, if any) in a resource of the result size.
        values = dict(zip(op.operands, args))
        source_dims = [int(values[d]) for d in op.source_encoding_dims]
        result_dims = [int(values[d]) for d in op.result_encoding_dims]
        array = _load_array(op, values[op.source], op.source_encoding, source_dims)
        result_type = op.result_encoding
        assert isinstance(result_type, TensorType)
        array = slice_to_shape(op, array, shape_with_dims(op, result_type.get_shape(), result_dims))
        result_size = int(values[op.result_size])
        _check_fits(op, result_size, result_type, result_dims)
        return (_store_array(op, array, result_size),)

    @impl(stream.TensorCloneOp)
    def run_tensor_clone(self, interpreter: Interpreter, op: stream.TensorCloneOp, args: tuple):
        # A reshape (or bitcast) keeps the row-major bytes: the source's contents
        # read as the result tensor type, into a resource of the result size.
        values = dict(zip(op.operands, args))
        source_dims = [int(values[d]) for d in op.source_encoding_dims]
        result_dims = [int(values[d]) for d in op.result_encoding_dims]
        array = np.ascontiguousarray(_load_array(op, values[op.source], op.source_encoding, source_dims))
        result_type = op.result_encoding
        assert isinstance(result_type, TensorType)
        shape = shape_with_dims(op, result_type.get_shape(), result_dims)
        array = array.view(numpy_dtype(result_type.element_type))
        if array.size != int(np.prod(shape)):
            raise InterpreterError(op, f"cannot read {array.size} elements as a tensor of shape {shape}")
        result_size = int(values[op.result_size])
        _check_fits(op, result_size, result_type, result_dims)
        return (_store_array(op, array.reshape(shape), result_size),)

    @impl(stream.TensorSplatOp)
    def run_tensor_splat(self, interpreter: Interpreter, op: stream.TensorSplatOp, args: tuple):
        values = dict(zip(op.operands, args))
        dims = [int(values[d]) for d in op.result_encoding_dims]
        type_ = op.result_encoding
        assert isinstance(type_, TensorType)
        shape = shape_with_dims(op, type_.get_shape(), dims)
        array = np.full(shape, values[op.value], numpy_dtype(type_.element_type))
        size = int(values[op.result_size])
        _check_fits(op, size, type_, dims)
        return (_store_array(op, array, size),)

    @impl(stream.TensorFillOp)
    def run_tensor_fill(self, interpreter: Interpreter, op: stream.TensorFillOp, args: tuple):
        # In place on a copy of the target (SSA values never change): the region is the value.
        values = dict(zip(op.operands, args))
        dims = [int(values[d]) for d in op.target_encoding_dims]
        result = _new_resource(op, int(values[op.target_size]))
        result[:] = values[op.target][: result.size]
        array = _load_array(op, result, op.target_encoding, dims)
        region = array[_region(op, values, op.start_indices, op.lengths, array.ndim)]
        region[...] = values[op.value]
        return (result,)

    @impl(stream.TensorSliceOp)
    def run_tensor_slice(self, interpreter: Interpreter, op: stream.TensorSliceOp, args: tuple):
        values = dict(zip(op.operands, args))
        source_dims = [int(values[d]) for d in op.source_encoding_dims]
        array = _load_array(op, values[op.source], op.source_encoding, source_dims)
        piece = array[_region(op, values, op.start_indices, op.lengths, array.ndim)]
        result_dims = [int(values[d]) for d in op.result_encoding_dims]
        type_ = op.result_encoding
        assert isinstance(type_, TensorType)
        piece = piece.reshape(shape_with_dims(op, type_.get_shape(), result_dims))
        return (_store_array(op, piece, int(values[op.result_size])),)

    @impl(stream.TensorUpdateOp)
    def run_tensor_update(self, interpreter: Interpreter, op: stream.TensorUpdateOp, args: tuple):
        values = dict(zip(op.operands, args))
        update_dims = [int(values[d]) for d in op.update_encoding_dims]
        update = _load_array(op, values[op.update], op.update_encoding, update_dims)
        target_dims = [int(values[d]) for d in op.target_encoding_dims]
        result = _new_resource(op, int(values[op.target_size]))
        result[:] = values[op.target][: result.size]
        array = _load_array(op, result, op.target_encoding, target_dims)
        starts = [int(values[v]) for v in op.start_indices]
        array[tuple(slice(s, s + n) for s, n in zip(starts, update.shape))] = update
        return (result,)

    @impl(stream.TensorConstantOp)
    def run_tensor_constant(self, interpreter: Interpreter, op: stream.TensorConstantOp, args: tuple):
        array = np.asarray(attribute_value(op, op.value))
        size = storage_size(op, op.result_encoding, [int(a) for a in args])
        return (_store_array(op, array, max(size, array.nbytes)),)

    @impl(stream.AsyncConstantOp)
    def run_async_constant(self, interpreter: Interpreter, op: stream.AsyncConstantOp, args: tuple):
        values = dict(zip(op.operands, args))
        array = np.asarray(attribute_value(op, op.value))
        return (_store_array(op, array, int(values[op.result_size])),)

    @impl(stream.AsyncTransferOp)
    def run_transfer(self, interpreter: Interpreter, op: stream.AsyncTransferOp, args: tuple):
        # One host, one device: a transfer between affinities moves nothing.
        return (args[0],)

    @impl(stream.AsyncCastOp)
    def run_cast(self, interpreter: Interpreter, op: stream.AsyncCastOp, args: tuple):
        return (args[0],)

    @impl(stream.AsyncCloneOp)
    def run_clone(self, interpreter: Interpreter, op: stream.AsyncCloneOp, args: tuple):
        return (np.array(args[0], copy=True),)

    @impl(stream.AsyncAllocaOp)
    def run_alloca(self, interpreter: Interpreter, op: stream.AsyncAllocaOp, args: tuple):
        # Undefined contents: zeros here, so that a run is reproducible.
        return (_new_resource(op, int(args[0])),)

    @impl(stream.TensorEmptyOp)
    def run_tensor_empty(self, interpreter: Interpreter, op: stream.TensorEmptyOp, args: tuple):
        # Operands: the tensor's dims, then the resource size; the contents are undefined (zeros).
        return (_new_resource(op, int(args[-1])),)

    @impl(stream.ResourceSizeOp)
    def run_resource_size(self, interpreter: Interpreter, op: stream.ResourceSizeOp, args: tuple):
        return (int(args[0].size),)

    @impl(stream.BindingSubspanOp)
    def run_binding_subspan(self, interpreter: Interpreter, op: stream.BindingSubspanOp, args: tuple):
        binding, offset, *dims = args
        bound = op.result.type
        if isinstance(bound, DispatchTensorTypeBase) and isinstance(binding, np.ndarray):
            # The device reads an encoded binding in its stored (padded) layout.
            _check_fits(op, binding.size - int(offset), bound.bound_type, [int(d) for d in dims])
        return (view_binding(op, binding, int(offset), op.result.type, [int(d) for d in dims]),)

    @impl(stream.TensorDispatchOp)
    def run_tensor_dispatch(self, interpreter: Interpreter, op: stream.TensorDispatchOp, args: tuple):
        values = dict(zip(op.operands, args))
        operands = [values[v] for v in op.mixed_operands]
        result_sizes = [int(values[v]) for v in op.result_sizes]
        return _dispatch(interpreter, op, operands, result_sizes, op.tied_operands)

    @impl(stream.AsyncDispatchOp)
    def run_async_dispatch(self, interpreter: Interpreter, op: stream.AsyncDispatchOp, args: tuple):
        offsets_at, lengths_at, operands_at, sizes_at, tied = _async_dispatch_layout(interpreter, op)
        offsets = [int(args[i]) for i in offsets_at]
        lengths = [int(args[i]) for i in lengths_at]
        operands: list[Any] = []
        for i, is_resource in operands_at:
            operand = args[i]
            if is_resource:
                # A resource operand is bound as the byte range [offset, offset + length).
                offset, length = offsets.pop(0), lengths.pop(0)
                if offset < 0 or offset + length > operand.size:
                    raise InterpreterError(
                        op, f"range [{offset}, {offset + length}) is outside a {operand.size}-byte resource"
                    )
                operand = operand[offset : offset + length]
            operands.append(operand)
        result_sizes = [int(args[i]) for i in sizes_at]
        return _dispatch(interpreter, op, operands, result_sizes, tied)


def _async_dispatch_layout(interpreter: Interpreter, op: stream.AsyncDispatchOp) -> tuple:
    """Where a dispatch's offsets, lengths, operands and result sizes are among its operands,
    read once per op (xDSL's operand-segment accessors are slow; a program runs each dispatch
    op every call). An SSA value is found at its first position: the same value has the same
    runtime value wherever it appears."""
    cache = interpreter.get_data(StreamFunctions, "async_dispatches", dict)
    layout = cache.get(op)
    if layout is None:
        first: dict[Any, int] = {}
        for position, value in enumerate(op.operands):
            first.setdefault(value, position)
        layout = cache[op] = (
            [first[v] for v in op.resource_operand_offsets],
            [first[v] for v in op.resource_operand_lengths],
            [(first[v], isinstance(v.type, stream.ResourceType)) for v in op.resource_operands],
            [first[v] for v in op.result_sizes],
            op.tied_operands,
        )
    return layout


def _dispatch(
    interpreter: Interpreter, op: Operation, operands: list[Any], result_sizes: list[int], tied_attr: Any
) -> tuple[np.ndarray, ...]:
    """Call the exported function: operands first, then one fresh binding per untied result."""
    tied = [t.value.data for t in tied_attr.data] if tied_attr is not None else []
    call_args = list(operands)
    results: list[np.ndarray] = []
    for index, size in enumerate(result_sizes):
        tied_to = tied[index] if index < len(tied) else -1
        if tied_to >= 0:
            # A tied result is its operand's resource updated in place; the
            # dispatch works on a copy so the operand value itself never changes.
            buffer = np.array(operands[tied_to], copy=True)
            call_args[tied_to] = buffer
            results.append(buffer)
        else:
            buffer = interpreter.get_data(StreamFunctions, "result_buffers", ResultBuffers).resource(op, size)
            call_args.append(buffer)
            results.append(buffer)
    call_exported_function(interpreter, op, op.entry_points.data[0], call_args)  # type: ignore[attr-defined]
    return tuple(results)


# ---------------------------------------------------------------------------
# Scheduling: execution regions, timepoints, allocations and commands
# ---------------------------------------------------------------------------

READY = "timepoint"
"""The value of every ``!stream.timepoint``: one host runs every op in order, so
all work has completed by the time a timepoint is looked at."""

def pack_slice_offsets(
    intervals: Sequence[tuple[int, int]],
    sizes: Sequence[int],
    keys: Sequence[Any],
    static: Sequence[bool],
    base: int = 0,
) -> tuple[int, list[int]]:
    """The total length and each slice's offset, as ``iree-stream-layout-slices`` lays them out
    (``compiler/analysis/slice_packing.py``): constant-size slices (``static``) greedily first,
    then the others in bins of one size value (``keys``)."""
    from mini_iree.compiler.analysis.slice_packing import align, dynamic_bins, pack_static

    offsets = [0] * len(sizes)
    offset = base
    fixed = [i for i, s in enumerate(static) if s]
    if fixed:
        fixed_offsets, high = pack_static([intervals[i] for i in fixed], [sizes[i] for i in fixed])
        for index, fixed_offset in zip(fixed, fixed_offsets):
            offsets[index] = base + fixed_offset
        offset = base + high
    others = [i for i, s in enumerate(static) if not s]
    for members in dynamic_bins([intervals[i] for i in others], [keys[i] for i in others]):
        for member in members:
            offsets[others[member]] = offset
        offset = align(offset + align(sizes[others[members[0]]]))
    return align(offset), offsets


@register_impls
class StreamSchedulingFunctions(InterpreterFunctions):
    """Execution regions, timepoints, allocations and ``stream.cmd.*`` commands.

    Resources are flat ``uint8`` arrays; a command works on byte ranges of them
    (views), so dispatches write straight into the allocations they are given.
    """

    @impl(stream.AsyncExecuteOp)
    def run_async_execute(self, interpreter: Interpreter, op: stream.AsyncExecuteOp, args: tuple):
        captured = args[: len(op.resource_operands)]
        return (*run_block(interpreter, op.body.block, captured), READY)

    @impl_terminator(stream.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: stream.YieldOp, args: tuple):
        return ReturnedValues(args[: len(op.resource_operands)]), ()

    @impl(stream.TimepointAwaitOp)
    def run_await(self, interpreter: Interpreter, op: stream.TimepointAwaitOp, args: tuple):
        return tuple(args[1 : 1 + len(op.resource_operands)])

    @impl(stream.TimepointJoinOp)
    def run_join(self, interpreter: Interpreter, op: stream.TimepointJoinOp, args: tuple):
        return (READY,)

    @impl(stream.ResourceAllocaOp)
    def run_resource_alloca(self, interpreter: Interpreter, op: stream.ResourceAllocaOp, args: tuple):
        # Undefined contents (IREE's `uninitialized`): a reused buffer keeps what it held.
        buffer = interpreter.get_data(StreamFunctions, "result_buffers", ResultBuffers).resource(op, int(args[0]))
        return (buffer, READY)

    @impl(stream.ResourceDeallocaOp)
    def run_resource_dealloca(self, interpreter: Interpreter, op: stream.ResourceDeallocaOp, args: tuple):
        return (READY,)

    @impl(stream.ResourcePackOp)
    def run_resource_pack(self, interpreter: Interpreter, op: stream.ResourcePackOp, args: tuple):
        values = dict(zip(op.operands, args))
        base = int(values[op.offset]) if op.offset is not None else 0
        sizes = [int(values[v]) for v in op.dynamic_slice_sizes]
        slices = list(op.dynamic_slice_sizes)
        static = [isinstance(v, OpResult) and isinstance(v.op, arith.ConstantOp) for v in slices]
        total, offsets = pack_slice_offsets(op.intervals, sizes, slices, static, base)
        return (total, *offsets)

    @impl(stream.ResourceSubviewOp)
    def run_resource_subview(self, interpreter: Interpreter, op: stream.ResourceSubviewOp, args: tuple):
        # A view, not a copy: what commands write into the allocation shows through it.
        source, _, offset, length = args
        start, count = int(offset), int(length)
        if start < 0 or start + count > source.size:
            raise InterpreterError(op, f"range [{start}, {start + count}) is outside a {source.size}-byte resource")
        return (source[start : start + count],)

    @impl(stream.CmdExecuteOp)
    def run_cmd_execute(self, interpreter: Interpreter, op: stream.CmdExecuteOp, args: tuple):
        run_block(interpreter, op.body.block, args[: len(op.resource_operands)])
        return (READY,)

    @impl(stream.CmdDispatchOp)
    def run_cmd_dispatch(self, interpreter: Interpreter, op: stream.CmdDispatchOp, args: tuple):
        resources, uniforms, ref, interleave = _cmd_dispatch_plan(interpreter, op)
        views: list[np.ndarray] = []
        for resource, offset, length in resources:
            buffer, start, count = args[resource], int(args[offset]), int(args[length])
            if start < 0 or start + count > buffer.size:
                raise InterpreterError(op, f"range [{start}, {start + count}) is outside a {buffer.size}-byte resource")
            views.append(buffer[start : start + count])
        scalars = [args[i] for i in uniforms]
        if interleave is not None:
            # A stream executable's function: bindings and scalars in its argument order.
            views_left, scalars_left = iter(views), iter(scalars)
            call_args = [next(views_left) if is_binding else next(scalars_left) for is_binding in interleave]
        else:
            # A HAL interface function: resources become bindings, scalars push constants.
            call_args = [*views, *scalars]
        call_exported_function(interpreter, op, ref, call_args)
        return ()


def _cmd_dispatch_plan(interpreter: Interpreter, op: stream.CmdDispatchOp) -> tuple:
    """What a ``stream.cmd.dispatch`` reads, worked out once per op (a dispatch runs every call, and
    xDSL's operand-segment accessors and symbol lookups are slow): operand positions of each
    resource with its offset and length, of the uniform operands, the export it runs, and for a
    stream executable's function which of its arguments are bindings (None for a HAL function)."""
    plans = interpreter.get_data(StreamFunctions, "cmd_dispatches", dict)
    plan = plans.get(op)
    if plan is None:
        position = {id(operand): i for i, operand in reversed(list(enumerate(op.operands)))}

        def at(values) -> list[int]:
            # The first position of each operand value: any operand with that value holds it.
            return [position[id(v)] for v in values]

        resources = list(zip(at(op.resources), at(op.resource_offsets), at(op.resource_lengths)))
        ref = op.entry_points.data[0]
        function, _ = resolved_export(interpreter, op, ref)
        interleave = None
        if function.body.blocks and function.body.block.args:
            interleave = [isinstance(t, stream.BindingType) for t in function.body.block.arg_types]
        plan = plans[op] = (resources, at(op.uniform_operands), ref, interleave)
    return plan


FUNCTIONS = (StreamFunctions, StreamSchedulingFunctions)


# ---------------------------------------------------------------------------
# Byte-range async ops (what iree-stream-encode-host-tensors lowers tensor
# splats, fills, slices and updates to)
# ---------------------------------------------------------------------------


def _pattern_bytes(op: Operation, value: Any, type_: Attribute) -> np.ndarray:
    """The little-endian bytes of a splat/fill pattern (an i8/i16/i32/i64)."""
    from xdsl.dialects.builtin import IntegerType

    if not isinstance(type_, IntegerType) or type_.width.data not in (8, 16, 32, 64):
        raise InterpreterError(op, f"cannot fill with a pattern of type {type_}")
    bits = type_.width.data
    scalar = np.asarray(value)
    if scalar.size != 1:
        raise InterpreterError(op, f"a fill pattern must be one value, got {scalar.size}")
    # A scalar may come as a one-element array (arith.bitcast's result, for one).
    return np.array([int(scalar.reshape(-1)[0]) & ((1 << bits) - 1)], dtype=f"<u{bits // 8}").view(np.uint8)


def _fill_bytes(op: Operation, target: np.ndarray, pattern: np.ndarray) -> None:
    """Repeats ``pattern`` over ``target``, whose length must be a whole number of patterns (as HAL fills)."""
    if target.size % pattern.size:
        raise InterpreterError(op, f"a fill of {target.size} bytes is not a whole number of {pattern.size}-byte patterns")
    target.reshape(-1, pattern.size)[...] = pattern


def _byte_range(op: Operation, resource: np.ndarray, offset: int, end: int) -> slice:
    if offset < 0 or offset > end or end > resource.size:
        raise InterpreterError(op, f"range [{offset}, {end}) is outside a {resource.size}-byte resource")
    return slice(offset, end)


def _copy_of(op: Operation, resource: Any, size: int) -> np.ndarray:
    """A new resource of ``size`` bytes holding ``resource``'s bytes (SSA values never change in place)."""
    if not isinstance(resource, np.ndarray) or resource.dtype != np.uint8:
        raise InterpreterError(op, f"expected a resource, got {type(resource).__name__}")
    if resource.size < size:
        raise InterpreterError(op, f"a {resource.size}-byte resource is smaller than its stated size {size}")
    result = _new_resource(op, size)
    result[:] = resource[:size]
    return result


@register_impls
class StreamAsyncRangeFunctions(InterpreterFunctions):
    """``stream.async.splat`` / ``fill`` / ``slice`` / ``update`` / ``copy`` on byte ranges of resources."""

    @impl(stream.AsyncSplatOp)
    def run_async_splat(self, interpreter: Interpreter, op: stream.AsyncSplatOp, args: tuple):
        values = dict(zip(op.operands, args))
        result = _new_resource(op, int(values[op.result_size]))
        _fill_bytes(op, result, _pattern_bytes(op, values[op.value], op.value.type))
        return (result,)

    @impl(stream.AsyncFillOp)
    def run_async_fill(self, interpreter: Interpreter, op: stream.AsyncFillOp, args: tuple):
        values = dict(zip(op.operands, args))
        result = _copy_of(op, values[op.target], int(values[op.target_size]))
        offset, end, length = (int(values[v]) for v in (op.target_offset, op.target_end, op.target_length))
        if end - offset != length:
            raise InterpreterError(op, f"fill range [{offset}, {end}) is not {length} bytes long")
        region = result[_byte_range(op, result, offset, end)]
        _fill_bytes(op, region, _pattern_bytes(op, values[op.value], op.value.type))
        return (result,)

    @impl(stream.AsyncSliceOp)
    def run_async_slice(self, interpreter: Interpreter, op: stream.AsyncSliceOp, args: tuple):
        values = dict(zip(op.operands, args))
        source = values[op.source]
        offset, end = int(values[op.source_offset]), int(values[op.source_end])
        size = int(values[op.result_size])
        if end - offset != size:
            raise InterpreterError(op, f"slice [{offset}, {end}) is not the {size}-byte result")
        return (np.array(source[_byte_range(op, source, offset, end)], dtype=np.uint8, copy=True),)

    @impl(stream.AsyncUpdateOp)
    def run_async_update(self, interpreter: Interpreter, op: stream.AsyncUpdateOp, args: tuple):
        values = dict(zip(op.operands, args))
        result = _copy_of(op, values[op.target], int(values[op.target_size]))
        update = values[op.update]
        offset, end = int(values[op.target_offset]), int(values[op.target_end])
        size = int(values[op.update_size])
        if end - offset != size or update.size < size:
            raise InterpreterError(op, f"update range [{offset}, {end}) does not hold the {size}-byte update")
        result[_byte_range(op, result, offset, end)] = update[:size]
        return (result,)

    @impl(stream.AsyncCopyOp)
    def run_async_copy(self, interpreter: Interpreter, op: stream.AsyncCopyOp, args: tuple):
        values = dict(zip(op.operands, args))
        result = _copy_of(op, values[op.target], int(values[op.target_size]))
        source = values[op.source]
        length = int(values[op.length])
        target_range = _byte_range(op, result, int(values[op.target_offset]), int(values[op.target_end]))
        source_range = _byte_range(op, source, int(values[op.source_offset]), int(values[op.source_end]))
        if target_range.stop - target_range.start != length or source_range.stop - source_range.start != length:
            raise InterpreterError(op, f"copy ranges are not {length} bytes long")
        result[target_range] = source[source_range]
        return (result,)



@register_impls
class StreamElementFunctions(InterpreterFunctions):
    """``stream.tensor.load`` / ``store`` at tensor indices, ``stream.async.load`` / ``store`` at byte offsets."""

    @impl(stream.TensorLoadOp)
    def run_tensor_load(self, interpreter: Interpreter, op: stream.TensorLoadOp, args: tuple):
        from mini_iree.compiler.interpreter.core import scalar_of

        values = dict(zip(op.operands, args))
        dims = [int(values[d]) for d in op.source_encoding_dims]
        array = _load_array(op, values[op.source], op.source_encoding, dims)
        index = tuple(int(values[i]) for i in op.indices)
        return (scalar_of(array[index], op.result.type),)

    @impl(stream.TensorStoreOp)
    def run_tensor_store(self, interpreter: Interpreter, op: stream.TensorStoreOp, args: tuple):
        values = dict(zip(op.operands, args))
        dims = [int(values[d]) for d in op.target_encoding_dims]
        result = _copy_of(op, values[op.target], int(values[op.target_size]))
        array = _load_array(op, result, op.target_encoding, dims)
        array[tuple(int(values[i]) for i in op.indices)] = values[op.value]
        return (result,)

    @impl(stream.AsyncLoadOp)
    def run_async_load(self, interpreter: Interpreter, op: stream.AsyncLoadOp, args: tuple):
        from mini_iree.compiler.interpreter.core import scalar_of

        values = dict(zip(op.operands, args))
        source = values[op.source]
        dtype = numpy_dtype(op.result.type)
        offset = int(values[op.source_offset])
        data = source[_byte_range(op, source, offset, offset + dtype.itemsize)]
        return (scalar_of(data.view(dtype)[0], op.result.type),)

    @impl(stream.AsyncStoreOp)
    def run_async_store(self, interpreter: Interpreter, op: stream.AsyncStoreOp, args: tuple):
        values = dict(zip(op.operands, args))
        result = _copy_of(op, values[op.target], int(values[op.target_size]))
        dtype = numpy_dtype(op.value.type)
        offset = int(values[op.target_offset])
        data = np.asarray(values[op.value]).astype(dtype).reshape(1).view(np.uint8)
        result[_byte_range(op, result, offset, offset + dtype.itemsize)] = data
        return (result,)


    @impl(stream.TensorTraceOp)
    def run_tensor_trace(self, interpreter: Interpreter, op: stream.TensorTraceOp, args: tuple):
        # IREE prints the tensors at runtime; the results of the program do not change.
        return ()



@register_impls
class StreamConcurrentFunctions(InterpreterFunctions):
    """``stream.async.concurrent``: its region run in order (concurrency does not change results)."""

    @impl(stream.AsyncConcurrentOp)
    def run_async_concurrent(self, interpreter: Interpreter, op: stream.AsyncConcurrentOp, args: tuple):
        captured = args[: len(op.resource_operands)]
        return tuple(run_block(interpreter, op.body.block, captured))


FUNCTIONS = (*FUNCTIONS, StreamAsyncRangeFunctions, StreamElementFunctions, StreamConcurrentFunctions)
