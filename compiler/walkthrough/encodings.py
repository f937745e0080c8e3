"""Every tensor encoding a stage holds, with its layout drawn by the layout algebra.

Three kinds appear on the way through data tiling:

- ``#iree_encoding.encoding<...>``: what the op wants, no layout yet; it is
  resolved here for each target the pipeline assigns, as
  ``iree-stream-specialize-encodings`` will;
- ``#iree_encoding.layout<[...]>``: a resolver's ``encoding_info`` per target;
- ``#xla.layout<"...">``: an XLA tiled layout.

Each becomes a ``Relayout`` (pad -> reshape -> transpose, plus the swizzle's
expand_shape -> transpose) and is drawn in the style of the tiled-layout
document's Figures 1-2: the logical grid, each element labelled (or coloured)
with its offset in memory, tiles coloured, padding dashed. A dynamic dim is
drawn at a small sample size that shows the padding of a partial tile.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from html import escape

from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, DictionaryAttr, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation, ParametrizedAttribute

MAX_CELLS = 4096  # as compiler/layout/drawing.py: more cells are a blur


@dataclass
class LayoutView:
    """One layout of an encoding (one target's, or the XLA layout)."""

    label: str
    info_text: str = ""
    steps: list[str] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)
    xla: str = ""
    pictures: list[tuple[str, str]] = field(default_factory=list)  # (caption, inline SVG)
    note: str = ""


@dataclass
class EncodingCard:
    key: str
    anchor: str
    kind: str  # "encoding", "layout", "xla", "other"
    attr_text: str
    tensor_text: str
    stages: list[int] = field(default_factory=list)
    views: list[LayoutView] = field(default_factory=list)


def _walk_attributes(attr: Attribute, found: list[TensorType]) -> None:
    if isinstance(attr, TensorType):
        if not isinstance(attr.encoding, NoneAttr):
            found.append(attr)
        return
    if isinstance(attr, ArrayAttr):
        for a in attr.data:
            _walk_attributes(a, found)
    elif isinstance(attr, DictionaryAttr):
        for a in attr.data.values():
            _walk_attributes(a, found)
    elif isinstance(attr, ParametrizedAttribute) and attr.name.startswith(("hal.device", "hal.executable.target")):
        return
    elif isinstance(attr, ParametrizedAttribute):
        for a in attr.parameters:
            if isinstance(a, Attribute):
                _walk_attributes(a, found)


def encoded_tensor_types(root: Operation) -> list[TensorType]:
    """Encoded tensor types of every value, block argument and attribute under ``root``, first use first."""
    found: list[TensorType] = []
    for op in root.walk():
        for value in (*op.operands, *op.results):
            _walk_attributes(value.type, found)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    _walk_attributes(arg.type, found)
        for attr in (*op.properties.values(), *op.attributes.values()):
            _walk_attributes(attr, found)
    unique: dict[str, TensorType] = {}
    for t in found:
        unique.setdefault(str(t), t)
    return list(unique.values())


def attribute_text(attr: Attribute) -> str:
    """``attr`` as ``mini-iree-opt`` prints it, without aliases."""
    from io import StringIO

    from mini_iree.compiler.ir.printer import MLIRPrinter

    stream = StringIO()
    MLIRPrinter(stream=stream, local_scope=True).print_attribute(attr)
    return stream.getvalue()


def encoding_kind(encoding: Attribute) -> str:
    from mini_iree.dialects import iree_encoding, xla

    if isinstance(encoding, iree_encoding.EncodingAttr):
        return "encoding"
    if isinstance(encoding, iree_encoding.LayoutAttr):
        return "layout"
    if isinstance(encoding, xla.LayoutAttr):
        return "xla"
    return "other"


# -- sample shapes ---------------------------------------------------------------


def sample_shape(shape: list[int | None], tiles: dict[int, int]) -> tuple[int, ...] | None:
    """A static shape to draw: static dims kept when small, dynamic ones a partial tile past a whole one.

    Shrinks to less than one tile per dim (still showing padding) when that is
    too many cells; None when even one tile per dim is too many.
    """
    choices: list[list[int]] = []
    for d, size in enumerate(shape):
        tile = tiles.get(d, 1)
        options = []
        if size is not None and size >= 0:
            options.append(size)
        if tile > 1:
            options += [tile + max(1, tile // 2), max(1, tile - max(1, tile // 4)), 1]
        else:
            options += [3, 2, 1]
        choices.append(options)
    picked = [0] * len(shape)

    def padded() -> int:
        return math.prod(
            -(-choices[d][picked[d]] // tiles.get(d, 1)) * tiles.get(d, 1) for d in range(len(shape))
        )

    while padded() > MAX_CELLS:
        # Shrink the dim that is largest after padding and can still shrink.
        movable = [d for d in range(len(shape)) if picked[d] + 1 < len(choices[d])]
        if not movable:
            return None
        d = max(movable, key=lambda d: -(-choices[d][picked[d]] // tiles.get(d, 1)) * tiles.get(d, 1))
        picked[d] += 1
    return tuple(choices[d][picked[d]] for d in range(len(shape)))


def _one_tile(shape: list[int | None], tiles: dict[int, int]) -> tuple[int, ...] | None:
    """One whole tile (1 in untiled dims): the smallest shape that shows a tile too large for padding."""
    sample = tuple(tiles.get(d, 1) for d in range(len(shape)))
    return sample if math.prod(sample) <= 16 * MAX_CELLS else None


def _shape_text(shape) -> str:
    return "x".join("?" if d is None else str(d) for d in shape)


# -- pictures ----------------------------------------------------------------------


def picture_svg(relayout, title: str, tile_elements: int) -> str:
    """The layout as an inline SVG: Figure-1 style when labels fit, a colour ramp otherwise.

    Up to ``MAX_CELLS`` cells the picture is ``drawing.layout_picture``'s (padding
    included); a larger one (a 128x128 GPU tile) is drawn from the layout's index
    grid alone, and runs of same-coloured cells in a row become one rectangle.
    """
    import numpy as np

    from mini_iree.compiler.layout import drawing

    try:
        picture = drawing.layout_picture(relayout, title, tile_elements)
        rows, cols = picture.rows, picture.cols
        offsets = np.array([int(c.label) for c in picture.cells]).reshape(rows, cols)
        padding = np.array([c.padding for c in picture.cells]).reshape(rows, cols)
        palette = np.array([c.colour for c in picture.cells], dtype=object).reshape(rows, cols)
    except ValueError:
        grid = np.asarray(relayout.index_grid())
        cols = grid.shape[-1] if grid.ndim else 1
        offsets = grid.reshape(-1, cols)
        rows = offsets.shape[0]
        padding = np.zeros_like(offsets, dtype=bool)
        palette = None
    cell = max(4, min(30, 560 // max(cols, 1), 900 // max(rows, 1)))
    labels = cell >= 18 and palette is not None
    width, height = cols * cell + 2, rows * cell + 2
    out = [
        f'<svg class="layout" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="-1 -1 {width} {height}" role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    tile = max(tile_elements, 1)

    def fill(r: int, c: int) -> str:
        if padding[r, c]:
            return drawing.PADDING_COLOUR
        if labels:
            return str(palette[r, c])
        # Hue: where the element sits within its tile's memory (24 steps); lightness alternates per tile.
        offset = int(offsets[r, c])
        hue = 12 * ((24 * (offset % tile)) // tile)
        return f"hsl({hue},65%,{68 if (offset // tile) % 2 == 0 else 82}%)"

    for r in range(rows):
        c = 0
        while c < cols:
            colour, pad = fill(r, c), bool(padding[r, c])
            run = 1
            # Without labels, a run of same-coloured cells (padding included) is one rectangle.
            while not labels and c + run < cols and padding[r, c + run] == pad and fill(r, c + run) == colour:
                run += 1
            x, y = c * cell, r * cell
            extra = ' stroke="#333" stroke-width="0.6"' if labels or pad else ""
            if pad:
                extra += ' stroke-dasharray="3,2" class="pad"'
            out.append(f'<rect x="{x}" y="{y}" width="{cell * run}" height="{cell}" fill="{colour}"{extra}/>')
            if labels:
                out.append(
                    f'<text x="{x + cell / 2}" y="{y + cell / 2 + 4}" font-size="{max(8, cell // 3)}" '
                    f'text-anchor="middle" fill="{"#999" if pad else "#000"}">{int(offsets[r, c])}</text>'
                )
            c += run
    out.append("</svg>")
    return "".join(out)


# -- one layout ------------------------------------------------------------------------


def _info_view(label: str, info, shape: list[int | None], element_type: str) -> LayoutView:
    """A resolver's encoding_info on a tensor: steps, lowering, XLA form and pictures."""
    from mini_iree.compiler import layout as L
    from mini_iree.compiler.layout.materialization import format_ops

    view = LayoutView(label)
    if info.is_identity():
        view.info_text = "identity: the resolver has no tile for this tensor, it stays row-major"
        _identity_pictures(view, shape)
        return view
    view.info_text = L.format_encoding_info(info)
    symbolic = tuple(shape)
    try:
        relayout = L.encoding_relayout(info, symbolic)
        view.steps = relayout.explain()
        view.ops = format_ops(L.materialization_ops(info, symbolic), symbolic, element_type)
    except ValueError as err:
        view.note = f"no layout: {err}"
        return view
    try:
        xla_layout = L.iree_to_xla_layout(info, len(shape))
        name = L.xla_element_type(element_type) or element_type
        view.xla = f"{name}[{','.join('?' if d is None else str(d) for d in shape)}]{xla_layout}"
    except ValueError as err:
        view.xla = f"none ({err})"
    tiles = {d: t for d, t in zip(info.inner_dims_pos, L.inner_tiles(info)) if t is not None}
    sample = sample_shape(shape, tiles) or _one_tile(shape, tiles)
    if sample is None:
        view.note = "the tile is too large to draw"
        return view
    tile_elements = math.prod(tiles.values()) if tiles else 1
    sample_text = f"{_shape_text(sample)}x{element_type}"
    if info.swizzle is not None:
        packed = dataclasses.replace(info, swizzle=None)
        view.pictures.append(
            (
                f"{sample_text}, after linalg.pack (before the swizzle)",
                picture_svg(L.encoding_relayout(packed, sample), f"{sample_text} packed", tile_elements),
            )
        )
        view.pictures.append(
            (
                f"{sample_text}, after the swizzle's expand_shape + transpose: the offsets inside each tile move",
                picture_svg(L.encoding_relayout(info, sample), f"{sample_text} swizzled", tile_elements),
            )
        )
    else:
        view.pictures.append(
            (f"{sample_text} (dynamic dims drawn at a sample size)" if None in shape else sample_text,
             picture_svg(L.encoding_relayout(info, sample), sample_text, tile_elements))
        )  # fmt: skip
    return view


def _identity_pictures(view: LayoutView, shape: list[int | None]) -> None:
    from mini_iree.compiler.layout import Relayout

    sample = sample_shape(shape, {})
    if sample is not None:
        view.pictures.append((f"{_shape_text(sample)} row-major", picture_svg(Relayout(sample, ()), "row-major", 1)))


def _xla_view(encoding, shape: list[int | None], element_type: Attribute) -> LayoutView:
    from mini_iree.compiler import layout as L

    layout = encoding.get_layout()
    name = L.xla_element_type(str(element_type)) or "f32"
    view = LayoutView("XLA layout", xla=f"{name}[{','.join('?' if d is None else str(d) for d in shape)}]{layout}")
    tiles: dict[int, int] = {}
    if layout.tiles:
        first = layout.tiles[0]
        major_to_minor = list(reversed(layout.minor_to_major))
        for position, t in enumerate(first):
            dim = major_to_minor[len(major_to_minor) - len(first) + position] if len(first) <= len(shape) else None
            if dim is not None and t != L.COMBINE_DIMENSION and t > 1:
                tiles[dim] = t
    sample = sample_shape(shape, tiles)
    if sample is None:
        view.note = "the tile is too large to draw"
        return view
    xla = L.XlaShape(name, sample, layout)
    relayout = L.xla_relayout(xla)
    view.steps = relayout.explain()
    tile_elements = math.prod(tiles.values()) if tiles else 1
    view.pictures.append((str(xla), picture_svg(relayout, str(xla), tile_elements)))
    return view


def _targets(names: list[str]):
    from mini_iree.compiler.resolvers.targets import parse_target

    out = []
    for name in names:
        try:
            out.append((name, parse_target(name)))
        except ValueError:
            continue
    return out


def build_card(tensor: TensorType, targets: list[str], anchor: str, attr_text: str, tensor_text: str) -> EncodingCard:
    """The card of one encoded tensor type: its layout per target, drawn."""
    from mini_iree.dialects.iree_codegen import EncodingResolverAttr

    encoding = tensor.encoding
    kind = encoding_kind(encoding)
    shape = [None if d == DYNAMIC_INDEX else d for d in tensor.get_shape()]
    element_type = str(tensor.element_type)
    card = EncodingCard(str(tensor), anchor, kind, attr_text, tensor_text)
    try:
        if kind == "encoding":
            if not targets:
                view = LayoutView("no target", note="the pipeline assigns no target: the encoding has no layout yet")
                _identity_pictures(view, shape)
                card.views.append(view)
            from mini_iree.compiler.resolvers import resolve_encoding_info

            for name, target in _targets(targets):
                info = resolve_encoding_info(target, encoding)
                if info is None:
                    view = LayoutView(f"on {name}", note="the target has no encoding resolver")
                    _identity_pictures(view, shape)
                    card.views.append(view)
                    continue
                card.views.append(_info_view(f"resolved on {name}", info, shape, element_type))
        elif kind == "layout":
            for layout in encoding.layouts.data:
                info = layout.encoding_info if isinstance(layout, EncodingResolverAttr) else None
                label = f"#{layout.name}"
                if info is None:
                    view = LayoutView(label, note="no encoding_info: stored row-major")
                    _identity_pictures(view, shape)
                    card.views.append(view)
                else:
                    card.views.append(_info_view(label, info, shape, element_type))
        elif kind == "xla":
            card.views.append(_xla_view(encoding, shape, tensor.element_type))
        else:
            view = LayoutView(f"#{getattr(encoding, 'name', 'encoding')}", note="drawn row-major")
            _identity_pictures(view, shape)
            card.views.append(view)
    except Exception as err:  # noqa: BLE001 - a picture that cannot be drawn must not lose the page
        view = LayoutView("error", note=f"cannot draw this layout: {type(err).__name__}: {err}")
        _identity_pictures(view, shape)
        card.views.append(view)
    return card
