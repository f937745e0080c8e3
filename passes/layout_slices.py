"""``iree-stream-layout-slices``: turn ``stream.resource.pack`` into offset arithmetic.

Each pack op is replaced by the arithmetic that lays its slices out, as
IREE does (``compiler/analysis/slice_packing.py``): slices of a constant
size first, greedily, at constant offsets; then the others, bucketed by their
size value, slices with disjoint lifetimes sharing a bin, every new bin
starting at the running offset, which then moves past the bin's size aligned
to 64 bytes (IREE's default minimum offset and range alignment); the total
length is the final offset.

IREE builds ``util.align`` and lets canonicalization fold the alignments it
can prove: an alignment of a value already known to be a multiple of 64
(a packed tile of ``ceildivsi(M, 128) * 128 * 4 * ...`` bytes) folds away, so
the walkthrough's RHS sits at exactly the LHS's byte size. The same folding
happens here as the arithmetic is built (``OffsetDivisibility``); an
alignment it cannot prove is ``(x + 63) / 64 * 64``.

The interpreter's ``stream.resource.pack`` lays slices out the same way, so
the pass keeps every program's results.

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/LayoutSlices.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.offset_divisibility import OffsetDivisibility
from mini_iree.compiler.analysis.slice_packing import ALIGNMENT, dynamic_bins, pack_static
from mini_iree.dialects import stream

__all__ = ["LayoutSlicesPass"]

class _Emitter:
    def __init__(self, anchor: Operation, divisibility: OffsetDivisibility):
        self.point = InsertPoint.before(anchor)
        self.location = anchor.location
        self.divisibility = divisibility
        self.constants: dict[int, SSAValue] = {}

    def insert(self, op: Operation) -> SSAValue:
        op.location = self.location
        Rewriter.insert_op(op, self.point)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        if value not in self.constants:
            self.constants[value] = self.insert(arith.ConstantOp(IntegerAttr(value, IndexType())))
        return self.constants[value]

    @staticmethod
    def constant_value(value: SSAValue) -> int | None:
        if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
            attr = value.op.value
            if isinstance(attr, IntegerAttr):
                return attr.value.data
        return None

    def add(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        a, b = self.constant_value(lhs), self.constant_value(rhs)
        if a is not None and b is not None:
            return self.constant(a + b)
        if a == 0:
            return rhs
        if b == 0:
            return lhs
        return self.insert(arith.AddiOp(lhs, rhs))

    def align(self, value: SSAValue, alignment: int) -> SSAValue:
        """``util.align`` as canonicalization leaves it: gone when the value is known to be aligned."""
        if (known := self.constant_value(value)) is not None:
            return self.constant((known + alignment - 1) // alignment * alignment)
        divisor = self.divisibility.divisor(value)
        if divisor == 0 or divisor % alignment == 0:
            return value
        bumped = self.insert(arith.AddiOp(value, self.constant(alignment - 1)))
        quotient = self.insert(arith.DivUIOp(bumped, self.constant(alignment)))
        return self.insert(arith.MuliOp(quotient, self.constant(alignment)))


def _layout(pack: stream.ResourcePackOp, divisibility: OffsetDivisibility) -> None:
    emit = _Emitter(pack, divisibility)
    offset: SSAValue = pack.offset if pack.offset is not None else emit.constant(0)
    intervals = pack.intervals
    sizes = list(pack.dynamic_slice_sizes)
    offsets: list[SSAValue | None] = [None] * len(sizes)
    # Constant sizes first, packed greedily at compile time.
    static = [i for i, size in enumerate(sizes) if emit.constant_value(size) is not None]
    if static:
        static_offsets, high = pack_static(
            [intervals[i] for i in static], [emit.constant_value(sizes[i]) or 0 for i in static]
        )
        for index, static_offset in zip(static, static_offsets):
            offsets[index] = emit.add(offset, emit.constant(static_offset))
        offset = emit.add(offset, emit.constant(high))
    # Then the others, one bin after the other.
    dynamic = [i for i in range(len(sizes)) if i not in static]
    for members in dynamic_bins([intervals[i] for i in dynamic], [sizes[i] for i in dynamic]):
        bin_offset = offset
        for member in members:
            offsets[dynamic[member]] = bin_offset
        slice_size = emit.align(sizes[dynamic[members[0]]], ALIGNMENT)
        offset = emit.align(emit.add(offset, slice_size), ALIGNMENT)
    total = emit.align(offset, ALIGNMENT)
    Rewriter.replace_op(pack, [], [total, *offsets])  # type: ignore[list-item]


@dataclass(frozen=True)
class LayoutSlicesPass(ModulePass):
    """Replaces each ``stream.resource.pack`` by the offset arithmetic of its slices."""

    name = "iree-stream-layout-slices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        divisibility = OffsetDivisibility()
        for pack in [o for o in op.walk() if isinstance(o, stream.ResourcePackOp)]:
            _layout(pack, divisibility)
