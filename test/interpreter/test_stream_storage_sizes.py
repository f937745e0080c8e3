"""The interpreter sizes stream resources as the compiler's host code does."""

from __future__ import annotations

from conftest import REPO, run_opt


def test_vmvx_ukernel_layouts_with_dynamic_tiles_run_at_every_stage():
    """VMVX's microkernels choose their tiles at run time (innerTileSizes are dynamic); the host sizes for 16."""
    result = run_opt(
        [str(REPO / "examples" / "matmul.mlir"), "-p", "data-tiling{target=vmvx:ukernels=all}",
         "--verify-each-with-interpreter", "-o", "-"]
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "error:" not in result.stderr
    assert "pass 'iree-codegen-combine-layout-transformation' kept the results of 1 function" in result.stderr
