"""Inputs the fuzzers found, minimized (the rest are in test/test_diagnostics.py and test/tools/)."""

from __future__ import annotations

import sys

import pytest
from conftest import hang_guard, run_opt


def test_hoist_into_globals_with_an_unnamed_nested_module(tmp_path):
    # A nested `module` is a symbol op without a name; collecting symbol names crashed on it.
    path = tmp_path / "nested.mlir"
    path.write_text("util.func public @empty() {\n  util.return\n}\nmodule {\n}\n")
    result = run_opt([str(path), "-p", "iree-util-hoist-into-globals"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("module {") == 2


def test_block_argument_locations_round_trip(tmp_path):
    # --mlir-print-debuginfo prints `%arg0: index loc(...)`; a custom op's argument list must read it back.
    text = (
        "module {\n"
        "  stream.executable private @ex {\n"
        '    stream.executable.export public @fn workgroups(%arg0: index loc("x.mlir":3:4)) -> (index, index, index) {\n'
        '      stream.return %arg0, %arg0, %arg0 : index, index, index loc("x.mlir":4:5)\n'
        '    } loc("x.mlir":2:3)\n'
        '  } loc("x.mlir":1:1)\n'
        '} loc("x.mlir":1:1)\n'
    )
    path = tmp_path / "args.mlir"
    path.write_text(text)
    result = run_opt([str(path), "--mlir-print-debuginfo", "--mlir-print-local-scope"])
    assert result.returncode == 0, result.stderr
    assert result.stdout == text
    # With aliases too: the argument's location in full, the op locations by alias after the module.
    aliased = run_opt([str(path), "--mlir-print-debuginfo"])
    assert 'workgroups(%arg0: index loc("x.mlir":3:4))' in aliased.stdout
    again = tmp_path / "again.mlir"
    again.write_text(aliased.stdout)
    assert run_opt([str(again), "--mlir-print-debuginfo"]).stdout == aliased.stdout


def test_non_ascii_string_in_a_dialect_attribute_round_trips(tmp_path):
    # The printer escapes non-ASCII bytes (`\EF\BB\BF`); xDSL lexed such a literal as bytes,
    # which an attribute's own parser (parse_str_literal) refused.
    path = tmp_path / "bom.mlir"
    path.write_bytes('func.func @f() attributes {a = #rocm.builtin.tuning_module<"x\ufeffy">} {\n  return\n}\n'.encode())
    first = run_opt([str(path)])
    assert first.returncode == 0, first.stderr
    assert '"x\\EF\\BB\\BFy"' in first.stdout
    again = tmp_path / "again.mlir"
    again.write_text(first.stdout)
    second = run_opt([str(again)])
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout


def test_empty_reduce_body_round_trips(tmp_path):
    # The arguments are printed before the region (`(%x: f32, %y: f32) {`); an empty
    # body also printed `^bb0(%x: f32, %y: f32):`, which the parser refuses there.
    path = tmp_path / "reduce.mlir"
    path.write_text(
        "func.func @f(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [1]\n"
        "    (%x: f32, %y: f32) {\n"
        "    }\n"
        "  return %0 : tensor<4xf32>\n"
        "}\n"
    )
    first = run_opt([str(path)])
    assert first.returncode == 0, first.stderr
    assert "^bb0" not in first.stdout
    again = tmp_path / "again.mlir"
    again.write_text(first.stdout)
    second = run_opt([str(again)])
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout


SELF_USES = {
    "iree-dispatch-creation-form-dispatch-regions": (
        "func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
        "  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) -> tensor<4x4xf32>\n"
        "  return %0 : tensor<4x4xf32>\n"
        "}\n"
    ),
    "iree-util-hoist-into-globals": (
        "util.func public @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = flow.dispatch.region -> (tensor<4xf32>) {\n"
        "    %1 = arith.addf %0, %a : tensor<4xf32>\n"
        "    flow.return %1 : tensor<4xf32>\n"
        "  }\n"
        "  util.return %0 : tensor<4xf32>\n"
        "}\n"
    ),
}


@pytest.mark.parametrize("pass_name", sorted(SELF_USES))
def test_value_using_itself_is_rejected_before_the_pass(tmp_path, pass_name):
    # Passes that follow producer chains looped forever on such a cycle; MLIR's
    # verifier rejects it (the operand does not dominate its use) before any pass runs.
    path = tmp_path / "self.mlir"
    path.write_text(SELF_USES[pass_name])
    with hang_guard():
        result = run_opt([str(path), "-p", pass_name])
    assert result.returncode == 1
    assert "does not dominate this use" in result.stderr
    assert "note: operand defined here" in result.stderr


def test_verifier_walks_deep_nesting_without_recursion():
    # A program nested deeper than Python's recursion limit must get a diagnostic (or
    # none), never a RecursionError from the verifier's walk.
    from xdsl.dialects import scf
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Block, Region

    from mini_iree.compiler.ir.diagnostics import SourceLoc
    from mini_iree.compiler.ir.verifier import verify_op_tree

    inner = Block([scf.YieldOp()])
    for _ in range(3 * sys.getrecursionlimit()):
        inner = Block([scf.ExecuteRegionOp([], Region(inner)), scf.YieldOp()])
    outer = inner.first_op
    assert outer is not None
    outer.detach()
    module = ModuleOp([outer])
    verify_op_tree(module, SourceLoc("deep.mlir", 1, 1))


def test_underscore_number_value_names_survive_a_rewrite(tmp_path):
    # xDSL turns the name `%_0` into the empty name hint "", which it then refused to
    # carry over when canonicalize erased the unused constant (ValueError, an internal error).
    path = tmp_path / "names.mlir"
    path.write_text(
        "func.func @f(%_0: i32) -> i32 {\n"
        "  %_1 = arith.constant 1 : i32\n"
        "  %_2 = arith.constant 2 : i32\n"
        "  return %_0 : i32\n"
        "}\n"
    )
    result = run_opt([str(path), "-p", "canonicalize,cse"])
    assert result.returncode == 0, result.stderr
    assert "arith.constant" not in result.stdout


def test_a_value_named_as_its_op_names_it_keeps_a_numeric_suffix(tmp_path):
    # `%g_0 = util.global.load @g_0`: xDSL strips `_0` from parsed names, so the value
    # printed again as `%g`, and the next `%g` as `%g_0` (two hoisted weights of one type).
    text = (
        "module {\n"
        "  util.global private @g : index\n"
        "  util.global private @g_0 : index\n"
        "  func.func @f() -> (index, index) {\n"
        "    %g_0 = util.global.load @g_0 : index\n"
        "    %g = util.global.load @g : index\n"
        "    return %g_0, %g : index, index\n"
        "  }\n"
        "}\n"
    )
    path = tmp_path / "loads.mlir"
    path.write_text(text)
    result = run_opt([str(path)])
    assert result.returncode == 0, result.stderr
    assert result.stdout == text
