"""Pictures of a layout in the style of the tiled-layout document's Figures 1-2.

The logical array is drawn as a grid, each element labelled with its linear
index in memory. Elements of one tile share a colour; padding cells (positions
the layout reserves past the array's bounds) are drawn grey and dashed, labelled
with the offset they occupy. Arrays of rank > 2 are drawn with all but the last
dim folded into rows; rank 0 and 1 become a single row.

Each cell's offset comes from `element_map` (the layout algebra), and each SVG
cell carries a `<title>` naming its index and offset. The walkthrough page draws
its labelled pictures with the same colours (`tile_colours`).

SVG is written as text; PNG goes through matplotlib, imported only when asked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

import numpy as np

from .element_map import element_map, padded_grid
from .relayout import Relayout

PALETTE = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd"]
PADDING_COLOUR = "#f4f4f4"
CELL = 36
MAX_CELLS = 4096
"""A picture is for reading labels: beyond this many cells it would be a blur."""


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    label: str
    colour: str
    padding: bool
    index: tuple[int, ...] = ()
    """The cell's logical index (of the grid grown by the padding)."""


@dataclass(frozen=True)
class Picture:
    title: str
    rows: int
    cols: int
    cells: tuple[Cell, ...]


def tile_colours(offsets: np.ndarray, inside: np.ndarray, tile_elements: int) -> np.ndarray:
    """The fill of every cell: one palette colour per tile (by offset), padding grey (whole arrays)."""
    palette = np.array(PALETTE + [PADDING_COLOUR], dtype=object)
    which = (np.asarray(offsets) // max(tile_elements, 1)) % len(PALETTE)
    return palette[np.where(inside, which, len(PALETTE))]


def layout_picture(relayout: Relayout, title: str, tile_elements: int) -> Picture:
    """Cells of the drawing: one per logical (or padding) element."""
    grown, _ = padded_grid(relayout)
    cells_count = math.prod(grown)  # Python ints: np.prod would wrap around on a huge tile
    if cells_count > MAX_CELLS or any(d > MAX_CELLS for d in grown):  # (a 0-size dim makes the count 0)
        raise ValueError(f"{cells_count} cells are too many to draw (at most {MAX_CELLS}); draw a smaller shape")
    emap = element_map(relayout)
    # Fold to 2-D: rows = all but the last dim.
    cols = grown[-1] if grown else 1
    offsets2 = emap.offsets.reshape(-1, cols)
    inside2 = emap.inside.reshape(-1, cols)
    colours = tile_colours(offsets2, inside2, tile_elements)
    rows_idx, cols_idx = np.indices(offsets2.shape)
    indices = np.stack(np.indices(grown), axis=-1).reshape(-1, len(grown)).tolist() if grown else [[]]
    cells = tuple(
        Cell(r, c, str(o), colour, not ok, tuple(index))
        for r, c, o, colour, ok, index in zip(rows_idx.ravel().tolist(), cols_idx.ravel().tolist(),
                                              offsets2.ravel().tolist(), colours.ravel().tolist(),
                                              inside2.ravel().tolist(), indices)
    )  # fmt: skip
    return Picture(title, offsets2.shape[0], cols, cells)


def to_svg(picture: Picture) -> str:
    """The picture as a standalone SVG document."""
    margin, header = 10, 30
    # Wide enough for the title too (about 8.5 px per monospace character at 14 px).
    width = max(2 * margin + picture.cols * CELL, 2 * margin + int(len(picture.title) * 8.5))
    height = header + margin + picture.rows * CELL
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace">',
        f'<title>{escape(picture.title)}</title>',
        f'<text x="{margin}" y="20" font-size="14">{escape(picture.title)}</text>',
    ]
    for cell in picture.cells:
        x, y = margin + cell.col * CELL, header + cell.row * CELL
        dash = ' stroke-dasharray="3,3"' if cell.padding else ""
        kind = "padding" if cell.padding else "element"
        # A tooltip per cell: which element (or padding position) sits at this offset.
        where = ", ".join(map(str, cell.index))
        title = f"{'padding ' if cell.padding else ''}[{where}]: offset {cell.label}"
        out.append(
            f'<g class="{kind}"><title>{title}</title><rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
            f'fill="{cell.colour}" stroke="#333"{dash}/><text x="{x + CELL / 2}" y="{y + CELL / 2 + 4}" font-size="11" '
            f'text-anchor="middle" fill="{"#999" if cell.padding else "#000"}">{cell.label}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def save_png(picture: Picture, path: str) -> None:
    """The same drawing through matplotlib (imported here, on demand: SVG needs none)."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError(
            "PNG output needs matplotlib, which is not installed: pip install 'mini-iree[png]' (or write .svg)"
        ) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    fig, ax = plt.subplots(figsize=(max(2.0, picture.cols * 0.5), max(1.5, picture.rows * 0.5 + 0.5)))
    for cell in picture.cells:
        y = picture.rows - 1 - cell.row
        ax.add_patch(
            Rectangle((cell.col, y), 1, 1, facecolor=cell.colour, edgecolor="#333",
                      linestyle="--" if cell.padding else "-")
        )  # fmt: skip
        ax.text(cell.col + 0.5, y + 0.5, cell.label, ha="center", va="center", fontsize=8,
                color="#999" if cell.padding else "#000")  # fmt: skip
    ax.set_xlim(0, picture.cols)
    ax.set_ylim(0, picture.rows)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(picture.title, fontsize=9, family="monospace")
    fig.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(fig)


def cute_picture(layout, title: str) -> Picture:
    """A CuTe layout drawn as CuTe's `print_layout` prints it: mode 0 down, the other modes across.

    Cell `(r, c)` holds `layout((r, c))` (the modes after the first read as one
    colexicographic column index); a rank-1 layout is one row. Colours follow
    the offset (cycling the palette, as CuTe's `print_latex` shades by offset),
    so cells of a broadcast (stride 0) share a colour. A CuTe layout has no
    padding: every cell is an element.
    """
    modes = layout.modes()
    sizes = [m.size() for m in modes]
    cells_count = math.prod(sizes)
    if cells_count > MAX_CELLS or any(s > MAX_CELLS for s in sizes):
        raise ValueError(f"{cells_count} cells are too many to draw (at most {MAX_CELLS}); draw a smaller layout")
    grid = layout.coordinate_grid()
    if len(modes) == 1:
        offsets2 = grid.reshape(1, -1)
        indices = [(c,) for c in range(sizes[0])]
    else:
        # Columns: modes 1.. in colexicographic order (mode 1 fastest), as CuTe reads a 1-D column index.
        offsets2 = np.transpose(grid, (0, *range(len(modes) - 1, 0, -1))).reshape(sizes[0], -1)
        rest = list(np.ndindex(*reversed(sizes[1:])))
        indices = [(r, *reversed(c)) for r in range(sizes[0]) for c in rest]
    inside = np.ones(offsets2.shape, dtype=bool)
    colours = tile_colours(offsets2, inside, 1)
    rows_idx, cols_idx = np.indices(offsets2.shape)
    cells = tuple(
        Cell(r, c, str(o), colour, False, tuple(index))
        for r, c, o, colour, index in zip(rows_idx.ravel().tolist(), cols_idx.ravel().tolist(),
                                          offsets2.ravel().tolist(), colours.ravel().tolist(), indices)
    )  # fmt: skip
    return Picture(title, offsets2.shape[0], offsets2.shape[1], cells)
