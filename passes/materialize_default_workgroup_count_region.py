"""``iree-dispatch-creation-materialize-default-workgroup-count-region``: give each dispatch a workgroup count.

IREE's MaterializeDefaultWorkgroupCountRegion.cpp. A ``flow.dispatch.workgroups``
without a ``count`` region gets the default one: every ``index`` operand becomes
part of the workload, in order; in the body each such operand's block argument
is read through ``iree_tensor_ext.dispatch.workload.ordinal %arg, N`` (N its
position in the workload), so that codegen can find which body values the
workload stands for; the ``count`` region returns
``iree_tensor_ext.dispatch.workgroup_count_from_slice`` of the workload.

A dispatch that already has a ``count`` region is kept as it is. IREE wraps
the count in ``dispatch.workgroup_count_split_reduction_modifier`` when the body
holds an ``scf.forall`` of split-reduction tiling; mini-iree has no such
tiling, and such a dispatch is left alone.

``iree-dispatch-creation-convert-dispatch-regions-to-workgroups`` already builds
this region for the dispatches it creates (as the walkthrough prints them); this
pass is for dispatches written by hand or built without one.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.analysis.workgroup_count import default_workgroup_count_region
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import flow, iree_tensor_ext, scf

__all__ = [
    "CreateDefaultWorkgroupCountRegion",
    "MaterializeDefaultWorkgroupCountRegionPass",
]


class CreateDefaultWorkgroupCountRegion(RewritePattern):
    """IREE's ``createDefaultWorkgroupCountRegion`` for one dispatch."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: flow.DispatchWorkgroupsOp, rewriter: PatternRewriter) -> None:
        if op.workgroup_count.blocks:
            return  # a count region of its own is kept
        body = op.workgroup_body.blocks.first
        if body is None:
            return
        if any(isinstance(o, scf.ForallOp) for o in body.ops):
            return  # split-reduction dispatches need IREE's modifier op
        indices = [i for i, a in enumerate(op.arguments) if isinstance(a.type, IndexType)]
        workload = [op.arguments[i] for i in indices]

        # The body's index arguments are read through their workload ordinals.
        first = body.first_op
        point = InsertPoint.at_end(body) if first is None else InsertPoint.before(first)
        for ordinal, index in enumerate(indices):
            arg = body.args[index]
            marker = iree_tensor_ext.DispatchWorkloadOrdinalOp(arg, ordinal)
            rewriter.insert(marker, point)
            for use in list(arg.uses):
                if use.operation is not marker:
                    use.operation.operands[use.index] = marker.result

        # The workload is an operand group of its own: the op is built again
        # around the same regions (new ops take its location, as IREE builds them).
        new_op = flow.DispatchWorkgroupsOp(
            workload,
            list(op.arguments),
            list(op.argument_dims),
            list(op.result_types),
            list(op.result_dims),
            [op.tied_operand_of(i) for i in range(len(op.results))],
            rewriter.move_region_contents_to_new_regions(op.workgroup_body),
            default_workgroup_count_region(len(workload)),
        )
        new_op.attributes |= op.attributes
        rewriter.replace(op, new_op)


@dataclass(frozen=True)
class MaterializeDefaultWorkgroupCountRegionPass(ModulePass):
    """Gives every ``flow.dispatch.workgroups`` without a ``count`` region the default one."""

    name = "iree-dispatch-creation-materialize-default-workgroup-count-region"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        SelectivePatternRewriteWalker(CreateDefaultWorkgroupCountRegion(), apply_recursively=False).rewrite_module(op)
