"""`iree-codegen-bufferize-dispatch-tensor-load-store`: dispatch tensor loads and stores on memrefs.

Each `hal.interface.binding.subspan` of a `!iree_tensor_ext.dispatch.tensor` that a
load or store reads gets a memref twin (same binding, offset, dims, alignment and
flags, memory space `#hal.descriptor_type<storage_buffer>`, a
`strided<[?, ...], offset: ?>` layout unless the byte offset is a known 0),
inserted just before it. A whole-tensor `iree_tensor_ext.dispatch.tensor.load`
becomes `iree_codegen.load_from_buffer` of that memref and a store becomes
`iree_codegen.store_to_buffer`; a slice goes through a `memref.subview` first.
The dispatch-tensor subspans stay (dead), as IREE leaves them for a later cleanup.

Refused: loads and stores whose dispatch tensor is not a subspan (left alone).
Nothing else changes; in particular named ops are not generalized (IREE's
`iree-codegen-gpu-generalize-named-ops` does that, before this pass in the
LLVMGPU pipeline).

IREE: `compiler/src/iree/compiler/Codegen/Common/BufferizeDispatchTensorLoadStore.cpp`
(and `findOrCreateSubspanBuffer` in `Codegen/Utils/Utils.cpp`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.functions import functions
from mini_iree.dialects import hal, iree_codegen
from mini_iree.dialects.iree_tensor_ext import (
    DispatchTensorLoadOpBase,
    DispatchTensorStoreOpBase,
    DispatchTensorTypeBase,
)


def _is_known_zero(value: SSAValue | None) -> bool:
    if value is None:
        return True
    owner = value.owner
    attr = getattr(owner, "value", None) if isinstance(owner, Operation) and owner.name == "arith.constant" else None
    return isinstance(attr, IntegerAttr) and attr.value.data == 0


def _row_major_strides(shape: Sequence[int]) -> list[int | None]:
    """Strides of a contiguous buffer; `None` (`?`) once a dynamic size is crossed."""
    strides: list[int | None] = []
    running: int | None = 1
    for size in reversed(shape):
        strides.append(running)
        running = None if running is None or size == DYNAMIC_INDEX else running * size
    return strides[::-1]


def subspan_memref_type(subspan: hal.InterfaceBindingSubspanOp) -> MemRefType:
    """The memref type IREE's `findOrCreateSubspanBuffer` gives a dispatch-tensor subspan."""
    dispatch_type = subspan.result.type
    assert isinstance(dispatch_type, DispatchTensorTypeBase)
    shape = dispatch_type.get_shape()
    layout: StridedLayoutAttr | NoneAttr = NoneAttr()
    if not _is_known_zero(subspan.byte_offset):
        # A non-zero (or unknown) byte offset: the offset is always `?` (buffers may be relocated).
        layout = StridedLayoutAttr(_row_major_strides(shape), None)
    memory_space = hal.DescriptorTypeAttr(subspan.pipeline_binding.type.descriptor_type)
    return MemRefType(dispatch_type.get_element_type(), shape, layout, memory_space)


def find_or_create_subspan_buffer(subspan: hal.InterfaceBindingSubspanOp) -> SSAValue:
    """An existing memref subspan equal to `subspan` before it in its block, or a new one just before it."""
    memref_type = subspan_memref_type(subspan)
    block = subspan.parent_block()
    assert block is not None
    for op in block.ops:
        if op is subspan:
            break
        if not isinstance(op, hal.InterfaceBindingSubspanOp) or op.result.type != memref_type:
            continue
        if (
            op.binding == subspan.binding
            and op.layout == subspan.layout
            and op.byte_offset == subspan.byte_offset
            and list(op.dynamic_dims) == list(subspan.dynamic_dims)
            and op.alignment == subspan.alignment
        ):
            return op.result
    buffer = hal.InterfaceBindingSubspanOp(
        memref_type,
        subspan.layout,
        subspan.binding.value.data,
        subspan.byte_offset,
        list(subspan.dynamic_dims),
        alignment=None if subspan.alignment is None else subspan.alignment.value.data,
        flags=None if subspan.descriptor_flags is None else subspan.descriptor_flags.value.data,
    )
    buffer.location = subspan.location
    Rewriter.insert_op(buffer, InsertPoint.before(subspan))
    return buffer.result


def _subview_type(source: MemRefType, tensor: TensorType, offsets, sizes, strides) -> MemRefType:
    """`memref::SubViewOp::inferRankReducedResultType` for the layouts this pass creates."""
    layout = source.layout
    if isinstance(layout, StridedLayoutAttr):
        base_strides = [None if s is None else s for s in layout.get_strides()]
        base_offset = layout.get_offset()
    else:
        base_strides = _row_major_strides(source.get_shape())
        base_offset = 0
    offset: int | None = base_offset
    for off, stride in zip(offsets, base_strides):
        if offset is None or not isinstance(off, int) or stride is None:
            offset = None
        else:
            offset += off * stride
    result_strides = [
        None if (not isinstance(s, int) or b is None) else s * b for s, b in zip(strides, base_strides)
    ]
    # Rank reduction drops unit sizes until the ranks agree (outermost first, as MLIR's default mask).
    kept = list(range(len(sizes)))
    drop = len(sizes) - tensor.get_num_dims()
    for dim, size in enumerate(sizes):
        if drop == 0:
            break
        if size == 1:
            kept.remove(dim)
            drop -= 1
    return MemRefType(
        source.element_type,
        tensor.get_shape(),
        StridedLayoutAttr([result_strides[d] for d in kept], offset),
        source.memory_space,
    )


def _buffer_for(
    op: DispatchTensorLoadOpBase | DispatchTensorStoreOpBase,
    subspan: hal.InterfaceBindingSubspanOp,
    tensor_type: TensorType,
    insert_before: Operation,
) -> SSAValue:
    """The subspan's memref, or a subview of it when `op` touches only a slice."""
    buffer = find_or_create_subspan_buffer(subspan)
    offsets, sizes, strides = op.get_mixed_offsets(), op.get_mixed_sizes(), op.get_mixed_strides()
    dispatch_type = subspan.result.type
    assert isinstance(dispatch_type, DispatchTensorTypeBase)
    dynamic_sizes = [s for s in sizes if isinstance(s, SSAValue)]
    if tensor_type.get_shape() == dispatch_type.get_shape() and dynamic_sizes == list(subspan.dynamic_dims):
        return buffer
    buffer_type = buffer.type
    assert isinstance(buffer_type, MemRefType)

    def split(values):
        return [v for v in values if isinstance(v, SSAValue)], [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]

    dyn_off, st_off = split(offsets)
    dyn_size, st_size = split(sizes)
    dyn_str, st_str = split(strides)
    subview = memref.SubviewOp(
        buffer, dyn_off, dyn_size, dyn_str, st_off, st_size, st_str,
        _subview_type(buffer_type, tensor_type, offsets, sizes, strides),
    )  # fmt: skip
    subview.location = op.location
    Rewriter.insert_op(subview, InsertPoint.before(insert_before))
    return subview.result


def _after_last_needed_value(store: DispatchTensorStoreOpBase) -> Operation:
    """The op before which a store's subview goes: right after the last of the values it needs
    (the target and its dims, offsets, sizes, strides) in the store's block."""
    block = store.parent_block()
    assert block is not None
    needed = [store.target, *store.target_dims, *store.offsets, *store.sizes, *store.strides]
    position = {op: i for i, op in enumerate(block.ops)}
    last: Operation | None = None
    for value in needed:
        owner = value.owner
        if isinstance(owner, Operation) and owner in position and (last is None or position[owner] > position[last]):
            last = owner
    if last is None:
        first = block.first_op
        assert first is not None
        return first
    nxt = last.next_op
    assert nxt is not None
    return nxt


def bufferize_dispatch_tensor_load(load: DispatchTensorLoadOpBase) -> None:
    subspan = load.source.owner
    if not isinstance(subspan, hal.InterfaceBindingSubspanOp):
        return
    tensor_type = load.result.type
    assert isinstance(tensor_type, TensorType)
    buffer = _buffer_for(load, subspan, tensor_type, load)
    new_load = iree_codegen.LoadFromBufferOp(buffer, tensor_type)
    new_load.location = load.location
    Rewriter.replace_op(load, new_load)


def bufferize_dispatch_tensor_store(store: DispatchTensorStoreOpBase) -> None:
    subspan = store.target.owner
    if not isinstance(subspan, hal.InterfaceBindingSubspanOp):
        return
    tensor_type = store.value.type
    assert isinstance(tensor_type, TensorType)
    # Subviews of a store go as early as possible, after the last value they need.
    buffer = _buffer_for(store, subspan, tensor_type, _after_last_needed_value(store))
    new_store = iree_codegen.StoreToBufferOp(store.value, buffer)
    new_store.location = store.location
    Rewriter.replace_op(store, new_store)


def _body_ops(function: Operation) -> list[Operation]:
    """The top-level ops of a function body (IREE takes `getFunctionBody().getOps<...>()`)."""
    if not function.regions or not function.regions[0].blocks:
        return []
    block: Block = function.regions[0].blocks.first  # type: ignore[assignment]
    return list(block.ops)


@dataclass(frozen=True)
class BufferizeDispatchTensorLoadStorePass(ModulePass):
    """Dispatch tensor load/store -> `iree_codegen.load_from_buffer` / `store_to_buffer` on binding memrefs."""

    name = "iree-codegen-bufferize-dispatch-tensor-load-store"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in functions(op, nested=True):
            body = _body_ops(function)
            for load in [o for o in body if isinstance(o, DispatchTensorLoadOpBase)]:
                bufferize_dispatch_tensor_load(load)
            for store in [o for o in body if isinstance(o, DispatchTensorStoreOpBase)]:
                bufferize_dispatch_tensor_store(store)
