"""``mini-iree-opt --verify-each-with-interpreter`` catches a pass that changes results."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp
from xdsl.passes import ModulePass

from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

REPO = Path(__file__).resolve().parents[2]
MATMUL = REPO / "examples" / "matmul.mlir"


@dataclass(frozen=True)
class PerturbZeroConstantsPass(ModulePass):
    """A deliberately wrong pass: every zero constant becomes one."""

    name = "test-perturb-zero-constants"

    def apply(self, ctx, op: ModuleOp) -> None:
        for constant in op.walk():
            if not isinstance(constant, arith.ConstantOp):
                continue
            value = constant.value
            if isinstance(value, FloatAttr) and value.value.data == 0.0:
                constant.properties["value"] = FloatAttr(1.0, value.type)
            elif isinstance(value, IntegerAttr) and value.value.data == 0 and not value.type.name == "index":
                constant.properties["value"] = IntegerAttr(1, value.type)


class OptWithTestPasses(MiniIREEOptMain):
    def register_all_passes(self):
        super().register_all_passes()
        self.register_pass(PerturbZeroConstantsPass.name, lambda: PerturbZeroConstantsPass)


def run_opt(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = OptWithTestPasses(args=args).run()
    return code, out.getvalue(), err.getvalue()


def test_correct_passes_keep_results():
    code, out, err = run_opt([str(MATMUL), "-p", "cse,canonicalize", "--verify-each-with-interpreter"])
    assert code == 0, err
    assert "linalg.matmul" in out


def test_wrong_pass_is_caught_with_pass_function_and_error():
    code, out, err = run_opt(
        [str(MATMUL), "-p", "cse,test-perturb-zero-constants,canonicalize", "--verify-each-with-interpreter",
         "--interpreter-dynamic-size=5"]
    )
    assert code == 1
    assert err.startswith(f"{MATMUL}:3:1: error: pass 'test-perturb-zero-constants' changed the results of "
                          "@matmul_f32f32f32: largest error 1 in result 0")
    assert out == ""


INT_PROGRAM = """
func.func @mm(%a: tensor<?x7xi8>, %b: tensor<7x?xi8>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x7xi8>
  %n = tensor.dim %b, %c1 : tensor<7x?xi8>
  %zero = arith.constant 0 : i32
  %e = tensor.empty(%m, %n) : tensor<?x?xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<?x?xi32>) -> tensor<?x?xi32>
  %r = linalg.matmul ins(%a, %b : tensor<?x7xi8>, tensor<7x?xi8>) outs(%f : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}
"""


def test_integer_results_are_compared_exactly(tmp_path):
    path = tmp_path / "int.mlir"
    path.write_text(INT_PROGRAM)
    code, _, err = run_opt([str(path), "-p", "test-perturb-zero-constants", "--verify-each-with-interpreter",
                            "--interpreter-seed=3"])
    assert code == 1
    assert "changed the results of @mm: largest error 1 in result 0 at [" in err


def test_unrunnable_input_is_reported(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text('func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n'
                    '  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n'
                    '  return %0 : tensor<4xf32>\n}\n')
    code, _, err = run_opt([str(path), "--allow-unregistered-dialect", "--verify-each-with-interpreter"])
    assert code == 1
    assert "cannot run @f before the pipeline" in err and "'test.op' op has no interpreter implementation" in err


def test_compare_tolerance_scales_with_reduction_size():
    import numpy as np

    from mini_iree.compiler.interpreter.verify_each import compare

    want = np.array([1.0, np.nan, 100.0], np.float32)
    close = want + np.array([1e-5, 0, 0], np.float32)
    assert compare([want], [close], scale=64) is None  # 4 * 64 * 2**-23 * 100 > 1e-5
    assert "largest error" in compare([want], [want + np.float32(0.5)], scale=64)
    assert compare([np.array([1, 2], np.int32)], [np.array([1, 3], np.int32)], scale=1000).startswith("largest error 1")
    assert "shape" in compare([want], [want[:2]], scale=1)


def test_buffer_view_entry_points_are_checked(tmp_path):
    # A wrapped entry point takes !hal.buffer_view; its hal.tensor.import says the shape.
    source = (Path(__file__).resolve().parents[3] / "shared/reference/seed-walkthrough/02-set-encoding.after.mlir")
    if not source.exists():
        import pytest

        pytest.skip("needs ../shared/reference beside the checkout")
    code, _, err = run_opt([str(source), "-p", "cse", "--verify-each-with-interpreter", "--interpreter-dynamic-size=5"])
    assert code == 0, err
    code, _, err = run_opt(
        [str(source), "-p", "test-perturb-zero-constants", "--verify-each-with-interpreter", "--interpreter-dynamic-size=5"]
    )
    assert code == 1
    assert "changed the results of @matmul_f32f32f32" in err


def test_a_program_the_interpreter_cannot_run_is_a_clean_error(tmp_path):
    # i4 has no numpy type; a trip count of 10^12 would need terabytes. Neither may crash.
    cases = {
        "i4": (
            "func.func @f(%a: tensor<4xi4>) -> tensor<4xi4> {\n  return %a : tensor<4xi4>\n}\n",
            "error: cannot check @f: no numpy dtype for integer type i4",
        ),
        "forall": (
            "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = scf.forall (%i) in (1000000000000) shared_outs(%o = %a) -> (tensor<4xf32>) {\n  }\n"
            "  return %0 : tensor<4xf32>\n}\n",
            "error: cannot run @f before the pipeline: ",
        ),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / f"{name}.mlir"
        path.write_text(text)
        code, _, err = run_opt([str(path), "-p", "cse", "--verify-each-with-interpreter"])
        assert code == 1, err
        assert err.startswith(f"{path}:1:1: {message}"), err
        assert "internal error" not in err
