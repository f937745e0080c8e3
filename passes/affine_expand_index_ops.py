"""``affine-expand-index-ops``: `affine.linearize_index` / `delinearize_index` as plain index arithmetic.

MLIR's AffineExpandIndexOps.cpp (the ``LowerLinearizeIndexOps`` and
``LowerDelinearizeIndexOps`` patterns), as IREE 3.13's build prints them.

A linearization multiplies each index by its stride, the product of the basis
elements inside it, and sums the products left to right; strides of constant
basis elements are folded into one constant, a dynamic element multiplies the
stride inside it (``overflow<nsw>`` throughout)::

    affine.linearize_index [%i, %j, %k] by (%d, 8, 4)
      -> %i * 32 + %j * 4 + %k

A delinearization divides by the same strides: the outermost result is a floor
division by its stride, the innermost the (non-negative) remainder by the
innermost stride, and each one between the remainder by the stride outside it
divided by its own::

    affine.delinearize_index %x into (4, 8)    (three results)
      -> floordivsi(%x, 32), divsi(mod(%x, 32), 8), mod(%x, 8)

where ``mod(x, s)`` is ``remsi`` plus ``s`` when negative (``cmpi slt`` and
``select``). As MLIR's greedy driver, what no result uses is erased and the
constants end up at the top of the function.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from mini_iree.compiler.ir.constants import hoist_and_unique_constants
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import affine
from mini_iree.dialects import arith as _arith  # noqa: F401 - prints `overflow<nsw, nuw>` as MLIR does

__all__ = ["AffineExpandIndexOpsPass", "LowerDelinearizeIndexOps", "LowerLinearizeIndexOps"]

_NSW = arith.IntegerOverflowAttr([arith.IntegerOverflowFlag.NSW])
_NSW_NUW = arith.IntegerOverflowAttr([arith.IntegerOverflowFlag.NSW, arith.IntegerOverflowFlag.NUW])


class _Builder:
    """Ops emitted before one op, in order; index constants made once per value."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []
        self._constants: dict[int, SSAValue] = {}

    def constant(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self.ops.append(op)
            self._constants[value] = op.result
        return self._constants[value]

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]


def _strides(
    build: _Builder, basis: Sequence[SSAValue | int], flags: arith.IntegerOverflowAttr
) -> list[SSAValue | int]:
    """``strides[i]`` = the product of ``basis[i + 1:]``, a constant while it stays one."""
    strides: list[SSAValue | int] = [1]
    for element in reversed(basis[1:]):
        inner = strides[0]
        if isinstance(element, int) and isinstance(inner, int):
            strides.insert(0, element * inner)
            continue
        lhs = element if not isinstance(element, int) else build.constant(element)
        rhs = inner if not isinstance(inner, int) else build.constant(inner)
        if isinstance(element, int):
            lhs, rhs = rhs, lhs  # the constant on the right, as MLIR's folder puts it
        strides.insert(0, build.add(arith.MuliOp(lhs, rhs, overflow=flags)))
    return strides


def _value(build: _Builder, value: SSAValue | int) -> SSAValue:
    return build.constant(value) if isinstance(value, int) else value


def _basis(op: affine.LinearizeIndexOp | affine.DelinearizeIndexOp) -> list[SSAValue | int]:
    dynamic = iter(op.dynamic_basis)
    return [next(dynamic) if size == DYNAMIC_INDEX else size for size in op.static_basis.get_values()]


class LowerLinearizeIndexOps(RewritePattern):
    """The sum of each index times its stride."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.LinearizeIndexOp, rewriter: PatternRewriter) -> None:
        indices = list(op.multi_index)
        basis = _basis(op)
        if not indices:
            rewriter.replace(op, arith.ConstantOp(IntegerAttr(0, IndexType())))
            return
        if len(basis) == len(indices) - 1:
            basis = [1, *basis]  # no outer bound: only the inner elements make strides
        build = _Builder()
        strides = _strides(build, basis, _NSW)
        terms = [
            index if stride == 1 else build.add(arith.MuliOp(index, _value(build, stride), overflow=_NSW))
            for index, stride in zip(indices, strides)
        ]
        total = terms[0]
        for term in terms[1:]:
            total = build.add(arith.AddiOp(total, term, overflow=_NSW))
        rewriter.replace(op, build.ops, [total])


class LowerDelinearizeIndexOps(RewritePattern):
    """Floor division by the outermost stride, remainders and divisions inside it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.DelinearizeIndexOp, rewriter: PatternRewriter) -> None:
        basis = _basis(op)
        count = len(op.multi_index)
        if count == len(basis):
            basis = basis[1:]  # the outer bound is not a stride
        if count != len(basis) + 1:
            return
        index = op.linear_index
        if count == 1:
            rewriter.replace(op, [], [index])
            return
        build = _Builder()
        strides = _strides(build, [1, *basis], _NSW_NUW)[:-1]

        def mod(stride: SSAValue | int) -> SSAValue:
            # remsi is negative for a negative index: shift it into [0, stride).
            divisor = _value(build, stride)
            remainder = build.add(arith.RemSIOp(index, divisor))
            negative = build.add(arith.CmpiOp(remainder, build.constant(0), "slt"))
            shifted = build.add(arith.AddiOp(remainder, divisor, overflow=_NSW))
            return build.add(arith.SelectOp(negative, shifted, remainder))

        results = [build.add(arith.FloorDivSIOp(index, _value(build, strides[0])))]
        for outer, stride in zip(strides, strides[1:]):
            results.append(build.add(arith.DivSIOp(mod(outer), _value(build, stride))))
        results.append(mod(strides[-1]))
        rewriter.replace(op, build.ops, results)


@dataclass(frozen=True)
class AffineExpandIndexOpsPass(ModulePass):
    """Lowers `affine.linearize_index` and `affine.delinearize_index` to `arith` ops."""

    name = "affine-expand-index-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier([LowerLinearizeIndexOps(), LowerDelinearizeIndexOps()], ctx, dce_enabled=True)
        ).rewrite_module(op)
        hoist_and_unique_constants(op)
