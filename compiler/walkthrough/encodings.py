"""Every tensor encoding a stage holds, with its layout drawn by the layout algebra.

Three kinds appear on the way through data tiling:

- ``#iree_encoding.encoding<...>``: what the op wants, no layout yet; it is
  resolved here for each target the pipeline assigns, as
  ``iree-stream-specialize-encodings`` will;
- ``#iree_encoding.layout<[...]>``: a resolver's ``encoding_info`` per target;
- ``#xla.layout<"...">``: an XLA tiled layout.

Each becomes a ``Relayout`` (pad -> reshape -> transpose, plus the swizzle's
expand_shape -> transpose) and is drawn in the style of the tiled-layout
document's Figures 1-2 (``layout_pictures``): the logical grid, each element
labelled (or coloured) with its offset in memory, tiles coloured, padding
dashed; every cell answers a hover with its index, offset, tile and swizzle
dims. Static dims are drawn at their real sizes (a rank >= 3 tensor as one
slice per index of its leading dims), dynamic ones at the size the page's
interpreter check gave them (``drawn_shape``); the caption says which.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

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
    xla_tiles: list[str] = field(default_factory=list)  # the XLA form's tiles, one line each: what it does
    pictures: list[tuple[str, str]] = field(default_factory=list)  # (caption, inline SVG)
    command: str = ""  # the mini-iree-layout command that draws the last picture
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


def _walk_attributes(attr: Attribute, found: list[TensorType], memo: dict) -> None:
    """Append the encoded tensor types inside ``attr``; ``memo`` remembers each attribute's answer.

    Stages share their (immutable) attribute objects, so the memo is keyed by
    identity (hashing a deep attribute costs as much as walking it); it holds
    the attribute too, so that its id stays its own.
    """
    known = memo.get(id(attr))
    if known is not None and known[0] is attr:
        found.extend(known[1])
        return
    start = len(found)
    if isinstance(attr, TensorType):
        if not isinstance(attr.encoding, NoneAttr):
            found.append(attr)
    elif isinstance(attr, ArrayAttr):
        for a in attr.data:
            _walk_attributes(a, found, memo)
    elif isinstance(attr, DictionaryAttr):
        for a in attr.data.values():
            _walk_attributes(a, found, memo)
    elif isinstance(attr, ParametrizedAttribute) and attr.name.startswith(("hal.device", "hal.executable.target")):
        pass
    elif isinstance(attr, ParametrizedAttribute):
        for a in attr.parameters:
            if isinstance(a, Attribute):
                _walk_attributes(a, found, memo)
    memo[id(attr)] = (attr, tuple(found[start:]))


def encoded_tensor_types(root: Operation, memo: dict | None = None) -> list[TensorType]:
    """Encoded tensor types of every value, block argument and attribute under ``root``, first use first.

    ``memo`` (any dict, shared between calls) saves walking the same attribute twice.
    """
    memo = {} if memo is None else memo
    found: list[TensorType] = []
    for op in root.walk():
        for value in (*op.operands, *op.results):
            _walk_attributes(value.type, found, memo)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    _walk_attributes(arg.type, found, memo)
        for attr in (*op.properties.values(), *op.attributes.values()):
            _walk_attributes(attr, found, memo)
    # One card per printed type; the same object is printed once.
    unique: dict[str, TensorType] = {}
    for t in {id(t): t for t in found}.values():
        unique.setdefault(type_text(t, memo), t)
    return list(unique.values())


def type_text(tensor: TensorType, memo: dict) -> str:
    """``str(tensor)``, remembered in ``memo`` (by identity, as ``_walk_attributes``)."""
    key = ("text", id(tensor))
    known = memo.get(key)
    if known is None or known[0] is not tensor:
        known = memo[key] = (tensor, str(tensor))
    return known[1]


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


def sample_shape(
    shape: list[int | None],
    tiles: dict[int, int],
    max_cells: int = MAX_CELLS,
    max_side: int | None = None,
    max_slices: int | None = None,
) -> tuple[int, ...] | None:
    """A static shape to draw: static dims kept when small, dynamic ones a partial tile past a whole one.

    Shrinks to less than one tile per dim (still showing padding) when that is
    more than ``max_cells`` cells (a dim longer than ``max_side``, more than
    ``max_slices`` slices of the last two dims), the trailing dims first (a batch keeps its
    slices longest); None when even one tile per dim is too many. A static dim
    never grows.
    """
    choices: list[list[int]] = []
    for d, size in enumerate(shape):
        tile = tiles.get(d, 1)
        options = [tile + max(1, tile // 2), max(1, tile - max(1, tile // 4)), 1] if tile > 1 else [3, 2, 1]
        if size is not None and size >= 0:
            options = [size] + [o for o in options if o < size]
        choices.append(list(dict.fromkeys(options)))
    picked = [0] * len(shape)

    def padded() -> int:
        return math.prod(
            -(-choices[d][picked[d]] // tiles.get(d, 1)) * tiles.get(d, 1) for d in range(len(shape))
        )

    def longest() -> int:
        return max((-(-choices[d][picked[d]] // tiles.get(d, 1)) * tiles.get(d, 1) for d in range(len(shape))),
                   default=0)  # fmt: skip

    def slices() -> int:
        return math.prod(choices[d][picked[d]] for d in range(len(shape) - 2))

    while True:
        if max_slices is not None and slices() > max_slices:
            # Too many slices: shrink the largest leading dim.
            lead = [d for d in range(len(shape) - 2) if picked[d] + 1 < len(choices[d])]
            if not lead:
                return None
            picked[max(lead, key=lambda d: choices[d][picked[d]])] += 1
            continue
        if padded() <= max_cells and (max_side is None or longest() <= max_side):
            break
        # Shrink the dim that is largest after padding and can still shrink (on a tie, the later one).
        movable = [d for d in range(len(shape)) if picked[d] + 1 < len(choices[d])]
        if not movable:
            return None
        d = max(movable, key=lambda d: (-(-choices[d][picked[d]] // tiles.get(d, 1)) * tiles.get(d, 1), d))
        picked[d] += 1
    return tuple(choices[d][picked[d]] for d in range(len(shape)))


def _one_tile(shape: list[int | None], tiles: dict[int, int]) -> tuple[int, ...] | None:
    """One whole tile (1 in untiled dims): the smallest shape that shows a tile too large for padding."""
    sample = tuple(tiles.get(d, 1) for d in range(len(shape)))
    return sample if math.prod(sample) <= 16 * MAX_CELLS else None


def _shape_text(shape) -> str:
    return "x".join("?" if d is None else str(d) for d in shape)


# -- pictures ----------------------------------------------------------------------

MAX_DRAWN_CELLS = 1 << 17
"""A picture at the page's own sizes may have this many cells (drawn as a colour ramp when large)..."""
MAX_DRAWN_SIDE = 512
"""... and no dim longer than this (a picture stays on the screen)..."""
MAX_DRAWN_SLICES = 64
"""... and at most this many slices (the indices of the leading dims of a rank >= 3 tensor)."""


def drawn_shape(
    shape: list[int | None], tiles: dict[int, int], dynamic_size: int | None
) -> tuple[tuple[int, ...] | None, str]:
    """The static shape a picture draws, and what the caption must say about it.

    Static dims keep their real sizes (a batch is drawn as a stack of slices);
    dynamic ones take ``dynamic_size``, the size the page's interpreter check
    gives every dynamic dim. Without it (or when that is too many cells to draw)
    the shape is ``sample_shape``'s.
    """

    def padded(sample) -> list[int]:
        return [-(-s // tiles.get(d, 1)) * tiles.get(d, 1) for d, s in enumerate(sample)]

    dynamic = None in shape
    if dynamic_size is not None and dynamic_size > 0 or not dynamic:
        sample = tuple(dynamic_size if d is None else d for d in shape)
        grown = padded(sample)
        fits = math.prod(grown) <= MAX_DRAWN_CELLS and max(grown, default=0) <= MAX_DRAWN_SIDE
        if fits and math.prod(sample[:-2]) <= MAX_DRAWN_SLICES:
            note = f"each ? drawn at {dynamic_size}, the size the page's check gives dynamic dims" if dynamic else ""
            return sample, note  # type: ignore[return-value]
        real = f"{_shape_text(sample)} is too large to draw"
    else:
        real = ""
    fallback = sample_shape(shape, tiles, MAX_DRAWN_CELLS, MAX_DRAWN_SIDE, MAX_DRAWN_SLICES) or _one_tile(shape, tiles)
    if fallback is None:
        return None, ""
    why = real or "dynamic dims drawn at a sample size"
    return fallback, (f"{why}: drawn as {_shape_text(fallback)}" if real else why)


def _slices_text(sample: tuple[int, ...]) -> str:
    """How a rank >= 3 picture is laid out, for its caption."""
    if len(sample) < 3:
        return ""
    lead = sample[:-2]
    dims = ", ".join(f"d{d}" for d in range(len(lead)))
    return f"{math.prod(lead)} slices of {sample[-2]}x{sample[-1]}, one per index of {dims}"


def caption(sample: tuple[int, ...], element_type: str, what: str, note: str) -> str:
    parts = [f"{_shape_text(sample)}x{element_type}" + (f", {what}" if what else "")]
    parts += [p for p in (_slices_text(sample), note) if p]
    return "; ".join(parts)


def picture_svg(relayout, title: str, tile_elements: int, dims=None, picture_id: str = "") -> str:
    """The layout as an inline SVG that answers a hover (``layout_pictures.zoomed_picture``)."""
    from mini_iree.compiler.layout.element_map import element_map

    from . import layout_pictures

    return layout_pictures.zoomed_picture(element_map(relayout, dims), title, tile_elements, picture_id)


# -- one layout ------------------------------------------------------------------------


def _info_view(
    label: str, info, shape: list[int | None], element_type: str, size: int | None, prefix: str
) -> LayoutView:
    """A resolver's encoding_info on a tensor: steps, lowering, XLA form and pictures."""
    from mini_iree.compiler import layout as L
    from mini_iree.compiler.layout.element_map import encoding_dims
    from mini_iree.compiler.layout.materialization import format_ops
    from mini_iree.compiler.layout.steps import static

    view = LayoutView(label)
    if info.is_identity():
        view.info_text = "identity: the resolver has no tile for this tensor, it stays row-major"
        _identity_pictures(view, shape, element_type, size, prefix)
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
        xla_layout = _xla_form(info, len(shape))
        name = L.xla_element_type(element_type) or element_type
        view.xla = f"{name}[{','.join('?' if d is None else str(d) for d in shape)}]{xla_layout}"
        view.xla_tiles = xla_tile_lines(tuple(shape), xla_layout)
    except ValueError as err:
        view.xla = f"none ({err})"
    tiles = {d: t for d, t in zip(info.inner_dims_pos, L.inner_tiles(info)) if t is not None}
    sample, note = drawn_shape(shape, tiles, size)
    if sample is None:
        view.note = "the tile is too large to draw"
        return view
    tile_elements = math.prod(tiles.values()) if tiles else 1
    sample_text = f"{_shape_text(sample)}x{element_type}"
    rank = len(shape)
    stages = [("", info)]
    if info.swizzle is not None:
        packed = dataclasses.replace(info, swizzle=None)
        stages = [
            ("after linalg.pack (before the swizzle)", packed),
            ("after the swizzle's expand_shape + transpose: the offsets inside each tile move", info),
        ]
    from mini_iree.compiler.layout.drawing import MAX_CELLS as DRAW_MAX_CELLS

    if math.prod(-(-s // tiles.get(d, 1)) * tiles.get(d, 1) for d, s in enumerate(sample)) <= DRAW_MAX_CELLS:
        # Small enough for `mini-iree-layout draw` (a big tile is a blur there): the learner can redraw it.
        view.command = (
            f"mini-iree-layout draw --encoding-info '{view.info_text}' --shape {_shape_text(sample)}x{element_type} "
            "-o layout.svg"
        )
    for k, (what, stage_info) in enumerate(stages):
        relayout = L.encoding_relayout(stage_info, sample)
        dims = encoding_dims(stage_info, rank, static(relayout.physical_shape, "a picture"))
        title = f"{sample_text} {'swizzled' if stage_info.swizzle else 'packed'}"
        svg = picture_svg(relayout, title, tile_elements, dims, f"{prefix}-{k}")
        view.pictures.append((caption(sample, element_type, what, note), svg))
        if stage_info.swizzle is not None and view.xla_tiles:
            # The tiles' end result, named as the swizzle names its dims.
            inner = [d for d in dims if d.role == "inner"]
            view.xla_tiles.append(
                f"= {'x'.join(str(d.size) for d in inner)}: " + ", ".join(d.label() for d in inner)
                + ", the swizzle's expandShape dims in permutation order"
            )
    return view


_XLA_FORMS: dict[tuple[str, int], object] = {}


def _xla_form(info, rank: int):
    """``iree_to_xla_layout``, once per encoding_info (each appears on an encoding card and a layout card)."""
    from mini_iree.compiler import layout as L

    key = (L.format_encoding_info(info), rank)
    if key not in _XLA_FORMS:
        if len(_XLA_FORMS) > 256:
            _XLA_FORMS.clear()
        try:
            _XLA_FORMS[key] = L.iree_to_xla_layout(info, rank)
        except ValueError as err:
            _XLA_FORMS[key] = err
    found = _XLA_FORMS[key]
    if isinstance(found, ValueError):
        raise found
    return found


def xla_tile_lines(dimensions, layout) -> list[str]:
    """The XLA form's tiles one per line, when there is more than one (a single tile reads well as it is)."""
    from mini_iree.compiler.layout.xla_tile_steps import describe_tiles

    if len(layout.tiles) < 2:
        return []
    try:
        return describe_tiles(dimensions, layout)
    except ValueError:
        return []


def _identity_pictures(view: LayoutView, shape: list[int | None], element_type: str, size: int | None,
                       prefix: str) -> None:  # fmt: skip
    from mini_iree.compiler.layout import Relayout

    sample, note = drawn_shape(shape, {}, size)
    if sample is not None:
        view.pictures.append(
            (caption(sample, element_type, "row-major", note), picture_svg(Relayout(sample, ()), "row-major", 1,
                                                                           picture_id=f"{prefix}-0"))
        )  # fmt: skip


def _xla_view(encoding, shape: list[int | None], element_type: Attribute, size: int | None, prefix: str) -> LayoutView:
    from mini_iree.compiler import layout as L
    from mini_iree.compiler.layout.element_map import xla_dims
    from mini_iree.compiler.layout.steps import static

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
    sample, note = drawn_shape(shape, tiles, size)
    if sample is None:
        view.note = "the tile is too large to draw"
        return view
    xla = L.XlaShape(name, sample, layout)
    relayout = L.xla_relayout(xla)
    view.steps = relayout.explain()
    view.xla_tiles = xla_tile_lines(tuple(shape), layout)
    tile_elements = math.prod(tiles.values()) if tiles else 1
    dims = xla_dims(xla, static(relayout.physical_shape, "a picture"))
    view.pictures.append(
        ("; ".join(p for p in (str(xla), _slices_text(sample), note) if p),
         picture_svg(relayout, str(xla), tile_elements, dims, f"{prefix}-0"))
    )  # fmt: skip
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


def build_card(
    tensor: TensorType,
    targets: list[str],
    anchor: str,
    attr_text: str,
    tensor_text: str,
    dynamic_size: int | None = None,
) -> EncodingCard:
    """The card of one encoded tensor type: its layout per target, drawn.

    Dynamic dims are drawn at ``dynamic_size`` (the page's check size) when given.
    """
    from mini_iree.dialects.iree_codegen import EncodingResolverAttr

    encoding = tensor.encoding
    kind = encoding_kind(encoding)
    shape = [None if d == DYNAMIC_INDEX else d for d in tensor.get_shape()]
    element_type = str(tensor.element_type)
    card = EncodingCard(str(tensor), anchor, kind, attr_text, tensor_text)
    size = dynamic_size

    def prefix() -> str:
        return f"{anchor}-v{len(card.views)}"

    try:
        if kind == "encoding":
            if not targets:
                view = LayoutView("no target", note="the pipeline assigns no target: the encoding has no layout yet")
                _identity_pictures(view, shape, element_type, size, prefix())
                card.views.append(view)
            from mini_iree.compiler.resolvers import resolve_encoding_info

            for name, target in _targets(targets):
                info = resolve_encoding_info(target, encoding)
                if info is None:
                    view = LayoutView(f"on {name}", note="the target has no encoding resolver")
                    _identity_pictures(view, shape, element_type, size, prefix())
                    card.views.append(view)
                    continue
                card.views.append(_info_view(f"resolved on {name}", info, shape, element_type, size, prefix()))
        elif kind == "layout":
            for layout in encoding.layouts.data:
                info = layout.encoding_info if isinstance(layout, EncodingResolverAttr) else None
                label = f"#{layout.name}"
                if info is None:
                    view = LayoutView(label, note="no encoding_info: stored row-major")
                    _identity_pictures(view, shape, element_type, size, prefix())
                    card.views.append(view)
                else:
                    card.views.append(_info_view(label, info, shape, element_type, size, prefix()))
        elif kind == "xla":
            card.views.append(_xla_view(encoding, shape, tensor.element_type, size, prefix()))
        else:
            view = LayoutView(f"#{getattr(encoding, 'name', 'encoding')}", note="drawn row-major")
            _identity_pictures(view, shape, element_type, size, prefix())
            card.views.append(view)
    except Exception as err:  # noqa: BLE001 - a picture that cannot be drawn must not lose the page
        view = LayoutView("error", note=f"cannot draw this layout: {type(err).__name__}: {err}")
        _identity_pictures(view, shape, element_type, size, prefix())
        card.views.append(view)
    return card
