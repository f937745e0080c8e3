"""The walkthrough's (September 2025) fusion decisions for form-dispatch-regions.

IREE before 3.13 let an op join a root's dispatch only when the indexing maps
it shares with the group are identities on the root's outer parallel loops
(``hasCompatibleOuterParallelLoops``), followed only the first use of a
fused value, and fused a producer only when its first use was in the group.
IREE 3.13 maps loops through the group instead (:mod:`fusion_group`); the
walkthrough era keeps these rules, which its reference dumps were made with.

Source: IREE ``DispatchCreation/FormDispatchRegions.cpp`` at 76efc5896b.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, OpResult, Region, Use
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from mini_iree.compiler.analysis.clonable_into_dispatch import (
    is_clonable_into_dispatch_op,
)
from mini_iree.compiler.ir.program_order import ProgramOrder
from mini_iree.compiler.ir.queries import is_bit_extend_op
from mini_iree.dialects import linalg, tensor
from mini_iree.passes.form_dispatch_regions import (
    _has_no_packed_reduction_dims,
    _is_all_parallel,
    _is_attention,
    _is_convolution,
    _is_bit_truncate_op,
    _is_dim,
    _is_elementwise,
    _is_leftover_root,
    _is_linalg_structured,
    _is_op_result,
    _is_pack,
    _is_pack_like,
    _is_pack_or_pad,
    _is_pad,
    _is_root,
    _is_set_or_unset_encoding,
    _is_structured_on_tensors,
    _is_unpack,
    _is_unpack_like,
    _iterators,
    _maps,
    _Options,
)

__all__ = ["WalkthroughGroups", "decide_walkthrough"]


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


def _ops_fusable(
    producer: Operation,
    consumer: Operation,
    root_loops: list[bool],
    groups: WalkthroughGroups,
) -> bool:
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


class WalkthroughGroups:
    """Which root each op belongs to: ``roots[n]`` and the ops fused with it."""

    def __init__(self, options: _Options) -> None:
        self.options = options
        self.roots: list[Operation] = []
        self.group_of: dict[Operation, int] = {}
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

    def fusion_groups(self) -> list[tuple[Operation, list[Operation]]]:
        """Each root with the ops fused with it (the root among them)."""
        members: dict[int, list[Operation]] = {}
        for op, number in self.group_of.items():
            members.setdefault(number, []).append(op)
        return [(root, members[number]) for number, root in enumerate(self.roots)]

    def new_root(self, op: Operation) -> int:
        self.group_of[op] = len(self.roots)
        self.roots.append(op)
        return self.group_of[op]


def _fusable_with_consumer(use: Use, root_loops: list[bool], groups: WalkthroughGroups) -> bool:
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


def _fusable_with_producer(
    operand_index: int,
    consumer: Operation,
    root_loops: list[bool],
    groups: WalkthroughGroups,
) -> bool:
    """IREE's ``isFusableWithProducer``."""
    options = groups.options
    value = consumer.operands[operand_index]
    assert _is_op_result(value)
    producer = value.op  # type: ignore[attr-defined]
    if _is_pad(consumer):
        return options.fuse_pad_with_producers and _is_linalg_structured(producer)
    if options.fuse_pad_with_consumers and _is_pad(producer) and _is_convolution(consumer):
        return True
    if _is_attention(consumer):
        return False
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


def _fuse_with_producers(groups: WalkthroughGroups, root: Operation) -> None:
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


def _fuse_with_consumers(groups: WalkthroughGroups, roots: Sequence[Operation]) -> None:
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


def _decide_round(groups: WalkthroughGroups, block: Block, is_candidate: Callable[[Operation], bool]) -> None:
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


def _decide(groups: WalkthroughGroups, region: Region) -> None:
    for block in region.blocks:
        for op in list(block.ops):
            if _is_nested_scf(op):
                for nested in op.regions:
                    _decide(groups, nested)
        _decide_round(groups, block, lambda op: _is_root(op, groups))
    for block in region.blocks:
        _decide_round(groups, block, lambda op: _is_leftover_root(op, groups))


def decide_walkthrough(
    region: Region,
    options: _Options,
    bit_extends_clonable: bool,
    mask_or_indices: set[Operation],
) -> WalkthroughGroups:
    groups = WalkthroughGroups(options)
    groups.bit_extends_clonable = bit_extends_clonable
    groups.mask_or_indices = mask_or_indices
    _decide(groups, region)
    return groups
