"""Dispatch regions, executables and dispatch tensors (``flow``, ``iree_tensor_ext``).

A dispatch boundary is where tensors (values) meet bindings (memory). The
interpreter models a binding seen as a tensor with ``bindings.DispatchTensor``:
a mutable holder of one ndarray, written by ``dispatch.tensor.store`` and read
by ``dispatch.tensor.load``. A holder made from a binding (``stream.binding.subspan``,
``hal.interface.binding.subspan``) is a *view* of the binding's bytes, so a
store is visible to whoever reads that memory afterwards.

Dispatches call an exported function: ``flow.dispatch`` passes each tensor
operand as a read-only holder of its array and one fresh holder per result,
in the order IREE lowers them to (operands, then the untied results).

A tensor whose type carries an encoding holds its *logical* array here, like
everywhere before materialization; only ops that materialize a layout
(``linalg.pack``, ...) change its physical shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, ReturnedValues, impl, impl_terminator, register_impls
from xdsl.ir import Attribute, Operation, SSAValue

from mini_iree.compiler.interpreter.bindings import DispatchTensor, shape_with_dims
from mini_iree.compiler.interpreter.core import InterpreterError, numpy_dtype, run_block
from mini_iree.compiler.interpreter.exports import call_exported_function
from mini_iree.dialects import flow, flow_tensor, iree_tensor_ext

__all__ = ["FlowFunctions", "TensorExtFunctions", "mixed_values", "slice_to_shape"]


# ---------------------------------------------------------------------------
# Helpers shared by the IREE dialects' implementations
# ---------------------------------------------------------------------------


def mixed_values(op: Operation, args: Sequence[Any], mixed: Sequence[SSAValue | int]) -> list[int]:
    """Resolve an offsets/sizes/strides list mixing constants and SSA values."""
    values = dict(zip(op.operands, args))
    return [int(values[m]) if isinstance(m, SSAValue) else int(m) for m in mixed]


def _slices(op: Operation, shape: Sequence[int], offsets: list[int], sizes: list[int], strides: list[int]):
    """The numpy index of a strided slice, checked against ``shape`` (out of bounds is an error)."""
    if not (len(offsets) == len(sizes) == len(strides) == len(shape)):
        raise InterpreterError(op, f"slice of rank {len(offsets)} on a dispatch tensor of rank {len(shape)}")
    index = []
    for dim, (extent, offset, size, stride) in enumerate(zip(shape, offsets, sizes, strides)):
        last = offset + (size - 1) * stride
        if size < 0 or stride < 1 or offset < 0 or (size > 0 and last >= extent):
            raise InterpreterError(
                op, f"slice [offset {offset}, size {size}, stride {stride}] is out of bounds of dim {dim} ({extent})"
            )
        index.append(slice(offset, offset + size * stride, stride))
    return tuple(index)


def _result_shape(op: Operation, type_: Attribute, sizes: list[int]) -> tuple[int, ...]:
    """The shape of a loaded slice: ``sizes`` with the unit dims the result type drops removed."""
    assert isinstance(type_, TensorType)
    rank = type_.get_num_dims()
    if rank == len(sizes):
        return tuple(sizes)
    kept = [s for s in sizes if s != 1]
    if len(kept) != rank:
        raise InterpreterError(op, f"cannot reduce slice sizes {sizes} to rank {rank}")
    return tuple(kept)


def load_dispatch_tensor(interpreter: Interpreter, op: iree_tensor_ext.DispatchTensorLoadOpBase, args: tuple):
    source = args[0]
    if not isinstance(source, DispatchTensor):
        raise InterpreterError(op, f"expected a dispatch tensor, got {type(source).__name__}")
    if source.access == "writeonly":
        raise InterpreterError(op, "loads from a writeonly dispatch tensor")
    index = _slices(
        op,
        source.array.shape,
        mixed_values(op, args, op.get_mixed_offsets()),
        sizes := mixed_values(op, args, op.get_mixed_sizes()),
        mixed_values(op, args, op.get_mixed_strides()),
    )
    value = source.array[index].reshape(_result_shape(op, op.result.type, sizes))
    if source.access == "readonly":
        # Nothing writes a read-only binding while the dispatch runs: share its
        # memory, marked read-only so no op can change the value in place.
        value = value.view()
        value.flags.writeable = False
        return (value,)
    return (value.copy(),)


def store_dispatch_tensor(interpreter: Interpreter, op: iree_tensor_ext.DispatchTensorStoreOpBase, args: tuple):
    value, target = args[0], args[1]
    if not isinstance(target, DispatchTensor):
        raise InterpreterError(op, f"expected a dispatch tensor, got {type(target).__name__}")
    if target.access == "readonly":
        raise InterpreterError(op, "stores into a readonly dispatch tensor")
    sizes = mixed_values(op, args, op.get_mixed_sizes())
    index = _slices(
        op,
        target.array.shape,
        mixed_values(op, args, op.get_mixed_offsets()),
        sizes,
        mixed_values(op, args, op.get_mixed_strides()),
    )
    value = np.asarray(value)
    if int(np.prod(value.shape, dtype=np.int64)) != int(np.prod(sizes, dtype=np.int64)):
        raise InterpreterError(op, f"stores a {value.shape} value into a slice of sizes {sizes}")
    from mini_iree.compiler.interpreter.relayout_origins import note_write

    note_write(interpreter, target.array)
    target.array[index] = value.reshape(sizes)
    return ()


def bind_dispatch_operands(
    op: Operation,
    args: tuple,
    argument_values: Sequence[SSAValue],
    argument_dim_values: Sequence[SSAValue],
    result_values: Sequence[SSAValue],
    result_dim_values: Sequence[SSAValue],
) -> tuple[list[Any], list[DispatchTensor]]:
    """The arguments a dispatch passes to its body, and the holders its results are read from.

    Shared by ``flow.dispatch`` (which calls an exported function) and
    ``flow.dispatch.workgroups`` (which runs its own body): tensor operands
    become dispatch tensors, scalars pass as they are, untied results get fresh
    ``writeonly`` holders appended after the operands.
    """
    values = dict(zip(op.operands, args))
    arguments = [values[v] for v in argument_values]
    argument_dims = [int(values[v]) for v in argument_dim_values]
    result_dims = [int(values[v]) for v in result_dim_values]
    tied_attr = op.properties.get("tied_operands")
    tied = [t.value.data for t in tied_attr.data] if isinstance(tied_attr, ArrayAttr) else []
    # Each tensor operand becomes a holder of its array; scalars pass as they are.
    # A tied operand is updated in place, so it gets a copy (SSA values never
    # change); the others are shared read-only.
    call_args: list[Any] = []
    holders: list[DispatchTensor | None] = []
    for index, (value, type_) in enumerate(zip(arguments, (v.type for v in argument_values))):
        if isinstance(type_, TensorType):
            dims = [argument_dims.pop(0) for _ in range(type_.get_shape().count(DYNAMIC_INDEX))]
            shape = shape_with_dims(op, type_.get_shape(), dims)
            if tuple(np.shape(value)) != shape:
                raise InterpreterError(op, f"operand of shape {np.shape(value)} does not match {shape}")
            if index in tied:
                holder = DispatchTensor(np.array(value, copy=True), "readwrite")
            else:
                holder = DispatchTensor(np.asarray(value), "readonly")
            holders.append(holder)
            call_args.append(holder)
        else:
            holders.append(None)
            call_args.append(value)
    # Untied results get fresh holders appended to the arguments; a tied
    # result is written through its operand's holder.
    results: list[DispatchTensor] = []
    for index, result in enumerate(result_values):
        type_ = result.type
        assert isinstance(type_, TensorType)
        dims = [result_dims.pop(0) for _ in range(type_.get_shape().count(DYNAMIC_INDEX))]
        tied_to = tied[index] if index < len(tied) else -1
        if tied_to >= 0:
            holder = holders[tied_to]
            if holder is None:
                raise InterpreterError(op, f"result {index} is tied to non-tensor operand {tied_to}")
        else:
            shape = shape_with_dims(op, type_.get_shape(), dims)
            holder = DispatchTensor(np.zeros(shape, numpy_dtype(type_.element_type)), "writeonly")
            call_args.append(holder)
        results.append(holder)
    return call_args, results


# ---------------------------------------------------------------------------
# flow
# ---------------------------------------------------------------------------


@register_impls
class FlowFunctions(InterpreterFunctions):
    """``flow.dispatch.region``, ``flow.dispatch``, ``flow.tensor.encode`` and friends."""

    @impl(flow.DispatchRegionOp)
    def run_dispatch_region(self, interpreter: Interpreter, op: flow.DispatchRegionOp, args: tuple):
        # The region is the dispatch's body, run in place; `flow.return` yields its results.
        # The workgroup count region only sizes the launch grid and has no effect on values.
        return run_block(interpreter, op.body.block, ())

    @impl_terminator(flow.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: flow.ReturnOp, args: tuple):
        return ReturnedValues(args), ()

    @impl(flow.TensorEncodeOp)
    def run_tensor_encode(self, interpreter: Interpreter, op: flow.TensorEncodeOp, args: tuple):
        # Encodings keep the logical value; going back to a plain type may slice
        # to smaller result dims, like `unset_encoding`.
        value = args[0]
        dims = args[1 + len(op.operand_dims) :]
        assert isinstance(op.result.type, TensorType)
        shape = shape_with_dims(op, op.result.type.get_shape(), dims)
        return (slice_to_shape(op, value, shape),)

    @impl(flow.DispatchOp)
    def run_dispatch(self, interpreter: Interpreter, op: flow.DispatchOp, args: tuple):
        call_args, results = bind_dispatch_operands(op, args, op.arguments, op.argument_dims, op.res, op.result_dims)
        call_exported_function(interpreter, op, op.entry_points.data[0], call_args)
        return tuple(h.array for h in results)

    @impl(flow.DispatchWorkgroupsOp)
    def run_dispatch_workgroups(self, interpreter: Interpreter, op: flow.DispatchWorkgroupsOp, args: tuple):
        # The body runs once, as one workgroup covering the whole workload; it
        # sees its operands as dispatch tensors and stores its results into them.
        call_args, results = bind_dispatch_operands(op, args, op.arguments, op.argument_dims, op.res, op.result_dims)
        block = op.workgroup_body.block
        if len(block.args) != len(call_args):
            raise InterpreterError(op, f"workgroup body takes {len(block.args)} arguments, {len(call_args)} are bound")
        run_block(interpreter, block, call_args)
        return tuple(h.array for h in results)

    @impl(flow.DispatchTieShapeOp)
    def run_tie_shape(self, interpreter: Interpreter, op: flow.DispatchTieShapeOp, args: tuple):
        value = args[0]
        if isinstance(value, DispatchTensor):
            type_ = op.result.type
            assert isinstance(type_, iree_tensor_ext.DispatchTensorTypeBase)
            shape = shape_with_dims(op, type_.get_shape(), args[1:])
            if value.array.shape != shape:
                raise InterpreterError(op, f"dispatch tensor of shape {value.array.shape} tied to shape {shape}")
        return (value,)

    @impl(flow.DispatchWorkloadOrdinalOp)
    def run_workload_ordinal(self, interpreter: Interpreter, op: flow.DispatchWorkloadOrdinalOp, args: tuple):
        return (args[0],)

    @impl(flow.DispatchTensorLoadOp)
    def run_load(self, interpreter: Interpreter, op: flow.DispatchTensorLoadOp, args: tuple):
        return load_dispatch_tensor(interpreter, op, args)

    @impl(flow.DispatchTensorStoreOp)
    def run_store(self, interpreter: Interpreter, op: flow.DispatchTensorStoreOp, args: tuple):
        return store_dispatch_tensor(interpreter, op, args)


def slice_to_shape(op: Operation, value: Any, shape: Sequence[int]) -> np.ndarray:
    """``value`` cut down to ``shape`` (IREE's slicing semantics when an encoding is dropped).

    A larger result is an error: an encoding never invents data.
    """
    array = np.asarray(value)
    if array.ndim != len(shape):
        raise InterpreterError(op, f"value of rank {array.ndim} cannot become a rank-{len(shape)} tensor")
    if any(want > have for want, have in zip(shape, array.shape)):
        raise InterpreterError(op, f"result shape {tuple(shape)} is larger than the value's shape {array.shape}")
    if tuple(shape) == array.shape:
        return array
    return array[tuple(slice(0, n) for n in shape)]


# ---------------------------------------------------------------------------
# iree_tensor_ext
# ---------------------------------------------------------------------------


@register_impls
class TensorExtFunctions(InterpreterFunctions):
    """``iree_tensor_ext``: dispatch tensor loads/stores and markers that are identities on values."""

    @impl(iree_tensor_ext.DispatchTensorLoadOp)
    def run_load(self, interpreter: Interpreter, op: iree_tensor_ext.DispatchTensorLoadOp, args: tuple):
        return load_dispatch_tensor(interpreter, op, args)

    @impl(iree_tensor_ext.DispatchTensorStoreOp)
    def run_store(self, interpreter: Interpreter, op: iree_tensor_ext.DispatchTensorStoreOp, args: tuple):
        return store_dispatch_tensor(interpreter, op, args)

    @impl(iree_tensor_ext.DispatchWorkloadOrdinalOp)
    def run_workload_ordinal(
        self, interpreter: Interpreter, op: iree_tensor_ext.DispatchWorkloadOrdinalOp, args: tuple
    ):
        return (args[0],)

    @impl(iree_tensor_ext.DispatchWorkgroupCountFromSliceOp)
    def run_workgroup_count(
        self, interpreter: Interpreter, op: iree_tensor_ext.DispatchWorkgroupCountFromSliceOp, args: tuple
    ):
        # The interpreter runs a dispatch as one workgroup covering everything.
        return (1, 1, 1)

    @impl(iree_tensor_ext.ComputeBarrierStartOp)
    def run_barrier_start(self, interpreter: Interpreter, op: Operation, args: tuple):
        return (args[0],)

    @impl(iree_tensor_ext.ComputeBarrierEndOp)
    def run_barrier_end(self, interpreter: Interpreter, op: Operation, args: tuple):
        return (args[0],)


# ---------------------------------------------------------------------------
# flow.tensor.*: whole tensors between dispatches
# ---------------------------------------------------------------------------


def _values(op: Operation, args: tuple) -> dict[SSAValue, Any]:
    return dict(zip(op.operands, args))


def _ints(values: dict[SSAValue, Any], operands: Sequence[SSAValue]) -> list[int]:
    return [int(values[o]) for o in operands]


def _bitcast(op: flow_tensor.ReshapeLikeOpBase, args: tuple) -> np.ndarray:
    """The source's bytes read as the result type (row-major)."""
    values = _values(op, args)
    shape = shape_with_dims(op, op.result.type.get_shape(), _ints(values, op.result_dims))
    source = np.ascontiguousarray(values[op.source])
    return source.view(numpy_dtype(op.result.type.element_type)).reshape(shape)


@register_impls
class FlowTensorFunctions(InterpreterFunctions):
    """``flow.tensor.*`` on whole arrays (a tensor's value is its logical ndarray)."""

    @impl(flow_tensor.TensorReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: flow_tensor.TensorReshapeOp, args: tuple):
        values = _values(op, args)
        shape = shape_with_dims(op, op.result.type.get_shape(), _ints(values, op.result_dims))
        return (np.reshape(np.asarray(values[op.source]), shape).astype(numpy_dtype(op.result.type.element_type)),)

    @impl(flow_tensor.TensorBitCastOp)
    def run_bitcast(self, interpreter: Interpreter, op: flow_tensor.TensorBitCastOp, args: tuple):
        return (_bitcast(op, args),)

    @impl(iree_tensor_ext.BitCastOp)
    def run_tensor_ext_bitcast(self, interpreter: Interpreter, op: iree_tensor_ext.BitCastOp, args: tuple):
        return (_bitcast(op, args),)

    @impl(flow_tensor.TensorLoadOp)
    def run_load(self, interpreter: Interpreter, op: flow_tensor.TensorLoadOp, args: tuple):
        values = _values(op, args)
        return (np.asarray(values[op.source])[tuple(_ints(values, op.indices))],)

    @impl(flow_tensor.TensorStoreOp)
    def run_store(self, interpreter: Interpreter, op: flow_tensor.TensorStoreOp, args: tuple):
        values = _values(op, args)
        result = np.array(values[op.target], copy=True)
        result[tuple(_ints(values, op.indices))] = values[op.value]
        return (result,)

    @impl(flow_tensor.TensorSplatOp)
    def run_splat(self, interpreter: Interpreter, op: flow_tensor.TensorSplatOp, args: tuple):
        values = _values(op, args)
        shape = shape_with_dims(op, op.result.type.get_shape(), _ints(values, op.result_dims))
        return (np.full(shape, values[op.value], dtype=numpy_dtype(op.result.type.element_type)),)

    @impl(flow_tensor.TensorCloneOp)
    def run_clone(self, interpreter: Interpreter, op: flow_tensor.TensorCloneOp, args: tuple):
        return (np.array(args[0], copy=True),)

    @impl(flow_tensor.TensorTransferOp)
    def run_transfer(self, interpreter: Interpreter, op: flow_tensor.TensorTransferOp, args: tuple):
        # One memory for every device here: a transfer is a copy.
        return (np.array(args[0], copy=True),)

    @impl(flow_tensor.TensorTieShapeOp)
    def run_tensor_tie_shape(self, interpreter: Interpreter, op: flow_tensor.TensorTieShapeOp, args: tuple):
        # Metadata: the tensor itself, whose sizes must be the tied values.
        shape = shape_with_dims(op, op.result.type.get_shape(), [int(a) for a in args[1:]])
        if np.shape(args[0]) != shape:
            raise InterpreterError(op, f"tensor of shape {np.shape(args[0])} tied to shape {shape}")
        return (args[0],)

    @impl(flow_tensor.TensorSliceOp)
    def run_slice(self, interpreter: Interpreter, op: flow_tensor.TensorSliceOp, args: tuple):
        values = _values(op, args)
        starts, lengths = _ints(values, op.start_indices), _ints(values, op.lengths)
        source = np.asarray(values[op.source])
        if any(s < 0 or s + n > extent for s, n, extent in zip(starts, lengths, source.shape)):
            raise InterpreterError(op, f"slice {starts} for {lengths} is out of bounds of {list(source.shape)}")
        return (np.array(source[tuple(slice(s, s + n) for s, n in zip(starts, lengths))], copy=True),)

    @impl(flow_tensor.TensorUpdateOp)
    def run_update(self, interpreter: Interpreter, op: flow_tensor.TensorUpdateOp, args: tuple):
        values = _values(op, args)
        starts = _ints(values, op.start_indices)
        update = np.asarray(values[op.update])
        result = np.array(values[op.target], copy=True)
        if any(s < 0 or s + n > extent for s, n, extent in zip(starts, update.shape, result.shape)):
            raise InterpreterError(op, f"update of shape {list(update.shape)} at {starts} is out of bounds")
        result[tuple(slice(s, s + n) for s, n in zip(starts, update.shape))] = update
        return (result,)

    @impl(flow_tensor.TensorAllocaOp)
    def run_alloca(self, interpreter: Interpreter, op: flow_tensor.TensorAllocaOp, args: tuple):
        shape = shape_with_dims(op, op.result.type.get_shape(), [int(a) for a in args])
        return (np.zeros(shape, dtype=numpy_dtype(op.result.type.element_type)),)

    @impl(flow_tensor.TensorEmptyOp)
    def run_empty(self, interpreter: Interpreter, op: flow_tensor.TensorEmptyOp, args: tuple):
        shape = shape_with_dims(op, op.result.type.get_shape(), [int(a) for a in args])
        return (np.zeros(shape, dtype=numpy_dtype(op.result.type.element_type)),)

    @impl(flow_tensor.TensorTraceOp)
    def run_trace(self, interpreter: Interpreter, op: flow_tensor.TensorTraceOp, args: tuple):
        # IREE prints the tensors at runtime; the results of the program do not change.
        return ()


FUNCTIONS = (FlowFunctions, TensorExtFunctions, FlowTensorFunctions)
