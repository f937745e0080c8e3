"""Programs that ask for more than the machine has, or compute past their types' range, as the interpreter runs them."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from mini_iree.compiler.interpreter import InterpreterError, run

# 10^11 floats of padding: 373 GiB.
HUGE_PAD = """func.func @f(%a: tensor<2xf32>) -> tensor<100000000002xf32> {
  %c0 = arith.constant 0.0 : f32
  %r = tensor.pad %a low[0] high[100000000000] {
  ^bb0(%i: index):
    tensor.yield %c0 : f32
  } : tensor<2xf32> to tensor<100000000002xf32>
  return %r : tensor<100000000002xf32>
}
"""

# 10^22 iterations: the interpreter runs them as index arrays of 10^11 lanes each.
HUGE_FORALL = """func.func @f(%m: memref<4xf32>) {
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i, %j) in (100000000000, 100000000000) {
    %k = affine.apply affine_map<(d0) -> (d0 mod 4)>(%i)
    memref.store %c1, %m[%k] : memref<4xf32>
  }
  return
}
"""

OVERFLOW = """func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf16>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<3xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<3xf32>) outs(%e : tensor<3xf16>) {
  ^bb0(%x: f32, %y: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<3xf16>
  %q = arith.divf %a, %b : tensor<3xf32>
  return %t, %q : tensor<3xf16>, tensor<3xf32>
}
"""


@pytest.mark.parametrize("program, op, args", [
    pytest.param(HUGE_PAD, "tensor.pad", lambda: [np.ones(2, np.float32)], id="tensor.pad"),
    pytest.param(HUGE_FORALL, "scf.forall", lambda: [np.zeros(4, np.float32)], id="scf.forall"),
])  # fmt: skip
def test_running_out_of_memory_is_an_error_at_the_op(program, op, args):
    with pytest.raises(InterpreterError) as caught:
        run(program, "f", *args())
    text = str(caught.value)
    assert text.startswith("<input>:3:") and f"'{op}' op needs more memory than there is (Unable to allocate" in text


def test_overflow_and_invalid_operations_give_ieee_values_without_a_warning():
    a = np.array([1e6, 0.0, 2.0], np.float32)
    b = np.array([0.0, 0.0, 4.0], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        half, quotient = run(OVERFLOW, "f", a, b)
    assert np.isposinf(half[0]) and half[2] == 2
    assert np.isposinf(quotient[0]) and np.isnan(quotient[1]) and quotient[2] == 0.5
