"""Sorting the terms of affine.min / affine.max keeps their values."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

LIT = Path(__file__).parent / "affine" / "canonicalize_min_max.mlir"


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_canonicalize_keeps_results(seed: int):
    result = run_opt([str(LIT), "-p", "canonicalize", "--verify-each-with-interpreter", f"--interpreter-seed={seed}"])
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
