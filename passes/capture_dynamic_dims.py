"""``iree-flow-capture-dynamic-dims``: dispatch tensors learn their sizes inside the dispatch.

IREE's Flow/Transforms/CaptureDynamicDims.cpp. Inside a ``flow.dispatch.workgroups``
a dynamic ``!iree_tensor_ext.dispatch.tensor`` argument is only a binding: its
sizes are values outside. This pass gives each such argument (operands, then
untied results) a ``flow.dispatch.tie_shape`` at the top of the body, naming
the body arguments that carry its sizes; every other use of the argument goes
through the tie. A size the dispatch does not take yet becomes a new operand
and a new body argument (placed before the ``writeonly`` result arguments); a
size it already takes is reused, so nothing is captured twice::

    %0 = flow.dispatch.workgroups[%c1](%t, %d0) : (tensor<?x?xf32>{%d0, %d1}, index) -> ... =
        (%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %arg1: index, ...) {
      %1 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%arg1, %arg2}

where ``%arg2`` is the newly captured ``%d1``. Sizes come from the op that
produced the tensor when it states them (``hal.tensor.import``, dispatches and
``flow.tensor`` ops), else from the dispatch's own ``{...}`` operand sizes
(IREE's ``findDynamicDims``); a result's from the dispatch's result sizes.

The body's index arguments may already be read through
``iree_tensor_ext.dispatch.workload.ordinal`` (dispatches whose workgroup count
is materialized); the ``canonicalize`` IREE's pipeline runs next makes every
use of such an argument, the new ties included, go through its ordinal
(``BubbleUpOrdinalOp``, a canonicalization pattern of the ordinal op).

Before the dispatches, the pass threads the sizes of each dynamic ``scf.for``
iteration tensor through the loop (IREE's ``captureDims(scf::ForOp)``): the
sizes of its initial value and of the value the body yields become iteration
arguments of their own, and ``flow.tensor.tie_shape`` ties the body's argument
and the loop's result to them::

    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%t = %init, %d0 = %n, %d1 = %m) -> (...) {
      %tied = flow.tensor.tie_shape %t : tensor<?x?xf32>{%d0, %d1}
      ...
      scf.yield %next, %n, %m : tensor<?x?xf32>, index, index
    }
    %0 = flow.tensor.tie_shape %r#0 : tensor<?x?xf32>{%r#1, %r#2}

A loop whose tensor arguments are only used by ties already is left alone,
so running the pass twice changes nothing more. Sizes are found as IREE's
``findDynamicDims`` finds them at a point: up the chain of producers, through
ops whose result is an operand written in place (a linalg op's init, an
``insert_slice``'s destination), to an op that states its result's sizes; else
from a user that states the value's sizes with values visible at that point.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, ModuleOp, TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.ir.dynamic_dims import find_dynamic_dims
from mini_iree.dialects import flow, flow_tensor, iree_tensor_ext
from mini_iree.dialects.utils import count_dynamic

__all__ = ["CaptureDispatchDynamicDims", "CaptureDynamicDimsPass", "CaptureScfForDynamicDims"]


def _producer_dims(value: SSAValue) -> list[SSAValue] | None:
    """The sizes the producer of ``value`` states (IREE's upward ``findDynamicDims``), or None.

    Only ops that carry their results' sizes as operands count (IREE's
    ``ShapeAwareOpInterface``: imports, dispatches, ``flow.tensor.*``); a tensor
    made by any other op has its sizes found on a user instead.
    """
    from mini_iree.dialects import hal

    if not isinstance(value, OpResult):
        return None
    shape_aware = (hal.TensorImportOp, flow.DispatchWorkgroupsOp, flow.DispatchOp, flow.TensorEncodeOp)
    if not isinstance(value.op, shape_aware + flow_tensor.FLOW_TENSOR_OPS):
        return None
    return find_dynamic_dims(value)


def _user_dims(user: Operation, index: int) -> list[SSAValue] | None:
    """The sizes ``user`` states for its operand ``index`` (IREE's ``getOperandDynamicDims``), or None."""
    from mini_iree.dialects import hal

    operand = user.operands[index]
    if isinstance(user, flow_tensor.TensorTieShapeOp):
        return list(user.dynamic_dims) if operand is user.operand else None
    if isinstance(user, flow_tensor.TensorCloneOp | flow_tensor.TensorTransferOp | flow.TensorEncodeOp):
        return list(user.operand_dims) if operand is user.operand else None
    if isinstance(user, flow_tensor.ReshapeLikeOpBase | flow_tensor.TensorSliceOp | flow_tensor.TensorLoadOp):
        return list(user.source_dims) if operand is user.source else None
    if isinstance(user, hal.TensorExportOp):
        return list(user.source_dims) if operand is user.source else None
    if isinstance(user, flow_tensor.TensorStoreOp):
        return list(user.target_dims) if operand is user.target else None
    if isinstance(user, flow_tensor.TensorUpdateOp):
        if operand is user.target:
            return list(user.target_dims)
        return list(user.update_dims) if operand is user.update else None
    if isinstance(user, flow.DispatchWorkgroupsOp | flow.DispatchOp):
        arguments = list(user.arguments)
        return _operand_dims(user, arguments.index(operand)) if operand in arguments else None
    return None


def _tied_operand(value: OpResult) -> SSAValue | None:
    """The operand ``value`` is written in place into (IREE's ``TiedOpInterface`` on linalg ops and
    ``tensor.insert_slice``), or None."""
    op = value.op
    if op.name == "tensor.insert_slice":
        return op.operands[1]
    outputs = getattr(op, "outputs", None)
    if op.name.startswith(("linalg.", "iree_linalg_ext.")) and outputs is not None and value.index < len(outputs):
        return outputs[value.index]
    return None


def _usable(value: SSAValue, block: Block, before: Operation | None) -> bool:
    """Whether ``value`` may be used at ``before`` in ``block`` (None: the block's end): IREE's
    ``isValueUsableForOp`` on structured regions."""
    defining = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
    while block is not defining:
        parent = block.parent_op()
        outer = parent.parent_block() if parent is not None else None
        if outer is None:
            return False
        block, before = outer, parent
    if isinstance(value, BlockArgument) or before is None:
        return True
    return value.owner.is_before_in_block(before)  # type: ignore[union-attr]


def _find_dynamic_dims_at(value: SSAValue, block: Block, before: Operation | None) -> list[SSAValue] | None:
    """The dynamic sizes of ``value`` as values usable at ``before`` in ``block`` (IREE's
    ``findDynamicDims(value, block, insertionPoint)``), or None.

    Up the use-def chain first (always usable): through results written in place into an
    operand, to an op stating the sizes of its result. Then down: a user stating the sizes of
    ``value`` as its operand, when all of them are usable at that point.
    """
    work: SSAValue | None = value
    while isinstance(work, OpResult):
        dims = _producer_dims(work)
        if dims is not None:
            return dims
        work = _tied_operand(work)
    for use in value.uses:
        dims = _user_dims(use.operation, use.index)
        if dims is not None and all(_usable(d, block, before) for d in dims):
            return dims
    return None


def _value_location(value: SSAValue):
    """MLIR's ``Value::getLoc``: a result's op's location, a block argument's own."""
    return value.location if isinstance(value, BlockArgument) else value.owner.location  # type: ignore[union-attr]


def _operand_dims(op: flow.DispatchWorkgroupsOp | flow.DispatchOp, index: int) -> list[SSAValue]:
    """The ``{...}`` sizes of tensor operand ``index`` in the dispatch's own type list."""
    start = sum(count_dynamic(a.type) for a in op.arguments[:index])
    return list(op.argument_dims[start : start + count_dynamic(op.arguments[index].type)])


def _result_dims(op: flow.DispatchWorkgroupsOp, index: int) -> list[SSAValue]:
    start = sum(count_dynamic(t) for t in op.result_types[:index])
    return list(op.result_dims[start : start + count_dynamic(op.result_types[index])])


class CaptureDispatchDynamicDims(RewritePattern):
    """IREE's ``captureDims`` for one ``flow.dispatch.workgroups``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: flow.DispatchWorkgroupsOp, rewriter: PatternRewriter) -> None:
        entry = op.workgroup_body.blocks.first
        if entry is None:
            return
        untied = [i for i in range(len(op.results)) if op.tied_operand_of(i) == flow.UNTIED_INDEX]
        arguments = list(op.arguments)
        # Outer values to body arguments: a size already taken is not captured again.
        outer_to_inner: dict[SSAValue, SSAValue] = dict(zip(arguments, entry.args))
        result_args = dict(zip(untied, entry.args[len(arguments) :]))
        for i, arg in result_args.items():
            outer_to_inner[op.results[i]] = arg

        ties: list[Operation] = []

        def capture(dims: list[SSAValue] | None, inner: SSAValue) -> None:
            type_ = inner.type
            if not isinstance(type_, iree_tensor_ext.DispatchTensorTypeBase) or count_dynamic(type_) == 0:
                return
            if dims is None:
                return
            # New arguments go before the trailing writeonly (result) arguments.
            position = len(entry.args)
            for arg_type in reversed(entry.arg_types):
                if not isinstance(arg_type, iree_tensor_ext.DispatchTensorTypeBase):
                    break
                if arg_type.access.data != "writeonly":
                    break
                position -= 1
            captured: list[SSAValue] = []
            for dim in dims:
                if dim not in outer_to_inner:
                    outer_to_inner[dim] = entry.insert_arg(dim.type, position)
                    # IREE inserts it at the location of the value it captures.
                    outer_to_inner[dim].location = _value_location(dim)
                    position += 1
                    arguments.append(dim)
                captured.append(outer_to_inner[dim])
            tie = flow.DispatchTieShapeOp(inner, captured)
            # IREE builds it at the location of the argument it ties (the dispatch's, for
            # arguments made when the region became a dispatch; the source's, when written).
            tie.location = inner.location
            ties.append(tie)
            for use in list(inner.uses):
                if use.operation is not tie:
                    use.operation.operands[use.index] = tie.result

        for index, operand in enumerate(list(op.arguments)):
            dims = _producer_dims(operand)
            capture(dims if dims is not None else _operand_dims(op, index), outer_to_inner[operand])
        for i, arg in result_args.items():
            capture(_result_dims(op, i), arg)
        if not ties:
            return
        first = entry.first_op
        rewriter.insert(ties, InsertPoint.at_start(entry) if first is None else InsertPoint.before(first))

        if len(arguments) != len(op.arguments):
            # The operand list grows: the op is built again around the same regions.
            new_op = flow.DispatchWorkgroupsOp(
                list(op.workload),
                arguments,
                list(op.argument_dims),
                list(op.result_types),
                list(op.result_dims),
                [op.tied_operand_of(i) for i in range(len(op.results))],
                rewriter.move_region_contents_to_new_regions(op.workgroup_body),
                rewriter.move_region_contents_to_new_regions(op.workgroup_count),
            )
            new_op.attributes |= op.attributes
            new_op.location = op.location
            rewriter.replace(op, new_op)
            op = new_op
            entry = op.workgroup_body.blocks.first
            assert entry is not None


class CaptureScfForDynamicDims(RewritePattern):
    """IREE's ``captureDims(scf::ForOp)``: the sizes of dynamic iteration tensors become iteration
    arguments, tied to the tensors in the body and after the loop (see the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        body = op.body.block
        yield_op = body.last_op
        if not isinstance(yield_op, scf.YieldOp):
            return
        # (init, yielded, body argument, result) of each dynamic tensor not tied yet.
        tensors = []
        for init, yielded, arg, result in zip(op.iter_args, yield_op.operands, body.args[1:], op.results):
            if not isinstance(init.type, TensorType) or count_dynamic(init.type) == 0:
                continue
            if all(isinstance(use.operation, flow_tensor.TensorTieShapeOp) for use in arg.uses):
                continue  # tied already (or unused): the pass is idempotent
            tensors.append((init, yielded, arg, result))
        if not tensors:
            return
        block = op.parent_block()
        assert block is not None
        # Per tensor, its (initial size, yielded size) pairs: none when either is not found.
        sizes: list[list[tuple[SSAValue, SSAValue]]] = []
        for init, yielded, _, _ in tensors:
            init_dims = _find_dynamic_dims_at(init, block, op)
            yielded_dims = _find_dynamic_dims_at(yielded, body, yield_op) if init_dims is not None else None
            found = init_dims is not None and yielded_dims is not None and len(init_dims) == len(yielded_dims)
            sizes.append(list(zip(init_dims, yielded_dims)) if found else [])  # type: ignore[arg-type]
        pairs = [pair for tensor_sizes in sizes for pair in tensor_sizes]
        if not pairs:
            return

        # A new loop with the sizes as iteration arguments, around the old body.
        count = len(op.iter_args)
        new_op = scf.ForOp(
            op.lb, op.ub, op.step, [*op.iter_args, *(init for init, _ in pairs)],
            rewriter.move_region_contents_to_new_regions(op.body),
        )
        new_op.location = op.location
        body = new_op.body.block
        size_args = [body.insert_arg(IndexType(), len(body.args)) for _ in pairs]
        for arg in size_args:
            arg.location = op.location  # IREE adds them at the loop's location
        new_yield = scf.YieldOp(*yield_op.operands, *(yielded for _, yielded in pairs))
        new_yield.location = yield_op.location
        rewriter.replace(yield_op, new_yield)
        rewriter.insert_op(new_op, InsertPoint.before(op))

        # Ties of the body's arguments to their size arguments, at the top of the body, and of
        # the loop's results to their size results, after it; IREE builds both at the loop's location.
        inner: list[Operation] = []
        outer: list[Operation] = []
        results = list(new_op.results[:count])
        first = 0
        for (_, _, arg, result), tensor_sizes in zip(tensors, sizes):
            these = range(first, first + len(tensor_sizes))
            first += len(tensor_sizes)
            if not tensor_sizes:
                continue
            tie = flow_tensor.TensorTieShapeOp(arg, [size_args[i] for i in these])
            tie.location = op.location
            inner.append(tie)
            for use in list(arg.uses):
                if use.operation is not tie:
                    use.operation.operands[use.index] = tie.result
            after = flow_tensor.TensorTieShapeOp(new_op.results[result.index], [new_op.results[count + i] for i in these])
            after.location = op.location
            outer.append(after)
            results[result.index] = after.result
        start = body.first_op
        rewriter.insert_op(inner, InsertPoint.at_start(body) if start is None else InsertPoint.before(start))
        rewriter.insert_op(outer, InsertPoint.before(op))
        rewriter.replace(op, [], results)


@dataclass(frozen=True)
class CaptureDynamicDimsPass(ModulePass):
    """Ties every dynamic dispatch tensor of a ``flow.dispatch.workgroups`` body to its captured sizes."""

    name = "iree-flow-capture-dynamic-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Loops first, then dispatches, each visited once, as IREE's two walks: post-order, so an
        # inner loop is visited before the loop around it has tied anything.
        loops = CaptureScfForDynamicDims()
        for loop in [o for o in op.walk(region_first=True) if isinstance(o, scf.ForOp)]:
            loops.match_and_rewrite(loop, PatternRewriter(loop))
        # Capturing a dispatch again would tie again.
        pattern = CaptureDispatchDynamicDims()
        for dispatch in [o for o in op.walk() if isinstance(o, flow.DispatchWorkgroupsOp)]:
            pattern.match_and_rewrite(dispatch, PatternRewriter(dispatch))
