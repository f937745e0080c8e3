"""``linalg`` on numpy: every structured op through one vectorized engine.

A structured op is an iteration space (``iterator_types``), one indexing map
per operand, and a scalar body. :func:`run_structured` evaluates it in three
tiers, fastest first:

1. **Contraction** (``matmul``, ``mmt4d``, ``batch_matmul``, a ``generic`` with
   the same body...): a body ``acc + cast(a) * cast(b)`` with permutation maps
   becomes one ``np.matmul`` (BLAS for floats; for integers numpy's integer
   matmul in the accumulator's type, which wraps exactly as MLIR does),
   after applying the body's casts to the whole inputs
   (``matrix_products.py``; operands that are padded packs of a source:
   ``padded_products.py``).
2. **Vectorized**: the body runs on whole arrays. Each input is bound to a
   view broadcastable over the iteration space (a transpose for permutation
   maps, fancy indexing with index grids for any other map), ``linalg.index``
   to an ``arange`` grid. A reduction whose body is ``acc = combine(acc, f(...))``
   with a known combiner (add, mul, max, min, and, or, xor) evaluates ``f``
   over the whole space and reduces it with one numpy call; any other
   reduction (argmax...) walks the reduction loops one point at a time with
   the body vectorized over all parallel loops, in MLIR's sequential order.
3. **Per point**, with a warning: only for bodies that cannot run on arrays.

Named ops with a simpler meaning (fill, copy, transpose, broadcast, pack,
unpack) have direct numpy implementations.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from mini_iree.compiler.interpreter.buffers import scratch_pool
from mini_iree.compiler.interpreter.core import (
    InterpreterError,
    element_type,
    mixed_ints,
    numpy_dtype,
    run_block,
)
from mini_iree.compiler.interpreter.matrix_products import contract, matrix_views
from mini_iree.compiler.interpreter.padded_products import PaddedOperand, PaddedProduct, padded_product
from mini_iree.compiler.interpreter.relayout_origins import note_write
from mini_iree.compiler.interpreter.replay import replay_as
from mini_iree.compiler.interpreter.store_destination import store_buffer_value, usable_buffer
from mini_iree.dialects import linalg

_CASTS = (
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.ExtFOp,
    arith.TruncFOp,
    arith.TruncIOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
)


class LinalgFunctions(InterpreterFunctions):
    """Implementations of the ``linalg`` ops (registered below, one entry per op class)."""


# -- iteration space ----------------------------------------------------------


def _dim_positions(map_: AffineMap) -> list[int] | None:
    """The loop dimension of each map result, if every result is a distinct plain dimension."""
    positions = [e.position if isinstance(e, AffineDimExpr) else -1 for e in map_.results]
    if -1 in positions or len(set(positions)) != len(positions):
        return None
    return positions


def loop_sizes(op: Operation, maps: Sequence[AffineMap], operands: Sequence[Any]) -> list[int]:
    """The size of every loop, read from the operand dimensions the maps name directly."""
    num_loops = maps[0].num_dims if maps else 0
    sizes: list[int | None] = [None] * num_loops
    for map_, value in zip(maps, operands):
        shape = np.shape(value)
        for axis, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr) and sizes[expr.position] is None:
                sizes[expr.position] = shape[axis]
    for map_, value in zip(maps, operands):
        shape = np.shape(value)
        for axis, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr) and sizes[expr.position] != shape[axis]:
                raise InterpreterError(
                    op,
                    f"operand dimension {axis} has size {shape[axis]}, but loop d{expr.position} "
                    f"has size {sizes[expr.position]}",
                )
    if None in sizes:
        raise InterpreterError(op, "cannot infer the size of every loop from the operand shapes")
    return [int(s) for s in sizes]  # type: ignore[arg-type]


def _grids(sizes: Sequence[int]) -> list[np.ndarray]:
    """One broadcastable ``arange`` per loop: ``grids[d]`` varies along axis ``d`` only."""
    n = len(sizes)
    return [np.arange(s).reshape([s if i == d else 1 for i in range(n)]) for d, s in enumerate(sizes)]


def loop_view(op: Operation, array: Any, map_: AffineMap, sizes: Sequence[int]) -> np.ndarray:
    """``array`` as seen from every point of the iteration space (broadcastable to ``sizes``)."""
    array = np.asarray(array)
    n = len(sizes)
    positions = _dim_positions(map_)
    if positions is not None:
        order = sorted(range(len(positions)), key=lambda r: positions[r])
        shape = [1] * n
        for r in order:
            shape[positions[r]] = array.shape[r]
        return np.transpose(array, order).reshape(shape)
    # Any other map: the accessed indices of all points at once.
    from mini_iree.compiler.interpreter.affine_ops import eval_affine_expr  # not at start-up: see _run_per_point

    grids = _grids(sizes)
    indices = []
    for axis, expr in enumerate(map_.results):
        index = np.asarray(eval_affine_expr(expr, grids))
        if index.size and (index.min() < 0 or index.max() >= array.shape[axis]):
            raise InterpreterError(
                op,
                f"indexing map {map_} reads dimension {axis} at index "
                f"{index.min() if index.min() < 0 else index.max()}, outside 0..{array.shape[axis] - 1}",
            )
        indices.append(index)
    view = array[tuple(indices)] if indices else array
    return np.reshape(view, np.shape(view) if np.ndim(view) == n else [1] * (n - np.ndim(view)) + list(np.shape(view)))


# -- tier 1: contractions -------------------------------------------------------


def _cast_chain(value: SSAValue, arg: BlockArgument) -> list[Operation] | None:
    """The casts between ``arg`` and ``value`` (innermost first), if ``value`` is only casts of ``arg``."""
    chain: list[Operation] = []
    while value is not arg:
        owner = value.owner
        if not isinstance(owner, _CASTS):
            return None
        chain.append(owner)
        value = owner.operands[0]
    return list(reversed(chain))


def match_contraction(op: LinalgStructuredOperation, maps: Sequence[AffineMap]):
    """``(casts of lhs, casts of rhs, add op)`` when the body is ``acc + cast(lhs) * cast(rhs)``."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or any(_dim_positions(m) is None for m in maps):
        return None
    block = op.body.block
    if len(block.args) != 3 or block.last_op is None or len(block.last_op.operands) != 1:
        return None
    add = block.last_op.operands[0].owner
    if not isinstance(add, (arith.AddfOp, arith.AddiOp)):
        return None
    acc = block.args[2]
    if add.lhs is acc:
        product = add.rhs
    elif add.rhs is acc:
        product = add.lhs
    else:
        return None
    mul = product.owner
    if not isinstance(mul, (arith.MulfOp, arith.MuliOp)) or type(mul) is not _MUL_OF[type(add)]:
        return None
    for first, second in ((mul.lhs, mul.rhs), (mul.rhs, mul.lhs)):
        lhs_casts = _cast_chain(first, block.args[0])
        rhs_casts = _cast_chain(second, block.args[1])
        if lhs_casts is not None and rhs_casts is not None:
            if len(list(block.ops)) != len(lhs_casts) + len(rhs_casts) + 3:
                return None
            return lhs_casts, rhs_casts, add
    return None


_MUL_OF = {arith.AddfOp: arith.MulfOp, arith.AddiOp: arith.MuliOp}


def _is_zero(array: np.ndarray) -> bool:
    """Whether every element is zero; O(1) for broadcast scalars (fills)."""
    if array.size == 0:
        return True
    if not any(array.strides):
        return not array.flat[0]
    return not array.any()


def _run_contraction(interpreter: Interpreter, op: LinalgStructuredOperation, match, maps, ins, outs, sizes, positions):
    lhs_casts, rhs_casts, add = match
    a, b = ins
    for cast in lhs_casts:
        (a,) = interpreter._run_op(cast, (a,)).values  # pyright: ignore[reportPrivateUsage]
    for cast in rhs_casts:
        (b,) = interpreter._run_op(cast, (b,)).values  # pyright: ignore[reportPrivateUsage]
    a, b = np.asarray(a), np.asarray(b)
    loaded = (a, b)
    product_type = numpy_dtype(element_type(add.result.type))
    if product_type.kind in "iub":
        # MLIR multiplies and adds in the accumulator's integer type, wrapping
        # modulo 2**width; numpy's integer matmul in that dtype wraps the same
        # way, so the result is exact. (A float BLAS would round large sums.)
        a, b = a.astype(product_type, copy=False), b.astype(product_type, copy=False)
    elif a.dtype.itemsize < 4 or a.dtype != b.dtype:
        # f16/bf16 have no BLAS: multiply in f32 (products of f16 values are exact in f32).
        common = np.result_type(np.float32, a.dtype, b.dtype) if a.dtype.itemsize < 4 else np.result_type(a, b)
        a, b = a.astype(common, copy=False), b.astype(common, copy=False)
    acc = np.asarray(outs[0])
    zero_acc = _is_zero(acc)
    replayable = not (lhs_casts or rhs_casts) and all(isinstance(v.type, TensorType) for v in op.outputs)
    product = None
    uncast = a is loaded[0] and b is loaded[1] and not (lhs_casts or rhs_casts)
    padded = _padded_operands(interpreter, a, b) if uncast else None
    matmul = padded_product(*_contract_args(padded, positions, sizes), True) if padded is not None else None
    if matmul is not None:
        product = matmul(*padded, scratch_pool(interpreter))
        if replayable:
            # What the contraction reads at replay: the packs' sources, not the packed buffers.
            replay_as(interpreter, op, _replayed_padded_contraction(op, add, padded, matmul), _values(padded, acc))
    if product is None:
        out = _store_destination(interpreter, op, (a, b, acc)) if zero_acc else None
        product = contract(a, positions[0], b, positions[1], positions[2], sizes, scratch_pool(interpreter), out)
        if zero_acc and replayable:
            views = matrix_views(a, positions[0], b, positions[1], positions[2], sizes, out) if out is not None else None
            replay_as(interpreter, op, _replayed_contraction(op, positions, sizes, out is not None, views))
    return [_accumulated(interpreter, op, add, acc, product, zero_acc)]


def _accumulated(interpreter: Interpreter, op: Operation, add: Operation, acc: np.ndarray, product, zero_acc: bool):
    if zero_acc:
        # A zero accumulator (a fill of 0, the usual case) adds nothing: skip a
        # full pass over the result. (Only the sign of a zero can differ.)
        return product.astype(acc.dtype, copy=False)
    args = (acc, product) if add.lhs is op.body.block.args[2] else (product, acc)  # type: ignore[attr-defined]
    (result,) = interpreter._run_op(add, args).values  # pyright: ignore[reportPrivateUsage]
    return np.asarray(result, dtype=acc.dtype).reshape(acc.shape)


def _padded_operands(interpreter: Interpreter, a: np.ndarray, b: np.ndarray) -> tuple | None:
    """The operands with each padded pack (``relayout_origins.py``) as a :class:`PaddedOperand`;
    None when neither is one."""
    origins = getattr(interpreter, "_relayout_origins", None)
    if not origins:
        return None
    found = [origins.padded(x) for x in (a, b)]
    if all(f is None for f in found):
        return None
    return tuple(x if f is None else PaddedOperand(f[0], f[1], f[2], x.shape, x.strides) for x, f in zip((a, b), found))


def _contract_args(operands: tuple, positions: Sequence[Sequence[int]], sizes: Sequence[int]) -> tuple:
    return operands[0], positions[0], operands[1], positions[1], positions[2], sizes


def _values(operands: tuple, acc: np.ndarray) -> tuple:
    """The arrays a padded contraction reads: each source and pad, or operand; then the accumulator."""
    values: list = []
    for x in operands:
        values += [x.source, x.pad] if isinstance(x, PaddedOperand) else [x]
    return (*values, acc)


def _replayed_padded_contraction(op: Operation, add: Operation, operands: tuple, matmul: PaddedProduct):
    """A repeated call's contraction of padded packs (``replay.replay_as``), on the packs' sources:
    which operand is a padded pack, and how the product is computed, are as recorded."""
    padded = [isinstance(x, PaddedOperand) for x in operands]

    def replay(interpreter: Interpreter, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        values = iter(inputs)
        # The product reads a padded operand's source and pad only.
        rebuilt = [PaddedOperand(next(values), None, next(values), (), ()) if p else next(values) for p in padded]
        acc = np.asarray(next(values))
        product = matmul(rebuilt[0], rebuilt[1], scratch_pool(interpreter))
        return (_accumulated(interpreter, op, add, acc, product, _is_zero(acc)),)

    return replay


def _replayed_contraction(
    op: Operation, positions: Sequence[Sequence[int]], sizes: Sequence[int], in_place: bool, views: Any = None
):
    """A repeated call's contraction of uncast operands into a zero accumulator (``replay.replay_as``):
    the loops, the maps and whether the product lands in its store destination are as recorded,
    and so, for operands that were matrix views, how they are (``views``, from :func:`matrix_views`)."""
    buffer_value = _find_store_destination(op) if views is not None else None

    def replay(interpreter: Interpreter, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        a, b, acc = np.asarray(inputs[0]), np.asarray(inputs[1]), np.asarray(inputs[2])
        if a.dtype.itemsize < 4 or a.dtype != b.dtype or not _is_zero(acc):
            return run_generic_op(None, interpreter, op, inputs)  # type: ignore[arg-type]
        if views is not None:
            (buffer,) = interpreter.get_values([buffer_value])
            note_write(interpreter, buffer)  # the product is written there
            return (views(a, b, buffer).astype(acc.dtype, copy=False),)
        out = _store_destination(interpreter, op, (a, b, acc)) if in_place else None
        pool = scratch_pool(interpreter)
        product = contract(a, positions[0], b, positions[1], positions[2], sizes, pool, out)
        return (product.astype(acc.dtype, copy=False),)

    return replay


def _store_destination(interpreter: Interpreter, op: Operation, operands: Sequence[np.ndarray]) -> np.ndarray | None:
    """The buffer ``op``'s product may be computed in (``store_destination.py``): a matmul
    dispatch's product, relaid out by its unpack and stored; or None."""
    cache = interpreter.get_data(LinalgFunctions, "store_destinations", dict)
    if op not in cache:
        cache[op] = _find_store_destination(op)
    buffer_value = cache[op]
    if buffer_value is None:
        return None
    (buffer,) = interpreter.get_values([buffer_value])
    # The shape is checked by `contract` (the product's, before its relayout).
    if not usable_buffer(buffer, None, getattr(buffer, "dtype", None), operands):
        return None
    note_write(interpreter, buffer)  # the product may be written there
    return buffer


def _find_store_destination(op: Operation) -> SSAValue | None:
    return store_buffer_value(op, through_relayout=True)


# -- tier 2 and 3: vectorized and per-point bodies ---------------------------


def _index_stack(interpreter: Interpreter) -> list[Sequence[Any]]:
    return interpreter.get_data(LinalgFunctions, "index_stack", list)


def _to_output(op: Operation, value: Any, map_: AffineMap, par_dims: Sequence[int], sizes: Sequence[int]) -> np.ndarray:
    """A value over the parallel loops (axes = ``par_dims``) laid out as an output's map says."""
    positions = _dim_positions(map_)
    if positions is None or sorted(positions) != sorted(par_dims):
        raise InterpreterError(op, f"output indexing map {map_} must be a permutation of the parallel loops")
    full = np.broadcast_to(value, [sizes[d] for d in par_dims])
    return np.transpose(full, [par_dims.index(d) for d in positions])


# Combiners whose reduction numpy can do in one call: op -> (ufunc, read operands unsigned?).
_COMBINERS = {
    arith.AddfOp: (np.add, False),
    arith.AddiOp: (np.add, False),
    arith.MulfOp: (np.multiply, False),
    arith.MuliOp: (np.multiply, False),
    arith.MaximumfOp: (np.maximum, False),
    arith.MinimumfOp: (np.minimum, False),
    arith.MaxnumfOp: (np.fmax, False),
    arith.MinnumfOp: (np.fmin, False),
    arith.MaxSIOp: (np.maximum, False),
    arith.MinSIOp: (np.minimum, False),
    arith.MaxUIOp: (np.maximum, True),
    arith.MinUIOp: (np.minimum, True),
    arith.AndIOp: (np.bitwise_and, True),
    arith.OrIOp: (np.bitwise_or, True),
    arith.XOrIOp: (np.bitwise_xor, True),
}

# Above this many points, reductions walk the reduction loops instead of
# materializing the whole iteration space at once.
_MAX_SPACE = 1 << 26


def _match_combiners(block: Block, n_in: int) -> list[tuple[Operation, SSAValue]] | None:
    """For each output, ``(combiner, x)`` when the body yields ``combiner(acc, x)`` with ``x`` free of accumulators."""
    accs = set(block.args[n_in:])
    tainted = set(accs)
    for body_op in block.ops:
        if body_op.regions:
            return None
        if any(v in tainted for v in body_op.operands):
            tainted.update(body_op.results)
    terminator = block.last_op
    if terminator is None or len(terminator.operands) != len(block.args) - n_in:
        return None
    matches = []
    for acc, value in zip(block.args[n_in:], terminator.operands):
        combiner = value.owner
        if type(combiner) not in _COMBINERS or len(combiner.operands) != 2:
            return None
        lhs, rhs = combiner.operands
        x = rhs if lhs is acc else lhs if rhs is acc else None
        if x is None or x in tainted:
            return None
        # The combiner must be the only use of the accumulator.
        if len(list(acc.uses)) != 1:
            return None
        matches.append((combiner, x))
    return matches


def _run_combined_reduction(interpreter: Interpreter, op, matches, maps, iterators, ins, outs, sizes):
    """Reductions like ``acc = max(acc, f(inputs))``: evaluate ``f`` on the whole space, reduce once.

    Floating-point sums are reassociated (numpy sums pairwise), which stays
    within rounding of the sequential order; integer results are exact.
    """
    n_in = len(ins)
    par_dims = [d for d, it in enumerate(iterators) if it != "reduction"]
    red_axes = tuple(d for d, it in enumerate(iterators) if it == "reduction")
    block = op.body.block
    views = [loop_view(op, v, m, sizes) for v, m in zip(ins, maps[:n_in])]
    stack = _index_stack(interpreter)
    stack.append(_grids(sizes))
    interpreter.push_scope("reduction")
    try:
        ctx = interpreter._ctx  # pyright: ignore[reportPrivateUsage]
        for arg, view in zip(block.args, views):
            ctx[arg] = view
        tainted = set(block.args[n_in:])
        for body_op in block.ops:
            if body_op is block.last_op:
                break
            if any(v in tainted for v in body_op.operands):
                tainted.update(body_op.results)
                continue
            result = interpreter._run_op(body_op, tuple(ctx[v] for v in body_op.operands))  # pyright: ignore[reportPrivateUsage]
            for res, value in zip(body_op.results, result.values):
                ctx[res] = value
        xs = [ctx[x] for _, x in matches]
    finally:
        interpreter.pop_scope()
        stack.pop()
    results = []
    for (combiner, _), x, out, map_ in zip(matches, xs, outs, maps[n_in:]):
        view = loop_view(op, out, map_, sizes)
        acc = view.reshape([view.shape[d] for d in par_dims])
        ufunc, unsigned = _COMBINERS[type(combiner)]
        x = np.broadcast_to(np.asarray(x), sizes)
        if unsigned:
            x = x.astype(np.dtype(f"u{x.dtype.itemsize}") if x.dtype != np.bool_ else np.bool_)
        reduced = ufunc.reduce(x, axis=red_axes) if red_axes else x
        args = (acc, reduced) if combiner.operands[0] is block.args[n_in + len(results)] else (reduced, acc)
        (value,) = interpreter._run_op(combiner, args).values  # pyright: ignore[reportPrivateUsage]
        dtype = np.asarray(out).dtype
        results.append(np.ascontiguousarray(_to_output(op, np.asarray(value, dtype), map_, par_dims, sizes)))
    return results


def _run_vectorized(interpreter: Interpreter, op: LinalgStructuredOperation, maps, iterators, ins, outs, sizes):
    """Run the body on whole arrays, one reduction point at a time (all points if none)."""
    n_in = len(ins)
    if "reduction" in iterators and all(sizes) and int(np.prod(sizes, dtype=np.int64)) <= _MAX_SPACE:
        matches = _match_combiners(op.body.block, n_in)
        if matches is not None:
            return _run_combined_reduction(interpreter, op, matches, maps, iterators, ins, outs, sizes)
    par_dims = [d for d, it in enumerate(iterators) if it != "reduction"]
    red_dims = [d for d, it in enumerate(iterators) if it == "reduction"]
    views = [loop_view(op, v, m, sizes) for v, m in zip(ins, maps[:n_in])]
    # Accumulators live over the parallel loops only.
    accs = []
    for value, map_ in zip(outs, maps[n_in:]):
        view = loop_view(op, value, map_, sizes)
        accs.append(view.reshape([view.shape[d] for d in par_dims]))
    par_grids = _grids([sizes[d] for d in par_dims])
    dtypes = [np.asarray(v).dtype for v in outs]
    block = op.body.block
    stack = _index_stack(interpreter)
    for point in itertools.product(*(range(sizes[d]) for d in red_dims)):
        at = dict(zip(red_dims, point))
        args = []
        for view in views:
            index = tuple((at[d] if view.shape[d] > 1 else 0) if d in at else slice(None) for d in range(len(sizes)))
            args.append(view[index])
        indices = [at[d] if d in at else par_grids[par_dims.index(d)] for d in range(len(sizes))]
        stack.append(indices)
        try:
            results = run_block(interpreter, block, [*args, *accs])
        finally:
            stack.pop()
        accs = [np.asarray(r, dtype=dt) for r, dt in zip(results, dtypes)]
    return [
        np.ascontiguousarray(_to_output(op, acc, m, par_dims, sizes)).astype(dt, copy=False)
        for acc, m, dt in zip(accs, maps[n_in:], dtypes)
    ]


def _run_per_point(interpreter: Interpreter, op: LinalgStructuredOperation, maps, ins, outs, sizes):
    """The body once per point of the iteration space, in order. Slow; a last resort."""
    n_in = len(ins)
    inputs = [np.asarray(v) for v in ins]
    results = [np.array(v, copy=True) for v in outs]
    block = op.body.block
    stack = _index_stack(interpreter)
    # affine_ops imports the affine dialect, and xDSL's memref with it: a cost at start-up
    # that only the rare map which is not a permutation of loop dimensions needs.
    from mini_iree.compiler.interpreter.affine_ops import eval_affine_expr

    for point in itertools.product(*(range(s) for s in sizes)):
        where = [tuple(int(eval_affine_expr(e, point)) for e in m.results) for m in maps]
        args = [v[w] for v, w in zip(inputs, where[:n_in])] + [r[w] for r, w in zip(results, where[n_in:])]
        stack.append(list(point))
        try:
            values = run_block(interpreter, block, args)
        finally:
            stack.pop()
        for r, w, v in zip(results, where[n_in:], values):
            r[w] = v
    return results


def _structure(interpreter: Interpreter, op: LinalgStructuredOperation) -> tuple:
    """``(maps, iterator types, contraction match, dim positions of each map)``: what
    :func:`run_structured` reads off the op itself, once per op and interpreter.

    A dispatch runs its linalg op on every call, and matching the body and
    reading the maps costs more than a small op's arithmetic (the module does
    not change while an interpreter runs it, see ``make_interpreter``).
    """
    cache = interpreter.get_data(LinalgFunctions, "structures", dict)
    known = cache.get(op)
    if known is None:
        maps = [m.data for m in op.get_indexing_maps()]
        iterators = [str(it.data) for it in op.get_iterator_types()]
        known = cache[op] = (maps, iterators, match_contraction(op, maps), [_dim_positions(m) for m in maps])
    return known


def run_structured(interpreter: Interpreter, op: LinalgStructuredOperation, ins: Sequence[Any], outs: Sequence[Any]):
    """The new values of ``op``'s outputs (see the module docstring for the tiers)."""
    maps, iterators, match, positions = _structure(interpreter, op)
    sizes = loop_sizes(op, maps, [*ins, *outs])
    if match is not None:
        return _run_contraction(interpreter, op, match, maps, ins, outs, sizes, positions)
    try:
        return _run_vectorized(interpreter, op, maps, iterators, ins, outs, sizes)
    except InterpreterError as error:
        if error.op is op:
            raise
        # A body op that cannot take arrays: fall back to one point at a time. The
        # warning is worded as a diagnostic, which the tools print as it is.
        where = f"{error.loc}: " if error.loc is not None else ""
        warnings.warn(
            f"{where}warning: {op.name} body cannot be vectorized ({error.message}); running it point by point",
            RuntimeWarning,
            stacklevel=2,
        )
        return _run_per_point(interpreter, op, maps, ins, outs, sizes)


def _finish(op: Operation, outs: Sequence[Any], values: Sequence[np.ndarray], interpreter: Interpreter) -> tuple[Any, ...]:
    """Tensor outputs become results; memref outputs are written in place."""
    results = []
    for out_value, out_ssa, value in zip(outs, op.outputs, values):  # type: ignore[attr-defined]
        if isinstance(out_ssa.type, TensorType):
            results.append(value)
        else:
            note_write(interpreter, out_value)
            out_value[...] = value
    return tuple(results)


def _split(op: Operation, args: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    n_in = len(op.inputs)  # type: ignore[attr-defined]
    return args[:n_in], args[n_in:]


def run_generic_op(self: LinalgFunctions, interpreter: Interpreter, op: LinalgStructuredOperation, args: tuple[Any, ...]):
    ins, outs = _split(op, args)
    return _finish(op, outs, run_structured(interpreter, op, ins, outs), interpreter)


# -- named ops with direct numpy meanings ----------------------------------------


def _out_dtype(op: Operation) -> np.dtype:
    return numpy_dtype(element_type(op.outputs[0].type))  # type: ignore[attr-defined]


def run_fill(self, interpreter: Interpreter, op: linalg.FillOp, args: tuple[Any, ...]):
    (value,), outs = _split(op, args)
    # A tensor fill is a read-only broadcast of the scalar (free, whatever the size);
    # a memref fill writes the buffer.
    return _finish(op, outs, [np.broadcast_to(np.asarray(value, dtype=_out_dtype(op)), np.shape(outs[0]))], interpreter)


def run_copy(self, interpreter: Interpreter, op: linalg.CopyOp, args: tuple[Any, ...]):
    (source,), outs = _split(op, args)
    if np.shape(source) != np.shape(outs[0]):
        raise InterpreterError(op, f"copy from shape {np.shape(source)} into shape {np.shape(outs[0])}")
    return _finish(op, outs, [np.array(source, dtype=_out_dtype(op))], interpreter)


def run_transpose(self, interpreter: Interpreter, op: linalg.TransposeOp, args: tuple[Any, ...]):
    (source,), outs = _split(op, args)
    value = np.transpose(source, op.permutation.get_values())
    if value.shape != np.shape(outs[0]):
        raise InterpreterError(op, f"transposed shape {value.shape} does not match the init shape {np.shape(outs[0])}")
    return _finish(op, outs, [value], interpreter)


def run_broadcast(self, interpreter: Interpreter, op: linalg.BroadcastOp, args: tuple[Any, ...]):
    (source,), outs = _split(op, args)
    value = np.expand_dims(source, tuple(op.dimensions.get_values()))
    try:
        value = np.broadcast_to(value, np.shape(outs[0]))
    except ValueError:
        raise InterpreterError(op, f"cannot broadcast shape {np.shape(source)} to {np.shape(outs[0])}") from None
    return _finish(op, outs, [value], interpreter)


# -- pack / unpack ----------------------------------------------------------------


def _relayout_params(interpreter: Interpreter, op: Any) -> tuple[list[int], list[int], list[int]]:
    inner_dims_pos = list(op.get_inner_dims_pos())
    tiles = mixed_ints(interpreter, op.get_static_tiles(), op.inner_tiles)
    outer_perm = list(op.get_outer_dims_perm())
    return inner_dims_pos, tiles, outer_perm


def _relayout(shape: Sequence[int], inner_dims_pos, tiles, outer_perm):
    """The layout algebra's chain for this pack: pad, split each tiled dim, permute."""
    from mini_iree.compiler.layout.iree_encoding import encoding_relayout
    from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo

    info = MaterializeEncodingInfo(list(inner_dims_pos), list(tiles), list(outer_perm))
    return encoding_relayout(info, tuple(int(s) for s in shape))


def pack(source: np.ndarray, inner_dims_pos, tiles, outer_perm, padding_value=None, op=None) -> np.ndarray:
    """linalg.pack: pad each tiled dimension to a multiple of its tile, split it, permute.

    Result axes: the outer dims (in ``outer_perm`` order), then one axis per tile
    in ``inner_dims_pos`` order. The index arithmetic is the layout algebra's
    (``compiler/layout``), shared with stream sizes, materialization and
    ``mini-iree-layout``.
    """
    relayout = _relayout(source.shape, inner_dims_pos, tiles, outer_perm)
    if padding_value is None and relayout.padded_elements() != source.size:
        raise InterpreterError(op, f"pack of shape {list(source.shape)} needs padding but has no padding_value")
    return relayout.pack(source, 0 if padding_value is None else padding_value)


def unpack(packed: np.ndarray, inner_dims_pos, tiles, outer_perm, dest_shape, op=None) -> np.ndarray:
    """linalg.unpack: the inverse of :func:`pack`, sliced back to ``dest_shape``."""
    relayout = _relayout(dest_shape, inner_dims_pos, tiles, outer_perm)
    if tuple(packed.shape) != tuple(relayout.physical_shape):
        raise InterpreterError(
            op, f"unpack into shape {list(dest_shape)} needs a packed shape {list(relayout.physical_shape)}"
        )
    return relayout.unpack(packed)


def run_pack(self, interpreter: Interpreter, op: linalg.PackOp, args: tuple[Any, ...]):
    source, dest = args[0], args[1]
    padding = interpreter.get_values([op.padding_value])[0] if op.padding_value is not None else None
    inner_dims_pos, tiles, outer_perm = _relayout_params(interpreter, op)
    value = pack(np.asarray(source), inner_dims_pos, tiles, outer_perm, padding, op)
    if value.shape != np.shape(dest):
        raise InterpreterError(op, f"packed shape {list(value.shape)} does not match the destination {list(np.shape(dest))}")
    # A transposed view, not a copy: tensors are never written in place, and
    # the mmt4d that usually reads it transposes it straight back.
    return (value,)


def run_unpack(self, interpreter: Interpreter, op: linalg.UnPackOp, args: tuple[Any, ...]):
    source, dest = args[0], args[1]
    inner_dims_pos, tiles, outer_perm = _relayout_params(interpreter, op)
    return (unpack(np.asarray(source), inner_dims_pos, tiles, outer_perm, np.shape(dest), op),)


def run_index(self, interpreter: Interpreter, op: linalg.IndexOp, args: tuple[Any, ...]):
    stack = _index_stack(interpreter)
    if not stack:
        raise InterpreterError(op, "linalg.index outside a structured op body")
    return (stack[-1][op.dim.value.data],)


# -- registration -------------------------------------------------------------------

_DIRECT = {
    linalg.FillOp: run_fill,
    linalg.CopyOp: run_copy,
    linalg.TransposeOp: run_transpose,
    linalg.BroadcastOp: run_broadcast,
    linalg.PackOp: run_pack,
    linalg.UnPackOp: run_unpack,
    linalg.IndexOp: run_index,
}


def _register() -> None:
    from mini_iree.dialects.linalg import Linalg

    for op_class in Linalg.operations:
        function = _DIRECT.get(op_class)
        if function is None and issubclass(op_class, LinalgStructuredOperation):
            function = run_generic_op
        if function is not None:
            setattr(LinalgFunctions, f"run_{op_class.__name__}", impl(op_class)(function))
    register_impls(LinalgFunctions)


_register()

FUNCTIONS = (LinalgFunctions,)
