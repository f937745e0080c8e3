"""Wrapping ops in a new ``flow.dispatch.region`` (IREE's ``wrapOpInDispatchRegion``).

Dispatch region formation wraps each fusion group at its root; clone-producers
wraps the generics left outside every dispatch, one each. Either way the
region returns the member results used outside it, with the dynamic sizes of
each computed before the region (IREE's ``reifyDynamicResultDims``): read off
the value outside the group whose shape the result has (following destination
operands), or, for a ``tensor.pad``, its source size plus the padding.

Source: IREE ``compiler/src/iree/compiler/DispatchCreation`` and
``Dialect/Flow/Transforms/RegionOpUtils.cpp``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.dispatch_regions import new_dispatch_region, new_flow_return
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.locations import fused_location, give_location
from mini_iree.compiler.ir.queries import instance_test
from mini_iree.dialects import flow, iree_encoding, linalg, tensor

__all__ = ["wrap_in_dispatch_region", "wrap_op_in_dispatch_region"]

_is_op_result = instance_test(OpResult)
_is_fill = instance_test(linalg.FillOp)
_is_pack_or_unpack = instance_test(linalg.PackOp, linalg.UnPackOp)
_is_set_encoding = instance_test(iree_encoding.SetEncodingOp)


def _init_of(value: SSAValue, group: Sequence[Operation]) -> SSAValue:
    """The value outside ``group`` whose shape ``value`` has, following destination operands."""
    while _is_op_result(value):
        op = value.op
        if not (op in group or _is_fill(op)):
            break
        if _is_pack_or_unpack(op):
            value = op.operands[1]
            continue
        if _is_set_encoding(op):
            value = op.source
            continue
        outputs = getattr(op, "outputs", ())
        if value.index >= len(outputs):
            break
        value = outputs[value.index]
    return value


def _result_dims(value: SSAValue, group: Sequence[Operation], point: InsertPoint) -> list[SSAValue]:
    """Sizes of a returned value, as values visible at ``point`` (before the region)."""
    init = _init_of(value, group)
    if isinstance(init, OpResult) and init.op in group and isinstance(init.op, tensor.PadOp):
        return _pad_result_dims(init.op, group, point)
    if isinstance(init, OpResult) and init.op in group:
        return []
    return get_dynamic_dims(init, point)


def _pad_result_dims(pad: tensor.PadOp, group: Sequence[Operation], point: InsertPoint) -> list[SSAValue]:
    """Dynamic sizes of a ``tensor.pad``: source size plus low and high padding.

    A source computed in the group has no size before the region: its sizes are
    read off what it is computed from, as for any returned value.
    """
    source = pad.source
    source_shape = source.type.get_shape()
    source_dims: dict[int, SSAValue] | None = None
    if isinstance(source, OpResult) and source.op in group:
        dynamic_axes = [axis for axis, size in enumerate(source_shape) if size == DYNAMIC_INDEX]
        source_dims = dict(zip(dynamic_axes, _result_dims(source, group, point), strict=True))
    low = list(pad.low)
    high = list(pad.high)
    static_low = pad.static_low.get_values()
    static_high = pad.static_high.get_values()
    dims: list[SSAValue] = []
    low_it, high_it = iter(low), iter(high)
    for axis, size in enumerate(pad.result.type.get_shape()):
        dyn_low = next(low_it) if static_low[axis] == DYNAMIC_INDEX else None
        dyn_high = next(high_it) if static_high[axis] == DYNAMIC_INDEX else None
        if size != DYNAMIC_INDEX:
            continue
        ops: list[Operation] = []
        total: SSAValue
        if source_dims is not None and axis in source_dims:
            total = source_dims[axis]
        elif source_shape[axis] != DYNAMIC_INDEX:
            constant = arith.ConstantOp(IntegerAttr(source_shape[axis], IndexType()))
            ops.append(constant)
            total = constant.result
        else:
            index = arith.ConstantOp(IntegerAttr(axis, IndexType()))
            dim = tensor.DimOp(source, index)
            ops += [index, dim]
            total = dim.results[0]
        for dynamic, static in ((dyn_low, static_low[axis]), (dyn_high, static_high[axis])):
            amount = dynamic
            if amount is None and static:
                constant = arith.ConstantOp(IntegerAttr(static, IndexType()))
                ops.append(constant)
                amount = constant.result
            if amount is not None:
                add = arith.AddiOp(total, amount)
                ops.append(add)
                total = add.result
        give_location(ops, pad)
        Rewriter.insert_op(ops, point)
        dims.append(total)
    return dims


def wrap_in_dispatch_region(root: Operation, members: Sequence[Operation]) -> flow.DispatchRegionOp:
    """Move ``members`` (program order, ``root`` among them) into one new region right after ``root``.

    Every operand of a member is defined before ``root`` or by an earlier
    member. A member result used outside the group is returned.
    """
    root_position = members.index(root)
    member_set = set(members)
    # Returned values: the root's results, then producers', then consumers' (IREE's order).
    producers, consumers = members[:root_position], members[root_position + 1 :]
    returned: list[SSAValue] = []
    for op in [root, *reversed(producers), *consumers]:
        for result in op.results:
            if any(use.operation not in member_set for use in result.uses):
                returned.append(result)
    if not returned:  # a dead group still yields what it computes, for later clean-up to see
        returned = list(members[-1].results)
    point = InsertPoint.before(root)
    dims: list[SSAValue] = []
    for value in returned:
        dims.extend(_result_dims(value, members, point))
    region_op = new_dispatch_region([v.type for v in returned], dims, body=Region(Block()))
    Rewriter.insert_op(region_op, InsertPoint.after(root))
    body = region_op.body.block
    for op in members:
        op.detach()
        body.add_op(op)
    body.add_op(new_flow_return(returned))
    # The region stands for the ops fused into it, the root first (its return is the root's).
    region_op.location = fused_location(root, members)
    give_location(region_op, root)
    for value, replacement in zip(returned, region_op.results):
        value.replace_uses_with_if(replacement, lambda use: not region_op.is_ancestor(use.operation))
        replacement.name_hint = None
    return region_op


def wrap_op_in_dispatch_region(op: Operation) -> flow.DispatchRegionOp:
    """IREE's ``wrapOpInDispatchRegion``: ``op`` alone in a new region right where it was."""
    return wrap_in_dispatch_region(op, [op])
