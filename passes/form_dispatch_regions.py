"""``iree-dispatch-creation-form-dispatch-regions``: group each root op and its fusions into a dispatch.

A dispatch is the unit of work the host launches on the device. As IREE's
FormDispatchRegions.cpp does, the pass walks each block bottom-up and marks
*roots* (named linalg ops other than ``linalg.fill``, ``linalg.generic`` ops
with a reduction loop, ``linalg.unpack``, attention), fusing into each the
producers it can take; it then fuses each root with the consumers that tile
with it, and finally makes every remaining linalg op, ``tensor.pad`` and
``linalg.pack`` a root of its own, fused the same way. Each group is wrapped in
``flow.dispatch.region -> (tensor<..>{dims}) { ... flow.return }`` at its
root.

What tiles with a root differs by era. IREE 3.13 keeps, for each member of a
group, how the root's outer parallel loops map to its loops
(:mod:`mini_iree.compiler.analysis.fusion_group`): a member may read the group
transposed, a producer with other users joins (and is returned for them), and
every consumer of the group is considered, not only the first. The
walkthrough's IREE asks for identity maps on the root's loops and follows first
uses only (:mod:`mini_iree.compiler.analysis.walkthrough_fusion`).

Ops IREE would rather recompute in every dispatch that reads them
(``isClonableIntoDispatchOp``: ``linalg.fill``, ``tensor.empty``, small
constants, bit-extend ``linalg.generic`` ops...) are neither roots nor fused:
they stay outside, captured, for ``iree-dispatch-creation-clone-producers-into-dispatch-regions``
to clone in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue, Use
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.traits import is_side_effect_free

from mini_iree.compiler.analysis.clonable_into_dispatch import (
    clones_bit_extends,
    is_clonable_into_dispatch_op,
    mask_or_indices_producers,
)
from mini_iree.compiler.analysis.device_analysis import DeviceAnalysis
from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.analysis.fusion_group import (
    FusionGroup,
    backward_slice,
    fusion_maps,
    outer_parallel_loops,
    static_loop_ranges,
    used_values_defined_above,
)
from mini_iree.compiler.analysis.region_wrapping import wrap_in_dispatch_region
from mini_iree.compiler.era import EraProfile, option_era, run_era
from mini_iree.compiler.ir.program_order import ProgramOrder
from mini_iree.compiler.ir.queries import (
    element_bit_width,
    instance_test,
    is_bit_extend_op,
)
from mini_iree.dialects import flow, iree_encoding, iree_linalg_ext, linalg, tensor

if TYPE_CHECKING:
    from mini_iree.compiler.analysis.walkthrough_fusion import WalkthroughGroups


@dataclass(frozen=True)
class _Options:
    """IREE's ``FormDispatchRegionsPassOptions``."""

    aggressive_fusion: bool = False
    fuse_multi_use_producers: bool = True
    fuse_pad_with_consumers: bool = False
    fuse_pad_with_producers: bool = False


# ---------------------------------------------------------------------------
# Op classification
# ---------------------------------------------------------------------------

# Class tests asked of many ops; see `instance_test` (xDSL ops and SSA values are ABCs).
_is_linalg_structured = instance_test(LinalgStructuredOperation)
_is_tensor = instance_test(TensorType)
_is_op_result = instance_test(OpResult)
_is_generic = instance_test(linalg.GenericOp)
_is_fill = instance_test(linalg.FillOp)
_is_pack = instance_test(linalg.PackOp)
_is_unpack = instance_test(linalg.UnPackOp)
_is_pack_or_pad = instance_test(linalg.PackOp, tensor.PadOp)
_is_pad = instance_test(tensor.PadOp)
_is_dim = instance_test(tensor.DimOp)
_is_set_or_unset_encoding = instance_test(iree_encoding.SetEncodingOp, iree_encoding.UnsetEncodingOp)
_is_set_encoding_or_pack = instance_test(iree_encoding.SetEncodingOp, linalg.PackOp)
_is_unset_encoding_or_unpack = instance_test(iree_encoding.UnsetEncodingOp, linalg.UnPackOp)
_is_dispatch_region = instance_test(flow.DispatchRegionOp)
_is_attention = instance_test(iree_linalg_ext.AttentionOp)


def _is_structured_on_tensors(op: Operation) -> bool:
    """A linalg structured op whose results and inits are tensors (IREE's LinalgFusionOpInterface here)."""
    if not _is_linalg_structured(op):
        return False
    if not op.results or not all(_is_tensor(r.type) for r in op.results):
        return False
    return all(_is_tensor(v.type) for v in op.outputs)


def _iterators(op: LinalgStructuredOperation) -> list[str]:
    return [str(t.data.value) for t in op.get_iterator_types().data]


def _maps(op: LinalgStructuredOperation) -> list[AffineMap]:
    return [m.data for m in op.get_indexing_maps().data]


def _is_all_parallel(op: LinalgStructuredOperation) -> bool:
    return all(t == "parallel" for t in _iterators(op))


def _is_elementwise(op: Operation, groups: _Groups) -> bool:
    """MLIR's ``linalg::isElementwise``: parallel loops, projected-permutation maps, permuted inits."""
    if not groups.structured(op):
        return False
    assert _is_linalg_structured(op)
    if not _is_all_parallel(op):
        return False
    maps = _maps(op)
    if not all(m.is_projected_permutation() for m in maps):
        return False
    return all(_is_permutation(m) for m in maps[len(op.inputs) :])


def _is_permutation(map_: AffineMap) -> bool:
    return map_.num_dims == len(map_.results) and map_.is_projected_permutation()


_is_pack_like = _is_set_encoding_or_pack
_is_unpack_like = _is_unset_encoding_or_unpack


def _has_no_packed_reduction_dims(consumer: LinalgStructuredOperation, producer: Operation) -> bool:
    """The reduction loops of ``consumer`` read no dimension the ``linalg.unpack`` producer unpacked."""
    if not _is_unpack(producer):
        return False
    index = next((i for i, v in enumerate(consumer.operands) if v is producer.results[0]), None)
    if index is None:
        return False
    iterators = _iterators(consumer)
    inner = producer.get_inner_dims_pos()
    for position, expr in enumerate(_maps(consumer)[index].results):
        if not isinstance(expr, AffineDimExpr):
            return False
        if iterators[expr.position] == "reduction" and position in inner:
            return False
    return True


def _has_fusable_unpack_producer(op: LinalgStructuredOperation) -> bool:
    return any(_is_op_result(v) and _has_no_packed_reduction_dims(op, v.op) for v in op.operands)


def _is_bit_truncate_op(op: Operation) -> bool:
    """IREE's ``isBitTruncateOp``: an all-parallel ``linalg.generic`` narrowing the element type
    of its highest-rank inputs, with a result of that rank (a quantization)."""
    if not _is_generic(op) or len(op.outputs) != 1 or not op.res:
        return False
    if not _is_all_parallel(op):
        return False
    ranked = [v.type for v in op.inputs if _is_tensor(v.type)]
    max_rank = max((t.get_num_dims() for t in ranked), default=0)
    result_type = op.res[0].type
    if max_rank == 0 or not _is_tensor(result_type) or result_type.get_num_dims() != max_rank:
        return False
    widths = [element_bit_width(t) for t in ranked if t.get_num_dims() == max_rank]
    out_width = element_bit_width(result_type)
    if out_width is None or any(w is None for w in widths):
        return False
    return max(w for w in widths if w is not None) > out_width


def _is_identity(map_: AffineMap) -> bool:
    return map_ == AffineMap.identity(map_.num_dims)


def _result_map(op: Operation, result: OpResult) -> AffineMap:
    return _maps(op)[len(op.inputs) + result.index]  # type: ignore[arg-type, attr-defined]


# ---------------------------------------------------------------------------
# Deciding the fusion groups (IREE's decideFusableLinalgOps)
# ---------------------------------------------------------------------------


class _Groups:
    """IREE's ``FusionTracker``: the fusion groups, in the order their roots were found."""

    def __init__(self, options: _Options) -> None:
        self.options = options
        self.groups: list[FusionGroup] = []
        self.group_of: dict[Operation, FusionGroup] = {}
        self.order = ProgramOrder()
        # What computes an attention mask or scatter indices (cloned, not fused, under aggressive fusion).
        self.mask_or_indices: set[Operation] = set()
        self.bit_extends_clonable = True
        self._structured: dict[Operation, bool] = {}

    def structured(self, op: Operation) -> bool:
        """:func:`_is_structured_on_tensors`, remembered: it reads each op's segment sizes, and
        ops keep their types while regions form (they move; their values keep their types)."""
        known = self._structured.get(op)
        if known is None:
            known = self._structured[op] = _is_structured_on_tensors(op)
        return known

    def is_clonable(self, op: Operation) -> bool:
        return is_clonable_into_dispatch_op(
            op,
            self.options.aggressive_fusion,
            self.mask_or_indices,
            self.bit_extends_clonable,
        )

    def position(self, op: Operation) -> int:
        """Program order of ``op`` within its block."""
        return self.order.position(op)

    def new_group(self, root: Operation) -> FusionGroup:
        group = FusionGroup(root, self.position)
        self.groups.append(group)
        self.group_of[root] = group
        return group

    def append(self, op: Operation, group: FusionGroup) -> None:
        assert op not in self.group_of
        group.insert(op)
        self.group_of[op] = group

    def fusable_uses(self, op: Operation) -> list[Use]:
        """IREE's ``getFusableUses``: the non-``tensor.dim`` uses in ``op``'s block, in program order.

        Without aggressive fusion, only an op whose results all go to one consumer has any.
        """
        if not self.options.aggressive_fusion:
            consumers = {use.operation for r in op.results for use in r.uses if not _is_dim(use.operation)}
            if len(consumers) != 1:
                return []
        block = op.parent_block()
        uses = [
            use
            for result in op.results
            for use in result.uses
            if not _is_dim(use.operation) and use.operation.parent_block() is block
        ]
        uses.sort(key=lambda use: self.position(use.operation))
        return uses


def _is_root(op: Operation, groups: _Groups | WalkthroughGroups) -> bool:
    """IREE's ``isRootLikeOp``: ops a dispatch is formed around in the first round."""
    if is_bit_extend_op(op):
        return False
    if _is_linalg_structured(op):
        if not groups.structured(op):
            return False
        if _is_generic(op):
            return "reduction" in _iterators(op) and not _has_fusable_unpack_producer(op)
        return not _is_fill(op)
    return _is_unpack(op) or _is_attention(op)


def _is_named_convolution(op: Operation) -> bool:
    """The ops with MLIR's ``ConvolutionOpInterface``: named convolutions and poolings."""
    name = op.name.removeprefix("linalg.")
    return op.name.startswith("linalg.") and name.startswith(("conv_", "depthwise_conv_", "pooling_"))


def _is_convolution(op: Operation) -> bool:
    """MLIR's ``isaConvolutionOpInterface``: a named convolution, or a linalg op shaped as one."""
    if _is_named_convolution(op):
        return True
    return _is_linalg_structured(op) and _has_convolution_loops(op)  # type: ignore[arg-type]


def _conv_term_dim(expr: AffineExpr) -> int | None:
    """The loop of a term of a convolved index: ``d`` or ``d * c``."""
    if isinstance(expr, AffineDimExpr):
        return expr.position
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        for dim, factor in ((expr.lhs, expr.rhs), (expr.rhs, expr.lhs)):
            if isinstance(dim, AffineDimExpr) and isinstance(factor, AffineConstantExpr):
                return dim.position
    return None


def _has_convolution_loops(op: LinalgStructuredOperation) -> bool:
    """MLIR's ``isConvolutionInterfaceImpl``: two inputs or more and one init; the input image
    indexed by loops and sums of two (scaled) loops; every loop an output image, output
    channel, filter, input channel, depth multiplier or batch loop; some loop convolved."""
    if len(op.inputs) < 2 or len(op.outputs) != 1:
        return False
    maps = _maps(op)
    convolved: set[int] = set()
    unconvolved: set[int] = set()
    for expr in maps[0].results:
        if isinstance(expr, AffineDimExpr):
            unconvolved.add(expr.position)
            continue
        if not (isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add):
            return False
        terms = [_conv_term_dim(expr.lhs), _conv_term_dim(expr.rhs)]
        if None in terms:
            return False
        convolved.update(t for t in terms if t is not None)
    # A loop used both plainly and in a sum is neither.
    shared = convolved & unconvolved
    convolved -= shared
    unconvolved -= shared
    if not (maps[1].is_projected_permutation() and maps[-1].is_projected_permutation()):
        return False
    output = {e.position for e in maps[-1].results if isinstance(e, AffineDimExpr)}
    filter_ = {e.position for e in maps[1].results if isinstance(e, AffineDimExpr)}
    inputs = convolved | unconvolved
    iterators = _iterators(op)
    classified = 0
    for loop, iterator in enumerate(iterators):
        parallel = iterator == "parallel"
        kinds = (
            parallel and loop in output and loop in convolved and loop not in filter_,  # output image
            parallel and loop in output and loop in filter_ and loop not in inputs,  # output channel
            not parallel and loop in filter_ and loop in convolved and loop not in output,  # filter
            not parallel and loop in filter_ and loop in unconvolved and loop not in output,  # input channel
            parallel and loop in filter_ and loop in unconvolved and loop in output,  # depth multiplier
            parallel and loop in output and loop in unconvolved and loop not in filter_,  # batch
        )
        classified += any(kinds)
    return classified == len(iterators) and bool(convolved)


def _can_use_input_as_init(op: Operation, input_index: int, init_index: int) -> bool:
    """IREE's ``canUseInOperandAsInitOperand``: the consumer may write its result over the input."""
    if not _is_generic(op) or not _is_all_parallel(op):
        return False
    assert isinstance(op, linalg.GenericOp)
    maps = _maps(op)
    block = op.body.block
    if block.args[init_index].uses:
        return False
    if maps[input_index] != maps[init_index]:
        return False
    return op.operands[input_index].type == op.operands[init_index].type


def _non_unit_loops(op: Operation) -> int:
    return sum(1 for size in static_loop_ranges(op) or () if size != 1)


def _fusable_with_consumer(use: Use, groups: _Groups) -> bool:
    """IREE's ``isFusableWithConsumer``."""
    options = groups.options
    value = use.operation.operands[use.index]
    assert isinstance(value, OpResult)
    producer, consumer = value.op, use.operation
    # Ops cloned into their consumers' dispatches (dequantizations...) are not fused.
    if groups.is_clonable(consumer):
        return False
    if _is_unpack_like(producer):
        if not _is_linalg_structured(consumer) or not groups.structured(consumer):
            return False
        if _has_no_packed_reduction_dims(consumer, producer):
            return True
        rank = value.type.get_num_dims()  # type: ignore[attr-defined]
        return _is_elementwise(consumer, groups) and len(_iterators(consumer)) == rank
    if _is_pack_like(consumer):
        if _is_pad(producer):
            return True
        if _is_linalg_structured(producer):
            # The CPU backend cannot yet handle a transpose between fused ops.
            return _is_identity(_result_map(producer, value))
        return False
    if _is_pad(consumer):
        return options.fuse_pad_with_producers and _is_linalg_structured(producer)
    if isinstance(consumer, tensor.InsertSliceOp):
        source = consumer.source
        if source is not value or not source.has_one_use():
            return False
        return isinstance(consumer.dest, OpResult) and isinstance(consumer.dest.op, linalg.FillOp)
    # Backends cannot yet give fused mmt4d ops their own lowering configs.
    if isinstance(producer, linalg.Mmt4DOp | linalg.BatchMmt4DOp):
        return False
    if fusion_maps(producer) is None or fusion_maps(consumer) is None:
        return False
    if not all(outer_parallel_loops(consumer)):
        return False
    group = groups.group_of[producer]
    if not group.is_fusable(consumer):
        return False
    if group.would_exceed_operand_limit(consumer):
        return False
    producer_loops = static_loop_ranges(producer) or []
    consumer_loops = static_loop_ranges(consumer) or []
    if not options.aggressive_fusion and len(producer_loops) < len(consumer_loops):
        return False
    # A small result broadcast to a much larger consumer stays out (unit loops aside).
    if fusion_maps(group.root) is not None and _non_unit_loops(consumer) > _non_unit_loops(group.root):
        return False
    if options.aggressive_fusion:
        return True
    # Without aggressive fusion the consumer must write in place of what it reads from a
    # convolution, or the dispatch needs a stack allocation.
    if not _is_linalg_structured(consumer) or not _is_named_convolution(producer):
        return True
    inputs = len(consumer.inputs)  # type: ignore[attr-defined]
    inits = range(inputs, len(consumer.operands))
    for index in range(inputs):
        if consumer.operands[index] is not value and not (
            _is_op_result(consumer.operands[index]) and consumer.operands[index].op is producer
        ):
            continue
        if not any(_can_use_input_as_init(consumer, index, init) for init in inits):
            return False
    return True


def _fuse_with_consumers(groups: _Groups, roots: Sequence[Operation]) -> None:
    """IREE's ``fuseRootsWithConsumers``: pull in, transitively, every consumer all of whose
    operands from the group fuse."""
    for root in roots:
        group = groups.group_of[root]
        worklist = [root]
        while worklist:
            current = worklist.pop()
            by_consumer: dict[Operation, list[Use]] = {}
            for use in groups.fusable_uses(current):
                by_consumer.setdefault(use.operation, []).append(use)
            for consumer, uses in by_consumer.items():
                if consumer in groups.group_of:
                    continue
                if group.has_transitive_dependency(consumer):
                    continue
                if not all(_fusable_with_consumer(use, groups) for use in uses):
                    continue
                groups.append(consumer, group)
                worklist.append(consumer)


def _fusable_with_producer(operand_index: int, consumer: Operation, groups: _Groups, fuse_with_truncate: bool) -> bool:
    """IREE's ``isFusableWithProducer``."""
    options = groups.options
    value = consumer.operands[operand_index]
    assert _is_op_result(value)
    producer = value.op  # type: ignore[attr-defined]
    if not fuse_with_truncate and _is_bit_truncate_op(producer):
        return False
    if _is_pad(consumer):
        return options.fuse_pad_with_producers and _is_linalg_structured(producer)
    if options.fuse_pad_with_consumers and _is_pad(producer) and _is_convolution(consumer):
        return True
    if _is_attention(consumer):
        return False
    if _is_pack_like(consumer):
        if _is_pad(producer):
            return True
        if not _is_linalg_structured(producer):
            return False
        # Packing with dynamic inner tiles does not fuse yet in the backends.
        if _is_pack(consumer) and consumer.inner_tiles:
            return False
        return _is_identity(_result_map(producer, value))  # type: ignore[arg-type]
    if fusion_maps(producer) is None or fusion_maps(consumer) is None:
        return False
    # Without aggressive fusion a producer joins only through the consumer's init.
    is_input = _is_linalg_structured(consumer) and operand_index < len(consumer.inputs)  # type: ignore[attr-defined]
    if not options.aggressive_fusion and is_input:
        return False
    group = groups.group_of[consumer]
    if not group.is_fusable(producer):
        return False
    return not group.would_exceed_operand_limit(producer)


def _all_group_uses_fusable(producer: Operation, group: FusionGroup, groups: _Groups, fuse_with_truncate: bool) -> bool:
    """IREE's ``areAllFusionGroupUsesFusableWithProducer``."""
    block = producer.parent_block()
    assert block is not None
    for result in producer.results:
        for use in result.uses:
            anchor = block.find_ancestor_op_in_block(use.operation)
            if anchor is None or anchor not in group:
                continue
            if anchor is not use.operation:
                return False
            if not _fusable_with_producer(use.index, use.operation, groups, fuse_with_truncate):
                return False
    return True


def _external_user_blocks_fusion(root: Operation, producer: Operation, group: FusionGroup, groups: _Groups) -> bool:
    """IREE's ``hasExternalUserBlockingProducerFusion``: an op before the root reads ``producer``
    and is a dispatch or something the group needs, so it could not follow the new dispatch."""
    block = root.parent_block()
    assert block is not None
    producer_position = groups.position(producer)

    def keep(op: Operation) -> bool:
        anchor = block.find_ancestor_op_in_block(op)
        return anchor is None or groups.position(anchor) >= producer_position

    members = group.operations()
    seeds = [v for member in members for v in (*member.operands, *used_values_defined_above(member))]
    deps = {block.find_ancestor_op_in_block(op) for op in backward_slice(seeds, keep)} | set(members)
    root_position = groups.position(root)
    for result in producer.results:
        for use in result.uses:
            user = block.find_ancestor_op_in_block(use.operation)
            if user is None or user in group or groups.position(user) >= root_position:
                continue
            if _is_dispatch_region(user) or user in deps:
                return True
    return False


def _non_dim_use_count(op: Operation) -> int:
    return sum(1 for r in op.results for use in r.uses if not _is_dim(use.operation))


def _fuse_with_producers(groups: _Groups, root: Operation, fuse_with_truncate: bool) -> None:
    """IREE's ``fuseRootsWithProducers``: walk up the operands from ``root``, pulling in the
    producers (of its block) every group use of which fuses."""
    group = groups.group_of[root]
    worklist = [root]
    while worklist:
        candidate = worklist.pop()
        for operand in candidate.operands:
            if not _is_op_result(operand):
                continue
            producer = operand.op
            if producer.parent_block() is not root.parent_block():
                continue
            if groups.is_clonable(producer) or producer in groups.group_of:
                continue
            if not _all_group_uses_fusable(producer, group, groups, fuse_with_truncate):
                continue
            if not groups.options.fuse_multi_use_producers and _non_dim_use_count(producer) != 1:
                continue
            if _external_user_blocks_fusion(root, producer, group, groups):
                continue
            groups.append(producer, group)
            worklist.append(producer)


def _is_nested_scf(op: Operation) -> bool:
    return op.dialect_name() == "scf"


def _decide_round(groups: _Groups, block: Block, is_candidate: Callable[[Operation], bool]) -> list[Operation]:
    """One bottom-up sweep: each candidate not yet grouped becomes a root, then producers and consumers join."""
    roots: list[Operation] = []
    for op in reversed(list(block.ops)):
        if op in groups.group_of or not is_candidate(op):
            continue
        groups.new_group(op)
        _fuse_with_producers(groups, op, fuse_with_truncate=False)
        roots.append(op)
    roots.reverse()
    _fuse_with_consumers(groups, roots)
    for root in roots:
        _fuse_with_producers(groups, root, fuse_with_truncate=True)
    return roots


def _is_leftover_root(op: Operation, groups: _Groups | WalkthroughGroups) -> bool:
    """Second round: every other linalg op on tensors, ``tensor.pad`` and ``linalg.pack``.

    Ops IREE clones into their consumers' dispatches (fills, bit extends) are
    left for clone-producers-into-dispatch-regions.
    """
    if not (_is_pack_or_pad(op) or groups.structured(op)):
        return False
    if groups.is_clonable(op):
        return False
    # A gather feeding only attention ops (a rope computation) is cloned into the attention's
    # dispatch rather than given its own (IREE's point fix, in its second round only).
    if _is_gatherlike(op):
        return not all(_is_attention(use.operation) for r in op.results for use in r.uses)
    return True


def _is_gatherlike(op: Operation) -> bool:
    """IREE's ``isGatherlikeOp``: an all-parallel ``linalg.generic`` that yields one value
    computed, within its body, from a ``tensor.extract``."""
    if not _is_generic(op) or not _is_all_parallel(op):
        return False
    assert isinstance(op, linalg.GenericOp)
    if len(op.body.blocks) != 1:
        return False
    body = op.body.block
    terminator = body.last_op
    if terminator is None or len(terminator.operands) != 1:
        return False
    worklist = [terminator.operands[0]]
    seen: set[Operation] = set()
    while worklist:
        value = worklist.pop()
        if not _is_op_result(value) or value.op in seen or value.op.parent_block() is not body:
            continue
        if isinstance(value.op, tensor.ExtractOp):
            return True
        seen.add(value.op)
        worklist.extend(value.op.operands)
    return False


def _decide(groups: _Groups, region: Region) -> None:
    for block in region.blocks:
        # The first sweep goes into scf ops as it meets them (they are never roots).
        def first_round(op: Operation) -> bool:
            if _is_nested_scf(op):
                for nested in op.regions:
                    _decide(groups, nested)
                return False
            return _is_root(op, groups)

        _decide_round(groups, block, first_round)
    for block in region.blocks:
        _decide_round(groups, block, lambda op: _is_leftover_root(op, groups))


# ---------------------------------------------------------------------------
# Building the region
# ---------------------------------------------------------------------------


def _captured_values(op: Operation) -> list[SSAValue]:
    """Operands of ``op`` and values its body uses from above (a scalar the payload reads)."""
    values = list(op.operands)
    for nested in op.walk():
        if nested is op:
            continue
        for operand in nested.operands:
            owner = operand.owner
            owner_op = owner.parent_op() if isinstance(owner, Block) else owner
            if owner_op is None or not op.is_ancestor(owner_op):
                values.append(operand)
    return values


def _movable(op: Operation, groups: _Groups) -> bool:
    """Ops that may move up past the root: no side effects (linalg ops on tensors and dispatch regions count)."""
    if _is_dispatch_region(op) or groups.structured(op):
        return True
    return not op.regions and is_side_effect_free(op)


def _move_operand_defs(
    groups: _Groups,
    values: Sequence[SSAValue],
    root: Operation,
    members: set[Operation],
) -> bool:
    """IREE's ``moveOperandDefs``: move what computes ``values`` after ``root`` to before it.

    The backward slice of ``values`` among the ops of ``root``'s block that
    follow it moves, in program order, right before ``root``. Fails, moving
    nothing, if the slice reaches a group member (the value is computed from
    the group outside it, so it cannot exist before the region) or an op that
    must not move.
    """
    block = root.parent_block()
    assert block is not None
    to_move: set[Operation] = set()
    worklist = [v.op for v in values if _is_op_result(v)]
    while worklist:
        op = block.find_ancestor_op_in_block(worklist.pop())
        if op is None or op in to_move:
            continue
        if op in members:
            return False
        if op.is_before_in_block(root):
            continue
        if not _movable(op, groups):
            return False
        to_move.add(op)
        worklist.extend(v.op for v in _captured_values(op) if _is_op_result(v))
    moved = sorted(to_move, key=groups.position)
    for op in moved:
        op.detach()
        block.insert_op_before(op, root)
    groups.order.forget(moved)
    return True


def _build_region(groups: _Groups, root: Operation, members: Sequence[Operation]) -> flow.DispatchRegionOp:
    """Wrap ``members`` (program order, ``root`` among them) in one region at the root.

    As IREE's ``wrapOpInDispatchRegion`` + ``move{Preceding,Following}Op*``:
    consumers (members after the root) need their other operands defined
    before the root, which :func:`_move_operand_defs` arranges; a consumer
    reading something computed from the group outside it stays out of the
    region (and out of any other). A member result used outside the group is
    returned.
    """
    root_position = members.index(root)
    kept = list(members[: root_position + 1])
    member_set = set(kept)
    for consumer in members[root_position + 1 :]:
        outside = [v for v in _captured_values(consumer) if not (_is_op_result(v) and v.op in member_set)]
        if not _move_operand_defs(groups, outside, root, member_set):
            continue
        kept.append(consumer)
        member_set.add(consumer)
    region_op = wrap_in_dispatch_region(root, kept)
    groups.order.forget(kept)
    groups.order.forget(_move_users_after(groups, region_op))
    return region_op


def _move_users_after(groups: _Groups, region_op: flow.DispatchRegionOp) -> list[Operation]:
    """Ops before the region that read a producer the region took in (now a region result)
    move after it, with what reads them, in program order (as IREE's
    ``movePrecedingOpsIntoDispatchRegion``)."""
    block = region_op.parent_block()
    assert block is not None
    to_move: set[Operation] = set()
    worklist: list[SSAValue] = list(region_op.results)
    while worklist:
        value = worklist.pop()
        for use in value.uses:
            user = block.find_ancestor_op_in_block(use.operation)
            if user is None or user in to_move or not user.is_before_in_block(region_op):
                continue
            to_move.add(user)
            worklist.extend(user.results)
    moved = sorted(to_move, key=groups.position)
    anchor: Operation = region_op
    for op in moved:
        op.detach()
        block.insert_op_after(op, anchor)
        anchor = op
    return moved


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def _maps_loops_through_group(era: EraProfile) -> bool:
    """Whether fusion follows IREE 3.13's loop maps (:mod:`fusion_group`) or the walkthrough's
    outer-parallel identity rule (:mod:`walkthrough_fusion`)."""
    return era.fusion_group_loop_maps


def _form_regions(
    function_body: Region,
    options: _Options,
    bit_extends_clonable: bool,
    era: EraProfile,
) -> None:
    mask_or_indices: set[Operation] = set()
    if options.aggressive_fusion:
        function = function_body.parent_op()
        mask_or_indices = mask_or_indices_producers(function) if function is not None else set()
    if not _maps_loops_through_group(era):
        from mini_iree.compiler.analysis.walkthrough_fusion import decide_walkthrough

        walkthrough = decide_walkthrough(function_body, options, bit_extends_clonable, mask_or_indices)
        for root, members in walkthrough.fusion_groups():
            _build_region(walkthrough, root, sorted(members, key=walkthrough.position))  # type: ignore[arg-type]
        return
    groups = _Groups(options)
    groups.bit_extends_clonable = bit_extends_clonable
    groups.mask_or_indices = mask_or_indices
    _decide(groups, function_body)
    for group in groups.groups:
        ordered = sorted(group.operations(), key=groups.position)
        _build_region(groups, group.root, ordered)


@dataclass(frozen=True)
class FormDispatchRegionsPass(ModulePass):
    """Wrap each root op and the producers and consumers fused with it in a region.

    Options as IREE's: ``aggressive-fusion`` fuses consumers with more loops
    than the root and producers through any operand (not only inits), and
    follows the uses of a value with several; ``fuse-multi-use-producers``
    (IREE 3.13, on by default) lets a producer with other users join a group;
    ``fuse-pad-with-producers`` lets ``tensor.pad`` join its producer's
    dispatch, ``fuse-pad-with-consumers`` the dispatch of the convolution
    reading it. Only linalg ops on tensors (and encoding ops, attention) are
    grouped; anything else is left alone. ``era`` (mini-iree's: the run's by
    default) chooses the fusion rules (see the module) and says whether bit
    extends on x86_64/aarch64 CPUs get dispatches of their own, as IREE 3.13's
    do (``clones_bit_extends``).
    """

    name = "iree-dispatch-creation-form-dispatch-regions"

    aggressive_fusion: bool = False
    fuse_multi_use_producers: bool = True
    fuse_pad_with_consumers: bool = False
    fuse_pad_with_producers: bool = False
    era: str | float = field(default_factory=lambda: run_era().name)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = _Options(
            self.aggressive_fusion,
            self.fuse_multi_use_producers,
            self.fuse_pad_with_consumers,
            self.fuse_pad_with_producers,
        )
        era = option_era(self.era, "era")
        devices = DeviceAnalysis(op)
        for function in functions(op, nested=True):
            bit_extends = clones_bit_extends(function, devices, era)
            _form_regions(function.body, options, bit_extends, era)  # type: ignore[attr-defined]


__all__ = ["FormDispatchRegionsPass"]
