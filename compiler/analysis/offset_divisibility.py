"""What divides the host's resource offsets and sizes: products, sums and aligned values.

Resource offsets are sums of aligned slice sizes, and slice sizes are
products of padded dims (``ceildivsi(M, 128) * 128 * 4 * ...``).
``IntegerFacts.divisor`` knows products, constants and assumptions; this adds
sums and differences (the gcd of their operands), which the packed offsets of
``iree-stream-layout-slices`` are made of, as IREE's integer divisibility
analysis does for ``arith.addi``/``subi``.
"""

from __future__ import annotations

from math import gcd

from xdsl.dialects import arith
from xdsl.ir import OpResult, SSAValue

from mini_iree.compiler.analysis.integer_facts import IntegerFacts

__all__ = ["OffsetDivisibility"]


class OffsetDivisibility:
    """Memoized divisors of index values (1 when nothing is known, 0 for a value always 0)."""

    def __init__(self, facts: IntegerFacts | None = None):
        self.facts = facts if facts is not None else IntegerFacts()
        self._known: dict[SSAValue, int] = {}

    def divisor(self, value: SSAValue) -> int:
        if (known := self._known.get(value)) is not None:
            return known
        known = self._infer(value)
        self._known[value] = known
        return known

    def _infer(self, value: SSAValue) -> int:
        if isinstance(value, OpResult):
            op = value.op
            if isinstance(op, arith.AddiOp | arith.SubiOp):
                return gcd(self.divisor(op.lhs), self.divisor(op.rhs))
            if isinstance(op, arith.MuliOp):
                return self.divisor(op.lhs) * self.divisor(op.rhs)
        return self.facts.divisor(value)
