"""affine canonicalizations keep values: min/max terms sorted, linearize/delinearize pairs cancelled or split,
unit bounds dropped."""

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


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_split_and_unit_bound_patterns_keep_results(seed: int):
    # The indices are reduced into their bounds first (`disjoint` promises they are within them).
    program = """
func.func @f(%a0: index, %b0: index, %x0: index) -> (index, index, index, index, index, index) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %a = arith.remui %a0, %c16 : index
  %b = arith.remui %b0, %c8 : index
  %x = arith.remui %x0, %c32 : index
  %0 = affine.linearize_index disjoint [%a, %b] by (16, 8) : index
  %1:3 = affine.delinearize_index %0 into (16, 2, 4) : index, index, index
  %d:2 = affine.delinearize_index %x into (4, 8) : index, index
  %l = affine.linearize_index disjoint [%d#0, %d#1] by (4, 8) : index
  %u:3 = affine.delinearize_index %x into (1, 4, 8) : index, index, index
  %m = affine.linearize_index disjoint [%c0, %u#1, %u#2] by (1, 4, 8) : index
  return %1#0, %1#1, %1#2, %l, %u#0, %m : index, index, index, index, index, index
}
"""
    result = run_opt(["-", "-p", "canonicalize", "--verify-each-with-interpreter", f"--interpreter-seed={seed}"],
                     stdin=program.encode())  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
    assert "affine.linearize_index" not in result.stdout  # every linearization cancelled
