"""IREE encodings as XLA layouts.

A swizzle-free `encoding_info` stores the outer dims in `outerDimsPerm` order
and the inner tiles after them, in `innerDimsPos` order. XLA's single tile over
all dims in major-to-minor order `P` stores `(ceil(d/t) for d in P, t for d in
P)`. The two agree when the tiled dims appear in `innerDimsPos` in the same
order as in `P` (untiled dims get tile size 1, which adds only a unit dim).
Leading 1s of the tile are dropped (a size-1 tile on the most-major dims changes
nothing), so the walkthrough's LHS `innerDimsPos = [0, 1], innerTileSizes =
[8, 1]` is `{1,0:T(8,1)}` and its RHS with `outerDimsPerm = [1, 0]` is
`{0,1:T(8,1)}`.

Anything else that is static (inner tiles in another order, a swizzle) is still
an XLA layout, through repeated tiling. After the first tile, a further tile
that is 1 everywhere except `x` on one within-tile dim splits that dim and moves
its minor part `x` to the innermost position, leaving the rest in place (plus
unit dims, which change no index). So:

1. split every inner tile dim into the factors of its swizzle group, minor
   factor first;
2. move the factors to the innermost position one by one, in the physical
   order the encoding wants.

`*` entries fold away the unit dims each tile leaves behind.

The result is long but exact; it is checked against the encoding's own indices
before it is returned. Only a dynamic or scalable tile size has no XLA form.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo

from .iree_encoding import encoding_relayout, inner_tiles, verify_encoding_info
from .xla_shape import COMBINE_DIMENSION, XlaLayout, XlaShape
from .xla_tiling import xla_relayout


class NotExpressible(ValueError):
    """The encoding has no XLA layout; the message says why."""


@dataclass(frozen=True)
class _Piece:
    """A within-tile dim: the index component `(e_dim // stride) % size`."""

    dim: int
    size: int
    stride: int


_UNIT = _Piece(-1, 1, 1)


def iree_to_xla_layout(info: MaterializeEncodingInfo, rank: int) -> XlaLayout:
    """The XLA layout that stores a rank-`rank` tensor exactly as `info` does."""
    verify_encoding_info(info, rank)
    tiles = inner_tiles(info)
    if any(t is None for t in tiles):
        raise NotExpressible("an inner tile size is dynamic or scalable; XLA tiles are static")
    major_to_minor = list(info.outer_dims_perm) if info.outer_dims_perm else list(range(rank))
    minor_to_major = tuple(reversed(major_to_minor))
    size_of: dict[int, int] = dict(zip(info.inner_dims_pos, tiles))  # type: ignore[arg-type]
    first_tile = [size_of.get(d, 1) for d in major_to_minor]

    target = _target_order(info, size_of)
    pieces = [_Piece(d, size_of.get(d, 1), 1) for d in major_to_minor]
    if [p for p in pieces if p.size != 1] == target:
        # One tile says it all; most-major 1s are implied.
        while len(first_tile) > 1 and first_tile[0] == 1:
            first_tile.pop(0)
        has_tile = any(t != 1 for t in first_tile)
        return XlaLayout(minor_to_major, (tuple(first_tile),) if has_tile else ())

    layout = XlaLayout(minor_to_major, (tuple(first_tile), *_reordering_tiles(pieces, target)))
    _check_same_indices(info, layout, rank)
    return layout


def _target_order(info: MaterializeEncodingInfo, size_of: dict[int, int]) -> list[_Piece]:
    """The within-tile factors, major to minor, as the encoding stores them."""
    factors: list[_Piece] = []
    for position, dim in enumerate(info.inner_dims_pos):
        sizes = [d.size for d in info.swizzle.expand_shape[position]] if info.swizzle else [size_of[dim]]
        stride = size_of[dim]
        for size in sizes:  # a group is row-major: its first factor is the most major
            stride //= size
            factors.append(_Piece(dim, size, stride))
    if info.swizzle is not None:
        factors = [factors[p] for p in info.swizzle.permutation]
    return [f for f in factors if f.size != 1]


def _reordering_tiles(pieces: list[_Piece], target: list[_Piece]) -> list[tuple[int, ...]]:
    """Tiles after the first that turn the within-tile `pieces` into `target` order."""
    tiles: list[tuple[int, ...]] = []

    def split_off(position: int, size: int) -> None:
        # One tile over all within-tile dims: `size` on pieces[position], whose
        # major part stays in place while its minor `size` part becomes the
        # innermost non-unit dim; `*` folds away unit dims left by earlier tiles
        # (merging a size-1 dim into its neighbour changes no index); 1 elsewhere.
        tile: list[int] = []
        kept: list[_Piece] = []
        moved: list[_Piece] = []
        for i, piece in enumerate(pieces):
            if i == position:
                tile.append(size)
                kept.append(_Piece(piece.dim, piece.size // size, piece.stride * size))
                moved.append(_Piece(piece.dim, size, piece.stride))
            elif piece.size == 1 and i != len(pieces) - 1:
                tile.append(COMBINE_DIMENSION)
            else:
                tile.append(1)
                kept.append(piece)
                moved.append(_UNIT)
        tiles.append(tuple(tile))
        pieces[:] = kept + moved

    # 1. One piece per factor: peel each dim's factors off, minor first.
    for dim in {p.dim for p in pieces}:
        for factor in sorted((f for f in target if f.dim == dim), key=lambda f: f.stride):
            position = next(i for i, p in enumerate(pieces) if p.dim == dim and p.stride == factor.stride)
            if pieces[position].size != factor.size:
                split_off(position, factor.size)
    # 2. Move the factors innermost in target order, until the order is right.
    for factor in target:
        if [p for p in pieces if p.size != 1] == target:
            break
        position = next(i for i, p in enumerate(pieces) if p == factor)
        split_off(position, factor.size)
    return tiles


def _check_same_indices(info: MaterializeEncodingInfo, layout: XlaLayout, rank: int) -> None:
    """Both layouts give every element of a small sample tensor the same offset."""
    tiles = dict(zip(info.inner_dims_pos, inner_tiles(info)))
    sample = tuple(2 * tiles[d] + 1 if d in tiles else 3 for d in range(rank))  # type: ignore[operator]
    xla = xla_relayout(XlaShape("f32", sample, layout))
    if not np.array_equal(xla.index_grid(), encoding_relayout(info, sample).index_grid()):
        raise NotExpressible(f"internal error: {layout} does not reproduce the encoding")
