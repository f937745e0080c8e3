"""Fast paths of ``arith`` ops on scalar integers and indices (see ``core.FAST_PATHS``).

A dispatch's host code and its index computations are chains of scalar ops:
push constants split into 32-bit halves and joined again (``extui``, ``shli``,
``ori``, ``index_castui``, ``trunci``, ``shrui``), sizes multiplied and
divided. The general implementations (``arith_ops.py``) take scalars and
arrays alike through numpy, tens of microseconds per op; these compute the
same values with Python integers in a few.

They give exactly what the general path gives, representation included:

* an ``index`` is a Python ``int``. The general path computes index ops in
  ``int64``, or in ``uint64`` for ops that read their operands unsigned
  (``andi``, ``ori``, ``shli``, ``divui``...), and hands back that value: so
  do these (an unsigned index op can give an int of 2**63 or more);
* an integer of ``iN`` is a numpy scalar of its signed storage dtype
  (``np.int32`` for ``i32``), wrapped modulo 2**N;
* ``cmpi`` gives an ``np.bool_``.

Anything else (arrays, ``i1`` operands, unsigned storage types, an operand of
an unexpected kind, division by zero or overflow, shifts by the width or more)
returns None, and the general implementation runs (and reports errors).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Operation

from mini_iree.compiler.interpreter.core import FAST_PATHS, FastPath, constant_value, numpy_dtype
from mini_iree.dialects.arith import IndexCastUIOp

__all__ = ["register"]


class _Int:
    """How values of one integer type are read and written: width, storage scalar type."""

    __slots__ = ("width", "mask", "half", "scalar", "index")

    def __init__(self, width: int, scalar: type | None):
        self.width = width
        self.mask = (1 << width) - 1
        self.half = 1 << (width - 1)
        self.scalar = scalar  # the numpy scalar type of an iN; None for index
        self.index = scalar is None

    def bits(self, value: Any) -> int | None:
        """The operand's bits as an unsigned int, or None if it is not a scalar of this type."""
        kind = type(value)
        if self.index:
            if kind is not int or not -(1 << 63) <= value < (1 << 64):
                return None
            return value & self.mask
        if kind is not self.scalar:
            return None
        return int(value) & self.mask

    def signed(self, bits: int) -> int:
        return bits - (1 << self.width) if bits & self.half else bits

    def result(self, value: int, unsigned_op: bool = False) -> Any:
        """``value`` wrapped to this type, as the general path represents it."""
        bits = value & self.mask
        if self.index:
            return bits if unsigned_op else self.signed(bits)
        return self.scalar(self.signed(bits))  # type: ignore[misc]


def _int_type(type_: Attribute) -> _Int | None:
    """The integer description of a scalar type, if a fast path handles it (index, signed-storage iN, N >= 8)."""
    if isinstance(type_, IndexType):
        return _Int(64, None)
    if isinstance(type_, IntegerType) and type_.width.data in (8, 16, 32, 64):
        dtype = numpy_dtype(type_)
        if dtype.kind == "i":
            return _Int(type_.width.data, dtype.type)
    return None


# -- binary integer ops ----------------------------------------------------------
# Each function takes the operands read as the op reads them (signed or
# unsigned Python ints, exact) and returns the exact result, or None for a case
# the general path decides (a division by zero or an overflowing division).


def _div_trunc(a: int, b: int, t: _Int) -> int | None:
    if b == 0 or (a == -t.half and b == -1):
        return None
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def _floordiv(a: int, b: int, t: _Int) -> int | None:
    if b == 0 or (a == -t.half and b == -1):
        return None
    return a // b


def _ceildiv_signed(a: int, b: int, t: _Int) -> int | None:
    # The general path negates in the type: -(INT_MIN) wraps; leave that case to it.
    if b == 0 or a == -t.half:
        return None
    return -((-a) // b)


def _rem_signed(a: int, b: int, t: _Int) -> int | None:
    if b == 0 or (a == -t.half and b == -1):
        return None
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def _div_unsigned(a: int, b: int, t: _Int) -> int | None:
    return None if b == 0 else a // b


def _rem_unsigned(a: int, b: int, t: _Int) -> int | None:
    return None if b == 0 else a % b


def _ceildiv_unsigned(a: int, b: int, t: _Int) -> int | None:
    return None if b == 0 else a // b + (a % b != 0)


def _shift_left(a: int, b: int, t: _Int) -> int | None:
    return a << b if b < t.width else None


def _shift_right(a: int, b: int, t: _Int) -> int | None:
    return a >> b if b < t.width else None


# op class -> (reads unsigned?, exact function)
_BINARY: dict[type[Operation], tuple[bool, Callable[[int, int, _Int], int | None]]] = {
    arith.AddiOp: (False, lambda a, b, t: a + b),
    arith.SubiOp: (False, lambda a, b, t: a - b),
    arith.MuliOp: (False, lambda a, b, t: a * b),
    arith.DivSIOp: (False, _div_trunc),
    arith.FloorDivSIOp: (False, _floordiv),
    arith.CeilDivSIOp: (False, _ceildiv_signed),
    arith.RemSIOp: (False, _rem_signed),
    arith.MinSIOp: (False, lambda a, b, t: min(a, b)),
    arith.MaxSIOp: (False, lambda a, b, t: max(a, b)),
    arith.DivUIOp: (True, _div_unsigned),
    arith.RemUIOp: (True, _rem_unsigned),
    arith.CeilDivUIOp: (True, _ceildiv_unsigned),
    arith.MinUIOp: (True, lambda a, b, t: min(a, b)),
    arith.MaxUIOp: (True, lambda a, b, t: max(a, b)),
    arith.AndIOp: (True, lambda a, b, t: a & b),
    arith.OrIOp: (True, lambda a, b, t: a | b),
    arith.XOrIOp: (True, lambda a, b, t: a ^ b),
    arith.ShLIOp: (True, _shift_left),
    arith.ShRUIOp: (True, _shift_right),
}


def _binary(op: Operation) -> FastPath | None:
    t = _int_type(op.result.type)  # type: ignore[attr-defined]
    if t is None:
        return None
    unsigned, fn = _BINARY[type(op)]
    bits, signed, result = t.bits, t.signed, t.result

    def run(args: tuple[Any, ...]) -> tuple[Any] | None:
        a, b = bits(args[0]), bits(args[1])
        if a is None or b is None:
            return None
        if not unsigned:
            a, b = signed(a), signed(b)
        value = fn(a, b, t)
        return None if value is None else (result(value, unsigned),)

    return run


# cmpi predicates, in MLIR's enum order: (reads unsigned?, comparison)
_CMPI: list[tuple[bool, Callable[[int, int], bool]]] = [
    (False, lambda a, b: a == b),
    (False, lambda a, b: a != b),
    (False, lambda a, b: a < b),
    (False, lambda a, b: a <= b),
    (False, lambda a, b: a > b),
    (False, lambda a, b: a >= b),
    (True, lambda a, b: a < b),
    (True, lambda a, b: a <= b),
    (True, lambda a, b: a > b),
    (True, lambda a, b: a >= b),
]


def _cmpi(op: arith.CmpiOp) -> FastPath | None:
    t = _int_type(op.lhs.type)
    predicate = op.predicate.value.data
    if t is None or not 0 <= predicate < len(_CMPI):
        return None
    unsigned, compare = _CMPI[predicate]
    bits, signed = t.bits, t.signed
    true, false = (np.bool_(True),), (np.bool_(False),)

    def run(args: tuple[Any, ...]) -> tuple[Any] | None:
        a, b = bits(args[0]), bits(args[1])
        if a is None or b is None:
            return None
        if not unsigned:
            a, b = signed(a), signed(b)
        return true if compare(a, b) else false

    return run


# -- casts -------------------------------------------------------------------------
# A cast reads its operand signed or unsigned and keeps the low bits the result
# type holds (numpy's C casts); an ``index`` result is the signed 64-bit value.

_CASTS: dict[type[Operation], bool] = {
    arith.ExtUIOp: True,
    arith.ExtSIOp: False,
    arith.TruncIOp: True,
    arith.IndexCastOp: False,
    IndexCastUIOp: True,
}


def _cast(op: Operation) -> FastPath | None:
    source = _int_type(op.operands[0].type)
    target = _int_type(op.results[0].type)
    if source is None or target is None:
        return None
    unsigned = _CASTS[type(op)]
    bits, signed, result = source.bits, source.signed, target.result

    def run(args: tuple[Any, ...]) -> tuple[Any] | None:
        value = bits(args[0])
        if value is None:
            return None
        return (result(value if unsigned else signed(value)),)

    return run


_SCALAR_TYPES = (IntegerType, IndexType, Float16Type, Float32Type, Float64Type, BFloat16Type)


def _constant(op: arith.ConstantOp) -> FastPath | None:
    """A scalar constant's value, made once: ints and numpy scalars are immutable, so every
    run can share it (tensor constants are fresh writable arrays each time: no fast path)."""
    if not isinstance(op.value, (IntegerAttr, FloatAttr)) or not isinstance(op.result.type, _SCALAR_TYPES):
        return None
    value = (constant_value(op, op.value, op.result.type),)
    if np.ndim(value[0]) != 0:
        return None
    return lambda args: value


def _select(op: arith.SelectOp) -> FastPath | None:
    def run(args: tuple[Any, ...]) -> tuple[Any] | None:
        condition = args[0]
        if type(condition) is not np.bool_:
            return None
        return (args[1] if condition else args[2],)

    return run


def register() -> None:
    for op_class in _BINARY:
        FAST_PATHS[op_class] = _binary
    for op_class in _CASTS:
        FAST_PATHS[op_class] = _cast
    FAST_PATHS[arith.CmpiOp] = _cmpi  # type: ignore[assignment]
    FAST_PATHS[arith.ConstantOp] = _constant  # type: ignore[assignment]
    FAST_PATHS[arith.SelectOp] = _select  # type: ignore[assignment]
