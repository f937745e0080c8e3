"""iree-preprocessing-attr-based-pipeline: the named pipeline runs on its function, and results do not change."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from conftest import run_opt

PASS = "iree-preprocessing-attr-based-pipeline"
LIT_CASES = Path(__file__).parent / "attr_based_pipeline.mlir"

# A reduction and its broadcasting consumer, preprocessed by two passes; a second
# function without the attribute computes the same thing untouched.
PROGRAM = """
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
util.func public @normalize(%a: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {
    preprocessing_pipeline = #util.preprocessing_pipeline<"iree-dispatch-creation-form-dispatch-regions{aggressive-fusion=true},iree-dispatch-creation-convert-dispatch-regions-to-workgroups">} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %4 = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %2 : tensor<4x8xf32>, tensor<4xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %d = arith.divf %x, %r : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  util.return %4 : tensor<4x8xf32>
}
util.func public @untouched(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.mulf %x, %x : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  util.return %1 : tensor<4x8xf32>
}
"""


def _opt(path: Path, *args: str) -> str:
    result = run_opt([str(path), *args])
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_lit_cases_keep_results():
    """Every case of the FileCheck test runs the same before and after the pass."""
    _opt(LIT_CASES, "-p", PASS, "--split-input-file", "--verify-each-with-interpreter", "--interpreter-dynamic-size=3")


def test_preprocessed_function_computes_the_same(tmp_path):
    from mini_iree.compiler.interpreter import run

    source = tmp_path / "p.mlir"
    source.write_text(PROGRAM)
    after = _opt(source, "-p", PASS)
    normalize = after[after.index("@normalize(") : after.index("@untouched(")]
    assert "flow.dispatch.workgroups" in normalize
    assert "flow.dispatch" not in after[after.index("@untouched(") :]
    a = np.random.default_rng(0).uniform(1.0, 2.0, (4, 8)).astype(np.float32)
    for text in (PROGRAM, after):
        np.testing.assert_allclose(run(text, "normalize", a)[0], a / a.sum(axis=1, keepdims=True), rtol=1e-6)
        np.testing.assert_allclose(run(text, "untouched", a)[0], a * a, rtol=1e-6)
