"""iree-dispatch-creation-elementwise-op-fusion: every FileCheck case computes the same before and after,
and the data-tiling pipeline with it still equals numpy."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-elementwise-op-fusion"
LIT_CASES = Path(__file__).parent / "elementwise_op_fusion.mlir"


@pytest.mark.parametrize("size", [1, 3])
def test_lit_cases_keep_results(size: int):
    result = run_opt(
        [
            str(LIT_CASES),
            "-p",
            PASS,
            "--split-input-file",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    # Every case but the three left alone lost a generic.
    cases = result.stdout.split("// -----")
    generics = [case.count("linalg.generic") for case in cases]
    assert generics == [1, 1, 2, 3, 1, 2, 1]


def test_fused_contraction_through_the_pipeline(tmp_path: Path):
    """The broadcast fused into a generic contraction is data-tiled, and the program still computes the same."""
    case = LIT_CASES.read_text().split("// -----")[0]
    source = tmp_path / "case.mlir"
    source.write_text(case)
    for target in ("x86_64:+avx512f", "gfx942"):
        result = run_opt(
            [
                str(source),
                "-p",
                f"data-tiling{{target={target} era=3.13}}",
                "--verify-each-with-interpreter",
                "--interpreter-dynamic-size=5",
            ]
        )
        assert result.returncode == 0, result.stderr
        assert "matvec_like" in result.stdout
