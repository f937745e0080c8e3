"""iree-dispatch-creation-collapse-dimensions: every FileCheck case computes the same before and after."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-collapse-dimensions"
LIT_CASES = Path(__file__).parent / "collapse_dimensions.mlir"


def _executable_cases() -> str:
    """The lit file's cases, less the one on memrefs (the interpreter makes no random memref arguments)."""
    cases = LIT_CASES.read_text().split("// -----")
    kept = [case for case in cases if "memref<" not in case]
    assert len(kept) == len(cases) - 1
    return "// -----".join(kept)


@pytest.mark.parametrize("size", [1, 3])
def test_lit_cases_keep_results(tmp_path: Path, size: int):
    source = tmp_path / "cases.mlir"
    source.write_text(_executable_cases())
    result = run_opt(
        [
            str(source),
            "-p",
            PASS,
            "--split-input-file",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("tensor.collapse_shape") >= 6


def test_after_forming_dispatches(tmp_path: Path):
    """As in IREE's pipeline: form dispatches, clone producers in, then collapse (results kept)."""
    source = tmp_path / "chain.mlir"
    source.write_text(
        """#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @chain(%a: tensor<?x3x4xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x3x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty(%d) : tensor<?x3x4xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<?x3x4xf32>) outs(%e : tensor<?x3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<?x3x4xf32>
  %e2 = tensor.empty(%d) : tensor<?x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x3xf32>) -> tensor<?x3xf32>
  %sum = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<?x3x4xf32>) outs(%f : tensor<?x3xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x3xf32>
  return %sum : tensor<?x3xf32>
}
"""
    )
    pipeline = (
        "iree-dispatch-creation-form-dispatch-regions{aggressive-fusion=true},"
        "iree-dispatch-creation-clone-producers-into-dispatch-regions{aggressive=true}," + PASS
    )
    for size in (1, 5):
        result = run_opt(
            [str(source), "-p", pipeline, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"]
        )
        assert result.returncode == 0, result.stderr
    # The two parallel loops collapse in the elementwise producer and the reduction alike.
    assert "iterator_types = [\"parallel\", \"reduction\"]" in result.stdout
