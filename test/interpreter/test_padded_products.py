"""Contractions of padded packs computed from the packs' sources (``padded_products.py``).

The pipeline's output pads A and B into tiles; the ``mmt4d`` then multiplies
either padded copies of the sources (laid out as the general path's copies of
the tiles) or, for large enough products whose padding is not in the
contracted dimension, the sources where they lie. Both must give the general
path's bits, which these tests compare with the relayout records turned off,
for the whole program and, for the pad rows and columns a program never shows,
for the product matrices themselves (infinities and NaNs included).
"""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import padded_products
from mini_iree.compiler.interpreter.padded_products import PaddedOperand, PaddedProduct, _Form, _Matrix, _padded_copy

from test_relayout_origins import AVX2, AVX512, EXAMPLE, _count_padded, _data_tiling, _inputs, _origins_off, _results

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("target", [AVX2, AVX512])
def test_large_padded_products_multiply_the_sources_in_place_with_the_general_paths_bits(monkeypatch, tmp_path, target):
    text = _data_tiling(tmp_path, EXAMPLE.read_text(), target)
    # (M, K, N): padding in M and N, in M only, in N only; each shape called five times, so that
    # later calls are replayed (replay.py) and replay the product in place too.
    shapes = [(255, 1023, 513)] * 5 + [(127, 700, 512)] * 5 + [(256, 300, 1001)] * 5
    inputs = _inputs(shapes)
    made = _count_padded(monkeypatch)
    fast = _results(text, inputs)
    assert made and all(made), "every product multiplies the sources in place"
    _origins_off(monkeypatch)
    general = _results(text, inputs)
    for (a, b), got, want in zip(inputs, fast, general):
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
        np.testing.assert_allclose(got, a @ b, rtol=1e-3, atol=1e-3)


def test_small_padded_products_probe_too_when_asked_and_keep_the_bits(monkeypatch, tmp_path):
    """Small products, where BLAS's small-matrix kernels sum in another order per layout, give the
    general path's bits whatever the probe finds."""
    monkeypatch.setattr(padded_products, "IN_PLACE_MIN_BYTES", 0)
    monkeypatch.setattr(padded_products, "_SAME_BITS", {})
    text = _data_tiling(tmp_path, EXAMPLE.read_text(), AVX2)
    shapes = [(13, 7, 10), (50, 33, 64), (64, 33, 50), (1, 9, 5), (100, 100, 100), (300, 40, 17)]
    inputs = _inputs(shapes)
    fast = _results(text, inputs)
    assert padded_products._SAME_BITS, "the geometries were probed"
    _origins_off(monkeypatch)
    general = _results(text, inputs)
    for got, want in zip(fast, general):
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


def _forms(m: int, k: int, n: int, rows: int, cols: int, transposed_rhs: bool) -> tuple[_Form, _Form]:
    lhs = _Form([0, 2], [0], [2], (rows, k), False, False, (m, k), "C")
    rhs = _Form([2, 1], [2], [1], (k, cols), False, transposed_rhs, (k, n), "C")
    return lhs, rhs


def _reference(lhs: _Matrix, rhs: _Matrix) -> np.ndarray:
    return np.matmul(_padded_copy(lhs, None), _padded_copy(rhs, None))


@pytest.mark.filterwarnings("ignore:invalid value encountered in matmul")
@pytest.mark.parametrize("transposed_rhs", [False, True])
def test_pad_rows_and_columns_are_the_general_paths_with_infinities_and_nans(transposed_rhs):
    m, k, n, rows, cols = 255, 300, 513, 256, 520
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    a[7, 3] = np.inf  # a NaN in pad column entries of row 7 (inf * 0)
    b[5, 40] = np.nan  # and in the pad row's column 40
    b[9, 41] = -np.inf
    zero = np.float32(0)
    lhs = _Matrix(a, (rows, k), zero, False)
    rhs = _Matrix(b, (k, cols), zero, transposed_rhs)
    got = padded_products._source_product(lhs, rhs, np.empty((rows, cols), np.float32))
    want = _reference(lhs, rhs)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    assert np.isnan(got[m:, 40:42]).all() and np.isnan(got[7, n:]).all()
    finite = ~np.isnan(want)
    np.testing.assert_array_equal(got.view(np.uint32)[finite], want.view(np.uint32)[finite])  # +0.0, never -0.0


def test_a_geometry_whose_bits_differ_takes_the_padded_copies(monkeypatch):
    monkeypatch.setattr(padded_products, "_SAME_BITS", {})
    real = padded_products._source_product

    def off_by_one_ulp(lhs, rhs, out):
        real(lhs, rhs, out)
        out[3, 4] = np.nextafter(out[3, 4], np.inf)  # as a BLAS summing one element in another order
        return out

    monkeypatch.setattr(padded_products, "_source_product", off_by_one_ulp)
    lhs, rhs = _forms(255, 300, 513, 256, 520, True)
    assert not padded_products._same_bits(lhs, rhs, np.dtype(np.float32))
    product = PaddedProduct(lhs, rhs, [0, 1], [0, 1], [256, 520, 300], False)
    a = RNG.standard_normal((255, 300)).astype(np.float32)
    b = RNG.standard_normal((300, 513)).astype(np.float32)
    got = product(PaddedOperand(a, None, np.float32(0), (), ()), PaddedOperand(b, None, np.float32(0), (), ()), None)
    want = _reference(_Matrix(a, (256, 300), np.float32(0), False), _Matrix(b, (300, 520), np.float32(0), True))
    np.testing.assert_array_equal(np.asarray(got).view(np.uint32), want.view(np.uint32))


def test_a_nonzero_or_negative_zero_pad_takes_the_padded_copies(monkeypatch):
    lhs, rhs = _forms(255, 300, 513, 256, 520, False)
    product = PaddedProduct(lhs, rhs, [0, 1], [0, 1], [256, 520, 300], True)
    used: list = []
    real = padded_products._source_product
    monkeypatch.setattr(padded_products, "_source_product", lambda *args: used.append(1) or real(*args))
    a = RNG.standard_normal((255, 300)).astype(np.float32)
    b = RNG.standard_normal((300, 513)).astype(np.float32)
    for pad in (np.float32(1.5), np.float32(-0.0)):
        got = product(PaddedOperand(a, None, pad, (), ()), PaddedOperand(b, None, np.float32(0), (), ()), None)
        want = _reference(_Matrix(a, (256, 300), pad, False), _Matrix(b, (300, 520), np.float32(0), False))
        np.testing.assert_array_equal(np.asarray(got).view(np.uint32), want.view(np.uint32))
    assert not used
    product(PaddedOperand(a, None, np.float32(0), (), ()), PaddedOperand(b, None, np.float32(0), (), ()), None)
    assert used


TRANSPOSED_B = """
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_f32f32f32(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xf32>
  %n = tensor.dim %rhs, %c0 : tensor<?x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%1 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
"""


def test_a_transposed_source_is_multiplied_in_place_too(monkeypatch, tmp_path):
    """B given as N x K: the pack reads it transposed, and BLAS takes it as the transpose it is."""
    text = _data_tiling(tmp_path, TRANSPOSED_B, AVX2)
    inputs = [(a, np.ascontiguousarray(b.T)) for a, b in _inputs([(255, 1023, 513)] * 4)]
    made = _count_padded(monkeypatch)
    fast = _results(text, inputs)
    assert made and all(made)
    _origins_off(monkeypatch)
    general = _results(text, inputs)
    for (a, bt), got, want in zip(inputs, fast, general):
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
        np.testing.assert_allclose(got, a @ bt.T, rtol=1e-3, atol=1e-3)
