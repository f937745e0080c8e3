"""Sizes of an XLA array: the document's padded size, and XLA's own functions.

Three different numbers answer "how big is this array", and XLA uses each:

- `padded_bytes`: every tile applied, `*` combined, `L(n)` rounding the element
  count, then `E(n)` bits or the type's bytes per element. This is what the
  tiled-layout document describes and what `linear_index` fills.
- `array_size`: XLA's `ShapeUtil::ArraySize` (PjRt buffer sizing). It tiles with
  `tiles[0]` only ("assume the sub-tiles won't cause additional padding") and
  ignores `L` when there are no tiles. Kept bug-compatible, so it can be smaller
  than `padded_bytes` (`f32[8,8]{1,0:T(8,8)(3,1)}`: 256 vs 288 bytes).
- `byte_size_of`: XLA's `ShapeUtil::ByteSizeOf`, which ignores tiles and `L`.
"""

from __future__ import annotations

from math import prod

from .xla_shape import COMBINE_DIMENSION, ELEMENT_TYPES, XlaShape
from .xla_tiling import xla_relayout


def _bytes(elements: int, shape: XlaShape) -> int:
    """Bytes for `elements` elements: packed to E(n) bits if given, else whole bytes each."""
    layout = shape.layout
    if layout is not None and layout.element_size_in_bits > 0:
        return -(-elements * layout.element_size_in_bits // 8)
    return elements * ELEMENT_TYPES[shape.element_type][1]


def elements(shape: XlaShape) -> int:
    """Logical element count."""
    return prod(shape.dimensions)


def padded_elements(shape: XlaShape) -> int:
    """Physical buffer length in elements under the document's semantics."""
    count = xla_relayout(shape).padded_elements()
    assert count is not None
    return count


def padded_bytes(shape: XlaShape) -> int:
    """Physical buffer size in bytes under the document's semantics."""
    return _bytes(padded_elements(shape), shape)


def byte_size_of(shape: XlaShape) -> int:
    """XLA's `ShapeUtil::ByteSizeOf`: ignores tiles and L, honours E(n)."""
    return _bytes(elements(shape), shape)


def _max_split_size(size: int, split_indices: tuple[int, ...]) -> int:
    """Largest piece of a dim cut at `split_indices` (XLA's `MaxSplitSize`)."""
    cuts = [0, *split_indices, size]
    return max(b - a for a, b in zip(cuts, cuts[1:]))


def array_size(shape: XlaShape) -> int:
    """XLA's `ShapeUtil::ArraySize`, faithfully: first tile only.

    A `*` in the first tile gives 0, as XLA's arithmetic on INT64_MIN does; use
    `padded_bytes` for a meaningful size.
    """
    layout = shape.with_default_layout().layout
    assert layout is not None
    if not layout.tiles:
        return byte_size_of(shape)
    splits = dict(layout.split_configs)
    dims = [
        _max_split_size(shape.dimensions[d], splits[d]) if d in splits else shape.dimensions[d]
        for d in reversed(layout.minor_to_major)
    ]
    tile = layout.tiles[0]
    if COMBINE_DIMENSION in tile:
        return 0
    # Missing major dims count as 1; each of the last len(tile) dims rounds up.
    dims = [1] * max(0, len(tile) - len(dims)) + dims
    for i, t in enumerate(tile):
        d = len(dims) - len(tile) + i
        dims[d] = -(-dims[d] // t) * t
    count = prod(dims)
    alignment = layout.tail_padding_alignment_in_elements
    count = -(-count // alignment) * alignment
    return _bytes(count, shape)


def bit_offset(shape: XlaShape, linear_index: int) -> int:
    """Bit offset of the element at `linear_index`: index x element bits.

    With `E(4)` two elements share a byte; which nibble comes first is backend
    specific and not part of the layout string.
    """
    return linear_index * shape.element_bits


def layout_util_linear_index(shape: XlaShape, index: list[int]) -> int:
    """XLA's own `LayoutUtil::LinearIndex`, bug for bug: only `tiles[0]` applies,
    and rank 0 and 1 return the index itself. The document's answer (every tile)
    is `xla_relayout(shape).linear_index(index)`; this one exists to compare.
    """
    from dataclasses import replace

    if shape.rank <= 1:
        return int(index[0]) if index else 0
    layout = shape.with_default_layout().layout
    assert layout is not None
    first_only = replace(shape, layout=replace(layout, tiles=layout.tiles[:1]))
    return int(xla_relayout(first_only).linear_index(index))
