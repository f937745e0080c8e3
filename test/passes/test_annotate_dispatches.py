"""annotate-dispatches renames entry points consistently (the program still runs) with IREE's summaries."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REPO, run_opt

PASS = "iree-flow-annotate-dispatches"
LIT = Path(__file__).parent / "annotate_dispatches.mlir"
INPUTS = REPO / "test" / "e2e" / "Inputs"
BEFORE = ",".join(
    [
        "data-tiling-dispatch-creation",
        "iree-dispatch-creation-convert-dispatch-regions-to-workgroups",
        "iree-flow-outline-dispatch-regions",
    ]
)


def test_lit_cases_keep_results():
    result = run_opt([str(LIT), "--split-input-file", "-p", PASS, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr


@pytest.mark.parametrize(
    ("name", "exports"),
    [
        # The names IREE 3.13 gives these programs' dispatches (shared/reference/iree-3.13).
        (
            "elementwise_producer_consumer",
            ["matmul_ew_both_dispatch_0_elementwise_DxD_f32", "matmul_ew_both_dispatch_1_matmul_DxDxD_f32"],
        ),
        ("matmul_static", ["matmul_static_dispatch_0_matmul_255x1023x513_f32"]),
        ("matmul_i8", ["matmul_i8i8i32_dispatch_0_matmul_DxDxD_i8xi8xi32"]),
    ],
)
def test_dispatch_names(name: str, exports: list[str]):
    args = [str(INPUTS / f"{name}.mlir"), "-p", f"{BEFORE},{PASS}"]
    result = run_opt([*args, "--verify-each-with-interpreter", "--interpreter-dynamic-size=3"])
    assert result.returncode == 0, result.stderr
    assert re.findall(r"flow\.executable\.export public @(\w+)", result.stdout) == exports
    for export in exports:
        assert f"func.func @{export}(" in result.stdout
        assert f"::@{export}" in result.stdout
