"""iree-dispatch-creation-form-dispatch-regions: every FileCheck case computes the same before and after."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-form-dispatch-regions"
LIT_CASES = Path(__file__).parent / "form_dispatch_regions.mlir"


def _executable_cases() -> str:
    """The lit file's cases, less those on memrefs (the interpreter makes no random memref arguments)."""
    cases = LIT_CASES.read_text().split("// -----")
    kept = [case for case in cases if "memref<" not in case]
    assert len(kept) >= len(cases) - 1  # only the memref case is left out
    return "// -----".join(kept)


@pytest.mark.parametrize("options", ["", "{aggressive-fusion=true}"])
@pytest.mark.parametrize("size", [1, 3])
def test_lit_cases_keep_results(tmp_path: Path, options: str, size: int):
    source = tmp_path / "cases.mlir"
    source.write_text(_executable_cases())
    result = run_opt(
        [
            str(source),
            "-p",
            PASS + options,
            "--split-input-file",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "flow.dispatch.region" in result.stdout


def test_shared_fill_is_cloned_into_every_dispatch(tmp_path: Path):
    """One fill feeding many matmuls: each dispatch gets its own copy, and the original goes."""
    count = 12
    lines = [
        "func.func @many(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {",
        "  %cst = arith.constant 0.000000e+00 : f32",
        "  %e = tensor.empty() : tensor<4x4xf32>",
        "  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>",
    ]
    for i in range(count):
        lines.append(
            f"  %m{i} = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) "
            "outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>"
        )
    total = "%m0"
    for i in range(1, count):
        lines.append(f"  %s{i} = arith.addf {total}, %m{i} : tensor<4x4xf32>")
        total = f"%s{i}"
    lines += [f"  return {total} : tensor<4x4xf32>", "}"]
    source = tmp_path / "many.mlir"
    source.write_text("\n".join(lines) + "\n")
    result = run_opt([str(source), "-p", PASS, "--verify-each-with-interpreter", "--interpreter-dynamic-size=1"])
    assert result.returncode == 0, result.stderr
    body = result.stdout
    assert body.count("flow.dispatch.region") == count
    assert body.count("linalg.fill") == count
    outside = [line for line in body.splitlines() if line.startswith("    %") and "linalg.fill" in line]
    assert not outside  # the original fill was erased
