"""Fusion groups that track how each member's loops map to the root's (IREE's ``FusionGroup``).

IREE 3.13's form-dispatch-regions keeps, for every op it fuses with a root, an
affine map from the root's outer parallel loops to that op's loops
(``IREE::LinalgExt::getRootParallelLoopToOpMap``). An op may join the group
when such a map exists: its loops line up with the root's through the indexing
maps of the values it exchanges with the group, even transposed. A loop of the
op that no root loop reaches reads as the constant 0 (a broadcast).

The maps here are projected permutations, so they are kept as tuples: result
``i`` is the position of the root loop that drives loop ``i`` of the op, or
``None`` for the constant 0.

Sources: IREE ``DispatchCreation/FormDispatchRegions.cpp`` and
``Dialect/LinalgExt/Transforms/LoopMappingUtils.cpp``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from mini_iree.compiler.ir.queries import instance_test
from mini_iree.dialects import iree_encoding, iree_linalg_ext, linalg, tensor

__all__ = [
    "MAX_OPERAND_COUNT",
    "FusionGroup",
    "LoopMap",
    "fusion_maps",
    "outer_parallel_loops",
    "static_loop_ranges",
    "used_values_defined_above",
]

MAX_OPERAND_COUNT = 16
"""IREE's ``kIreeMaxOperandCount``: bindings plus results a dispatch may have."""

_is_linalg_structured = instance_test(LinalgStructuredOperation)
_is_tensor = instance_test(TensorType)
_is_op_result = instance_test(OpResult)
_is_encoding_op = instance_test(iree_encoding.SetEncodingOp, iree_encoding.UnsetEncodingOp)
_is_attention = instance_test(iree_linalg_ext.AttentionOp)
_is_pack_or_pad = instance_test(linalg.PackOp, tensor.PadOp)
_is_unpack = instance_test(linalg.UnPackOp)
_is_fill_or_empty = instance_test(linalg.FillOp, tensor.EmptyOp)


@dataclass(frozen=True)
class LoopMap:
    """A projected permutation with broadcasts: ``(d0..d{dims-1}) -> (results)``, ``None`` = 0."""

    dims: int
    results: tuple[int | None, ...]

    def compose(self, other: LoopMap) -> LoopMap:
        """``self ∘ other`` (MLIR's ``AffineMap::compose``)."""
        assert self.dims == len(other.results)
        return LoopMap(
            other.dims,
            tuple(None if r is None else other.results[r] for r in self.results),
        )

    def used_dims(self) -> int:
        """How many dims the map reads (MLIR's ``compressUnusedDims(map).getNumDims()``)."""
        return len({r for r in self.results if r is not None})


def _inverse_and_broadcast(perm: tuple[int, ...], dims: int) -> LoopMap:
    """MLIR's ``inverseAndBroadcastProjectedPermutation`` of ``(d0..d{dims-1}) -> perm``."""
    return LoopMap(len(perm), tuple(perm.index(d) if d in perm else None for d in range(dims)))


def _as_permutation(map_: AffineMap) -> tuple[int, ...] | None:
    """The results of a projected permutation (no symbols, no constants), else ``None``."""
    if map_.num_symbols:
        return None
    positions = []
    for expr in map_.results:
        if not isinstance(expr, AffineDimExpr):
            return None
        positions.append(expr.position)
    if len(set(positions)) != len(positions):
        return None
    return tuple(positions)


# ---------------------------------------------------------------------------
# The ops with indexing maps (IREE's LinalgFusionOpInterface)
# ---------------------------------------------------------------------------


def _structured_on_tensors(op: Operation) -> bool:
    if not _is_linalg_structured(op):
        return False
    if not op.results or not all(_is_tensor(r.type) for r in op.results):
        return False
    return all(_is_tensor(v.type) for v in op.outputs)  # type: ignore[attr-defined]


def fusion_maps(op: Operation) -> tuple[list[AffineMap], list[AffineMap], int] | None:
    """Indexing maps of ``op``'s operands and results and its loop count, for the ops IREE
    gives ``LinalgFusionOpInterface`` (linalg ops on tensors, set/unset_encoding), else ``None``."""
    if _is_encoding_op(op):
        rank = op.results[0].type.get_num_dims()  # type: ignore[attr-defined]
        identity = AffineMap.identity(rank)
        return [identity], [identity], rank
    if _is_attention(op):
        # One map per operand (query, key, value, scale, mask, output); the output's is the result's.
        maps = [m.data for m in op.attributes["indexing_maps"].data]  # type: ignore[attr-defined]
        if len(maps) != len(op.operands) or not op.results:
            return None
        return maps, maps[-len(op.results) :], maps[0].num_dims
    if not _structured_on_tensors(op):
        return None
    assert isinstance(op, LinalgStructuredOperation)
    maps = [m.data for m in op.get_indexing_maps().data]
    return maps, maps[len(op.inputs) :], len(op.get_iterator_types().data)


def static_loop_ranges(op: Operation) -> list[int] | None:
    """Static size of each loop (``DYNAMIC_INDEX`` when unknown), as ``getStaticLoopRanges``."""
    if _is_encoding_op(op):
        return list(op.results[0].type.get_shape())  # type: ignore[attr-defined]
    maps = fusion_maps(op)
    if maps is None:
        return None
    operand_maps, _, loops = maps
    ranges = [DYNAMIC_INDEX] * loops
    known = [False] * loops
    for value, map_ in zip(op.operands, operand_maps):
        shape = value.type.get_shape() if hasattr(value.type, "get_shape") else ()  # type: ignore[attr-defined]
        for axis, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr) and not known[expr.position] and axis < len(shape):
                ranges[expr.position] = shape[axis]
                known[expr.position] = True
    return ranges


def outer_parallel_loops(op: Operation) -> list[bool]:
    """IREE's ``getOuterParallelLoops``: one bit per loop, set for the leading parallel ones."""
    if _is_encoding_op(op):
        return [True] * op.results[0].type.get_num_dims()  # type: ignore[attr-defined]
    if _is_pack_or_pad(op):
        return [True] * op.operands[0].type.get_num_dims()  # type: ignore[attr-defined]
    if _is_unpack(op):
        return [True] * op.results[0].type.get_num_dims()  # type: ignore[attr-defined]
    if _is_attention(op):
        # Loops the output is indexed by are parallel, the others reductions.
        maps = op.attributes["indexing_maps"].data  # type: ignore[attr-defined]
        output = maps[-1].data
        used = {e.position for e in output.results if isinstance(e, AffineDimExpr)}
        iterators = ["parallel" if d in used else "reduction" for d in range(output.num_dims)]
    elif _is_linalg_structured(op):
        iterators = [str(t.data.value) for t in op.get_iterator_types().data]  # type: ignore[attr-defined]
    else:
        return []
    bits = [False] * len(iterators)
    for index, iterator in enumerate(iterators):
        if iterator != "parallel":
            break
        bits[index] = True
    return bits


def _root_map(op: Operation) -> LoopMap:
    """The root's own map: its outer parallel loops to its loops, the others broadcast."""
    bits = outer_parallel_loops(op)
    kept = tuple(d for d, bit in enumerate(bits) if bit)
    return _inverse_and_broadcast(kept, len(bits))


def _iteration_space_mapping(
    producer_result: AffineMap, consumer_operand: AffineMap, source: LoopMap
) -> LoopMap | None:
    """IREE's ``computeIterationSpaceMapping``: source space to the consumer's loops."""
    producer_perm = _as_permutation(producer_result)
    consumer_perm = _as_permutation(consumer_operand)
    if producer_perm is None or consumer_perm is None:
        return None
    inverse = _inverse_and_broadcast(consumer_perm, consumer_operand.num_dims)
    composed = inverse.compose(LoopMap(producer_result.num_dims, tuple(producer_perm)))
    return composed.compose(source)


def _merge(accumulated: LoopMap | None, incoming: LoopMap) -> LoopMap | None:
    """IREE's ``mergeComposedMaps``: a 0 yields to a loop; two different loops conflict."""
    if accumulated is None or accumulated == incoming:
        return incoming
    merged: list[int | None] = []
    for mine, theirs in zip(accumulated.results, incoming.results, strict=True):
        if mine == theirs or theirs is None:
            merged.append(mine)
        elif mine is None:
            merged.append(theirs)
        else:
            return None
    return LoopMap(accumulated.dims, tuple(merged))


def root_parallel_loop_to_op_map(op: Operation, loop_maps: dict[Operation, LoopMap]) -> LoopMap | None:
    """IREE's ``getRootParallelLoopToOpMap``: how the root's outer parallel loops drive ``op``'s,
    read through the values ``op`` exchanges with the group (``op`` consumes from it or feeds it)."""
    own = fusion_maps(op)
    if own is None:
        return None
    operand_maps, result_maps, _ = own
    is_consumer = any(_is_op_result(v) and v.op in loop_maps for v in op.operands)
    result: LoopMap | None = None
    if is_consumer:
        for index, value in enumerate(op.operands):
            if not _is_op_result(value) or value.op not in loop_maps:
                continue
            producer_maps = fusion_maps(value.op)
            if producer_maps is None:
                continue
            composed = _iteration_space_mapping(producer_maps[1][value.index], operand_maps[index], loop_maps[value.op])
            if composed is None:
                return None
            # No root loop reaches any loop of op: nothing ties it to the root.
            if composed.dims > 0 and all(r is None for r in composed.results):
                return None
            result = _merge(result, composed)
            if result is None:
                return None
        return result
    for op_result in op.results:
        for use in op_result.uses:
            consumer = use.operation
            if consumer not in loop_maps:
                continue
            consumer_maps = fusion_maps(consumer)
            if consumer_maps is None:
                continue
            consumer_loop_map = loop_maps[consumer]
            composed = _iteration_space_mapping(
                consumer_maps[0][use.index],
                result_maps[op_result.index],
                consumer_loop_map,
            )
            if composed is None:
                return None
            result = _merge(result, composed)
            if result is None:
                return None
            # A producer cannot be more parallel than its consumers.
            if result.used_dims() != consumer_loop_map.dims:
                return None
    return result


# ---------------------------------------------------------------------------
# Walking values
# ---------------------------------------------------------------------------


def used_values_defined_above(op: Operation) -> list[SSAValue]:
    """Values the regions of ``op`` use but do not define (MLIR's ``visitUsedValuesDefinedAbove``)."""
    values: list[SSAValue] = []
    for nested in op.walk():
        if nested is op:
            continue
        for operand in nested.operands:
            owner = operand.owner
            owner_op = owner.parent_op() if isinstance(owner, Block) else owner
            if owner_op is None or not op.is_ancestor(owner_op):
                values.append(operand)
    return values


def backward_slice(seeds: Iterable[SSAValue], keep: Callable[[Operation], bool]) -> set[Operation]:
    """MLIR's inclusive ``getBackwardSlice`` through operands and values used from above,
    entering only ops ``keep`` accepts (block arguments end the walk)."""
    slice_: set[Operation] = set()
    worklist = [v.op for v in seeds if _is_op_result(v)]
    while worklist:
        op = worklist.pop()
        if op in slice_ or not keep(op):
            continue
        slice_.add(op)
        for value in (*op.operands, *used_values_defined_above(op)):
            if not isinstance(value, BlockArgument) and _is_op_result(value):
                worklist.append(value.op)
    return slice_


# ---------------------------------------------------------------------------
# The group
# ---------------------------------------------------------------------------


class FusionGroup:
    """A root and the ops fused with it, each with its :class:`LoopMap` (IREE's ``FusionGroup``)."""

    def __init__(self, root: Operation, position: Callable[[Operation], int]) -> None:
        self.root = root
        self._position = position
        self.loop_maps: dict[Operation, LoopMap] = {root: _root_map(root)}

    def operations(self) -> list[Operation]:
        return list(self.loop_maps)

    def __contains__(self, op: Operation) -> bool:
        return op in self.loop_maps

    def map_for(self, op: Operation) -> LoopMap | None:
        assert op not in self.loop_maps
        return root_parallel_loop_to_op_map(op, self.loop_maps)

    def is_fusable(self, op: Operation) -> bool:
        """``op`` may join: it reads no member in its body, and its loops map to the root's
        (the root's loops themselves, if ``op`` has loops that are not parallel)."""
        if any(_is_op_result(v) and v.op in self.loop_maps for v in used_values_defined_above(op)):
            return False
        map_ = self.map_for(op)
        if map_ is None:
            return False
        bits = outer_parallel_loops(op)
        if not all(bits):
            return self.loop_maps[self.root] == map_
        return True

    def insert(self, op: Operation) -> None:
        map_ = self.map_for(op)
        # Ops without indexing maps (insert_slice, unpack...) get a root map of their own.
        self.loop_maps[op] = map_ if map_ is not None else _root_map(op)

    def has_transitive_dependency(self, consumer: Operation) -> bool:
        """IREE's ``hasTransitiveDependencyOnFusionGroup``: something ``consumer`` reads (not a
        member result) is itself computed from the group, so the group cannot move as one."""
        block = self.root.parent_block()
        members = list(self.loop_maps)
        first = min(self._position(m) for m in members)

        def keep(op: Operation) -> bool:
            # Stop at ops that come before every member: they cannot depend on it.
            anchor = block.find_ancestor_op_in_block(op) if block is not None else None
            if anchor is None:
                return False
            return not (anchor is op and self._position(op) < first)

        seeds = [
            v
            for v in (*used_values_defined_above(consumer), *consumer.operands)
            if not (_is_op_result(v) and v.op in self.loop_maps)
        ]
        slice_ = backward_slice(seeds, keep)
        return any(m in slice_ for m in members)

    def would_exceed_operand_limit(self, new_op: Operation) -> bool:
        """Adding ``new_op`` makes the dispatch read and write more than :data:`MAX_OPERAND_COUNT` tensors."""
        operands: set[Operation] = set()
        results = 0
        for op in (new_op, *self.loop_maps):
            for value in (*used_values_defined_above(op), *op.operands):
                if not _is_tensor(value.type) or not _is_op_result(value):
                    continue
                definer = value.op
                if _is_fill_or_empty(definer):
                    continue
                if definer is not new_op and definer not in self.loop_maps:
                    operands.add(definer)
            for result in op.results:
                if any(u.operation is not new_op and u.operation not in self.loop_maps for u in result.uses):
                    results += 1
        return len(operands) + results > MAX_OPERAND_COUNT
