"""linalg ops against numpy formulas: contractions, generic, relayouts, named ops."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import reference_missing

from mini_iree.compiler.interpreter import InterpreterError, run

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO.parent / "shared" / "reference"
RNG = np.random.default_rng(1)

MATMUL = """
func.func @mm(%a: tensor<?x?x{lt}>, %b: tensor<?x?x{rt}>) -> tensor<?x?x{ot}> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?x{lt}>
  %n = tensor.dim %b, %c1 : tensor<?x?x{rt}>
  %zero = arith.constant {zero} : {ot}
  %e = tensor.empty(%m, %n) : tensor<?x?x{ot}>
  %f = linalg.fill ins(%zero : {ot}) outs(%e : tensor<?x?x{ot}>) -> tensor<?x?x{ot}>
  %r = linalg.matmul ins(%a, %b : tensor<?x?x{lt}>, tensor<?x?x{rt}>) outs(%f : tensor<?x?x{ot}>) -> tensor<?x?x{ot}>
  return %r : tensor<?x?x{ot}>
}}"""


@pytest.mark.parametrize("m, k, n", [(5, 7, 3), (1, 1, 1), (0, 4, 3), (4, 0, 3), (33, 17, 1)])
def test_matmul_f32_dynamic_shapes(m, k, n):
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    (c,) = run(MATMUL.format(lt="f32", rt="f32", ot="f32", zero="0.0"), "mm", a, b)
    assert c.shape == (m, n) and c.dtype == np.float32
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


def test_matmul_i8_i8_i32_is_exact():
    a = RNG.integers(-128, 128, (37, 300)).astype(np.int8)
    b = RNG.integers(-128, 128, (300, 29)).astype(np.int8)
    (c,) = run(MATMUL.format(lt="i8", rt="i8", ot="i32", zero="0"), "mm", a, b)
    assert c.dtype == np.int32
    assert (c == a.astype(np.int64) @ b.astype(np.int64)).all()


def test_matmul_i32_accumulation_wraps():
    a = np.full((2, 4), 2**30, np.int32)
    b = np.full((4, 2), 3, np.int32)
    (c,) = run(MATMUL.format(lt="i32", rt="i32", ot="i32", zero="0"), "mm", a, b)
    exact = 4 * 3 * 2**30
    assert (c == ((exact + 2**31) % 2**32) - 2**31).all()


def test_matmul_f16_inputs_f32_accumulator():
    a = RNG.standard_normal((8, 16)).astype(np.float16)
    b = RNG.standard_normal((16, 4)).astype(np.float16)
    (c,) = run(MATMUL.format(lt="f16", rt="f16", ot="f32", zero="0.0"), "mm", a, b)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-5)


def test_matmul_indexing_maps_transposed_rhs_and_batch_matmul_matvec_vecmat():
    text = """
func.func @f(%a: tensor<4x6xf32>, %bt: tensor<5x6xf32>, %acc: tensor<4x5xf32>, %x: tensor<3x4x6xf32>, %y: tensor<3x6x5xf32>, %bacc: tensor<3x4x5xf32>, %v: tensor<6xf32>, %w: tensor<4xf32>, %vacc: tensor<4xf32>, %uacc: tensor<6xf32>) -> (tensor<4x5xf32>, tensor<3x4x5xf32>, tensor<4xf32>, tensor<6xf32>) {
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %bt : tensor<4x6xf32>, tensor<5x6xf32>) outs(%acc : tensor<4x5xf32>) -> tensor<4x5xf32>
  %1 = linalg.batch_matmul ins(%x, %y : tensor<3x4x6xf32>, tensor<3x6x5xf32>) outs(%bacc : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %2 = linalg.matvec ins(%a, %v : tensor<4x6xf32>, tensor<6xf32>) outs(%vacc : tensor<4xf32>) -> tensor<4xf32>
  %3 = linalg.vecmat ins(%w, %a : tensor<4xf32>, tensor<4x6xf32>) outs(%uacc : tensor<6xf32>) -> tensor<6xf32>
  return %0, %1, %2, %3 : tensor<4x5xf32>, tensor<3x4x5xf32>, tensor<4xf32>, tensor<6xf32>
}"""
    f = lambda *s: RNG.standard_normal(s).astype(np.float32)  # noqa: E731
    a, bt, acc, x, y, bacc, v, w, vacc, uacc = f(4, 6), f(5, 6), f(4, 5), f(3, 4, 6), f(3, 6, 5), f(3, 4, 5), f(6), f(4), f(4), f(6)
    r0, r1, r2, r3 = run(text, "f", a, bt, acc, x, y, bacc, v, w, vacc, uacc)
    np.testing.assert_allclose(r0, acc + a @ bt.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(r1, bacc + x @ y, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(r2, vacc + a @ v, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(r3, uacc + w @ a, rtol=1e-5, atol=1e-5)


def pack_ref(x, tiles, pad=0.0):
    """Pack a 2-D array into (M1, N1, m0, n0) tiles with padding: an independent formula."""
    m0, n0 = tiles
    m1, n1 = -(-x.shape[0] // m0), -(-x.shape[1] // n0)
    padded = np.full((m1 * m0, n1 * n0), pad, x.dtype)
    padded[: x.shape[0], : x.shape[1]] = x
    out = np.empty((m1, n1, m0, n0), x.dtype)
    for i in range(m1):
        for j in range(n1):
            out[i, j] = padded[i * m0 : (i + 1) * m0, j * n0 : (j + 1) * n0]
    return out


PACKED_MATMUL = """
func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %k = tensor.dim %a, %c1 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %m1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%m]
  %k1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 4)>()[%k]
  %n1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%n]
  %ea = tensor.empty(%m1, %k1) : tensor<?x?x8x4xf32>
  %pa = linalg.pack %a padding_value(%zero : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %ea : tensor<?x?xf32> -> tensor<?x?x8x4xf32>
  %eb = tensor.empty(%n1, %k1) : tensor<?x?x8x4xf32>
  %pb = linalg.pack %b padding_value(%zero : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 4] into %eb : tensor<?x?xf32> -> tensor<?x?x8x4xf32>
  %ec = tensor.empty(%m1, %n1) : tensor<?x?x8x8xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
  %mm = linalg.mmt4d ins(%pa, %pb : tensor<?x?x8x4xf32>, tensor<?x?x8x4xf32>) outs(%fc : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %u = linalg.unpack %mm outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<?x?x8x8xf32> -> tensor<?x?xf32>
  return %u : tensor<?x?xf32>
}
func.func @pack_only(%a: tensor<?x?xf32>) -> tensor<?x?x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %k = tensor.dim %a, %c1 : tensor<?x?xf32>
  %m1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%m]
  %k1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 4)>()[%k]
  %ea = tensor.empty(%m1, %k1) : tensor<?x?x8x4xf32>
  %pa = linalg.pack %a padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %ea : tensor<?x?xf32> -> tensor<?x?x8x4xf32>
  return %pa : tensor<?x?x8x4xf32>
}"""


@pytest.mark.parametrize("m, k, n", [(17, 9, 13), (8, 4, 8), (1, 1, 1), (0, 5, 3)])
def test_pack_mmt4d_unpack_equals_matmul(m, k, n):
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    (c,) = run(PACKED_MATMUL, "f", a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    (p,) = run(PACKED_MATMUL, "pack_only", a)
    assert (p == pack_ref(a, (8, 4), -1.0)).all()


def test_batch_mmt4d():
    text = """
func.func @f(%a: tensor<2x3x5x4x2xf32>, %b: tensor<2x6x5x8x2xf32>, %c: tensor<2x3x6x4x8xf32>) -> tensor<2x3x6x4x8xf32> {
  %0 = linalg.batch_mmt4d ins(%a, %b : tensor<2x3x5x4x2xf32>, tensor<2x6x5x8x2xf32>) outs(%c : tensor<2x3x6x4x8xf32>) -> tensor<2x3x6x4x8xf32>
  return %0 : tensor<2x3x6x4x8xf32>
}"""
    a = RNG.standard_normal((2, 3, 5, 4, 2)).astype(np.float32)
    b = RNG.standard_normal((2, 6, 5, 8, 2)).astype(np.float32)
    c = RNG.standard_normal((2, 3, 6, 4, 8)).astype(np.float32)
    (r,) = run(text, "f", a, b, c)
    expected = c + np.einsum("bmkxz,bnkyz->bmnxy", a, b)
    np.testing.assert_allclose(r, expected, rtol=1e-5, atol=1e-5)


def test_unpack_slices_away_padding_with_outer_perm():
    text = """
func.func @f(%p: tensor<2x3x4x2xf32>) -> tensor<5x7xf32> {
  %e = tensor.empty() : tensor<5x7xf32>
  %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [4, 2] into %e : tensor<2x3x4x2xf32> -> tensor<5x7xf32>
  return %u : tensor<5x7xf32>
}"""
    p = RNG.standard_normal((2, 3, 4, 2)).astype(np.float32)
    (u,) = run(text, "f", p)
    # p[j1, i1, j0, i0] holds element (i1 * 2 + i0, j1 * 4 + j0) of the padded 6x8 tensor.
    full = np.einsum("abcd->bdac", p).reshape(6, 8)
    assert (u == full[:5, :7]).all()


GENERIC = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @bias_relu(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #t], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @row_sum_argmax(%a: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xi32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  %i0 = arith.constant 0 : i32
  %e = tensor.empty(%m) : tensor<?xf32>
  %ei = tensor.empty(%m) : tensor<?xi32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %i00 = linalg.fill ins(%i0 : i32) outs(%ei : tensor<?xi32>) -> tensor<?xi32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<?x?xf32>) outs(%s0 : tensor<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %am:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<?x?xf32>) outs(%m0, %i00 : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%x: f32, %best: f32, %arg: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %x, %best : f32
    %nb = arith.select %gt, %x, %best : f32
    %na = arith.select %gt, %ji, %arg : i32
    linalg.yield %nb, %na : f32, i32
  } -> tensor<?xf32>, tensor<?xi32>
  return %sum, %am#1, %am#0 : tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
}
func.func @generic_contraction(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%c : tensor<?x?xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extui %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}
func.func @shifted(%a: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%out : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""


@pytest.mark.parametrize("m, n", [(4, 6), (1, 1), (0, 3), (3, 0)])
def test_generic_parallel_broadcast_and_transposed_output(m, n):
    a = RNG.standard_normal((m, n)).astype(np.float32)
    b = RNG.standard_normal(n).astype(np.float32)
    (r,) = run(GENERIC, "bias_relu", a, b)
    assert (r == np.maximum(a + b, 0).T).all()


@pytest.mark.parametrize("m, n", [(5, 9), (1, 1), (3, 0)])
def test_generic_reductions_sum_and_argmax(m, n):
    a = RNG.standard_normal((m, n)).astype(np.float32)
    s, arg, best = run(GENERIC, "row_sum_argmax", a)
    np.testing.assert_allclose(s, a.sum(axis=1), rtol=1e-5, atol=1e-6)
    if n:
        assert (arg == a.argmax(axis=1)).all() and (best == a.max(axis=1)).all()
    else:
        assert (arg == 0).all()


def test_generic_contraction_with_transposed_lhs_is_exact():
    a = RNG.integers(-128, 128, (50, 7)).astype(np.int8)  # (k, m)
    b = RNG.integers(-128, 128, (9, 50)).astype(np.int8)  # (n, k)
    c = RNG.integers(-1000, 1000, (7, 9)).astype(np.int32)
    (r,) = run(GENERIC, "generic_contraction", a, b, c)
    expected = c + a.astype(np.uint8).astype(np.int64).T @ b.astype(np.int64).T
    assert (r == expected).all()


def test_generic_non_permutation_map_and_out_of_bounds():
    a = np.arange(10, dtype=np.float32)
    (r,) = run(GENERIC, "shifted", a, np.zeros(8, np.float32))
    assert (r == a[2:]).all()
    with pytest.raises(InterpreterError, match="outside 0..9"):
        run(GENERIC, "shifted", a, np.zeros(9, np.float32))


def test_named_transpose_broadcast_reduce_copy_elementwise():
    text = """
func.func @f(%a: tensor<2x3x4xf32>, %v: tensor<3xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x5xf32>, tensor<2x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %e0 = tensor.empty() : tensor<4x2x3xf32>
  %t = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%e0 : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  %e1 = tensor.empty() : tensor<2x3x5xf32>
  %b = linalg.broadcast ins(%v : tensor<3xf32>) outs(%e1 : tensor<2x3x5xf32>) dimensions = [0, 2]
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.reduce ins(%a : tensor<2x3x4xf32>) outs(%f : tensor<2x4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<2x3x4xf32>
  %c = linalg.copy ins(%a : tensor<2x3x4xf32>) outs(%e3 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %x = linalg.exp ins(%a : tensor<2x3x4xf32>) outs(%e3 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %t, %b, %r, %c, %x : tensor<4x2x3xf32>, tensor<2x3x5xf32>, tensor<2x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}"""
    a = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    v = RNG.standard_normal(3).astype(np.float32)
    t, b, r, c, x = run(text, "f", a, v)
    assert (t == a.transpose(2, 0, 1)).all()
    assert (b == np.broadcast_to(v[None, :, None], (2, 3, 5))).all()
    np.testing.assert_allclose(r, a.sum(axis=1), rtol=1e-6)
    assert (c == a).all()
    np.testing.assert_allclose(x, np.exp(a), rtol=1e-6)


def test_example_matmul_equals_a_at_b():
    text = (REPO / "examples" / "matmul.mlir").read_text()
    a = RNG.standard_normal((31, 47)).astype(np.float32)
    b = RNG.standard_normal((47, 18)).astype(np.float32)
    (c,) = run(text, "matmul_f32f32f32", a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not REFERENCE.exists(), reason=reference_missing("reference dumps", REFERENCE))
def test_reference_inputs_that_use_upstream_ops_only():
    dyn = (REFERENCE / "iree-3.13" / "dynamic-matmul" / "input.mlir").read_text()
    a = RNG.standard_normal((13, 21)).astype(np.float32)
    b = RNG.standard_normal((21, 6)).astype(np.float32)
    (c,) = run(dyn, "matmul_f32f32f32", a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)

    ew = (REFERENCE / "iree-3.13" / "elementwise-producer-consumer" / "input.mlir").read_text()
    bk = RNG.standard_normal(21).astype(np.float32)
    bn = RNG.standard_normal(6).astype(np.float32)
    (c,) = run(ew, "matmul_ew_both", a, bk, b, bn)
    np.testing.assert_allclose(c, np.maximum((a + bk) @ b + bn, 0), rtol=1e-5, atol=1e-5)


def test_body_that_cannot_be_vectorized_falls_back_with_a_warning():
    text = """
func.func @f(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %zero : f32
    %v = scf.if %p -> (f32) {
      scf.yield %x : f32
    } else {
      scf.yield %zero : f32
    }
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}"""
    a = np.array([-1, 2, -3, 4], np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (r,) = run(text, "f", a, np.zeros(4, np.float32))
    assert (r == np.maximum(a, 0)).all()
    assert any("point by point" in str(w.message) for w in caught)


@pytest.mark.parametrize("shape", [(17, 9), (8, 4), (1, 1), (0, 5)])
@pytest.mark.parametrize("inner_dims_pos, tiles, outer_perm", [([0, 1], [8, 4], [0, 1]), ([1, 0], [8, 4], [1, 0]), ([1], [16], [1, 0])])
def test_pack_agrees_with_the_layout_algebra(shape, inner_dims_pos, tiles, outer_perm):
    """The interpreter's pack/unpack and the compiler's Relayout describe the same layout."""
    from mini_iree.compiler.interpreter.linalg_ops import pack, unpack
    from mini_iree.compiler.layout import encoding_relayout, parse_encoding_info

    info = parse_encoding_info(
        f"{{innerDimsPos = {inner_dims_pos}, innerTileSizes = {tiles}, outerDimsPerm = {outer_perm}}}"
    )
    relayout = encoding_relayout(info, shape)
    x = RNG.standard_normal(shape).astype(np.float32)
    packed = pack(x, inner_dims_pos, tiles, outer_perm, 0.0)
    assert (packed == relayout.pack(x, 0.0)).all()
    assert (unpack(packed, inner_dims_pos, tiles, outer_perm, shape) == x).all()


REDUCTIONS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @f(%a: tensor<?x?xi8>, %s0: tensor<?xi8>, %m0: tensor<?xi8>) -> (tensor<?xi8>, tensor<?xi8>) {
  %r:2 = linalg.generic {indexing_maps = [#id, #col, #col], iterator_types = ["reduction", "parallel"]}
      ins(%a : tensor<?x?xi8>) outs(%s0, %m0 : tensor<?xi8>, tensor<?xi8>) {
  ^bb0(%x: i8, %s: i8, %m: i8):
    %two = arith.constant 2 : i8
    %x2 = arith.muli %x, %two : i8
    %ns = arith.addi %s, %x2 : i8
    %nm = arith.maxui %x, %m : i8
    linalg.yield %ns, %nm : i8, i8
  } -> tensor<?xi8>, tensor<?xi8>
  return %r#0, %r#1 : tensor<?xi8>, tensor<?xi8>
}"""


@pytest.mark.parametrize("rows", [1000, 1, 0])
def test_generic_integer_reductions_wrap_and_read_unsigned(rows):
    a = RNG.integers(-128, 128, (rows, 6)).astype(np.int8)
    s0 = RNG.integers(-128, 128, 6).astype(np.int8)
    m0 = RNG.integers(-128, 128, 6).astype(np.int8)
    s, m = run(REDUCTIONS, "f", a, s0, m0)
    expected_sum = (s0.astype(np.int64) + 2 * a.astype(np.int64).sum(axis=0)) % 256
    assert (s.astype(np.uint8) == expected_sum.astype(np.uint8)).all()
    ua = a.view(np.uint8)
    expected_max = np.maximum(m0.view(np.uint8), ua.max(axis=0) if rows else 0)
    assert (m.view(np.uint8) == expected_max).all()
