"""Moving ops across the boundary of a ``flow.dispatch.region``.

A dispatch region captures the values defined above it implicitly, so an op
whose operands all come from outside can be moved right before the region
without changing what the region computes. These helpers find such ops (an op
and the chain of in-region producers it needs) and move them, as IREE's
``Flow::hoistOutOfDispatch`` does, including the case where the moved op's
result was also returned by the region.

Changing what a region returns means building a new region op with the new
result list and moving the body over (:func:`rebuild_dispatch_region`);
:func:`move_defs_before` makes values computed after a region (the sizes an
encoding op needs) visible before it, as IREE's ``moveOperandDefs`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, is_side_effect_free

from mini_iree.compiler.ir.queries import op_has_trait, side_effect_free
from mini_iree.dialects import flow
from mini_iree.dialects.utils import operand_segment_sizes

__all__ = [
    "backward_slice_in_dispatch",
    "dispatch_result_dims",
    "enclosing_dispatch_region",
    "erase_if_dead",
    "hoist_out_of_dispatch",
    "is_defined_inside",
    "is_outside_dispatch",
    "move_defs_before",
    "new_dispatch_region",
    "new_flow_return",
    "rebuild_dispatch_region",
    "would_be_trivially_dead",
]


def new_dispatch_region(
    result_types: Sequence[Attribute],
    result_dims: Sequence[SSAValue],
    workload: Sequence[SSAValue] = (),
    body: Region | None = None,
    workgroup_count: Region | None = None,
) -> flow.DispatchRegionOp:
    """``flow.DispatchRegionOp(result_types, result_dims, workload, body, workgroup_count)``, built directly.

    The same op the IRDL constructor builds (operands, results, the
    ``operandSegmentSizes`` property, regions), without its generic argument
    processing: passes build one per dispatch, and rebuild them often.
    """
    return flow.DispatchRegionOp.create(
        operands=(*result_dims, *workload),
        result_types=result_types,
        properties={"operandSegmentSizes": operand_segment_sizes(len(result_dims), len(workload))},
        regions=(body if body is not None else Region(Block()), workgroup_count or Region()),
    )


def new_flow_return(values: Sequence[SSAValue]) -> flow.ReturnOp:
    """``flow.ReturnOp(values)``, built directly (see :func:`new_dispatch_region`)."""
    return flow.ReturnOp.create(operands=values)


def enclosing_dispatch_region(op: Operation) -> flow.DispatchRegionOp | None:
    """The nearest ``flow.dispatch.region`` around ``op``, if any."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, flow.DispatchRegionOp):
            return parent
        parent = parent.parent_op()
    return None


def is_defined_inside(value: SSAValue, region_op: Operation) -> bool:
    """True if ``value`` is defined somewhere in the body of ``region_op``."""
    owner = value.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    while block is not None:
        parent = block.parent_op()
        if parent is region_op:
            return True
        block = parent.parent_block() if parent is not None else None
    return False


def backward_slice_in_dispatch(
    op: Operation, dispatch: flow.DispatchRegionOp, is_hoistable: Callable[[Operation], bool]
) -> list[Operation] | None:
    """``op`` and every in-region op it transitively uses, in program order.

    Returns None if a producer in the region is not ``is_hoistable`` or if the
    chain reads a block argument of the region (a loop variable, say): such a
    chain cannot be evaluated before the region. Program order is a valid
    order to move the ops in, since every producer precedes its users.
    """
    seen: set[Operation] = {op}
    worklist = [op]
    while worklist:
        current = worklist.pop()
        for operand in current.operands:
            if not is_defined_inside(operand, dispatch):
                continue
            if isinstance(operand, BlockArgument):
                return None
            producer = operand.owner
            assert isinstance(producer, Operation)
            if producer in seen:
                continue
            if not is_hoistable(producer):
                return None
            seen.add(producer)
            worklist.append(producer)
    return [candidate for candidate in dispatch.walk() if candidate in seen]


def is_outside_dispatch(op: Operation) -> bool:
    """True if ``op`` is not nested in any dispatch region (IREE's ``isNonNullAndOutsideDispatch``)."""
    return enclosing_dispatch_region(op) is None


def dispatch_result_dims(region: flow.DispatchRegionOp, index: int) -> list[SSAValue]:
    """The `{...}` sizes the region declares for its result ``index``."""
    start = sum(flow.num_shape_dims(t) for t in region.result_types[:index])
    return list(region.result_dims[start : start + flow.num_shape_dims(region.result_types[index])])


def rebuild_dispatch_region(
    region: flow.DispatchRegionOp,
    keep: Sequence[int],
    extra_values: Sequence[SSAValue],
    extra_dims: Sequence[Sequence[SSAValue]],
    rewriter: PatternRewriter | None = None,
) -> flow.DispatchRegionOp:
    """Replace ``region`` by one returning its results ``keep`` followed by ``extra_values``.

    ``extra_values`` are values of the region body; ``extra_dims`` their sizes as
    values visible before the region. Uses of the kept results move to the new
    op; results not kept must be unused. Uses of ``extra_values`` are the
    caller's to redirect. Inside a pattern, pass its ``rewriter`` so the walker
    hears of the new and erased ops.
    """
    terminator = region.body.block.last_op
    assert isinstance(terminator, flow.ReturnOp)
    returned = [terminator.operands[i] for i in keep] + list(extra_values)
    dims: list[SSAValue] = []
    for i in keep:
        dims += dispatch_result_dims(region, i)
    for value_dims in extra_dims:
        dims += value_dims
    new_region = new_dispatch_region(
        [v.type for v in returned],
        dims,
        list(region.workload),
        Rewriter.move_region_contents_to_new_regions(region.body),
        Rewriter.move_region_contents_to_new_regions(region.workgroup_count),
    )
    new_region.attributes |= region.attributes
    new_region.location = region.location
    new_return = new_flow_return(returned)
    new_return.location = terminator.location
    if rewriter is None:
        Rewriter.insert_op(new_region, InsertPoint.before(region))
        Rewriter.replace_op(terminator, new_return)
        for new_index, old_index in enumerate(keep):
            region.results[old_index].replace_all_uses_with(new_region.results[new_index])
        Rewriter.erase_op(region)
        return new_region
    rewriter.insert(new_region, InsertPoint.before(region))
    rewriter.replace(terminator, new_return)
    for new_index, old_index in enumerate(keep):
        rewriter.replace_all_uses_with(region.results[old_index], new_region.results[new_index])
    rewriter.erase(region)
    return new_region


def hoist_out_of_dispatch(op: Operation, dispatch: flow.DispatchRegionOp) -> flow.DispatchRegionOp:
    """Move ``op`` right before ``dispatch``; returns the (possibly rebuilt) region.

    Every operand of ``op`` must already be defined outside the region. Uses of
    ``op``'s results inside the region keep working through implicit capture;
    a result the region returned is used directly instead, and the region
    stops returning it.
    """
    assert not any(is_defined_inside(v, dispatch) for v in op.operands), "operands must be outside the region"
    op.detach()
    Rewriter.insert_op(op, InsertPoint.before(dispatch))
    terminator = dispatch.body.block.last_op
    if not isinstance(terminator, flow.ReturnOp):
        return dispatch
    dropped = {i for i, value in enumerate(terminator.operands) if value.owner is op}
    if not dropped:
        return dispatch
    for index in dropped:
        dispatch.results[index].replace_all_uses_with(terminator.operands[index])
    return rebuild_dispatch_region(dispatch, [i for i in range(len(dispatch.results)) if i not in dropped], [], [])


def _is_removable(op: Operation) -> bool:
    """Side-effect free, counting linalg ops on tensors (xDSL gives them no effect traits)."""
    from xdsl.dialects.builtin import MemRefType

    if side_effect_free(op):
        return True
    on_tensors = not any(isinstance(v.type, MemRefType) for v in (*op.operands, *op.results))
    return op.name.startswith("linalg.") and on_tensors


def would_be_trivially_dead(op: Operation) -> bool:
    """MLIR's ``wouldOpBeTriviallyDead``: erasable once unused (no terminator, no side effect)."""
    return not op_has_trait(op, IsTerminator) and _is_removable(op)


def erase_if_dead(ops: Iterable[Operation], rewriter: PatternRewriter | None = None) -> None:
    """Erase the given ops, and then their producers, once nothing uses them.

    Only side-effect-free ops are erased. This is the clean-up a greedy rewrite
    driver does after replacing an op, limited to what the rewrite left dead so
    unrelated IR is never touched. Inside a pattern, pass its ``rewriter`` so
    the walker hears of the erasures.
    """
    erase = rewriter.erase if rewriter is not None else Rewriter.erase_op
    worklist = list(ops)
    while worklist:
        op = worklist.pop()
        if op.parent is None or any(result.first_use is not None for result in op.results):
            continue
        if not _is_removable(op):
            continue
        producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        erase(op)
        worklist.extend(producers)


def _order_from(anchor: Operation, op: Operation) -> int:
    """Where ``op`` (in ``anchor``'s block) stands from ``anchor``: -1 before, 0 itself, 1 after.

    Walks out from ``anchor`` in both directions at once, so the cost is the
    distance between the two ops (or between ``anchor`` and the nearer end of
    the block), never the whole block: a pass that asks about every dispatch
    region of a long function stays linear in the common case.
    """
    if op is anchor:
        return 0
    before, after = anchor.prev_op, anchor.next_op
    while True:
        if before is op:
            return -1
        if after is op:
            return 1
        # One side ran out without meeting `op`: it is on the other side.
        if before is None:
            return 1
        if after is None:
            return -1
        before, after = before.prev_op, after.next_op


def _dominates(value: SSAValue, anchor: Operation) -> bool | None:
    """True if ``value`` is visible at ``anchor``; None if it is defined later in ``anchor``'s block."""
    owner_block = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
    if owner_block is None:
        return False
    ancestor = owner_block.find_ancestor_op_in_block(anchor)
    if ancestor is None:
        return False
    if isinstance(value, OpResult) and (order := _order_from(ancestor, value.op)) >= 0:
        return None if ancestor is anchor and order > 0 else False
    return True


def move_defs_before(values: Sequence[SSAValue], anchor: Operation) -> bool:
    """Make ``values`` visible at ``anchor`` by moving their definitions above it.

    Only side-effect-free, region-free ops of ``anchor``'s block that come after
    it are moved, with whatever they need in turn. Returns False, changing
    nothing, if some value depends on ``anchor`` itself or on an op that cannot
    move.
    """
    to_move: set[Operation] = set()
    worklist = list(values)
    while worklist:
        value = worklist.pop()
        visible = _dominates(value, anchor)
        if visible:
            continue
        if visible is False or not isinstance(value, OpResult):
            return False
        op = value.op
        if op in to_move:
            continue
        if op.regions or not is_side_effect_free(op):
            return False
        to_move.add(op)
        worklist.extend(op.operands)
    # Every op to move comes after `anchor`: walk forward from it, in program
    # order, only as far as the last of them.
    block = anchor.parent_block()
    assert block is not None
    current, remaining = anchor.next_op, len(to_move)
    while remaining:
        assert current is not None
        following = current.next_op
        if current in to_move:
            current.detach()
            block.insert_op_before(current, anchor)
            remaining -= 1
        current = following
    return True
