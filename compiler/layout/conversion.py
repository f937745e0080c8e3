"""One tensor's layout in three systems: IREE `encoding_info`, XLA `T(...)`, CuTe `shape:stride`.

Every conversion builds its answer, then enumerates every element of the
tensor and checks that both layouts put it at the same offset (the `Relayout`
index grid of XLA and IREE, `Layout.coordinate_grid` of CuTe). A layout the
target cannot hold is refused with a named reason (`Refused.reason`):

- "needs padding": XLA and IREE pad a dim up to a multiple of its tile; a CuTe
  shape is exact (the padded tensor may still have a CuTe form, named in the
  message);
- "not expressible as strides": the offset of an element is not a sum of one
  stride function per dim (an XLA `*` tile mixes dims);
- "not one-to-one": a CuTe stride 0 (broadcast) or overlapping modes; XLA and
  IREE store each element once;
- "leaves holes": a CuTe layout whose offsets skip positions other than by
  padding a whole buffer; XLA and IREE buffers are dense apart from tile padding;
- "needs a swizzle": a CuTe `Sw<B,M,S>` XORs address bits, which neither XLA
  nor IREE can say; or the tile's factors interleave between dims, which IREE
  writes only as a GPU `swizzle` (refused when swizzles are not allowed);
- "needs a static shape", "rank 0", "negative stride", "dynamic or scalable tile", "has an offset",
  "too large to check".

What a target drops without changing any element's offset (XLA's `E(n)`,
`S(n)`, `L(n)`, the buffer padded past the last element) is listed in
`Converted.notes`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo, SwizzleDim, TileSwizzle

from .bridge import NotExpressible, iree_to_xla_layout
from .cute import Layout
from .element_map import additive_terms, padded_grid
from .iree_encoding import encoding_relayout, format_encoding_info, inner_tiles
from .relayout import Relayout
from .steps import Pad
from .xla_shape import XlaLayout, XlaShape
from .xla_tiling import xla_relayout

MAX_CHECKED_ELEMENTS = 1 << 20
"""A conversion enumerates every element (and a padded sample around it): beyond this it refuses."""


class Refused(NotExpressible):
    """The layout has no exact form in the target system; `reason` names why, the message says more."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass
class Converted:
    """A layout in the target system, checked element by element against the source."""

    text: str
    elements_checked: int
    notes: list[str] = field(default_factory=list)
    cute: Layout | None = None
    xla: XlaShape | None = None
    info: MaterializeEncodingInfo | None = None
    shape: tuple[int, ...] = ()


# ===----------------------------------------------------------------------=== #
# Offsets -> CuTe
# ===----------------------------------------------------------------------=== #


def _divisors_descending(n: int, at_most: int) -> list[int]:
    return [s for s in range(min(n, at_most), 1, -1) if n % s == 0]


def _stride_modes(term: np.ndarray) -> list[tuple[int, int]] | None:
    """`(size, stride)` modes, minor first, with `term[k] == sum(((k // P_j) % s_j) * d_j)`; None if none.

    The first mode's stride is `term[1]`; its size is tried from the longest
    run `term[k] == k * d` downwards among divisors of the length, and the rest
    is solved on every `size`-th entry.
    """
    n = term.size
    if n <= 1:
        return []
    d = int(term[1])
    ramp = np.arange(n, dtype=np.int64) * d
    mismatch = np.nonzero(term != ramp)[0]
    run = int(mismatch[0]) if mismatch.size else n
    for s in _divisors_descending(n, run):
        blocks = term.reshape(n // s, s)
        if not np.array_equal(blocks, blocks[:, :1] + ramp[:s]):
            continue
        rest = _stride_modes(blocks[:, 0])
        if rest is not None:
            return [(s, d), *rest]
    return None


def _mode(modes: list[tuple[int, int]], size: int) -> tuple[object, object]:
    if not modes:
        return size, 0 if size == 1 else 1
    if len(modes) == 1:
        return modes[0]
    return tuple(s for s, _ in modes), tuple(d for _, d in modes)


def grid_to_cute(grid: np.ndarray) -> Layout:
    """The CuTe layout whose top-level mode `a` indexes dim `a` of `grid` and gives its offsets.

    Refused "not expressible as strides" when the offsets are not a sum of one
    mixed-radix stride function per dim.
    """
    if grid.ndim == 0:
        raise Refused("rank 0", "a CuTe layout has at least one mode; a scalar has none")
    if grid.size == 0:
        # No element to place: any strides are exact; row-major ones read most naturally.
        shape = tuple(grid.shape)
        strides = [1] * len(shape)
        for axis in range(len(shape) - 2, -1, -1):
            strides[axis] = strides[axis + 1] * max(shape[axis + 1], 1)
        return Layout(shape, tuple(strides)) if len(shape) > 1 else Layout(shape[0], 1)
    terms = additive_terms(grid)
    if terms is None or int(grid.flat[0]) != 0:
        raise Refused(
            "not expressible as strides",
            "an element's offset is not a sum of one term per dim (a tile such as XLA's `*` mixes dims)",
        )
    shapes, strides = [], []
    for axis, term in enumerate(terms):
        modes = _stride_modes(np.asarray(term, dtype=np.int64))
        if modes is None:
            raise Refused(
                "not expressible as strides",
                f"dim {axis}'s offsets {_preview(term)} are not a mixed-radix stride function of its index",
            )
        shape, stride = _mode(modes, term.size)
        shapes.append(shape)
        strides.append(stride)
    layout = Layout(tuple(shapes), tuple(strides)) if len(shapes) > 1 else Layout(shapes[0], strides[0])
    if len(shapes) == 1 and isinstance(shapes[0], tuple):
        layout = Layout((shapes[0],), (strides[0],))  # keep rank 1: the nested mode is the one dim
    _check(grid, layout.coordinate_grid(), f"{layout}")
    return layout


def _preview(term: np.ndarray) -> str:
    values = [int(v) for v in term[:8]]
    return "[" + ", ".join(map(str, values)) + (", ...]" if term.size > 8 else "]")


def _check(expected: np.ndarray, got: np.ndarray, what: str) -> None:
    """Both layouts put every element at the same offset; anything else is a bug, never an answer."""
    if expected.shape != got.shape or not np.array_equal(expected, got):
        raise Refused("internal error", f"{what} does not reproduce the source's offsets")


def relayout_to_cute(relayout: Relayout) -> tuple[Layout, list[str]]:
    """A static XLA / IREE chain as a CuTe layout; "needs padding" when its pad splits a dim unevenly."""
    if any(d is None for d in relayout.logical_shape):
        raise Refused("needs a static shape", "CuTe shapes here are integers; the tensor has a dynamic dim")
    if any(d is None for d in relayout.physical_shape):
        raise Refused(
            "dynamic or scalable tile", "an inner tile size is dynamic or scalable; CuTe strides here are integers"
        )
    grid = relayout.index_grid()
    try:
        layout = grid_to_cute(grid)
    except Refused as refused:
        grown, grown_relayout = padded_grid(relayout)
        pads = [
            (step, source)
            for step, source in zip(relayout.steps, relayout.shapes())
            if isinstance(step, Pad) and step.shape != source
        ]
        mixes_dims = refused.detail.startswith("an element's offset is not a sum")
        if refused.reason != "not expressible as strides" or not pads or mixes_dims:
            raise
        if tuple(grown) == tuple(relayout.logical_shape):
            raise Refused(
                "needs padding",
                f"a later tile pads within the first ({pads[0][0].describe(pads[0][1])}), so some dim's offsets "
                "jump where no CuTe stride can",
            ) from None
        padded = "x".join(map(str, grown))
        logical = "x".join(str(d) for d in relayout.logical_shape)
        whole = ""
        if int(np.prod(grown)) <= MAX_CHECKED_ELEMENTS:
            try:
                whole = f"; the padded {padded} tensor is {grid_to_cute(grown_relayout.index_grid())}"
            except Refused:
                pass
        raise Refused(
            "needs padding",
            f"the layout pads {logical} to {padded} and splits the padded dims into tiles; a CuTe mode's size is "
            f"the product of its sub-modes, so a dim that is not a multiple of its tile has no CuTe form{whole}",
        ) from None
    notes = []
    padded = relayout.padded_elements()
    if padded is not None and padded > layout.cosize():
        notes.append(
            f"the buffer holds {padded} elements, the CuTe layout's cosize is {layout.cosize()}: "
            "the padding after the last element is not part of a CuTe layout"
        )
    return layout, notes


# ===----------------------------------------------------------------------=== #
# CuTe -> IREE (and through it, XLA)
# ===----------------------------------------------------------------------=== #


@dataclass(frozen=True)
class _Piece:
    dim: int
    size: int
    stride: int  # in memory
    weight: int  # within the dim's index


def _pieces(layout: Layout, split_at: dict[int, int] | None = None) -> list[_Piece]:
    """Every size>1 sub-mode, with the dim (top-level mode) it indexes and its weight in that dim's index.

    `split_at[d] = t` cuts dim d's sub-modes at weight t (a tile boundary that
    must stay, although coalescing would merge across it).
    """
    from .cute import coalesce, flatten

    out = []
    for dim, mode in enumerate(layout.modes()):
        weight = 1
        cut = (split_at or {}).get(dim)
        # Coalescing a mode keeps its function of the dim's index and merges contiguous factors.
        mode = coalesce(mode)
        for size, stride in zip(flatten(mode.shape), flatten(mode.stride)):
            if cut is not None and weight < cut < weight * size and cut % weight == 0 and size % (cut // weight) == 0:
                low = cut // weight
                out.append(_Piece(dim, low, stride, weight))
                size, stride, weight = size // low, stride * low, cut
            if size != 1:
                out.append(_Piece(dim, size, stride, weight))
            weight *= size
    return out


def _unswizzled(layout) -> Layout:
    """The plain layout of a `Sw<B,M,S> o offset o layout` that swizzles nothing; refused otherwise."""
    from .cute_swizzle import SwizzledLayout

    if not isinstance(layout, SwizzledLayout):
        return layout
    if layout.swizzle.bits:
        raise Refused(
            "needs a swizzle",
            f"{layout} XORs address bits (CuTe's Swizzle); XLA tiles and IREE's pack only pad, split and permute "
            "dims, and IREE's `swizzle` only permutes whole tile dims",
        )
    if layout.offset:
        raise Refused("has an offset", f"{layout} starts at offset {layout.offset}; XLA and IREE layouts start at 0")
    return layout.layout


def cute_to_iree(
    layout: Layout, allow_swizzle: bool = True, split_at: dict[int, int] | None = None
) -> tuple[MaterializeEncodingInfo, tuple[int, ...]]:
    """The `encoding_info` (and tensor shape) that stores every element where `layout` does.

    Top-level mode `a` of the layout indexes dim `a` of the tensor. Sub-modes
    sorted by stride give the physical order; the most-major sub-mode of each
    dim met first becomes an outer dim of the pack (in `outerDimsPerm` order),
    every other sub-mode belongs to its dim's inner tile. When the inner tiles'
    factors do not follow one another dim by dim, the tile gets a `swizzle`
    (expand each tile into its factors, then permute), as IREE's GPU
    encodings do.
    """
    layout = _unswizzled(layout)
    shape = tuple(m.size() for m in layout.modes())
    if layout.size() > MAX_CHECKED_ELEMENTS or layout.cosize() > MAX_CHECKED_ELEMENTS:
        raise Refused(
            "too large to check",
            f"{layout} spans {layout.cosize()} offsets; conversions are checked element by element, up to "
            f"{MAX_CHECKED_ELEMENTS}",
        )
    pieces = _pieces(layout, split_at)
    if any(p.stride < 0 for p in pieces):
        raise Refused("negative stride", f"{layout} runs backwards in memory; XLA and IREE offsets only grow")
    if any(p.stride == 0 for p in pieces):
        raise Refused("not one-to-one", f"{layout} has stride 0 (a broadcast): several elements share an offset")
    major_of: dict[int, _Piece] = {}
    for p in pieces:
        if p.dim not in major_of or p.weight > major_of[p.dim].weight:
            major_of[p.dim] = p
    order = sorted(pieces, key=lambda p: p.stride)
    # A gap right after the most-major sub-mode of a dim is that dim padded up to its tile, as a pack pads it.
    padded: dict[_Piece, int] = {}
    expected, previous = 1, None
    for piece in order:
        if piece.stride < expected:
            raise Refused("not one-to-one", f"{layout}'s modes overlap: several elements share an offset")
        if piece.stride != expected:
            if previous is None or major_of[previous.dim] != previous or piece.stride % previous.stride:
                raise Refused(
                    "leaves holes",
                    f"{layout} skips offsets {expected}..{piece.stride - 1} (cosize {layout.cosize()} > size "
                    f"{layout.size()}); XLA and IREE leave gaps only by padding a dim up to its tile",
                )
            padded[previous] = piece.stride // previous.stride
        expected = piece.size * piece.stride
        previous = piece
    physical = list(reversed(order))  # major to minor
    outer: list[int] = []
    position = 0
    while position < len(physical):
        piece = physical[position]
        # A padded dim lies wholly inside its tile (pack pads the tile, never the outer dim).
        if major_of[piece.dim] != piece or piece.dim in outer or any(p.dim == piece.dim for p in padded):
            break
        outer.append(piece.dim)
        position += 1
    inner = physical[position:]
    # Dims whose whole extent is a tile (or of size 1) have an outer dim of size 1: any place fits, the end does.
    outer_perm = outer + [d for d in range(len(shape)) if d not in outer]
    inner_dims: list[int] = []
    for piece in inner:
        if piece.dim not in inner_dims:
            inner_dims.append(piece.dim)
    groups = {d: sorted((p for p in inner if p.dim == d), key=lambda p: -p.weight) for d in inner_dims}
    tiles = [int(np.prod([padded.get(p, p.size) for p in groups[d]])) for d in inner_dims]
    flat = [p for d in inner_dims for p in groups[d]]
    permutation = [flat.index(p) for p in inner]
    info = MaterializeEncodingInfo(inner_dims, tiles, outer_perm)
    # Factors that follow one another dim by dim, major first, are one plain tile per dim.
    if permutation != list(range(len(flat))):
        if not allow_swizzle:
            raise Refused(
                "needs a swizzle",
                f"{layout} interleaves the factors of its tiles; IREE writes that "
                "only as a GPU `swizzle` of the inner tile",
            )
        expand = [[SwizzleDim.internal(padded.get(p, p.size)) for p in groups[d]] for d in inner_dims]
        info.swizzle = TileSwizzle(expand, permutation)
    _check(layout.coordinate_grid(), encoding_relayout(info, shape).index_grid(), format_encoding_info(info))
    return info, shape


# ===----------------------------------------------------------------------=== #
# The six directions
# ===----------------------------------------------------------------------=== #


def _xla_notes(xla: XlaShape) -> list[str]:
    layout = xla.layout
    notes = []
    if layout is None:
        return notes
    if layout.element_size_in_bits:
        notes.append(f"E({layout.element_size_in_bits}) (element size in bits) has no counterpart and is dropped")
    if layout.memory_space:
        notes.append(f"S({layout.memory_space}) (memory space) has no counterpart and is dropped")
    if layout.tail_padding_alignment_in_elements != 1:
        notes.append(f"L({layout.tail_padding_alignment_in_elements}) (buffer length alignment) is dropped")
    return notes


def xla_to_cute(xla: XlaShape) -> Converted:
    layout, notes = relayout_to_cute(xla_relayout(xla))
    return Converted(str(layout), layout.size(), _xla_notes(xla) + notes, cute=layout, shape=tuple(xla.dimensions))


def iree_to_cute(info: MaterializeEncodingInfo, shape: tuple[int | None, ...]) -> Converted:
    layout, notes = relayout_to_cute(encoding_relayout(info, shape))
    return Converted(str(layout), layout.size(), notes, cute=layout, info=info, shape=tuple(shape))  # type: ignore


def cute_to_iree_converted(layout: Layout, allow_swizzle: bool = True) -> Converted:
    layout = _unswizzled(layout)
    info, shape = cute_to_iree(layout, allow_swizzle)
    notes = ["the tile's factors interleave: the encoding swizzles its inner tile"] if info.swizzle else []
    return Converted(format_encoding_info(info), layout.size(), notes, cute=layout, info=info, shape=shape)


def _iree_to_xla_layout(info: MaterializeEncodingInfo, shape: tuple[int | None, ...]) -> XlaLayout:
    try:
        return iree_to_xla_layout(info, len(shape))
    except Refused:
        raise
    except NotExpressible as why:
        raise Refused("dynamic or scalable tile", str(why)) from None


def iree_to_xla(info: MaterializeEncodingInfo, shape: tuple[int | None, ...], element_type: str) -> Converted:
    """The bridge's XLA layout, checked on every element (a dynamic dim at twice its tile, or 2)."""
    layout = _iree_to_xla_layout(info, shape)
    xla = XlaShape(element_type, tuple(shape), layout)  # type: ignore[arg-type]
    tiles = dict(zip(info.inner_dims_pos, inner_tiles(info)))
    sample = tuple(2 * (tiles.get(d) or 1) if size is None else size for d, size in enumerate(shape))
    if int(np.prod(sample)) > MAX_CHECKED_ELEMENTS:
        raise Refused("too large to check", f"the tensor has more than {MAX_CHECKED_ELEMENTS} elements")
    expected = encoding_relayout(info, sample).index_grid()
    _check(expected, xla_relayout(XlaShape(element_type, sample, layout)).index_grid(), str(layout))
    dims = ",".join("?" if d is None else str(d) for d in shape)
    notes = [] if sample == tuple(shape) else [f"the shape is dynamic: checked on {'x'.join(map(str, sample))}"]
    return Converted(f"{element_type}[{dims}]{layout}", int(np.prod(sample)), notes, xla=xla, info=info, shape=sample)


def cute_to_xla(layout: Layout, element_type: str = "f32") -> Converted:
    layout = _unswizzled(layout)
    info, shape = cute_to_iree(layout)
    converted = iree_to_xla(info, shape, element_type)
    _check(layout.coordinate_grid(), xla_relayout(converted.xla).index_grid(), converted.text)  # type: ignore[arg-type]
    return Converted(converted.text, layout.size(), [], cute=layout, xla=converted.xla, shape=shape)


def _single_tile_info(xla: XlaShape) -> MaterializeEncodingInfo | None:
    """One tile without `*` is a `linalg.pack`: outer dims in major-to-minor order, tiles likewise (pads too)."""
    from .xla_shape import COMBINE_DIMENSION

    layout = xla.with_default_layout().layout
    assert layout is not None
    rank = len(xla.dimensions)
    major_to_minor = list(reversed(layout.minor_to_major))
    if len(layout.tiles) > 1:
        return None
    tile = layout.tiles[0] if layout.tiles else ()
    if COMBINE_DIMENSION in tile or len(tile) > max(rank, 1):
        return None
    tile = tile[len(tile) - rank :] if len(tile) > rank else tile
    tiled = dict(zip(major_to_minor[rank - len(tile) :], tile))
    inner = [d for d in major_to_minor if tiled.get(d, 1) != 1]
    return MaterializeEncodingInfo(inner, [tiled[d] for d in inner], major_to_minor)


def first_tile(xla: XlaShape) -> dict[int, int]:
    """The size XLA's first tile gives each logical dim (the tile that pads), `*` and missing dims left out."""
    from .xla_shape import COMBINE_DIMENSION

    layout = xla.with_default_layout().layout
    assert layout is not None
    if not layout.tiles or COMBINE_DIMENSION in layout.tiles[0]:
        return {}
    major_to_minor = list(reversed(layout.minor_to_major))
    tile = layout.tiles[0][-len(major_to_minor) :] if major_to_minor else ()
    return dict(zip(major_to_minor[len(major_to_minor) - len(tile) :], tile))


def xla_to_iree(xla: XlaShape, allow_swizzle: bool = True) -> Converted:
    relayout = xla_relayout(xla)
    if any(d is None for d in xla.dimensions):
        raise Refused("needs a static shape", "the conversion is checked on every element; the shape is dynamic")
    shape = tuple(int(d) for d in xla.dimensions)  # type: ignore[arg-type]
    info = _single_tile_info(xla)
    if info is not None and np.array_equal(encoding_relayout(info, shape).index_grid(), relayout.index_grid()):
        if relayout.padded_elements() == encoding_relayout(info, shape).padded_elements() or not shape:
            checked = relayout.elements() or 0
            return Converted(format_encoding_info(info), checked, _xla_notes(xla), xla=xla, info=info, shape=shape)
    try:
        info, _ = cute_to_iree(relayout_to_cute(relayout)[0], allow_swizzle)
    except Refused as why:
        if why.reason != "needs padding":
            raise
        info = _padded_pack(relayout, shape, first_tile(xla), allow_swizzle)
    _check(relayout.index_grid(), encoding_relayout(info, shape).index_grid(), format_encoding_info(info))
    extra = ["the tile's factors interleave: the encoding swizzles its inner tile"] if info.swizzle else []
    ours, theirs = relayout.padded_elements(), encoding_relayout(info, shape).padded_elements()
    if ours != theirs:
        extra.append(f"the buffers differ in padding only: XLA's holds {ours} elements, the pack's {theirs}")
    checked = relayout.elements() or 0
    notes = _xla_notes(xla) + extra
    return Converted(format_encoding_info(info), checked, notes, xla=xla, info=info, shape=shape)


def _padded_pack(
    relayout: Relayout, shape: tuple[int, ...], tiles: dict[int, int], allow_swizzle: bool
) -> MaterializeEncodingInfo:
    """A pack of the tensor padded as the layout's first tile pads it, when later tiles only split and permute.

    `linalg.pack` pads each tiled dim to a multiple of its tile, as XLA's first
    tile does; a swizzle then splits and permutes the padded tile. Any other
    padding (a later tile that pads again) has no pack.
    """
    grown, grown_relayout = padded_grid(relayout)
    logical = "x".join(map(str, shape))
    refusal = Refused(
        "needs padding",
        f"the layout pads {logical} where a pack cannot: a pack pads each tiled dim once, up to its tile, and a "
        "later tile here pads again",
    )
    if tuple(grown) == tuple(shape):
        raise refusal
    if int(np.prod(grown)) > MAX_CHECKED_ELEMENTS:
        raise Refused("too large to check", f"the padded {'x'.join(map(str, grown))} tensor has more than "
                      f"{MAX_CHECKED_ELEMENTS} elements")  # fmt: skip
    try:
        # Each padded dim keeps its tile boundary, so that the pack pads it as the layout does.
        split_at = {d: tiles[d] for d in range(len(shape)) if grown[d] != shape[d] and d in tiles}
        info, _ = cute_to_iree(grid_to_cute(grown_relayout.index_grid()), allow_swizzle, split_at)
    except Refused as why:
        if why.reason == "needs a swizzle":
            raise
        raise refusal from None
    if not np.array_equal(encoding_relayout(info, shape).index_grid(), relayout.index_grid()):
        raise refusal
    return info


def cute_form_of_xla_text(text: str) -> tuple[str, str] | None:
    """The CuTe form of an XLA shape string (`f32[?,?]{1,0:T(8,1)}`), and for which shape; None without one.

    A CuTe layout's sizes and strides here are integers, so each `?` takes a
    size: twice the dim's first tile (2 when untiled), a multiple of every tile
    so that nothing pads; the second string says which sizes were taken ("" for
    a static shape).
    """
    from .xla_shape import parse_shape

    dims = re.match(r"^\s*([A-Za-z0-9]+)\[([^\]]*)\](.*)$", text)
    if dims is None:
        return None
    sizes = [d.strip() for d in dims.group(2).split(",")] if dims.group(2).strip() else []
    try:
        probe = parse_shape(f"{dims.group(1)}[{','.join('1' if d == '?' else d for d in sizes)}]{dims.group(3)}")
    except ValueError:
        return None
    tiles = first_tile(probe)
    sample = [str(2 * tiles.get(i, 1)) if d == "?" else d for i, d in enumerate(sizes)]
    try:
        shape = parse_shape(f"{dims.group(1)}[{','.join(sample)}]{dims.group(3)}")
        if int(np.prod(shape.dimensions)) > MAX_CHECKED_ELEMENTS:
            return None
        converted = xla_to_cute(shape)
    except ValueError:
        return None
    note = "" if "?" not in sizes else f"on {'x'.join(sample)} (each ? taken as twice its tile)"
    return converted.text, note
