"""``canonicalize``: xDSL's canonicalization, with constants placed as MLIR places them.

MLIR's canonicalizer uniques constants and moves them to the start of the entry
block of the nearest isolated-from-above region (the function, not a
``flow.dispatch.region`` inside it). IREE's dumps are printed after it, so
``%cst = arith.constant`` sits at the top of the function there (walkthrough
dump 06). xDSL's canonicalization folds and simplifies but leaves constants
where they are; this pass runs it and then places constants as MLIR's
``OperationFolder::insertKnownConstant`` does, visiting them in pre-order as
the top-down greedy driver does.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import ConstantLike, IsolatedFromAbove
from xdsl.transforms.canonicalize import CanonicalizePass as XDSLCanonicalizePass


def _insertion_region(op: Operation) -> Region | None:
    """The region of the nearest isolated-from-above ancestor of ``op``."""
    region = op.parent_region()
    while region is not None:
        owner = region.parent_op()
        if owner is None or owner.has_trait(IsolatedFromAbove):
            return region
        region = owner.parent_region()
    return None


def _constant_key(op: Operation) -> tuple[str, tuple[tuple[str, Attribute], ...], tuple[Attribute, ...]]:
    properties = tuple(sorted(op.properties.items()))
    return op.name, properties, tuple(result.type for result in op.results)


def hoist_and_unique_constants(root: Operation) -> None:
    """Move each constant to the front of its insertion region's entry block; drop duplicates."""
    unique: dict[tuple[Region, object], Operation] = {}
    owned: set[Operation] = set()
    constants = [op for op in root.walk() if op.has_trait(ConstantLike) and not op.attributes]
    for op in constants:
        region = _insertion_region(op)
        if region is None or not region.blocks:
            continue
        key = (region, _constant_key(op))
        existing = unique.get(key)
        if existing is not None:
            for result, kept in zip(op.results, existing.results):
                result.replace_all_uses_with(kept)
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


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Canonicalization patterns and folding, then MLIR's constant uniquing and placement."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        XDSLCanonicalizePass().apply(ctx, op)
        hoist_and_unique_constants(op)
