"""`linalg.pack` and `linalg.unpack` as pad / reshape / transpose steps, for static and dynamic sizes.

MLIR's `linalg::lowerPack` writes a pack as

    tensor.pad (high, to whole tiles) -> tensor.expand_shape (dim -> [outer, tile]) -> linalg.transpose

(outer dims in `outer_dims_perm` order, tiles innermost in `inner_dims_pos` order)
and `lowerUnPack` an unpack as transpose (each tile next to its outer dim) ->
`tensor.collapse_shape` -> `tensor.extract_slice` (dropping the padding). Both
are written here once, over size expressions (`size_expr.py`): a static shape
is all `Const`s, a dynamic one has `Dim`s, and each step carries the sizes of
its result. `iree_encoding.encoding_relayout` (the layout an `encoding_info`
stands for) and combine-layout-transformation (which folds a dispatch's
relayout chain into one `map_scatter`) both read packs through these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .shapes import Shape
from .size_expr import SizeExpr, ceildiv, constant_value, div, mul, padded, size
from .steps import Pad, Reshape, Step, Transpose

__all__ = ["SizedStep", "Slice", "collapsed_sizes", "pack_steps", "shape_of", "unpack_steps"]


@dataclass(frozen=True)
class Slice:
    """Keep the leading `shape` of each dimension (a zero-offset, unit-stride `tensor.extract_slice`).

    The inverse of a `Pad`: what an unpack does to the padding its pack added.
    """

    shape: Shape


@dataclass(frozen=True)
class SizedStep:
    """A step and the sizes of its result."""

    step: Step | Slice
    sizes: tuple[SizeExpr, ...]


def shape_of(sizes: Sequence[SizeExpr | int]) -> Shape:
    """The static shape of `sizes` (`None` where a size is only known at run time)."""
    return tuple(constant_value(s) for s in sizes)


def collapsed_sizes(sizes: Sequence[SizeExpr], groups: Sequence[Sequence[int]]) -> list[SizeExpr]:
    """The sizes of a `tensor.collapse_shape`: each group's product (dynamic sizes, then the static factor)."""
    return [mul(*(sizes[d] for d in group)) for group in groups]


def _is_multiple(value: SizeExpr, tile: SizeExpr) -> bool:
    """Whether `value` is known to be a whole number of `tile`s (a unit tile always is)."""
    v, t = constant_value(value), constant_value(tile)
    return t == 1 or (v is not None and t is not None and v % t == 0)


def pack_steps(
    sizes: Sequence[SizeExpr | int],
    inner_dims_pos: Sequence[int],
    inner_tiles: Sequence[SizeExpr | int],
    outer_dims_perm: Sequence[int] = (),
    outer_sizes: Sequence[SizeExpr | int] | None = None,
) -> list[SizedStep]:
    """`lowerPack`: [pad], expand, transpose, each with its result sizes.

    `outer_sizes` are the pack's outer sizes (in `outer_dims_perm` order) where
    the IR already has them (its destination's), else `ceildiv(size, tile)`. The
    pad is left out when every tiled dim is known to hold whole tiles. The expand
    and the transpose are always there, identities included, as lowerPack
    creates them.
    """
    rank = len(sizes)
    source = [size(s) for s in sizes]
    tile_of = {d: size(t) for d, t in zip(inner_dims_pos, inner_tiles, strict=True)}
    perm = tuple(outer_dims_perm) or tuple(range(rank))
    if outer_sizes is not None:
        outer = {perm[j]: size(outer_sizes[j]) for j in range(rank)}
    else:
        outer = {d: ceildiv(source[d], t) for d, t in tile_of.items()}
    steps: list[SizedStep] = []

    padded_sizes = list(source)
    for d, tile in tile_of.items():
        if _is_multiple(source[d], tile):
            continue
        t = constant_value(tile)
        padded_sizes[d] = padded(outer[d], source[d], t) if t is not None else mul(outer[d], tile)
    if any(p is not s for p, s in zip(padded_sizes, source)):
        steps.append(SizedStep(Pad(shape_of(padded_sizes)), tuple(padded_sizes)))

    # Split each tiled dim into (outer, tile).
    expanded: list[SizeExpr] = []
    groups: list[tuple[int, ...]] = []
    outer_axis: dict[int, int] = {}
    inner_axis: dict[int, int] = {}
    for d in range(rank):
        start = len(expanded)
        outer_axis[d] = start
        if d in tile_of:
            expanded += [div(padded_sizes[d], tile_of[d]), tile_of[d]]
            inner_axis[d] = start + 1
        else:
            expanded.append(padded_sizes[d])
        groups.append(tuple(range(start, len(expanded))))
    steps.append(SizedStep(Reshape(shape_of(expanded), tuple(groups)), tuple(expanded)))

    order = tuple(outer_axis[d] for d in perm) + tuple(inner_axis[d] for d in inner_dims_pos)
    steps.append(SizedStep(Transpose(order), tuple(expanded[p] for p in order)))
    return steps


def unpack_steps(
    sizes: Sequence[SizeExpr | int],
    inner_dims_pos: Sequence[int],
    outer_dims_perm: Sequence[int],
    dest_sizes: Sequence[SizeExpr | int],
) -> list[SizedStep]:
    """`lowerUnPack`: transpose, collapse, [slice], each with its result sizes.

    `sizes` are the packed tensor's, `dest_sizes` the unpacked result's; the slice
    is left out when the collapsed shape is statically the result's.
    """
    packed = [size(s) for s in sizes]
    dest = [size(s) for s in dest_sizes]
    rank = len(dest)
    perm = tuple(outer_dims_perm) or tuple(range(rank))
    # Packed dim of outer dim d, and of its tile.
    outer_pos = {perm[j]: j for j in range(rank)}
    tile_pos = {d: rank + k for k, d in enumerate(inner_dims_pos)}
    order: list[int] = []
    groups: list[tuple[int, ...]] = []
    for d in range(rank):
        start = len(order)
        order.append(outer_pos[d])
        if d in tile_pos:
            order.append(tile_pos[d])
        groups.append(tuple(range(start, len(order))))
    transposed = [packed[p] for p in order]
    steps = [SizedStep(Transpose(tuple(order)), tuple(transposed))]
    collapsed = collapsed_sizes(transposed, groups)
    collapsed_shape = shape_of(collapsed)
    steps.append(SizedStep(Reshape(collapsed_shape, tuple(groups), collapse=True), tuple(collapsed)))
    dest_shape = shape_of(dest)
    if collapsed_shape != dest_shape or None in dest_shape:
        steps.append(SizedStep(Slice(dest_shape), tuple(dest)))
    return steps
