"""stream.tensor.splat / fill / slice / update run on whole arrays, as numpy computes them."""

from __future__ import annotations

import numpy as np

from mini_iree.compiler.interpreter import run

PROGRAM = """
util.func public @ops(%r: !stream.resource<*>, %u: !stream.resource<*>, %f: f32)
    -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c48 = arith.constant 48 : index
  %0 = stream.tensor.splat %f : f32 -> tensor<?x3xf32>{%c3} in !stream.resource<*>{%c48}
  %1 = stream.tensor.fill %f, %r[%c1, %c1 for %c2, %c2] : f32 -> tensor<?x3xf32>{%c3} in %r as !stream.resource<*>{%c48}
  %2 = stream.tensor.slice %r[%c1, %c0 for %c1, %c2] : tensor<?x3xf32>{%c3} in !stream.resource<*>{%c48}
      -> tensor<1x2xf32> in !stream.resource<*>{%c8}
  %3 = stream.tensor.update %u, %r[%c2, %c1] : tensor<1x2xf32> in !stream.resource<*>{%c8}
      -> tensor<?x3xf32>{%c3} in %r as !stream.resource<*>{%c48}
  util.return %0, %1, %2, %3 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}
"""


def _as(resource: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod(shape))
    return np.asarray(resource)[: count * 4].view(np.float32).reshape(shape)


def test_region_ops_match_numpy():
    tensor = np.arange(12, dtype=np.float32).reshape(4, 3)[:3]  # a 3x3 tensor in a 48-byte resource
    resource = np.zeros(48, np.uint8)
    resource[: tensor.nbytes] = tensor.reshape(-1).view(np.uint8)
    update = np.array([[-1.0, -2.0]], np.float32).reshape(-1).view(np.uint8).copy()
    splat, filled, piece, updated = run(PROGRAM, "ops", resource, update, np.float32(7.5))

    np.testing.assert_array_equal(_as(splat, (3, 3)), np.full((3, 3), 7.5, np.float32))
    expected = tensor.copy()
    expected[1:3, 1:3] = 7.5
    np.testing.assert_array_equal(_as(filled, (3, 3)), expected)
    np.testing.assert_array_equal(_as(piece, (1, 2)), tensor[1:2, 0:2])
    expected = tensor.copy()
    expected[2:3, 1:3] = [[-1.0, -2.0]]
    np.testing.assert_array_equal(_as(updated, (3, 3)), expected)
    # The target itself is not changed: fill and update work on copies.
    np.testing.assert_array_equal(_as(resource, (3, 3)), tensor)
