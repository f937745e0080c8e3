"""A convolution without `strides`/`dilations` computes what one with `dense<1>` computes."""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import run

CONV = """func.func @conv(%in: tensor<1x8x7x3xf32>, %f: tensor<3x2x3x4xf32>) -> tensor<1x6x6x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x6x6x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %2 = linalg.conv_2d_nhwc_hwcf ATTRS ins(%in, %f : tensor<1x8x7x3xf32>, tensor<3x2x3x4xf32>) outs(%1 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %2 : tensor<1x6x6x4xf32>
}
"""


def _reference(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    kh, kw = w.shape[:2]
    out = np.zeros((1, x.shape[1] - kh + 1, x.shape[2] - kw + 1, w.shape[3]), np.float32)
    for i in range(kh):
        for j in range(kw):
            out += np.einsum("nhwc,cf->nhwf", x[:, i : i + out.shape[1], j : j + out.shape[2]], w[i, j])
    return out


@pytest.mark.parametrize(
    "attrs", ["", "{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}"], ids=["default", "explicit"]
)
def test_conv_strides_and_dilations_default_to_one(attrs):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 8, 7, 3)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 4)).astype(np.float32)
    (result,) = run(CONV.replace("ATTRS ", attrs + " " if attrs else ""), "conv", x, w)
    np.testing.assert_allclose(result, _reference(x, w), rtol=1e-5, atol=1e-5)
