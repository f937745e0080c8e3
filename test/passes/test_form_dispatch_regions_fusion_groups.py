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


SEMI_AFFINE = Path(__file__).parent / "form_dispatch_regions_semi_affine.mlir"


@pytest.mark.parametrize("size", [1, 2, 3])
def test_semi_affine_sizes_keep_results(size: int):
    """Sizes computed by ``s0 * s1`` maps evaluate the same before and after the unpack fuses."""
    result = run_opt(
        [
            str(SEMI_AFFINE),
            "-p",
            f"{PASS}{{era=3.13}}",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr


def test_semi_affine_product_parses_as_a_product():
    """``s0 * s1`` is one multiplication of the two symbols, ``d0 * s0`` a semi-affine product as in
    MLIR; a product of two dims is refused, as MLIR refuses it."""
    from xdsl.context import Context
    from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineSymExpr

    from mini_iree.compiler.ir.diagnostics import DiagnosticError
    from mini_iree.compiler.ir.parsing import parse_mlir
    from mini_iree.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    text = "util.func public @f(%a: index, %b: index) -> index {{\n  %0 = affine.apply affine_map<{}>{}\n  util.return %0 : index\n}}\n"
    module = parse_mlir(ctx, text.format("()[s0, s1] -> (s0 * s1)", "()[%a, %b]"), "f.mlir")
    apply = next(op for op in module.walk() if op.name == "affine.apply")
    (expr,) = apply.map.data.results
    assert expr == AffineBinaryOpExpr(AffineBinaryOpKind.Mul, AffineSymExpr(0), AffineSymExpr(1))
    assert expr.eval([], [3, 5]) == 15
    parse_mlir(ctx, text.format("(d0)[s0] -> (d0 * s0)", "(%a)[%b]"), "g.mlir")
    with pytest.raises(DiagnosticError):
        parse_mlir(ctx, text.format("(d0, d1) -> (d0 * d1)", "(%a, %b)"), "h.mlir")


PAD_PRODUCER = Path(__file__).parent / "form_dispatch_regions_pad_producer.mlir"


@pytest.mark.parametrize("era", ["3.13", "walkthrough"])
@pytest.mark.parametrize("size", [1, 3])
def test_pad_fused_with_its_producer_keeps_results(era: str, size: int):
    """The returned pad's sizes, read off the generic's init, are the padded tensor's."""
    result = run_opt(
        [
            str(PAD_PRODUCER),
            "-p",
            f"{PASS}{{era={era} fuse-pad-with-producers}}",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr


PAD_CONSUMER = Path(__file__).parent / "form_dispatch_regions_pad_consumer.mlir"


@pytest.mark.parametrize("era", ["3.13", "walkthrough"])
def test_pad_fused_into_generic_convolution_keeps_results(era: str):
    result = run_opt(
        [
            str(PAD_CONSUMER),
            "-p",
            f"{PASS}{{era={era} fuse-pad-with-consumers}}",
            "--split-input-file",
            "--verify-each-with-interpreter",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results of 1 function") == 2
