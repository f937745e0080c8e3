"""linalg.map run by the interpreter, against numpy: short and long forms, tensors and memrefs."""

from __future__ import annotations

import numpy as np

from mini_iree.compiler.interpreter import run

RNG = np.random.default_rng(7)

MAPS = """
func.func @f(%a: tensor<3x?xf32>, %b: tensor<3x?xf32>) -> (tensor<3x?xf32>, tensor<3x?xf32>) {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c1 : tensor<3x?xf32>
  %e = tensor.empty(%n) : tensor<3x?xf32>
  %abs = linalg.map { math.absf } ins(%a : tensor<3x?xf32>) outs(%e : tensor<3x?xf32>)
  %fma = linalg.map ins(%a, %b : tensor<3x?xf32>, tensor<3x?xf32>) outs(%abs : tensor<3x?xf32>)
    (%x: f32, %y: f32, %acc: f32) {
      %0 = arith.mulf %x, %y : f32
      %1 = arith.addf %0, %acc : f32
      linalg.yield %1 : f32
    }
  return %abs, %fma : tensor<3x?xf32>, tensor<3x?xf32>
}"""


def test_map_short_and_long_forms_on_tensors():
    a = RNG.standard_normal((3, 5)).astype(np.float32)
    b = RNG.standard_normal((3, 5)).astype(np.float32)
    absolute, fma = run(MAPS, "f", a, b)
    np.testing.assert_array_equal(absolute, np.abs(a))
    # The long form reads the init (here the first map's result) through its last argument.
    np.testing.assert_allclose(fma, a * b + np.abs(a), rtol=1e-6)


def test_map_writes_a_memref_init_in_place():
    text = """
func.func @g(%a: memref<4xi32>, %b: memref<4xi32>) -> memref<4xi32> {
  %out = memref.alloc() : memref<4xi32>
  linalg.map { arith.subi } ins(%a, %b : memref<4xi32>, memref<4xi32>) outs(%out : memref<4xi32>)
  return %out : memref<4xi32>
}"""
    a = np.array([5, 7, -1, 0], dtype=np.int32)
    b = np.array([1, 9, 4, 0], dtype=np.int32)
    (out,) = run(text, "g", a, b)
    np.testing.assert_array_equal(out, a - b)
