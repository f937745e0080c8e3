"""One ``isBitExtendOp`` (compiler/ir/queries.py), with IREE's meaning, for every pass that asks."""

from __future__ import annotations

import pytest
from conftest import run_opt

from mini_iree.compiler.ir.queries import is_bit_extend_op
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.dialects import linalg

# An i8 weight dequantized with a per-row f32 scale: (w - 0) * scale, f32 result.
SCALED_DEQUANT = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
util.func public @scaled_dequant(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6]]> : tensor<2x3xi8>
  %s = arith.constant dense<[0.5, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<2x3xi8>, tensor<2xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: i8, %b: f32, %out: f32):
    %x = arith.sitofp %a : i8 to f32
    %y = arith.mulf %x, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  %r = flow.dispatch.region -> (tensor<2x3xf32>) {
    %2 = linalg.add ins(%d, %arg0 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%arg0 : tensor<2x3xf32>) -> tensor<2x3xf32>
    flow.return %2 : tensor<2x3xf32>
  }
  util.return %r : tensor<2x3xf32>
}
"""

def _generic(text: str) -> linalg.GenericOp:
    from mini_iree.dialects import get_all_dialects
    from xdsl.context import Context

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    ctx.allow_unregistered = True
    module = parse_mlir(ctx, text, "test.mlir")
    return next(op for op in module.walk() if isinstance(op, linalg.GenericOp))


def _one_input_generic(in_type: str, out_type: str, body: str) -> str:
    return f"""
#id = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4x{in_type}>, %e: tensor<4x{out_type}>) -> tensor<4x{out_type}> {{
  %0 = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}} ins(%a : tensor<4x{in_type}>) outs(%e : tensor<4x{out_type}>) {{
  ^bb0(%x: {in_type}, %o: {out_type}):
{body}
  }} -> tensor<4x{out_type}>
  return %0 : tensor<4x{out_type}>
}}
"""


@pytest.mark.parametrize(
    "in_type, out_type, body, expected",
    [
        ("i8", "i32", "    %y = arith.extsi %x : i8 to i32\n    linalg.yield %y : i32", True),
        ("f16", "f32", "    %y = arith.extf %x : f16 to f32\n    linalg.yield %y : f32", True),
        # Not cheap: a math op in the body.
        ("f16", "f32", "    %y = arith.extf %x : f16 to f32\n    %z = \"math.exp\"(%y) : (f32) -> f32\n    linalg.yield %z : f32", False),
        # Same width: no extension.
        ("f32", "f32", "    %y = arith.negf %x : f32\n    linalg.yield %y : f32", False),
        # Narrowing.
        ("f32", "f16", "    %y = arith.truncf %x : f32 to f16\n    linalg.yield %y : f16", False),
    ],
)
def test_single_input_generics(in_type, out_type, body, expected):
    assert is_bit_extend_op(_generic(_one_input_generic(in_type, out_type, body))) is expected


def test_scaled_dequantization_is_a_bit_extend():
    # IREE compares the widest input of the highest rank (the i8 weight) with the result;
    # the lower-rank f32 scale does not count.
    assert is_bit_extend_op(_generic(SCALED_DEQUANT))


def test_hoist_into_globals_leaves_a_scaled_dequantization_alone(tmp_path):
    # A bit extend is no hoistable leaf (IREE's isHoistableConstExprLeaf): storing the f32
    # result as a global would cost four times the i8 weight for a cheap computation.
    path = tmp_path / "dequant.mlir"
    path.write_text(SCALED_DEQUANT)
    result = run_opt([str(path), "-p", "iree-util-hoist-into-globals"])
    assert result.returncode == 0, result.stderr
    assert "util.global" not in result.stdout
    assert "arith.sitofp" in result.stdout
