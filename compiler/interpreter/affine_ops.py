"""``affine`` index arithmetic, evaluated on Python ints or elementwise on index arrays.

:func:`eval_affine_expr` is also how linalg evaluates indexing maps over a whole
iteration space: dimensions bound to broadcastable ``arange`` grids give the
accessed indices of every point at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from mini_iree.dialects import affine


def eval_affine_expr(expr: AffineExpr, dims: Sequence[Any], symbols: Sequence[Any] = ()) -> Any:
    """The value of ``expr``; ``floordiv``, ``ceildiv`` and ``mod`` round as MLIR does
    (toward -inf, toward +inf, and a non-negative remainder for a positive divisor)."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = eval_affine_expr(expr.lhs, dims, symbols)
        rhs = eval_affine_expr(expr.rhs, dims, symbols)
        kind = expr.kind
        if kind == AffineBinaryOpKind.Add:
            return lhs + rhs
        if kind == AffineBinaryOpKind.Mul:
            return lhs * rhs
        if np.any(np.asarray(rhs) == 0):
            raise ZeroDivisionError(f"division by zero in affine expression {expr}")
        if kind == AffineBinaryOpKind.FloorDiv:
            return lhs // rhs
        if kind == AffineBinaryOpKind.CeilDiv:
            return -((-lhs) // rhs)
        if kind == AffineBinaryOpKind.Mod:
            return lhs % rhs
    raise TypeError(f"unsupported affine expression {expr}")


def eval_affine_map(map_: AffineMap, operands: Sequence[Any]) -> list[Any]:
    """All results of ``map_`` applied to (dims..., symbols...)."""
    dims = operands[: map_.num_dims]
    symbols = operands[map_.num_dims :]
    return [eval_affine_expr(e, dims, symbols) for e in map_.results]


def _static_basis(interpreter: Interpreter, op: Any) -> tuple[int, list[int]]:
    """(number of index operands before the dynamic basis, static basis) of a (de)linearize op,
    read once per op: index loops run these ops every iteration."""
    cache = interpreter.get_data(AffineFunctions, "static_bases", dict)
    known = cache.get(op)
    if known is None:
        count = len(op.operands) - len(op.dynamic_basis)
        known = cache[op] = (count, list(op.static_basis.get_values()))
    return known


def _basis(static: list[int], dynamic: Sequence[Any]) -> list[int]:
    """The basis with each dynamic entry replaced by the next dynamic operand's int (``mixed_ints``)."""
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    values = iter(dynamic)
    return [int(next(values)) if s == DYNAMIC_INDEX else int(s) for s in static]


def _index(value: Any) -> Any:
    return int(value) if np.ndim(value) == 0 else np.asarray(value, dtype=np.int64)


@register_impls
class AffineFunctions(InterpreterFunctions):
    @impl(affine.ApplyOp)
    def run_apply(self, interpreter: Interpreter, op: affine.ApplyOp, args: tuple[Any, ...]):
        return (_index(eval_affine_map(op.map.data, args)[0]),)

    @impl(affine.MinOp)
    def run_min(self, interpreter: Interpreter, op: affine.MinOp, args: tuple[Any, ...]):
        values = eval_affine_map(op.map.data, args)
        return (_index(np.minimum.reduce(np.broadcast_arrays(*values)) if len(values) > 1 else values[0]),)

    @impl(affine.MaxOp)
    def run_max(self, interpreter: Interpreter, op: affine.MaxOp, args: tuple[Any, ...]):
        values = eval_affine_map(op.map.data, args)
        return (_index(np.maximum.reduce(np.broadcast_arrays(*values)) if len(values) > 1 else values[0]),)

    @impl(affine.LinearizeIndexOp)
    def run_linearize_index(self, interpreter: Interpreter, op: affine.LinearizeIndexOp, args: tuple[Any, ...]):
        count, static_basis = _static_basis(interpreter, op)
        indices = args[:count]
        basis = _basis(static_basis, args[count:])
        # The basis may omit the outermost bound (MLIR allows n or n-1 entries).
        strides = basis[len(basis) - len(indices) + 1 :] if len(basis) >= len(indices) else basis
        linear: Any = 0
        for position, index in enumerate(indices):
            linear = linear * (strides[position - 1] if position > 0 else 1) + index
        return (_index(linear),)

    @impl(affine.DelinearizeIndexOp)
    def run_delinearize_index(self, interpreter: Interpreter, op: affine.DelinearizeIndexOp, args: tuple[Any, ...]):
        linear = args[0]
        _, static_basis = _static_basis(interpreter, op)
        basis = _basis(static_basis, args[1:])
        count = len(op.multi_index)
        if count == len(basis) + 1:  # no outer bound given
            basis = [0, *basis]
        results = []
        for bound in reversed(basis[1:]):
            results.append(_index(linear % bound))
            linear = linear // bound
        # The outermost index is not reduced: MLIR assumes it is in bounds.
        results.append(_index(linear))
        return tuple(reversed(results))


# -- fast paths on Python ints (see core.FAST_PATHS) -----------------------------
# Index computations between dispatches (sizes in tiles, padded sizes) apply small
# maps to Python ints: a map compiled once into nested closures skips the general
# path's numpy checks. On ints both compute the same exact integers; anything else
# (index arrays of vectorized loops, a zero divisor) takes the general path.


def _compile_expr(expr: AffineExpr, num_dims: int):
    """``expr`` as a function of the operand list (dims then symbols); None if unsupported."""
    if isinstance(expr, AffineDimExpr):
        position = expr.position
        return lambda xs: xs[position]
    if isinstance(expr, AffineSymExpr):
        position = num_dims + expr.position
        return lambda xs: xs[position]
    if isinstance(expr, AffineConstantExpr):
        value = expr.value
        return lambda xs: value
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = _compile_expr(expr.lhs, num_dims), _compile_expr(expr.rhs, num_dims)
        if lhs is None or rhs is None:
            return None
        kind = expr.kind
        if kind == AffineBinaryOpKind.Add:
            return lambda xs: lhs(xs) + rhs(xs)
        if kind == AffineBinaryOpKind.Mul:
            return lambda xs: lhs(xs) * rhs(xs)
        # A zero divisor raises ZeroDivisionError: the general path then reports it.
        if kind == AffineBinaryOpKind.FloorDiv:
            return lambda xs: lhs(xs) // rhs(xs)
        if kind == AffineBinaryOpKind.CeilDiv:
            return lambda xs: -((-lhs(xs)) // rhs(xs))
        if kind == AffineBinaryOpKind.Mod:
            return lambda xs: lhs(xs) % rhs(xs)
    return None


def _map_fast_path(op, combine=None):
    map_ = op.map.data
    results = [_compile_expr(e, map_.num_dims) for e in map_.results]
    if not results or None in results:
        return None
    if combine is None and len(results) != 1:
        return None

    def run(args: tuple[Any, ...]):
        for arg in args:
            if type(arg) is not int:
                return None
        values = [f(args) for f in results]
        return (values[0] if combine is None or len(values) == 1 else combine(values),)

    return run


def _register_fast_paths() -> None:
    from mini_iree.compiler.interpreter.core import FAST_PATHS

    FAST_PATHS[affine.ApplyOp] = _map_fast_path
    FAST_PATHS[affine.MinOp] = lambda op: _map_fast_path(op, min)
    FAST_PATHS[affine.MaxOp] = lambda op: _map_fast_path(op, max)


_register_fast_paths()

FUNCTIONS = (AffineFunctions,)
