"""IREE 3.13's fusion groups in form-dispatch-regions: the programs compute the same before and after."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

PASS = "iree-dispatch-creation-form-dispatch-regions"
CLONE = "iree-dispatch-creation-clone-producers-into-dispatch-regions"
CASES = Path(__file__).parent / "form_dispatch_regions_fusion_groups.mlir"


@pytest.mark.parametrize(
    "options",
    [
        "era=3.13 aggressive-fusion=true",
        "era=3.13 aggressive-fusion=true fuse-multi-use-producers=false",
        "era=3.13",
        "era=walkthrough aggressive-fusion=true",
    ],
)
def test_fusion_group_cases_keep_results(options: str):
    for size in (1, 3):
        result = run_opt(
            [
                str(CASES),
                "-p",
                f"{PASS}{{{options}}},{CLONE}",
                "--split-input-file",
                "--verify-each-with-interpreter",
                f"--interpreter-dynamic-size={size}",
            ]
        )
        assert result.returncode == 0, result.stderr
        assert "flow.dispatch.region" in result.stdout


def test_transposed_consumer_maps_root_loops():
    """The consumer reading the matmul transposed runs its loops swapped against the root's."""
    from xdsl.context import Context

    from mini_iree.compiler.analysis.fusion_group import FusionGroup, LoopMap
    from mini_iree.compiler.ir.parsing import parse_mlir
    from mini_iree.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    module = parse_mlir(ctx, CASES.read_text().split("// -----")[0], "cases.mlir")
    ops = [op for op in module.walk() if op.name in ("linalg.matmul", "linalg.generic")]
    matmul, transpose = ops
    positions = {op: i for i, op in enumerate(matmul.parent_block().ops)}
    group = FusionGroup(matmul, positions.__getitem__)
    # The root: its two parallel loops drive (d0, d1); its reduction loop none.
    assert group.loop_maps[matmul] == LoopMap(2, (0, 1, None))
    assert group.map_for(transpose) == LoopMap(2, (1, 0))
    assert group.is_fusable(transpose)
    assert not group.has_transitive_dependency(transpose)
    assert not group.would_exceed_operand_limit(transpose)
