"""``iree-stream-schedule-execution``: group a function's device work into ``stream.async.execute`` regions.

IREE partitions the streamable ``stream.async.*`` ops of each block into
execution regions: work that runs on one device as a unit, submitted once and
waited on with a timepoint. The resources a region uses from outside are
captured as its block arguments; the resources it produces for the rest of
the program are yielded and become usable after ``stream.timepoint.await``:

    %results, %result_timepoint = stream.async.execute on(#hal.device.affinity<@__device_0>)
        with(%5 as %arg2: !stream.resource<*>{%3}, %11 as %arg3: !stream.resource<*>{%9})
        -> !stream.resource<*>{%27} {
      %18 = stream.async.dispatch @_encoding_0::@...(%arg2[%c0 to %3 for %3], ...) -> !stream.resource<*>{%17}
      %25 = stream.async.dispatch @_encoding_1::@...(%arg3[%c0 to %9 for %9], ...) -> !stream.resource<*>{%24}
      %28 = stream.async.dispatch @matmul...(%18[%c0 to %17 for %17], %25[%c0 to %24 for %24], ...)
      stream.yield %28 : !stream.resource<*>{%27}
    } => !stream.timepoint
    %29 = stream.timepoint.await %result_timepoint => %results : !stream.resource<*>{%27}

mini-iree's partitioning is the simple case of IREE's: consecutive dispatches
of one block on the same affinity form a region; host ops between them stay
before it, and a host op that needs a result of the region so far ends it.
Only ``stream.async.dispatch`` is streamed: transfers, casts and allocas
between resources of one device move no data here and stay on the host,
where they run as before (IREE streams them too and then elides them).
Executables are left alone.

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/ScheduleExecution.cpp``
(and ``Analysis/Partitioning/ReferencePartitioning.cpp``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.dispatch_sites import resource_size_at_use
from mini_iree.compiler.analysis.functions import FUNCTION_LIKE, functions
from mini_iree.compiler.analysis.value_locations import value_location
from mini_iree.dialects import stream

__all__ = ["ScheduleExecutionPass"]


@dataclass
class _Partition:
    affinity: Attribute | None
    ops: list[stream.AsyncDispatchOp] = field(default_factory=list)
    results: set[SSAValue] = field(default_factory=set)

    def add(self, op: stream.AsyncDispatchOp) -> None:
        self.ops.append(op)
        self.results.update(op.results)


def _build_region(partition: _Partition) -> None:
    """Moves the partition's ops into a ``stream.async.execute`` at the last op's place."""
    ops = partition.ops
    inside = set(ops)
    last = ops[-1]
    # Captured resources, in order of first use, with the size their first user gives them.
    captured: list[SSAValue] = []
    captured_sizes: list[SSAValue] = []
    for op in ops:
        for value in op.resource_operands:
            if isinstance(value.type, stream.ResourceType) and value not in partition.results and value not in captured:
                captured.append(value)
                captured_sizes.append(resource_size_at_use(op, value))
    # Results used after the region, in program order.
    escaping: list[SSAValue] = []
    escaping_sizes: list[SSAValue] = []
    for op in ops:
        for result, size in zip(op.results, op.result_sizes):
            if any(use.operation not in inside for use in result.uses):
                escaping.append(result)
                escaping_sizes.append(size)
    block = Block(arg_types=[v.type for v in captured])
    for value, arg in zip(captured, block.args):
        arg.location = value_location(value, last.location)
    execute = stream.AsyncExecuteOp(
        captured, captured_sizes, [v.type for v in escaping], escaping_sizes, Region(block), partition.affinity
    )
    execute.location = last.location
    Rewriter.insert_op(execute, InsertPoint.after(last))
    await_op = stream.TimepointAwaitOp(execute.result_timepoint, list(execute.res), escaping_sizes)
    await_op.location = last.location
    Rewriter.insert_op(await_op, InsertPoint.after(execute))
    for value, awaited in zip(escaping, await_op.res):
        value.replace_uses_with_if(awaited, lambda use: use.operation not in inside)
    for op in ops:
        op.detach()
        block.add_op(op)
    for value, arg in zip(captured, block.args):
        value.replace_uses_with_if(arg, lambda use: use.operation in inside)
    terminator = stream.YieldOp(escaping, escaping_sizes)
    terminator.location = last.location
    block.add_op(terminator)


def _schedule_block(block: Block) -> None:
    partitions: list[_Partition] = []
    current: _Partition | None = None
    for op in list(block.ops):
        if isinstance(op, stream.AsyncDispatchOp):
            if current is not None and current.affinity != op.affinity:
                current = None
            if current is None:
                current = _Partition(op.affinity)
                partitions.append(current)
            current.add(op)
            continue
        if current is not None and any(operand in current.results for operand in _used_values(op)):
            current = None  # the host needs the region's results here
    for partition in partitions:
        _build_region(partition)


def _used_values(op: Operation) -> set[SSAValue]:
    """Values ``op`` and the ops nested in it use."""
    return {operand for inner in op.walk() for operand in inner.operands}


@dataclass(frozen=True)
class ScheduleExecutionPass(ModulePass):
    """Partitions each host block's dispatches into ``stream.async.execute`` regions awaited by timepoints."""

    name = "iree-stream-schedule-execution"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in functions(op, kinds=FUNCTION_LIKE):
            for inner in list(function.walk()):
                for region in inner.regions:
                    for block in region.blocks:
                        if inner is function or not isinstance(inner, stream.AsyncExecuteOp):
                            _schedule_block(block)
