"""``iree-dispatch-creation-elementwise-op-fusion``: fuse elementwise producers into their consumers.

Before dispatch regions are formed, IREE fuses a ``linalg.generic`` whose loops
are all parallel into the ``linalg.generic`` that reads its result: the
consumer's body computes the producer's value itself, and reads the
producer's inputs through indexing maps composed into its own loops. A
broadcast or a transpose feeding a contraction written as a generic so
becomes part of the contraction (IREE names the dispatch ``matvec_like`` or
``matmul_like``), an elementwise chain becomes one op. Which pairs fuse is
IREE's choice (DispatchCreation/FusionUtils ``areFusableAsElementwiseOps``):
copies and ``i1`` producers always; otherwise a producer with one use, not
into a bit-extend consumer with several uses, a bit-truncate only into a
unary elementwise op or another truncate, and into a reduction only through a
permutation and never into a contraction.

With the fusion run MLIR's clean-ups of the same pattern set
(``linalg::populateElementwiseOpsFusionPatterns``): a ``linalg.fill`` input
becomes its scalar in the body (FoldFillWithGenericOp), a splat constant input
becomes an ``arith.constant`` scalar (FoldScalarOrSplatConstant), an ``outs``
the body never reads becomes a ``tensor.empty`` (RemoveOutsDependency), and
inputs the body does not read, inputs repeated with the same map and results
nobody uses are dropped (DeduplicateAndRemoveDeadOperandsAndResults), each only
while the remaining maps still give every loop its size.

Left alone: named ops (IREE fuses only generics here), ops inside a dispatch
region (the default ``intra-dispatch=false``), generics on memrefs, fusion that
would reach IREE's 32-operand limit, and a fill whose scalar type differs from
the element type the body reads. IREE's gather fusion of ``tensor.extract``
and its LinalgExt transpose folds (attention) have no counterpart here.

IREE: ``DispatchCreation/ElementwiseOpFusion.cpp``; MLIR:
``Linalg/Transforms/ElementwiseOpFusion.cpp``, ``Linalg/IR/LinalgOps.cpp``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.analysis.dispatch_regions import is_outside_dispatch
from mini_iree.compiler.analysis.encoding_properties import contraction_dims
from mini_iree.compiler.ir.queries import element_bit_width, is_bit_extend_op
from mini_iree.dialects import linalg, tensor

__all__ = ["ElementwiseOpFusionPass"]

# IREE_HAL_MODULE_MAX_DESCRIPTOR_BINDING_COUNT: a fused op reaching it is not formed.
_MAX_OPERANDS = 32


# ---------------------------------------------------------------------------
# Small queries on generics
# ---------------------------------------------------------------------------


def _maps(op: linalg.GenericOp) -> list[AffineMap]:
    return [m.data for m in op.indexing_maps.data]


def _iterators(op: linalg.GenericOp) -> list[str]:
    return [t.data.value for t in op.iterator_types.data]


def _is_parallel_only(op: linalg.GenericOp) -> bool:
    return all(t == "parallel" for t in _iterators(op))


def _has_tensor_semantics(op: linalg.GenericOp) -> bool:
    """MLIR's ``hasPureTensorSemantics``: no memref operand (scalars may be inputs)."""
    return not any(isinstance(v.type, MemRefType) for v in op.operands)


def _uses_operand(op: linalg.GenericOp, index: int) -> bool:
    """MLIR's ``payloadUsesValueFromOperand``: the body reads the block argument of operand ``index``."""
    return bool(op.body.block.args[index].uses)


def _bounds_computable(maps: Sequence[AffineMap], num_dims: int) -> bool:
    """Every loop is some map's bare result (MLIR: the concatenated maps have an inverse permutation)."""
    if not maps:
        return num_dims == 0
    seen = {r.position for m in maps for r in m.results if isinstance(r, AffineDimExpr)}
    return seen >= set(range(num_dims))


def _is_permutation(map_: AffineMap) -> bool:
    if map_.num_symbols or len(map_.results) != map_.num_dims:
        return False
    positions = [r.position for r in map_.results if isinstance(r, AffineDimExpr)]
    return sorted(positions) == list(range(map_.num_dims))


def _inverse(permutation: AffineMap) -> AffineMap:
    positions = [r.position for r in permutation.results]  # type: ignore[attr-defined]
    results = [AffineDimExpr(positions.index(i)) for i in range(len(positions))]
    return AffineMap(len(positions), 0, tuple(results))


def _is_bit_truncate_op(op: Operation) -> bool:
    """IREE's ``isBitTruncateOp``: an all-parallel one-init generic narrowing its widest highest-rank input,
    read at the output's rank."""
    if not isinstance(op, linalg.GenericOp) or len(op.outputs) != 1 or not op.res or not _is_parallel_only(op):
        return False
    ranked = [v.type for v in op.inputs if isinstance(v.type, TensorType)]
    max_rank = max((t.get_num_dims() for t in ranked), default=0)
    out_type = op.res[0].type
    if max_rank == 0 or not isinstance(out_type, TensorType):
        return False
    widths = [element_bit_width(t) for t in ranked if t.get_num_dims() == max_rank]
    out_width = element_bit_width(out_type)
    if out_width is None or any(w is None for w in widths):
        return False
    return max(w for w in widths if w is not None) > out_width and max_rank == out_type.get_num_dims()


def _is_i1(type_) -> bool:
    element = type_.get_element_type() if isinstance(type_, TensorType) else type_
    return isinstance(element, IntegerType) and element.width.data == 1


# ---------------------------------------------------------------------------
# Which producer/consumer pairs fuse
# ---------------------------------------------------------------------------


def _producer_map_in_fused_loops(
    producer: linalg.GenericOp, operand_index: int, result_map: AffineMap, consumer_map: AffineMap
) -> AffineMap:
    """MLIR's getIndexingMapOfProducerOperandsInCoordinatesOfFusedOp: consumer loops -> producer operand."""
    arg_map = _maps(producer)[operand_index]
    return arg_map.compose(_inverse(result_map)).compose(consumer_map)


def _elementwise_fusable(consumer: linalg.GenericOp, index: int) -> bool:
    """MLIR's ``areElementwiseOpsFusable`` for the consumer's operand ``index``."""
    value = consumer.operands[index]
    producer = value.owner if isinstance(value, OpResult) else None
    if not isinstance(producer, linalg.GenericOp) or not _has_tensor_semantics(producer):
        return False
    if not isinstance(value.type, TensorType) or not _is_parallel_only(producer):
        return False
    if index >= len(consumer.inputs):  # only inputs, as MLIR
        return False
    consumer_map = _maps(consumer)[index]
    num_loops = len(_iterators(producer))
    if len(consumer_map.results) != num_loops:
        return False
    result_map = _maps(producer)[len(producer.inputs) + value.index]
    if not _is_permutation(result_map):
        return False
    iterators = _iterators(consumer)
    if "reduction" in iterators:
        maps = [m for i, m in enumerate(_maps(consumer)) if consumer.operands[i] is not value]
        maps += [
            _producer_map_in_fused_loops(producer, i, result_map, consumer_map) for i in range(len(producer.inputs))
        ]
        if not _bounds_computable(maps, len(iterators)):
            return False
    return True


def _iree_allows(consumer: linalg.GenericOp, index: int, options: ElementwiseOpFusionPass) -> bool:
    """IREE's control function: where the ops are, the operand limit, ``areFusableAsElementwiseOps``."""
    producer = consumer.operands[index].owner
    assert isinstance(producer, linalg.GenericOp)
    outside = is_outside_dispatch(producer) and is_outside_dispatch(consumer)
    if not options.intra_dispatch and not outside:
        return False
    operands = set(producer.operands) | {v for i, v in enumerate(consumer.operands) if i != index}
    if len(operands) >= _MAX_OPERANDS:
        return False
    # i1 producers always fuse (no i1 buffers); so do copies.
    if all(_is_i1(t) for t in producer.result_types):
        return True
    body = producer.body.block
    if body.first_op is body.last_op:
        return True
    iterators = _iterators(consumer)
    parallel = "reduction" not in iterators
    # A producer that reads none of its operands (linalg.index, tensor.extract) fuses into any parallel op.
    if parallel and not any(arg.uses for arg in body.args):
        return True
    if len(producer.results) != 1 or not producer.results[0].has_one_use():
        return False
    if is_bit_extend_op(consumer) and not consumer.results[0].has_one_use():
        return False
    if not options.fuse_truncate_ops and _is_bit_truncate_op(producer):
        unary_elementwise = parallel and len(consumer.inputs) == 1
        if not _is_bit_truncate_op(consumer) and not unary_elementwise:
            return False
    if not parallel:
        if not _is_permutation(_maps(consumer)[index]):
            return False
        if not options.fuse_multi_reduction and iterators.count("reduction") != 1:
            return False
        if contraction_dims(consumer) is not None or _is_convolution(consumer):
            return False
    return True


def _is_convolution(op: linalg.GenericOp) -> bool:
    """A reduction whose input reads a loop sum (``d0 + d3``): the shape of every convolution."""
    return any(
        not isinstance(r, AffineDimExpr) for m in _maps(op)[: len(op.inputs)] for r in m.results
    ) and "reduction" in _iterators(op)


# ---------------------------------------------------------------------------
# The fusion (MLIR's fuseElementwiseOps)
# ---------------------------------------------------------------------------


def _preserved_results(producer: linalg.GenericOp, consumer: linalg.GenericOp, index: int) -> list[int]:
    """MLIR's getPreservedProducerResults: producer results still needed after the fusion."""
    ignored: set[tuple[int, int]] = {(1, index)}  # (op: 0 producer / 1 consumer, operand index)
    preserved = []
    for number, result in enumerate(producer.results):
        init = len(producer.inputs) + number
        ignored.add((0, init))
        remaining = [
            m
            for which, op in ((0, producer), (1, consumer))
            for i, m in enumerate(_maps(op))
            if (which, i) not in ignored
        ]
        if (
            _uses_operand(producer, init)
            or not _droppable(remaining, producer, consumer)
            or any(use.operation is not consumer for use in result.uses)
        ):
            preserved.append(number)
            ignored.discard((0, init))
    return preserved


def _droppable(remaining: Sequence[AffineMap], producer: linalg.GenericOp, consumer: linalg.GenericOp) -> bool:
    if not remaining:
        return not _iterators(producer) and not _iterators(consumer)
    # MLIR inverts the concatenation of maps with different loop counts as one map of the larger count.
    return _bounds_computable(remaining, max(m.num_dims for m in remaining))


def _fuse(consumer: linalg.GenericOp, index: int, rewriter: PatternRewriter) -> None:
    value = consumer.operands[index]
    assert isinstance(value, OpResult)
    producer = value.owner
    assert isinstance(producer, linalg.GenericOp)
    preserved = _preserved_results(producer, consumer, index)
    result_map = _maps(producer)[len(producer.inputs) + value.index]
    consumer_map = _maps(consumer)[index]
    consumer_maps = _maps(consumer)
    producer_maps = [
        _producer_map_in_fused_loops(producer, i, result_map, consumer_map) for i in range(len(producer.operands))
    ]
    n_in = len(consumer.inputs)
    inputs = [*consumer.inputs[:index], *producer.inputs, *consumer.inputs[index + 1 :]]
    maps = [*consumer_maps[:index], *producer_maps[: len(producer.inputs)], *consumer_maps[index + 1 : n_in]]
    outputs = [producer.outputs[i] for i in preserved] + list(consumer.outputs)
    maps += [producer_maps[len(producer.inputs) + i] for i in preserved] + consumer_maps[n_in:]
    result_types = [producer.result_types[i] for i in preserved] + list(consumer.result_types)

    producer_block, consumer_block = producer.body.block, consumer.body.block
    p_args, c_args = producer_block.args, consumer_block.args
    ordered = [
        *c_args[:index],
        *p_args[: len(producer.inputs)],
        *c_args[index + 1 : n_in],
        *(p_args[len(producer.inputs) + i] for i in preserved),
        *c_args[n_in:],
    ]
    block = Block(arg_types=[a.type for a in ordered])
    mapping: dict[SSAValue, SSAValue] = {}
    for old, new in zip(ordered, block.args):
        new.name_hint = old.name_hint
        mapping[old] = new
    fused_index_ops: list[Operation] = []
    if any(isinstance(o, linalg.IndexOp) for o in producer_block.ops):
        # The producer's loops in the consumer's: consumer_map composed with the inverse of its result map.
        to_producer = _inverse(result_map).compose(consumer_map)
        loops = [linalg.IndexOp(d) for d in range(consumer_map.num_dims)]
        for loop in loops:  # MLIR creates them at the producer's location
            loop.location = producer.location
        fused_index_ops += loops
        for op in producer_block.ops:
            if isinstance(op, linalg.IndexOp):
                expr = to_producer.results[op.dim.value.data]
                if isinstance(expr, AffineDimExpr):
                    mapping[op.result] = loops[expr.position].result
                else:  # pragma: no cover - a permutation's inverse composed stays a bare dim
                    raise AssertionError("expected a dim")
    for op in fused_index_ops:
        block.add_op(op)
    yielded = producer_block.last_op
    assert isinstance(yielded, linalg.YieldOp)
    for op in producer_block.ops:
        if op is yielded or isinstance(op, linalg.IndexOp):
            continue
        block.add_op(op.clone(value_mapper=mapping))
    produced = yielded.operands[value.index]
    mapping[c_args[index]] = mapping.get(produced, produced)
    consumer_yield = consumer_block.last_op
    assert isinstance(consumer_yield, linalg.YieldOp)
    for op in consumer_block.ops:
        if op is not consumer_yield:
            block.add_op(op.clone(value_mapper=mapping))
    values = [mapping.get(yielded.operands[i], yielded.operands[i]) for i in preserved]
    values += [mapping.get(v, v) for v in consumer_yield.operands]
    fused_yield = linalg.YieldOp(*values)
    fused_yield.location = consumer_yield.location
    block.add_op(fused_yield)

    fused = linalg.GenericOp(
        inputs,
        outputs,
        Region(block),
        [AffineMapAttr(m) for m in maps],
        consumer.iterator_types,
        result_types,
    )
    fused.location = consumer.location
    rewriter.insert(fused, InsertPoint.before(consumer))
    for number, fused_result in zip(preserved, fused.results):
        producer.results[number].replace_uses_with_if(fused_result, lambda use: use.operation is not consumer)
    consumer_results = fused.results[len(preserved) :]
    rewriter.replace(consumer, [], list(consumer_results))
    if all(not r.uses for r in producer.results):
        rewriter.erase(producer)


class FuseElementwiseOps(RewritePattern):
    """Fuse the first fusable producer of a generic's inputs into it (MLIR's FuseElementwiseOps)."""

    def __init__(self, options: ElementwiseOpFusionPass):
        self.options = options

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter, /) -> None:
        for index in range(len(op.inputs)):
            if _elementwise_fusable(op, index) and _iree_allows(op, index, self.options):
                _fuse(op, index, rewriter)
                return


# ---------------------------------------------------------------------------
# The clean-ups of the same pattern set
# ---------------------------------------------------------------------------


class FoldFillWithGenericOp(RewritePattern):
    """A ``linalg.fill`` input read by the body: the body reads the fill's scalar instead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter, /) -> None:
        if not _has_tensor_semantics(op):
            return
        for index, value in enumerate(op.inputs):
            fill = value.owner if isinstance(value, OpResult) else None
            if not isinstance(fill, linalg.FillOp) or not _uses_operand(op, index):
                continue
            scalar = fill.inputs[0]
            arg = op.body.block.args[index]
            if scalar.type != arg.type:
                continue  # MLIR would cast; mini-iree leaves it alone
            arg.replace_all_uses_with(scalar)
            rewriter.handle_operation_modification(op)


def _splat_scalar(value: SSAValue) -> IntegerAttr | FloatAttr | None:
    constant = value.owner if isinstance(value, OpResult) else None
    if not isinstance(constant, arith.ConstantOp):
        return None
    attr = constant.value
    if isinstance(attr, IntegerAttr | FloatAttr):
        return attr
    if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(value.type, TensorType):
        values = attr.get_values()
        if values and all(v == values[0] for v in values):
            element = value.type.get_element_type()
            if isinstance(element, IntegerType):
                return IntegerAttr(int(values[0]), element)
            return FloatAttr(float(values[0]), element)  # type: ignore[arg-type]
    return None


class FoldScalarOrSplatConstant(RewritePattern):
    """A splat constant input becomes an ``arith.constant`` scalar in the body (MLIR's pattern)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter, /) -> None:
        if not _has_tensor_semantics(op):
            return
        maps = _maps(op)
        for index, value in enumerate(op.inputs):
            scalar = _splat_scalar(value)
            if scalar is None:
                continue
            kept = [i for i in range(len(op.operands)) if i != index]
            if not _bounds_computable([maps[i] for i in kept], maps[0].num_dims):
                return
            constant = arith.ConstantOp(scalar)
            constant.location = value.owner.location  # type: ignore[union-attr]
            rewriter.insert(constant, InsertPoint.before(op))
            body = op.body.clone()
            block = body.block
            block.args[index].replace_all_uses_with(constant.result)
            constant.result.name_hint = None  # MLIR's `%cst`, not the block argument's name
            block.erase_arg(block.args[index])
            fused = linalg.GenericOp(
                [v for i, v in enumerate(op.inputs) if i != index],
                list(op.outputs),
                body,
                [AffineMapAttr(maps[i]) for i in kept],
                op.iterator_types,
                list(op.result_types),
            )
            fused.location = op.location
            rewriter.replace(op, fused)
            return


class RemoveOutsDependency(RewritePattern):
    """An ``outs`` the body never reads becomes a ``tensor.empty`` of its shape (MLIR's pattern)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter, /) -> None:
        if not _has_tensor_semantics(op):
            return
        changed = False
        for number, value in enumerate(op.outputs):
            index = len(op.inputs) + number
            if _uses_operand(op, index) or not isinstance(value.type, TensorType):
                continue
            if isinstance(value.owner, tensor.EmptyOp):
                continue
            sizes: list[SSAValue] = []
            for dim, extent in enumerate(value.type.get_shape()):
                if extent < 0:
                    position = arith.ConstantOp.from_int_and_width(dim, IndexType())
                    size = tensor.DimOp(value, position.result)
                    position.location = size.location = op.location
                    rewriter.insert([position, size], InsertPoint.before(op))
                    sizes.append(size.result)
            empty = tensor.EmptyOp(sizes, value.type)
            rewriter.insert(empty, InsertPoint.before(op))
            for new in empty.walk():
                new.location = op.location
            op.operands[index] = empty.results[0]
            changed = True
        if changed:
            rewriter.handle_operation_modification(op)


class DeduplicateAndRemoveDeadOperandsAndResults(RewritePattern):
    """Drop unread inputs, inputs repeated with the same map and unused results (MLIR's pattern)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter, /) -> None:
        if not _has_tensor_semantics(op):
            return
        maps = _maps(op)
        num_dims = len(_iterators(op))
        n_in = len(op.inputs)
        dropped: set[int] = set()
        # Inputs: drop the unread ones while the loop bounds stay computable; merge repeats.
        first_of: dict[tuple[SSAValue, AffineMap], int] = {}
        replaced_by: dict[int, int] = {}
        for index in range(n_in):
            if not _uses_operand(op, index):
                remaining = [maps[i] for i in range(len(maps)) if i not in dropped and i != index]
                if _bounds_computable(remaining, num_dims):
                    dropped.add(index)
                    continue
            key = (op.operands[index], maps[index])
            if key in first_of:
                dropped.add(index)
                replaced_by[index] = first_of[key]
            else:
                first_of[key] = index
        # Results: drop an unused one whose init the body does not read.
        dead_results: list[int] = []
        for number in range(len(op.outputs)):
            index = n_in + number
            if op.results[number].uses or _uses_operand(op, index):
                continue
            remaining = [maps[i] for i in range(len(maps)) if i not in dropped and i != index]
            if _bounds_computable(remaining, num_dims) and len(dead_results) + 1 < len(op.outputs):
                dropped.add(index)
                dead_results.append(number)
        if not dropped:
            return
        body = op.body.clone()
        block = body.block
        for index, first in replaced_by.items():
            block.args[index].replace_all_uses_with(block.args[first])
        yielded = block.last_op
        assert isinstance(yielded, linalg.YieldOp)
        if dead_results:
            kept_values = [v for n, v in enumerate(yielded.operands) if n not in dead_results]
            new_yield = linalg.YieldOp(*kept_values)
            new_yield.location = yielded.location
            block.insert_op_before(new_yield, yielded)
            block.erase_op(yielded)
        for index in sorted(dropped, reverse=True):
            block.erase_arg(block.args[index])
        kept = [i for i in range(len(maps)) if i not in dropped]
        new_op = linalg.GenericOp(
            [op.operands[i] for i in kept if i < n_in],
            [op.operands[i] for i in kept if i >= n_in],
            body,
            [AffineMapAttr(maps[i]) for i in kept],
            op.iterator_types,
            [t for n, t in enumerate(op.result_types) if n not in dead_results],
        )
        new_op.location = op.location
        rewriter.insert(new_op, InsertPoint.before(op))
        results: list[SSAValue | None] = []
        live = iter(new_op.results)
        for number in range(len(op.results)):
            results.append(None if number in dead_results else next(live))
        for old, new in zip(op.results, results):
            if new is not None:
                old.replace_all_uses_with(new)
        rewriter.erase(op)


@dataclass(frozen=True)
class ElementwiseOpFusionPass(ModulePass):
    """Fuse elementwise ``linalg.generic`` producers into their generic consumers, as IREE's dispatch creation."""

    name = "iree-dispatch-creation-elementwise-op-fusion"

    intra_dispatch: bool = False
    fuse_multi_reduction: bool = True
    fuse_truncate_ops: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    FuseElementwiseOps(self),
                    FoldFillWithGenericOp(),
                    FoldScalarOrSplatConstant(),
                    RemoveOutsDependency(),
                    DeduplicateAndRemoveDeadOperandsAndResults(),
                ]
            ),
            apply_recursively=True,
        ).rewrite_module(op)

