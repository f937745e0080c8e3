"""``linalg.elementwise``, ``math`` ops, MX-scaled casts and tensor ``arith.uitofp``
run by the interpreter, against numpy formulas written independently."""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import run

RNG = np.random.default_rng(3)


def elementwise(kind: str, arity: int, ty: str = "f32") -> str:
    t = f"tensor<4x8x{ty}>"
    ins = ", ".join(f"%a{k}" for k in range(arity))
    args = ", ".join(f"%a{k}: {t}" for k in range(arity))
    return f"""
func.func @f({args}) -> {t} {{
  %init = tensor.empty() : {t}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<{kind}> ins({ins} : {", ".join([t] * arity)}) outs(%init : {t}) -> {t}
  return %0 : {t}
}}"""


@pytest.mark.parametrize(
    "kind, formula",
    [
        ("exp", np.exp),
        ("abs", np.abs),
        ("floor", np.floor),
        ("negf", np.negative),
        ("reciprocal", lambda x: 1 / x),
        ("square", np.square),
        ("tanh", np.tanh),
    ],
)
def test_unary_elementwise(kind, formula):
    a = RNG.standard_normal((4, 8)).astype(np.float32)
    (got,) = run(elementwise(kind, 1), "f", a)
    np.testing.assert_allclose(got, formula(a), rtol=1e-6)


@pytest.mark.parametrize(
    "kind, formula",
    [("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("max_signed", np.maximum)],
)
def test_binary_elementwise(kind, formula):
    a, b = (RNG.standard_normal((4, 8)).astype(np.float32) for _ in range(2))
    (got,) = run(elementwise(kind, 2), "f", a, b)
    np.testing.assert_allclose(got, formula(a, b), rtol=1e-6)


def test_elementwise_with_transposed_operand():
    program = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @f(%a: tensor<4x8xf32>, %c: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %init = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<sub> indexing_maps = [#id, #tr, #id]
      ins(%a, %c : tensor<4x8xf32>, tensor<8x4xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}"""
    a = RNG.standard_normal((4, 8)).astype(np.float32)
    c = RNG.standard_normal((8, 4)).astype(np.float32)
    (got,) = run(program, "f", a, c)
    np.testing.assert_allclose(got, a - c.T, rtol=1e-6)


def test_select_elementwise():
    program = """
func.func @f(%m: tensor<16xi1>, %a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %init = tensor.empty() : tensor<16xf32>
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<select>
      ins(%m, %a, %b : tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) outs(%init : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}"""
    m = RNG.integers(0, 2, 16).astype(bool)
    a, b = (RNG.standard_normal(16).astype(np.float32) for _ in range(2))
    (got,) = run(program, "f", m, a, b)
    np.testing.assert_array_equal(got, np.where(m, a, b))


def test_math_ops_on_tensors_and_in_bodies():
    program = """
#id = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<16xf32>, %i: tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>, tensor<16xf32>) {
  %0 = math.absf %a : tensor<16xf32>
  %1 = math.absi %i : tensor<16xi32>
  %e = tensor.empty() : tensor<16xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%0 : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.rsqrt %x : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %0, %1, %2 : tensor<16xf32>, tensor<16xi32>, tensor<16xf32>
}"""
    a = RNG.standard_normal(16).astype(np.float32) + 0.1
    i = RNG.integers(-100, 100, 16).astype(np.int32)
    absf, absi, rsqrt = run(program, "f", a, i)
    np.testing.assert_array_equal(absf, np.abs(a))
    np.testing.assert_array_equal(absi, np.abs(i))
    np.testing.assert_allclose(rsqrt, 1 / np.sqrt(np.abs(a)), rtol=1e-6)


def test_scaled_casts_use_the_power_of_two_at_or_below_the_scale():
    program = """
func.func @f(%x: tensor<6xf16>, %s: tensor<6xf16>, %y: tensor<6xf32>, %t: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf16>) {
  %0 = arith.scaling_extf %x, %s : tensor<6xf16>, tensor<6xf16> to tensor<6xf32>
  %1 = arith.scaling_truncf %y, %t : tensor<6xf32>, tensor<6xf32> to tensor<6xf16>
  return %0, %1 : tensor<6xf32>, tensor<6xf16>
}"""
    x = np.array([1, -2, 3, 0.5, 7, 1.5], np.float16)
    s = np.array([2, 3, 4, 0.75, 1, 1024], np.float16)  # as f8E8M0FNU: 2, 2, 4, 0.5, 1, 1024
    y = np.array([8, 6, -12, 1, 3, 2048], np.float32)
    t = np.array([4, 5, 2, 0.3, 1, 1000], np.float32)  # 4, 4, 2, 0.25, 1, 512
    ext, trunc = run(program, "f", x, s, y, t)
    np.testing.assert_array_equal(ext, x.astype(np.float32) * np.array([2, 2, 4, 0.5, 1, 1024], np.float32))
    np.testing.assert_array_equal(trunc, (y / np.array([4, 4, 2, 0.25, 1, 512], np.float32)).astype(np.float16))


def test_uitofp_on_an_i1_tensor():
    program = """
func.func @f(%m: tensor<4x8xi1>) -> tensor<4x8xf32> {
  %0 = arith.uitofp %m : tensor<4x8xi1> to tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}"""
    m = RNG.integers(0, 2, (4, 8)).astype(bool)
    (got,) = run(program, "f", m)
    np.testing.assert_array_equal(got, m.astype(np.float32))
