"""A relayout as the index computation of an `iree_linalg_ext.map_scatter` body.

IREE's `iree-codegen-combine-layout-transformation` folds the unpack /
collapse_shape / transpose chain of `unset_encoding` into one `map_scatter`
whose body maps every index of the packed tensor to a logical index plus an
"in bounds" mask (the walkthrough, after the pass):

    %56 = affine.linearize_index disjoint [%arg0, %arg1, %arg5, ...] by (%dim, %dim_0, 4, 8, ...)
    %57:4 = affine.delinearize_index %56 into (%dim_1, %dim_2, 128, 128)
    %58 = affine.linearize_index disjoint [%57#0, %57#2, %57#1, %57#3] by (%dim_3, 128, %dim_4, 128)
    %59:2 = affine.delinearize_index %58 into (%52, %53)
    %62 = (%59#0 < %36) && (%59#1 < %39)

That is the chain read backwards: a transpose costs nothing (it only reorders
the operands of the next linearize), each reshape is one linearize/delinearize
pair, and the pad becomes the mask. The mask is taken where the pad is: after a
pad IREE's chains reshape nothing more, but XLA's (a tile longer than the shape,
a second-level tile) may, and a later delinearize would wrap a padded index
back into bounds. `map_scatter_indexing` produces exactly
that, as data a pass can turn into ops; `evaluate` runs it on numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .relayout import Relayout
from .steps import Index, Pad, Reshape, Shape, Transpose, ravel, static, unravel


@dataclass(frozen=True)
class LinearizeDelinearize:
    """`affine.linearize_index disjoint [operands] by (linearize_basis)` then
    `affine.delinearize_index ... into (delinearize_basis)`.

    `operands` are positions in the current index list, in linearize order.
    """

    operands: tuple[int, ...]
    linearize_basis: Shape
    delinearize_basis: Shape
    linearize_shape: int | None = field(default=None, compare=False)
    """Which of `relayout.shapes()` the linearize basis is (for a pass that needs its SSA sizes)."""
    delinearize_shape: int | None = field(default=None, compare=False)
    """Which of `relayout.shapes()` the delinearize basis is."""


@dataclass(frozen=True)
class InBounds:
    """`arith.cmpi ult` of the current indices at `operands` against `bounds`, and-ed into the mask."""

    operands: tuple[int, ...]
    bounds: Shape
    bounds_shape: int | None = field(default=None, compare=False)
    """Which of `relayout.shapes()` the bounds are."""


Stage = LinearizeDelinearize | InBounds


@dataclass(frozen=True)
class MapScatterIndexing:
    """Source index -> destination index (and mask) of a map_scatter body."""

    source_rank: int
    stages: tuple[Stage, ...]
    result_order: tuple[int, ...]
    """The destination index is the final index list taken in this order."""

    def evaluate(self, index: Index) -> tuple[Index, np.ndarray]:
        """Run the body on whole index arrays: (destination index, mask)."""
        current = [np.asarray(i, dtype=np.int64) for i in index]
        shape = np.broadcast_shapes(*(np.shape(i) for i in current)) if current else ()
        mask = np.ones(shape, dtype=bool)
        for stage in self.stages:
            if isinstance(stage, InBounds):
                for position, size in zip(stage.operands, static(stage.bounds, "map_scatter")):
                    mask = mask & (current[position] < size)
                continue
            linear = ravel([current[p] for p in stage.operands], static(stage.linearize_basis, "map_scatter"))
            current = unravel(linear, static(stage.delinearize_basis, "map_scatter"))
        return [current[p] for p in self.result_order], mask


def map_scatter_indexing(relayout: Relayout, *, unpack: bool = True) -> MapScatterIndexing:
    """The map_scatter body of `relayout`.

    `unpack=True` (unset_encoding): packed index -> logical index, masked where the
    packed element is padding. `unpack=False` (set_encoding): logical index ->
    packed index, always in bounds.
    """
    shapes = relayout.shapes()
    # (step, its source shape, its result shape, and their positions in `shapes`)
    pairs = [(step, shapes[k], shapes[k + 1], k, k + 1) for k, step in enumerate(relayout.steps)]
    if unpack:
        # Walk backwards: each step maps its result shape to its source shape.
        start_shape = shapes[-1]
        moves = [(step, result, source, r, s) for step, source, result, s, r in reversed(pairs)]
    else:
        start_shape = shapes[0]
        moves = list(pairs)

    order = list(range(len(start_shape)))  # current index i is "physical" dim order[i]
    stages: list[Stage] = []
    for step, from_shape, to_shape, from_index, to_index in moves:
        if isinstance(step, Transpose):
            # Forward: result dim j is source dim perm[j]; backward: the inverse.
            if unpack:
                new_order = [0] * len(order)
                for result_dim, source_dim in enumerate(step.permutation):
                    new_order[source_dim] = order[result_dim]
            else:
                new_order = [order[p] for p in step.permutation]
            order = new_order
        elif isinstance(step, Reshape):
            stages.append(
                LinearizeDelinearize(tuple(order), tuple(from_shape), tuple(to_shape), from_index, to_index)
            )
            order = list(range(len(to_shape)))
        elif isinstance(step, Pad) and unpack:
            stages.append(InBounds(tuple(order), tuple(to_shape), to_index))
    return MapScatterIndexing(len(start_shape), tuple(stages), tuple(order))
