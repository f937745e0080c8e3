"""Layout pictures of the walkthrough page in headless Chromium: a hover or a click on a cell says where it sits.

Pages of a batch matmul (tensor<4x?x32xf32> times tensor<4x32x?xf32>, every ?
at 14) are made for gfx942 (swizzled tiles, drawn as colour ramps) and for
x86_64 AVX-512 (small tiles, one labelled cell each). The info box's answers
are checked against the layout algebra run here on the card's own
``encoding_info``.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
from pathlib import Path

import pytest
from cdp import browser, needs_chromium  # noqa: F401 - `browser` is a fixture of this module
from conftest import REPO

from mini_iree.compiler import layout as L
from mini_iree.compiler.tools.walkthrough_main import main as walkthrough_main

MAX_PAGE_BYTES = 3_000_000
DYNAMIC = 14
# linalg.batch_matmul with a dynamic M and N: the LHS is tensor<4x?x32xf32>, the result tensor<4x?x?xf32>.
BATCH_MATMUL = (REPO / "test" / "e2e" / "Inputs" / "batch_matmul_static_k.mlir").read_text()
LHS = "tensor<4x?x32xf32, #iree_encoding.encoding"


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("layouts")
    program = d / "batch_matmul.mlir"
    program.write_text(BATCH_MATMUL)
    out = {}
    for name, pipeline in (("gfx942", "data-tiling{target=gfx942}"), ("cpu", "data-tiling{target=x86_64:+avx512f}")):
        out[name] = d / f"{name}.html"
        walkthrough_main([str(program), "--pipeline", pipeline, "--dynamic-size", str(DYNAMIC), "--timing-size", "16",
                          "-o", str(out[name])])  # fmt: skip
        assert out[name].exists()
    return out



def _card(page, tensor: str) -> str:
    """The id of the card whose tensor type starts with ``tensor``."""
    return page.eval(
        "[].slice.call(document.querySelectorAll('article.encoding')).filter(function(a){"
        f"return a.querySelector('h3').textContent.indexOf({tensor!r})===0;}})[0].id"
    )


def _lhs_card(page) -> str:
    return _card(page, LHS)


def _relayout(page, figure: str, swizzled: bool):
    """The layout algebra on the card's own encoding_info and the drawn tensor's sizes."""
    text = page.eval(f"document.querySelector('{figure}').closest('div.view').querySelector('p.xla').textContent")
    info = L.parse_encoding_info(html.unescape(text).removeprefix("encoding_info = "))
    if not swizzled and info.swizzle is not None:
        info = dataclasses.replace(info, swizzle=None)
    shape = page.eval(f"document.querySelector('{figure}').getAttribute('data-cells')")
    return info, L.encoding_relayout(info, tuple(json.loads(shape)["size"]))


def _info(page, svg: str) -> dict:
    return page.eval(
        f"(function(){{var b=document.querySelector('{svg}').closest('figure').querySelector('.cell-info');"
        "var a=function(n){return b.getAttribute(n);},dims=[].slice.call(b.querySelectorAll('.swizzle-dim'));"
        "return {index:a('data-index'),offset:a('data-offset'),tile:a('data-tile'),inTile:a('data-in-tile'),"
        "padding:a('data-padding'),text:b.textContent,"
        "kinds:dims.map(function(s){return s.getAttribute('data-kind');}),"
        "values:dims.map(function(s){return +s.getAttribute('data-value');})};})()"
    )


def _cell_point(page, svg: str, index: tuple[int, int, int]) -> tuple[float, float]:
    """Where one cell of a colour-ramp picture is on the screen: in its slice's image, the cell's centre."""
    batch, row, col = index
    rect = page.eval(
        f"(function(){{var s=document.querySelector('{svg}');s.scrollIntoView({{block:'center'}});"
        f"var i=s.querySelector('g.slice[data-slice=\"{batch}\"] image').getBoundingClientRect();"
        "var g=s.getAttribute('data-grid').split(',').map(Number);"
        "return [i.left,i.top,i.width,i.height,g[1],g[2]];})()"
    )
    left, top, width, height, rows, cols = rect
    return left + (col + 0.5) * width / cols, top + (row + 0.5) * height / rows


def _move_to_cell(page, svg: str, index: tuple[int, int, int]) -> None:
    page._mouse("mouseMoved", *_cell_point(page, svg, index))


@needs_chromium
def test_hover_on_a_swizzled_tile(pages, browser):
    """gfx942: the LHS's swizzled picture is a colour ramp; a hover on element [1, 9, 20] names its swizzle dims."""
    page = browser.open(pages["gfx942"])
    assert page.eval("document.documentElement.getAttribute('data-errors')") == "0"
    card = _lhs_card(page)
    svg = f"#{card}-v0-1"  # the second picture: after the swizzle
    assert page.eval(f"document.querySelector('{svg}').getAttribute('data-mode')") == "ramp"
    _move_to_cell(page, svg, (1, 9, 20))
    got = _info(page, svg)
    info, relayout = _relayout(page, svg, swizzled=True)
    assert got["index"] == "1,9,20" and got["padding"] == "0"
    assert int(got["offset"]) == relayout.index_grid()[1, 9, 20]
    # The tile: batch 1, row tile 0, column tile 1 (of 16); within it, row 9 = 0*32 + 2*4 + 1 (CrossThread 4,
    # CrossIntrinsic 8, CrossThread 4) and column 4 = 1*4 + 0 (CrossIntrinsic 4, CrossThread 4), in the
    # swizzle's memory order [1, 4, 0, 2, 3].
    assert got["tile"] == "1,0,1"
    assert got["kinds"] == ["CrossIntrinsic", "CrossThread", "CrossThread", "CrossThread", "CrossIntrinsic"]
    assert got["values"] == [2, 0, 0, 1, 1]
    assert [e.kind.value for g in info.swizzle.expand_shape for e in g] == [
        "CrossThread", "CrossIntrinsic", "CrossThread", "CrossIntrinsic", "CrossThread"]  # fmt: skip
    assert page.eval(f"document.querySelector('{svg} rect.cursor').getAttribute('visibility')") == "visible"


@needs_chromium
def test_click_pins_a_padding_cell(pages, browser):
    """A click pins the cell: moving on does not change the box. Padding cells answer with their offset."""
    page = browser.open(pages["gfx942"])
    card = _lhs_card(page)
    svg = f"#{card}-v0-0"  # after linalg.pack
    _, relayout = _relayout(page, svg, swizzled=False)
    x, y = _cell_point(page, svg, (3, 100, 31))
    page._mouse("mouseMoved", x, y)
    page._mouse("mousePressed", x, y, button="left", buttons=1, clickCount=1)
    page._mouse("mouseReleased", x, y, button="left", buttons=0, clickCount=1)
    _move_to_cell(page, svg, (0, 0, 0))
    got = _info(page, svg)
    assert got["index"] == "3,100,31" and got["padding"] == "1" and "padding" in got["text"]
    offset = int(got["offset"])
    _, inside = relayout.delinearize(offset)
    assert not inside
    # Packed 4x1x2x128x16: tile (3, 0, 1), row 100 and column 15 within it.
    assert offset == ((3 * 1 + 0) * 2 + 1) * 128 * 16 + 100 * 16 + 15
    assert got["tile"] == "3,0,1" and got["inTile"] == "100,15"
    # The arrow keys move the pinned cell: one row up, one column left.
    page.key("ArrowUp")
    for kind in ("keyDown", "keyUp"):  # (cdp.Page.key names no ArrowLeft)
        page.send("Input.dispatchKeyEvent", {"type": kind, "key": "ArrowLeft", "code": "ArrowLeft",
                                             "windowsVirtualKeyCode": 37})  # fmt: skip
    got = _info(page, svg)
    assert got["index"] == "3,99,30" and int(got["offset"]) == ((3 * 1 + 0) * 2 + 1) * 128 * 16 + 99 * 16 + 14


@needs_chromium
@pytest.mark.parametrize("tensor", [LHS, "tensor<4x?x?xf32, #iree_encoding.encoding"])
def test_hover_on_a_drawn_cell(pages, browser, tensor):
    """x86_64 AVX-512: small tiles, every cell drawn (labelled with its offset where it fits); a hover names its
    index, offset and tile."""
    page = browser.open(pages["cpu"])
    assert page.eval("document.documentElement.getAttribute('data-errors')") == "0"
    card = _card(page, tensor)
    svg = f"#{card}-v0-0"
    assert page.eval(f"document.querySelector('{svg}').getAttribute('data-mode')") == "cells"
    index = (2, 11, 7)
    page.hover(f'{svg} rect[data-cell="{",".join(map(str, index))}"]')
    got = _info(page, svg)
    info, relayout = _relayout(page, svg, swizzled=False)
    offset = int(relayout.index_grid()[index])
    assert got["index"] == "2,11,7" and got["padding"] == "0" and int(got["offset"]) == offset
    tiles = dict(zip(info.inner_dims_pos, L.inner_tiles(info)))
    assert got["tile"] == ",".join(str(i // tiles.get(d, 1)) for d, i in enumerate(index))
    assert got["inTile"] == ",".join(str(index[d] % t) for d, t in tiles.items())
    labelled = page.eval(f"document.querySelectorAll('{svg} text:not(.slice-label)').length")
    if tensor != LHS:  # 4x16x16 cells at 18 px: each shows its offset
        assert labelled == 4 * 16 * 16
        assert page.eval(f"document.querySelector('{svg}').innerHTML").count(f">{offset}</text>") == 1


def test_pages_stay_small(pages):
    for path in pages.values():
        text = path.read_text()
        assert len(text.encode()) < MAX_PAGE_BYTES
        assert re.search(r'<svg class="layout"[^>]*data-cells=', text)
