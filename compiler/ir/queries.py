"""Questions passes ask of IR, answered once for every pass.

* a module's functions (``function_ops``);
* bit widths of element types (``element_bit_width``);
* op classification as IREE and MLIR define it: ``is_bit_extend_op``
  (IREE's ``isBitExtendOp``), ``is_broadcasting_op`` (IREE's
  ``isBroadcastingOp``) and ``is_broadcast_op_interface`` (MLIR's
  ``isaBroadcastOpInterface``).

Dynamic sizes are xDSL's ``DYNAMIC_INDEX`` and projected permutations
``AffineMap.is_projected_permutation``; nothing here repeats them.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import FixedBitwidthType, IndexType, ModuleOp, TensorType, UnregisteredOp
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap

from mini_iree.dialects import linalg

__all__ = [
    "element_bit_width",
    "function_ops",
    "is_bit_extend_op",
    "is_broadcast_op_interface",
    "is_broadcasting_op",
]


def function_ops(module: ModuleOp) -> list[Operation]:
    """Every ``func.func`` and ``util.func`` of the module (nested modules included)."""
    from mini_iree.dialects import util

    return [op for op in module.walk() if isinstance(op, (func.FuncOp, util.FuncOp))]


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
