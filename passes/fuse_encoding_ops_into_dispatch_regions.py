"""``iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass``: encode where the value is produced.

A `set_encoding` left outside dispatches after hoisting would become a
dispatch of its own (a whole-tensor relayout). When its source is the result of
a dispatch region, possibly through reshapes or a slice, the relayout can
instead be done by the producer as it writes its result: the reshapes and the
`set_encoding` move into the region, which then returns the encoded tensor.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, ShapedType, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.dispatch_regions import (
    dispatch_result_dims,
    is_outside_dispatch,
    move_defs_before,
    rebuild_dispatch_region,
)
from mini_iree.compiler.analysis.reshape_sizes import collapsed_dynamic_sizes
from mini_iree.compiler.era import run_era
from mini_iree.compiler.ir.locations import fused_location
from mini_iree.compiler.ir.queries import instance_test, nested_ops
from mini_iree.dialects import flow, iree_encoding, tensor

__all__ = ["FuseEncodingOpsIntoDispatchRegionsPass"]

# Ops the producer chain may go through between the dispatch result and the set_encoding.
_CHAIN_OPS = (tensor.CollapseShapeOp, tensor.ExpandShapeOp, tensor.ExtractSliceOp)

# Ops with shaped results a dispatch may hold and still take an encoding op:
# codegen can write their result in an encoded layout.
_FUSABLE_OPS = (
    tensor.CollapseShapeOp,
    tensor.ExpandShapeOp,
    tensor.EmptyOp,
    tensor.ExtractSliceOp,
    iree_encoding.SetEncodingOp,
    iree_encoding.UnsetEncodingOp,
    LinalgStructuredOperation,
)
_FUSABLE_OP_NAMES = frozenset({"iree_linalg_ext.attention", "iree_linalg_ext.online_attention", "iree_linalg_ext.gather"})


_is_set_encoding = instance_test(iree_encoding.SetEncodingOp)


def _producer_chain(source: SSAValue, aggressive: bool) -> tuple[OpResult, list[Operation]] | None:
    """The dispatch result feeding ``source`` and the reshape/slice ops in between (region first).

    Every value along the chain must have a single use; the dispatch result
    too, unless ``aggressive``.
    """
    if not isinstance(source.type, TensorType) or source.type.get_num_dims() == 0:
        return None
    chain: list[Operation] = []
    value = source
    while isinstance(value, OpResult) and not isinstance(value.op, flow.DispatchRegionOp):
        if not value.has_one_use() or not isinstance(value.op, _CHAIN_OPS):
            return None
        chain.append(value.op)
        value = value.op.operands[0]
    if not isinstance(value, OpResult):
        return None
    region = value.op
    assert isinstance(region, flow.DispatchRegionOp)
    if len(region.body.blocks) != 1 or (not aggressive and not value.has_one_use()):
        return None
    chain.reverse()
    return value, chain


def _is_fusable(region: flow.DispatchRegionOp) -> bool:
    """Every op of the region with a shaped result is one codegen can fuse an encoding op into."""
    for op in region.body.block.ops:
        if not any(isinstance(t, ShapedType) for t in op.result_types):
            continue
        if not isinstance(op, _FUSABLE_OPS) and op.name not in _FUSABLE_OP_NAMES:
            return False
    return True


def _slice_dims_known(op: tensor.ExtractSliceOp) -> bool:
    """True if the slice's dynamic sizes are exactly its result's dynamic dims (no rank reduction)."""
    sizes = op.static_sizes.get_values()
    shape = op.result.type.get_shape()
    return len(sizes) == len(shape) and all((s == DYNAMIC_INDEX) == (d == DYNAMIC_INDEX) for s, d in zip(sizes, shape))


def _chain_result_dims(producer: OpResult, chain: list[Operation], point: InsertPoint) -> list[SSAValue]:
    """Dynamic sizes of the chain's last value, as values available at ``point`` (before the region)."""
    region = producer.op
    assert isinstance(region, flow.DispatchRegionOp)
    dims = dispatch_result_dims(region, producer.index)
    for op in chain:
        if isinstance(op, tensor.ExpandShapeOp):
            dims = list(op.output_shape)
        elif isinstance(op, tensor.ExtractSliceOp):
            dims = list(op.sizes)
        else:
            assert isinstance(op, tensor.CollapseShapeOp)
            dims = collapsed_dynamic_sizes(
                op.src.type.get_shape(), dims, op.get_reassociation_indices(), point, op.location
            )
    return dims


def _fuse(encoding_op: iree_encoding.SetEncodingOp, aggressive: bool) -> bool:
    found = _producer_chain(encoding_op.source, aggressive)
    if found is None:
        return False
    producer, chain = found
    region = producer.op
    assert isinstance(region, flow.DispatchRegionOp)
    terminator = region.body.block.last_op
    assert isinstance(terminator, flow.ReturnOp)
    inner = terminator.operands[producer.index]
    if not isinstance(inner, OpResult) or inner.op.parent_op() is not region:
        return False
    # As IREE: a matmul_k encoding only names reduction dims, which any producer can write.
    if not isinstance(encoding_op.result.type.encoding, iree_encoding.MatmulKAttr) and not _is_fusable(region):
        return False
    ops = [*chain, encoding_op]
    if any(o.parent_block() is not region.parent_block() for o in ops):
        return False
    if any(isinstance(o, tensor.ExtractSliceOp) and not _slice_dims_known(o) for o in chain):
        return False
    # Sizes, offsets and encoding dims computed after the region must move above it.
    side_operands = [v for o in ops for v in o.operands[1:]]
    if not move_defs_before(side_operands, region):
        return False

    dims = _chain_result_dims(producer, chain, InsertPoint.before(region))
    external_uses = list(encoding_op.result.uses)
    ops[0].operands[0] = inner
    for o in ops:
        o.detach()
        region.body.block.insert_op_before(o, terminator)
    # The unencoded result stays only if something else still reads it.
    keep = [i for i, r in enumerate(region.results) if i != producer.index or r.uses]
    new_region = rebuild_dispatch_region(region, keep, [encoding_op.result], [dims])
    # The region now holds the ops it was made of and the ones fused into it.
    new_region.location = fused_location(region, *ops)
    for use in external_uses:
        use.operation.operands[use.index] = new_region.results[-1]
    return True


def _merge_identical_set_encodings(module: ModuleOp) -> None:
    """Identical host-level ``set_encoding`` ops of one value become the first of them.

    IREE runs CSE over the function before fusing, "to eliminate common
    encoding ops", so that one fused op feeds all their users. Only these ops
    are merged here, which leaves the rest of the IR (duplicate constants the
    walkthrough prints) as it is.
    """
    # Ops of one block reading the same values, then the first of them with the
    # same result type and attributes. Grouping by block and operands first
    # spares hashing every encoded type (a deep hash) for the usual group of one.
    seen: dict[tuple, list[tuple[Attribute, tuple, iree_encoding.SetEncodingOp]]] = {}
    for candidate in nested_ops(module):
        if not _is_set_encoding(candidate) or not is_outside_dispatch(candidate):
            continue
        attributes = tuple(sorted((name, str(value)) for name, value in candidate.attributes.items()))
        result_type = candidate.result.type
        group = seen.setdefault((candidate.parent_block(), tuple(candidate.operands)), [])
        first = next(
            (op for ty, attrs, op in group if (ty is result_type or ty == result_type) and attrs == attributes), None
        )
        if first is None:
            group.append((result_type, attributes, candidate))
        else:
            candidate.result.replace_all_uses_with(first.result)
            Rewriter.erase_op(candidate)


@dataclass(frozen=True)
class FuseEncodingOpsIntoDispatchRegionsPass(ModulePass):
    """Moves each host-level `set_encoding` into the dispatch region producing its source.

    The source may reach the `set_encoding` through `tensor.collapse_shape`,
    `expand_shape` and `extract_slice` ops, which move along. The pass refuses
    when a value on the way has other uses (the dispatch result may, with
    `enable-aggressive-fusion`: the region then returns both tensors), when the
    region has several blocks, or, unless the encoding is a `matmul_k`, when
    the region holds an op with a shaped result other than reshapes, slices,
    `tensor.empty`, encoding ops, linalg ops, attention and gather.
    """

    name = "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass"

    enable_aggressive_fusion: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if run_era().cse_before_encoding_fusion:
            _merge_identical_set_encodings(op)
        # Region formation (IREE's moveFollowingOpIntoDispatchRegion), not a
        # local rewrite: the targets are collected first, then moved in order.
        targets = [o for o in nested_ops(op) if _is_set_encoding(o) and is_outside_dispatch(o)]
        for target in targets:
            _fuse(target, self.enable_aggressive_fusion)
