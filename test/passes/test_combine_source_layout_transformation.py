"""combine-source-layout-transformation keeps what a dispatch reads.

Each program loads a buffer and relayouts it (packs, unpacks, reshapes,
transposes, slices, pads, broadcasts); the interpreter runs it before and after
the pass (and the clean-up IREE's tests run after it) on the same random
buffers, and the results must be equal bit for bit. Each program is also
checked to have become one `iree_linalg_ext.map_load`, so that the comparison
is of the folded form.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context

from mini_iree.compiler.interpreter import find_function, make_context, make_interpreter, parse_module_text
from mini_iree.dialects import iree_linalg_ext, linalg, tensor
from mini_iree.passes.canonicalize import CanonicalizePass
from mini_iree.passes.combine_source_layout_transformation import CombineSourceLayoutTransformationPass

PACK = """
func.func @f(%buf: memref<7x5xf32>) -> tensor<2x3x4x2xf32> {
  %cst = arith.constant 9.000000e+00 : f32
  %src = iree_codegen.load_from_buffer %buf : memref<7x5xf32> -> tensor<7x5xf32>
  %d = tensor.empty() : tensor<2x3x4x2xf32>
  %p = linalg.pack %src padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %d
      : tensor<7x5xf32> -> tensor<2x3x4x2xf32>
  return %p : tensor<2x3x4x2xf32>
}
"""

PACK_TRANSPOSED = """
func.func @f(%buf: memref<8x6xf32>) -> tensor<3x2x4x2xf32> {
  %src = iree_codegen.load_from_buffer %buf : memref<8x6xf32> -> tensor<8x6xf32>
  %d = tensor.empty() : tensor<3x2x4x2xf32>
  %p = linalg.pack %src outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %d
      : tensor<8x6xf32> -> tensor<3x2x4x2xf32>
  return %p : tensor<3x2x4x2xf32>
}
"""

UNPACK_COLLAPSE = """
func.func @f(%buf: memref<2x3x4x2xf32>) -> tensor<42xf32> {
  %src = iree_codegen.load_from_buffer %buf : memref<2x3x4x2xf32> -> tensor<2x3x4x2xf32>
  %e = tensor.empty() : tensor<7x6xf32>
  %u = linalg.unpack %src inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %e : tensor<2x3x4x2xf32> -> tensor<7x6xf32>
  %c = tensor.collapse_shape %u [[0, 1]] : tensor<7x6xf32> into tensor<42xf32>
  return %c : tensor<42xf32>
}
"""

EXPAND_TRANSPOSE_COLLAPSE = """
func.func @f(%buf: memref<8x16xf32>) -> tensor<16x8xf32> {
  %src = iree_codegen.load_from_buffer %buf : memref<8x16xf32> -> tensor<8x16xf32>
  %x = tensor.expand_shape %src [[0, 1], [2]] output_shape [2, 4, 16] : tensor<8x16xf32> into tensor<2x4x16xf32>
  %i = tensor.empty() : tensor<16x2x4xf32>
  %t = linalg.transpose ins(%x : tensor<2x4x16xf32>) outs(%i : tensor<16x2x4xf32>) permutation = [2, 0, 1]
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<16x2x4xf32> into tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}
"""

PAD_EXPAND = """
func.func @f(%buf: memref<6x4xf32>) -> tensor<2x4x7xf32> {
  %one = arith.constant 1.500000e+00 : f32
  %src = iree_codegen.load_from_buffer %buf : memref<6x4xf32> -> tensor<6x4xf32>
  %p = tensor.pad %src low[1, 2] high[1, 1] {
  ^bb0(%a: index, %b: index):
    tensor.yield %one : f32
  } : tensor<6x4xf32> to tensor<8x7xf32>
  %x = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 7] : tensor<8x7xf32> into tensor<2x4x7xf32>
  return %x : tensor<2x4x7xf32>
}
"""

SLICE_BROADCAST = """
func.func @f(%buf: memref<4x8xf32>, %row: index) -> tensor<1x2x8xf32> {
  %src = iree_codegen.load_from_buffer %buf : memref<4x8xf32> -> tensor<4x8xf32>
  %s = tensor.extract_slice %src[%row, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x2x8xf32>
  %b = linalg.broadcast ins(%s : tensor<1x8xf32>) outs(%e : tensor<1x2x8xf32>) dimensions = [1]
  %c = tensor.collapse_shape %b [[0, 1], [2]] : tensor<1x2x8xf32> into tensor<2x8xf32>
  %x = tensor.expand_shape %c [[0, 1], [2]] output_shape [1, 2, 8] : tensor<2x8xf32> into tensor<1x2x8xf32>
  return %x : tensor<1x2x8xf32>
}
"""

DYNAMIC_SLICE_EXPAND = """
func.func @f(%buf: memref<10x32xf32>, %offset: index, %size: index) -> tensor<?x2x4xf32> {
  %src = iree_codegen.load_from_buffer %buf : memref<10x32xf32> -> tensor<10x32xf32>
  %s = tensor.extract_slice %src[%offset, 1] [%size, 16] [1, 2] : tensor<10x32xf32> to tensor<?x16xf32>
  %x = tensor.expand_shape %s [[0], [1, 2]] output_shape [%size, 4, 4] : tensor<?x16xf32> into tensor<?x4x4xf32>
  %y = tensor.extract_slice %x[0, 1, 0] [%size, 2, 4] [1, 1, 1] : tensor<?x4x4xf32> to tensor<?x2x4xf32>
  return %y : tensor<?x2x4xf32>
}
"""

CASES = {
    "pack with padding": (PACK, [(7, 5)], []),
    "pack with outer_dims_perm": (PACK_TRANSPOSED, [(8, 6)], []),
    "unpack dropping padding, then collapse": (UNPACK_COLLAPSE, [(2, 3, 4, 2)], []),
    "expand, transpose, collapse": (EXPAND_TRANSPOSE_COLLAPSE, [(8, 16)], []),
    "pad with low padding, then expand": (PAD_EXPAND, [(6, 4)], []),
    "slice at a run-time offset, broadcast": (SLICE_BROADCAST, [(4, 8)], [2]),
    "dynamic strided slice, expand, slice": (DYNAMIC_SLICE_EXPAND, [(10, 32)], [3, 5]),
}


def _run(module, buffers, scalars):
    interpreter = make_interpreter(module)
    (result,) = interpreter.call_op(find_function(module, "f"), (*buffers, *scalars))
    return np.asarray(result).copy()


@pytest.mark.parametrize("name", list(CASES))
def test_the_folded_map_load_reads_what_the_relayouts_read(name):
    text, shapes, scalars = CASES[name]
    rng = np.random.default_rng(len(name))
    buffers = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    expected = _run(parse_module_text(text), buffers, scalars)

    module = parse_module_text(text)
    # Every chain, complex or not (the test option), so that each relayout kind is folded.
    CombineSourceLayoutTransformationPass(test_combine_non_complex_chains=True).apply(Context(), module)
    CanonicalizePass().apply(make_context(), module)
    module.verify()
    ops = list(module.walk())
    assert sum(isinstance(op, iree_linalg_ext.MapLoadOp) for op in ops) == 1
    relayouts = (linalg.PackOp, linalg.UnPackOp, linalg.TransposeOp, linalg.BroadcastOp, tensor.ExpandShapeOp,
                 tensor.CollapseShapeOp, tensor.ExtractSliceOp, tensor.PadOp)
    assert not any(isinstance(op, relayouts) for op in ops), "a relayout was left unfolded"

    np.testing.assert_array_equal(_run(module, buffers, scalars), expected)


def test_a_chain_that_is_not_complex_is_left_to_bufferization():
    text = """
    func.func @f(%buf: memref<4x8xf32>) -> tensor<8x4xf32> {
      %src = iree_codegen.load_from_buffer %buf : memref<4x8xf32> -> tensor<4x8xf32>
      %e = tensor.empty() : tensor<8x4xf32>
      %t = linalg.transpose ins(%src : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
      return %t : tensor<8x4xf32>
    }
    """
    module = parse_module_text(text)
    CombineSourceLayoutTransformationPass().apply(Context(), module)
    assert not any(isinstance(op, iree_linalg_ext.MapLoadOp) for op in module.walk())
    folded = parse_module_text(text)
    CombineSourceLayoutTransformationPass(test_combine_non_complex_chains=True).apply(Context(), folded)
    assert any(isinstance(op, iree_linalg_ext.MapLoadOp) for op in folded.walk())
    buffer = np.arange(32, dtype=np.float32).reshape(4, 8)
    np.testing.assert_array_equal(_run(folded, [buffer], []), buffer.T)
