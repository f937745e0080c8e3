"""Sinking relayouts below an elementwise consumer, before they are combined into a map_store.

IREE's `combineLayoutTransformation` first runs MLIR's propagation patterns so
that relayout ops end up next to the `iree_codegen.store_to_buffer`:

- `FoldWithProducerReshapeOpByExpansion` (`populateFoldReshapeOpsByExpansionPatterns`,
  `dispatch` scope only): an elementwise `linalg.generic` reading a
  `tensor.collapse_shape` runs on the expanded shape instead, and its result is
  collapsed;
- `PushDownUnPackOpThroughGenericOp` (`populateDataLayoutPropagationPatterns`, with
  IREE's control: the consumer's only input is the unpack and its inits are
  `tensor.empty`): the generic runs on the packed tensor and its result is unpacked.

Only the elementwise case is handled here: one input, one `tensor.empty` init,
identity indexing maps, parallel iterators and no `linalg.index` in the body.
Anything else is left alone.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, IndexType, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mini_iree.dialects import linalg, tensor

__all__ = ["FoldWithProducerReshapeOpByExpansion", "PushDownUnPackOpThroughGenericOp"]


def _elementwise_input(op: linalg.GenericOp) -> SSAValue | None:
    """The only input of an elementwise generic with one `tensor.empty` init, else None."""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.results) != 1:
        return None
    if not isinstance(op.outputs[0].owner, tensor.EmptyOp):
        return None
    if any(str(t.data) != "parallel" for t in op.iterator_types):
        return None
    for attr in op.indexing_maps:
        m = attr.data
        if m != AffineMap.identity(m.num_dims):
            return None
    if any(body_op.name == "linalg.index" for body_op in op.body.walk()):
        return None
    return op.inputs[0]


def _sizes_of(value: SSAValue, rewriter: PatternRewriter, before: Operation) -> list[SSAValue]:
    """The dynamic sizes of `value`: a `tensor.empty`'s own, else `tensor.dim` ops."""
    from xdsl.dialects import arith

    type_ = value.type
    assert isinstance(type_, TensorType)
    owner = value.owner
    if isinstance(owner, tensor.EmptyOp):
        return list(owner.dynamic_sizes)
    sizes: list[SSAValue] = []
    for index, size in enumerate(type_.get_shape()):
        if size == DYNAMIC_INDEX:
            c = arith.ConstantOp(IntegerAttr(index, IndexType()))
            dim = tensor.DimOp(value, c.result)
            rewriter.insert(c, _before(before))
            rewriter.insert(dim, _before(before))
            sizes.append(dim.results[0])
    return sizes


def _before(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


def _generic_on(
    op: linalg.GenericOp, source: SSAValue, rewriter: PatternRewriter, element_type: Attribute
) -> linalg.GenericOp:
    """`op`'s body, elementwise over `source`'s shape, into a new `tensor.empty`."""
    source_type = source.type
    assert isinstance(source_type, TensorType)
    rank = source_type.get_num_dims()
    result_type = TensorType(element_type, source_type.get_shape())
    init = tensor.EmptyOp(_sizes_of(source, rewriter, op), result_type)
    identity = AffineMapAttr(AffineMap.identity(rank))
    parallel = op.iterator_types.data[0]
    generic = linalg.GenericOp(
        [source], [init.tensor], op.body.clone(), [identity, identity], [parallel] * rank, [result_type]
    )
    rewriter.insert(init, _before(op))
    rewriter.insert(generic, _before(op))
    for new in (init, generic):
        new.location = op.location  # type: ignore[attr-defined]
    return generic


class FoldWithProducerReshapeOpByExpansion(RewritePattern):
    """`generic(collapse_shape(x))` -> `collapse_shape(generic(x))` for an elementwise generic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        source = _elementwise_input(op)
        if source is None or not isinstance(collapse := source.owner, tensor.CollapseShapeOp):
            return
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        expanded = _generic_on(op, collapse.src, rewriter, result_type.get_element_type())
        new = tensor.CollapseShapeOp(expanded.results[0], collapse.reassociation, result_type)
        new.location = op.location  # type: ignore[attr-defined]
        rewriter.replace(op, new)


class PushDownUnPackOpThroughGenericOp(RewritePattern):
    """`generic(unpack(x))` -> `unpack(generic(x))` for an elementwise generic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        source = _elementwise_input(op)
        if source is None or not isinstance(unpack := source.owner, linalg.UnPackOp):
            return
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        element_type = result_type.get_element_type()
        packed = _generic_on(op, unpack.source, rewriter, element_type)
        dest = tensor.EmptyOp(_sizes_of(unpack.dest, rewriter, op), result_type)
        rewriter.insert(dest, _before(op))
        dest.location = op.location  # type: ignore[attr-defined]
        new = linalg.UnPackOp(
            packed.results[0],
            dest.tensor,
            unpack.get_inner_dims_pos(),
            list(unpack.get_static_tiles()),
            unpack.get_outer_dims_perm(),
        )
        new.location = op.location  # type: ignore[attr-defined]
        rewriter.replace(op, new)
