"""bufferize-dispatch-tensor-load-store keeps what a dispatch writes.

The dispatches run through ``hal_ops.run_dispatch`` on the same bindings before and
after the pass: whole-tensor loads and stores, slices (through `memref.subview`), a
binding at a byte offset (a `strided<[...], offset: ?>` memref), and the walkthrough's
relayout dispatch (dump 19 -> 21).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import require_reference
from xdsl.context import Context

from mini_iree.compiler.interpreter import parse_module_text
from mini_iree.compiler.interpreter.hal_ops import run_dispatch, split_index
from mini_iree.compiler.ir.printer import print_module_to_string
from mini_iree.passes.bufferize_dispatch_tensor_load_store import BufferizeDispatchTensorLoadStorePass

_LAYOUT = (
    '#pipeline_layout = #hal.pipeline.layout<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, '
    '"ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>\n'
)

# Reads rows [1, 1 + r) of an n x 6 input (at byte offset %off of binding 0), adds them to
# themselves, and writes them at rows [2, 2 + r) of an n x 6 output.
SLICES = _LAYOUT + """func.func @slices() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %n = arith.index_castui %0 : i32 to index
  %r = arith.index_castui %1 : i32 to index
  %off = arith.index_castui %2 : i32 to index
  %src = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%off) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x6xf32>>{%n}
  %dst = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xf32>>{%n}
  %3 = iree_tensor_ext.dispatch.tensor.load %src, offsets = [1, 0], sizes = [%r, 6], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x6xf32>>{%n} -> tensor<?x6xf32>
  %4 = arith.addf %3, %3 : tensor<?x6xf32>
  iree_tensor_ext.dispatch.tensor.store %4, %dst, offsets = [2, 0], sizes = [%r, 6], strides = [1, 1] : tensor<?x6xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xf32>>{%n}
  return
}
"""

# The whole input copied to the whole output.
WHOLE = _LAYOUT + """func.func @whole() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %n = arith.index_castui %0 : i32 to index
  %src = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x3xf32>>{%n}
  %dst = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x3xf32>>{%n}
  %1 = iree_tensor_ext.dispatch.tensor.load %src, offsets = [0, 0], sizes = [%n, 3], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x3xf32>>{%n} -> tensor<?x3xf32>
  iree_tensor_ext.dispatch.tensor.store %1, %dst, offsets = [0, 0], sizes = [%n, 3], strides = [1, 1] : tensor<?x3xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x3xf32>>{%n}
  return
}
"""


def _bufferized(text: str):
    module = parse_module_text(text)
    BufferizeDispatchTensorLoadStorePass().apply(Context(), module)
    module.verify()
    printed = print_module_to_string(module)
    assert "iree_tensor_ext.dispatch.tensor.load" not in printed
    assert "iree_tensor_ext.dispatch.tensor.store" not in printed
    return module


def _same_bindings(text: str, name: str, bindings, constants) -> list[np.ndarray]:
    before = run_dispatch(parse_module_text(text), name, [b.copy() for b in bindings], constants)
    after = run_dispatch(_bufferized(text), name, [b.copy() for b in bindings], constants)
    for b0, b1 in zip(before, after):
        np.testing.assert_array_equal(b1, b0)
    return after


@pytest.mark.parametrize("n,r,offset_rows", [(7, 3, 0), (9, 5, 2), (4, 1, 1)])
def test_slices_and_byte_offset(n, r, offset_rows):
    rng = np.random.default_rng(n)
    source = rng.standard_normal((offset_rows + n, 6)).astype(np.float32)
    out0 = rng.standard_normal((n, 6)).astype(np.float32)
    offset = offset_rows * 6 * 4
    _, out = _same_bindings(SLICES, "slices", [source, out0], [n, r, offset])
    expected = out0.copy()
    expected[2 : 2 + r] = 2 * source[offset_rows + 1 : offset_rows + 1 + r]
    np.testing.assert_array_equal(out.view(np.float32).reshape(n, 6), expected)


def test_slices_use_subviews():
    text = print_module_to_string(_bufferized(SLICES))
    assert text.count("memref.subview") == 2
    assert "memref<?x6xf32, strided<[6, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>{%" in text


@pytest.mark.parametrize("n", [1, 5])
def test_whole_tensor(n):
    a = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
    _, out = _same_bindings(WHOLE, "whole", [a, np.zeros_like(a)], [n])
    np.testing.assert_array_equal(out.view(np.float32).reshape(n, 3), a)


def test_walkthrough_relayout_dispatch():
    """Dump 19 bufferized writes the same packed, swizzled LHS as dump 19 (37 x 53, padded)."""
    text = (require_reference() / "seed-walkthrough" / "19-materialize-device-encoding.relayout.after.mlir").read_text()
    m, k = 37, 53
    a = np.random.default_rng(3).standard_normal((m, k)).astype(np.float32)
    packed_bytes = -(-m // 128) * -(-k // 16) * 128 * 16 * 4
    constants = [w for v in (m, k) for w in split_index(v)]
    _same_bindings(text, "_encoding_0_encode_DxDxf32_to_DxDxf32", [a, np.full(packed_bytes, 0xFF, np.uint8)], constants)
