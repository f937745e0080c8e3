"""Which producers a ``flow.dispatch.region`` recomputes instead of capturing, and the cloning itself.

IREE keeps these in Flow's RegionOpUtils: ``isClonableIntoDispatchOp`` decides
which ops are cheap enough to recompute in every dispatch that reads them
(constants, ``tensor.empty``, fills, scalar arithmetic, bit extends...), and
``cloneProducersToRegion`` clones the clonable producers of a region's
captured values, transitively, to the start of its body. Form-dispatch-regions
asks the first question (a clonable op is never a root nor fused as a
producer); clone-producers-into-dispatch-regions does the cloning.

The cloning is linear in the size of the region plus the clonable producers
it reaches: uses are found by walking the region's body, never by walking all
uses of a producer (one ``linalg.fill`` may feed every matmul of a program).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, auto

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue

from mini_iree.compiler.analysis.device_analysis import DeviceAnalysis, lookup_affinity
from mini_iree.compiler.era import EraProfile
from mini_iree.compiler.ir.dense_elements import is_splat
from mini_iree.compiler.ir.queries import element_bit_width, is_bit_extend_op, nested_ops, nested_ops_post_order
from mini_iree.compiler.ir.memo import Memo
from mini_iree.compiler.ir.xdsl_internals import operand_tuple
from mini_iree.dialects import flow

__all__ = [
    "INLINE_CONSTANT_MAX_BYTES",
    "clone_producers_to_region",
    "clones_bit_extends",
    "is_clonable_into_dispatch_op",
    "mask_or_indices_producers",
]

# IREE's `iree-flow-inline-constants-max-byte-length`: larger tensor constants
# stay outside and are captured (later hoisted to globals).
INLINE_CONSTANT_MAX_BYTES = 256

# The dialects whose ops may ever be cloned (IREE's `isUnclonableOp` allow list).
_CLONABLE_DIALECTS = frozenset({"affine", "arith", "complex", "iree_encoding", "iree_linalg_ext", "linalg", "tensor"})

# Ops always cloned: index arithmetic, shapes and cheap tensor producers.
_ALWAYS_CLONED = frozenset(
    {
        "affine.apply",
        "arith.index_cast",
        "linalg.fill",
        "tensor.empty",
        "tensor.extract",
        "tensor.extract_slice",
        "complex.create",
        "iree_encoding.unset_encoding",
        "iree_linalg_ext.gather",
    }
)


def _is_int_or_float(type_: Attribute) -> bool:
    """MLIR's ``Type::isIntOrFloat`` (``index`` is neither)."""
    return isinstance(type_, IntegerType | AnyFloat)


# Operands IREE always recomputes in a dispatch under aggressive fusion: an
# attention's mask (big, made from a small tensor) and a scatter's indices.
_MASK_OR_INDICES = (("iree_linalg_ext.attention", 4), ("iree_linalg_ext.scatter", 1))


def mask_or_indices_producers(root: Operation) -> set[Operation]:
    """Ops under ``root`` that compute an attention mask or scatter indices (one walk)."""
    found: set[Operation] = set()
    for op in nested_ops(root):
        for name, index in _MASK_OR_INDICES:
            if op.name == name and index < len(op.operands) and isinstance(op.operands[index], OpResult):
                found.add(op.operands[index].op)
    return found


def _computes_mask_or_indices(op: Operation) -> bool:
    return any(
        (use.operation.name, use.index) in _MASK_OR_INDICES for result in op.results for use in result.uses
    )


def _is_clonable_constant(op: Operation) -> bool:
    if INLINE_CONSTANT_MAX_BYTES == 0 or len(op.results) != 1:
        return False
    type_ = op.results[0].type
    if not isinstance(type_, TensorType):
        return True  # a scalar (integer, index, float or complex)
    value = getattr(op, "value", None)
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    if is_splat(value):
        return True
    bits = element_bit_width(type_, index_width=64)
    return bits is not None and type_.element_count() * bits // 8 <= INLINE_CONSTANT_MAX_BYTES


class _Kind(Enum):
    """What an op's name alone says about cloning it (the name belongs to the op's class)."""

    NEVER = auto()  # another dialect, or tensor.insert_slice
    ALWAYS = auto()
    CONSTANT = auto()  # clonable when small enough
    ARITH = auto()  # clonable on scalars
    OTHER = auto()  # clonable only as a bit extend, or as an attention mask or scatter indices


# The kind is the class's (``name`` and dialect are class attributes; each
# unregistered op name has a class of its own).
_CLONE_KINDS: Memo[type[Operation], _Kind] = Memo("clonable_into_dispatch.clone_kind", limit=None)


def _clone_kind(op: Operation) -> _Kind:
    dialect = op.dialect_name()
    if dialect not in _CLONABLE_DIALECTS or op.name == "tensor.insert_slice":
        return _Kind.NEVER
    if op.name in _ALWAYS_CLONED:
        return _Kind.ALWAYS
    if op.name in ("arith.constant", "complex.constant"):
        return _Kind.CONSTANT
    return _Kind.ARITH if dialect == "arith" else _Kind.OTHER


# IREE 3.13 keeps bit extends in dispatches of their own on these CPUs (see `clones_bit_extends`).
_BIT_EXTEND_DISPATCH_ARCHS = ("x86_64", "aarch64")


def clones_bit_extends(function: Operation, devices: DeviceAnalysis, era: EraProfile) -> bool:
    """Whether bit-extend ops are recomputed in the dispatches of ``function`` that read them.

    The walkthrough's IREE always clones them (a dequantization is cheap next
    to the matmul it feeds, and cloning keeps the wide tensor from being
    materialized). IREE 3.13 does not when the function's device (its
    ``#hal.device.affinity``) has exactly one executable target and that target
    is an llvm-cpu one for x86_64 or aarch64: there the extend forms a dispatch
    of its own, as measured against ``iree-compile`` 3.13 (riscv, wasm, VMVX,
    GPUs and devices with several targets still clone).
    """
    if not era.cpu_bit_extends_dispatched:
        return True
    targets = devices.executable_targets(lookup_affinity(function))
    if len(targets) != 1 or targets[0].backend.data != "llvm-cpu":
        return True
    triple = targets[0].get_config("target_triple")
    return not (isinstance(triple, StringAttr) and triple.data.split("-")[0] in _BIT_EXTEND_DISPATCH_ARCHS)


def is_clonable_into_dispatch_op(
    op: Operation,
    aggressive: bool = False,
    mask_or_indices: set[Operation] | None = None,
    bit_extends: bool = True,
) -> bool:
    """IREE's ``isClonableIntoDispatchOp``: ``op`` is recomputed in each dispatch that reads it.

    ``aggressive`` (IREE's ``ClonableIntoDispatchOptions::aggressive``) also
    clones what computes an attention mask or scatter indices; a caller asking
    about many ops passes those producers (:func:`mask_or_indices_producers`)
    so that no op's uses are walked. ``bit_extends`` is :func:`clones_bit_extends`
    for the op's function.
    """
    kind = _CLONE_KINDS.lookup(type(op), _clone_kind, op)
    if kind is _Kind.NEVER:
        return False
    if kind is _Kind.ALWAYS or (bit_extends and is_bit_extend_op(op)):
        return True
    if aggressive and (op in mask_or_indices if mask_or_indices is not None else _computes_mask_or_indices(op)):
        return True
    if kind is _Kind.CONSTANT:
        return _is_clonable_constant(op)
    return (
        kind is _Kind.ARITH
        and all(_is_int_or_float(v.type) for v in op.operands)
        and all(_is_int_or_float(v.type) for v in op.results)
    )


# ---------------------------------------------------------------------------
# Cloning (IREE's getCloneableOps / cloneProducersToRegion)
# ---------------------------------------------------------------------------


def _defined_above(value: SSAValue, region_op: Operation) -> bool:
    owner = value.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    return op is None or not region_op.is_ancestor(op)


def _blocks_inside(op: Operation) -> set[Block]:
    """Every block of ``op``'s regions and of the ops nested in them."""
    blocks: set[Block] = set()
    for nested in nested_ops(op):
        for region in nested.regions:
            blocks.update(region.blocks)
    return blocks


def _uses_defined_above(region_op: flow.DispatchRegionOp) -> dict[SSAValue, list[tuple[Operation, int]]]:
    """Values the body reads from above, in MLIR's ``getUsedValuesDefinedAbove`` order
    (a post-order walk), each with its uses ``(user, operand index)`` in the body."""
    # A value is defined inside the region op when its block is one of the
    # region op's (nested) blocks: one set lookup per operand instead of a
    # walk up the parents of its definition.
    inside = _blocks_inside(region_op)
    uses: dict[SSAValue, list[tuple[Operation, int]]] = {}
    for block in region_op.body.blocks:
        for top in block.ops:
            for op in nested_ops_post_order(top) if top.regions else (top,):
                # The tuple itself: `operands` wraps it in a new view per call.
                for index, operand in enumerate(operand_tuple(op)):
                    owner = operand.owner
                    if isinstance(owner, Block):
                        above = owner not in inside
                    else:
                        above = owner is not region_op and owner.parent not in inside
                    if above:
                        uses.setdefault(operand, []).append((op, index))
    return uses


def _has_unfusable_use(value: SSAValue, region_op: Operation, uses: Sequence[tuple[Operation, int]]) -> bool:
    """IREE's ``hasUnfusableUseInDispatch``: an index the region op itself reads (a host-side
    shape), or the destination of a ``tensor.insert_slice`` in the region."""
    if isinstance(value.type, IndexType) and value in operand_tuple(region_op):
        return True
    return any(user.name == "tensor.insert_slice" and index == 1 for user, index in uses)


def _cloneable_ops(
    region_op: flow.DispatchRegionOp,
    uses: dict[SSAValue, list[tuple[Operation, int]]],
    aggressive: bool,
    mask_or_indices: set[Operation] | None,
) -> list[Operation]:
    """IREE's ``getCloneableOps``: the clonable producers of captured values, transitively."""
    result: list[Operation] = []
    visited: set[SSAValue] = set()
    worklist = list(uses)
    while worklist:
        value = worklist.pop()
        if value in visited:
            continue
        visited.add(value)
        if not isinstance(value, OpResult):
            continue
        producer = value.op
        if not is_clonable_into_dispatch_op(producer, aggressive, mask_or_indices):
            continue
        if _has_unfusable_use(value, region_op, uses.get(value, ())):
            continue
        result.append(producer)
        worklist.extend(operand_tuple(producer))
        if producer.regions:
            for nested in nested_ops(producer)[1:]:
                worklist.extend(v for v in nested.operands if _defined_above(v, producer))
    return result


def _reads(op: Operation, unscheduled: set[Operation]) -> bool:
    """``op`` (or its body) reads a result of an op in ``unscheduled``."""
    for nested in nested_ops(op) if op.regions else (op,):
        for operand in operand_tuple(nested):
            if isinstance(operand, OpResult) and operand.op in unscheduled and operand.op is not op:
                return True
    return False


def _topological_sort(ops: list[Operation]) -> None:
    """MLIR's ``computeTopologicalSorting``, in place: ready ops swap to the front, pass after pass."""
    unscheduled = set(ops)
    next_scheduled = 0
    while unscheduled:
        scheduled = False
        for i in range(next_scheduled, len(ops)):
            if _reads(ops[i], unscheduled):
                continue
            scheduled = True
            unscheduled.discard(ops[i])
            ops[i], ops[next_scheduled] = ops[next_scheduled], ops[i]
            next_scheduled += 1
        if not scheduled:  # a cycle: not possible in SSA form, keep the rest as they are
            return


def _is_flat(op: Operation) -> bool:
    return not op.regions and not op.successors


def _clone_flat(op: Operation, mapping: dict[SSAValue, SSAValue]) -> Operation:
    """``op.clone(value_mapper=mapping)`` for an op without regions or successors.

    The same op xDSL's ``clone`` builds (mapped operands, result types, copies
    of the attributes and properties, location, result names, results added to
    ``mapping``), built in one step: most clonable producers (``tensor.empty``,
    constants, index arithmetic) are such ops, cloned once per dispatch.
    """
    clone = op.create(
        operands=tuple(mapping.get(v, v) for v in operand_tuple(op)),
        result_types=op.result_types,
        attributes=op.attributes.copy(),
        properties=op.properties.copy(),
        location=op.location,
    )
    for old, new in zip(op.results, clone.results, strict=True):
        mapping[old] = new
        new.name_hint = old.name_hint
    return clone


def _clone_round(region_op: flow.DispatchRegionOp, aggressive: bool, mask_or_indices: set[Operation] | None) -> None:
    """Clone the clonable producers of the region's captured values."""
    uses = _uses_defined_above(region_op)
    producers = _cloneable_ops(region_op, uses, aggressive, mask_or_indices)
    if not producers:
        return
    _topological_sort(producers)
    # IREE clones them in reverse order, each to the start of the body's entry
    # block (which dominates the others): they end up in topological order there.
    body = region_op.body.blocks[0]
    anchor = body.first_op
    mapping: dict[SSAValue, SSAValue] = {}
    for producer in producers:
        # `clone` maps the producer's results to the clone's in `mapping` and
        # gives them the producers' names.
        clone = _clone_flat(producer, mapping) if _is_flat(producer) else producer.clone(value_mapper=mapping)
        if anchor is None:
            body.add_op(clone)
        else:
            body.insert_op_before(clone, anchor)
    for value, value_uses in uses.items():
        replacement = mapping.get(value)
        if replacement is None:
            continue
        for user, index in value_uses:
            user.operands[index] = replacement


def clone_producers_to_region(
    region_op: flow.DispatchRegionOp, aggressive: bool = False, mask_or_indices: set[Operation] | None = None
) -> None:
    """IREE's ``cloneProducersToRegion``: recompute clonable producers in the region.

    The originals stay where they are (their other users still read them);
    erasing those left dead is the caller's business. ``mask_or_indices``: see
    :func:`is_clonable_into_dispatch_op`.

    One round, as in IREE: the clonable producers are gathered transitively, so
    a second round would find none. (It would see the same candidates, minus
    those cloned, and judge each the same way: whether an op is clonable does
    not depend on its uses, and the clones add no ``tensor.insert_slice``
    destination nor region operand that could change the verdict.)
    """
    _clone_round(region_op, aggressive, mask_or_indices)
