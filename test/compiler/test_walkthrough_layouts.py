"""The walkthrough page's layout pictures: what they draw and what a hover on a cell says.

Every answer a picture embeds (offset, tile, swizzle dims) is checked here
against the layout algebra's own (``Relayout.index_grid``) and against the
swizzle's definition written out independently (IREE's TileSwizzle: expand
each inner tile dim into its group, row-major, then permute).
"""

from __future__ import annotations

import json
import re
from html import unescape

import numpy as np
import pytest
from conftest import REPO

from mini_iree.compiler import layout as L
from mini_iree.compiler.layout.element_map import additive_terms, element_map, encoding_dims, factor_by_axis
from mini_iree.compiler.layout.xla_tile_steps import describe_tiles
from mini_iree.compiler.walkthrough import layout_pictures
from mini_iree.compiler.walkthrough.cards import card_html, collect_cards
from mini_iree.compiler.walkthrough.encodings import drawn_shape
from mini_iree.compiler.walkthrough.stages import run_walkthrough

# linalg.batch_matmul with a dynamic M and N: the LHS is tensor<4x?x32xf32>, the result tensor<4x?x?xf32>.
BATCH_MATMUL = (REPO / "test" / "e2e" / "Inputs" / "batch_matmul_static_k.mlir").read_text()

GFX942_LHS = (
    '{innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = '
    '[[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], '
    '[["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}'
)


def _svgs(html: str) -> list[str]:
    return re.findall(r'<svg class="layout".*?</svg>', html)


def _data(svg: str) -> dict:
    return json.loads(unescape(re.search(r"data-cells='([^']*)'", svg).group(1)))


def _lookup(values, axis: int, index: tuple[int, ...]):
    """What the page's script does with one table of ``data-cells``: a lookup, nothing else."""
    if axis == -1:
        return values[0]
    if axis == -2:
        for i in index:
            values = values[i]
        return values
    return values[index[axis]]


def _answer(data: dict, index: tuple[int, ...]) -> tuple[int, list[int], list[tuple[str, int]]]:
    """(offset, tile coordinates, [(kind, coordinate)] within the tile) as the page's script reads them."""
    if "terms" in data["offset"]:
        offset = sum(term[i] for term, i in zip(data["offset"]["terms"], index))
    else:
        offset = _lookup(data["offset"]["full"], -2, index)
    tile = [_lookup(d["v"], d["axis"], index) for d in data["dims"] if d["role"] == "tile"]
    inner = [(d["kind"], _lookup(d["v"], d["axis"], index)) for d in data["dims"] if d["role"] != "tile"]
    return offset, tile, inner


def _cards(pipeline: str, dynamic_size: int = 14):
    walk = run_walkthrough("bmm.mlir", pipeline, check=False, source=BATCH_MATMUL)
    walk.dynamic_size = dynamic_size
    cards, _ = collect_cards(walk)
    return cards


@pytest.fixture(scope="module")
def gfx942_cards():
    return _cards("data-tiling-dispatch-creation{target=gfx942}")


def _card(cards, operand: int):
    return next(c for c in cards if f"operand_index = {operand}" in c.attr_text)


# -- the bugs: batch matmul drawn at its real sizes ---------------------------------------------------


def test_batch_lhs_drawn_at_its_real_sizes(gfx942_cards):
    """tensor<4x?x32xf32> was drawn as 2x1x1, ~99% padding: now 4 slices of 14x32 (? at the page's size)."""
    card = _card(gfx942_cards, 0)
    assert card.tensor_text.startswith("tensor<4x?x32xf32")
    [view] = card.views
    (packed_caption, packed), (swizzled_caption, swizzled) = view.pictures
    for caption in (packed_caption, swizzled_caption):
        assert caption.startswith("4x14x32xf32")
        assert "4 slices of 14x32" in caption and "each ? drawn at 14" in caption
    for picture in (packed, swizzled):
        svg = _svgs(picture)[0]
        data = _data(svg)
        assert data["size"] == [4, 14, 32] and data["grid"] == [4, 128, 32]
        assert svg.count('class="slice"') == 4
    # The swizzled colour ramp comes with its corner labelled: slice 0, rows and columns 0-15.
    assert len(_svgs(packed)) == 1
    zoom = _svgs(swizzled)[1]
    assert _data(zoom)["grid"] == [1, 16, 16] and 'data-cell="0,13,15"' in zoom


def test_batch_result_not_one_slice(gfx942_cards):
    """The result of 4x?x? was drawn as 1x128x128: now 4x14x14, padded to 4x128x128 (a colour ramp)."""
    card = _card(gfx942_cards, 2)
    [view] = card.views
    for caption, picture in view.pictures:
        assert caption.startswith("4x14x14xf32"), caption
        svg = _svgs(picture)[0]
        data = _data(svg)
        assert data["size"] == [4, 14, 14] and data["grid"] == [4, 128, 128]
        assert 'data-mode="ramp"' in svg and svg.count("<image") == 4
        assert len(svg) < 60_000  # 65536 cells, pixels in a PNG


def test_batch_matmul_on_cpu():
    cards = _cards("data-tiling-dispatch-creation{target=x86_64:+avx512f}", dynamic_size=5)
    lhs = _card(cards, 0)
    [view] = lhs.views
    [(caption, svg)] = view.pictures
    assert caption.startswith("4x5x32xf32") and "4 slices of 5x32" in caption
    assert _data(svg)["size"] == [4, 5, 32]


def test_drawn_shape():
    assert drawn_shape([4, None, 32], {1: 128, 2: 16}, 14) == ((4, 14, 32), drawn_shape([None], {}, 14)[1])
    assert drawn_shape([3, 4], {}, None) == ((3, 4), "")
    # Too many cells at the real size: a smaller sample, and the caption says so.
    shape, note = drawn_shape([4096, 4096], {0: 16, 1: 1}, None)
    assert shape is not None and "4096x4096 is too large to draw" in note
    # Without the page's size, dynamic dims get a sample size (a partial tile past a whole one); static dims
    # keep their size (the batch of 4 and K of 32, which were drawn as 2x1x1).
    assert drawn_shape([None, None], {0: 8, 1: 1}, None) == ((12, 3), "dynamic dims drawn at a sample size")
    assert drawn_shape([4, None, 32], {1: 128, 2: 16}, None)[0] == (4, 192, 32)
    # A page size too large to draw: a smaller sample that keeps the batch.
    assert drawn_shape([4, None, None], {1: 128, 2: 128}, 1000) == ((4, 192, 96), "4x1000x1000 is too large to draw: "
                                                                   "drawn as 4x192x96")  # fmt: skip


# -- per-cell answers against the algebra ----------------------------------------------------------------


def _swizzle_reference(i: int, j: int) -> tuple[list[int], list[tuple[str, int]]]:
    """The gfx942 LHS swizzle by its definition: tile (i // 128, j // 16); the row in the tile split 4x8x4,
    the column 4x4, each row-major; then the expanded dims permuted by [1, 4, 0, 2, 3]."""
    r, c = i % 128, j % 16
    expanded = [("CrossThread", r // 32), ("CrossIntrinsic", (r // 4) % 8), ("CrossThread", r % 4),
                ("CrossIntrinsic", c // 4), ("CrossThread", c % 4)]  # fmt: skip
    return [i // 128, j // 16], [expanded[p] for p in (1, 4, 0, 2, 3)]


def test_swizzled_cells_against_the_algebra():
    info = L.parse_encoding_info(GFX942_LHS)
    sample = (200, 40)
    relayout = L.encoding_relayout(info, sample)
    dims = encoding_dims(info, 2, relayout.physical_shape)
    svg = layout_pictures.picture_svg(element_map(relayout, dims), "lhs", 128 * 16)
    data = _data(svg)
    assert data["grid"] == [256, 48]
    grid = relayout.index_grid()
    for i, j in [(0, 0), (37, 5), (63, 16), (127, 15), (128, 0), (199, 39)]:
        offset, tile, inner = _answer(data, (i, j))
        assert offset == grid[i, j]
        assert (tile, inner) == _swizzle_reference(i, j)
    # Every element, not only a few: the embedded offsets are the algebra's index grid.
    rows, cols = np.indices(sample)
    offsets = np.asarray(data["offset"]["terms"][0])[rows] + np.asarray(data["offset"]["terms"][1])[cols]
    np.testing.assert_array_equal(offsets, grid)
    # A padding cell answers too: it is where the layout keeps padding.
    offset, tile, _ = _answer(data, (250, 45))
    _, inside = relayout.delinearize(offset)
    assert not inside and tile == [1, 2]


def test_zoomed_corner_labels_the_swizzle():
    """A 128x16 swizzled tile is a colour ramp; its top-left 16x16 cells are drawn labelled with the algebra's
    offsets, where a learner reads how the swizzle scatters a row."""
    info = L.parse_encoding_info(GFX942_LHS)
    relayout = L.encoding_relayout(info, (128, 16))
    dims = encoding_dims(info, 2, relayout.physical_shape)
    svg, zoom = _svgs(layout_pictures.zoomed_picture(element_map(relayout, dims), "lhs", 2048, "p"))
    assert 'data-mode="ramp"' in svg and 'data-mode="cells"' in zoom and 'id="p-zoom"' in zoom
    grid = relayout.index_grid()
    labels = [int(t) for t in re.findall(r">(\d+)</text>", zoom)]
    assert labels == grid[:16, :16].ravel().tolist()


def test_packed_cells_and_titles():
    """A small CPU tile: cells labelled with offsets, each with a <title> saying index, offset and tile."""
    info = L.parse_encoding_info("{innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}")
    relayout = L.encoding_relayout(info, (10, 3))
    dims = encoding_dims(info, 2, relayout.physical_shape)
    svg = layout_pictures.picture_svg(element_map(relayout, dims), "lhs", 8)
    assert 'data-mode="cells"' in svg
    grid = relayout.index_grid()
    # (9, 2): tile (1, 2) of the 2x3 tiles of 8x1, row 1 within it.
    assert grid[9, 2] == (1 * 3 + 2) * 8 + 1
    title = re.search(r'data-cell="9,2"><title>([^<]*)</title>', svg).group(1)
    assert title == f"[9, 2]: offset {grid[9, 2]}; tile [1, 2]; in tile [1, 0]"
    assert f">{grid[9, 2]}</text>" in svg
    assert re.search(r'class="pad" data-cell="15,0"><title>padding \[15, 0\]', svg)


def test_xla_picture_answers():
    shape = L.parse_shape("f32[3,5]{1,0:T(2,2)}")
    relayout = L.xla_relayout(shape)
    from mini_iree.compiler.layout.element_map import xla_dims

    emap = element_map(relayout, xla_dims(shape, relayout.physical_shape))
    data = _data(layout_pictures.picture_svg(emap, str(shape), 4))
    offset, tile, inner = _answer(data, (2, 3))
    assert offset == 17 and tile == [1, 1] and [v for _, v in inner] == [0, 1]  # the document's Figure 1


@pytest.mark.parametrize("text", ["f32[]", "f32[5]{0:T(2)}", "f32[3,5]{0,1:T(*,2)}", "f32[2,3,5]{2,1,0:T(2,2)}"])
def test_any_rank_and_mixed_dims_answer(text):
    """Rank 0 and 1, a `*` tile that mixes two dims (whole-grid tables), a rank-3 XLA shape: lookups give the
    algebra's offsets everywhere."""
    from mini_iree.compiler.layout.element_map import xla_dims

    shape = L.parse_shape(text)
    relayout = L.xla_relayout(shape)
    emap = element_map(relayout, xla_dims(shape, relayout.physical_shape))
    data = _data(layout_pictures.picture_svg(emap, text, 4))
    grid = relayout.index_grid()
    for index in np.ndindex(*grid.shape):
        assert _answer(data, index)[0] == grid[index]


def test_command_line_draws_the_same_layout(tmp_path):
    """A card gives the mini-iree-layout command that draws its picture; the command works."""
    import shlex

    from mini_iree.compiler.tools.layout_main import main as layout_main

    cards = _cards("data-tiling-dispatch-creation{target=x86_64:+avx512f}", dynamic_size=5)
    command = _card(cards, 0).views[0].command
    assert command.startswith("mini-iree-layout draw --encoding-info")
    args = shlex.split(command)[1:]
    args[args.index("-o") + 1] = str(tmp_path / "layout.svg")
    assert layout_main(args) == 0
    svg = (tmp_path / "layout.svg").read_text()
    # Each cell says which element it is and its offset.
    assert re.search(r"<title>\[0, 0, 0\]: offset 0</title>", svg)


def test_factoring_is_checked():
    values = np.arange(12).reshape(3, 4)
    assert additive_terms(values) is not None
    assert factor_by_axis(np.broadcast_to(np.arange(4), (3, 4))) == 1
    mixed = np.array([[0, 1], [1, 0]])
    assert additive_terms(mixed) is None and factor_by_axis(mixed) is None


# -- the XLA form, one tile per line ------------------------------------------------------------------------


def test_xla_tiles_listed_one_per_line():
    info = L.parse_encoding_info(GFX942_LHS)
    layout = L.iree_to_xla_layout(info, 2)
    lines = describe_tiles((None, None), layout)
    assert len(lines) == len(layout.tiles) == 9
    assert lines[0].startswith("T(128,16): tiles of 128x16") and lines[0].endswith("?x?x128x16")
    # The last tile leaves the inner tile as the swizzle stores it: 8x4x4x4x4 (permutation [1, 4, 0, 2, 3]).
    assert lines[-1].endswith("tile 8x4x4x4x4")


def test_card_html_has_info_boxes_and_tiles(gfx942_cards):
    card = _card(gfx942_cards, 0)
    html = card_html(card, {s: f"{s}. pass" for s in card.stages})
    # Two figures (packed, swizzled), the swizzled colour ramp with its labelled corner (one info box for both).
    assert html.count('class="cell-info"') == html.count("<figure") == 2 and len(_svgs(html)) == 3
    assert 'class="xla-tiles"' in html
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert all(i.startswith(card.anchor) for i in ids) and len(ids) == len(set(ids))


def test_ramp_png_holds_one_pixel_per_cell():
    """The colour ramp's PNG decodes to the grid: one palette index per cell, padding in the pale half."""
    import base64
    import struct
    import zlib

    info = L.parse_encoding_info(GFX942_LHS)
    relayout = L.encoding_relayout(info, (20, 16))
    emap = element_map(relayout, encoding_dims(info, 2, relayout.physical_shape))
    svg = layout_pictures.picture_svg(emap, "lhs", 128 * 16)
    assert 'data-mode="ramp"' in svg
    png = base64.b64decode(re.search(r'href="data:image/png;base64,([^"]+)"', svg).group(1))
    width, height = struct.unpack(">II", png[16:24])
    assert (height, width) == (128, 16)
    start = png.index(b"IDAT") + 4
    length = struct.unpack(">I", png[start - 8 : start - 4])[0]
    pixels = np.frombuffer(zlib.decompress(png[start : start + length]), np.uint8).reshape(height, width + 1)[:, 1:]
    steps = layout_pictures.RAMP_STEPS
    # Elements take the first 2 * steps colours, padding the rest; the hue is the offset within the tile.
    np.testing.assert_array_equal(pixels < 2 * steps, emap.inside)
    np.testing.assert_array_equal(pixels % steps, (steps * (emap.offsets % 2048)) // 2048)


# -- the CuTe form beside the XLA form ----------------------------------------------------------------------


def test_card_shows_the_cute_form_of_its_xla_form(gfx942_cards):
    from mini_iree.compiler.layout.cute import parse_cute

    card = _card(gfx942_cards, 0)
    html = unescape(card_html(card, {s: f"{s}. pass" for s in card.stages}))
    xla_text = re.search(r'<code class="xla-form">([^<]+)</code>', html).group(1)
    match = re.search(r'<code class="cute-form">([^<]+)</code> <span class="meta">on ([\dx]+) ', html)
    assert match, "the card has an XLA form, so it shows its CuTe form"
    cute, sample = parse_cute(match.group(1)), tuple(int(d) for d in match.group(2).split("x"))
    # The CuTe layout puts every element of the sample shape where the XLA form does.
    dims = re.match(r"(\w+)\[[^\]]*\](.*)", xla_text)
    xla = L.parse_shape(f"{dims.group(1)}[{','.join(map(str, sample))}]{dims.group(2)}")
    np.testing.assert_array_equal(cute.coordinate_grid(), L.xla_relayout(xla).index_grid())


def test_card_without_a_cute_form_shows_none():
    from mini_iree.compiler.walkthrough.cards import _cute_form

    # 10 rows in tiles of 8: the padding has no CuTe form, so the card shows no CuTe line.
    assert _cute_form("f32[10,7]{1,0:T(8,1)}") is None
    assert _cute_form("f32[16,7]{1,0:T(8,1)}") == ("((8,2),7):((1,56),8)", "")
