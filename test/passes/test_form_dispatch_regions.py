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


def test_region_ops_built_directly_equal_the_constructors():
    """``new_dispatch_region`` / ``new_flow_return`` build the ops the IRDL constructors build."""
    from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType, f32
    from xdsl.dialects.test import TestOp
    from xdsl.ir import Block, Region

    from mini_iree.compiler.analysis.dispatch_regions import new_dispatch_region, new_flow_return
    from mini_iree.compiler.ir.printer import print_module_to_string
    from mini_iree.dialects import flow

    index, tensor = IndexType(), TensorType(f32, [DYNAMIC_INDEX, 4])
    values = TestOp(result_types=[index, index, index, tensor]).results
    for dims, workload in (([], []), ([values[0]], []), ([values[0], values[1]], [values[2]])):
        types = [tensor] * len(dims)
        direct = new_dispatch_region(types, dims, workload, Region(Block()), Region())
        built = flow.DispatchRegionOp(types, dims, workload, Region(Block()), Region())
        assert direct.properties == built.properties and direct.attributes == built.attributes
        assert list(direct.properties) == list(built.properties)  # the same order in the generic form
        assert direct.operands == built.operands and direct.result_types == built.result_types
        assert [len(r.blocks) for r in direct.regions] == [len(r.blocks) for r in built.regions]
        assert direct.workload == built.workload and direct.result_dims == built.result_dims
        direct_return, built_return = new_flow_return([values[3]]), flow.ReturnOp([values[3]])
        assert direct_return.operands == built_return.operands
        assert direct_return.properties == built_return.properties == {}
        assert print_module_to_string(direct, generic=True) == print_module_to_string(built, generic=True)

ERA_CASES = Path(__file__).parent / "form_dispatch_regions_bit_extend_era.mlir"


@pytest.mark.parametrize("era", ["3.13", "walkthrough"])
def test_cpu_bit_extend_dispatches_keep_results(tmp_path: Path, era: str):
    """IREE 3.13's own dispatch for a bit extend on x86 computes what the cloned one does."""
    pipeline = f"{PASS}{{era={era}}},{CLONE}"
    for size in (1, 3):
        result = run_opt(
            [
                str(ERA_CASES),
                "-p",
                pipeline,
                "--split-input-file",
                "--verify-each-with-interpreter",
                f"--interpreter-dynamic-size={size}",
            ]
        )
        assert result.returncode == 0, result.stderr
    # 3.13 makes three regions in all (extend, matmul; then matmul), the walkthrough two.
    assert result.stdout.count("flow.dispatch.region") == (3 if era == "3.13" else 2)
