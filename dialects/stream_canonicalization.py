"""Canonicalization patterns of stream ops, as IREE's StreamOpFolders.cpp names them.

The ops' traits (in ``dialects/stream.py``) hand these out to ``canonicalize``:
a ``stream.tensor.clone`` that keeps the resource type is its source; the
subviews schedule-allocation hands the results of an execution region out as
fold into the commands' ranges (captured, bound, and waited on).
"""

from __future__ import annotations

from mini_iree.dialects.flow import UNTIED_INDEX
from mini_iree.dialects.linalg.syntax import constant_int
from mini_iree.dialects.stream import (
    AsyncDispatchOp,
    CmdDispatchOp,
    CmdExecuteOp,
    ResourceSubviewOp,
    TensorCloneOp,
    TimepointAwaitOp,
    _ExecutionRegionOp,
)
from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, i32
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

__all__ = [
    "CloneCapturedCmdExecuteSubviewOps",
    "ClosureOptimizationPattern",
    "ElideUnneededTensorClones",
    "FoldDuplicateAwaitResources",
    "FoldSubviewsIntoDispatchOp",
    "FoldTensorCloneOp",
    "SinkSubviewsAcrossAwaits",
]


def _has_tied_use(value: SSAValue) -> bool:
    """IREE's ``TiedOpInterface::hasAnyTiedUses``: some op writes ``value`` in place (a result tied to it)."""
    for use in value.uses:
        user = use.operation
        tied = user.properties.get("tied_operands")
        if not isinstance(tied, ArrayAttr) or not tied.data:
            continue
        operands = user.resource_operands if isinstance(user, AsyncDispatchOp) else getattr(user, "mixed_operands", None)
        if operands is None:
            return True  # an op that ties operands in a way not known here: assume it writes this one
        if any(t.value.data != UNTIED_INDEX and operands[t.value.data] is value for t in tied.data):
            return True
    return False


class FoldTensorCloneOp(RewritePattern):
    """IREE's ``TensorCloneOp::fold``: a clone into a resource of the same type with one use is its source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorCloneOp, rewriter: PatternRewriter) -> None:
        if op.result.type == op.source.type and op.result.has_one_use():
            rewriter.replace(op, [], [op.source])


class ElideUnneededTensorClones(RewritePattern):
    """IREE's ``ElideUnneededTensorClones``: a clone into a resource of the same type is its source,
    unless something writes the clone in place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorCloneOp, rewriter: PatternRewriter) -> None:
        if op.result.type == op.source.type and not _has_tied_use(op.result):
            rewriter.replace(op, [], [op.source])


class CloneCapturedCmdExecuteSubviewOps(RewritePattern):
    """IREE's pattern of the name: an execution region capturing a ``stream.resource.subview``
    captures the whole resource instead, and takes the same range of it inside (where
    ``FoldSubviewsIntoDispatchOp`` moves it into the commands' ranges)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CmdExecuteOp, rewriter: PatternRewriter) -> None:
        captured = [(i, v.op) for i, v in enumerate(op.resource_operands) if isinstance(v, OpResult) and isinstance(v.op, ResourceSubviewOp)]
        if not captured:
            return
        count = len(op.resource_operands)
        operands = list(op.operands)
        block = op.body.block
        for index, subview in captured:
            operands[index] = subview.source
            operands[count + index] = subview.source_size
            arg = block.args[index]
            inner = ResourceSubviewOp(arg, subview.source_size, subview.source_offset, subview.result_size)
            inner.location = subview.location
            first = block.first_op
            assert first is not None
            rewriter.insert(inner, InsertPoint.before(first))
            arg.replace_uses_with_if(inner.result, lambda use, inner=inner: use.operation is not inner)
        op.operands = operands
        rewriter.notify_op_modified(op)


class ClosureOptimizationPattern(RewritePattern):
    """The deduplication part of IREE's ``ClosureOptimizationPattern``: a resource captured twice
    (with the same size) is captured once, its block arguments merged. (IREE's pattern also
    inlines captured constants and drops unused captures, which mini-iree's regions never have.)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CmdExecuteOp, rewriter: PatternRewriter) -> None:
        resources, sizes = list(op.resource_operands), list(op.resource_operand_sizes)
        first: dict[tuple[SSAValue, SSAValue], int] = {}
        duplicates: list[tuple[int, int]] = []
        for index, key in enumerate(zip(resources, sizes)):
            if key in first:
                duplicates.append((index, first[key]))
            else:
                first[key] = index
        if not duplicates:
            return
        block = op.body.block
        for index, kept in duplicates:
            block.args[index].replace_all_uses_with(block.args[kept])
        for index, _ in reversed(duplicates):
            block.erase_arg(block.args[index])
        dropped = {index for index, _ in duplicates}
        kept_resources = [r for i, r in enumerate(resources) if i not in dropped]
        kept_sizes = [v for i, v in enumerate(sizes) if i not in dropped]
        rest = list(op.operands)[2 * len(resources) :]
        op.operands = [*kept_resources, *kept_sizes, *rest]
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [len(kept_resources), len(kept_sizes), len(rest)]
        )
        rewriter.notify_op_modified(op)


class SinkSubviewsAcrossAwaits(RewritePattern):
    """IREE's pattern of the name: a host wait on a subview waits on the whole resource, and the
    subview is taken after the wait (where the next execution region captures and folds it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TimepointAwaitOp, rewriter: PatternRewriter) -> None:
        operands = list(op.operands)
        count = len(op.resource_operands)
        changed = False
        after = op
        for index, value in enumerate(op.resource_operands):
            if not (isinstance(value, OpResult) and isinstance(value.op, ResourceSubviewOp)):
                continue
            subview = value.op
            result = op.res[index]
            sunk = ResourceSubviewOp(result, subview.source_size, subview.source_offset, subview.result_size)
            sunk.location = subview.location
            rewriter.insert(sunk, InsertPoint.after(after))
            after = sunk
            result.replace_uses_with_if(sunk.result, lambda use, sunk=sunk: use.operation is not sunk)
            operands[1 + index] = subview.source
            operands[1 + count + index] = subview.source_size
            changed = True
        if changed:
            op.operands = operands
            rewriter.notify_op_modified(op)


class FoldDuplicateAwaitResources(RewritePattern):
    """IREE's pattern of the name: a resource awaited twice is awaited once."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TimepointAwaitOp, rewriter: PatternRewriter) -> None:
        first: dict[SSAValue, int] = {}
        operands: list[SSAValue] = []
        sizes: list[SSAValue] = []
        positions: list[int] = []
        for operand, size in zip(op.resource_operands, op.resource_operand_sizes):
            if operand not in first:
                first[operand] = len(operands)
                operands.append(operand)
                sizes.append(size)
            positions.append(first[operand])
        if len(operands) == len(op.resource_operands):
            return
        new_op = TimepointAwaitOp(op.await_timepoint, operands, sizes, op.affinity)
        new_op.attributes |= op.attributes
        new_op.location = op.location
        rewriter.insert(new_op, InsertPoint.before(op))
        for result, position in zip(op.res, positions):
            result.replace_all_uses_with(new_op.res[position])
        rewriter.erase_op(op)


class FoldSubviewsIntoDispatchOp(RewritePattern):
    """IREE's pattern of the name: a command binding a ``stream.resource.subview`` binds the
    whole resource at the subview's offset plus its own."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CmdDispatchOp, rewriter: PatternRewriter) -> None:
        resources = list(op.resources)
        subviews = [v.op if isinstance(v, OpResult) and isinstance(v.op, ResourceSubviewOp) else None for v in resources]
        if not any(subviews):
            return
        count = len(resources)
        base = len(op.workload) + len(op.uniform_operands)
        operands = list(op.operands)
        for index, subview in enumerate(subviews):
            if subview is None:
                continue
            offset = op.resource_offsets[index]
            new_offset = _fold_add(subview.source_offset, offset, op, rewriter)
            operands[base + index] = subview.source
            operands[base + count + index] = subview.source_size
            operands[base + 2 * count + index] = new_offset
        op.operands = operands
        rewriter.notify_op_modified(op)


def _fold_add(lhs: SSAValue, rhs: SSAValue, op: Operation, rewriter: PatternRewriter) -> SSAValue:
    """``createOrFold<arith::AddIOp>`` before the op's execution region: an add of zero is the other value."""
    if constant_int(rhs) == 0:
        return lhs
    if constant_int(lhs) == 0:
        return rhs
    scope = op.parent_op()
    while scope is not None and not isinstance(scope, _ExecutionRegionOp):
        scope = scope.parent_op()
    add = arith.AddiOp(lhs, rhs)
    add.location = op.location
    rewriter.insert(add, InsertPoint.before(scope if scope is not None else op))
    return add.result
