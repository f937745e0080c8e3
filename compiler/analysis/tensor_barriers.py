"""Dropping compute barriers: the pattern both remove-tensor-barriers and stream conversion apply.

IREE 3.13 brackets each function's inputs and results with
``iree_tensor_ext.compute_barrier.start``/``end`` so that dispatch formation
moves no computation across the program's boundary, and removes them before
the flow and stream passes (``iree-dispatch-creation-remove-tensor-barriers``).
A barrier returns its operand unchanged, so removing one forwards the operand
to its users. IR dumped between the two still carries them, so
``iree-stream-conversion`` applies the same pattern first.
"""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mini_iree.dialects import iree_tensor_ext

__all__ = ["RemoveTensorBarrierPattern"]


class RemoveTensorBarrierPattern(RewritePattern):
    """``compute_barrier.start/end %x`` -> ``%x`` (IREE's ``RemoveTensorBarrierPattern``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_tensor_ext.ComputeBarrierOpBase, rewriter: PatternRewriter) -> None:
        # The operand keeps its own name (xDSL would hand it the barrier's, MLIR has none to hand).
        name = op.value.name_hint
        rewriter.replace(op, [], [op.value])
        op.value.name_hint = name
