"""Rebuilding an encoding's ``encoding_dims`` where an encoding op moves to.

IREE's ``rematerializeEncodingDims`` (Dialect/Encoding/Utils). When propagation
moves a ``set_encoding`` above the op producing its source (a ``tensor.cast``),
its ``encoding_dims`` may be computed after that op, often as ``tensor.dim`` of
the very value the encoding moved past. They are rebuilt before the new
position: a value already visible there is used as is; a ``tensor.dim`` of the
value propagated through becomes a ``tensor.dim`` of the new source; any other
pure op is cloned, its operands rebuilt first. If one dim cannot be rebuilt
(a block argument or an impure op defined later), nothing is created.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.ir.queries import side_effect_free
from mini_iree.dialects import tensor

__all__ = ["properly_dominates", "rematerialize_encoding_dims"]


def properly_dominates(value: SSAValue, op: Operation) -> bool:
    """True if ``value`` is defined before ``op`` (and outside it), where ``op`` can see it."""
    owner = value.owner
    block = owner if not isinstance(owner, Operation) else owner.parent_block()
    if block is None:
        return False
    ancestor = block.find_ancestor_op_in_block(op)
    if ancestor is None:
        return False
    if isinstance(value, BlockArgument):
        return True
    assert isinstance(owner, Operation)
    return owner is not ancestor and owner.is_before_in_block(ancestor)


def rematerialize_encoding_dims(
    dims: Sequence[SSAValue],
    before: Operation,
    propagated: SSAValue,
    new_source: SSAValue,
) -> list[SSAValue] | None:
    """``dims`` as values visible before ``before``, built there; None (and no new op) if impossible."""
    plan: list[SSAValue] = []  # values to rebuild, operands first
    planned: set[SSAValue] = set()

    def analyze(value: SSAValue) -> bool:
        if value in planned or properly_dominates(value, before):
            return True
        if not isinstance(value, OpResult):
            return False  # a block argument defined later cannot move
        op = value.op
        is_dim_of_source = isinstance(op, tensor.DimOp) and op.source == propagated
        if not is_dim_of_source:
            if op.regions or not side_effect_free(op):
                return False
            if not all(analyze(operand) for operand in op.operands):
                return False
        elif not analyze(op.index):
            return False
        planned.add(value)
        plan.append(value)
        return True

    if not all(analyze(d) for d in dims):
        return None

    rebuilt: dict[SSAValue, SSAValue] = {}
    point = InsertPoint.before(before)
    for value in plan:
        op = value.op  # type: ignore[union-attr]
        if isinstance(op, tensor.DimOp) and op.source == propagated:
            new_op: Operation = tensor.DimOp(new_source, rebuilt.get(op.index, op.index))
        else:
            new_op = op.clone()
            for index, operand in enumerate(op.operands):
                if operand in rebuilt:
                    new_op.operands[index] = rebuilt[operand]
        new_op.location = op.location
        Rewriter.insert_op(new_op, point)
        for old, new in zip(op.results, new_op.results):
            rebuilt[old] = new
    return [rebuilt.get(d, d) for d in dims]
