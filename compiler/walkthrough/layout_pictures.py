"""Layout pictures that answer a hover: every cell's index, offset, tile and swizzle dims.

A picture is an ``element_map.ElementMap`` drawn as inline SVG: the logical
grid (grown by the padding), a rank >= 3 tensor as one slice per index of its
leading dims. Cells that are large enough are drawn one by one as
``mini-iree-layout draw`` draws them (labelled with their offset, one colour
per tile, padding dashed and grey), each a ``rect[data-cell="i,j"]`` (with a
``<title>`` when the picture is small); larger pictures (a 128x128 GPU tile)
are a colour ramp, one pixel per element in a PNG the browser scales up (the
hue is where the element sits in its tile's memory, padding is paler).

What a hover shows is computed here from the layout algebra and embedded in
the SVG's ``data-cells`` attribute as JSON, per physical dim one table along
the one logical axis it depends on (``element_map.factor_by_axis``) and the
offset as one term per logical index (``element_map.additive_terms``, checked
against the whole grid): the page's script only looks values up (and adds the
offset's terms), it knows nothing of tiles or swizzles.
"""

from __future__ import annotations

import base64
import colorsys
import json
import math
from dataclasses import dataclass
from html import escape

import numpy as np

from mini_iree.compiler.layout.drawing import tile_colours
from mini_iree.compiler.layout.element_map import ElementMap, additive_terms, factor_by_axis

from .png import palette_png

MAX_WIDTH, MAX_HEIGHT = 960, 720  # the page's main column is about 1000 px wide
GAP = 10  # between slices
SLICE_LABEL = 14  # height of a slice's "[0, :, :]" label
CELL_SIZES = (30, 26, 22, 18, 16, 12, 10, 8, 6, 5, 4, 3, 2, 1)
CELLS_MIN = 12
"""Below this many pixels a cell is not drawn on its own: the picture becomes a colour ramp."""
CELLS_MAX = 2048
"""At most this many cells are drawn one by one (about 90 bytes each)."""
TITLE_CELLS = 100
"""Pictures up to this many cells give each cell a ``<title>`` (a tooltip without script)."""
RAMP_STEPS = 24


@dataclass(frozen=True)
class Geometry:
    """Where the slices and cells of a picture go."""

    cell: int
    rows: int
    cols: int
    slices: list[tuple[tuple[int, ...], int, int]]  # (leading indices, x, y of the slice's first cell)
    width: int
    height: int


def geometry(grid_shape: tuple[int, ...]) -> Geometry:
    """The largest cell size at which every slice fits, slices side by side and wrapping."""
    if len(grid_shape) <= 1:
        rows, cols, lead = 1, (grid_shape[0] if grid_shape else 1), ()
    else:
        rows, cols, lead = grid_shape[-2], grid_shape[-1], grid_shape[:-2]
    indices = list(np.ndindex(*lead)) if lead else [()]
    label = SLICE_LABEL if lead else 0
    for cell in CELL_SIZES:
        slice_w, slice_h = cols * cell, rows * cell + label
        per_line = max(1, min(len(indices), (MAX_WIDTH + GAP) // (slice_w + GAP) if slice_w else len(indices)))
        lines = -(-len(indices) // per_line) if indices else 0
        width = per_line * slice_w + (per_line - 1) * GAP
        height = lines * slice_h + max(lines - 1, 0) * GAP
        if width <= MAX_WIDTH and height <= MAX_HEIGHT:
            break
    slices = [
        (tuple(int(i) for i in index), (k % per_line) * (slice_w + GAP), (k // per_line) * (slice_h + GAP) + label)
        for k, index in enumerate(indices)
    ]
    return Geometry(cell, rows, cols, slices, max(width, 1), max(height, 1))


# -- what a cell is -----------------------------------------------------------------


def cell_data(emap: ElementMap) -> dict:
    """The JSON a hover reads: per physical dim a table along one logical axis (or the whole grid)."""
    rank = len(emap.grid_shape)

    def along(values: np.ndarray) -> tuple[int, list]:
        axis = factor_by_axis(values) if rank else -1
        if axis is None:
            return -2, values.tolist()  # nested lists: indexed by the whole logical index
        if axis == -1:
            return -1, [int(values.reshape(-1)[0])] if values.size else [0]
        index = [0] * rank
        index[axis] = slice(None)
        return axis, values[tuple(index)].tolist()

    dims = []
    for dim, coords in zip(emap.dims, emap.coordinates):
        axis, values = along(np.asarray(coords))
        dims.append({"role": dim.role, "kind": dim.kind, "src": dim.source, "size": dim.size, "axis": axis,
                     "v": values})  # fmt: skip
    terms = additive_terms(emap.offsets) if rank else None
    offset = {"terms": [t.tolist() for t in terms]} if terms is not None else {"full": emap.offsets.tolist()}
    return {"grid": list(emap.grid_shape), "size": list(emap.logical_shape), "phys": list(emap.physical_shape),
            "offset": offset, "dims": dims}  # fmt: skip


def _index_text(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, index)) + "]"


def describe_cell(emap: ElementMap, index: tuple[int, ...]) -> dict:
    """What the page says of one cell, from the element map (the tests' and the tooltips' answer)."""
    tile = [int(c[index]) for c, d in zip(emap.coordinates, emap.dims) if d.role == "tile"]
    inner = [(d, int(c[index])) for c, d in zip(emap.coordinates, emap.dims) if d.role != "tile"]
    return {
        "index": list(index),
        "padding": not bool(emap.inside[index]),
        "offset": int(emap.offsets[index]),
        "tile": tile,
        "in_tile": [v for _, v in inner],
        "kinds": [d.kind for d, _ in inner],
    }


def cell_title(emap: ElementMap, index: tuple[int, ...]) -> str:
    info = describe_cell(emap, index)
    head = f"{'padding ' if info['padding'] else ''}{_index_text(index)}: offset {info['offset']}"
    parts = [head]
    if info["tile"]:
        parts.append(f"tile {_index_text(info['tile'])}")
    if info["in_tile"]:
        word = "in tile" if info["tile"] else "physical index"
        parts.append(f"{word} {_index_text(info['in_tile'])}")
    if any(info["kinds"]):
        parts.append("(" + ", ".join(k or "-" for k in info["kinds"]) + ")")
    return "; ".join(parts)


# -- drawing ---------------------------------------------------------------------------


def _ramp_palette() -> list[tuple[int, int, int]]:
    """Hue: where a cell sits within its tile's memory; lightness alternates between tiles.

    Elements take the first two rows of 24 hues, padding the last two, paler:
    a mostly padded tile (a dynamic dim at a small size) still shows the
    swizzle's pattern over the whole tile.
    """
    colours = []
    for lightness, saturation in ((0.68, 0.65), (0.82, 0.65), (0.92, 0.35), (0.96, 0.35)):
        for step in range(RAMP_STEPS):
            r, g, b = colorsys.hls_to_rgb(step / RAMP_STEPS, lightness, saturation)
            colours.append((round(r * 255), round(g * 255), round(b * 255)))
    return colours


RAMP_PALETTE = _ramp_palette()


def _ramp_png(offsets: np.ndarray, inside: np.ndarray, tile: int) -> str:
    step = (RAMP_STEPS * (offsets % tile)) // tile
    colour = np.where((offsets // tile) % 2 == 0, step, RAMP_STEPS + step)
    colour = np.where(inside, colour, 2 * RAMP_STEPS + colour).astype(np.uint8)
    return base64.b64encode(palette_png(colour, RAMP_PALETTE)).decode("ascii")


def _slice_view(array: np.ndarray, lead: tuple[int, ...]) -> np.ndarray:
    """One slice of a grid-shaped array as rows x cols."""
    if array.ndim <= 1:
        return array.reshape(1, -1)
    return array[lead]


def _tile_edges(emap: ElementMap) -> tuple[list[int], list[int]]:
    """Rows and columns of a slice where a new tile starts: where a tile coordinate changes along that axis."""
    rank = len(emap.grid_shape)
    edges: list[list[int]] = [[], []]
    for which, axis in enumerate((rank - 2, rank - 1)):
        if axis < 0:
            continue
        starts: set[int] = set()
        for dim, coords in zip(emap.dims, emap.coordinates):
            if dim.role != "tile" or factor_by_axis(np.asarray(coords)) != axis:
                continue
            index = [0] * rank
            index[axis] = slice(None)
            starts.update((np.flatnonzero(np.diff(np.asarray(coords)[tuple(index)])) + 1).tolist())
        edges[which] = sorted(starts)
    return edges[0], edges[1]


def _label_fits(emap: ElementMap, cell: int) -> tuple[bool, int]:
    """Whether the offsets fit in a cell, and at which font size (the largest from 11 px down to 7 px)."""
    digits = len(str(int(emap.offsets.max()))) if emap.offsets.size else 1
    for font in range(min(11, int(cell * 0.6)), 6, -1):
        if digits * font * 0.6 <= cell - 1:  # a monospace digit is about 0.6 em wide
            return True, font
    return False, 7


ZOOM = 16
"""A colour ramp comes with its top-left ZOOM x ZOOM cells drawn one by one, labelled with their offsets."""


def crop(emap: ElementMap, rows: int = ZOOM, cols: int = ZOOM) -> ElementMap:
    """The top-left ``rows`` x ``cols`` cells of the first slice: same indices, same answers."""
    rank = len(emap.grid_shape)
    keep = [1] * max(rank - 2, 0) + [rows, cols][max(2 - rank, 0) :]
    window = tuple(slice(0, min(k, g)) for k, g in zip(keep, emap.grid_shape))
    grid = tuple(min(k, g) for k, g in zip(keep, emap.grid_shape))
    return ElementMap(
        tuple(min(s, g) for s, g in zip(emap.logical_shape, grid)),
        grid,
        emap.offsets[window],
        emap.inside[window],
        emap.physical_shape,
        [c[window] for c in emap.coordinates],
        emap.dims,
    )


def zoomed_picture(emap: ElementMap, title: str, tile_elements: int, picture_id: str = "") -> str:
    """A picture; a swizzled colour ramp gets its top-left corner too, labelled (both answer in one info box).

    Only a swizzle needs the numbers to be read: a plain pack's ramp already
    says its order (offsets grow along the rows of each tile).
    """
    main = picture_svg(emap, title, tile_elements, picture_id)
    swizzled = any(d.kind for d in emap.dims)
    if not swizzled or 'data-mode="ramp"' not in main[:600] or len(emap.grid_shape) == 0:
        return main
    corner = crop(emap)
    zoom = picture_svg(corner, f"{title}, top-left corner", tile_elements, f"{picture_id}-zoom" if picture_id else "")
    shape = "x".join(map(str, corner.grid_shape[-2:]))
    return (
        f'{main}<div class="zoom"><p class="meta">its top-left {shape} cells, each labelled with its offset:</p>'
        f"{zoom}</div>"
    )


def picture_svg(emap: ElementMap, title: str, tile_elements: int, picture_id: str = "") -> str:
    """The picture of ``emap`` as inline SVG, with what a hover needs."""
    geo = geometry(emap.grid_shape)
    count = math.prod(emap.grid_shape)
    cells = geo.cell >= CELLS_MIN and count <= CELLS_MAX
    labels, font = _label_fits(emap, geo.cell) if cells else (False, 0)
    tile = max(tile_elements, 1)
    data = json.dumps(cell_data(emap), separators=(",", ":")).replace("&", "&amp;").replace("'", "&#39;")
    grid = ",".join(map(str, emap.grid_shape))
    id_attr = f' id="{picture_id}"' if picture_id else ""
    out = [
        f'<svg class="layout" xmlns="http://www.w3.org/2000/svg"{id_attr} '
        f'width="{geo.width + 2}" height="{geo.height + 2}" viewBox="-1 -1 {geo.width + 2} {geo.height + 2}" '
        f'role="img" aria-label="{escape(title)}" data-mode="{"cells" if cells else "ramp"}" data-grid="{grid}" '
        f'data-cell-size="{geo.cell}" style="font-size:{font}px" data-cells=\'{data}\'><title>{escape(title)}</title>'
    ]
    lead_rank = max(len(emap.grid_shape) - 2, 0)
    with_titles = cells and count <= TITLE_CELLS
    row_edges, col_edges = ([], []) if cells else _tile_edges(emap)
    # Tile boundaries over a colour ramp (cells drawn one by one show their tiles by colour).
    edges = "".join(f"M0 {r * geo.cell}h{geo.cols * geo.cell}" for r in row_edges) + "".join(
        f"M{c * geo.cell} 0v{geo.rows * geo.cell}" for c in col_edges
    )
    for lead, x0, y0 in geo.slices:
        out.append(f'<g class="slice" data-slice="{",".join(map(str, lead))}" transform="translate({x0},{y0})">')
        if lead_rank:
            label = _index_text(lead)[:-1] + ", :, :]"
            out.append(f'<text class="slice-label" x="0" y="-3">{label}</text>')
        offsets = _slice_view(emap.offsets, lead)
        inside = _slice_view(emap.inside, lead)
        if cells:
            out.append(_cells_svg(emap, lead, offsets, inside, geo.cell, tile, labels, with_titles))
        elif offsets.size:
            out.append(
                f'<image class="ramp" width="{geo.cols * geo.cell}" height="{geo.rows * geo.cell}" '
                f'preserveAspectRatio="none" href="data:image/png;base64,{_ramp_png(offsets, inside, tile)}"/>'
            )
            out.append(
                f'<rect class="frame" width="{geo.cols * geo.cell}" height="{geo.rows * geo.cell}"/>'
                + (f'<path class="tile-edges" d="{edges}"/>' if edges else "")
            )
        out.append("</g>")
    out.append(f'<rect class="cursor" width="{geo.cell}" height="{geo.cell}" visibility="hidden"/></svg>')
    return "".join(out)


def _cells_svg(emap, lead, offsets, inside, cell, tile, labels, with_titles) -> str:
    rows, cols = offsets.shape
    rank = len(emap.grid_shape)
    # The colours of `mini-iree-layout draw`: one per tile, padding grey.
    colours = tile_colours(offsets, inside, tile)
    out = []
    for r, c in np.ndindex(rows, cols):
        index = lead + ((r, c) if rank >= 2 else (c,) if rank == 1 else ())
        offset, element, colour = int(offsets[r, c]), bool(inside[r, c]), colours[r, c]
        x, y = c * cell, r * cell
        attrs = "" if element else ' class="pad"'
        title = f"<title>{escape(cell_title(emap, index))}</title>" if with_titles else ""
        key = ",".join(map(str, index))
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{colour}"{attrs} data-cell="{key}">'
                   f"{title}</rect>")  # fmt: skip
        if labels:
            out.append(f'<text x="{x + cell / 2:g}" y="{y + cell / 2 + cell / 7:.0f}"{attrs}>{offset}</text>')
    return "".join(out)
