"""Pictures: the SVG's labels are the linear indices, padding is marked."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np

from mini_iree.compiler import layout as L
from mini_iree.compiler.layout import drawing

SVG = "{http://www.w3.org/2000/svg}"


def _cells(svg: str):
    root = ET.fromstring(svg)
    cells = []
    for group in root.iter(f"{SVG}g"):
        rect = group.find(f"{SVG}rect")
        text = group.find(f"{SVG}text")
        cells.append((group.get("class"), float(rect.get("x")), float(rect.get("y")), text.text, rect.get("fill")))
    return root, cells


def _grid(cells, kind):
    chosen = [c for c in cells if c[0] == kind]
    xs = sorted({c[1] for c in chosen})
    ys = sorted({c[2] for c in chosen})
    grid = np.full((len(ys), len(xs)), -1)
    for _, x, y, label, _ in chosen:
        grid[ys.index(y), xs.index(x)] = int(label)
    return grid


def test_figure_1_labels_and_padding():
    shape = L.parse_shape("f32[3,5]{1,0:T(2,2)}")
    picture = drawing.layout_picture(L.xla_relayout(shape), str(shape), 4)
    root, cells = _cells(drawing.to_svg(picture))
    assert root.find(f"{SVG}title").text == "f32[3,5]{1,0:T(2,2)}"
    # The 3x5 elements carry the document's formula: tile (r//2, c//2) in a 2x3 grid, then (r%2, c%2).
    rows, cols = np.indices((3, 5))
    expected = ((rows // 2) * 3 + cols // 2) * 4 + (rows % 2) * 2 + cols % 2
    np.testing.assert_array_equal(_grid(cells, "element"), expected)
    # Padding completes the 4x6 tiles: 24 - 15 cells, labelled with the offsets left over.
    padding = sorted(int(c[3]) for c in cells if c[0] == "padding")
    assert padding == sorted(set(range(24)) - set(expected.ravel().tolist()))
    # One colour per tile.
    colours = {}
    for kind, x, y, label, fill in cells:
        if kind == "element":
            colours.setdefault(int(label) // 4, set()).add(fill)
    assert all(len(c) == 1 for c in colours.values()) and len(colours) == 6


def test_figure_2_labels():
    shape = L.parse_shape("bf16[4,8]{1,0:T(2,4)(2,1)}")
    svg = drawing.to_svg(drawing.layout_picture(L.xla_relayout(shape), str(shape), 8))
    _, cells = _cells(svg)
    rows, cols = np.indices((4, 8))
    expected = ((rows // 2) * 2 + cols // 4) * 8 + (cols % 4) * 2 + rows % 2
    np.testing.assert_array_equal(_grid(cells, "element"), expected)
    assert not any(c[0] == "padding" for c in cells)
    assert re.search(r"<title>bf16\[4,8\]\{1,0:T\(2,4\)\(2,1\)\}</title>", svg)


def test_png(tmp_path):
    shape = L.parse_shape("f32[3,5]{1,0:T(2,2)}")
    out = tmp_path / "figure.png"
    drawing.save_png(drawing.layout_picture(L.xla_relayout(shape), str(shape), 4), str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
