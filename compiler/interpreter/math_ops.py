"""The ``math`` dialect's functions, on scalars or elementwise on arrays.

Named elementwise ops use them (``linalg.exp`` has a ``math.exp`` body). They
follow arith's value conventions (``arith_ops.py``) but live in a module of
their own, registered only for programs that use ``math`` ops: importing xDSL's
``math`` dialect is a noticeable part of the interpreter's start-up.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import math
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

from mini_iree.compiler.interpreter.arith_ops import _result, _signed
from mini_iree.compiler.interpreter.core import element_type, numpy_dtype


def _unary_math(fn):
    def run(self, interpreter, op, args):
        dtype = numpy_dtype(element_type(op.result.type))
        with np.errstate(all="ignore"):
            value = fn(np.asarray(args[0]).astype(np.float32 if dtype.itemsize < 4 else dtype))
        return (_result(np.asarray(value).astype(dtype), op.result.type),)

    return run


def _binary_math(fn):
    def run(self, interpreter, op, args):
        dtype = numpy_dtype(element_type(op.result.type))
        with np.errstate(all="ignore"):
            value = fn(np.asarray(args[0], dtype), np.asarray(args[1], dtype))
        return (_result(np.asarray(value).astype(dtype), op.result.type),)

    return run


def _erf(x: np.ndarray) -> np.ndarray:
    from math import erf

    return np.vectorize(erf, otypes=[np.float64])(x)


_MATH_UNARY = {
    "AbsFOp": np.abs, "CeilOp": np.ceil, "CosOp": np.cos, "ErfOp": _erf, "Exp2Op": np.exp2, "ExpM1Op": np.expm1,
    "ExpOp": np.exp, "FloorOp": np.floor, "Log10Op": np.log10, "Log1pOp": np.log1p, "Log2Op": np.log2,
    "LogOp": np.log, "RoundEvenOp": np.rint, "RoundOp": lambda x: np.trunc(x + np.copysign(0.5, x)),
    "RsqrtOp": lambda x: 1 / np.sqrt(x), "SinOp": np.sin, "SqrtOp": np.sqrt, "TanhOp": np.tanh, "TanOp": np.tan,
    "TruncOp": np.trunc, "AtanOp": np.arctan, "SinhOp": np.sinh, "CoshOp": np.cosh,
}
_MATH_BINARY = {"PowFOp": np.power, "Atan2Op": np.arctan2, "CopySignOp": np.copysign}


class MathFunctions(InterpreterFunctions):
    """Implementations of the ``math`` dialect's float functions."""

    @impl(math.FmaOp)
    def run_fma(self, interpreter, op, args):
        dtype = numpy_dtype(element_type(op.result.type))
        a, b, c = (np.asarray(x, dtype) for x in args)
        return (_result(a * b + c, op.result.type),)

    @impl(math.AbsIOp)
    def run_absi(self, interpreter, op, args):
        elem = element_type(op.result.type)
        return (_result(np.abs(_signed(args[0], elem)), op.result.type),)


for _name, _fn in _MATH_UNARY.items():
    setattr(MathFunctions, f"run_{_name}", impl(getattr(math, _name))(_unary_math(_fn)))
for _name, _fn in _MATH_BINARY.items():
    setattr(MathFunctions, f"run_{_name}", impl(getattr(math, _name))(_binary_math(_fn)))
register_impls(MathFunctions)


FUNCTIONS = (MathFunctions,)
