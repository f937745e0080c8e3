"""``iree-dispatch-creation-remove-tensor-barriers``: compute barriers are dropped once dispatches are formed.

IREE 3.13 puts an ``iree_tensor_ext.compute_barrier.start`` on each function
input and a ``compute_barrier.end`` on each result
(``iree-dispatch-creation-insert-tensor-barriers``) so that dispatch formation
moves no computation across the program's boundary, then removes them before
the flow and stream passes. A barrier returns its operand unchanged, so
removing one forwards the operand to its users. IREE's dumps of the passes in
between (``09_HoistIntoGlobalsPass`` in ``reference/iree-3.13``) still carry
them; ``iree-stream-conversion`` applies the same pattern to read those.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mini_iree.compiler.analysis.tensor_barriers import RemoveTensorBarrierPattern
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker

__all__ = ["RemoveTensorBarriersPass"]


@dataclass(frozen=True)
class RemoveTensorBarriersPass(ModulePass):
    """Replaces every ``iree_tensor_ext.compute_barrier.start/end`` by its operand; nothing else changes."""

    name = "iree-dispatch-creation-remove-tensor-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        SelectivePatternRewriteWalker(
            RemoveTensorBarrierPattern(),
            apply_recursively=False,
        ).rewrite_module(op)
