"""XLA's tiled layout as a pad/reshape/transpose chain (the document's semantics).

`{minor_to_major:T(t1)(t2)...}` stores a logical array as follows
(docs/tiled_layout.md, "Tiling as pad-reshape-transpose"):

1. transpose the logical dims into physical major-to-minor order
   (minor_to_major reversed);
2. for each tile, in order, on the shape the previous tile produced:
   - a tile longer than the shape first gets unit dims prepended;
   - `*` at a position merges that dim into the next more-minor one (collapse);
   - the last `len(tile)` dims are padded to multiples of the tile,
   - each of them is split into (tiles, tile size) (reshape),
   - and the tile-size dims move to the end, in order (transpose);
3. read the result row-major. `L(n)` rounds the buffer length up to a multiple of n.

Unlike XLA's own `LayoutUtil::LinearIndex` (first tile only, `*` unsupported),
every tile applies and `*` combines, as the document says.
"""

from __future__ import annotations

from .relayout import Relayout
from .shapes import ceil_div
from .steps import Pad, Reshape, Shape, Step, Transpose, is_identity
from .xla_shape import COMBINE_DIMENSION, XlaShape


def xla_relayout(shape: XlaShape) -> Relayout:
    """The chain of steps XLA's layout of `shape` stands for."""
    layout = shape.with_default_layout().layout
    assert layout is not None
    current: Shape = tuple(shape.dimensions)
    steps: list[Step] = []

    def add(step: Step) -> None:
        nonlocal current
        steps.append(step)
        current = step.result_shape(current)

    major_to_minor = tuple(reversed(layout.minor_to_major))
    if not is_identity(major_to_minor):
        add(Transpose(major_to_minor))
    for tile in layout.tiles:
        for step in tile_steps(current, tile):
            add(step)
    return Relayout(tuple(shape.dimensions), tuple(steps), layout.tail_padding_alignment_in_elements)


def tile_steps(shape: Shape, tile: tuple[int, ...]) -> list[Step]:
    """The steps of one tile applied to the last `len(tile)` dims of `shape`."""
    steps: list[Step] = []
    rank = len(shape)
    if len(tile) > rank:
        # Missing major dims count as size 1: prepend them (a bitcast).
        extra = len(tile) - rank
        shape = (1,) * extra + tuple(shape)
        groups = (tuple(range(extra + 1)),) + tuple((extra + i,) for i in range(1, rank))
        steps.append(Reshape(shape, groups if rank else ()))
        rank = len(shape)
    prefix = rank - len(tile)

    if COMBINE_DIMENSION in tile:
        # `*` at position i folds dim i into dim i+1: d' = d_i * d_{i+1}.
        groups: list[tuple[int, ...]] = [(d,) for d in range(prefix)]
        pending: list[int] = []
        sizes: list[int] = []
        for position, size in enumerate(tile):
            pending.append(prefix + position)
            if size != COMBINE_DIMENSION:
                groups.append(tuple(pending))
                pending = []
                sizes.append(size)
        collapsed = tuple(shape[g[0]] if len(g) == 1 else _product(shape[d] for d in g) for g in groups)
        steps.append(Reshape(collapsed, tuple(groups), collapse=True))
        shape, tile = collapsed, tuple(sizes)
        rank = len(shape)
        prefix = rank - len(tile)

    tiled = range(prefix, rank)
    counts = {d: ceil_div(shape[d], tile[d - prefix]) for d in tiled}
    padded = tuple(
        shape[d] if d < prefix else (None if counts[d] is None else counts[d] * tile[d - prefix]) for d in range(rank)
    )
    if padded != tuple(shape):
        steps.append(Pad(padded))

    # Split every tiled dim into (count, tile): the expanded shape interleaves them.
    expanded: list[int | None] = []
    groups = []
    for d in range(rank):
        start = len(expanded)
        if d < prefix:
            expanded.append(shape[d])
        else:
            expanded += [counts[d], tile[d - prefix]]
        groups.append(tuple(range(start, len(expanded))))
    if len(tile):
        steps.append(Reshape(tuple(expanded), tuple(groups)))
        # Counts first (in dim order), then the tile sizes (in dim order).
        counts_pos = [groups[d][0] for d in tiled]
        tiles_pos = [groups[d][1] for d in tiled]
        permutation = tuple(range(prefix)) + tuple(counts_pos) + tuple(tiles_pos)
        if not is_identity(permutation):
            steps.append(Transpose(permutation))
    return steps


def _product(values) -> int | None:
    result: int | None = 1
    for v in values:
        result = None if result is None or v is None else result * v
    return result
