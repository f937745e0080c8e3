"""``iree-abi-wrap-entry-points{invocation-model=sync}`` (IREE's wrapper form) keeps results.

The interpreter runs every public function before the pass (on tensors) and
after it (the wrapper on buffer views, calling the private original), on the
same seeded inputs, and compares.
"""

from __future__ import annotations

import pytest
from conftest import run_opt

SYNC = "iree-abi-wrap-entry-points{invocation-model=sync}"

PROGRAMS = {
    "dynamic_and_scalars": """
util.func public @add(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32> {iree.abi.name = "rhs"}, %s: f32) -> (tensor<?x4xf32>, f32) {
  %0 = arith.addf %arg0, %arg1 : tensor<?x4xf32>
  util.return %0, %s : tensor<?x4xf32>, f32
}
""",
    "public_callee": """
util.func public @scale(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = arith.mulf %arg0, %arg0 : tensor<3x4xf32>
  util.return %0 : tensor<3x4xf32>
}
util.func public @caller(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = util.call @scale(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = arith.addf %0, %arg0 : tensor<3x4xf32>
  util.return %1 : tensor<3x4xf32>
}
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_sync_wrappers_keep_results(tmp_path, name):
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name])
    result = run_opt([str(path), "-p", SYNC, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr
    # The wrapper form really was produced (not the walkthrough's inlined one).
    assert "iree.abi.stub" in result.stdout and "util.func private @_" in result.stdout


def test_unknown_invocation_model_is_a_command_line_error(tmp_path):
    path = tmp_path / "f.mlir"
    path.write_text(PROGRAMS["dynamic_and_scalars"])
    result = run_opt([str(path), "-p", "iree-abi-wrap-entry-points{invocation-model=async}"])
    assert result.returncode == 1
    assert "unknown invocation-model 'async' (expected one of: walkthrough, sync, coarse-fences)" in result.stderr


def test_coarse_fences_results_are_kept_through_the_barrier(tmp_path):
    """The fenced wrapper takes two !hal.fence arguments, which the interpreter
    cannot make up as inputs, so this checks the IR: each export's tensor
    results pass a barrier on the signal fence."""
    path = tmp_path / "f.mlir"
    path.write_text(PROGRAMS["public_callee"])
    result = run_opt([str(path), "-p", "iree-abi-wrap-entry-points{invocation-model=coarse-fences}"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("hal.tensor.barrier join(") == 2
    assert 'iree.abi.model = "coarse-fences"' in result.stdout
