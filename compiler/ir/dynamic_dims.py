"""The SSA values that give a tensor's dynamic dimensions, as IREE's ``findDynamicDims``.

Flow-level ops carry the sizes of their dynamic tensors as operands
(``tensor<?x?xf32>{%m, %n}``). A pass that creates such an op (an
``unset_encoding`` with its result dims, a ``flow.tensor.encode``, a dispatch
region result) asks here for the values already in the IR instead of creating
``tensor.dim`` ops, so its output reads like IREE's after ``resolve-dims``.
"""

from __future__ import annotations


from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, LocationAttr, TensorType
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.ir.memo import ClassMemo
from mini_iree.dialects.utils import count_dynamic


# How each op class states its results' sizes (see find_dynamic_dims), decided
# once per class: a chain of isinstance tests on ops (ABCs) is slow when asked
# for every tensor a pass creates an op for.
_SIZE_SOURCES: ClassMemo[str | None] = ClassMemo("dynamic_dims.size_source")


def _size_source(op: Operation) -> str | None:
    return _SIZE_SOURCES.lookup(type(op), _class_size_source)


def _class_size_source(cls: type[Operation]) -> str | None:
    from mini_iree.dialects import flow, flow_tensor, hal, iree_encoding, iree_tensor_ext, tensor

    kinds: tuple[tuple[tuple[type, ...], str], ...] = (
        ((hal.TensorImportOp,), "import"),
        ((flow.DispatchRegionOp,), "region"),
        ((flow.DispatchWorkgroupsOp, flow.DispatchOp), "dispatch"),
        (
            (
                flow.TensorEncodeOp,
                flow_tensor.ReshapeLikeOpBase,
                flow_tensor.TensorEmptyOp,
                flow_tensor.TensorAllocaOp,
                flow_tensor.TensorSplatOp,
                flow_tensor.TensorSliceOp,
                iree_encoding.UnsetEncodingOp,
            ),
            "result_dims",
        ),
        ((flow_tensor.TensorCloneOp, flow_tensor.TensorTransferOp), "operand_dims"),
        ((flow_tensor.TensorUpdateOp, flow_tensor.TensorStoreOp), "target_dims"),
        ((flow_tensor.TensorTieShapeOp,), "tie"),
        ((iree_tensor_ext.ComputeBarrierStartOp,), "barrier"),
        ((tensor.EmptyOp,), "empty"),
        ((tensor.ExpandShapeOp,), "expand"),
        ((iree_encoding.SetEncodingOp,), "set_encoding"),
    )
    return next((kind for classes, kind in kinds if issubclass(cls, classes)), None)


def find_dynamic_dims(value: SSAValue) -> list[SSAValue] | None:
    """The dynamic sizes of ``value`` as values already in the IR, or None if unknown.

    Static tensors give ``[]``. Otherwise the producer is asked: ops that carry
    their result dims (``hal.tensor.import``, ``flow.dispatch.region``,
    ``flow.tensor.*``, ``unset_encoding``, ``compute_barrier``), ops that create the tensor from sizes (``tensor.empty``,
    ``tensor.expand_shape``'s ``output_shape``), and ops whose result has
    the shape of an operand (destination-style linalg ops, ``set_encoding``).
    """
    if count_dynamic(value.type) == 0:
        return [] if isinstance(value.type, TensorType) else None
    if not isinstance(value, OpResult):
        return None
    op, index = value.op, value.index
    source = _size_source(op)
    if source == "import":
        return list(op.target_dims)  # type: ignore[attr-defined]
    if source == "region":
        from mini_iree.compiler.analysis.dispatch_regions import dispatch_result_dims

        return dispatch_result_dims(op, index)  # type: ignore[arg-type]
    if source == "dispatch":
        return _shaped_result_dims(op.result_types, op.result_dims, index)  # type: ignore[attr-defined]
    if source == "result_dims":
        return list(op.result_dims)  # type: ignore[attr-defined]
    if source == "operand_dims":  # a copy: the sizes of what it copies
        return list(op.operand_dims)  # type: ignore[attr-defined]
    if source == "target_dims":  # an update in place: the sizes of the tensor updated
        return list(op.target_dims)  # type: ignore[attr-defined]
    if source == "tie":
        return list(op.dynamic_dims)  # type: ignore[attr-defined]
    if source == "barrier":
        return list(op.value_dims)  # type: ignore[attr-defined]
    if source == "empty":
        return list(op.dynamic_sizes)  # type: ignore[attr-defined]
    if source == "expand":
        # What MLIR's canonicalizer makes of `tensor.dim` of an `expand_shape` (FoldDimOfExpandShape).
        return list(op.output_shape)  # type: ignore[attr-defined]
    if source == "set_encoding":
        return find_dynamic_dims(op.source)  # type: ignore[attr-defined]
    if op.name == "linalg.unpack":
        # The result has the destination's shape (MLIR reifies an unpack's sizes from its dest).
        return find_dynamic_dims(op.dest)  # type: ignore[attr-defined]
    outputs = getattr(op, "outputs", None)
    if (
        outputs is not None
        and index < len(outputs)
        # A destination-style op's init, not results that happen to be called outputs
        # (`builtin.unrealized_conversion_cast`).
        and outputs[index].owner is not op
        and outputs[index].type.get_shape() == value.type.get_shape()
    ):
        return find_dynamic_dims(outputs[index])
    return None


def _shaped_result_dims(result_types, result_dims, index: int) -> list[SSAValue]:
    """The ``{...}`` sizes of result ``index`` of an op listing all its results' sizes in order."""
    start = sum(count_dynamic(t) for t in result_types[:index])
    return list(result_dims[start : start + count_dynamic(result_types[index])])


def dominates_point(value: SSAValue, block: Block) -> bool:
    """True if ``value`` is visible from ``block`` (defined in it or an enclosing block)."""
    owner = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
    current: Block | None = block
    while current is not None:
        if current is owner:
            return True
        parent_op = current.parent_op()
        current = parent_op.parent_block() if parent_op is not None else None
    return False


def get_dynamic_dims(
    value: SSAValue, insert_point: InsertPoint, location: LocationAttr | None = None
) -> list[SSAValue]:
    """The dynamic sizes of ``value``, creating ``tensor.dim`` ops at ``insert_point`` if needed.

    Values found by :func:`find_dynamic_dims` are used when they are visible at
    the insertion point; otherwise ``arith.constant`` + ``tensor.dim`` are built,
    at ``location``: by default that of the op they are inserted before (the op
    that needs the sizes), else of the op defining ``value``.
    """
    from mini_iree.dialects import tensor

    found = find_dynamic_dims(value)
    if found is not None and all(dominates_point(d, insert_point.block) for d in found):
        return found
    dims: list[SSAValue] = []
    if location is None:
        user = insert_point.insert_before
        location = user.location if user is not None else getattr(value.owner, "location", None)
    for axis, size in enumerate(value.type.get_shape()):  # type: ignore[attr-defined]
        if size != DYNAMIC_INDEX:
            continue
        index = arith.ConstantOp(IntegerAttr(axis, IndexType()))
        dim = tensor.DimOp(value, index)
        if location is not None:
            index.location = dim.location = location
        Rewriter.insert_op([index, dim], insert_point)
        dims.append(dim.results[0])
    return dims


__all__ = ["dominates_point", "find_dynamic_dims", "get_dynamic_dims"]
