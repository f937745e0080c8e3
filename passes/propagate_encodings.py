"""``iree-dispatch-creation-propagate-encodings``: move encoding ops next to what they can fuse with.

IREE's pass bubbles a host-level `set_encoding` above a `tensor.cast` (IREE
3.13) or, for a `#iree_encoding.matmul_k`, above a `tensor.collapse_shape`
(the walkthrough's IREE), so that the `set_encoding` reads the op's source
(often a dispatch result it can later be fused into). This pass does both, the
cast swap for every encoding whose meaning does not depend on static sizes,
and adds three rewrites that keep values unchanged:

* `tensor.cast(unset_encoding(x))` becomes `unset_encoding(tensor.cast(x))`
  when the cast only relaxes sizes that are static on `x`, so the
  `unset_encoding` can meet a following `set_encoding`;
* a dispatch region returning `unset_encoding(y)` whose result is re-encoded by
  a `set_encoding` to `y`'s exact type returns `y` itself, and the consumer uses
  it: the unpack/pack pair between the two dispatches disappears;
* `set_encoding(unset_encoding(x))` back to `x`'s exact type is `x`.

The last two apply only when the layouts are provably the same: identical
encoded types, identical `encoding_dims`, and `unset_encoding` result sizes
that are provably those of its source (static, or the very same SSA values), so
that the `unset_encoding` drops no padding.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from mini_iree.compiler.analysis.dispatch_regions import (
    dispatch_result_dims,
    erase_if_dead,
    is_outside_dispatch,
    rebuild_dispatch_region,
)
from mini_iree.compiler.analysis.encoding_dims import rematerialize_encoding_dims
from mini_iree.compiler.ir.constants import CommutativeConstantToRight
from mini_iree.compiler.ir.dynamic_dims import find_dynamic_dims
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import flow, iree_encoding, tensor

__all__ = [
    "FoldSetEncodingOfUnsetEncodingOp",
    "ForwardEncodedDispatchResult",
    "PropagateEncodingsPass",
    "SwapEncodingOpWithTensorCastOp",
    "SwapEncodingOpWithTensorCollapseShapeOp",
    "SwapTensorCastOpWithUnsetEncodingOp",
]


def _with_encoding(type_: TensorType, encoding: Attribute) -> TensorType:
    return TensorType(type_.element_type, type_.get_shape(), encoding)


def _is_cast_between_ranked(cast: tensor.CastOp) -> bool:
    """A cast that only changes which sizes are static (same rank, element type, no encoding change)."""
    source, dest = cast.source.type, cast.dest.type
    return (
        isinstance(source, TensorType)
        and isinstance(dest, TensorType)
        and source.element_type == dest.element_type
        and source.encoding == dest.encoding
        and source.get_num_dims() == dest.get_num_dims()
    )


def _is_propagable(encoding: Attribute) -> bool:
    """Encodings a `tensor.cast` can move across.

    `#iree_encoding.encoding` describes the tensor's role through loop dims,
    never its static sizes; a serialized layout is fixed (IREE's
    `LayoutAttr::isPropagableUp`). An unserialized layout still waits for
    decisions that may look at the type, so it stays put, as in IREE.
    """
    return isinstance(encoding, iree_encoding.EncodingAttr) or iree_encoding.is_serialized_encoding(encoding)


class SwapEncodingOpWithTensorCastOp(RewritePattern):
    """`set_encoding(cast(x))` -> `cast(set_encoding(x))`, both outside dispatches."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.SetEncodingOp, rewriter: PatternRewriter) -> None:
        cast = op.source.owner
        if not isinstance(cast, tensor.CastOp) or not _is_cast_between_ranked(cast):
            return
        encoding = op.result.type.encoding
        if not _is_propagable(encoding) or not is_outside_dispatch(op) or not is_outside_dispatch(cast):
            return
        source = cast.source
        # As IREE, the new set_encoding goes where the cast is, so its encoding
        # dims are rebuilt there (a `tensor.dim` of the cast becomes one of its source).
        dims = rematerialize_encoding_dims(list(op.encoding_dims), cast, cast.dest, source)
        if dims is None:
            return
        new_set = iree_encoding.SetEncodingOp(source, _with_encoding(source.type, encoding), dims)
        new_cast = tensor.CastOp(new_set.result, op.result.type)
        rewriter.insert([new_set, new_cast], InsertPoint.before(cast))
        rewriter.replace(op, [], [new_cast.dest])
        erase_if_dead([cast], rewriter)


def _bubbled_matmul_k(
    encoding: iree_encoding.MatmulKAttr, collapse: tensor.CollapseShapeOp
) -> iree_encoding.MatmulKAttr | None:
    """IREE's matmul_k ``isPropagableUp`` + ``generateBubblingEncodings`` for a collapse_shape.

    Each K dim must come from a single source dim (a collapsed K would change
    what the reduction runs over); the source's encoding names those dims.
    """
    groups = collapse.get_reassociation_indices()
    k_dims = encoding.get_k_dims()
    if any(len(groups[k]) != 1 for k in k_dims):
        return None
    return iree_encoding.MatmulKAttr([d for k in k_dims for d in groups[k]])


class SwapEncodingOpWithTensorCollapseShapeOp(RewritePattern):
    """`set_encoding(collapse_shape(x))` -> `collapse_shape(set_encoding(x))`, both outside dispatches.

    Only for `#iree_encoding.matmul_k`, the encoding that can say which source
    dims the K dims were (IREE's propagation interfaces of the walkthrough's
    era). The new collapse goes from `x`'s encoded type to the original
    encoded type.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.SetEncodingOp, rewriter: PatternRewriter) -> None:
        collapse = op.source.owner
        encoding = op.result.type.encoding
        if not isinstance(collapse, tensor.CollapseShapeOp) or not isinstance(encoding, iree_encoding.MatmulKAttr):
            return
        source_encoding = _bubbled_matmul_k(encoding, collapse)
        if source_encoding is None or not is_outside_dispatch(op) or not is_outside_dispatch(collapse):
            return
        source = collapse.src
        new_set = iree_encoding.SetEncodingOp(
            source, _with_encoding(source.type, source_encoding), list(op.encoding_dims)
        )
        new_collapse = tensor.CollapseShapeOp(new_set.result, collapse.reassociation, op.result.type)
        rewriter.replace(op, [new_set, new_collapse])
        erase_if_dead([collapse], rewriter)


class SwapTensorCastOpWithUnsetEncodingOp(RewritePattern):
    """`cast(unset_encoding(x))` -> `unset_encoding(cast(x))`, both outside dispatches.

    The cast may only make sizes dynamic, or keep sizes already static on `x`:
    a size the cast would newly assert is, before the rewrite, a size of the
    (possibly sliced) `unset_encoding` result, not of `x`. IREE has no such
    pattern; it lets an `unset_encoding` meet a following `set_encoding`.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.CastOp, rewriter: PatternRewriter) -> None:
        unset = op.source.owner
        if not isinstance(unset, iree_encoding.UnsetEncodingOp) or not _is_cast_between_ranked(op):
            return
        encoding = unset.source.type.encoding
        if not _is_propagable(encoding) or not is_outside_dispatch(op) or not is_outside_dispatch(unset):
            return
        source_shape = unset.source.type.get_shape()
        unset_shape = unset.result.type.get_shape()
        dest_shape = op.dest.type.get_shape()
        if any(d != DYNAMIC_INDEX and s == DYNAMIC_INDEX for d, s in zip(dest_shape, source_shape)):
            return
        new_ops: list[Operation] = []
        unset_dims = iter(unset.result_dims)
        result_dims: list[SSAValue] = []
        for d, u in zip(dest_shape, unset_shape):
            value = next(unset_dims) if u == DYNAMIC_INDEX else None
            if d != DYNAMIC_INDEX:
                continue
            if value is None:
                constant = arith.ConstantOp(IntegerAttr(u, IndexType()))
                new_ops.append(constant)
                value = constant.result
            result_dims.append(value)
        # A cast to the type the encoded tensor already has would be a no-op.
        encoded: SSAValue = unset.source
        cast_type = _with_encoding(op.dest.type, encoding)
        if cast_type != encoded.type:
            new_cast = tensor.CastOp(encoded, cast_type)
            new_ops.append(new_cast)
            encoded = new_cast.dest
        new_unset = iree_encoding.UnsetEncodingOp(encoded, op.dest.type, result_dims, list(unset.encoding_dims))
        rewriter.replace(op, [*new_ops, new_unset])
        erase_if_dead([unset], rewriter)


def _unset_keeps_sizes(unset: iree_encoding.UnsetEncodingOp) -> bool:
    """True if the `unset_encoding` provably drops nothing: its result sizes are its source's."""
    if unset.result.type.get_shape() != unset.source.type.get_shape():
        return False
    source_dims = find_dynamic_dims(unset.source)
    return source_dims is not None and list(source_dims) == list(unset.result_dims)


def _same_layout(set_op: iree_encoding.SetEncodingOp, unset: iree_encoding.UnsetEncodingOp) -> bool:
    """`set_op` re-creates exactly the encoded tensor `unset` started from."""
    return (
        set_op.result.type == unset.source.type
        and list(set_op.encoding_dims) == list(unset.encoding_dims)
        and _unset_keeps_sizes(unset)
    )


class FoldSetEncodingOfUnsetEncodingOp(RewritePattern):
    """`set_encoding(unset_encoding(x))` -> `x` when the layouts are provably the same."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.SetEncodingOp, rewriter: PatternRewriter) -> None:
        unset = op.source.owner
        if not isinstance(unset, iree_encoding.UnsetEncodingOp) or not _same_layout(op, unset):
            return
        rewriter.replace(op, [], [unset.source])
        erase_if_dead([unset], rewriter)


class ForwardEncodedDispatchResult(RewritePattern):
    """Skips an `unset_encoding` at the end of a dispatch and a `set_encoding` after it.

    The producer returns the encoded tensor as well (or instead, once the plain
    one is unused) and the `set_encoding`'s users read it directly.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.SetEncodingOp, rewriter: PatternRewriter) -> None:
        source = op.source
        if not isinstance(source, OpResult) or not isinstance(source.op, flow.DispatchRegionOp):
            return
        region = source.op
        if len(region.body.blocks) != 1 or region.is_ancestor(op):
            return
        terminator = region.body.block.last_op
        assert isinstance(terminator, flow.ReturnOp)
        unset = terminator.operands[source.index].owner
        if not isinstance(unset, iree_encoding.UnsetEncodingOp) or unset.parent_op() is not region:
            return
        if not _same_layout(op, unset):
            return
        encoded = unset.source
        # The region's sizes for the plain result are, provably, those of `encoded`.
        dims = dispatch_result_dims(region, source.index)
        # Drop the use of the plain result before deciding to keep it.
        rewriter.replace_uses_with_if(source, encoded, lambda use: use.operation is op)
        existing = [i for i, v in enumerate(terminator.operands) if v is encoded]
        keep = [i for i, r in enumerate(region.results) if r.uses]
        if existing and existing[0] in keep:
            replacement = region.results[existing[0]]
        else:
            new_region = rebuild_dispatch_region(region, keep, [encoded], [dims], rewriter)
            replacement = new_region.results[-1]
        rewriter.replace(op, [], [replacement])
        erase_if_dead([unset], rewriter)


@dataclass(frozen=True)
class PropagateEncodingsPass(ModulePass):
    """Moves encoding ops across `tensor.cast` and removes provably redundant relayout pairs.

    Bubbles `set_encoding` above and sinks `unset_encoding` below `tensor.cast`
    outside dispatches, bubbles a `matmul_k` `set_encoding` above a
    `collapse_shape` that keeps its K dims whole, folds `set_encoding(unset_encoding(x))` to `x`, and lets
    a dispatch hand an encoded result straight to a consumer that re-encodes it
    the same way. Anything whose layout or sizes cannot be proven equal, and
    unserialized `#iree_encoding.layout`s, are left alone.
    """

    name = "iree-dispatch-creation-propagate-encodings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [
            FoldSetEncodingOfUnsetEncodingOp(),
            ForwardEncodedDispatchResult(),
            SwapEncodingOpWithTensorCastOp(),
            SwapEncodingOpWithTensorCollapseShapeOp(),
            SwapTensorCastOpWithUnsetEncodingOp(),
            # IREE's driver folds as it goes: a rebuilt `tensor.dim` of a static
            # extent becomes its constant (`DimOp::fold`).
            tensor.DimOfStaticExtent(),
            CommutativeConstantToRight(),
        ]
        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier(patterns, ctx, dce_enabled=True, folding_enabled=True),
        ).rewrite_module(op)
