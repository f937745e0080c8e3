"""materialize-default-workgroup-count-region keeps results: the lit cases, run before and after the pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-materialize-default-workgroup-count-region"
LIT = Path(__file__).parent / "materialize_default_workgroup_count_region.mlir"


@pytest.mark.parametrize("size", [0, 1, 5])
def test_lit_cases_keep_results(size: int):
    result = run_opt(
        [str(LIT), "--split-input-file", "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"]
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results") == 3, result.stderr


def test_pipeline_output_has_nothing_left_to_do():
    # convert-dispatch-regions-to-workgroups already builds the default region:
    # running the pass after it changes nothing.
    converted = run_opt(
        [str(Path(__file__).parents[2] / "examples" / "matmul.mlir"), "-p",
         "iree-dispatch-creation-form-dispatch-regions,iree-dispatch-creation-convert-dispatch-regions-to-workgroups"]
    )  # fmt: skip
    assert converted.returncode == 0, converted.stderr
    assert "workgroup_count_from_slice" in converted.stdout
    again = run_opt(["-", "-p", PASS], stdin=converted.stdout.encode())
    assert again.returncode == 0, again.stderr
    assert again.stdout == converted.stdout
