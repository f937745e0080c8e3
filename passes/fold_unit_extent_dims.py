"""``iree-dispatch-creation-fold-unit-extent-dims``: drop the unit-extent loops of linalg ops.

IREE runs MLIR's ``populateFoldUnitExtentDimsPatterns`` (the reassociative
reshape strategy) under its own control, before dispatch regions are formed.
A loop of a ``linalg.generic`` whose static range is 1 is removed: each operand
dimension that loop reads (a size-1 dimension read with that loop, or with the
constant 0) is merged into a neighbouring dimension with ``tensor.collapse_shape``,
the generic runs on the smaller operands with the loop gone from its maps, and
each result is expanded back with ``tensor.expand_shape``.

IREE's control leaves ops already inside a dispatch alone, and (IREE 3.13) ops
on a tensor whose encoding cannot be collapsed: only encodings implementing
``getCollapsedEncoding`` can, and of those ``#iree_encoding.packed_storage``
collapses to itself; the reshapes and the smaller generic keep it. Earlier
IREE had no such hook, and mini-iree then leaves every encoded op alone.
Handled here: generics whose maps read every dimension with a
loop or a constant, and whose results have static shapes (the
``tensor.expand_shape`` then needs no sizes); a ``linalg.index`` of a dropped
loop becomes the constant 0. Any other op is left as it is. Of IREE's
clean-up patterns, only the one turning a collapsed ``tensor.empty`` into a
smaller one is applied (as the rewrite builds the operands); the others (folding
reshape pairs between ops, arithmetic on the constant index) are not run, and
IREE's first step, dropping the unit dims of private tensor globals (with an
uninitialized or parameter initial value) and reshaping at their loads and
stores, is not done: globals keep their types.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from mini_iree.compiler.analysis.dispatch_regions import is_outside_dispatch
from mini_iree.compiler.era import run_era
from mini_iree.dialects import iree_encoding, linalg, tensor

__all__ = ["DropUnitDims", "FoldUnitExtentDimsPass"]


def _static_loop_ranges(op: linalg.GenericOp, maps: Sequence[AffineMap]) -> list[int | None]:
    """Each loop's static range, read off the first operand dimension indexing it (None: dynamic)."""
    ranges: list[int | None] = [None] * maps[0].num_dims
    found = [False] * maps[0].num_dims
    for value, operand_map in zip([*op.inputs, *op.outputs], maps):
        shape = value.type.get_shape()  # type: ignore[attr-defined]
        for axis, expr in enumerate(operand_map.results):
            if isinstance(expr, AffineDimExpr) and not found[expr.position]:
                found[expr.position] = True
                ranges[expr.position] = None if shape[axis] < 0 else shape[axis]
    return ranges


def _collapsed_encoding(encoding: Attribute) -> Attribute | None:
    """The encoding of a collapsed (or expanded) tensor, None if it cannot be reshaped (IREE's
    ``getCollapsedEncoding`` hook: ``packed_storage`` stays as it is, other encodings do not collapse)."""
    if isinstance(encoding, NoneAttr):
        return encoding
    if isinstance(encoding, iree_encoding.PackedStorageAttr) and run_era().name == "3.13":
        return encoding
    return None


def _supported(op: linalg.GenericOp) -> list[AffineMap] | None:
    """The op's maps if the rewrite handles it, else None."""
    if not is_outside_dispatch(op):
        return None  # IREE's control: ops already in a dispatch keep their dims
    operands = [*op.inputs, *op.outputs]
    if not all(isinstance(v.type, TensorType) and _collapsed_encoding(v.type.encoding) is not None for v in operands):
        return None
    if not all(isinstance(r, TensorType) and all(d >= 0 for d in r.get_shape()) for r in op.result_types):
        return None
    maps = [m.data for m in op.indexing_maps.data]
    for operand_map in maps:
        if not all(isinstance(e, (AffineDimExpr, AffineConstantExpr)) for e in operand_map.results):
            return None
    return maps


def _operand_metadata(
    value: SSAValue, operand_map: AffineMap, unit_loops: set[int], new_position: dict[int, int]
) -> tuple[AffineMap, list[int], list[list[int]]]:
    """MLIR's ``dropUnitExtentFromOperandMetadata``: the new map, shape and reassociation of one operand.

    A dimension goes if it has size 1 and is read by a dropped loop or by the
    constant 0. Leading dropped dimensions join the first kept one, the others
    the kept dimension before them; with none kept, the operand becomes 0-d.
    """
    shape = value.type.get_shape()  # type: ignore[attr-defined]
    exprs = operand_map.results

    def is_unit(axis: int) -> bool:
        expr = exprs[axis]
        if shape[axis] != 1:
            return False
        if isinstance(expr, AffineDimExpr):
            return expr.position in unit_loops
        return isinstance(expr, AffineConstantExpr) and expr.value == 0

    def renamed(expr: AffineExpr) -> AffineExpr:
        if isinstance(expr, AffineDimExpr):
            return AffineExpr.dimension(new_position[expr.position])
        return expr

    new_exprs: list[AffineExpr] = []
    target: list[int] = []
    groups: list[list[int]] = []
    group: list[int] = []
    axis = 0
    while axis < len(shape) and is_unit(axis):
        group.append(axis)
        axis += 1
    while axis < len(shape):
        group.append(axis)
        new_exprs.append(renamed(exprs[axis]))
        target.append(shape[axis])
        axis += 1
        while axis < len(shape) and is_unit(axis):
            group.append(axis)
            axis += 1
        groups.append(group)
        group = []
    new_map = AffineMap(len(new_position), 0, tuple(new_exprs))
    return new_map, target, groups


class DropUnitDims(RewritePattern):
    """MLIR's ``DropUnitDims`` on ``linalg.generic``, with reassociative reshapes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        maps = _supported(op)
        if maps is None:
            return
        ranges = _static_loop_ranges(op, maps)
        unit_loops = {loop for loop, size in enumerate(ranges) if size == 1}
        if not unit_loops:
            return
        kept = [loop for loop in range(len(ranges)) if loop not in unit_loops]
        new_position = {loop: index for index, loop in enumerate(kept)}

        operands = [*op.inputs, *op.outputs]
        new_operands: list[SSAValue] = []
        new_maps: list[AffineMap] = []
        output_groups: list[list[list[int]]] = []
        for index, (value, operand_map) in enumerate(zip(operands, maps)):
            new_map, target, groups = _operand_metadata(value, operand_map, unit_loops, new_position)
            new_maps.append(new_map)
            if index >= len(op.inputs):
                output_groups.append(groups)
            value_type = value.type
            assert isinstance(value_type, TensorType)
            if target == list(value_type.get_shape()):
                new_operands.append(value)
                continue
            target_type = TensorType(value_type.get_element_type(), target, _collapsed_encoding(value_type.encoding))
            empty = value.owner
            if isinstance(empty, tensor.EmptyOp):
                # What the clean-up makes of collapse_shape(tensor.empty): a smaller empty.
                sizes = list(empty.dynamic_sizes)
                kept_sizes = [
                    sizes[value_type.get_shape()[:axis].count(DYNAMIC_INDEX)]
                    for group in groups
                    for axis in group
                    if value_type.get_shape()[axis] == DYNAMIC_INDEX
                ]
                new_empty = tensor.EmptyOp(kept_sizes, target_type)
                new_empty.location = empty.location
                rewriter.insert(new_empty)
                new_operands.append(new_empty.tensor)
                continue
            collapsed = tensor.CollapseShapeOp(value, groups, target_type)
            collapsed.location = op.location
            rewriter.insert(collapsed)
            new_operands.append(collapsed.result)

        # linalg.index of a dropped loop is 0; the others are renumbered.
        for index_op in [inner for inner in op.body.walk() if isinstance(inner, linalg.IndexOp)]:
            loop = index_op.dim.value.data
            if loop in unit_loops:
                zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
                zero.location = index_op.location
                rewriter.replace(index_op, zero)
            elif new_position[loop] != loop:
                renumbered = linalg.IndexOp(new_position[loop])
                renumbered.location = index_op.location
                rewriter.replace(index_op, renumbered)
        iterators = [it for loop, it in enumerate(op.iterator_types.data) if loop not in unit_loops]
        new_inputs = new_operands[: len(op.inputs)]
        new_outputs = new_operands[len(op.inputs) :]
        generic = linalg.GenericOp(
            new_inputs,
            new_outputs,
            rewriter.move_region_contents_to_new_regions(op.body),
            ArrayAttr([AffineMapAttr(m) for m in new_maps]),
            ArrayAttr(iterators),
            [v.type for v in new_outputs],
            op.doc,
            op.library_call,
        )
        generic.attributes |= op.attributes
        generic.location = op.location
        rewriter.insert(generic)
        replacements: list[SSAValue] = []
        for result, old_type, groups in zip(generic.res, op.result_types, output_groups):
            if result.type == old_type:
                replacements.append(result)
                continue
            assert isinstance(old_type, TensorType)
            expanded = tensor.ExpandShapeOp(result, groups, list(old_type.get_shape()), old_type)
            expanded.location = op.location
            rewriter.insert(expanded)
            replacements.append(expanded.result)
        rewriter.replace(op, [], replacements)


@dataclass(frozen=True)
class FoldUnitExtentDimsPass(ModulePass):
    """Drops the unit-extent loops of the linalg.generic ops outside dispatch regions."""

    name = "iree-dispatch-creation-fold-unit-extent-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # IREE applies the patterns with the walk driver: each op once.
        PatternRewriteWalker(GreedyRewritePatternApplier([DropUnitDims()]), apply_recursively=False).rewrite_module(op)
