"""affine canonicalizations keep values: min/max terms sorted, delinearize(linearize) cancelled."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

HERE = Path(__file__).parent / "affine"


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_min_max_term_order_keeps_results(seed: int):
    result = run_opt([str(HERE / "canonicalize_min_max.mlir"), "-p", "canonicalize", "--verify-each-with-interpreter",
                      f"--interpreter-seed={seed}"])  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_index_op_cancellation_keeps_results(seed: int):
    # Random indices may exceed their bounds; `disjoint` promises they do not, so the
    # check runs on the cases whose indices are reduced into range first.
    program = """
func.func @in_range(%a0: index, %b0: index, %c0: index) -> (index, index, index, index, index) {
  %a = arith.remui %a0, %c2 : index
  %b = arith.remui %b0, %c4 : index
  %c = arith.remui %c0, %c16 : index
  %0 = affine.linearize_index disjoint [%a, %b, %c] by (2, 4, 16) : index
  %1:2 = affine.delinearize_index %0 into (8, 16) : index, index
  %2 = affine.linearize_index disjoint [%0, %c] by (128, 16) : index
  %3:3 = affine.delinearize_index %2 into (2, 64, 16) : index, index, index
  return %1#0, %1#1, %3#0, %3#1, %3#2 : index, index, index, index, index
}
""".replace("(%a0: index, %b0: index, %c0: index) -> (index, index, index, index, index) {",
            "(%a0: index, %b0: index, %c0: index) -> (index, index, index, index, index) {\n"
            "  %c2 = arith.constant 2 : index\n  %c4 = arith.constant 4 : index\n  %c16 = arith.constant 16 : index")
    result = run_opt(["-", "-p", "canonicalize", "--verify-each-with-interpreter", f"--interpreter-seed={seed}"],
                     stdin=program.encode())  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
    assert result.stdout.count("affine.delinearize_index") == 1  # the first pair leaves none
