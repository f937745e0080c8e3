"""Which of two ops of a block comes first, answered in constant time while the block changes.

xDSL's ``is_before_in_block`` walks the block from one op to the other, and a
pass that numbers the block once and starts again after every move pays the
whole block per move: on a chain of N matmuls, forming N dispatch regions then
costs N^2. MLIR keeps an order index per op (``Operation::isBeforeInBlock``)
and, when an op is inserted, gives it a number between its neighbours';
:class:`ProgramOrder` does the same. Its user says which ops moved
(:meth:`ProgramOrder.forget`): a moved op, or a new one, gets a number from the
neighbours it has now. Where MLIR numbers the whole block again when two
neighbours leave no room, this gives a fraction: a position once given never
changes while its op stays put, so callers may keep positions and compare them
with positions asked for later.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from xdsl.ir import Operation

__all__ = ["ProgramOrder"]

# Room left between consecutive ops when a block is numbered, for ops placed between them later.
_STRIDE = 1 << 16


class ProgramOrder:
    """Program order of ops within their blocks: ``position(a) < position(b)`` iff ``a`` is before ``b``.

    Positions of ops of different blocks are not comparable. Every op moved or
    inserted since it was last asked about must be passed to :meth:`forget`
    (erased ops need not be: nothing asks about them again).
    """

    def __init__(self) -> None:
        self._index: dict[Operation, int | Fraction] = {}

    def forget(self, ops: Iterable[Operation]) -> None:
        """``ops`` moved (or were created): their positions come from their new neighbours."""
        index = self._index
        for op in ops:
            index.pop(op, None)

    def position(self, op: Operation) -> int | Fraction:
        known = self._index.get(op)
        if known is not None:
            return known
        # The run of unnumbered ops around `op` (moved together), between two numbered neighbours.
        earlier: list[Operation] = []
        before = op.prev_op
        while before is not None and before not in self._index:
            earlier.append(before)
            before = before.prev_op
        run = [*reversed(earlier), op]
        after = op.next_op
        while after is not None and after not in self._index:
            run.append(after)
            after = after.next_op
        low = self._index[before] if before is not None else None
        high = self._index[after] if after is not None else None
        if low is None and high is None:
            low, high = -_STRIDE, _STRIDE * len(run)
        elif low is None:
            low = high - _STRIDE * (len(run) + 1)  # type: ignore[operator]
        elif high is None:
            high = low + _STRIDE * (len(run) + 1)
        step = (high - low) // (len(run) + 1)  # type: ignore[operator]
        if step < 1:
            # No room between the neighbours: numbers between them, exactly.
            step = Fraction(high - low, len(run) + 1)  # type: ignore[operator]
        for k, member in enumerate(run, 1):
            self._index[member] = low + k * step
        return self._index[op]
