"""The `data-tiling-dispatch-creation` pipeline keeps every program's results.

Each program in Inputs/ is a plain `func.func` on tensors. The whole pipeline
(wrap entry points, form dispatch regions, the data-tiling passes, hoisting into
globals) runs on it with the interpreter comparing results after every pass, for
a few sizes of the dynamic dimensions, zero included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, run_opt

INPUTS = Path(__file__).parent / "Inputs"

# Programs that must come out data-tiled, and the ones that must not.
TILED = [
    "matmul_static",
    "matmul_f16",
    "matmul_i8",
    "batch_matmul",
    "matvec",
    "vecmat",
    "matmul_transpose_b",
    "two_matmuls_bias_relu",
    "const_weight",
    "zero_size",
    "elementwise_producer_consumer",
    # Two M loops that collapse-dimensions makes one: a matmul, data-tiled (as IREE 3.13 does).
    "multi_m_generic",
]
LEFT_ALONE = ["dot"]


def _run(path: Path, *extra: str):
    return run_opt([str(path), "-p", "data-tiling-dispatch-creation", *extra])


@pytest.mark.parametrize("size", [0, 1, 7])
@pytest.mark.parametrize("name", TILED + LEFT_ALONE)
def test_pipeline_keeps_results(name: str, size: int):
    result = _run(INPUTS / f"{name}.mlir", "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", TILED)
def test_data_tilable_programs_get_encodings(name: str):
    result = _run(INPUTS / f"{name}.mlir")
    assert result.returncode == 0, result.stderr
    assert "#iree_encoding.encoding<" in result.stdout
    assert "flow.tensor.encode" in result.stdout or "util.global" in result.stdout
    assert "util.func public" in result.stdout and "!hal.buffer_view" in result.stdout


@pytest.mark.parametrize("name", LEFT_ALONE)
def test_other_contractions_are_left_alone(name: str):
    result = _run(INPUTS / f"{name}.mlir")
    assert result.returncode == 0, result.stderr
    assert "iree_encoding" not in result.stdout
    assert "flow.dispatch.region" in result.stdout


def test_walkthrough_example_keeps_results():
    matmul = REPO / "examples" / "matmul.mlir"
    for size in (0, 3, 16):
        result = _run(matmul, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}")
        assert result.returncode == 0, result.stderr


def test_pipeline_inside_pass_pipeline():
    matmul = REPO / "examples" / "matmul.mlir"
    named = _run(matmul)
    nested = run_opt([str(matmul), "--pass-pipeline=builtin.module(data-tiling-dispatch-creation)"])
    assert named.returncode == 0 and nested.returncode == 0, named.stderr + nested.stderr
    assert named.stdout == nested.stdout
