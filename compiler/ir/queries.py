"""Questions passes ask of IR, answered once for every pass.

* for loops over a whole module: the ops nested in an op, as a list
  (``nested_ops``, ``nested_ops_post_order``), and what an op's class answers
  once for all its ops: traits (``op_has_trait``), ``isinstance``
  (``instance_test``), memory effects (``side_effect_free``,
  ``effect_free_by_class``);
* bit widths of element types (``element_bit_width``);
* op classification as IREE and MLIR define it: ``is_bit_extend_op``
  (IREE's ``isBitExtendOp``), ``is_broadcasting_op`` (IREE's
  ``isBroadcastingOp``) and ``is_broadcast_op_interface`` (MLIR's
  ``isaBroadcastOpInterface``).

A module's functions are listed by ``compiler/analysis/functions.functions``.

Dynamic sizes are xDSL's ``DYNAMIC_INDEX`` and projected permutations
``AffineMap.is_projected_permutation``; nothing here repeats them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import FixedBitwidthType, IndexType, TensorType, UnregisteredOp
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.traits import MemoryEffect, NoMemoryEffect, OpTrait, is_side_effect_free

from mini_iree.compiler.ir.memo import ClassMemo, Memo
from mini_iree.compiler.ir.xdsl_internals import nested_ops, nested_ops_post_order

if TYPE_CHECKING:
    from mini_iree.dialects import linalg

__all__ = [
    "element_bit_width",
    "is_bit_extend_op",
    "is_broadcast_op_interface",
    "is_broadcasting_op",
    "transpose_like_permutation",
    "effect_free_by_class",
    "instance_test",
    "nested_ops",
    "nested_ops_post_order",
    "op_has_trait",
    "side_effect_free",
]


# ``nested_ops`` and ``nested_ops_post_order`` read the linked lists of ops and
# blocks directly (xDSL's ``walk`` nests a generator per op, region and block):
# they live with the other readers of xDSL's internals.

# Traits belong to an op's class (``Operation.has_trait`` is a classmethod), so
# the answer for a class, trait and default never changes.
_CLASS_TRAITS: Memo[tuple[type[Operation], type[OpTrait] | OpTrait, bool], bool] = Memo(
    "queries.op_has_trait", limit=None
)


def _class_has_trait(op_class: type[Operation], trait: type[OpTrait] | OpTrait, value_if_unregistered: bool) -> bool:
    return op_class.has_trait(trait, value_if_unregistered=value_if_unregistered)


def op_has_trait(op: Operation, trait: type[OpTrait] | OpTrait, value_if_unregistered: bool = True) -> bool:
    """``op.has_trait(trait, value_if_unregistered=...)``, remembered per op class."""
    op_class = type(op)
    return _CLASS_TRAITS.lookup(
        (op_class, trait, value_if_unregistered), _class_has_trait, op_class, trait, value_if_unregistered
    )


def instance_test(*classes: type) -> Callable[[object], bool]:
    """``isinstance(x, classes)`` as a function, remembered per class of ``x``.

    xDSL ops are ABCs: ``isinstance`` on one runs the Python-level
    ``ABCMeta.__instancecheck__``. A loop over every op of a module asks one
    of these instead (the answer only depends on the class).
    """
    known: dict[type, bool] = {}

    def test(value: object) -> bool:
        cls = type(value)
        answer = known.get(cls)
        if answer is None:
            answer = known[cls] = issubclass(cls, classes)
        return answer

    return test


# Op classes whose memory-effect traits all report "none" whatever the op
# (``Pure``, ``NoMemoryEffect``): True; classes with no such trait: False;
# classes whose effects depend on the op (``RecursiveMemoryEffect``): None.
_CLASS_EFFECT_FREE: ClassMemo[bool | None] = ClassMemo("queries.effect_free_by_class")
_NO_EFFECTS = NoMemoryEffect.get_effects.__func__  # a trait class that does not override it reports none


def _class_effect_free(op_class: type[Operation]) -> bool | None:
    traits = op_class.get_traits_of_type(MemoryEffect)
    if not traits:
        return False
    if all(getattr(type(t).get_effects, "__func__", None) is _NO_EFFECTS for t in traits):
        return True
    return None


def effect_free_by_class(op: Operation) -> bool | None:
    """What ``op``'s class alone says of its memory effects.

    True: its memory-effect traits report none whatever the op (``Pure``);
    False: it has no memory-effect trait (effects unknown); None: its effects
    depend on the op (``RecursiveMemoryEffect``, conditional effects).
    """
    return _CLASS_EFFECT_FREE.lookup(type(op), _class_effect_free)


def side_effect_free(op: Operation) -> bool:
    """xDSL's ``is_side_effect_free(op)``, answered per class when the op's traits settle it."""
    answer = _CLASS_EFFECT_FREE.lookup(type(op), _class_effect_free)
    return is_side_effect_free(op) if answer is None else answer


def element_bit_width(type_: Attribute, index_width: int | None = None) -> int | None:
    """Bit width of a scalar type, or of a tensor's element type.

    ``index`` has no fixed width; callers that model it as a machine word (integer
    range analysis, fusion's bit-width heuristics) pass ``index_width=64``.
    """
    element = type_.get_element_type() if isinstance(type_, TensorType) else type_
    if isinstance(element, IndexType):
        return index_width
    return element.bitwidth if isinstance(element, FixedBitwidthType) else None


def _all_parallel(op: linalg.GenericOp) -> bool:
    return all(it.data.value == "parallel" for it in op.iterator_types.data)


def _op_name(op: Operation) -> str:
    # Ops of dialects mini-iree does not register parse as unregistered ops.
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name  # type: ignore[attr-defined]


def is_bit_extend_op(op: Operation) -> bool:
    """IREE's ``isBitExtendOp``: a ``linalg.generic`` that widens its data (a dequantization).

    HoistEncodingOps moves a ``set_encoding`` up through such an op, and
    HoistIntoGlobals' constant-expression analysis does not hoist one on its own
    (it is cheap to recompute in the consumer's dispatch, and hoisting it would
    store the wide type instead of the narrow one).

    As in IREE (LinalgExt/Utils), the op has one init and only parallel loops;
    among its ranked-tensor inputs of the highest rank, the widest element type
    is narrower than the result's; and its body uses no ``math`` op (those are
    not cheap enough to clone into every consumer). Extra inputs of lower rank,
    such as a per-channel scale, do not matter: ``(x - zero) * scale`` on an
    ``i8`` weight is a bit extend.
    """
    from mini_iree.dialects import linalg  # not at start-up: mini-iree-opt may never need linalg

    if not isinstance(op, linalg.GenericOp) or len(op.outputs) != 1 or not op.res:
        return False
    if not _all_parallel(op):
        return False
    ranked = [v.type for v in op.inputs if isinstance(v.type, TensorType)]
    max_rank = max((t.get_num_dims() for t in ranked), default=0)
    if max_rank == 0:
        return False
    widths = [element_bit_width(t) for t in ranked if t.get_num_dims() == max_rank]
    out_width = element_bit_width(op.res[0].type) if isinstance(op.res[0].type, TensorType) else None
    if out_width is None or any(w is None for w in widths):
        return False
    if max(w for w in widths if w is not None) >= out_width:
        return False
    return not any(_op_name(body_op).startswith("math.") for body_op in op.body.block.ops)


def _is_identity(affine_map: AffineMap) -> bool:
    return affine_map.num_symbols == 0 and affine_map == AffineMap.identity(affine_map.num_dims)


def is_broadcasting_op(op: Operation) -> bool:
    """IREE's ``isBroadcastingOp``: ``linalg.broadcast``, or a generic reading one input by a lower-rank
    projected permutation whose body just yields."""
    from mini_iree.dialects import linalg  # not at start-up: mini-iree-opt may never need linalg

    if isinstance(op, linalg.BroadcastOp):
        return True
    if not isinstance(op, linalg.GenericOp):
        return False
    if len(op.inputs) != 1 or len(op.outputs) != 1 or not _all_parallel(op):
        return False
    in_map, out_map = (m.data for m in op.indexing_maps.data)
    if len(in_map.results) >= len(out_map.results):
        return False
    if not in_map.is_projected_permutation() or not _is_identity(out_map):
        return False
    return len(op.body.block.ops) == 1


def is_broadcast_op_interface(op: Operation) -> bool:
    """MLIR's ``isaBroadcastOpInterface`` on a generic: yield the single input, read along fewer, increasing dims."""
    from mini_iree.dialects import linalg  # not at start-up: mini-iree-opt may never need linalg

    if not isinstance(op, linalg.GenericOp):
        return False
    if len(op.inputs) != 1 or len(op.outputs) != 1 or not _all_parallel(op):
        return False
    body_ops = list(op.body.block.ops)
    if len(body_ops) != 1 or tuple(body_ops[0].operands) != (op.body.block.args[0],):
        return False
    in_map, out_map = (m.data for m in op.indexing_maps.data)
    if not _is_identity(out_map) or len(in_map.results) >= len(out_map.results):
        return False
    positions = [e.position if isinstance(e, AffineDimExpr) else -1 for e in in_map.results]
    return all(p >= 0 for p in positions) and all(a < b for a, b in zip(positions, positions[1:]))


def transpose_like_permutation(op: Operation) -> tuple[int, ...] | None:
    """MLIR's ``isaTransposeOpInterface``: the `linalg.transpose` permutation a generic performs, else None.

    The generic must read its single input along a permutation of its (all parallel) loops,
    write its init along the identity and yield the input as it is.
    """
    from mini_iree.dialects import linalg  # not at start-up: mini-iree-opt may never need linalg

    if not isinstance(op, linalg.GenericOp) or len(op.inputs) != 1 or len(op.outputs) != 1:
        return None
    maps = [m.data for m in op.indexing_maps]
    if not _all_parallel(op) or not _is_identity(maps[1]):
        return None
    results = maps[0].results
    if not all(isinstance(r, AffineDimExpr) for r in results):
        return None
    positions = [r.position for r in results]  # type: ignore[union-attr]
    if sorted(positions) != list(range(len(positions))) or len(positions) != maps[0].num_dims:
        return None
    body = op.body.block
    ops = list(body.ops)
    if len(ops) != 1 or ops[0].operands[0] is not body.args[0]:
        return None
    # Input dim k is read at loop positions[k]; a transpose's result dim j is source dim perm[j].
    perm = [0] * len(positions)
    for k, loop in enumerate(positions):
        perm[loop] = k
    return tuple(perm)
