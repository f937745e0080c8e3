"""convert-dispatch-regions-to-workgroups keeps results: the lit cases and a tied, in-place dispatch.

The interpreter runs ``flow.dispatch.workgroups`` by binding its operands as
dispatch tensors and running the body once; a result tied to an operand is
written through that operand's (copied) binding.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-convert-dispatch-regions-to-workgroups"
LIT = Path(__file__).parent / "convert_dispatch_regions_to_workgroups.mlir"

TIED = """
util.func public @tied(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = flow.dispatch.region -> (tensor<4xf32>) {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %in, %out : f32
      linalg.yield %1 : f32
    } -> tensor<4xf32>
    flow.return %0 : tensor<4xf32>
  }
  util.return %r, %b : tensor<4xf32>, tensor<4xf32>
}
"""


@pytest.mark.parametrize("size", [0, 1, 7])
def test_lit_cases_keep_results(size: int):
    result = run_opt(
        [str(LIT), "--split-input-file", "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"]
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results") == 5


def test_tied_result_does_not_change_its_operand(tmp_path):
    from mini_iree.compiler.interpreter import run

    source = tmp_path / "tied.mlir"
    source.write_text(TIED)
    result = run_opt([str(source), "-p", PASS])
    assert result.returncode == 0, result.stderr
    assert "-> %" in result.stdout and "readwrite" in result.stdout
    a = np.arange(4, dtype=np.float32)
    b = np.full(4, 10, dtype=np.float32)
    summed, unchanged = run(result.stdout, "tied", a, b)
    np.testing.assert_array_equal(summed, a + b)
    # SSA values never change: the in-place update works on a copy of %b.
    np.testing.assert_array_equal(unchanged, b)
