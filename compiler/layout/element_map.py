"""Where each element of a drawn layout sits: its offset, its tile and, under a swizzle, its expand dims.

A picture of a layout is the logical grid grown by the layout's padding (the
first `Pad` reached through transposes, as `drawing.py` draws it). For every
cell of that grid this module answers, from the `Relayout` alone:

- the offset in the physical buffer (the row-major index of the physical
  coordinates, as `Relayout.linear_index` computes it);
- whether the cell is an element or padding;
- its coordinate in every dim of the physical shape (`Relayout.physical_index`),
  each dim named: an outer (tile) dim of the pack, a dim of the inner tile, or,
  under a GPU swizzle, one of the `expandShape` dims with IREE's kind
  (CrossThread, CrossIntrinsic, Internal).

`factor_by_axis` and `additive_terms` write a grid-shaped answer compactly: a
pack or a swizzle only splits and permutes dims, so each physical coordinate
depends on one logical index, and the offset (a row-major sum of them) is a sum
of one term per logical index. Both are checked against the whole grid before
they are used; a layout that mixes dims (an XLA `*` tile) keeps the whole grid.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .relayout import Relayout
from .steps import Pad, Transpose, ravel, static


@dataclass(frozen=True)
class PhysicalDim:
    """One dim of the physical (packed, maybe swizzled) shape, as a learner reads it."""

    size: int
    role: str  # "tile": which tile (an outer dim of the pack); "inner": within the tile; "dim": unnamed
    source: int | None = None  # the logical dim it indexes, when one does
    kind: str = ""  # a swizzle's expand dim kind: "CrossThread", "CrossIntrinsic", "Internal"

    def label(self) -> str:
        of = f"d{self.source}" if self.source is not None else ""
        if self.kind:
            return f"{self.kind} {self.size} ({of})"
        return f"{of} {'tile' if self.role == 'tile' else 'in tile' if self.role == 'inner' else ''}".strip()


@dataclass(frozen=True)
class ElementMap:
    """Every cell of a layout's picture, answered by the layout algebra."""

    logical_shape: tuple[int, ...]
    grid_shape: tuple[int, ...]  # the logical shape grown by the drawn padding
    offsets: np.ndarray  # grid-shaped: offset in the physical buffer
    inside: np.ndarray  # grid-shaped: True for an element, False for padding
    physical_shape: tuple[int, ...]
    coordinates: list[np.ndarray]  # per physical dim, grid-shaped
    dims: list[PhysicalDim]


def padded_grid(relayout: Relayout) -> tuple[tuple[int, ...], Relayout]:
    """The logical shape grown by the first padding step, and a relayout over it.

    Only a pad reached through transposes alone can be drawn around the logical
    grid; later pads (a second-level tile, a combined dim) are not shown.
    """
    logical = static(relayout.logical_shape, "a picture")
    perm = list(range(len(logical)))
    for position, step in enumerate(relayout.steps):
        if isinstance(step, Transpose):
            perm = [perm[p] for p in step.permutation]
            continue
        if isinstance(step, Pad):
            grown = [0] * len(logical)
            for physical_dim, logical_dim in enumerate(perm):
                grown[logical_dim] = static(step.shape, "a picture")[physical_dim]
            rest = relayout.steps[:position] + relayout.steps[position + 1 :]
            return tuple(grown), Relayout(tuple(grown), rest, relayout.tail_alignment)
        break
    return logical, relayout


def element_map(relayout: Relayout, dims: list[PhysicalDim] | None = None) -> ElementMap:
    """Offsets, padding and physical coordinates of every cell of ``relayout``'s picture.

    ``dims`` names the physical dims (``encoding_dims``); without it they are
    plain ``dim`` s.
    """
    logical = static(relayout.logical_shape, "a picture")
    grown, grown_relayout = padded_grid(relayout)
    grid = list(np.indices(grown, dtype=np.int64)) if grown else []
    coordinates = [np.broadcast_to(c, grown) for c in grown_relayout.physical_index(grid)]
    physical = static(grown_relayout.physical_shape, "a picture")
    # The offset is the row-major index of the physical coordinates (as `Relayout.linear_index` computes it).
    offsets = ravel(coordinates, physical) if grown else grown_relayout.index_grid()
    inside = np.ones(grown, dtype=bool)
    for dim, size in enumerate(logical):
        index = [slice(None)] * len(grown)
        index[dim] = slice(size, None)
        inside[tuple(index)] = False
    if dims is None or len(dims) != len(physical):
        dims = [PhysicalDim(size, "dim") for size in physical]
    return ElementMap(tuple(logical), tuple(grown), np.asarray(offsets), inside, tuple(physical), coordinates, dims)


def encoding_dims(info, rank: int, physical_shape: tuple[int, ...]) -> list[PhysicalDim]:
    """The dims of ``physical_shape``, the materialized shape of ``info`` on a rank-``rank`` tensor.

    Outer dims of the pack say which tile; the inner tile dims follow
    ``innerDimsPos``; under a swizzle they are the ``expandShape`` dims in
    ``permutation`` order, each with its kind (``info`` without a swizzle
    names the dims of the pack alone).
    """
    from .iree_encoding import materialized_dim_sources

    out: list[PhysicalDim] = []
    for (source, k), size in zip(materialized_dim_sources(info, rank), physical_shape, strict=True):
        if k is None:
            out.append(PhysicalDim(int(size), "tile", source))
        elif info.swizzle is None:
            out.append(PhysicalDim(int(size), "inner", source))
        else:
            group = info.swizzle.expand_shape[list(info.inner_dims_pos).index(source)]
            out.append(PhysicalDim(int(size), "inner", source, group[k].kind.value))
    return out


def factor_by_axis(values: np.ndarray) -> int | None:
    """The one axis a grid-shaped array varies along (-1 when constant), or None when it varies along several."""
    varying = [a for a in range(values.ndim) if values.shape[a] > 1 and not np.all(np.diff(values, axis=a) == 0)]
    if not varying:
        return -1
    return varying[0] if len(varying) == 1 else None


def additive_terms(values: np.ndarray) -> list[np.ndarray] | None:
    """One 1-D term per axis whose broadcast sum is ``values`` (the first term holds the base), or None."""
    if values.ndim == 0 or values.size == 0:
        return None
    origin = (0,) * values.ndim
    base = values[origin]
    terms = []
    for a in range(values.ndim):
        index = [0] * values.ndim
        index[a] = slice(None)
        terms.append(values[tuple(index)] - base)
    terms[0] = terms[0] + base
    total = np.zeros(values.shape, dtype=values.dtype)
    for a, term in enumerate(terms):
        shape = [1] * values.ndim
        shape[a] = term.size
        total = total + term.reshape(shape)
    return terms if np.array_equal(total, values) else None


def xla_dims(xla, physical_shape: tuple[int, ...]) -> list[PhysicalDim]:
    """The physical dims of an XLA shape: which tile (the dims the first tile leaves outside it), then within it.

    Later tiles that reach past the first tile's dims make the split unclear:
    the dims are then unnamed.
    """
    from .xla_shape import COMBINE_DIMENSION
    from .xla_tiling import tile_steps

    layout = xla.with_default_layout().layout
    plain = [PhysicalDim(int(s), "dim") for s in physical_shape]
    if not layout.tiles:
        return plain
    shape = tuple(xla.dimensions[d] for d in reversed(layout.minor_to_major))
    outer = None
    for tile in layout.tiles:
        if outer is not None and len(tile) > len(shape) - outer:
            return plain
        for step in tile_steps(shape, tile):
            shape = step.result_shape(shape)
        if outer is None:
            outer = len(shape) - len([t for t in tile if t != COMBINE_DIMENSION])
    if len(shape) != len(physical_shape):
        return plain
    return [PhysicalDim(int(s), "tile" if d < outer else "inner") for d, s in enumerate(physical_shape)]
