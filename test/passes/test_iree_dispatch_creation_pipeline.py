"""iree-dispatch-creation-pipeline: IREE's pass order keeps results, with and without data tiling."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, run_opt

LIT_CASES = Path(__file__).parent / "iree_dispatch_creation_pipeline.mlir"
OPTIONS = ["", "{data-tiling}", "{data-tiling aggressive-fusion}", "{aggressive-fusion=true fuse-multi-use=false}"]


@pytest.mark.parametrize("options", OPTIONS)
def test_lit_cases_keep_results(options: str):
    result = run_opt(
        [str(LIT_CASES), "-p", f"iree-dispatch-creation-pipeline{options}", "--split-input-file",
         "--verify-each-with-interpreter"]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("flow.dispatch.workgroups") == 2


@pytest.mark.parametrize("example", ["matmul.mlir", "matmul_i8.mlir", "elementwise_producer_consumer.mlir"])
@pytest.mark.parametrize("options", OPTIONS[:3])
def test_examples_keep_results(example: str, options: str):
    result = run_opt(
        [str(REPO / "examples" / example), "-p", f"iree-dispatch-creation-pipeline{options}",
         "--verify-each-with-interpreter", "--interpreter-dynamic-size=5"]
    )
    assert result.returncode == 0, result.stderr
    assert ("flow.tensor.encode" in result.stdout) == ("data-tiling" in options)


def test_boolean_options_are_checked():
    result = run_opt([str(LIT_CASES), "-p", "iree-dispatch-creation-pipeline{data-tiling=maybe}", "--split-input-file"])
    assert result.returncode == 1
    assert "option 'data-tiling' takes true or false" in result.stderr
