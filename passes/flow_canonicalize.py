"""``iree-flow-canonicalize``: canonicalization with the flow phase's extra rewrites.

IREE's Flow/Transforms/Canonicalize.cpp runs every dialect's canonicalization
patterns plus three of its own: ``FoldFullInsertSlice`` (an insert of a whole
tensor into an empty or a slice of the same sizes is the inserted tensor),
``AffineApplyLowering`` (``affine.apply`` expanded into ``arith``, as MLIR's
``expandAffineMap`` does) and MLIR's merging of consecutive insert/extract
slices. Here the first two run to a fixed point, then ``canonicalize``; the
slice merging is not done (mini-iree's pipelines leave no such pairs).

The expansion of an affine expression, term by term (MLIR's
``AffineApplyExpander``): ``a + b`` is ``arith.addi``, ``a * c`` is
``arith.muli ... overflow<nsw>``, ``a mod c`` the remainder shifted into
``[0, c)``, ``a floordiv c`` and ``a ceildiv c`` a ``divsi`` of a value
adjusted by the sign of ``a``. A division or remainder by anything but a
positive constant is left alone, as MLIR leaves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import affine, tensor
from mini_iree.dialects import arith as _arith  # noqa: F401 - prints `overflow<nsw>` as MLIR does

__all__ = ["AffineApplyLowering", "FlowCanonicalizePass", "FoldFullInsertSlice"]

_NSW = arith.IntegerOverflowAttr([arith.IntegerOverflowFlag.NSW])


class _Expander:
    """MLIR's ``AffineApplyExpander``: the ops computing one affine expression."""

    def __init__(self, dims: list[SSAValue], symbols: list[SSAValue]):
        self.dims, self.symbols = dims, symbols
        self.ops: list[Operation] = []

    def _add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        return self._add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def visit(self, expr: AffineExpr) -> SSAValue | None:
        if isinstance(expr, AffineConstantExpr):
            return self.constant(expr.value)
        if isinstance(expr, AffineDimExpr):
            return self.dims[expr.position]
        if isinstance(expr, AffineSymExpr):
            return self.symbols[expr.position]
        if not isinstance(expr, AffineBinaryOpExpr):
            return None
        divides = expr.kind in (AffineBinaryOpKind.Mod, AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv)
        if divides and (not isinstance(expr.rhs, AffineConstantExpr) or expr.rhs.value <= 0):
            return None  # MLIR expands only a division by a positive constant
        lhs = self.visit(expr.lhs)
        rhs = self.visit(expr.rhs)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            return self._add(arith.AddiOp(lhs, rhs))
        if expr.kind == AffineBinaryOpKind.Mul:
            return self._add(arith.MuliOp(lhs, rhs, overflow=_NSW))
        zero = self.constant(0)
        if expr.kind == AffineBinaryOpKind.Mod:
            remainder = self._add(arith.RemSIOp(lhs, rhs))
            negative = self._add(arith.CmpiOp(remainder, zero, "slt"))
            shifted = self._add(arith.AddiOp(remainder, rhs))
            return self._add(arith.SelectOp(negative, shifted, remainder))
        if expr.kind == AffineBinaryOpKind.FloorDiv:
            # a < 0 ? -1 - ((-1 - a) / c) : a / c
            minus_one = self.constant(-1)
            negative = self._add(arith.CmpiOp(lhs, zero, "slt"))
            flipped = self._add(arith.SubiOp(minus_one, lhs))
            dividend = self._add(arith.SelectOp(negative, flipped, lhs))
            quotient = self._add(arith.DivSIOp(dividend, rhs))
            flipped_quotient = self._add(arith.SubiOp(minus_one, quotient))
            return self._add(arith.SelectOp(negative, flipped_quotient, quotient))
        # ceildiv: a <= 0 ? -((-a) / c) : (a - 1) / c + 1
        one = self.constant(1)
        non_positive = self._add(arith.CmpiOp(lhs, zero, "sle"))
        negated = self._add(arith.SubiOp(zero, lhs))
        decremented = self._add(arith.SubiOp(lhs, one))
        dividend = self._add(arith.SelectOp(non_positive, negated, decremented))
        quotient = self._add(arith.DivSIOp(dividend, rhs))
        negated_quotient = self._add(arith.SubiOp(zero, quotient))
        incremented = self._add(arith.AddiOp(quotient, one))
        return self._add(arith.SelectOp(non_positive, negated_quotient, incremented))


class AffineApplyLowering(RewritePattern):
    """IREE's pattern of the same name: `affine.apply` as `arith` ops (``expandAffineMap``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ApplyOp, rewriter: PatternRewriter) -> None:
        m = op.map.data
        if len(m.results) != 1:
            return
        operands = list(op.map_operands)
        expander = _Expander(operands[: m.num_dims], operands[m.num_dims :])
        value = expander.visit(m.results[0])
        if value is None:
            return
        rewriter.replace(op, expander.ops, [value])


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    """One entry per dimension: the static value, or the operand standing for it."""
    values = iter(dynamic)
    return [next(values) if v == DYNAMIC_INDEX else v for v in static]


def _slice_parts(
    op: Operation,
) -> tuple[list[int | SSAValue], list[int | SSAValue], list[int | SSAValue]]:
    return (
        _mixed(op.static_offsets.get_values(), op.offsets),  # type: ignore[attr-defined]
        _mixed(op.static_sizes.get_values(), op.sizes),  # type: ignore[attr-defined]
        _mixed(op.static_strides.get_values(), op.strides),  # type: ignore[attr-defined]
    )


class FoldFullInsertSlice(RewritePattern):
    """IREE's pattern of the same name: inserting a whole tensor (zero offsets, unit strides, the
    same type) into a `tensor.empty` or a same-rank `extract_slice` of those sizes is the tensor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.InsertSliceOp, rewriter: PatternRewriter) -> None:
        if op.source.type != op.result.type:
            return
        offsets, sizes, strides = _slice_parts(op)
        if any(o != 0 for o in offsets) or any(s != 1 for s in strides):
            return
        dest = op.dest.owner
        if isinstance(dest, tensor.EmptyOp):
            dest_sizes = dest.get_mixed_sizes()
        elif (
            isinstance(dest, tensor.ExtractSliceOp)
            and dest.result.type.get_num_dims() == dest.source.type.get_num_dims()
        ):
            dest_sizes = _slice_parts(dest)[1]
        else:
            return
        if dest_sizes != sizes:
            return
        rewriter.replace(op, [], [op.source])


@dataclass(frozen=True)
class FlowCanonicalizePass(ModulePass):
    """IREE's flow-phase canonicalization: full inserts folded, `affine.apply` expanded, then `canonicalize`."""

    name = "iree-flow-canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from mini_iree.passes import pass_class

        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier([FoldFullInsertSlice(), AffineApplyLowering()], ctx, dce_enabled=False)
        ).rewrite_module(op)
        pass_class("canonicalize")().apply(ctx, op)
