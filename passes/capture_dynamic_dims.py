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

IREE's pass also threads the sizes of dynamic ``scf.for`` iteration tensors
through the loop with ``flow.tensor.tie_shape``; mini-iree has no
``flow.tensor.tie_shape`` and leaves loops alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.ir.dynamic_dims import find_dynamic_dims
from mini_iree.dialects import flow, iree_tensor_ext
from mini_iree.dialects.utils import count_dynamic

__all__ = ["CaptureDispatchDynamicDims", "CaptureDynamicDimsPass"]


def _producer_dims(value: SSAValue) -> list[SSAValue] | None:
    """The sizes the producer of ``value`` states (IREE's upward ``findDynamicDims``), or None.

    Only ops that carry their results' sizes as operands count (IREE's
    ``ShapeAwareOpInterface``); a tensor made by any other op has its sizes
    found on the dispatch instead.
    """
    from mini_iree.dialects import flow_tensor, hal

    if not isinstance(value, OpResult):
        return None
    if not isinstance(
        value.op, hal.TensorImportOp | flow.DispatchWorkgroupsOp | flow.DispatchOp | flow.TensorEncodeOp
    ) and not isinstance(value.op, flow_tensor.ReshapeLikeOpBase):
        return None
    return find_dynamic_dims(value)


def _operand_dims(op: flow.DispatchWorkgroupsOp, index: int) -> list[SSAValue]:
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
                    position += 1
                    arguments.append(dim)
                captured.append(outer_to_inner[dim])
            tie = flow.DispatchTieShapeOp(inner, captured)
            # IREE builds it at the argument's location, the dispatch's.
            tie.location = op.location
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



@dataclass(frozen=True)
class CaptureDynamicDimsPass(ModulePass):
    """Ties every dynamic dispatch tensor of a ``flow.dispatch.workgroups`` body to its captured sizes."""

    name = "iree-flow-capture-dynamic-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # One visit per dispatch, as IREE's walk: capturing again would tie again.
        pattern = CaptureDispatchDynamicDims()
        for dispatch in [o for o in op.walk() if isinstance(o, flow.DispatchWorkgroupsOp)]:
            pattern.match_and_rewrite(dispatch, PatternRewriter(dispatch))
