"""``iree-dispatch-creation-form-dispatch-regions``: group each root op and its fusions into a dispatch.

A dispatch is the unit of work the host launches on the device. This pass picks
root ops (contractions first, then the remaining linalg ops), fuses the
elementwise consumers that read nothing else still to be grouped, and wraps them
in ``flow.dispatch.region -> (tensor<..>{dims}) { ... flow.return }``. Cheap
producers the region reads (``linalg.fill``, ``tensor.empty``, constants) are
then cloned in, as IREE's ``CloneProducersIntoDispatchRegions`` does; an
original left without users is erased, so a producer used only there moves in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.contraction import is_projected_permutation
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.dialects import flow, linalg, tensor, util

# IREE's `iree-flow-inline-constants-max-byte-length`: larger tensor constants
# stay outside and are captured (later hoisted to globals).
INLINE_CONSTANT_MAX_BYTES = 256

# ---------------------------------------------------------------------------
# Op classification
# ---------------------------------------------------------------------------


def _is_tensor_compute(op: Operation) -> bool:
    """A linalg op on tensors that computes something (``linalg.fill`` is cloned, not a root)."""
    if not isinstance(op, LinalgStructuredOperation) or isinstance(op, linalg.FillOp):
        return False
    if not op.results or not all(isinstance(r.type, TensorType) for r in op.results):
        return False
    return all(isinstance(v.type, TensorType) for v in op.outputs)


def _is_contraction(op: Operation) -> bool:
    """A named contraction, or a ``linalg.generic`` with a reduction loop."""
    if isinstance(op, linalg.ContractionOp):
        return True
    if isinstance(op, linalg.GenericOp):
        return any(t.data == IteratorType.REDUCTION for t in op.iterator_types.data)
    return False


def _is_elementwise_generic(op: Operation) -> bool:
    return (
        isinstance(op, linalg.GenericOp)
        and len(op.results) == 1
        and all(t.data == IteratorType.PARALLEL for t in op.iterator_types.data)
    )


def _element_bits(type_: TensorType) -> int | None:
    element = type_.element_type
    if isinstance(element, IntegerType):
        return element.width.data
    if isinstance(element, AnyFloat):
        return element.bitwidth
    if isinstance(element, IndexType):
        return 64
    return None


def _is_clonable(op: Operation) -> bool:
    """Producers cheap enough to recompute in every dispatch that reads them."""
    if isinstance(op, tensor.EmptyOp):
        return True
    if isinstance(op, linalg.FillOp):
        return len(op.results) == 1 and isinstance(op.results[0].type, TensorType)
    if not isinstance(op, arith.ConstantOp):
        return False
    type_ = op.result.type
    if isinstance(type_, IntegerType | IndexType | AnyFloat):
        return True
    value = op.value
    if not isinstance(type_, TensorType) or not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    if value.is_splat():
        return True
    bits = _element_bits(type_)
    return bits is not None and type_.element_count() * bits // 8 <= INLINE_CONSTANT_MAX_BYTES


# ---------------------------------------------------------------------------
# Choosing what goes into one dispatch
# ---------------------------------------------------------------------------


def _single_user(value: SSAValue) -> Operation | None:
    """The one op using ``value`` (possibly several times), or None."""
    users = {id(use.operation): use.operation for use in value.uses}
    return next(iter(users.values())) if len(users) == 1 else None


def _reads_through_permutation(consumer: linalg.GenericOp, value: SSAValue) -> bool:
    """Every operand of ``consumer`` equal to ``value`` is indexed by a permutation of its loops."""
    maps = [m.data for m in consumer.indexing_maps.data]
    for index, operand in enumerate(consumer.operands):
        if operand is not value:
            continue
        indexing = maps[index]
        if len(indexing.results) != indexing.num_dims or not is_projected_permutation(indexing):
            return False
    return True


def _fusable_consumer(
    value: SSAValue, block: Block, blocks_fusion: Callable[[Operation], bool]
) -> Operation | None:
    """The elementwise consumer of ``value`` to fuse into ``value``'s dispatch, if any.

    It must be the only user of ``value``, in the same block, read ``value``
    through a permutation, and read no other value whose producer is still to be
    grouped (``blocks_fusion``): that producer may want the consumer itself.
    """
    consumer = _single_user(value)
    if consumer is None or consumer.parent_block() is not block or not _is_elementwise_generic(consumer):
        return None
    assert isinstance(consumer, linalg.GenericOp)
    if not _reads_through_permutation(consumer, value):
        return None
    for operand in consumer.operands:
        if operand is value or not isinstance(operand, OpResult):
            continue
        producer = operand.op
        if producer.parent_block() is block and blocks_fusion(producer):
            return None
    return consumer


def _fusion_group(root: Operation, blocks_fusion: Callable[[Operation], bool]) -> list[Operation]:
    """``root`` followed by the chain of elementwise consumers fused after it."""
    block = root.parent_block()
    assert block is not None
    group = [root]
    while len(group[-1].results) == 1:
        consumer = _fusable_consumer(group[-1].results[0], block, blocks_fusion)
        if consumer is None:
            break
        group.append(consumer)
    return group


# ---------------------------------------------------------------------------
# Building the region
# ---------------------------------------------------------------------------


def _init_of(value: SSAValue, group: Sequence[Operation]) -> SSAValue:
    """The value outside ``group`` whose shape ``value`` has, following destination operands."""
    while isinstance(value, OpResult):
        op = value.op
        if not (op in group or isinstance(op, linalg.FillOp)):
            break
        outputs = getattr(op, "outputs", ())
        if value.index >= len(outputs):
            break
        value = outputs[value.index]
    return value


def _wrap_in_region(group: Sequence[Operation]) -> flow.DispatchRegionOp:
    """Move ``group`` (in program order) into a new region at the last op's place."""
    last = group[-1]
    point = InsertPoint.before(last)
    dims: list[SSAValue] = []
    for result in last.results:
        dims.extend(get_dynamic_dims(_init_of(result, group), point))
    region_op = flow.DispatchRegionOp([r.type for r in last.results], dims, body=Region(Block()))
    Rewriter.insert_op(region_op, point)
    body = region_op.body.block
    for op in group:
        op.detach()
        body.add_op(op)
    body.add_op(flow.ReturnOp(last.results))
    for result, replacement in zip(last.results, region_op.results):
        result.replace_uses_with_if(replacement, lambda use: not region_op.is_ancestor(use.operation))
        replacement.name_hint = None
    return region_op


def _outside_operands(region_op: flow.DispatchRegionOp) -> Iterable[SSAValue]:
    for op in region_op.body.walk():
        for operand in op.operands:
            if isinstance(operand, OpResult) and not region_op.is_ancestor(operand.op):
                yield operand


def _clonable_producers(region_op: flow.DispatchRegionOp) -> list[Operation]:
    """Clonable ops the region reads, each followed by its own clonable producers (depth first)."""
    found: list[Operation] = []

    def visit(op: Operation) -> None:
        if op in found or not _is_clonable(op):
            return
        found.append(op)
        for operand in op.operands:
            if isinstance(operand, OpResult):
                visit(operand.op)

    for operand in _outside_operands(region_op):
        visit(operand.op)
    return found


def _definitions_first(ops: Sequence[Operation]) -> list[Operation]:
    """``ops`` reordered stably so that each comes after those of ``ops`` it reads."""
    pending = list(ops)
    ordered: list[Operation] = []
    while pending:
        for op in pending:
            reads = {o.op for o in op.operands if isinstance(o, OpResult)}
            if not any(p in reads for p in pending if p is not op):
                ordered.append(op)
                pending.remove(op)
                break
        else:  # a cycle cannot happen in SSA form; keep the rest as they are
            ordered.extend(pending)
            break
    return ordered


def _clone_producers_into(region_op: flow.DispatchRegionOp) -> None:
    """Clone cheap producers to the start of the region; erase originals left unused.

    Producers are placed in reverse order of discovery (IREE clones each to the
    start of the body), which gives ``tensor.empty, arith.constant, linalg.fill``
    for a ``fill(cst, empty)`` init, as IREE prints it.
    """
    producers = _clonable_producers(region_op)
    if not producers:
        return
    mapping: dict[SSAValue, SSAValue] = {}
    body = region_op.body.block
    anchor = body.first_op
    assert anchor is not None
    for op in _definitions_first(list(reversed(producers))):
        clone = op.clone(value_mapper=mapping)
        body.insert_op_before(clone, anchor)
        for old, new in zip(op.results, clone.results):
            mapping[old] = new
    for old, new in mapping.items():
        old.replace_uses_with_if(new, lambda use: region_op.is_ancestor(use.operation))
    # An original may only lose its last user when another original goes.
    remaining = list(producers)
    while dead := [op for op in remaining if all(not r.uses for r in op.results)]:
        for op in dead:
            Rewriter.erase_op(op)
            remaining.remove(op)


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def _form_regions(block: Block) -> None:
    ops = list(block.ops)

    def ungrouped(op: Operation) -> bool:
        return op.parent_block() is block and _is_tensor_compute(op)

    # Contractions claim their consumers first; an elementwise producer is not
    # fused into a contraction's dispatch, so it only blocks fusion later on.
    def pending_contraction(op: Operation) -> bool:
        return ungrouped(op) and _is_contraction(op)

    for op in ops:
        if pending_contraction(op):
            _clone_producers_into(_wrap_in_region(_fusion_group(op, pending_contraction)))
    for op in ops:
        if ungrouped(op):
            _clone_producers_into(_wrap_in_region(_fusion_group(op, ungrouped)))


@dataclass(frozen=True)
class FormDispatchRegionsPass(ModulePass):
    """Wrap each root linalg op, its elementwise consumers and its cheap producers in a ``flow.dispatch.region``.

    Roots are contractions (named ones and ``linalg.generic`` with a reduction),
    then any other linalg op on tensors; an elementwise producer of a
    contraction gets its own region, as in IREE. Only ops directly in a
    function body are considered: ops already in a dispatch region or nested in
    other regions, and ops that are not linalg ops on tensors, are left alone.
    """

    name = "iree-dispatch-creation-form-dispatch-regions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = [f for f in op.walk() if isinstance(f, func.FuncOp | util.FuncOp)]
        for function in functions:
            for block in function.body.blocks:
                _form_regions(block)


__all__ = ["FormDispatchRegionsPass"]
