"""Dynamic sizes of a collapsed tensor, as IR: the product of each group's source sizes.

IREE writes such a size as ``affine.apply affine_map<()[s0, s1] -> (s0 * s1)>``;
xDSL 0.74's affine maps cannot hold a product of symbols, so mini-iree builds
it from ``arith.muli`` (one per factor, then one by the static part).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, LocationAttr
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

__all__ = ["collapsed_dynamic_sizes"]


def collapsed_dynamic_sizes(
    source_shape: Sequence[int],
    source_dims: Sequence[SSAValue],
    groups: Sequence[Sequence[int]],
    point: InsertPoint,
    location: LocationAttr | None = None,
) -> list[SSAValue]:
    """The dynamic sizes of ``source_shape`` (dynamic sizes ``source_dims``) collapsed by
    ``groups``, one per group holding a dynamic size, built at ``point`` (at ``location``:
    that of the reshape the sizes are for)."""

    def insert(*ops: Operation) -> None:
        if location is not None:
            for new in ops:
                new.location = location
        Rewriter.insert_op(ops, point)

    dynamic = iter(source_dims)
    sizes: list[SSAValue | int] = [next(dynamic) if d == DYNAMIC_INDEX else d for d in source_shape]
    dims: list[SSAValue] = []
    for group in groups:
        static = 1
        product: SSAValue | None = None
        for d in group:
            part = sizes[d]
            if isinstance(part, int):
                static *= part
                continue
            if product is None:
                product = part
            else:
                mul = arith.MuliOp(product, part)
                insert(mul)
                product = mul.result
        if product is None:
            continue
        if static != 1:
            constant = arith.ConstantOp(IntegerAttr(static, IndexType()))
            mul = arith.MuliOp(product, constant.result)
            insert(constant, mul)
            product = mul.result
        dims.append(product)
    return dims
