"""Constants placed as MLIR's folder places them: uniqued, at the top of the function.

MLIR's `OperationFolder` moves each constant it meets to the front of the entry
block of the nearest isolated-from-above region and keeps one constant per
value. Canonicalization does it, and so do the passes whose IREE counterparts
finish with a greedy pattern run (the encode passes, materialize-device-encoding).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import Rewriter
from xdsl.traits import Commutative, ConstantLike, IsolatedFromAbove

from mini_iree.compiler.ir.locations import fused_location
from mini_iree.compiler.ir.queries import nested_ops, op_has_trait

__all__ = ["CommutativeConstantToRight", "hoist_and_unique_constants", "is_constant_int"]


def is_constant_int(value: SSAValue, expected: int) -> bool:
    """MLIR's ``matchPattern(value, m_ConstantInt(expected))``: an ``arith.constant`` integer or index."""
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, IntegerAttr)
        and owner.value.value.data == expected
    )


def _insertion_region(op: Operation) -> Region | None:
    """The region of the nearest isolated-from-above ancestor of ``op``."""
    region = op.parent_region()
    while region is not None:
        owner = region.parent_op()
        if owner is None or op_has_trait(owner, IsolatedFromAbove):
            return region
        region = owner.parent_region()
    return None


def _constant_key(op: Operation) -> tuple[str, tuple[tuple[str, Attribute], ...], tuple[Attribute, ...]]:
    properties = tuple(sorted(op.properties.items()))
    return op.name, properties, tuple(result.type for result in op.results)


def hoist_and_unique_constants(root: Operation) -> None:
    """Move each constant to the front of its insertion region's entry block; drop duplicates.

    The constant kept for duplicates takes the fused location of them all. (MLIR's
    folder gives merged and moved constants ``loc(unknown)`` instead, to bound the
    size of locations in very large programs; here provenance is worth more, and
    a fused location lists each site once.)
    """
    unique: dict[tuple[Region, object], Operation] = {}
    merged: dict[Operation, list[Operation]] = {}
    owned: set[Operation] = set()
    constants = [op for op in nested_ops(root) if op_has_trait(op, ConstantLike) and not op.attributes]
    for op in constants:
        region = _insertion_region(op)
        if region is None or not region.blocks:
            continue
        key = (region, _constant_key(op))
        existing = unique.get(key)
        if existing is not None:
            for result, kept in zip(op.results, existing.results):
                result.replace_all_uses_with(kept)
            merged.setdefault(existing, [existing]).append(op)
            Rewriter.erase_op(op)
            continue
        insert_block: Block = region.blocks[0]
        first = insert_block.first_op
        previous = op.prev_op
        if op.parent_block() is not insert_block or (first is not op and previous not in owned):
            op.detach()
            if insert_block.first_op is None:
                insert_block.add_op(op)
            else:
                insert_block.insert_op_before(op, insert_block.first_op)
        unique[key] = op
        owned.add(op)
    for kept, sources in merged.items():
        kept.location = fused_location(sources)


class CommutativeConstantToRight(RewritePattern):
    """MLIR's ``foldCommutative``: a commutative op with a constant left operand swaps its operands.

    The greedy driver of a pass that folds does this to every op it visits
    (``arith.muli %c4, %x`` prints as ``arith.muli %x, %c4``); xDSL's folder does not.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if len(op.operands) != 2 or not op_has_trait(op, Commutative, False):
            return
        lhs, rhs = op.operands

        def constant(value) -> bool:
            return isinstance(value, OpResult) and op_has_trait(value.op, ConstantLike, False)

        if constant(lhs) and not constant(rhs):
            op.operands = (rhs, lhs)
            rewriter.handle_operation_modification(op)
