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


CLONE = "iree-dispatch-creation-clone-producers-into-dispatch-regions"


@pytest.mark.parametrize(
    "pipeline",
    [PASS, f"{PASS}{{aggressive-fusion=true}}", f"{PASS},{CLONE}", f"{PASS}{{aggressive-fusion=true}},{CLONE}{{aggressive=true}}"],
)
@pytest.mark.parametrize("size", [1, 3])
def test_lit_cases_keep_results(tmp_path: Path, pipeline: str, size: int):
    source = tmp_path / "cases.mlir"
    source.write_text(_executable_cases())
    result = run_opt(
        [
            str(source),
            "-p",
            pipeline,
            "--split-input-file",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "flow.dispatch.region" in result.stdout
