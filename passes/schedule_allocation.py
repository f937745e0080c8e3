"""``iree-stream-schedule-allocation``: allocate the resources of execution regions and record commands.

Each ``stream.async.execute`` becomes a ``stream.cmd.execute`` whose commands
work on byte ranges of allocated resources:

* a resource the region yields gets its own allocation
  (``stream.resource.alloca uninitialized``), which the program uses after the
  region in place of the yielded value;
* resources produced and consumed inside the region (the encode dispatches'
  packed operands in the walkthrough) are slices of one transient allocation,
  laid out by ``stream.resource.pack`` from each slice's size and lifetime (the
  first and last op index using it) and freed after the region
  (``stream.resource.dealloca``);
* each ``stream.async.dispatch`` becomes a ``stream.cmd.dispatch`` binding its
  operands ``ro`` (``rw`` when a result is tied to them) and its results ``wo``
  at their allocation's offset:

      %21:3 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
        [0, 2] = %17,
        [1, 2] = %24
      }) : index
      %result, %result_timepoint = stream.resource.alloca uninitialized ... : !stream.resource<transient>{%21#0} => !stream.timepoint
      %23 = stream.cmd.execute on(...) await(%22) => with(%5 as %arg2: !stream.resource<*>{%3}, ...) {
        stream.cmd.dispatch @_encoding_0::@...[%0, %1, %0, %1](%0, %1, %0, %1 : index, index, index, index) {
          ro %arg2[%c0 for %3] : !stream.resource<*>{%3},
          wo %arg5[%21#1 for %17] : !stream.resource<transient>{%21#0}
        }
        ...
      } => !stream.timepoint

Allocations keep the lifetime the region's results have (``*`` until a
refine-usage step decides; the commands and their bindings do not depend on
it), transients are ``transient``. Refused with an error: regions holding ops
other than ``stream.async.dispatch``. Left alone: everything outside regions.

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/ScheduleAllocation.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.ir.constants import is_constant_int
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.dialects import stream
from mini_iree.dialects.flow import UNTIED_INDEX
from mini_iree.compiler.analysis.value_locations import value_location

__all__ = ["ScheduleAllocationPass"]


@dataclass(frozen=True)
class _Range:
    """Where a resource value of the region lives: a captured resource, a byte offset, a length."""

    resource: SSAValue  # the cmd.execute block argument
    resource_size: SSAValue
    offset: SSAValue
    length: SSAValue


class _Builder:
    """Inserts host ops before the region, memoizing the zero offset."""

    def __init__(self, anchor: Operation):
        self.point = InsertPoint.before(anchor)
        self.location = anchor.location
        self.zero: SSAValue | None = None

    def insert(self, op: Operation) -> Operation:
        op.location = self.location
        Rewriter.insert_op(op, self.point)
        return op

    def get_zero(self) -> SSAValue:
        if self.zero is None:
            self.zero = self.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).results[0]
        return self.zero

    def add(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """``createOrFold<arith::AddIOp>``: a zero operand folds away."""
        if is_constant_int(lhs, 0):
            return rhs
        if is_constant_int(rhs, 0):
            return lhs
        return self.insert(arith.AddiOp(lhs, rhs)).results[0]


_LIFETIMES = list(stream.Lifetime)


def _lifetime_order(resource_type: Attribute) -> int:
    """IREE buckets result allocations by lifetime, in the order of its lifetime enum."""
    if not isinstance(resource_type, stream.ResourceType):
        return len(_LIFETIMES)
    return _LIFETIMES.index(resource_type.lifetime_kind)


@dataclass(frozen=True)
class _Suballocations:
    resources: list[SSAValue]
    timepoint: SSAValue


def _suballocate(
    builder: _Builder, resource_type: Attribute, sizes: list[SSAValue], affinity: Attribute | None
) -> _Suballocations:
    """IREE's ``ResourceAllocaOp::createSuballocations``: one ``stream.resource.alloca`` for one size;
    for several, a ``stream.resource.pack`` of slices all live at once (``[0, 0]``), one allocation of
    its total length and a ``stream.resource.subview`` of it per size."""
    if len(sizes) == 1:
        alloca = builder.insert(stream.ResourceAllocaOp(resource_type, sizes[0], affinity))
        assert isinstance(alloca, stream.ResourceAllocaOp)
        return _Suballocations([alloca.result], alloca.result_timepoint)
    pack = builder.insert(stream.ResourcePackOp([(0, 0)] * len(sizes), sizes, affinity))
    assert isinstance(pack, stream.ResourcePackOp)
    alloca = builder.insert(stream.ResourceAllocaOp(resource_type, pack.total_length, affinity))
    assert isinstance(alloca, stream.ResourceAllocaOp)
    subviews = [
        builder.insert(stream.ResourceSubviewOp(alloca.result, pack.total_length, offset, size)).results[0]
        for offset, size in zip(pack.packed_offsets, sizes)
    ]
    return _Suballocations(subviews, alloca.result_timepoint)


def _allocate(execute: stream.AsyncExecuteOp) -> None:
    body = execute.body.block
    dispatches = [op for op in body.ops if not isinstance(op, stream.YieldOp)]
    for op in dispatches:
        if not isinstance(op, stream.AsyncDispatchOp):
            raise OpError(op, "cannot be scheduled: iree-stream-schedule-allocation handles stream.async.dispatch only")
    terminator = body.last_op
    assert isinstance(terminator, stream.YieldOp)
    yielded = list(terminator.resource_operands)
    builder = _Builder(execute)
    affinity = execute.affinity

    # Captured resources keep their block arguments; their ranges are whole.
    captures: list[SSAValue] = list(execute.resource_operands)
    capture_sizes: list[SSAValue] = list(execute.resource_operand_sizes)
    new_block = Block(arg_types=[v.type for v in captures])
    for value, arg in zip(captures, new_block.args):
        arg.location = value_location(value, execute.location)
    ranges: dict[SSAValue, _Range] = {}
    for old_arg, new_arg, size in zip(body.args, new_block.args, capture_sizes):
        ranges[old_arg] = _Range(new_arg, size, builder.get_zero(), size)

    # Yielded results: one allocation per lifetime, each result a subview of it
    # (IREE's reserveResultAllocations and createSuballocations); a value yielded
    # twice is allocated once.
    timepoints: list[SSAValue] = []
    result_allocations: dict[SSAValue, SSAValue] = {}
    tied_results = {r for op in dispatches for r, t in zip(op.results, _tied(op)) if t != UNTIED_INDEX}  # type: ignore[arg-type]
    reservations: dict[Attribute, list[tuple[SSAValue, SSAValue]]] = {}
    reserved: set[SSAValue] = set()
    for value, size in zip(yielded, terminator.resource_operand_sizes):
        if value in ranges or value in tied_results or value in reserved:
            continue
        reserved.add(value)
        reservations.setdefault(value.type, []).append((value, size))
    for resource_type in sorted(reservations, key=_lifetime_order):
        reserved = reservations[resource_type]
        suballocations = _suballocate(builder, resource_type, [size for _, size in reserved], affinity)
        timepoints.append(suballocations.timepoint)
        for (value, size), resource in zip(reserved, suballocations.resources):
            result_allocations[value] = resource
            captures.append(resource)
            capture_sizes.append(size)
            arg = new_block.insert_arg(value.type, len(new_block.args))
            arg.location = execute.location
            ranges[value] = _Range(arg, size, builder.get_zero(), size)

    # Transient results: slices of one packed allocation, live from their producer to their last user.
    order = {op: index for index, op in enumerate(dispatches)}
    transients: list[tuple[SSAValue, SSAValue, tuple[int, int]]] = []
    for op in dispatches:
        tied = _tied(op)
        for result, size, tied_to in zip(op.results, op.result_sizes, tied):
            if tied_to != UNTIED_INDEX or result in ranges:
                continue
            end = max((order[u.operation] for u in result.uses if u.operation in order), default=order[op])
            transients.append((result, size, (order[op], end)))
    transient_resource: SSAValue | None = None
    transient_size: SSAValue | None = None
    if transients:
        pack = builder.insert(stream.ResourcePackOp([t[2] for t in transients], [t[1] for t in transients], affinity))
        assert isinstance(pack, stream.ResourcePackOp)
        transient_type = stream.ResourceType(stream.Lifetime.TRANSIENT)
        alloca = builder.insert(stream.ResourceAllocaOp(transient_type, pack.total_length, affinity))
        assert isinstance(alloca, stream.ResourceAllocaOp)
        transient_resource, transient_size = alloca.result, pack.total_length
        timepoints.append(alloca.result_timepoint)
        captures.append(alloca.result)
        capture_sizes.append(pack.total_length)
        arg = new_block.insert_arg(transient_type, len(new_block.args))
        arg.location = alloca.location
        for (result, size, _), offset in zip(transients, pack.packed_offsets):
            ranges[result] = _Range(arg, pack.total_length, offset, size)

    # The region waits for its allocations (and whatever the async region awaited).
    if execute.await_timepoint is not None:
        timepoints.insert(0, execute.await_timepoint)
    await_timepoint: SSAValue | None = None
    if len(timepoints) == 1:
        await_timepoint = timepoints[0]
    elif timepoints:
        await_timepoint = builder.insert(stream.TimepointJoinOp(timepoints)).results[0]

    for op in dispatches:
        assert isinstance(op, stream.AsyncDispatchOp)
        new_block.add_op(_command(op, ranges, builder))
    terminator_op = stream.YieldOp()
    terminator_op.location = execute.location
    new_block.add_op(terminator_op)
    cmd = stream.CmdExecuteOp(captures, capture_sizes, Region(new_block), affinity, await_timepoint)
    cmd.location = execute.location
    Rewriter.insert_op(cmd, InsertPoint.before(execute))
    done = cmd.result_timepoint
    if transient_resource is not None:
        assert transient_size is not None
        dealloca = stream.ResourceDeallocaOp(transient_resource, transient_size, affinity, done)
        dealloca.location = execute.location
        Rewriter.insert_op(dealloca, InsertPoint.after(cmd))
        join = stream.TimepointJoinOp([dealloca.result_timepoint, done])
        join.location = execute.location
        Rewriter.insert_op(join, InsertPoint.after(dealloca))
        done = join.result_timepoint
    # After the region, the yielded values are their allocations (or the captured resources yielded as is).
    for index, value in enumerate(yielded):
        replacement = result_allocations.get(value)
        if replacement is None:
            # A captured resource, or a result updated in place in one: the whole captured resource.
            where = ranges.get(value)
            if where is None:
                raise OpError(execute, "yields a resource it does not capture or produce")
            if not is_constant_int(where.offset, 0) or where.length != where.resource_size:
                raise OpError(execute, "yields a resource updated in place in a part of another; not supported")
            replacement = captures[list(new_block.args).index(where.resource)]
        execute.res[index].replace_all_uses_with(replacement)
        replacement.name_hint = None  # xDSL hands the old name on; the allocation names its own result
    execute.result_timepoint.replace_all_uses_with(done)
    done.name_hint = None
    for op in [*dispatches, terminator]:
        op.detach()
        op.erase(safe_erase=False)
    Rewriter.erase_op(execute)


def _tied(op: stream.AsyncDispatchOp) -> list[int]:
    tied = [t.value.data for t in op.tied_operands.data] if op.tied_operands is not None else []
    return tied + [UNTIED_INDEX] * (len(op.results) - len(tied))


def _command(op: stream.AsyncDispatchOp, ranges: dict[SSAValue, _Range], builder: _Builder) -> stream.CmdDispatchOp:
    """The ``stream.cmd.dispatch`` of an async dispatch: operands ``ro``/``rw``, untied results ``wo``."""
    tied = _tied(op)
    tied_operands = {t for t in tied if t != UNTIED_INDEX}
    uniform: list[SSAValue] = []
    resources: list[SSAValue] = []
    sizes: list[SSAValue] = []
    offsets: list[SSAValue] = []
    lengths: list[SSAValue] = []
    accesses: list[str] = []
    range_operands = iter(zip(op.resource_operand_offsets, op.resource_operand_lengths))
    for index, value in enumerate(op.resource_operands):
        if not isinstance(value.type, stream.ResourceType):
            uniform.append(value)
            continue
        offset, length = next(range_operands)
        if (where := ranges.get(value)) is None:
            raise OpError(op, "uses a resource its stream.async.execute does not capture")
        resources.append(where.resource)
        sizes.append(where.resource_size)
        offsets.append(builder.add(where.offset, offset))
        lengths.append(length)
        accesses.append("rw" if index in tied_operands else "ro")
    for result, tied_to in zip(op.results, tied):
        if tied_to != UNTIED_INDEX:
            # In place: the result is the tied operand's range.
            ranges[result] = ranges[op.resource_operands[tied_to]]
            continue
        where = ranges[result]
        resources.append(where.resource)
        sizes.append(where.resource_size)
        offsets.append(where.offset)
        lengths.append(where.length)
        accesses.append("wo")
    cmd = stream.CmdDispatchOp(
        list(op.entry_points.data), op.workload, uniform, resources, sizes, offsets, lengths, accesses
    )
    cmd.attributes |= op.attributes
    cmd.location = op.location
    return cmd


@dataclass(frozen=True)
class ScheduleAllocationPass(ModulePass):
    """Turns ``stream.async.execute`` regions into ``stream.cmd.execute`` on allocated resources."""

    name = "iree-stream-schedule-allocation"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for execute in [o for o in op.walk() if isinstance(o, stream.AsyncExecuteOp)]:
            _allocate(execute)
