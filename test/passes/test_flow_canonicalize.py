"""iree-flow-canonicalize keeps results: the lit cases, and affine.apply on negative values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

PASS = "iree-flow-canonicalize"
LIT = Path(__file__).parent / "flow_canonicalize.mlir"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lit_cases_keep_results(seed: int):
    result = run_opt([str(LIT), "--split-input-file", "-p", PASS, "--verify-each-with-interpreter",
                      f"--interpreter-seed={seed}"])  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results") == 3, result.stderr


@pytest.mark.parametrize("a", [-33, -16, -1, 0, 1, 15, 16, 17])
def test_divisions_round_as_affine_maps_do(a: int):
    from mini_iree.compiler.interpreter import run

    program = LIT.read_text().split("// -----")[0]
    lowered = run_opt(["-", "-p", PASS], stdin=program.encode())
    assert lowered.returncode == 0, lowered.stderr
    expected = [-(-a // 16), a // 16, a % 16, a - 2 * 5]
    for text in (program, lowered.stdout):
        assert [int(np.asarray(r)) for r in run(text, "apply_lowered", a, 5)] == expected
