"""outline-dispatch-regions keeps results: the interpreter calls the outlined function through flow.dispatch."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, run_opt

PASS = "iree-flow-outline-dispatch-regions"
LIT = Path(__file__).parent / "outline_dispatch_regions.mlir"
INPUTS = REPO / "test" / "e2e" / "Inputs"


@pytest.mark.parametrize("size", [0, 1, 7])
def test_lit_cases_keep_results(size: int):
    result = run_opt(
        [str(LIT), "--split-input-file", "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"]
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results") == 2


@pytest.mark.parametrize("name", ["elementwise_producer_consumer", "two_matmuls_bias_relu", "const_weight"])
def test_two_dispatch_and_const_weight_programs(name: str):
    pipeline = f"data-tiling-dispatch-creation,iree-dispatch-creation-convert-dispatch-regions-to-workgroups,{PASS}"
    result = run_opt(
        [str(INPUTS / f"{name}.mlir"), "-p", pipeline, "--verify-each-with-interpreter", "--interpreter-dynamic-size=5"]
    )
    assert result.returncode == 0, result.stderr
    assert "flow.dispatch.workgroups" not in result.stdout
    assert "flow.executable private" in result.stdout
