"""IREE 3.13's relayout folding keeps what a function stores.

Each program (the shapes of IREE's `combine_result_layout_transformation.mlir` and
`gpu_combine_layout_transformation.mlir`) runs in the interpreter before and after
the pass on the same inputs, its output buffer prefilled with a marker so that an
element nobody writes would show: reshapes folded group by group, a `tensor.pad`
folded into the map_store with low and high padding loops, packs and unpacks, the
GPU variant in the 3.13 era, and the `workgroup` scope inside an `scf.forall`.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.context import Context

from mini_iree.compiler.era import using_era
from mini_iree.compiler.interpreter import parse_module_text, run
from mini_iree.compiler.ir.diagnostics import SourceLoc
from mini_iree.compiler.ir.printer import print_module_to_string
from mini_iree.compiler.ir.verifier import verify_op_tree
from mini_iree.passes.canonicalize import CanonicalizePass
from mini_iree.passes.combine_layout_transformation import (
    CombineLayoutTransformationPass,
    CombineResultLayoutTransformationPass,
    GPUCombineLayoutTransformationPass,
)

MARKER = -7.0

COLLAPSE = """func.func @f(%source : tensor<2x4x16xf32>, %result : memref<8x16xf32>) {
  %collapse = tensor.collapse_shape %source [[0, 1], [2]] : tensor<2x4x16xf32> into tensor<8x16xf32>
  iree_codegen.store_to_buffer %collapse, %result : tensor<8x16xf32> into memref<8x16xf32>
  return
}"""

EXPAND_TRANSPOSE = """func.func @f(%source : tensor<8x16xf32>, %result : memref<16x2x4xf32>) {
  %expand = tensor.expand_shape %source [[0, 1], [2]] output_shape [2, 4, 16] : tensor<8x16xf32> into tensor<2x4x16xf32>
  %init = tensor.empty() : tensor<16x2x4xf32>
  %t = linalg.transpose ins(%expand : tensor<2x4x16xf32>) outs(%init : tensor<16x2x4xf32>) permutation = [2, 0, 1]
  iree_codegen.store_to_buffer %t, %result : tensor<16x2x4xf32> into memref<16x2x4xf32>
  return
}"""

PAD = """func.func @f(%source : tensor<12x25xf32>, %result : memref<20x32xf32>) {
  %cst = arith.constant 3.0 : f32
  %padded = tensor.pad %source low[1, 2] high[7, 5] {
  ^bb0(%arg0: index, %arg1: index):
    tensor.yield %cst : f32
  } : tensor<12x25xf32> to tensor<20x32xf32>
  iree_codegen.store_to_buffer %padded, %result : tensor<20x32xf32> into memref<20x32xf32>
  return
}"""

PAD_1D = """func.func @f(%source : tensor<250xf32>, %result : memref<256xf32>) {
  %cst = arith.constant 0.0 : f32
  %padded = tensor.pad %source low[2] high[4] {
  ^bb0(%arg0: index):
    tensor.yield %cst : f32
  } : tensor<250xf32> to tensor<256xf32>
  iree_codegen.store_to_buffer %padded, %result : tensor<256xf32> into memref<256xf32>
  return
}"""

PACK = """func.func @f(%source : tensor<250x250xf32>, %result : memref<2x2x128x128xf32>) {
  %cst = arith.constant 5.0 : f32
  %dest = tensor.empty() : tensor<2x2x128x128xf32>
  %pack = linalg.pack %source padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %dest : tensor<250x250xf32> -> tensor<2x2x128x128xf32>
  iree_codegen.store_to_buffer %pack, %result : tensor<2x2x128x128xf32> into memref<2x2x128x128xf32>
  return
}"""

UNPACK = """func.func @f(%source : tensor<2x3x8x4xf32>, %result : memref<13x10xf32>) {
  %dest = tensor.empty() : tensor<13x10xf32>
  %unpack = linalg.unpack %source outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %dest : tensor<2x3x8x4xf32> -> tensor<13x10xf32>
  iree_codegen.store_to_buffer %unpack, %result : tensor<13x10xf32> into memref<13x10xf32>
  return
}"""

WORKGROUP = """func.func @f(%2 : tensor<32xf32>, %9 : tensor<10xf32>) -> tensor<32xf32> {
  %6 = scf.forall (%arg0) = (0) to (32) step (8) shared_outs(%arg2 = %2) -> tensor<32xf32> {
    %extract = tensor.extract_slice %9 [0] [7] [1] : tensor<10xf32> to tensor<7xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extract into %arg2[%arg0] [7] [1] : tensor<7xf32> into tensor<32xf32>
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  return %6 : tensor<32xf32>
}"""


def _apply(text: str, *passes):
    module = parse_module_text(text)
    for p in passes:
        p.apply(Context(), module)
        verify_op_tree(module, SourceLoc("input.mlir", 1, 1))
    return module


def _store_results(module, inputs, result_shape):
    out = np.full(result_shape, MARKER, np.float32)
    run(module, "f", *inputs, out)
    return out


def _assert_same_store(text: str, inputs, result_shape, *passes) -> str:
    before = _store_results(parse_module_text(text), inputs, result_shape)
    combined = _apply(text, *passes)
    printed = print_module_to_string(combined)
    after = _store_results(combined, inputs, result_shape)
    np.testing.assert_array_equal(after, before)
    # Also after canonicalize, as IREE's tests run it.
    CanonicalizePass().apply(Context(), combined)
    np.testing.assert_array_equal(_store_results(combined, inputs, result_shape), before)
    return printed


def _random(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


DISPATCH = CombineResultLayoutTransformationPass(scope="dispatch")


def test_collapse_is_one_linearize_per_group():
    printed = _assert_same_store(COLLAPSE, [_random((2, 4, 16))], (8, 16), DISPATCH)
    assert re.search(r"affine\.linearize_index disjoint \[%\w+, %\w+\] by \(2, 4\)", printed)
    assert "delinearize_index" not in printed


def test_expand_then_transpose():
    printed = _assert_same_store(EXPAND_TRANSPOSE, [_random((8, 16))], (16, 2, 4), DISPATCH)
    assert re.search(r"affine\.delinearize_index %\w+ into \(2, 4\)", printed)
    assert "linalg.transpose" not in printed and "expand_shape" not in printed


@pytest.mark.parametrize("name", ["iree-codegen-combine-result-layout-transformation", "iree-codegen-combine-layout-transformation"])
def test_pad_writes_low_and_high_padding(name):
    combine = DISPATCH if "result" in name else CombineLayoutTransformationPass()
    printed = _assert_same_store(PAD, [_random((12, 25))], (20, 32), combine)
    assert "tensor.pad" not in printed
    # One loop nest for each non-zero low and high pad: four.
    assert printed.count("scf.forall") == 4


def test_pack_with_padding():
    printed = _assert_same_store(PACK, [_random((250, 250))], (2, 2, 128, 128), DISPATCH)
    assert "linalg.pack" not in printed and "map_store" in printed


def test_unpack_masks_the_dropped_tail():
    printed = _assert_same_store(UNPACK, [_random((2, 3, 8, 4))], (13, 10), DISPATCH)
    assert "linalg.unpack" not in printed and "arith.cmpi ult" in printed


@pytest.mark.parametrize("text,shape,source", [(PAD_1D, (256,), (250,)), (PACK, (2, 2, 128, 128), (250, 250))])
def test_gpu_variant_in_the_313_era(text, shape, source):
    with using_era("3.13"):
        gpu = GPUCombineLayoutTransformationPass()
    printed = _assert_same_store(text, [_random(source)], shape, gpu)
    assert "map_store" in printed and "#gpu.thread<linear_dim_0>" in printed


def test_gpu_variant_leaves_simple_chains_in_the_313_era():
    text = """func.func @f(%source : tensor<16x8xf32>, %result : memref<8x16xf32>) {
  %empty = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%source : tensor<16x8xf32>) outs(%empty : tensor<8x16xf32>) permutation = [1, 0]
  iree_codegen.store_to_buffer %t, %result : tensor<8x16xf32> into memref<8x16xf32>
  return
}"""
    printed = print_module_to_string(_apply(text, GPUCombineLayoutTransformationPass(era="3.13")))
    assert "linalg.transpose" in printed and "map_store" not in printed
    printed = print_module_to_string(_apply(text, GPUCombineLayoutTransformationPass(era="walkthrough")))
    assert "map_scatter" in printed


@pytest.mark.parametrize("result_pass", [True, False])
def test_workgroup_scope_keeps_results(result_pass):
    inputs = [_random((32,), 1), _random((10,), 2)]
    before = run(parse_module_text(WORKGROUP), "f", *inputs)
    combine = (CombineResultLayoutTransformationPass if result_pass else CombineLayoutTransformationPass)(
        scope="workgroup"
    )
    combined = _apply(WORKGROUP, combine)
    printed = print_module_to_string(combined)
    op_name = "iree_linalg_ext.map_store" if result_pass else "iree_linalg_ext.map_scatter"
    assert op_name in printed and "tensor.extract_slice" not in printed
    after = run(combined, "f", *inputs)
    np.testing.assert_array_equal(after[0], before[0])


def test_workgroup_scope_leaves_reshape_only_chains():
    text = """func.func @f(%2 : tensor<64x35xf32>, %9 : tensor<8x16x1x16xf32>) -> tensor<64x35xf32> {
  %6 = scf.forall (%arg0, %arg1) = (0, 0) to (64, 35) step (128, 16) shared_outs(%arg2 = %2) -> tensor<64x35xf32> {
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2, 3]] : tensor<8x16x1x16xf32> into tensor<128x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %collapsed into %arg2[%arg0, %arg1] [128, 16] [1, 1] : tensor<128x16xf32> into tensor<64x35xf32>
    }
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return %6 : tensor<64x35xf32>
}"""
    printed = print_module_to_string(_apply(text, CombineResultLayoutTransformationPass(scope="workgroup")))
    assert "map_store" not in printed and "tensor.collapse_shape" in printed


PROPAGATE = """func.func @f(%source : tensor<?x?x128x128xf32>, %result : memref<?xf16>, %size0: index, %size1: index) {
  %dest = tensor.empty(%size0, %size1) : tensor<?x?xf32>
  %unpack = linalg.unpack %source outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %dest : tensor<?x?x128x128xf32> -> tensor<?x?xf32>
  %collapse = tensor.collapse_shape %unpack [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %flat_size = arith.muli %size0, %size1 : index
  %init = tensor.empty(%flat_size) : tensor<?xf16>
  %compute_op = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
       ins(%collapse : tensor<?xf32>) outs(%init : tensor<?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %trunc = arith.truncf %in : f32 to f16
    linalg.yield %trunc : f16
  } -> tensor<?xf16>
  iree_codegen.store_to_buffer %compute_op, %result : tensor<?xf16> into memref<?xf16>
  return
}"""


@pytest.mark.parametrize("scope", ["dispatch", "dispatch-reshape", "workgroup"])
def test_relayouts_sink_below_an_elementwise_consumer(scope):
    """The collapse (dispatch scope only) and then the unpack move below the truncation, which
    then runs on the packed tensor; the map_store folds them after it."""
    m, n = 200, 130
    source = _random((2, 2, 128, 128))
    before = np.full(m * n, MARKER, np.float16)
    run(parse_module_text(PROPAGATE), "f", source, before, m, n)
    combined = _apply(PROPAGATE, CombineResultLayoutTransformationPass(scope=scope))
    printed = print_module_to_string(combined)
    after = np.full(m * n, MARKER, np.float16)
    run(combined, "f", source, after, m, n)
    np.testing.assert_array_equal(after, before)
    if scope == "dispatch":
        assert "outs(%0 : tensor<?x?x128x128xf16>)" in printed and "map_store %1 into" in printed
        assert "linalg.unpack" not in printed and "collapse_shape" not in printed
    else:
        # Without the expansion of reshapes the collapse stays between unpack and generic.
        assert "ins(%collapsed : tensor<?xf32>)" in printed


PACK_DYNAMIC = """func.func @f(%source : tensor<?x?xf32>, %result : memref<?x?x128x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 9.0 : f32
  %d0 = memref.dim %result, %c0 : memref<?x?x128x128xf32>
  %d1 = memref.dim %result, %c1 : memref<?x?x128x128xf32>
  %dest = tensor.empty(%d0, %d1) : tensor<?x?x128x128xf32>
  %pack = linalg.pack %source padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %dest : tensor<?x?xf32> -> tensor<?x?x128x128xf32>
  iree_codegen.store_to_buffer %pack, %result : tensor<?x?x128x128xf32> into memref<?x?x128x128xf32>
  return
}"""


def test_dynamic_pack_splits_by_the_destination_sizes():
    """3.13 delinearizes each packed dim by the destination's outer size (no `arith.divsi`),
    and the padding loops' bounds compose the padded size into their `affine.min`."""
    printed = _assert_same_store(PACK_DYNAMIC, [_random((200, 130))], (2, 2, 128, 128), DISPATCH)
    assert re.search(r"affine\.delinearize_index %\w+ into \(%\w+, 128\)", printed)
    assert "arith.divsi" not in printed
    assert "affine_map<(d0)[s0, s1, s2] -> (d0 + 1, s0 * 128 - s1 + s2)>" in printed


UNPACK_WHOLE_TILES = """func.func @f(%dim : index, %result : memref<?x512xf32>) {
  %assumed = util.assume.int %dim<umin = 128, umax = 1024, udiv = 128> : index
  %workload = iree_tensor_ext.dispatch.workload.ordinal %assumed, 0 : index
  %tiled_dim = affine.apply affine_map<()[s0] -> (s0 ceildiv 128)>()[%workload]
  %source = tensor.empty(%tiled_dim) : tensor<?x2x128x256xf32>
  %dest = tensor.empty(%workload) : tensor<?x512xf32>
  %unpack = linalg.unpack %source outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 256] into %dest : tensor<?x2x128x256xf32> -> tensor<?x512xf32>
  iree_codegen.store_to_buffer %unpack, %result : tensor<?x512xf32> into memref<?x512xf32>
  return
}"""


def test_unpack_of_whole_tiles_needs_no_mask():
    """The size is assumed a multiple of the tile (`udiv = 128`): the unpack drops nothing."""
    before = np.full((256, 512), MARKER, np.float32)
    run(parse_module_text(UNPACK_WHOLE_TILES), "f", 256, before)
    combined = _apply(UNPACK_WHOLE_TILES, DISPATCH)
    printed = print_module_to_string(combined)
    assert "map_store" in printed and "arith.cmpi" not in printed
    after = np.full((256, 512), MARKER, np.float32)
    run(combined, "f", 256, after)
    np.testing.assert_array_equal(after, before)
    assert not (after == MARKER).any()
