"""``iree-dispatch-creation-convert-tensor-to-flow``: host-level tensor reshapes become `flow.tensor.reshape`.

After dispatch regions are formed, what is left between them runs on the host,
and the host knows only flow's tensor ops. Collapse-dimensions leaves
`tensor.collapse_shape` before a dispatch that reads a collapsed tensor and
`tensor.expand_shape` after one that returns it; here they become
`flow.tensor.reshape`, which carries the dynamic sizes of both sides
(``tensor<?x?xf32>{%0, %1} -> tensor<?xf32>{%6}``). A reshape keeps the
row-major order of the elements, so on the device it is no copy at all: stream
conversion turns it into a `stream.tensor.clone` that canonicalization elides.

As IREE's ConvertTensorReshapePattern, the result sizes are the reshape's own
(an `expand_shape`'s `output_shape`; for a `collapse_shape`, the product of
each group's source sizes), the source sizes those already in the IR
(``findDynamicDims``) or `tensor.dim`. Reshapes inside dispatches belong to the
dispatch's code and stay. IREE's pass also turns host-level slices, inserts,
fills, casts and concatenations into flow ops; mini-iree's pipeline leaves none
of those between dispatches, and this pass leaves them alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.analysis.reshape_sizes import collapsed_dynamic_sizes
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import flow, flow_tensor, tensor

__all__ = ["ConvertTensorReshapePattern", "ConvertTensorToFlowPass"]


def _on_host(op: Operation) -> bool:
    """Not in a dispatch region, a dispatch's workgroups body or an executable: host code."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, flow.DispatchRegionOp | flow.DispatchWorkgroupsOp | flow.ExecutableOp):
            return False
        parent = parent.parent_op()
    return True


class ConvertTensorReshapePattern(RewritePattern):
    """A `tensor.collapse_shape` / `expand_shape` outside dispatches -> `flow.tensor.reshape`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.CollapseShapeOp | tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        if not _on_host(op):
            return
        point = InsertPoint.before(op)
        source_dims = get_dynamic_dims(op.src, point)
        if isinstance(op, tensor.ExpandShapeOp):
            result_dims: list[SSAValue] = list(op.output_shape)
        else:
            result_dims = collapsed_dynamic_sizes(
                op.src.type.get_shape(), source_dims, op.get_reassociation_indices(), point, op.location
            )
        reshape = flow_tensor.TensorReshapeOp(op.src, op.result.type, source_dims, result_dims)
        reshape.location = op.location
        rewriter.replace(op, reshape)


@dataclass(frozen=True)
class ConvertTensorToFlowPass(ModulePass):
    """Rewrites tensor reshapes between dispatches as `flow.tensor.reshape` (IREE's ConvertTensorToFlowPass)."""

    name = "iree-dispatch-creation-convert-tensor-to-flow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier([ConvertTensorReshapePattern()], dce_enabled=False),
        ).rewrite_module(op)
