"""Ops of materialized dispatch code: ``iree_codegen`` and ``iree_linalg_ext``.

* ``load_from_buffer`` / ``store_to_buffer`` move a whole tensor between a
  memref (an ndarray view of a binding) and a value. A read-only buffer that a
  pack filled entirely from a read-only source is loaded as the equivalent
  strided view of that source (``relayout_origins.py``), which a contraction
  reads as the source matrix without copying it.
* ``inner_tiled`` is a matmul on swizzled tiles. Each operand is ``outer dims x
  swizzled inner tile``; the swizzle of its kind (``kind.swizzle(operand)``)
  says how a plain tile (M0xK0 for the LHS, N0xK0 for the RHS, M0xN0 for the
  accumulator) was expanded and transposed. The interpreter undoes the input
  swizzles, contracts outer and inner dims in one BLAS call or einsum, and adds
  the product, swizzled back, to the accumulator. It runs the data-tiled kinds
  (``#iree_gpu.data_tiled_mma_layout``, ``#iree_gpu.data_tiled_scaled_mma_layout``,
  ``#iree_cpu.data_tiled_mma_layout``) and the single intrinsics
  (``#iree_gpu.mma_layout``, ``#iree_gpu.scaled_mma_layout``) on subgroup
  (undistributed) tiles; the scaled kinds multiply every ``Kb`` block of the
  inputs by its scale.
* ``map_scatter`` (``map_store`` in IREE 3.13) evaluates its index region once,
  vectorized over every input index, then scatters the input elements whose
  mask is true to the computed output indices. A region that only regroups
  index digits (every relayout the pipeline folds into one) runs as a few
  strided copies instead (``relayout_view.py``).
"""

from __future__ import annotations

import math
import string
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerType, MemRefType, NoneAttr, Signedness
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir.affine import AffineDimExpr, AffineMap

from mini_iree.compiler.interpreter.buffers import scratch_pool
from mini_iree.compiler.interpreter.core import InterpreterError, run_block
from mini_iree.compiler.interpreter.relayout_origins import note_write, relayout_origins
from mini_iree.compiler.interpreter.relayout_view import PlanCache, copy_into, scatter_plan
from mini_iree.compiler.interpreter.replay import replay_as
from mini_iree.compiler.interpreter.store_destination import store_buffer_value, usable_buffer
from mini_iree.dialects import iree_codegen, iree_cpu, iree_gpu, iree_linalg_ext
from mini_iree.compiler.layout.iree_encoding import swizzle_relayout
from mini_iree.dialects.iree_codegen import SwizzleDim, TileSwizzle

__all__ = ["CodegenFunctions", "LinalgExtFunctions", "swizzle_tile", "unswizzle_tile"]


# ---------------------------------------------------------------------------
# Swizzles
# ---------------------------------------------------------------------------


def unswizzle_tile(array: np.ndarray, swizzle: TileSwizzle, outer_rank: int) -> np.ndarray:
    """The plain 2-D tiles of a swizzled operand: ``outer x swizzled`` -> ``outer x T0 x T1``."""
    return swizzle_relayout(array.shape[:outer_rank], swizzle).unpack(array)


def swizzle_tile(array: np.ndarray, swizzle: TileSwizzle, outer_rank: int) -> np.ndarray:
    """The inverse of :func:`unswizzle_tile`: plain tiles -> ``outer x swizzled``."""
    return swizzle_relayout(array.shape[:outer_rank], swizzle).pack(array)


def _swizzles_for(kind, maps, arrays) -> list:
    """The operand swizzles the producer of this op used.

    The same kind attribute meant two layouts: until October 2025 IREE moved the
    cross-thread dims outermost (the walkthrough's tiles, e.g. LHS 8x4x4x4x4),
    IREE 3.13 does not. The operands' inner shapes tell which one was used; when
    both fit, a kind without `operands_interleaving_intrinsics_k` (a field the
    older IREE did not print) is read the older way.
    """
    older_first = isinstance(kind.operands_interleaving_intrinsics_k, NoneAttr)
    candidates = [[kind.swizzle(i, cross_thread_outermost=era) for i in range(3)] for era in (older_first, not older_first)]

    def fits(swizzles) -> bool:
        for array, map_, swizzle in zip(arrays, maps, swizzles):
            if swizzle is None or list(array.shape[len(map_.results) :]) != swizzle.swizzled_shape():
                return False
        return True

    return next((c for c in candidates if fits(c)), candidates[0])


# The plain (unswizzled) tile of each operand, as letters of the contraction:
# M, N, K as usual, B the elements of one scale block (Kb).
_PLAIN_TILES = ("MK", "NK", "MN")
_SCALED_PLAIN_TILES = ("MKB", "NKB", "MK", "NK", "MN")


def _plain_swizzle(shape: list[int], stored_as: list[int]) -> TileSwizzle:
    """A swizzle for a kind whose tiles are plain matrices: the plain tile has
    one dim per entry of ``shape`` and is stored transposed by ``stored_as``."""
    return TileSwizzle([[SwizzleDim.internal(size)] for size in shape], list(stored_as))


def _kind_swizzles(op: iree_codegen.InnerTiledOp, kind: Any, maps: list[AffineMap], arrays: list[np.ndarray]):
    """Per operand, how its plain tile is laid out in the operand's inner dims.

    Plain tiles are LHS MxK, RHS NxK, ACC MxN (the scaled kinds: LHS MxKxKb,
    RHS NxKxKb, scales MxK and NxK). None when the interpreter cannot run the kind.
    """
    if isinstance(kind, iree_gpu.DataTiledMMAAttr):
        return _swizzles_for(kind, maps, arrays)
    if isinstance(kind, iree_cpu.DataTiledMMAAttr):
        swizzles = [kind.swizzle(i) for i in range(3)]
        if any(d.symbolic_multiplier != "One" for s in swizzles for d in s.flat_dims()):
            raise InterpreterError(op, f"{kind} has scalable tiles; their size is only known on the target")
        return swizzles
    if isinstance(kind, iree_gpu.DataTiledScaledMMAAttr):
        return [kind.swizzle(i) for i in range(5)]
    if isinstance(kind, iree_gpu.MMAAttr) and not kind.is_col_major:
        types = kind.undistributed_tile_types()
        if types is None:
            return None
        (m, k), (_, n) = types[0].get_shape(), types[1].get_shape()
        # The RHS tile is KxN: the plain NxK tile transposed.
        return [_plain_swizzle([m, k], [0, 1]), _plain_swizzle([n, k], [1, 0]), _plain_swizzle([m, n], [0, 1])]
    if isinstance(kind, iree_gpu.ScaledMMAAttr) and not kind.col_major.value.data:
        m, n, k, kb = iree_gpu.scaled_intrinsic_mnkkb(kind.intrinsic.data)
        return [
            _plain_swizzle([m, k, kb], [0, 1, 2]),
            _plain_swizzle([n, k, kb], [1, 2, 0]),  # stored K x Kb x N
            _plain_swizzle([m, k], [0, 1]),
            _plain_swizzle([n, k], [1, 0]),  # stored K x N
            _plain_swizzle([m, n], [0, 1]),
        ]
    return None


def _unsigned_inputs(kind: Any) -> tuple[bool, bool]:
    """Whether the LHS / RHS hold unsigned integers (vpdpbusd reads one operand
    unsigned; the generic scalar intrinsic says so in its types)."""
    if not isinstance(kind, iree_cpu.DataTiledMMAAttr):
        return False, False
    name = kind.intrinsic.data.value
    if name.endswith("_UI8_I8"):
        return True, False
    if name.endswith("_I8_UI8"):
        return False, True

    def unsigned(t: Any) -> bool:
        return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED

    return unsigned(kind.lhs_type), unsigned(kind.rhs_type)


def _canonical_inner(op: iree_codegen.InnerTiledOp, index: int, array: np.ndarray, outer_rank: int, shape: list[int]):
    """The operand with its inner dims exactly ``shape``: unit dims the op may
    add or drop (the verifier compares tiles without them) are reshaped away."""
    inner = list(array.shape[outer_rank:])
    if inner == shape:
        return array
    if [d for d in inner if d != 1] != [d for d in shape if d != 1]:
        raise InterpreterError(
            op, f"operand {index} has shape {array.shape}; the kind expects inner tiles {tuple(shape)} "
            f"after {outer_rank} outer dims",
        )  # fmt: skip
    return array.reshape(array.shape[:outer_rank] + tuple(shape))


def _run_inner_tiled(op: iree_codegen.InnerTiledOp, arrays: list[np.ndarray]) -> np.ndarray:
    """The op on whole arrays: undo each input's swizzle (and permutation),
    contract outer and tile dims in one einsum (or GEMM), and add the product,
    laid out as the accumulator is, to a copy of the accumulator."""
    kind = op.kind
    order = op.kind_operand_order()
    arrays = [arrays[i] for i in order]
    if isinstance(op.semantics, iree_codegen.InnerTiledSemanticsAttr) and op.semantics.is_distributed():
        raise InterpreterError(op, "distributed inner_tiled (one thread's share of a tile) cannot be interpreted")
    maps = [op.indexing_maps_list()[i] for i in order]
    scaled = len(maps) == 5
    if len(maps) not in (3, 5) or len(op.outputs) != 1:
        raise InterpreterError(op, f"expected 2 or 4 inputs and 1 output, got {len(maps)} operands")
    swizzles = _kind_swizzles(op, kind, maps, arrays)
    if swizzles is None or any(s is None for s in swizzles):
        raise InterpreterError(op, f"inner_tiled with kind {kind} is not supported by the interpreter")
    permutations = None
    if op.permutations is not None:
        permutations = [list(op.permutations.data[i].get_values()) for i in order]

    acc_dtype = arrays[-1].dtype
    unsigned = _unsigned_inputs(kind)
    plain: list[np.ndarray] = []
    stored_inner: tuple[int, ...] = ()
    for index, (array, map_, swizzle) in enumerate(zip(arrays, maps, swizzles)):
        outer_rank = len(map_.results)
        if permutations is not None:
            # The operand holds its tile permuted (S[i] = C[perm[i]]): undo that first.
            perm = permutations[index]
            inverse = [perm.index(i) for i in range(len(perm))]
            array = array.transpose(list(range(outer_rank)) + [outer_rank + p for p in inverse])
        if index == len(arrays) - 1:
            _canonical_inner(op, index, array, outer_rank, swizzle.swizzled_shape())
            stored_inner = array.shape[outer_rank:]
            break  # the accumulator is updated in its own layout
        array = _canonical_inner(op, index, array, outer_rank, swizzle.swizzled_shape())
        if index < 2 and unsigned[index] and array.dtype.kind == "i":
            array = array.view(array.dtype.str.replace("i", "u"))
        plain.append(unswizzle_tile(array, swizzle, outer_rank).astype(acc_dtype, copy=False))

    letters = [_outer_letters(op, m) for m in maps]
    tiles = _SCALED_PLAIN_TILES if scaled else _PLAIN_TILES
    if not scaled and (letters[0], letters[1], letters[2]) == ("ac", "bc", "ab"):
        product = _tiled_matmul(plain[0], plain[1])
    else:
        # Any other loop structure: one einsum over the outer loops (from the
        # indexing maps) and the tile dims. Scaled kinds multiply each input
        # element by its block's scale.
        spec = ",".join(l + t.upper() for l, t in zip(letters[:-1], tiles[:-1]))
        product = np.einsum(f"{spec}->{letters[-1]}{tiles[-1]}", *plain, optimize=True)
    acc_map = maps[-1]
    outer_rank = len(acc_map.results)
    acc_swizzle = swizzles[-1]
    acc_view = swizzle_tile(product, acc_swizzle, outer_rank).reshape(product.shape[:outer_rank] + stored_inner)
    if permutations is not None:
        perm = permutations[-1]
        acc_view = acc_view.transpose(list(range(outer_rank)) + [outer_rank + p for p in perm])
    result = np.array(arrays[-1], copy=True)
    result += acc_view.astype(acc_dtype, copy=False)
    return result


def _outer_letters(op: iree_codegen.InnerTiledOp, map_: AffineMap) -> str:
    """The einsum letters of a map's results: loop ``d<i>`` is letter ``i``."""
    letters = ""
    for expr in map_.results:
        if not isinstance(expr, AffineDimExpr):
            raise InterpreterError(op, f"indexing map result {expr} is not a loop dimension")
        letters += string.ascii_lowercase[expr.position]
    return letters


def _tiled_matmul(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """``out[m1, n1, m0, n0] = sum lhs[m1, k1, m0, k0] * rhs[n1, k1, n0, k0]`` as one GEMM.

    Reordering each operand to (rows, K) = (outer x tile rows, K1 x K0) turns
    the tiled contraction into ``L @ R.T``.
    """
    m1, k1, m0, k0 = lhs.shape
    n1, _, n0, _ = rhs.shape
    left = lhs.transpose(0, 2, 1, 3).reshape(m1 * m0, k1 * k0)
    right = rhs.transpose(0, 2, 1, 3).reshape(n1 * n0, k1 * k0)
    return (left @ right.T).reshape(m1, m0, n1, n0).transpose(0, 2, 1, 3)


@register_impls
class CodegenFunctions(InterpreterFunctions):
    """``iree_codegen``: buffer <-> tensor moves and ``inner_tiled``."""

    @impl(iree_codegen.LoadFromBufferOp)
    def run_load_from_buffer(self, interpreter: Interpreter, op: iree_codegen.LoadFromBufferOp, args: tuple):
        buffer = args[0]
        if not isinstance(buffer, np.ndarray):
            raise InterpreterError(op, f"expected a memref, got {type(buffer).__name__}")
        if not buffer.flags.writeable:
            # A read-only buffer (a `ReadOnly` binding) cannot change while the
            # value lives: share its memory. A packed buffer known to equal a view
            # of its pack's source (relayout_origins.py) is that view: the same
            # values, which a contraction can read as the source matrix itself.
            origin = relayout_origins(interpreter).origin(buffer)
            return (origin if origin is not None else buffer,)
        return (buffer.copy(),)

    @impl(iree_codegen.StoreToBufferOp)
    def run_store_to_buffer(self, interpreter: Interpreter, op: iree_codegen.StoreToBufferOp, args: tuple):
        value, buffer = np.asarray(args[0]), args[1]
        if not isinstance(buffer, np.ndarray) or buffer.shape != value.shape:
            raise InterpreterError(op, f"stores a {value.shape} tensor into a memref of shape {np.shape(buffer)}")
        if not _in_place(buffer, value):
            note_write(interpreter, buffer)
        copy_into(buffer, value)
        return ()

    @impl(iree_codegen.InnerTiledOp)
    def run_inner_tiled(self, interpreter: Interpreter, op: iree_codegen.InnerTiledOp, args: tuple):
        return (_run_inner_tiled(op, [np.asarray(a) for a in args]),)


# ---------------------------------------------------------------------------
# map_scatter / map_store
# ---------------------------------------------------------------------------


def _planned_scatter(interpreter: Interpreter, op: Any, source: np.ndarray, output_shape, dtype):
    """The op's scatter as strided copies (see ``relayout_view``), if its body is a digit renaming."""
    if source.ndim == 0 or source.dtype != dtype:
        return None
    cache = interpreter.get_data(LinalgExtFunctions, "scatter_plans", PlanCache)
    plan = cache.plan(
        op.transformation_region.block, source.shape, lambda value: interpreter.get_values([value])[0], scatter_plan
    )
    # Out-of-bounds targets take the general path, which reports them.
    if plan is None or len(plan.out_places) != len(output_shape) or not plan.in_bounds(output_shape):
        return None
    return plan


def _run_map_store(interpreter: Interpreter, op: Any, source: np.ndarray, output: np.ndarray, plan=None) -> None:
    """Scatter ``source`` into ``output`` (in place) through the op's index region."""
    if plan is not None:
        plan.copy(source, output)
        return
    block = op.transformation_region.block
    # The region runs once on index grids (sparse: each broadcasts along its own
    # dim), so every index and mask it computes is a whole array.
    grids = np.indices(source.shape, dtype=np.int64, sparse=True) if source.ndim else ()
    yielded = run_block(interpreter, block, list(grids))
    if len(yielded) != output.ndim + 1:
        raise InterpreterError(op, f"region yields {len(yielded)} values; expected {output.ndim} indices and a mask")
    shape = source.shape
    indices = [np.broadcast_to(np.asarray(i, dtype=np.int64), shape) for i in yielded[:-1]]
    mask = np.broadcast_to(np.asarray(yielded[-1], dtype=bool), shape)
    targets = tuple(i[mask] for i in indices)
    for dim, (target, extent) in enumerate(zip(targets, output.shape)):
        bad = (target < 0) | (target >= extent)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            where = tuple(int(g[mask][first]) for g in (np.broadcast_to(g, shape) for g in grids))
            raise InterpreterError(
                op,
                f"input element {list(where)} maps to index {int(target[first])} in dim {dim} of an output of "
                f"shape {output.shape} (out of bounds)",
            )
    output[targets] = source[mask]


def _run_map_load(interpreter: Interpreter, op: Any, source: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Gather an array of ``shape`` from ``source`` through the op's index region (a fresh array).

    The region runs once on the output's index grids; where a yielded index is
    outside the source, the element is the yielded padding value.
    """
    grids = np.indices(shape, dtype=np.int64, sparse=True) if shape else ()
    yielded = run_block(interpreter, op.transformation_region.block, list(grids))
    if len(yielded) != source.ndim + 1:
        raise InterpreterError(op, f"region yields {len(yielded)} values; expected {source.ndim} indices and a padding")
    indices = [np.broadcast_to(np.asarray(i, dtype=np.int64), shape) for i in yielded[:-1]]
    inside = np.ones(shape, dtype=bool)
    for index, extent in zip(indices, source.shape):
        inside &= (index >= 0) & (index < extent)
    # Out-of-bounds places read element 0 (any in-bounds one would do), then take the padding.
    clipped = tuple(np.where(inside, index, 0) for index in indices)
    if source.size == 0:
        gathered = np.zeros(shape, dtype=source.dtype)
    else:
        gathered = source[clipped] if clipped else np.broadcast_to(source, shape)
    padding = np.asarray(yielded[-1], dtype=source.dtype)
    return np.where(inside, gathered, padding).astype(source.dtype, copy=False)


def _in_place(buffer: np.ndarray, value: np.ndarray) -> bool:
    """Whether ``value`` already is ``buffer``'s memory (a value computed in its store destination)."""
    return (
        buffer.__array_interface__["data"][0] == value.__array_interface__["data"][0]
        and buffer.strides == value.strides
        and buffer.dtype == value.dtype
    )


def _store_destination(interpreter: Interpreter, op: Any, source: np.ndarray, init: Any) -> np.ndarray | None:
    """The buffer this relayout's result is stored to, if the result may be computed there."""
    cache = interpreter.get_data(LinalgExtFunctions, "store_destinations", dict)
    if op not in cache:
        cache[op] = store_buffer_value(op, through_relayout=False)
    if cache[op] is None:
        return None
    (buffer,) = interpreter.get_values([cache[op]])
    init = np.asarray(init)
    if not usable_buffer(buffer, init.shape, init.dtype, (source, init)):
        return None
    return buffer


_UNPLANNED = object()


def _replayed_view(shape: tuple[int, ...], strides: tuple[int, ...]):
    """A repeated call's relayout that is a read-only strided view of its input (``replay.replay_as``)."""

    def replay(interpreter: Interpreter, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        return (np.lib.stride_tricks.as_strided(np.asarray(inputs[0]), shape, strides, writeable=False),)

    return replay


def _constant(value: Any) -> bool:
    """Whether ``value`` is one value broadcast (``tensor.empty``, a fill): no stride moves."""
    return isinstance(value, np.ndarray) and value.size > 0 and not any(value.strides)


@register_impls
class LinalgExtFunctions(InterpreterFunctions):
    """``iree_linalg_ext.map_scatter``, its 3.13 name ``map_store``, and ``map_load``."""

    def _map_store(self, interpreter: Interpreter, op: Any, args: tuple, plan: Any = _UNPLANNED):
        source = np.asarray(args[0])
        output = args[1]
        if plan is _UNPLANNED:
            plan = _planned_scatter(interpreter, op, source, np.shape(output), np.asarray(output).dtype)
            if plan is not None:
                # The plan depends on shapes and index values only: a repeated call reuses it.
                replay_as(interpreter, op, lambda interpreter, inputs: self._map_store(interpreter, op, inputs, plan))
        if isinstance(op.output.type, MemRefType):
            # Buffer semantics: write into the memref, no result.
            note_write(interpreter, output)
            _run_map_store(interpreter, op, source, output, plan)
            return ()
        buffer = _store_destination(interpreter, op, source, output)
        if buffer is not None:
            # Computed where it is stored next (store_destination.py): the store copies nothing.
            note_write(interpreter, buffer)
            complete = plan is not None and plan.count() == math.prod(np.shape(output))
            if not complete:
                np.copyto(buffer, output)  # elements no input maps to keep the init's values
            _run_map_store(interpreter, op, source, buffer, plan)
            if complete and not source.flags.writeable:
                # Every element came from the (unchanging) source: remember the
                # buffer as a view of it, for whoever loads it (relayout_origins.py).
                view = plan.view(source, buffer.shape)
                if view is not None:
                    relayout_origins(interpreter).record(buffer, view)
            elif plan is not None and not source.flags.writeable and _constant(output):
                # A pack with padding: the source where the plan puts it, the init's one value
                # everywhere else.
                relayout_origins(interpreter).record_padded(buffer, source, plan, output)
            return (buffer,)
        if plan is not None and plan.count() == math.prod(np.shape(output)):
            # Every output element is written (each at most once): the init's
            # contents do not matter. When the relayout is a strided view of the
            # input, that view is the result (a store copies it once, later).
            view = plan.view(source, np.shape(output))
            if view is not None:
                # A repeated call makes the same view of its source (shapes and strides are the same).
                replay_as(interpreter, op, _replayed_view(view.shape, view.strides))
                return (view,)
            result = scratch_pool(interpreter).empty(np.shape(output), np.asarray(output).dtype)
        else:
            # Elements no input maps to keep the init's values.
            result = scratch_pool(interpreter).empty(np.shape(output), np.asarray(output).dtype)
            np.copyto(result, output)
        _run_map_store(interpreter, op, source, result, plan)
        return (result,)

    @impl(iree_linalg_ext.MapLoadOp)
    def run_map_load(self, interpreter: Interpreter, op: iree_linalg_ext.MapLoadOp, args: tuple):
        source, output = np.asarray(args[0]), args[1]
        shape = np.shape(output)
        values = _run_map_load(interpreter, op, source, shape)
        if isinstance(op.output.type, MemRefType):
            note_write(interpreter, output)
            copy_into(output, values)
            return ()
        return (values,)

    @impl(iree_linalg_ext.MapScatterOp)
    def run_map_scatter(self, interpreter: Interpreter, op: iree_linalg_ext.MapScatterOp, args: tuple):
        return self._map_store(interpreter, op, args)

    @impl(iree_linalg_ext.MapStoreOp)
    def run_map_store(self, interpreter: Interpreter, op: iree_linalg_ext.MapStoreOp, args: tuple):
        return self._map_store(interpreter, op, args)


@register_impls
class TileQueryFunctions(InterpreterFunctions):
    """``iree_codegen.query_tile_sizes``: the tiles the VMVX runtime's microkernels choose
    (``iree_uk_query_tile_sizes_2d``: its generic M0 = N0 = 8, K0 = 4, per operand role)."""

    @impl(iree_codegen.QueryTileSizesOp)
    def run_query_tile_sizes(self, interpreter: Interpreter, op: iree_codegen.QueryTileSizesOp, args: tuple):
        from mini_iree.compiler.materialize_encoding.layouts import runtime_tile_sizes

        tiles = runtime_tile_sizes(op.tensor_type)
        if tiles is None or len(tiles) != len(op.results):
            raise InterpreterError(op, f"the runtime has no tile sizes for {op.tensor_type}")
        return tuple(tiles)


FUNCTIONS = (CodegenFunctions, LinalgExtFunctions, TileQueryFunctions)
