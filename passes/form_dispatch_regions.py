"""``iree-dispatch-creation-form-dispatch-regions``: group each root op and its fusions into a dispatch.

A dispatch is the unit of work the host launches on the device. As IREE's
FormDispatchRegions.cpp does, the pass walks each block bottom-up and marks
*roots* (named linalg ops other than ``linalg.fill``, ``linalg.generic`` ops
with a reduction loop, ``linalg.unpack``), fusing into each the producers it
can take; it then fuses each root with the chain of consumers that tile with
it, and finally makes every remaining linalg op, ``tensor.pad`` and
``linalg.pack`` a root of its own, fused the same way. Each group is wrapped in
``flow.dispatch.region -> (tensor<..>{dims}) { ... flow.return }`` at its
root.

Ops IREE would rather recompute in every dispatch that reads them
(``isClonableIntoDispatchOp``: ``linalg.fill``, ``tensor.empty``, small
constants, bit-extend ``linalg.generic`` ops...) are neither roots nor fused:
they stay outside, captured, for ``iree-dispatch-creation-clone-producers-into-dispatch-regions``
to clone in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue, Use
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.traits import is_side_effect_free

from mini_iree.compiler.analysis.clonable_into_dispatch import (
    clones_bit_extends,
    is_clonable_into_dispatch_op,
    mask_or_indices_producers,
)
from mini_iree.compiler.analysis.device_analysis import DeviceAnalysis
from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.era import option_era, run_era
from mini_iree.compiler.analysis.region_wrapping import wrap_in_dispatch_region
from mini_iree.compiler.ir.queries import element_bit_width, instance_test, is_bit_extend_op
from mini_iree.dialects import flow, iree_encoding, linalg, tensor


@dataclass(frozen=True)
class _Options:
    """IREE's ``FormDispatchRegionsPassOptions``."""

    aggressive_fusion: bool = False
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
    return any(
        _is_op_result(v) and _has_no_packed_reduction_dims(op, v.op) for v in op.operands
    )


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


def _is_root(op: Operation, groups: _Groups) -> bool:
    """IREE's ``isRootOp``: ops a dispatch is formed around in the first round."""
    if is_bit_extend_op(op):
        return False
    if _is_linalg_structured(op):
        if not groups.structured(op):
            return False
        if _is_generic(op):
            return "reduction" in _iterators(op) and not _has_fusable_unpack_producer(op)
        return not _is_fill(op)
    return _is_unpack(op)


# ---------------------------------------------------------------------------
# Loop compatibility (IREE's hasCompatibleOuterParallelLoops)
# ---------------------------------------------------------------------------


def _outer_parallel_loops(op: Operation) -> list[bool]:
    """One bit per loop of ``op``, set for the leading parallel loops."""
    if _is_set_or_unset_encoding(op):
        return [True] * op.result.type.get_num_dims()
    if _is_pack_or_pad(op):
        return [True] * op.operands[0].type.get_num_dims()  # type: ignore[attr-defined]
    if _is_unpack(op):
        return [True] * op.results[0].type.get_num_dims()  # type: ignore[attr-defined]
    if not _is_linalg_structured(op):
        return []
    bits = [False] * len(_iterators(op))
    for index, iterator in enumerate(_iterators(op)):
        if iterator != "parallel":
            break
        bits[index] = True
    return bits


def _match_iterator_types(root: list[bool], candidate: list[bool]) -> bool:
    """An all-parallel candidate is at least as parallel as the root; any other has the root's loops."""
    if not all(candidate):
        return root == candidate
    for position in range(min(len(root), len(candidate))):
        if not root[position]:
            break
        if not candidate[position]:
            return False
    return True


def _is_identity_with_zeros_on(map_: AffineMap, kept: list[int]) -> bool:
    """``map_`` with the loops not in ``kept`` projected out is an identity, up to zero results."""
    if map_.num_symbols != 0 or (not kept and not map_.results):
        return False
    seen = 0
    for expr in map_.results:
        if isinstance(expr, AffineDimExpr):
            if expr.position not in kept:
                continue  # a projected-out loop reads as the constant 0
            if kept.index(expr.position) != seen:
                return False
            seen += 1
        elif not (isinstance(expr, AffineConstantExpr) and expr.value == 0):
            return False
    return seen == len(kept)


def _compatible_outer_parallel(op: Operation, map_: AffineMap, root_loops: list[bool]) -> bool:
    if not map_.is_projected_permutation():
        return False
    if not _match_iterator_types(root_loops, _outer_parallel_loops(op)):
        return False
    kept = [d for d in range(map_.num_dims) if d < len(root_loops) and root_loops[d]]
    return _is_identity_with_zeros_on(map_, kept)


def _result_map(op: LinalgStructuredOperation, result: OpResult) -> AffineMap:
    return _maps(op)[len(op.inputs) + result.index]


def _ops_fusable(producer: Operation, consumer: Operation, root_loops: list[bool], groups: _Groups) -> bool:
    """Every use of ``producer`` by ``consumer`` tiles along the root's outer parallel loops."""
    if not (groups.structured(producer) and groups.structured(consumer)):
        return False
    assert isinstance(producer, LinalgStructuredOperation) and isinstance(consumer, LinalgStructuredOperation)
    consumer_maps = _maps(consumer)
    for index, operand in enumerate(consumer.operands):
        if not (_is_op_result(operand) and operand.op is producer):
            continue
        if not _compatible_outer_parallel(producer, _result_map(producer, operand), root_loops):
            return False
        if not _compatible_outer_parallel(consumer, consumer_maps[index], root_loops):
            return False
    return True


# ---------------------------------------------------------------------------
# Deciding the fusion groups (IREE's decideFusableLinalgOps)
# ---------------------------------------------------------------------------


class _Groups:
    """Which root each op belongs to: ``roots[n]`` and the ops fused with it."""

    def __init__(self, options: _Options) -> None:
        self.options = options
        self.roots: list[Operation] = []
        self.group_of: dict[Operation, int] = {}
        self.order: dict[Operation, int] = {}
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
            op, self.options.aggressive_fusion, self.mask_or_indices, self.bit_extends_clonable
        )

    def position(self, op: Operation) -> int:
        """Program order of ``op`` within its block (numbered once per block)."""
        if op not in self.order:
            block = op.parent_block()
            assert block is not None
            for index, other in enumerate(block.ops):
                self.order[other] = index
        return self.order[op]

    def fusable_uses(self, op: Operation) -> list[Use]:
        """IREE's ``getFusableUses``: non-``tensor.dim`` uses in program order (just one unless aggressive)."""
        uses = [use for result in op.results for use in result.uses if not _is_dim(use.operation)]
        if not self.options.aggressive_fusion and len(uses) != 1:
            return []
        block = op.parent_block()
        in_block = [(use, block.find_ancestor_op_in_block(use.operation) if block else None) for use in uses]
        if any(anchor is None for _, anchor in in_block):
            return []
        in_block.sort(key=lambda pair: self.position(pair[1]))  # type: ignore[arg-type]
        return [use for use, _ in in_block]

    def new_root(self, op: Operation) -> int:
        self.group_of[op] = len(self.roots)
        self.roots.append(op)
        return self.group_of[op]


def _fusable_with_consumer(use: Use, root_loops: list[bool], groups: _Groups) -> bool:
    """IREE's ``isFusableWithConsumer``."""
    options = groups.options
    value = use.operation.operands[use.index]
    assert isinstance(value, OpResult)
    producer, consumer = value.op, use.operation
    if is_bit_extend_op(consumer):
        return False
    if _is_unpack_like(producer):
        if not _is_linalg_structured(consumer) or not groups.structured(consumer):
            return False
        if _has_no_packed_reduction_dims(consumer, producer):
            return True
        rank = value.type.get_num_dims()  # type: ignore[attr-defined]
        return _is_elementwise(consumer, groups) and len(_iterators(consumer)) == rank
    if _is_pack_like(consumer):
        if isinstance(producer, tensor.PadOp):
            return True
        if groups.structured(producer):
            assert isinstance(producer, LinalgStructuredOperation)
            return _compatible_outer_parallel(producer, _result_map(producer, value), root_loops)
        return False
    if isinstance(consumer, tensor.PadOp):
        return options.fuse_pad_with_producers and isinstance(producer, LinalgStructuredOperation)
    if isinstance(consumer, tensor.InsertSliceOp):
        source = consumer.source
        if source is not value or not source.has_one_use():
            return False
        return isinstance(consumer.dest, OpResult) and isinstance(consumer.dest.op, linalg.FillOp)
    # Backends cannot yet give fused mmt4d ops their own lowering configs.
    if isinstance(producer, linalg.Mmt4DOp | linalg.BatchMmt4DOp):
        return False
    if not (groups.structured(producer) and groups.structured(consumer)):
        return False
    assert isinstance(producer, LinalgStructuredOperation) and isinstance(consumer, LinalgStructuredOperation)
    if not _is_all_parallel(consumer):
        return False
    if not _ops_fusable(producer, consumer, root_loops, groups):
        return False
    if options.aggressive_fusion:
        return True
    # Without aggressive fusion the consumer must not iterate over more loops than the producer.
    return len(_iterators(producer)) >= len(_iterators(consumer))


def _fusable_with_producer(operand_index: int, consumer: Operation, root_loops: list[bool], groups: _Groups) -> bool:
    """IREE's ``isFusableWithProducer``."""
    options = groups.options
    value = consumer.operands[operand_index]
    assert _is_op_result(value)
    producer = value.op  # type: ignore[attr-defined]
    if _is_pad(consumer):
        return options.fuse_pad_with_producers and _is_linalg_structured(producer)
    if _is_pack_like(consumer):
        if _is_pad(producer):
            return True
        if not groups.structured(producer):
            return False
        # Packing with dynamic inner tiles does not fuse yet in the backends.
        if _is_pack(consumer) and consumer.inner_tiles:
            return False
        assert isinstance(producer, LinalgStructuredOperation)
        return _compatible_outer_parallel(producer, _result_map(producer, value), root_loops)
    if not (groups.structured(producer) and groups.structured(consumer)):
        return False
    assert _is_linalg_structured(consumer)
    if not options.aggressive_fusion and operand_index < len(consumer.inputs):  # type: ignore[attr-defined]
        return False
    return _ops_fusable(producer, consumer, root_loops, groups)


def _fuse_with_producers(groups: _Groups, root: Operation) -> None:
    """IREE's ``fuseRootsWithProducers``: pull producers whose first use is in the group into it."""
    number = groups.group_of[root]
    root_loops = _outer_parallel_loops(root)
    worklist = [root]
    while worklist:
        candidate = worklist.pop()
        for index, operand in enumerate(candidate.operands):
            if not _is_op_result(operand):
                continue
            producer = operand.op
            if producer.parent_block() is not root.parent_block():
                continue
            if groups.is_clonable(producer):
                continue
            if producer in groups.group_of:
                continue
            if not _fusable_with_producer(index, candidate, root_loops, groups):
                continue
            uses = groups.fusable_uses(producer)
            if not uses or uses[0].operation is not candidate:
                continue
            groups.group_of[producer] = number
            worklist.append(producer)


def _fuse_with_consumers(groups: _Groups, roots: Sequence[Operation]) -> None:
    """IREE's ``fuseRootsWithConsumers``: follow each root's first use while it fuses."""
    for root in roots:
        number = groups.group_of[root]
        root_loops = _outer_parallel_loops(root)
        worklist = [root]
        while worklist:
            current = worklist.pop()
            uses = groups.fusable_uses(current)
            # IREE takes only the first use (backends fail on more), except that
            # every bit-truncating user joins when the first one truncates.
            if uses and _is_bit_truncate_op(uses[0].operation):
                uses = [use for use in uses if _is_bit_truncate_op(use.operation)]
            else:
                uses = uses[:1]
            for use in uses:
                consumer = use.operation
                if consumer in groups.group_of or consumer.parent_block() is not root.parent_block():
                    continue
                if not _fusable_with_consumer(use, root_loops, groups):
                    break
                groups.group_of[consumer] = number
                worklist.append(consumer)


def _is_nested_scf(op: Operation) -> bool:
    return op.dialect_name() == "scf" and bool(op.regions)


def _decide_round(groups: _Groups, block: Block, is_candidate: Callable[[Operation], bool]) -> None:
    """One bottom-up sweep: each candidate not yet grouped becomes a root, then producers and consumers join."""
    roots: list[Operation] = []
    for op in reversed(list(block.ops)):
        if op in groups.group_of or not is_candidate(op):
            continue
        groups.new_root(op)
        _fuse_with_producers(groups, op)
        roots.append(op)
    roots.reverse()
    _fuse_with_consumers(groups, roots)
    for root in roots:
        _fuse_with_producers(groups, root)


def _is_leftover_root(op: Operation, groups: _Groups) -> bool:
    """Second round: every other linalg op on tensors, ``tensor.pad`` and ``linalg.pack``.

    Ops IREE clones into their consumers' dispatches (fills, bit extends) are
    left for clone-producers-into-dispatch-regions.
    """
    if not (_is_pack_or_pad(op) or groups.structured(op)):
        return False
    return not groups.is_clonable(op)


def _decide(groups: _Groups, region: Region) -> None:
    for block in region.blocks:
        for op in list(block.ops):
            if _is_nested_scf(op):
                for nested in op.regions:
                    _decide(groups, nested)
        _decide_round(groups, block, lambda op: _is_root(op, groups))
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
    groups: _Groups, values: Sequence[SSAValue], root: Operation, members: set[Operation]
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
    for op in [o for o in block.ops if o in to_move]:
        op.detach()
        block.insert_op_before(op, root)
    if to_move:
        groups.order.clear()  # program order changed
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
    return wrap_in_dispatch_region(root, kept)


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def _form_regions(function_body: Region, options: _Options, bit_extends_clonable: bool) -> None:
    groups = _Groups(options)
    groups.bit_extends_clonable = bit_extends_clonable
    if options.aggressive_fusion:
        function = function_body.parent_op()
        groups.mask_or_indices = mask_or_indices_producers(function) if function is not None else set()
    _decide(groups, function_body)
    members: dict[int, list[Operation]] = {}
    for op, number in groups.group_of.items():
        members.setdefault(number, []).append(op)
    for number, root in enumerate(groups.roots):
        ordered = sorted(members[number], key=groups.position)
        _build_region(groups, root, ordered)


@dataclass(frozen=True)
class FormDispatchRegionsPass(ModulePass):
    """Wrap each root op and the producers and consumers fused with it in a region.

    Options as IREE's: ``aggressive-fusion`` fuses consumers with more loops
    than the root and producers through any operand (not only inits), and
    follows the first use of a value with several; ``fuse-pad-with-producers``
    lets ``tensor.pad`` join its producer's dispatch. (IREE's
    ``fuse-pad-with-consumers`` only fuses a pad into a convolution, which
    mini-iree does not model; it is accepted and has no effect.) Only linalg ops
    on tensors are grouped; anything else is left alone. ``era`` (mini-iree's:
    the run's by default) says whether bit extends on x86_64/aarch64 CPUs get
    dispatches of their own, as IREE 3.13's do (``clones_bit_extends``).
    """

    name = "iree-dispatch-creation-form-dispatch-regions"

    aggressive_fusion: bool = False
    fuse_pad_with_consumers: bool = False
    fuse_pad_with_producers: bool = False
    era: str | float = field(default_factory=lambda: run_era().name)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = _Options(self.aggressive_fusion, self.fuse_pad_with_consumers, self.fuse_pad_with_producers)
        era = option_era(self.era, "era")
        devices = DeviceAnalysis(op)
        for function in functions(op, nested=True):
            _form_regions(function.body, options, clones_bit_extends(function, devices, era))  # type: ignore[attr-defined]


__all__ = ["FormDispatchRegionsPass"]
