"""``iree-stream-materialize-copy-on-write``: clone resources a dispatch would update in place but does not own.

A ``stream.async.dispatch`` result tied to an operand (``-> %arg0{%size}``)
updates that operand's storage in place once work is scheduled and
allocated. That is only correct when nothing else can see the operand: IREE
inserts ``stream.async.clone`` before the dispatch otherwise, and a later
pass elides the clones that turn out unneeded. mini-iree inserts the clone
unless the operand is a result of another ``stream.async.dispatch`` of the
same block whose only user is this dispatch (the case IREE's elision keeps
clone-free); an imported buffer, a function argument, a transfer or cast of
one, or a value used again later are cloned:

    %3 = stream.async.transfer %2 : !stream.resource<external>{%1} -> ... !stream.resource<*>{%1}
    %4 = stream.async.clone on(#hal.device.affinity<@__device_0>) %3 : !stream.resource<*>{%1} -> !stream.resource<*>{%1}
    %5 = stream.async.dispatch ... (%4[%c0 to %1 for %1], ...) : (!stream.resource<*>{%1}, ...) -> %4{%1}

Results are unchanged (the interpreter's async dispatch already works on a
copy of a tied operand); after ``iree-stream-schedule-allocation`` the
dispatch writes into the clone's allocation instead of the caller's buffer.

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/MaterializeCopyOnWrite.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.dispatch_sites import tied_operand_indices
from mini_iree.dialects import stream
from mini_iree.dialects.flow import UNTIED_INDEX
from mini_iree.compiler.analysis.dispatch_sites import resource_size_at_use

__all__ = ["MaterializeCopyOnWritePass"]


def _owned(value: SSAValue, user: stream.AsyncDispatchOp) -> bool:
    """The dispatch may update ``value`` in place: a fresh dispatch result only it uses."""
    return (
        isinstance(value, OpResult)
        and isinstance(value.op, stream.AsyncDispatchOp)
        and value.op.parent is user.parent
        and all(use.operation is user for use in value.uses)
        and sum(1 for v in user.resource_operands if v == value) == 1
    )


def _materialize(op: stream.AsyncDispatchOp) -> None:
    tied = {t for t in tied_operand_indices(op) if t != UNTIED_INDEX}
    for index in sorted(tied):
        value = op.resource_operands[index]
        if _owned(value, op):
            continue
        size = resource_size_at_use(op, value)
        clone = stream.AsyncCloneOp(value, size, value.type, size, op.affinity)
        clone.location = op.location
        Rewriter.insert_op(clone, InsertPoint.before(op))
        # Resource operands follow the workload among the op's operands.
        operands = list(op.operands)
        operands[len(op.workload) + index] = clone.result
        op.operands = operands


@dataclass(frozen=True)
class MaterializeCopyOnWritePass(ModulePass):
    """Clones the tied operands of dispatches that do not own them."""

    name = "iree-stream-materialize-copy-on-write"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dispatch in [o for o in op.walk() if isinstance(o, stream.AsyncDispatchOp)]:
            if not isinstance(dispatch.parent_op(), stream.ExecutableOp):
                _materialize(dispatch)
