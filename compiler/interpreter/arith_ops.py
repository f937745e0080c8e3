"""``arith`` on numpy (``math`` is in ``math_ops.py``): exact integer wrap-around, signed/unsigned views, IEEE floats.

Every op works on scalars and elementwise on arrays alike (tensors and vectors
of scalars, and the whole-array block arguments of vectorized linalg bodies).

Signless integers are stored in signed numpy dtypes (``i8`` -> ``int8``); an op
that reads its operands unsigned (``divui``, ``extui``, ``cmpi ult``...) views
the same bits as the unsigned dtype of that width. ``i1`` is stored as
``bool``; read signed it is 0 or -1, as in MLIR. Results are computed in the
storage dtype, whose two's-complement wrap-around is exactly MLIR's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerType, ShapedType
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Attribute, Operation

from xdsl.dialects import arith, ub

from mini_iree.dialects.arith import IndexCastUIOp, ScalingExtFOp, ScalingTruncFOp
from mini_iree.compiler.interpreter.core import (
    InterpreterError,
    constant_value,
    element_type,
    numpy_dtype,
    scalar_of,
)


def _width(type_: Attribute) -> int:
    return 64 if isinstance(type_, IndexType) else type_.width.data  # type: ignore[attr-defined]


def _signed(value: Any, type_: Attribute) -> np.ndarray:
    """The integer ``value`` of ``type_`` read as a signed number."""
    array = np.asarray(value)
    width = _width(type_)
    if width == 1:
        return -array.astype(np.int8)
    return array.astype(np.dtype(f"i{width // 8}"), copy=False)


def _unsigned(value: Any, type_: Attribute) -> np.ndarray:
    """The integer ``value`` of ``type_`` read as an unsigned number (same bits)."""
    array = np.asarray(value)
    width = _width(type_)
    if width == 1:
        return array.astype(np.uint8)
    return array.astype(np.dtype(f"u{width // 8}"))


def _result(value: Any, type_: Attribute) -> Any:
    """Wrap an integer/float result to ``type_``'s storage (modulo 2**width for integers)."""
    elem = element_type(type_)
    if isinstance(elem, IntegerType) and elem.width.data == 1:
        value = np.asarray(value)
        if value.dtype != np.bool_:
            value = (value & 1).astype(np.bool_)
    elif isinstance(elem, (IntegerType, IndexType)):
        value = np.asarray(value)
        if value.dtype.kind == "f":
            value = value.astype(np.int64)
        elif isinstance(elem, IntegerType):
            value = value.astype(numpy_dtype(elem))
    return scalar_of(value, elem)


def _int_binary(op: Operation, args: tuple[Any, ...], fn, *, unsigned: bool = False) -> tuple[Any]:
    elem = element_type(op.result.type)  # type: ignore[attr-defined]
    read = _unsigned if unsigned else _signed
    with np.errstate(all="ignore"):
        value = fn(read(args[0], elem), read(args[1], elem))
    return (_result(value, op.result.type),)  # type: ignore[attr-defined]


def _check_divisor(op: Operation, divisor: np.ndarray) -> None:
    if np.any(divisor == 0):
        raise InterpreterError(op, "division by zero")


def _div_trunc(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Division rounding toward zero (C semantics), exact in integers."""
    q = a // b
    return q + ((q < 0) & (q * b != a))


def _float_binary(op: Operation, args: tuple[Any, ...], fn) -> tuple[Any]:
    dtype = numpy_dtype(element_type(op.result.type))  # type: ignore[attr-defined]
    with np.errstate(all="ignore"):
        value = fn(np.asarray(args[0], dtype), np.asarray(args[1], dtype))
    return (_result(np.asarray(value).astype(dtype, copy=False), op.result.type),)  # type: ignore[attr-defined]


# cmpi predicates, in MLIR's enum order: (read unsigned?, comparison)
_CMPI = [
    (False, np.equal),
    (False, np.not_equal),
    (False, np.less),
    (False, np.less_equal),
    (False, np.greater),
    (False, np.greater_equal),
    (True, np.less),
    (True, np.less_equal),
    (True, np.greater),
    (True, np.greater_equal),
]


def _cmpf(predicate: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MLIR's 16 float predicates: ordered (o*) are false and unordered (u*) true on NaN."""
    if predicate == 0:
        return np.zeros(np.broadcast(a, b).shape, dtype=bool)
    if predicate == 15:
        return np.ones(np.broadcast(a, b).shape, dtype=bool)
    unordered = np.isnan(a) | np.isnan(b)
    if predicate == 7:  # ord
        return ~unordered
    if predicate == 14:  # uno
        return unordered
    compare = {
        1: np.equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal, 6: np.not_equal,
        8: np.equal, 9: np.greater, 10: np.greater_equal, 11: np.less, 12: np.less_equal, 13: np.not_equal,
    }[predicate]
    result = compare(a, b)
    return (result | unordered) if predicate >= 8 else (result & ~unordered)


def _cast(op: Operation, value: Any) -> Any:
    return _result(value, op.result.type)  # type: ignore[attr-defined]


def _float_to_int(op: Operation, value: Any, unsigned: bool) -> Any:
    """fptosi/fptoui: round toward zero; out-of-range values are poison in MLIR."""
    out = element_type(op.result.type)  # type: ignore[attr-defined]
    width = _width(out)
    with np.errstate(all="ignore"):
        truncated = np.trunc(np.asarray(value, dtype=np.float64))
        if unsigned:
            wide = truncated.astype(np.uint64 if width == 64 else np.int64)
        else:
            wide = truncated.astype(np.int64)
    return _result(wide, op.result.type)  # type: ignore[attr-defined]


@register_impls
class ArithFunctions(InterpreterFunctions):
    """Implementations of the ``arith`` ops."""

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args: tuple[Any, ...]):
        return (constant_value(op, op.value, op.result.type),)

    @impl(ub.PoisonOp)
    def run_poison(self, interpreter: Interpreter, op: ub.PoisonOp, args: tuple[Any, ...]):
        # Any value refines poison: zero, of the result's type.
        type_ = op.result.type
        if isinstance(type_, ShapedType):
            return (np.zeros(tuple(type_.get_shape()), dtype=numpy_dtype(type_.get_element_type())),)
        return (scalar_of(0, type_),)

    # -- integer arithmetic -----------------------------------------------

    @impl(arith.AddiOp)
    def run_addi(self, interpreter, op, args):
        return _int_binary(op, args, np.add)

    @impl(arith.SubiOp)
    def run_subi(self, interpreter, op, args):
        return _int_binary(op, args, np.subtract)

    @impl(arith.MuliOp)
    def run_muli(self, interpreter, op, args):
        return _int_binary(op, args, np.multiply)

    @impl(arith.DivSIOp)
    def run_divsi(self, interpreter, op, args):
        _check_divisor(op, np.asarray(args[1]))
        return _int_binary(op, args, _div_trunc)

    @impl(arith.DivUIOp)
    def run_divui(self, interpreter, op, args):
        _check_divisor(op, np.asarray(args[1]))
        return _int_binary(op, args, np.floor_divide, unsigned=True)

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(self, interpreter, op, args):
        _check_divisor(op, np.asarray(args[1]))
        return _int_binary(op, args, np.floor_divide)

    @impl(arith.CeilDivSIOp)
    def run_ceildivsi(self, interpreter, op, args):
        _check_divisor(op, np.asarray(args[1]))
        return _int_binary(op, args, lambda a, b: -np.floor_divide(-a, b))

    @impl(arith.CeilDivUIOp)
    def run_ceildivui(self, interpreter, op, args):
        _check_divisor(op, np.asarray(args[1]))
        return _int_binary(op, args, lambda a, b: a // b + (a % b != 0), unsigned=True)

    @impl(arith.RemSIOp)
    def run_remsi(self, interpreter, op, args):
        _check_divisor(op, np.asarray(args[1]))
        return _int_binary(op, args, np.fmod)  # sign of the dividend, as in C

    @impl(arith.RemUIOp)
    def run_remui(self, interpreter, op, args):
        _check_divisor(op, np.asarray(args[1]))
        return _int_binary(op, args, np.remainder, unsigned=True)

    @impl(arith.MinSIOp)
    def run_minsi(self, interpreter, op, args):
        return _int_binary(op, args, np.minimum)

    @impl(arith.MaxSIOp)
    def run_maxsi(self, interpreter, op, args):
        return _int_binary(op, args, np.maximum)

    @impl(arith.MinUIOp)
    def run_minui(self, interpreter, op, args):
        return _int_binary(op, args, np.minimum, unsigned=True)

    @impl(arith.MaxUIOp)
    def run_maxui(self, interpreter, op, args):
        return _int_binary(op, args, np.maximum, unsigned=True)

    @impl(arith.AndIOp)
    def run_andi(self, interpreter, op, args):
        return _int_binary(op, args, np.bitwise_and, unsigned=True)

    @impl(arith.OrIOp)
    def run_ori(self, interpreter, op, args):
        return _int_binary(op, args, np.bitwise_or, unsigned=True)

    @impl(arith.XOrIOp)
    def run_xori(self, interpreter, op, args):
        return _int_binary(op, args, np.bitwise_xor, unsigned=True)

    @impl(arith.ShLIOp)
    def run_shli(self, interpreter, op, args):
        return _int_binary(op, args, np.left_shift, unsigned=True)

    @impl(arith.ShRUIOp)
    def run_shrui(self, interpreter, op, args):
        return _int_binary(op, args, np.right_shift, unsigned=True)

    @impl(arith.ShRSIOp)
    def run_shrsi(self, interpreter, op, args):
        elem = element_type(op.result.type)
        return (_result(_signed(args[0], elem) >> _unsigned(args[1], elem).astype(np.int64), op.result.type),)

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter, op, args):
        unsigned, compare = _CMPI[op.predicate.value.data]
        elem = element_type(op.lhs.type)
        read = _unsigned if unsigned else _signed
        return (_result(compare(read(args[0], elem), read(args[1], elem)), op.result.type),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter, op, args):
        cond, a, b = args
        if np.ndim(cond) == 0:
            return (a if cond else b,)
        return (_result(np.where(cond, a, b), op.result.type),)

    # -- floating point ---------------------------------------------------

    @impl(arith.AddfOp)
    def run_addf(self, interpreter, op, args):
        return _float_binary(op, args, np.add)

    @impl(arith.SubfOp)
    def run_subf(self, interpreter, op, args):
        return _float_binary(op, args, np.subtract)

    @impl(arith.MulfOp)
    def run_mulf(self, interpreter, op, args):
        return _float_binary(op, args, np.multiply)

    @impl(arith.DivfOp)
    def run_divf(self, interpreter, op, args):
        return _float_binary(op, args, np.divide)

    @impl(arith.MaximumfOp)
    def run_maximumf(self, interpreter, op, args):
        return _float_binary(op, args, np.maximum)  # propagates NaN

    @impl(arith.MinimumfOp)
    def run_minimumf(self, interpreter, op, args):
        return _float_binary(op, args, np.minimum)

    @impl(arith.MaxnumfOp)
    def run_maxnumf(self, interpreter, op, args):
        return _float_binary(op, args, np.fmax)  # ignores NaN

    @impl(arith.MinnumfOp)
    def run_minnumf(self, interpreter, op, args):
        return _float_binary(op, args, np.fmin)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter, op, args):
        return (_result(-np.asarray(args[0]), op.result.type),)

    @impl(arith.CmpfOp)
    def run_cmpf(self, interpreter, op, args):
        value = _cmpf(op.predicate.value.data, np.asarray(args[0]), np.asarray(args[1]))
        return (_result(value, op.result.type),)

    # -- casts --------------------------------------------------------------

    @impl(arith.ExtSIOp)
    def run_extsi(self, interpreter, op, args):
        return (_cast(op, _signed(args[0], element_type(op.input.type)).astype(np.int64)),)

    @impl(arith.ExtUIOp)
    def run_extui(self, interpreter, op, args):
        return (_cast(op, _unsigned(args[0], element_type(op.input.type))),)

    @impl(arith.TruncIOp)
    def run_trunci(self, interpreter, op, args):
        return (_cast(op, _unsigned(args[0], element_type(op.input.type))),)

    @impl(arith.IndexCastOp)
    def run_index_cast(self, interpreter, op, args):
        # index -> iN truncates, iN -> index sign-extends.
        return (_cast(op, _signed(args[0], element_type(op.input.type)).astype(np.int64)),)

    @impl(IndexCastUIOp)
    def run_index_castui(self, interpreter, op, args):
        value = _unsigned(args[0], element_type(op.input.type))
        if isinstance(element_type(op.result.type), IndexType):
            value = value.astype(np.int64)  # zero-extended bits, read as a 64-bit index
        return (_cast(op, value),)

    @impl(arith.SIToFPOp)
    def run_sitofp(self, interpreter, op, args):
        dtype = numpy_dtype(element_type(op.result.type))
        return (_cast(op, _signed(args[0], element_type(op.input.type)).astype(dtype)),)

    @impl(arith.UIToFPOp)
    def run_uitofp(self, interpreter, op, args):
        dtype = numpy_dtype(element_type(op.result.type))
        return (_cast(op, _unsigned(args[0], element_type(op.input.type)).astype(dtype)),)

    @impl(arith.FPToSIOp)
    def run_fptosi(self, interpreter, op, args):
        return (_float_to_int(op, args[0], unsigned=False),)

    @impl(arith.FPToUIOp)
    def run_fptoui(self, interpreter, op, args):
        return (_float_to_int(op, args[0], unsigned=True),)

    @impl(arith.ExtFOp)
    def run_extf(self, interpreter, op, args):
        return (_cast(op, np.asarray(args[0]).astype(numpy_dtype(element_type(op.result.type)))),)

    @impl(arith.TruncFOp)
    def run_truncf(self, interpreter, op, args):
        return (_cast(op, np.asarray(args[0]).astype(numpy_dtype(element_type(op.result.type)))),)

    @impl(arith.BitcastOp)
    def run_bitcast(self, interpreter, op, args):
        source = element_type(op.input.type)
        target = element_type(op.result.type)
        if isinstance(source, IntegerType) and source.width.data == 1:
            return (args[0],)
        array = np.ascontiguousarray(np.asarray(args[0], numpy_dtype(source)))
        return (scalar_of(array.view(numpy_dtype(target)), target),)


# -- scaled (MX) casts ------------------------------------------------------------


def _e8m0(scale) -> np.ndarray:
    """A scale as ``f8E8M0FNU`` holds it: the power of two at or below it (its exponent bits)."""
    with np.errstate(all="ignore"):
        return np.exp2(np.floor(np.log2(np.asarray(scale, np.float64))))


@register_impls
class ScalingCastFunctions(InterpreterFunctions):
    """``arith.scaling_extf`` / ``arith.scaling_truncf`` on the element types numpy holds."""

    @impl(ScalingExtFOp)
    def run_scaling_extf(self, interpreter, op, args):
        dtype = numpy_dtype(element_type(op.result.type))
        value = np.asarray(args[0]).astype(np.float64) * _e8m0(args[1])
        return (_result(value.astype(dtype), op.result.type),)

    @impl(ScalingTruncFOp)
    def run_scaling_truncf(self, interpreter, op, args):
        dtype = numpy_dtype(element_type(op.result.type))
        with np.errstate(all="ignore"):
            value = np.asarray(args[0]).astype(np.float64) / _e8m0(args[1])
        return (_result(value.astype(dtype), op.result.type),)


FUNCTIONS = (ArithFunctions, ScalingCastFunctions)

# Scalar integer and index ops also get fast paths giving the same values (run_block uses them).
from mini_iree.compiler.interpreter import arith_scalars  # noqa: E402

arith_scalars.register()
