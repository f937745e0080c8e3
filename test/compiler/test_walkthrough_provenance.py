"""Provenance on the walkthrough page: the input positions of every printed line, and the rewrites of each pass."""

from __future__ import annotations

import re

import pytest
from conftest import REPO
from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
)

from mini_iree.compiler.ir import selective_walker
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
from mini_iree.compiler.walkthrough import provenance
from mini_iree.compiler.walkthrough.origins import location_positions
from mini_iree.compiler.walkthrough.stages import run_walkthrough

MATMUL = REPO / "examples" / "matmul.mlir"


@pytest.fixture(scope="module")
def walk():
    return run_walkthrough(str(MATMUL), "data-tiling{target=gfx942}", dynamic_size=5)


def _stage(walk, flag):
    return next(s for s in walk.stages if s.flag == flag)


def _lines_with(stage, text):
    return [(line, origin) for line, origin in zip(stage.text.splitlines(), stage.line_origins) if text in line]


def test_line_origins_cover_every_line_and_text_is_the_drivers(walk):
    driver = MiniIREEOptMain(args=[str(MATMUL), "-p", walk.pipeline])
    for stage in walk.stages:
        assert len(stage.line_origins) == len(stage.text.splitlines()), stage.flag
    # The text printed with origins is the one mini-iree-opt prints.
    for stage in (walk.stages[0], _stage(walk, "iree-codegen-materialize-device-encoding"), walk.stages[-1]):
        assert driver.print_module(stage.module) == stage.text


def test_input_lines_are_their_own_positions(walk):
    source = MATMUL.read_text().splitlines()
    matmul_line = next(i for i, line in enumerate(source, 1) if "linalg.matmul" in line)
    ((_, origin),) = _lines_with(walk.stages[0], "linalg.matmul")
    assert origin.startswith(f"{matmul_line}:") and " " not in origin
    ((_, func_origin),) = _lines_with(walk.stages[0], "func.func @matmul_f32f32f32")
    assert func_origin.startswith(f"{next(i for i, l in enumerate(source, 1) if 'func.func' in l)}:")
    # Closing braces and alias definitions are no op's first line.
    for line, origin in zip(walk.stages[0].text.splitlines(), walk.stages[0].line_origins):
        if line.strip() in ("}", "") or line.startswith("#"):
            assert origin == ""


def test_packs_after_materialization_come_from_the_matmul(walk):
    ((_, matmul),) = _lines_with(walk.stages[0], "linalg.matmul")
    stage = _stage(walk, "iree-codegen-materialize-device-encoding")
    packs = _lines_with(stage, "linalg.pack")
    assert len(packs) == 2
    for line, origin in packs:
        assert matmul in origin.split(), line
    (inner,) = _lines_with(stage, "iree_codegen.inner_tiled")
    assert matmul in inner[1].split()
    # Every op line of the final IR has a position.
    final = walk.stages[-1]
    op_lines = [o for line, o in zip(final.text.splitlines(), final.line_origins) if re.match(r"\s*%[\w:]+ = ", line)]
    assert op_lines and all(op_lines)


def test_location_positions_unwraps_fused_name_and_callsite_locations():
    def at(line, col):
        return FileLineColLoc(StringAttr("f.mlir"), IntAttr(line), IntAttr(col))

    fused = FusedLoc(ArrayAttr([at(3, 5), NameLoc(StringAttr("x"), at(7, 1)), at(3, 5)]), NoneAttr())
    assert location_positions(fused) == "3:5 7:1"
    assert location_positions(CallSiteLoc(at(9, 2), at(1, 1))) == "9:2 1:1"


def test_rewrites_are_recorded_per_pass(walk):
    set_encoding = _stage(walk, "iree-dispatch-creation-set-encoding")
    assert set_encoding.rewrites == {"SetDataTilingEncodings": 1, "FoldFillWithSetEncoding": 1}
    assert set_encoding.pattern_walks == 1 and "SetDataTilingEncodings" in set_encoding.patterns
    materialize = _stage(walk, "iree-codegen-materialize-device-encoding")
    assert materialize.rewrites["SetEncodingOpLoweringConversion"] == 2
    assert materialize.rewrites["MaterializeContractionOp"] == 1
    # A pattern that edits the IR itself (not through the rewriter) is counted too; on gfx942 the
    # relayouts are combined by the GPU variant (run on the rocm executables by for-target-backends).
    gpu_combine = next(s for s in walk.stages if "iree-codegen-gpu-combine-layout-transformation" in s.spec)
    assert gpu_combine.rewrites == {"FoldRelayoutChainIntoMapScatterPattern": 3}
    assert _stage(walk, "iree-codegen-combine-layout-transformation").rewrites == {}
    no_patterns = _stage(walk, "iree-flow-outline-dispatch-regions")
    assert no_patterns.pattern_walks == 0 and no_patterns.rewrites == {}
    assert selective_walker.pattern_recorder is None  # off outside the run


def test_ops_know_the_pattern_that_made_them(walk):
    def makers(stage, text):
        lines = stage.text.splitlines()
        return {name for line, name in stage.made_by.items() if text in lines[line]}

    assert makers(_stage(walk, "iree-dispatch-creation-set-encoding"), "iree_encoding.set_encoding") == {
        "SetDataTilingEncodings"
    }
    materialize = _stage(walk, "iree-codegen-materialize-device-encoding")
    # Built by the pattern's own builder (not through the rewriter): found as the new ops of the block.
    assert makers(materialize, "linalg.pack") == {"SetEncodingOpLoweringConversion"}
    assert makers(materialize, "iree_codegen.inner_tiled") == {"MaterializeContractionOp"}
    html = provenance.render_stage(walk, materialize)
    assert "SetEncodingOpLoweringConversion" in html and "data-made=" in html
    # Ops the pass kept are no pattern's.
    assert not makers(materialize, "func.func")


def test_canonicalize_counts_its_per_op_patterns_and_folds():
    program = """\
func.func @f(%a: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %unused = arith.addi %a, %c1 : index
  %0 = arith.addi %a, %c0 : index
  return %0 : index
}
"""
    walk = run_walkthrough("f.mlir", "canonicalize", source=program, check=False)
    (stage,) = walk.stages[1:]
    assert stage.pattern_walks == 1 and sum(stage.rewrites.values()) >= 2, stage.rewrites
    assert set(stage.rewrites) <= set(stage.patterns) | {"(op folded)", "(trivially dead op erased)"}


def test_render_stage_names_the_patterns(walk):
    html = provenance.render_stage(walk, _stage(walk, "iree-dispatch-creation-set-encoding"))
    assert 'data-pattern="SetDataTilingEncodings"' in html and "×1" in html
    outline = _stage(walk, "iree-flow-outline-dispatch-regions")
    assert "uses no rewrite patterns" in provenance.render_stage(walk, outline)
    assert 'class="prov-status"' in provenance.render_stage(walk, walk.stages[0])
    from mini_iree.compiler.walkthrough.page import render_page

    page = render_page(walk)
    assert provenance.CSS in page and provenance.SCRIPT in page
