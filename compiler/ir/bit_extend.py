"""IREE's ``isBitExtendOp``: a ``linalg.generic`` that widens its data (a dequantization).

One definition for every pass that asks: HoistEncodingOps moves a
``set_encoding`` up through such an op, and HoistIntoGlobals' constant-expression
analysis does not hoist one on its own (it is cheap to recompute in the consumer's
dispatch, and hoisting it would store the wide type instead of the narrow one).

As in IREE (LinalgExt/Utils), the op has one init and only parallel loops; among
its ranked-tensor inputs of the highest rank, the widest element type is
narrower than the result's; and its body uses no ``math`` op (those are not
cheap enough to clone into every consumer). Extra inputs of lower rank, such as
a per-channel scale, do not matter: ``(x - zero) * scale`` on an ``i8`` weight
is a bit extend.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FixedBitwidthType, TensorType, UnregisteredOp
from xdsl.ir import Attribute, Operation

from mini_iree.dialects import linalg


def _element_bitwidth(type_: Attribute) -> int | None:
    """Bit width of an integer/float tensor's element type (``index`` has none)."""
    if not isinstance(type_, TensorType):
        return None
    element = type_.get_element_type()
    return element.bitwidth if isinstance(element, FixedBitwidthType) else None


def is_bit_extend_op(op: Operation) -> bool:
    if not isinstance(op, linalg.GenericOp) or len(op.outputs) != 1 or not op.res:
        return False
    if any(it.data.value != "parallel" for it in op.iterator_types.data):
        return False
    ranked = [v for v in op.inputs if isinstance(v.type, TensorType)]
    max_rank = max((v.type.get_num_dims() for v in ranked), default=0)  # type: ignore[attr-defined]
    if max_rank == 0:
        return False
    widths = [_element_bitwidth(v.type) for v in ranked if v.type.get_num_dims() == max_rank]  # type: ignore[attr-defined]
    out_width = _element_bitwidth(op.res[0].type)
    if out_width is None or any(w is None for w in widths):
        return False
    if max(w for w in widths if w is not None) >= out_width:
        return False
    return not any(_op_name(body_op).startswith("math.") for body_op in op.body.block.ops)


def _op_name(op: Operation) -> str:
    # mini-iree registers no math dialect: its ops parse as unregistered ops.
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name  # type: ignore[attr-defined]
