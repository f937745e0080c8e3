"""iree-util-hoist-into-globals: reproduces the reference dumps and keeps every program's results."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import require_reference, run_opt

PASS = "iree-util-hoist-into-globals"

IREE_CASES = ["const-weight-matmul", "dynamic-matmul", "elementwise-producer-consumer", "gfx942-dynamic-matmul"]


def _with_module_attributes(before: str, after: str) -> str:
    """``before`` inside the module header, device global and aliases that ``after`` shows.

    The reference dumps after the pass come from a later point of IREE's
    pipeline, where the module already carries ``stream.affinity.default`` and
    ``@__device_0``; adding them to the input lets the outputs compare exactly,
    and checks that the affinity is copied onto what the pass creates.
    """
    after_lines = after.splitlines()
    aliases = [line for line in after_lines if line.startswith(("#executable_target", "#device_target"))]
    header = [line for line in after_lines if line.startswith("module attributes")]
    device = [line for line in after_lines if re.match(r"\s*util\.global private @__device_\d+ =", line)]
    lines = [line for line in before.splitlines() if not line.startswith("// -----//")]
    first = next(i for i, line in enumerate(lines) if line.startswith(("util.func", "func.func")))
    return "\n".join([*aliases, *lines[:first], *header, *device, *lines[first:], "}"]) + "\n"


def _opt(path: Path, *args: str) -> str:
    result = run_opt([str(path), *args])
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_walkthrough_07_becomes_08(tmp_path):
    ref = require_reference() / "seed-walkthrough"
    after = ref / "08-hoist-into-globals.after.mlir"
    source = tmp_path / "07.mlir"
    before = (ref / "07-hoist-into-globals.before.mlir").read_text()
    source.write_text(_with_module_attributes(before, after.read_text()))
    assert _opt(source, "-p", PASS) == _opt(after)


@pytest.mark.parametrize("case", IREE_CASES)
def test_iree_3_13_dump_08_becomes_09(tmp_path, case):
    ref = require_reference() / "iree-3.13" / case
    after = ref / "09_HoistIntoGlobalsPass.mlir"
    source = tmp_path / "08.mlir"
    before = (ref / "08_ConvertEncodingToFlowPass.mlir").read_text()
    source.write_text(_with_module_attributes(before, after.read_text()))
    output = _opt(source, "-p", PASS)
    assert output == _opt(after)
    assert ("util.initializer" in output) == (case == "const-weight-matmul")


def _verify(path: Path, dynamic_size: int = 5) -> str:
    return _opt(path, "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={dynamic_size}")


def test_walkthrough_07_keeps_results():
    ref = require_reference() / "seed-walkthrough"
    output = _verify(ref / "07-hoist-into-globals.before.mlir")
    assert "util.global.load immutable @__hoisted_tensor_513x1023xf32__encoded" in output


def test_iree_3_13_const_weight_keeps_results(tmp_path):
    """The elided weight of the dump replaced by real data, so the hoisted encode has something to compute."""
    ref = require_reference() / "iree-3.13" / "const-weight-matmul" / "08_ConvertEncodingToFlowPass.mlir"
    weight = np.random.default_rng(0).standard_normal((256, 512)).astype("<f4")
    text = ref.read_text().replace("dense_resource<__elided__>", f'dense<"0x{weight.tobytes().hex().upper()}">')
    assert "dense_resource" not in text
    source = tmp_path / "const_weight.mlir"
    source.write_text(text)
    output = _verify(source)
    assert "util.global private @__hoisted_tensor_256x512xf32__encoded" in output


_MATMUL_MAPS = """
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
"""

CONST_WEIGHT = (
    _MATMUL_MAPS
    + """
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 5, 3]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 5, 3]>
#res = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 5, 3]>
util.func public @const_weight_matmul(%arg0: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %arg0, %c0 : tensor<?x3xf32>
  %cst = arith.constant dense<[[1.0, -2.0, 3.0, 0.5, 4.0], [0.0, 1.5, -1.0, 2.0, 3.0], [2.5, 1.0, 0.25, -3.0, 1.0]]> : tensor<3x5xf32>
  %lhs = flow.tensor.encode %arg0 : tensor<?x3xf32>{%d} -> tensor<?x3xf32, #lhs>{%d}
  %rhs = flow.tensor.encode %cst : tensor<3x5xf32> -> tensor<3x5xf32, #rhs>
  %r = flow.dispatch.region -> (tensor<?x5xf32>{%d}) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty(%d) : tensor<?x5xf32, #res>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x5xf32, #res>) -> tensor<?x5xf32, #res>
    %m = linalg.matmul ins(%lhs, %rhs : tensor<?x3xf32, #lhs>, tensor<3x5xf32, #rhs>) outs(%f : tensor<?x5xf32, #res>) -> tensor<?x5xf32, #res>
    %u = iree_encoding.unset_encoding %m encoding_dims{%d} : tensor<?x5xf32, #res> -> tensor<?x5xf32>{%d}
    flow.return %u : tensor<?x5xf32>
  }
  util.return %r : tensor<?x5xf32>
}
"""
)

# f16 weight, transposed and widened by one generic, then encoded: two const-expr
# ops, one global. The widening alone would not be hoisted (a bit-extend).
CONST_EXPR_CHAIN = (
    _MATMUL_MAPS
    + """
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [4, 2, 3]>
func.func @const_expr_chain(%arg0: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]> : tensor<2x3xf16>
  %e = tensor.empty() : tensor<3x2xf32>
  %wt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf16>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<3x2xf32>
  %rhs = flow.tensor.encode %wt : tensor<3x2xf32> -> tensor<3x2xf32, #rhs>
  %r = flow.dispatch.region -> (tensor<4x2xf32>) {
    %zero = arith.constant 0.0 : f32
    %o = tensor.empty() : tensor<4x2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%o : tensor<4x2xf32>) -> tensor<4x2xf32>
    %u = iree_encoding.unset_encoding %rhs : tensor<3x2xf32, #rhs> -> tensor<3x2xf32>
    %m = linalg.matmul ins(%arg0, %u : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
    flow.return %m : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}
"""
)

ZERO_SIZE = """
#enc = #iree_encoding.testing<>
util.func public @zero_size_constant(%arg0: tensor<0x4xf32, #enc>) -> tensor<0x4xf32, #enc> {
  %cst = arith.constant dense<> : tensor<0x4xf32>
  %0 = flow.tensor.encode %cst : tensor<0x4xf32> -> tensor<0x4xf32, #enc>
  %1 = flow.dispatch.region -> (tensor<0x4xf32, #enc>) {
    %2 = linalg.add ins(%0, %arg0 : tensor<0x4xf32, #enc>, tensor<0x4xf32, #enc>) outs(%arg0 : tensor<0x4xf32, #enc>) -> tensor<0x4xf32, #enc>
    flow.return %2 : tensor<0x4xf32, #enc>
  }
  util.return %1 : tensor<0x4xf32, #enc>
}
"""

# An i8 weight scaled by an i8 constant: integers compare exactly.
I8_WEIGHT = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#enc = #iree_encoding.testing<>
util.func public @i8_scaled_weight(%arg0: tensor<2x3xi8, #enc>) -> tensor<2x3xi8, #enc> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6]]> : tensor<2x3xi8>
  %s = arith.constant dense<3> : tensor<2x3xi8>
  %e = tensor.empty() : tensor<2x3xi8>
  %ws = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<2x3xi8>, tensor<2x3xi8>) outs(%e : tensor<2x3xi8>) {
  ^bb0(%a: i8, %b: i8, %out: i8):
    %p = arith.muli %a, %b : i8
    linalg.yield %p : i8
  } -> tensor<2x3xi8>
  %0 = flow.tensor.encode %ws : tensor<2x3xi8> -> tensor<2x3xi8, #enc>
  %1 = flow.dispatch.region -> (tensor<2x3xi8, #enc>) {
    %2 = linalg.add ins(%0, %arg0 : tensor<2x3xi8, #enc>, tensor<2x3xi8, #enc>) outs(%arg0 : tensor<2x3xi8, #enc>) -> tensor<2x3xi8, #enc>
    flow.return %2 : tensor<2x3xi8, #enc>
  }
  util.return %1 : tensor<2x3xi8, #enc>
}
"""

PROGRAMS = {
    "const_weight_matmul": (CONST_WEIGHT, "@__hoisted_tensor_3x5xf32__encoded"),
    "const_expr_chain": (CONST_EXPR_CHAIN, "@__hoisted_tensor_3x2xf32__encoded"),
    "zero_size_constant": (ZERO_SIZE, "@__hoisted_tensor_0x4xf32__encoded"),
    "i8_scaled_weight": (I8_WEIGHT, "@__hoisted_tensor_2x3xi8__encoded"),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("dynamic_size", [1, 5])
def test_program_keeps_results(tmp_path, name, dynamic_size):
    text, global_name = PROGRAMS[name]
    source = tmp_path / f"{name}.mlir"
    source.write_text(text)
    output = _verify(source, dynamic_size)
    # Exactly one global, one initializer, and the function only loads it.
    assert output.count("util.initializer") == 1
    assert output.count("util.global private") == 1
    function = output[output.index(f"@{name}(") :]
    assert f"util.global.load immutable {global_name}" in function
    assert "dense<" not in function  # the constant went with its encode


def test_hoisted_program_computes_the_same_matmul(tmp_path):
    """The initializer runs before the first call: the loaded weight is the encoded constant."""
    from mini_iree.compiler.interpreter import run

    source = tmp_path / "w.mlir"
    source.write_text(CONST_WEIGHT)
    hoisted = _opt(source, "-p", PASS)
    x = np.random.default_rng(1).standard_normal((7, 3)).astype(np.float32)
    w = np.array([[1.0, -2.0, 3.0, 0.5, 4.0], [0.0, 1.5, -1.0, 2.0, 3.0], [2.5, 1.0, 0.25, -3.0, 1.0]], np.float32)
    np.testing.assert_allclose(run(hoisted, "const_weight_matmul", x)[0], x @ w, rtol=1e-6)


def test_analysis_marks_const_exprs():
    """The analysis on its own: constants and what derives from them only."""
    from mini_iree.compiler.analysis.const_expr import ConstExprAnalysis, ConstExprHoistingPolicy, Outcome
    from mini_iree.compiler.interpreter import parse_module_text

    module = parse_module_text(CONST_EXPR_CHAIN, keep_names=True)
    analysis = ConstExprAnalysis(module)
    policy = ConstExprHoistingPolicy(analysis, 1 << 20)
    by_name = {r.name_hint: r for op in module.walk() for r in op.results if r.name_hint}
    for name in ("w", "e", "wt", "rhs", "zero", "o", "f"):
        assert analysis.is_const_expr_value(by_name[name]), name
    for name in ("u", "m", "r"):
        assert not analysis.is_const_expr_value(by_name[name]), name
    decisions = {name: policy.outcome(analysis.lookup(by_name[name])) for name in ("w", "wt", "rhs")}
    assert decisions == {
        "w": Outcome.DISABLE_HOIST,  # a root
        "wt": Outcome.DISABLE_HOIST,  # a bit-extend, and only feeds the encode
        "rhs": Outcome.ENABLE_HOIST,  # escapes into the dispatch region
    }


def test_lit_cases_keep_results():
    """Every case of the FileCheck test runs the same before and after the pass."""
    lit_cases = Path(__file__).parent / "hoist_into_globals.mlir"
    result = run_opt(
        [str(lit_cases), "-p", PASS, "--split-input-file", "--verify-each-with-interpreter", "--interpreter-dynamic-size=3"]
    )
    assert result.returncode == 0, result.stderr


def test_second_run_changes_nothing():
    """Hoisted loads are loads of immutable globals: constants already, never hoisted again."""
    walkthrough = require_reference() / "seed-walkthrough" / "07-hoist-into-globals.before.mlir"
    assert _opt(walkthrough, "-p", f"{PASS},{PASS}") == _opt(walkthrough, "-p", PASS)
