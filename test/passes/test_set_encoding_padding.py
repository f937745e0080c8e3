"""set-encoding{encoding-option=padding} keeps every program's results.

Each program runs through the pass with ``--verify-each-with-interpreter``: the
interpreter executes the public functions before and after on the same random
inputs and fails if a result changes. Each program must come out padded (or,
for the ones that must not be, unpadded) so the check covers the rewrite.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, run_opt

PADDING = "iree-dispatch-creation-set-encoding{encoding-option=padding}"
PAD_ENCODING = "#iree_encoding.padding<[0, ?]>"

PROGRAMS: dict[str, str] = {
    # The LHS of the second matmul is the first dispatch's result.
    "chain": """
func.func @chain(%x: tensor<?x24xf32>, %w0: tensor<24x72xf32>, %w1: tensor<72x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x24xf32>
  %zero = arith.constant 0.0 : f32
  %h = flow.dispatch.region -> (tensor<?x72xf32>{%m}) {
    %e = tensor.empty(%m) : tensor<?x72xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x72xf32>) -> tensor<?x72xf32>
    %mm = linalg.matmul ins(%x, %w0 : tensor<?x24xf32>, tensor<24x72xf32>) outs(%f : tensor<?x72xf32>) -> tensor<?x72xf32>
    flow.return %mm : tensor<?x72xf32>
  }
  %y = flow.dispatch.region -> (tensor<?x16xf32>{%m}) {
    %e = tensor.empty(%m) : tensor<?x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
    %mm = linalg.matmul ins(%h, %w1 : tensor<?x72xf32>, tensor<72x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
    flow.return %mm : tensor<?x16xf32>
  }
  return %y : tensor<?x16xf32>
}
""",
    # The producer's result is reshaped outside the dispatches; the reshapes move in.
    "through_reshapes": """
func.func @through_reshapes(%x: tensor<?x24xf32>, %w0: tensor<24x64xf32>, %w1: tensor<32x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %m = tensor.dim %x, %c0 : tensor<?x24xf32>
  %zero = arith.constant 0.0 : f32
  %h = flow.dispatch.region -> (tensor<?x64xf32>{%m}) {
    %e = tensor.empty(%m) : tensor<?x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
    %mm = linalg.matmul ins(%x, %w0 : tensor<?x24xf32>, tensor<24x64xf32>) outs(%f : tensor<?x64xf32>) -> tensor<?x64xf32>
    flow.return %mm : tensor<?x64xf32>
  }
  %ex = tensor.expand_shape %h [[0], [1, 2]] output_shape [%m, 2, 32] : tensor<?x64xf32> into tensor<?x2x32xf32>
  %co = tensor.collapse_shape %ex [[0, 1], [2]] : tensor<?x2x32xf32> into tensor<?x32xf32>
  %m2 = arith.muli %m, %c2 : index
  %y = flow.dispatch.region -> (tensor<?x8xf32>{%m2}) {
    %e = tensor.empty(%m2) : tensor<?x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
    %mm = linalg.matmul ins(%co, %w1 : tensor<?x32xf32>, tensor<32x8xf32>) outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
    flow.return %mm : tensor<?x8xf32>
  }
  return %y : tensor<?x8xf32>
}
""",
    # Both inputs of the last matmul come from dispatches; one of them has two results.
    "two_producers": """
func.func @two_producers(%a: tensor<12x20xf32>, %b: tensor<20x12xf32>, %w: tensor<20x10xf32>) -> (tensor<12x10xf32>, tensor<12x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %p:2 = flow.dispatch.region -> (tensor<12x12xf32>, tensor<12x12xf32>) {
    %e = tensor.empty() : tensor<12x12xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x12xf32>) -> tensor<12x12xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<12x20xf32>, tensor<20x12xf32>) outs(%f : tensor<12x12xf32>) -> tensor<12x12xf32>
    %sq = linalg.matmul ins(%mm, %mm : tensor<12x12xf32>, tensor<12x12xf32>) outs(%f : tensor<12x12xf32>) -> tensor<12x12xf32>
    flow.return %mm, %sq : tensor<12x12xf32>, tensor<12x12xf32>
  }
  %q = flow.dispatch.region -> (tensor<12x10xf32>) {
    %e = tensor.empty() : tensor<12x10xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x10xf32>) -> tensor<12x10xf32>
    %r = linalg.matmul ins(%a, %w : tensor<12x20xf32>, tensor<20x10xf32>) outs(%f : tensor<12x10xf32>) -> tensor<12x10xf32>
    flow.return %r : tensor<12x10xf32>
  }
  %y = flow.dispatch.region -> (tensor<12x10xf32>) {
    %e = tensor.empty() : tensor<12x10xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x10xf32>) -> tensor<12x10xf32>
    %mm = linalg.matmul ins(%p#1, %q : tensor<12x12xf32>, tensor<12x10xf32>) outs(%f : tensor<12x10xf32>) -> tensor<12x10xf32>
    flow.return %mm : tensor<12x10xf32>
  }
  return %y, %p#0 : tensor<12x10xf32>, tensor<12x12xf32>
}
""",
}

# How many operands each program gets padded.
EXPECTED_PADDED = {"chain": 1, "through_reshapes": 1, "two_producers": 2}


def _write(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name])
    return path


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("extra", [[], ["--interpreter-dynamic-size=3"]], ids=["random-size", "size-3"])
def test_results_are_kept(tmp_path: Path, name: str, extra: list[str]) -> None:
    result = run_opt([str(_write(tmp_path, name)), "-p", PADDING, "--verify-each-with-interpreter", *extra])
    assert result.returncode == 0, result.stderr
    padded = EXPECTED_PADDED[name]
    assert result.stdout.count("iree_encoding.unset_encoding") == padded
    assert result.stdout.count("iree_encoding.set_encoding") == padded
    assert PAD_ENCODING in result.stdout


def test_formed_dispatches_of_an_mlp_are_padded_and_kept() -> None:
    """From plain linalg: the first dispatch (matmul + bias + relu) hands its result padded to the second."""
    program = REPO / "test" / "e2e" / "Inputs" / "two_matmuls_bias_relu.mlir"
    pipeline = f"iree-dispatch-creation-form-dispatch-regions,{PADDING}"
    result = run_opt([str(program), "-p", pipeline, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(f"tensor<?x32xf32, {PAD_ENCODING}>") >= 2
    assert result.stdout.count("iree_encoding.unset_encoding") == 1


def test_nothing_to_pad_outside_dispatches(tmp_path: Path) -> None:
    """Plain linalg (no dispatch regions): the option leaves the program unchanged."""
    program = REPO / "test" / "e2e" / "Inputs" / "two_matmuls_bias_relu.mlir"
    before = run_opt([str(program)])
    after = run_opt([str(program), "-p", PADDING])
    assert before.returncode == 0 and after.returncode == 0, after.stderr
    assert after.stdout == before.stdout
