"""What is known about integer values on the host: unsigned bounds and a divisor.

IREE answers this with two data-flow analyses run over the functions that
dispatch work: MLIR's ``IntegerRangeAnalysis`` (every arith op infers its
result range) and its own ``IntegerDivisibilityAnalysis``. Passes such as
``iree-stream-annotate-dispatch-assumptions`` then turn the facts about a
dispatch's operands into ``util.assume.int`` inside the dispatched function.

This module computes the same facts for the ops host programs are made of,
walking each value's producers (host code here is straight-line, so no fixed
point is needed): constants, ``hal.buffer_view.dim`` (a dimension is at most
2^53 - 1), ``util.assume.int``, the arith integer ops, casts, ``select`` and
``affine.apply``. Anything else (function arguments, loads, sizes computed by
ops it does not know) is unknown: the full range and divisor 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from mini_iree.compiler.ir.queries import element_bit_width
from mini_iree.dialects.arith import IndexCastUIOp

__all__ = ["MAX_DIM_VALUE", "IntegerFacts", "UnsignedRange", "bit_width"]

MAX_DIM_VALUE = (1 << 53) - 1
"""The largest tensor dimension IREE assumes (``hal.buffer_view.dim``'s range)."""


def bit_width(type_: Attribute) -> int | None:
    """The width integer facts are computed in: 64 for ``index``, the width of an integer type."""
    if not isinstance(type_, IndexType | IntegerType):
        return None
    return element_bit_width(type_, index_width=64)


@dataclass(frozen=True)
class UnsignedRange:
    """``[umin, umax]`` of a ``width``-bit value read as unsigned."""

    umin: int
    umax: int
    width: int

    @staticmethod
    def full(width: int) -> UnsignedRange:
        return UnsignedRange(0, (1 << width) - 1, width)

    @property
    def is_full(self) -> bool:
        """Whether nothing is known (MLIR's "the range has no meaning")."""
        return self.umin == 0 and self.umax == (1 << self.width) - 1

    def fits_signed(self) -> bool:
        """Whether every value is non-negative when read as signed (then signed ops act as unsigned ones)."""
        return self.umax < 1 << (self.width - 1)

    def clamp(self, umin: int, umax: int) -> UnsignedRange:
        """``[umin, umax]`` if it fits the width, else the full range (the operation may wrap)."""
        if umin < 0 or umax > (1 << self.width) - 1 or umin > umax:
            return UnsignedRange.full(self.width)
        return UnsignedRange(umin, umax, self.width)

    def union(self, other: UnsignedRange) -> UnsignedRange:
        return UnsignedRange(min(self.umin, other.umin), max(self.umax, other.umax), self.width)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _constant_int(value: SSAValue) -> int | None:
    """The value of an integer or index ``arith.constant``, as unsigned bits, or None."""
    if not isinstance(value, OpResult) or not isinstance(value.op, arith.ConstantOp):
        return None
    attr = value.op.value
    if not isinstance(attr, IntegerAttr) or (width := bit_width(value.type)) is None:
        return None
    return attr.value.data % (1 << width)


class IntegerFacts:
    """Memoized unsigned ranges and divisors of SSA values (see the module docstring)."""

    def __init__(self) -> None:
        self._ranges: dict[SSAValue, UnsignedRange] = {}
        self._divisors: dict[SSAValue, int] = {}

    # -- ranges ------------------------------------------------------------

    def range(self, value: SSAValue) -> UnsignedRange | None:
        """The unsigned range of an integer/index value; None for other types."""
        width = bit_width(value.type)
        if width is None:
            return None
        if (known := self._ranges.get(value)) is None:
            known = self._infer_range(value, width)
            self._ranges[value] = known
        return known

    def _infer_range(self, value: SSAValue, width: int) -> UnsignedRange:
        full = UnsignedRange.full(width)
        if not isinstance(value, OpResult):
            return full
        op = value.op
        if (constant := _constant_int(value)) is not None:
            return UnsignedRange(constant, constant, width)
        if op.name == "hal.buffer_view.dim":
            return full.clamp(0, MAX_DIM_VALUE)
        if op.name == "util.assume.int":
            return self._assumed_range(op, value.index, width)
        operand_ranges = [self.range(o) for o in op.operands]
        if any(r is None for r in operand_ranges):
            return full
        ranges: list[UnsignedRange] = operand_ranges  # type: ignore[assignment]
        if isinstance(op, arith.SelectOp):
            return ranges[1].union(ranges[2])
        if isinstance(op, arith.IndexCastOp | IndexCastUIOp):
            source = ranges[0]
            # Widening a value that is non-negative either way, or narrowing one that fits, keeps it.
            if isinstance(op, arith.IndexCastOp) and not source.fits_signed() and width > source.width:
                return full
            return full.clamp(source.umin, source.umax)
        if isinstance(op, arith.ExtUIOp):
            return full.clamp(ranges[0].umin, ranges[0].umax)
        if len(ranges) != 2:
            return full
        a, b = ranges
        if isinstance(op, arith.AddiOp):
            return full.clamp(a.umin + b.umin, a.umax + b.umax)
        if isinstance(op, arith.MuliOp):
            return full.clamp(a.umin * b.umin, a.umax * b.umax)
        if isinstance(op, arith.SubiOp):
            return full.clamp(a.umin - b.umax, a.umax - b.umin)
        if isinstance(op, arith.MaxUIOp):
            return full.clamp(max(a.umin, b.umin), max(a.umax, b.umax))
        if isinstance(op, arith.MinUIOp):
            return full.clamp(min(a.umin, b.umin), min(a.umax, b.umax))
        signed_is_unsigned = a.fits_signed() and b.fits_signed()
        if signed_is_unsigned and isinstance(op, arith.MaxSIOp):
            return full.clamp(max(a.umin, b.umin), max(a.umax, b.umax))
        if signed_is_unsigned and isinstance(op, arith.MinSIOp):
            return full.clamp(min(a.umin, b.umin), min(a.umax, b.umax))
        if b.umin == 0:  # a division that may divide by zero
            return full
        if isinstance(op, arith.DivUIOp) or (
            signed_is_unsigned and isinstance(op, arith.DivSIOp | arith.FloorDivSIOp)
        ):
            return full.clamp(a.umin // b.umax, a.umax // b.umin)
        if isinstance(op, arith.CeilDivUIOp) or (signed_is_unsigned and isinstance(op, arith.CeilDivSIOp)):
            return full.clamp(_ceil_div(a.umin, b.umax), _ceil_div(a.umax, b.umin))
        return full

    @staticmethod
    def _assumed_range(op: Operation, index: int, width: int) -> UnsignedRange:
        """IREE's ``AssumeIntOp::inferResultRanges``: the union of the assumptions of one operand."""
        row = op.operand_assumptions(index)  # type: ignore[attr-defined]
        umins = [a.min for a in row]
        umaxs = [a.max for a in row]
        umin = 0 if any(v is None for v in umins) else min(umins)
        umax = (1 << width) - 1 if any(v is None for v in umaxs) else max(umaxs)
        return UnsignedRange.full(width).clamp(umin, umax)

    # -- divisibility ------------------------------------------------------

    def divisor(self, value: SSAValue) -> int:
        """The largest number known to divide the value (1 if nothing is known, 0 if it is always 0)."""
        if bit_width(value.type) is None:
            return 1
        if (known := self._divisors.get(value)) is None:
            known = self._infer_divisor(value)
            self._divisors[value] = known
        return known

    def _infer_divisor(self, value: SSAValue) -> int:
        if not isinstance(value, OpResult):
            return 1
        op = value.op
        if (constant := _constant_int(value)) is not None:
            return constant
        if op.name == "util.assume.int":
            divisors = [a.divisor for a in op.operand_assumptions(value.index)]  # type: ignore[attr-defined]
            if any(d is None for d in divisors):
                return 1
            result = 0
            for d in divisors:
                result = gcd(result, d)
            return result or 1
        if isinstance(op, arith.MuliOp):
            return self.divisor(op.lhs) * self.divisor(op.rhs)
        if isinstance(op, arith.DivUIOp):
            lhs, rhs = self.divisor(op.lhs), _constant_int(op.rhs)
            return lhs // rhs if rhs and lhs % rhs == 0 else 1
        if isinstance(op, arith.SelectOp):
            return gcd(self.divisor(op.lhs), self.divisor(op.rhs))
        if op.name == "affine.apply":
            return self._affine_divisor(op)
        return 1

    def _affine_divisor(self, op: Operation) -> int:
        """IREE's ``AffineExprDivisibilityFinder`` on the result of ``affine.apply``."""
        map_attr = op.properties.get("map")
        if not isinstance(map_attr, AffineMapAttr) or len(map_attr.data.results) != 1:
            return 1
        map_ = map_attr.data
        operands = list(op.operands)
        dims = [self.divisor(v) for v in operands[: map_.num_dims]]
        symbols = [self.divisor(v) for v in operands[map_.num_dims :]]

        def visit(expr: AffineExpr) -> int:
            if isinstance(expr, AffineConstantExpr):
                return abs(expr.value)
            if isinstance(expr, AffineDimExpr):
                return dims[expr.position]
            if isinstance(expr, AffineSymExpr):
                return symbols[expr.position]
            if not isinstance(expr, AffineBinaryOpExpr):
                return 1
            if expr.kind == AffineBinaryOpKind.Add:
                return gcd(visit(expr.lhs), visit(expr.rhs))
            if expr.kind == AffineBinaryOpKind.Mul:
                return visit(expr.lhs) * visit(expr.rhs)
            if not isinstance(expr.rhs, AffineConstantExpr) or expr.rhs.value == 0:
                return 1
            divisor = abs(expr.rhs.value)
            lhs = visit(expr.lhs)
            if expr.kind == AffineBinaryOpKind.Mod:
                return 0 if lhs % divisor == 0 else gcd(lhs, divisor)
            return lhs // divisor if lhs % divisor == 0 else 1

        return visit(map_.results[0])
