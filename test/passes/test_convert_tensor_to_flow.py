"""iree-dispatch-creation-convert-tensor-to-flow: host reshapes become flow.tensor.reshape, results kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-convert-tensor-to-flow"

# A dynamic collapse and the expand back (its size read off the source), and a
# static collapse of two groups: each is a flow.tensor.reshape afterwards.
PROGRAM = """
func.func @reshapes(%a: tensor<?x4xf32>) -> (tensor<?xf32>, tensor<?x4xf32>, tensor<6x20xf32>) {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x4xf32>
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %back = tensor.expand_shape %flat [[0, 1]] output_shape [%rows, 4] : tensor<?xf32> into tensor<?x4xf32>
  %s = arith.constant dense<1.500000e+00> : tensor<2x3x4x5xf32>
  %g = tensor.collapse_shape %s [[0, 1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<6x20xf32>
  return %flat, %back, %g : tensor<?xf32>, tensor<?x4xf32>, tensor<6x20xf32>
}
"""


@pytest.mark.parametrize("size", [1, 4])
def test_reshapes_keep_results(tmp_path: Path, size: int):
    source = tmp_path / "reshapes.mlir"
    source.write_text(PROGRAM)
    result = run_opt(
        [str(source), "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("flow.tensor.reshape") == 3
    assert "tensor.collapse_shape" not in result.stdout and "tensor.expand_shape" not in result.stdout
