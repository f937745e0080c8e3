"""``iree-dispatch-creation-fold-unit-extent-dims`` keeps results: checked with the interpreter.

Each case of the pass's lit test runs before and after the pass on the same
random inputs (``--verify-each-with-interpreter``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-fold-unit-extent-dims"
CASES = (Path(__file__).parent / "fold_unit_extent_dims.mlir").read_text().split("// -----")


@pytest.mark.parametrize(
    "function", ["@unit_middle_loop(", "@all_unit(", "@left_alone(", "@index_of_dropped_loop("]
)
def test_results_are_kept(tmp_path: Path, function: str) -> None:
    (case,) = [c for c in CASES if function in c]
    path = tmp_path / "input.mlir"
    path.write_text(case)
    result = run_opt([str(path), "-p", PASS, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
    folded = function != "@left_alone("
    assert ("tensor.expand_shape" in result.stdout) == folded


def test_new_ops_keep_the_location_of_the_op_they_replace(tmp_path: Path) -> None:
    # The collapsed operands, the smaller generic and the expanded results stand for the generic.
    (case,) = [c for c in CASES if "@index_of_dropped_loop(" in c]
    path = tmp_path / "case.mlir"
    path.write_text(case)
    result = run_opt([str(path), "-p", PASS, "--mlir-print-debuginfo"])
    assert result.returncode == 0, result.stderr
    assert "tensor.collapse_shape" in result.stdout and "tensor.expand_shape" in result.stdout
    assert "loc(unknown)" not in result.stdout


def test_packed_storage_results_are_kept(tmp_path: Path) -> None:
    # IREE 3.13 collapses packed sub-byte storage (the encoding stays): the i1
    # program gives the same results before and after the pass.
    cases = (Path(__file__).parent / "fold_unit_extent_dims_encoding.mlir").read_text().split("// -----")
    (case,) = [c for c in cases if "@packed_storage(" in c]
    path = tmp_path / "packed.mlir"
    path.write_text(case)
    result = run_opt([str(path), "--iree-era=3.13", "-p", PASS, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
    assert "tensor<4x8xi1, #iree_encoding.packed_storage>" in result.stdout
