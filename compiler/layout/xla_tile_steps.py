"""What each tile of an XLA layout does, one line per tile.

The XLA form of a GPU swizzle (`bridge.iree_to_xla_layout`) is a first tile
(the pack) followed by tiles that each split one within-tile dim and move its
minor part innermost. Printed as one string it is unreadable; listed tile by
tile, with the shape each tile leaves, it reads as the swizzle's steps.
"""

from __future__ import annotations

from .shapes import Shape, format_shape
from .xla_shape import COMBINE_DIMENSION, XlaLayout
from .xla_tiling import tile_steps


def _tile_text(tile: tuple[int, ...]) -> str:
    return "T(" + ",".join("*" if t == COMBINE_DIMENSION else str(t) for t in tile) + ")"


def _what(tile: tuple[int, ...], before: tuple) -> str:
    """A later tile: the within-tile dims it moves innermost (its `*` only fold away unit dims)."""
    moves = []
    for position, size in enumerate(tile):
        dim = len(before) - len(tile) + position
        current = before[dim] if dim >= 0 else 1
        if size in (1, COMBINE_DIMENSION):
            continue
        if current == size:
            moves.append(f"moves the {size} innermost")
        else:
            rest = "?" if current is None else str(-(-current // size))
            moves.append(f"splits {format_shape((current,))} into {rest}x{size} and moves the {size} innermost")
    return "; ".join(moves) or "no change"


def describe_tiles(dimensions: Shape, layout: XlaLayout) -> list[str]:
    """One line per tile of ``layout`` on ``dimensions`` (``None`` for a dynamic size).

    The first tile is the pack; each later one says which within-tile dim it
    moves innermost and the within-tile shape it leaves (unit dims dropped).
    """
    shape = tuple(dimensions[d] for d in reversed(layout.minor_to_major))
    lines = []
    outer = 0
    for k, tile in enumerate(layout.tiles):
        before = shape
        for step in tile_steps(shape, tile):
            shape = step.result_shape(shape)
        if k == 0:
            sizes = [t for t in tile if t != COMBINE_DIMENSION]
            outer = len(shape) - len(sizes)
            lines.append(
                f"{_tile_text(tile)}: tiles of {'x'.join(map(str, sizes))} over the minor dims, padded to whole "
                f"tiles, stored one after another -> {format_shape(shape)}"
            )
            continue
        inner = [d for d in shape[outer:] if d != 1] or [1]
        lines.append(f"{_tile_text(tile)}: {_what(tile, before)} -> tile {format_shape(tuple(inner))}")
    return lines
