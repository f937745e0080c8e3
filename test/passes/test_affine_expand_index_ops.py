"""affine-expand-index-ops keeps results: the lit cases before and after, and negative indices."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

PASS = "affine-expand-index-ops"
LIT = Path(__file__).parent / "affine_expand_index_ops.mlir"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lit_cases_keep_results(seed: int):
    result = run_opt([str(LIT), "--split-input-file", "-p", PASS, "--verify-each-with-interpreter",
                      f"--interpreter-seed={seed}"])  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results") == 3, result.stderr


def test_negative_index_delinearizes_with_floor_semantics():
    # The remainder is shifted into [0, stride): -1 into (4, 8) is (-1, 3, 7), as MLIR defines it.
    from mini_iree.compiler.interpreter import run

    program = LIT.read_text().split("// -----")[1]
    lowered = run_opt(["-", "-p", PASS], stdin=program.encode())
    assert lowered.returncode == 0, lowered.stderr
    for text in (program, lowered.stdout):
        results = run(text, "delinearize", -1, 3, 5)
        assert [int(np.asarray(r)) for r in results[:3]] == [-1, 3, 7]
