"""``map_scatter`` bodies that regroup index digits run as strided copies: same results as evaluating the body.

Each body is one that iree-codegen-combine-layout-transformation produces (CPU
packs with padding rows, a masked unpack, the gfx942 swizzle chains), on
shapes that divide the tiles and shapes that do not. The reference is the
same op with the strided-copy plan turned off, i.e. the body evaluated on
index arrays and a fancy-indexed scatter.
"""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import codegen_ops, run

RNG = np.random.default_rng(0)


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


PACK_ROWS = """
func.func @f(%in: tensor<{M}x{K}xf32>, %out: tensor<{M1}x{K}x{T}x1xf32>) -> tensor<{M1}x{K}x{T}x1xf32> {{
  %true = arith.constant true
  %0 = iree_linalg_ext.map_scatter %in into %out {{
  ^bb0(%i: index, %j: index):
    %l = affine.linearize_index disjoint [%i, %j] by ({MP}, {K}) : index
    %d:4 = affine.delinearize_index %l into ({M1}, {T}, {K}, 1) : index, index, index, index
    iree_linalg_ext.yield %d#0, %d#2, %d#1, %d#3, %true : index, index, index, index, i1
  }} : tensor<{M}x{K}xf32> into tensor<{M1}x{K}x{T}x1xf32> -> tensor<{M1}x{K}x{T}x1xf32>
  return %0 : tensor<{M1}x{K}x{T}x1xf32>
}}"""

PACK_COLUMNS = """
func.func @f(%in: tensor<{K}x{N}xf32>, %out: tensor<{N1}x{K}x{T}x1xf32>) -> tensor<{N1}x{K}x{T}x1xf32> {{
  %true = arith.constant true
  %0 = iree_linalg_ext.map_scatter %in into %out {{
  ^bb0(%i: index, %j: index):
    %l = affine.linearize_index disjoint [%i, %j] by ({K}, {NP}) : index
    %d:4 = affine.delinearize_index %l into ({K}, 1, {N1}, {T}) : index, index, index, index
    iree_linalg_ext.yield %d#2, %d#0, %d#3, %d#1, %true : index, index, index, index, i1
  }} : tensor<{K}x{N}xf32> into tensor<{N1}x{K}x{T}x1xf32> -> tensor<{N1}x{K}x{T}x1xf32>
  return %0 : tensor<{N1}x{K}x{T}x1xf32>
}}"""

UNPACK = """
func.func @f(%in: tensor<{M1}x{N1}x{T}x{T}xf32>, %out: tensor<{M}x{N}xf32>, %m: index, %n: index) -> tensor<{M}x{N}xf32> {{
  %0 = iree_linalg_ext.map_scatter %in into %out {{
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    %l = affine.linearize_index disjoint [%a, %c, %b, %d] by ({M1}, {T}, {N1}, {T}) : index
    %r:2 = affine.delinearize_index %l into ({MP}, {NP}) : index, index
    %x = arith.cmpi ult, %r#0, %m : index
    %y = arith.cmpi ult, %r#1, %n : index
    %mask = arith.andi %x, %y : i1
    iree_linalg_ext.yield %r#0, %r#1, %mask : index, index, i1
  }} : tensor<{M1}x{N1}x{T}x{T}xf32> into tensor<{M}x{N}xf32> -> tensor<{M}x{N}xf32>
  return %0 : tensor<{M}x{N}xf32>
}}"""

# gfx942's LHS encoding: pad to 128x16 tiles, then swizzle each tile.
GPU_PACK = """
func.func @f(%in: tensor<{M}x{K}xf32>, %out: tensor<{M1}x{K1}x8x4x4x4x4xf32>) -> tensor<{M1}x{K1}x8x4x4x4x4xf32> {{
  %true = arith.constant true
  %0 = iree_linalg_ext.map_scatter %in into %out {{
  ^bb0(%i: index, %j: index):
    %l = affine.linearize_index disjoint [%i, %j] by ({MP}, {KP}) : index
    %d:4 = affine.delinearize_index %l into ({M1}, 128, {K1}, 16) : index, index, index, index
    %l2 = affine.linearize_index disjoint [%d#0, %d#2, %d#1, %d#3] by ({M1}, {K1}, 128, 16) : index
    %e:7 = affine.delinearize_index %l2 into ({M1}, {K1}, 4, 8, 4, 4, 4) : index, index, index, index, index, index, index
    iree_linalg_ext.yield %e#0, %e#1, %e#3, %e#6, %e#2, %e#4, %e#5, %true : index, index, index, index, index, index, index, i1
  }} : tensor<{M}x{K}xf32> into tensor<{M1}x{K1}x8x4x4x4x4xf32> -> tensor<{M1}x{K1}x8x4x4x4x4xf32>
  return %0 : tensor<{M1}x{K1}x8x4x4x4x4xf32>
}}"""

# gfx942's accumulator back to a plain matrix, with the bounds mask.
GPU_UNPACK = """
func.func @f(%in: tensor<{M1}x{N1}x4x8x2x4x16x4xf32>, %out: tensor<{M}x{N}xf32>, %m: index, %n: index) -> tensor<{M}x{N}xf32> {{
  %0 = iree_linalg_ext.map_scatter %in into %out {{
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: index, %a7: index):
    %l = affine.linearize_index disjoint [%a0, %a1, %a5, %a3, %a7, %a2, %a6, %a4] by ({M1}, {N1}, 4, 8, 4, 4, 16, 2) : index
    %d:4 = affine.delinearize_index %l into ({M1}, {N1}, 128, 128) : index, index, index, index
    %l2 = affine.linearize_index disjoint [%d#0, %d#2, %d#1, %d#3] by ({M1}, 128, {N1}, 128) : index
    %r:2 = affine.delinearize_index %l2 into ({MP}, {NP}) : index, index
    %x = arith.cmpi ult, %r#0, %m : index
    %y = arith.cmpi ult, %r#1, %n : index
    %mask = arith.andi %x, %y : i1
    iree_linalg_ext.yield %r#0, %r#1, %mask : index, index, i1
  }} : tensor<{M1}x{N1}x4x8x2x4x16x4xf32> into tensor<{M}x{N}xf32> -> tensor<{M}x{N}xf32>
  return %0 : tensor<{M}x{N}xf32>
}}"""

# Not a renaming of digits: a mask on the input index and an index used twice.
NOT_A_RELAYOUT = """
func.func @f(%in: tensor<6x6xf32>, %out: tensor<6x6xf32>) -> tensor<6x6xf32> {{
  %c3 = arith.constant 3 : index
  %0 = iree_linalg_ext.map_scatter %in into %out {{
  ^bb0(%i: index, %j: index):
    %mask = arith.cmpi ult, %j, %c3 : index
    iree_linalg_ext.yield %i, %i, %mask : index, index, i1
  }} : tensor<6x6xf32> into tensor<6x6xf32> -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}}"""


def _cases():
    for m, k, t in [(16, 5, 8), (13, 5, 8), (1, 3, 16), (9, 1, 8)]:
        mp = _ceil(m, t) * t
        yield "pack rows", PACK_ROWS.format(M=m, K=k, T=t, M1=mp // t, MP=mp), [(m, k), (mp // t, k, t, 1)], []
    for k, n, t in [(5, 16, 8), (5, 13, 8), (3, 1, 16)]:
        np_ = _ceil(n, t) * t
        yield "pack columns", PACK_COLUMNS.format(K=k, N=n, T=t, N1=np_ // t, NP=np_), [(k, n), (np_ // t, k, t, 1)], []
    for m, n, t in [(16, 24, 8), (13, 21, 8), (1, 5, 16), (16, 3, 16)]:
        m1, n1 = _ceil(m, t), _ceil(n, t)
        text = UNPACK.format(M=m, N=n, T=t, M1=m1, N1=n1, MP=m1 * t, NP=n1 * t)
        yield "unpack", text, [(m1, n1, t, t), (m, n)], [m, n]
    for m, k in [(128, 16), (130, 20), (5, 3)]:
        m1, k1 = _ceil(m, 128), _ceil(k, 16)
        text = GPU_PACK.format(M=m, K=k, M1=m1, K1=k1, MP=m1 * 128, KP=k1 * 16)
        yield "gpu pack", text, [(m, k), (m1, k1, 8, 4, 4, 4, 4)], []
    for m, n in [(128, 128), (130, 255), (3, 7)]:
        m1, n1 = _ceil(m, 128), _ceil(n, 128)
        text = GPU_UNPACK.format(M=m, N=n, M1=m1, N1=n1, MP=m1 * 128, NP=n1 * 128)
        yield "gpu unpack", text, [(m1, n1, 4, 8, 2, 4, 16, 4), (m, n)], [m, n]


CASES = list(_cases())


def _general_path(monkeypatch):
    monkeypatch.setattr(codegen_ops, "scatter_plan", lambda *args: None)


@pytest.mark.parametrize("name,text,shapes,scalars", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_strided_copy_matches_the_evaluated_body(monkeypatch, name, text, shapes, scalars):
    source = RNG.standard_normal(shapes[0]).astype(np.float32)
    init = RNG.standard_normal(shapes[1]).astype(np.float32)
    planned = []
    real_plan = codegen_ops.scatter_plan

    def spy(*args):
        plan = real_plan(*args)
        planned.append(plan is not None)
        return plan

    monkeypatch.setattr(codegen_ops, "scatter_plan", spy)
    (fast,) = run(text, "f", source, init, *scalars)
    assert planned == [True]
    _general_path(monkeypatch)
    (reference,) = run(text, "f", source, init, *scalars)
    np.testing.assert_array_equal(fast, reference)


def test_every_input_element_lands_once_in_a_pack():
    # Integer payloads make a misplaced or dropped element visible.
    m, k, t = 13, 5, 8
    text = PACK_ROWS.format(M=m, K=k, T=t, M1=2, MP=16).replace("f32", "i32")
    source = np.arange(m * k, dtype=np.int32).reshape(m, k)
    init = np.full((2, k, t, 1), -1, np.int32)
    (packed,) = run(text, "f", source, init)
    padded = np.full((16, k), -1, np.int32)
    padded[:m] = source
    np.testing.assert_array_equal(packed, padded.reshape(2, t, k, 1).transpose(0, 2, 1, 3))


def test_other_bodies_take_the_general_path(monkeypatch):
    source, init = RNG.standard_normal((6, 6)).astype(np.float32), np.zeros((6, 6), np.float32)
    text = NOT_A_RELAYOUT.format()
    (result,) = run(text, "f", source, init)
    _general_path(monkeypatch)
    (reference,) = run(text, "f", source, init)
    np.testing.assert_array_equal(result, reference)
