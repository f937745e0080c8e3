"""`linalg.index` in a generic that now runs on packed tiles.

A generic materialized on packed operands iterates over the output's packed
dims, so `linalg.index d` no longer names logical dim `d`. IREE's
lowerGenericOpWithResolvedLayouts (Codegen/ExternalInterfaces/Utils.cpp,
`computePackedIndex`) rebuilds it from the packed loops:

    untiled dim:  outer
    tiled dim:    outer * tile + inner

where `inner` combines the loops of the tile's swizzle pieces, innermost piece
first, each scaled by the sizes of the pieces inside it:

    inner = p_last + p_(last-1) * size_last + ...

Index constants go to the top of the function, as MLIR's folder puts them.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.dialects import linalg

Source = tuple[int, int | None]
"""A packed loop's logical dim and which piece of its tile (None: the outer dim)."""


def remap_index_ops(
    body: Region,
    entry: Block,
    loop_of_source: dict[Source, int],
    piece_sizes: dict[int, tuple[int, ...]],
) -> None:
    """Replace each `linalg.index d` of `body` by its value computed from the packed loops.

    `loop_of_source` gives the new loop of (dim, piece); `piece_sizes` the
    sizes of each tiled dim's pieces, outermost first. Constants are created
    once each at the start of `entry`.
    """
    constants: dict[int, SSAValue] = {}

    def constant(value: int, like: linalg.IndexOp) -> SSAValue:
        if value not in constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            op.location = like.location
            Rewriter.insert_op(op, InsertPoint.at_start(entry))
            constants[value] = op.result
        return constants[value]

    for index_op in [op for op in body.walk() if isinstance(op, linalg.IndexOp)]:
        index_op.result.replace_all_uses_with(_packed_index(index_op, loop_of_source, piece_sizes, constant))
        index_op.detach()
        index_op.erase()


def _packed_index(
    index_op: linalg.IndexOp,
    loop_of_source: dict[Source, int],
    piece_sizes: dict[int, tuple[int, ...]],
    constant: Callable[[int, linalg.IndexOp], SSAValue],
) -> SSAValue:
    """The logical index of `index_op`'s dim, built before it from the packed loops."""
    point = InsertPoint.before(index_op)

    def emit(op: Operation) -> SSAValue:
        op.location = index_op.location
        Rewriter.insert_op(op, point)
        return op.results[0]

    dim = index_op.dim.value.data
    value = emit(linalg.IndexOp(loop_of_source[(dim, None)]))
    sizes = piece_sizes.get(dim)
    if not sizes:
        return value
    inner: SSAValue | None = None
    stride = 1
    for piece in reversed(range(len(sizes))):
        piece_index = emit(linalg.IndexOp(loop_of_source[(dim, piece)]))
        if stride > 1:
            piece_index = emit(arith.MuliOp(piece_index, constant(stride, index_op)))
        # IREE starts from 0; `0 + x` folds to `x`.
        inner = piece_index if inner is None else emit(arith.AddiOp(inner, piece_index))
        stride *= sizes[piece]
    assert inner is not None
    outer = emit(arith.MuliOp(value, constant(stride, index_op)))
    return emit(arith.AddiOp(outer, inner))
