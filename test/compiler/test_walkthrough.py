"""The pieces of `mini-iree-walkthrough`: colouring, diffs, sample shapes, encoding cards, excerpts, the CLI."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from conftest import REPO

from mini_iree.compiler.walkthrough.encodings import build_card, encoded_tensor_types, sample_shape
from mini_iree.compiler.walkthrough.excerpts import ExcerptError, refresh
from mini_iree.compiler.walkthrough.highlight import highlight_line
from mini_iree.compiler.walkthrough.stages import pipeline_of, run_walkthrough
from mini_iree.compiler.walkthrough.textdiff import changed_lines, unified
from mini_iree.compiler.tools.walkthrough_main import main

XLA_PROGRAM = """\
// walkthrough-pipeline: canonicalize
func.func @f(%a: tensor<3x5xf32, #xla.layout<"{1,0:T(2,2)}">>) -> tensor<3x5xf32, #xla.layout<"{1,0:T(2,2)}">> {
  return %a : tensor<3x5xf32, #xla.layout<"{1,0:T(2,2)}">>
}
"""


def test_highlight_escapes_and_colours():
    line = '%0 = arith.constant dense<1.0> : tensor<2xf32, #enc> // "<x>"'
    out = highlight_line(line)
    assert '<span class="v">%0</span>' in out and '<span class="o">arith.constant</span>' in out
    assert '<span class="a">#enc</span>' in out and '<span class="c">' in out
    assert "<x>" not in out and html.unescape(out.replace("</span>", "").split(">", 1)[1]) != ""


def test_diff_marks_changed_lines():
    before, after = "a\nb\nc\n", "a\nB\nc\nd\n"
    assert changed_lines(before, after) == {1, 3}
    kinds = [d.kind for d in unified(before, after)]
    assert kinds[0] == "@" and kinds.count("+") == 2 and kinds.count("-") == 1
    assert unified(before, before) == []


def test_sample_shape_shows_padding_and_fits():
    assert sample_shape([None, None], {0: 8, 1: 1}) == (12, 3)  # a partial tile past a whole one
    assert sample_shape([4, 3], {}) == (4, 3)  # small static shapes as they are
    shape = sample_shape([None, None], {0: 128, 1: 16})
    assert shape is not None and -(-shape[0] // 128) * 128 * -(-shape[1] // 16) * 16 <= 4096
    assert sample_shape([None, None], {0: 128, 1: 128}) is None  # one tile alone is too many cells


def test_xla_layout_card_draws_figure_1(tmp_path: Path):
    program = tmp_path / "xla.mlir"
    program.write_text(XLA_PROGRAM)
    assert pipeline_of(XLA_PROGRAM) == "canonicalize"
    walk = run_walkthrough(str(program), check=False)
    [tensor] = encoded_tensor_types(walk.stages[0].module)
    card = build_card(tensor, [], "enc-0", "", str(tensor))
    [view] = card.views
    assert card.kind == "xla" and view.xla == "f32[3,5]{1,0:T(2,2)}"
    [(caption, svg)] = view.pictures
    # The seed's Figure 1: element (2,3) is at 17, padding cells dashed.
    assert ">17</text>" in svg and 'class="pad"' in svg


def test_unresolved_encoding_resolved_per_target():
    walk = run_walkthrough(str(REPO / "examples" / "matmul.mlir"), "data-tiling-dispatch-creation{target=gfx942}",
                           check=False)  # fmt: skip
    tensors = encoded_tensor_types(walk.stages[-1].module)
    assert len(tensors) == 3
    lhs = next(t for t in tensors if "operand_index = 0" in str(t))
    card = build_card(lhs, walk.targets, "enc-0", "", str(lhs))
    [view] = card.views
    assert view.label == "resolved on gfx942" and "swizzle" in view.info_text
    assert view.xla.startswith("f32[?,?]{1,0:T(128,16)")
    assert len(view.pictures) == 2  # packed, then swizzled
    assert any("expand_shape" in op for op in view.ops) and any("transpose" in op for op in view.ops)


def test_excerpt_errors(tmp_path: Path):
    (tmp_path / "p.mlir").write_text(XLA_PROGRAM)
    with pytest.raises(ExcerptError, match="no stage"):
        refresh("<!-- walkthrough-ir: p.mlir after=cse -->\n", str(tmp_path))
    text = refresh('<!-- walkthrough-ir: p.mlir after=canonicalize from="return" lines=1 -->\n```mlir\nold\n```\n',
                   str(tmp_path))  # fmt: skip
    assert text.endswith("```mlir\n    return %a : tensor<3x5xf32, #xla.layout<\"{1,0:T(2,2)}\">>\n```\n")


def test_cli(tmp_path: Path, capsys):
    program = tmp_path / "xla.mlir"
    program.write_text(XLA_PROGRAM)
    out = tmp_path / "page.html"
    assert main([str(program), "-o", str(out)]) == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and 'data-pass="canonicalize"' in page and "<svg" in page
    assert main([str(tmp_path / "missing.mlir"), "-o", str(out)]) == 1
    assert "could not open input file" in capsys.readouterr().err
    assert main([str(program), "-p", "no-such-pass", "-o", str(out)]) == 1
    assert "'no-such-pass' does not refer to a registered pass" in capsys.readouterr().err
    assert main([str(program), str(program), "-o", str(out)]) == 1
    assert "--output-dir" in capsys.readouterr().err
