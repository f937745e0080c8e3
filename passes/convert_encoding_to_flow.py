"""``iree-dispatch-creation-convert-encoding-to-flow``: host-level encoding ops become `flow.tensor.encode`.

After fusion, a `set_encoding` / `unset_encoding` still outside every dispatch
region is a whole-tensor relayout the host must schedule. IREE gives it the
flow-level op `flow.tensor.encode`, which carries the dynamic sizes of its
operand and result and which the stream dialect later either folds away (when
the layouts agree) or turns into a dispatch of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.analysis.dispatch_regions import is_outside_dispatch
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import flow, iree_encoding

__all__ = ["ConvertEncodingToFlowPass", "ConvertSetEncodingOpToFlow", "ConvertUnsetEncodingOpToFlow"]


class ConvertSetEncodingOpToFlow(RewritePattern):
    """A `set_encoding` outside dispatches -> `flow.tensor.encode` with its source's sizes on both sides."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.SetEncodingOp, rewriter: PatternRewriter) -> None:
        if not is_outside_dispatch(op):
            return
        # The sizes come from the IR where they already exist
        # (`hal.tensor.import ... {%0, %1}`), else from `tensor.dim`.
        dims = get_dynamic_dims(op.source, InsertPoint.before(op))
        # `encoding_dims` have no counterpart on `flow.tensor.encode`; IREE drops them too.
        rewriter.replace(op, flow.TensorEncodeOp(op.source, op.result.type, dims, dims))


class ConvertUnsetEncodingOpToFlow(RewritePattern):
    """An `unset_encoding` outside dispatches -> `flow.tensor.encode` with the `unset_encoding`'s own
    `{...}` result sizes on both sides, as IREE writes it (an encoding keeps the logical shape).

    When the result type makes a dynamic size static (`tensor<?x3xf32, #e> ->
    tensor<6x3xf32>`), those sizes cannot describe the operand, for which IREE
    would build an invalid op; the operand's sizes are then read from the IR.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.UnsetEncodingOp, rewriter: PatternRewriter) -> None:
        if not is_outside_dispatch(op):
            return
        dims = list(op.result_dims)
        operand_dims = dims
        if op.source.type.get_shape() != op.result.type.get_shape():
            operand_dims = get_dynamic_dims(op.source, InsertPoint.before(op))
        rewriter.replace(op, flow.TensorEncodeOp(op.source, op.result.type, operand_dims, dims))


@dataclass(frozen=True)
class ConvertEncodingToFlowPass(ModulePass):
    """Rewrites every `set_encoding` / `unset_encoding` outside dispatch regions as `flow.tensor.encode`.

    Dynamic sizes are taken from values already in the IR (IREE's
    `findDynamicDims`), with `tensor.dim` as the fallback. Encoding ops inside a
    `flow.dispatch.region` are left untouched: they belong to that dispatch's
    code.
    """

    name = "iree-dispatch-creation-convert-encoding-to-flow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [ConvertSetEncodingOpToFlow(), ConvertUnsetEncodingOpToFlow()]
        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier(patterns, dce_enabled=False),
        ).rewrite_module(op)
