"""``scf`` control flow: loops run their body once per iteration on whole-array values.

``scf.forall`` runs its iterations in order (any order is valid for a correct
program) and applies each ``tensor.parallel_insert_slice`` of its
``scf.in_parallel`` terminator to the shared outputs.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from xdsl.dialects import scf as xdsl_scf
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Block, Operation

from mini_iree.compiler.interpreter.core import InterpreterError, mixed_ints, run_block
from mini_iree.compiler.interpreter.relayout_origins import note_flat_write, note_write
from mini_iree.compiler.interpreter.replay import recording, replay_as
from mini_iree.compiler.interpreter.tensor_ops import insert_into
from mini_iree.dialects import scf
from mini_iree.dialects.tensor import ParallelInsertSliceOp


def _condition(op: Operation, value: Any) -> bool:
    if np.ndim(value) != 0:
        raise InterpreterError(op, "the condition must be a scalar (this region cannot run vectorized)")
    return bool(value)


# ---------------------------------------------------------------------------
# Lanes: a loop nest run once on index arrays, one lane per iteration
# ---------------------------------------------------------------------------
#
# An `scf.forall` without shared outputs whose body only computes indices and
# stores into memrefs (the padding loops of iree-codegen-combine-layout-
# transformation) runs its iterations as lanes of whole arrays. Nested loops
# whose bounds differ per lane step all lanes together, up to the longest trip
# count, with a mask saying which lanes are still inside their loop; `scf.if` on
# an array condition narrows the mask; `memref.store` writes the masked lanes.


def lane_mask(interpreter: Interpreter) -> Any:
    """The lanes the current op runs for (None outside a vectorized loop nest)."""
    return interpreter.get_data(ScfFunctions, "lane_mask", lambda: None)


def _with_mask(interpreter: Interpreter, mask: Any, run) -> Any:
    outer = lane_mask(interpreter)
    interpreter.set_data(ScfFunctions, "lane_mask", mask)
    try:
        return run()
    finally:
        interpreter.set_data(ScfFunctions, "lane_mask", outer)


def _and_masks(a: Any, b: Any) -> Any:
    return b if a is None else a & b


_LANE_SAFE_DIALECTS = ("arith.", "affine.")


def _runs_as_lanes(interpreter: Interpreter, op: Operation) -> bool:
    """Whether every op nested in `op` can run on lanes (read once per loop op: it walks the whole nest)."""
    known = interpreter.get_data(ScfFunctions, "runs_as_lanes", dict)
    if op not in known:
        known[op] = _nest_runs_as_lanes(op)
    return known[op]


def _nest_runs_as_lanes(op: Operation) -> bool:
    """Whether every op nested in `op` can run on lanes: index arithmetic, stores, loops without results."""
    from xdsl.dialects import memref

    for nested in op.walk():
        if nested is op:
            continue
        if nested.name.startswith(_LANE_SAFE_DIALECTS) or isinstance(nested, (memref.StoreOp, xdsl_scf.YieldOp)):
            continue
        if isinstance(nested, xdsl_scf.ForOp) and not nested.iter_args:
            continue
        if isinstance(nested, xdsl_scf.IfOp) and not nested.results:
            continue
        if isinstance(nested, scf.ForallOp) and not nested.outputs:
            continue
        if isinstance(nested, scf.InParallelOp) and not list(nested.regions[0].block.ops):
            continue
        return False
    return True


def _mixed_values(interpreter: Interpreter, static: Any, dynamic: Any) -> list[Any]:
    """Like `mixed_ints`, but an index array (a bound that differs per lane) stays an array."""
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    values = iter(interpreter.get_values(dynamic))
    result: list[Any] = []
    for s in static:
        value = next(values) if s == DYNAMIC_INDEX else s
        result.append(np.asarray(value, dtype=np.int64) if np.ndim(value) else int(value))
    return result


def _trip_counts(lower: Any, upper: Any, step: Any) -> Any:
    return np.maximum(-((np.asarray(lower) - np.asarray(upper)) // np.asarray(step)), 0)


def _run_lanes(interpreter: Interpreter, op: Operation, block, lowers, uppers, steps) -> None:
    """Run `block` for every lane and every iteration of a loop whose bounds may differ per lane.

    All lanes step together: iteration t runs with `iv = lower + t * step` on the lanes
    that still have an iteration t. When the body only computes indices and stores
    (as a padding loop does), the iterations themselves become lanes too: one new
    leading axis per loop, so the whole nest runs once instead of once per iteration.
    (Like the lanes of a forall, the iterations then store in one go: a nest storing
    different values into one element would have no defined winner; padding loops
    store one value.)"""
    counts = [_trip_counts(lo, hi, st) for lo, hi, st in zip(lowers, uppers, steps)]
    outer = lane_mask(interpreter)
    longest = []
    for count in counts:
        # Only active lanes decide how many iterations the nest needs.
        live = count if outer is None else np.where(outer, count, 0)
        longest.append(int(np.max(live)) if np.size(live) else 0)
    if 0 in longest:
        return
    if _runs_as_lanes(interpreter, op):
        lane_rank = max(np.ndim(v) for v in [*lowers, *counts, *([] if outer is None else [outer])])
        k = len(longest)
        ivs, mask = [], outer
        for axis, (lo, st, count, n) in enumerate(zip(lowers, steps, counts, longest)):
            t = np.arange(n, dtype=np.int64).reshape([n if j == axis else 1 for j in range(k)] + [1] * lane_rank)
            ivs.append(np.asarray(lo) + t * np.asarray(st))
            mask = _and_masks(mask, t < np.asarray(count))
        _with_mask(interpreter, mask, lambda: run_block(interpreter, block, ivs))
        return
    for ts in itertools.product(*(range(n) for n in longest)):
        ivs = [np.asarray(lo) + t * np.asarray(st) for lo, t, st in zip(lowers, ts, steps)]
        mask = outer
        for t, count in zip(ts, counts):
            mask = _and_masks(mask, np.asarray(t < count))
        _with_mask(interpreter, mask, lambda ivs=ivs: run_block(interpreter, block, ivs))


# ---------------------------------------------------------------------------
# Tile loops: a forall over tiles whose loops walk each tile's points
# ---------------------------------------------------------------------------
#
# The padding loops of iree-codegen-combine-layout-transformation are tiled:
#
#   scf.forall (%i, %j) = (lo0, lo1) to (hi0, hi1) step (s0, s1) {
#     %ie = affine.min (%i + s0, hi0)    %je = affine.min (%j + s1, hi1)
#     scf.for %x = %i to %ie step 1 { scf.for %y = %j to %je step 1 { body(%x, %y) } }
#   }
#
# Together the loops visit every point of [lo0, hi0) x [lo1, hi1) once: the body
# runs once with %x, %y bound to the whole ranges, instead of as lanes of tiles
# whose loops step together under masks. The nest's shape is read once per op;
# that each min is the tile's end is checked on the values at run time.


def _tile_nest(op: scf.ForallOp) -> tuple | None:
    """If ``op``'s body is affine.mins and a perfect nest of ``scf.for %x = %iv to %min``
    loops, one per induction variable (see above): ``(pairs, loops, body, nested_loops)``,
    ``pairs[j]`` the induction variable position and the min of loop ``j``; else None."""
    from xdsl.dialects import affine as xdsl_affine

    from mini_iree.dialects import affine

    block = op.region.block
    ivs = list(block.args)
    ops = list(block.ops)
    if not ops or not isinstance(ops[-1], scf.InParallelOp) or list(ops[-1].regions[0].block.ops):
        return None
    *mins, root = ops[:-1]
    if not isinstance(root, xdsl_scf.ForOp) or not all(isinstance(m, (affine.MinOp, xdsl_affine.MinOp)) for m in mins):
        return None
    loops: list[xdsl_scf.ForOp] = []
    loop: Operation = root
    while True:
        if not isinstance(loop, xdsl_scf.ForOp) or loop.iter_args or loop.results:
            return None
        loops.append(loop)
        inner = list(loop.body.block.ops)
        if len(inner) == 2 and isinstance(inner[0], xdsl_scf.ForOp) and isinstance(inner[1], xdsl_scf.YieldOp):
            loop = inner[0]
            continue
        break
    if len(loops) != len(ivs) or len(mins) != len(ivs):
        return None
    min_results = {m.results[0]: m for m in mins}
    pairs = []  # per loop: (induction variable position, its min)
    for loop in loops:
        if loop.lb not in ivs or loop.ub not in min_results:
            return None
        pairs.append((ivs.index(loop.lb), min_results[loop.ub]))
    if sorted(d for d, _ in pairs) != list(range(len(ivs))) or len({id(m) for _, m in pairs}) != len(mins):
        return None
    for d, min_op in pairs:
        # Each min reads only its own induction variable (and values from outside).
        if any(v in ivs and v is not ivs[d] for v in min_op.operands):
            return None
    allowed = {*loops, *mins}
    for value in [*ivs, *min_results]:
        if any(use.operation not in allowed for use in value.uses):
            return None  # the body reads a tile's start or end itself
    body = loops[-1].body.block
    # Loops inside the body step their own lanes, which need the points' shape in the mask.
    nested_loops = any(isinstance(o, (xdsl_scf.ForOp, scf.ForallOp)) for o in body.walk())
    return pairs, loops, body, nested_loops


def _run_tiles_as_points(interpreter: Interpreter, op: scf.ForallOp, lower, upper, steps, grids) -> bool:
    """Run a tiled loop nest (see above) as one body over every point; False if it is not one."""
    known = interpreter.get_data(ScfFunctions, "tile_nests", dict)
    if op not in known:
        known[op] = _tile_nest(op)
    nest = known[op]
    if nest is None:
        return False
    pairs, loops, body, nested_loops = nest
    ivs = list(op.region.block.args)
    points = []
    for axis, ((d, min_op), loop) in enumerate(zip(pairs, loops)):
        (step,) = interpreter.get_values([loop.step])
        if np.ndim(step) or int(step) != 1:
            return False
        inputs = tuple(grids[d] if v is ivs[d] else interpreter.get_values([v])[0] for v in min_op.operands)
        (ends,) = interpreter._run_op(min_op, inputs).values  # pyright: ignore[reportPrivateUsage]
        if not np.array_equal(np.broadcast_to(ends, grids[d].shape), np.minimum(grids[d] + steps[d], upper[d])):
            return False
        points.append(np.arange(lower[d], upper[d], dtype=np.int64).reshape([-1 if a == axis else 1 for a in range(len(loops))]))
    # Every point runs: a 0-d mask (broadcasting to any lanes) unless loops in the body
    # need the points' shape (see `_run_lanes`).
    shape = np.broadcast_shapes(*(p.shape for p in points)) if nested_loops else ()
    mask = np.ones(shape, dtype=bool)
    # The outer loops' induction variables are in scope of the innermost body.
    interpreter.push_scope("tiles")
    try:
        ctx = interpreter._ctx  # pyright: ignore[reportPrivateUsage]
        for loop, point in zip(loops[:-1], points[:-1]):
            ctx[loop.body.block.args[0]] = point
        _with_mask(interpreter, mask, lambda: run_block(interpreter, body, points[-1:]))
    finally:
        interpreter.pop_scope()
    return True


def _run_as_lanes(interpreter: Interpreter, op: scf.ForallOp, lower, upper, steps) -> None:
    """Every iteration at once: one lane per iteration, each induction variable a broadcastable index array."""
    grids = [np.arange(lo, hi, st, dtype=np.int64) for lo, hi, st in zip(lower, upper, steps)]
    if any(g.size == 0 for g in grids):
        return
    if _run_tiles_as_points(interpreter, op, lower, upper, steps, grids):
        return
    ivs = list(np.ix_(*grids)) if grids else []
    mask = np.ones(np.broadcast_shapes(*(g.shape for g in ivs)) if ivs else (), dtype=bool)
    _with_mask(interpreter, mask, lambda: run_block(interpreter, op.region.block, ivs))


# Ops a loop may hold and still be replayed as the stores it made (index arithmetic and control).
_INDEX_PREFIXES = ("arith.", "affine.", "index.")
_CONTROL_OPS = frozenset({"scf.for", "scf.if", "scf.yield", "scf.forall", "scf.forall.in_parallel", "memref.store"})
_MAX_CAPTURED_STORES = 64


def _only_stores(op: Operation) -> bool:
    """Whether ``op``'s body only computes indices and stores into memrefs from outside it:
    nothing it stores can depend on what memory holds."""
    for inner in op.walk():
        if inner is op:
            continue
        if not (inner.name.startswith(_INDEX_PREFIXES) or inner.name in _CONTROL_OPS):
            return False
        if inner.name == "memref.store" and op.is_ancestor(_defining_op(inner.operands[1])):
            return False
    return True


def _defining_op(value: Any) -> Operation | None:
    owner = value.owner
    return owner.parent_op() if isinstance(owner, Block) else owner


def captured_stores(interpreter: Interpreter) -> list | None:
    """Where ``memref.store`` notes each store a loop being recorded makes (``scf.forall``), or None."""
    return interpreter.get_data(ScfFunctions, "captured_stores", lambda: None)


def _replayed_stores(stores: list):
    """A repeated call's stores of a loop that only stores (``replay.replay_as``): the same values at
    the same places, into the memrefs this call has."""

    def replay(interpreter: Interpreter, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        for store, flat, place, value in stores:
            (array,) = interpreter.get_values([store.memref])
            if flat:
                note_flat_write(interpreter, array, place, value)
                array.reshape(-1)[place] = value
            else:
                note_write(interpreter, array)
                array[place] = value
        return ()

    return replay


@register_impls
class ScfFunctions(InterpreterFunctions):
    @impl(xdsl_scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: xdsl_scf.ForOp, args: tuple[Any, ...]):
        lb, ub, step, *values = args
        if (np.ndim(lb) or np.ndim(ub)) and not values and np.ndim(step) == 0 and step > 0:
            # Inside a loop nest running as lanes: each lane has its own bounds.
            _run_lanes(interpreter, op, op.body.block, [lb], [ub], [step])
            return ()
        if np.ndim(lb) or np.ndim(ub) or np.ndim(step):
            raise InterpreterError(op, "loop bounds must be scalars (this loop cannot run vectorized)")
        if step <= 0:
            raise InterpreterError(op, f"the step must be positive, got {step}")
        block = op.body.block
        for iv in range(int(lb), int(ub), int(step)):
            iv_value = iv if isinstance(lb, int) else type(lb)(iv)
            values = list(run_block(interpreter, block, [iv_value, *values]))
        return tuple(values)

    @impl(xdsl_scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: xdsl_scf.IfOp, args: tuple[Any, ...]):
        if np.ndim(args[0]) and not op.results and lane_mask(interpreter) is not None:
            # A per-lane condition: each branch runs for the lanes that take it.
            condition = np.asarray(args[0], dtype=bool)
            outer = lane_mask(interpreter)
            true_block = op.true_region.block
            _with_mask(interpreter, _and_masks(outer, condition), lambda: run_block(interpreter, true_block, []))
            if op.false_region.blocks:
                _with_mask(
                    interpreter, _and_masks(outer, ~condition), lambda: run_block(interpreter, op.false_region.block, [])
                )
            return ()
        if _condition(op, args[0]):
            return run_block(interpreter, op.true_region.block, [])
        if op.false_region.blocks:
            return run_block(interpreter, op.false_region.block, [])
        return ()

    @impl(xdsl_scf.WhileOp)
    def run_while(self, interpreter: Interpreter, op: xdsl_scf.WhileOp, args: tuple[Any, ...]):
        values = list(args)
        while True:
            condition, *forwarded = run_block(interpreter, op.before_region.block, values)
            if not _condition(op, condition):
                return tuple(forwarded)
            values = list(run_block(interpreter, op.after_region.block, forwarded))

    @impl(xdsl_scf.ExecuteRegionOp)
    def run_execute_region(self, interpreter: Interpreter, op: xdsl_scf.ExecuteRegionOp, args: tuple[Any, ...]):
        if len(op.region.blocks) != 1:
            raise InterpreterError(op, "only single-block regions are supported")
        return run_block(interpreter, op.region.block, [])

    @impl(xdsl_scf.IndexSwitchOp)
    def run_index_switch(self, interpreter: Interpreter, op: xdsl_scf.IndexSwitchOp, args: tuple[Any, ...]):
        cases = list(op.cases.get_values())
        value = int(args[0])
        region = op.case_regions[cases.index(value)] if value in cases else op.default_region
        return run_block(interpreter, region.block, [])

    @impl(scf.ForallOp)
    def run_forall(self, interpreter: Interpreter, op: scf.ForallOp, args: tuple[Any, ...]):
        # The bounds' static parts and SSA operands, read once per op (xDSL's accessors
        # are slow, and a dispatch runs its loops every call).
        known = interpreter.get_data(ScfFunctions, "forall_bounds", dict)
        if op not in known:
            known[op] = tuple(
                (tuple(static.get_values()), tuple(dynamic))
                for static, dynamic in (
                    (op.staticLowerBound, op.dynamicLowerBound),
                    (op.staticUpperBound, op.dynamicUpperBound),
                    (op.staticStep, op.dynamicStep),
                )
            )
        (lower_s, lower_d), (upper_s, upper_d), (step_s, step_d) = known[op]
        lower = _mixed_values(interpreter, lower_s, lower_d)
        upper = _mixed_values(interpreter, upper_s, upper_d)
        steps = mixed_ints(interpreter, step_s, step_d)
        if not op.outputs and (lane_mask(interpreter) is not None or any(np.ndim(b) for b in [*lower, *upper])):
            # Nested in a loop nest that runs as lanes.
            _run_lanes(interpreter, op, op.region.block, lower, upper, steps)
            return ()
        if any(s <= 0 for s in steps):
            raise InterpreterError(op, f"steps must be positive, got {steps}")
        if not op.outputs and _runs_as_lanes(interpreter, op):
            if recording(interpreter, op) and _only_stores(op):
                # Only index arithmetic and stores: where and what it stores depends on the
                # signature alone, so a repeated call makes the stores directly.
                stores: list = []
                interpreter.set_data(ScfFunctions, "captured_stores", stores)
                try:
                    _run_as_lanes(interpreter, op, lower, upper, steps)
                finally:
                    interpreter.set_data(ScfFunctions, "captured_stores", None)
                if len(stores) <= _MAX_CAPTURED_STORES:
                    replay_as(interpreter, op, _replayed_stores(stores))
            else:
                _run_as_lanes(interpreter, op, lower, upper, steps)
            return ()
        outputs = [np.array(v, copy=True) for v in interpreter.get_values(op.outputs)]
        block = op.region.block
        num_ivs = len(lower)
        shared_args = list(block.args[num_ivs:])

        def apply_inserts(terminator: Operation) -> tuple[Any, ...]:
            # The scf.in_parallel body: each parallel_insert_slice writes one tile into a shared output.
            for insert in terminator.regions[0].block.ops if terminator.regions else ():
                if not isinstance(insert, ParallelInsertSliceOp):
                    raise InterpreterError(insert, "only tensor.parallel_insert_slice may appear in scf.in_parallel")
                if insert.dest not in shared_args:
                    raise InterpreterError(insert, "the destination must be a shared output of the enclosing scf.forall")
                k = shared_args.index(insert.dest)
                (source,) = interpreter.get_values([insert.source])
                insert_into(interpreter, insert, np.asarray(source), outputs[k], in_place=True)
            return ()

        ranges = [range(lo, hi, st) for lo, hi, st in zip(lower, upper, steps)]
        for ivs in itertools.product(*ranges):
            run_block(interpreter, block, [*ivs, *outputs], at_terminator=apply_inserts)
        return tuple(outputs)


FUNCTIONS = (ScfFunctions,)
