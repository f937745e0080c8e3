"""The IREE dialects' ops in the interpreter, each against a numpy formula."""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import InterpreterError, make_interpreter, parse_module_text, run
from mini_iree.compiler.interpreter.codegen_ops import swizzle_tile, unswizzle_tile
from mini_iree.compiler.interpreter.hal_ops import element_type_code, run_dispatch, split_index
from mini_iree.dialects.iree_codegen import SwizzleDim, TileSwizzle
from mini_iree.dialects.iree_gpu import DataTiledMMAAttr, MMAIntrinsic
from test_iree_ops_walkthrough import ACC_LAYOUT, LHS_LAYOUT, RHS_LAYOUT, pack

RNG = np.random.default_rng(0)


def _f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# ---------------------------------------------------------------------------
# util
# ---------------------------------------------------------------------------

GLOBALS = """
util.global private mutable @acc : tensor<3xf32>
util.global private @init = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
util.global private mutable @runs = 0 : index
util.initializer {
  %0 = util.global.load @init : tensor<3xf32>
  util.global.store %0, @acc : tensor<3xf32>
  %r = util.global.load @runs : index
  %c1 = arith.constant 1 : index
  %r1 = arith.addi %r, %c1 : index
  util.global.store %r1, @runs : index
  util.return
}
util.initializer {
  %0 = util.global.load @acc : tensor<3xf32>
  %1 = arith.mulf %0, %0 : tensor<3xf32>
  util.global.store %1, @acc : tensor<3xf32>
  util.return
}
util.func public @add(%arg0: !hal.buffer_view) -> (!hal.buffer_view, index) {
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<3xf32>
  %1 = util.global.load @acc : tensor<3xf32>
  %2 = arith.addf %0, %1 : tensor<3xf32>
  util.global.store %2, @acc : tensor<3xf32>
  %3 = hal.tensor.export %2 "output0" : tensor<3xf32> -> !hal.buffer_view
  %runs = util.global.load @runs : index
  util.return %3, %runs : !hal.buffer_view, index
}
util.func public @call_add(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %0:2 = util.call @add(%arg0) : (!hal.buffer_view) -> (!hal.buffer_view, index)
  %1 = util.optimization_barrier %0#0 : !hal.buffer_view
  util.return %1 : !hal.buffer_view
}
"""


def test_initializers_run_once_in_order_and_globals_persist():
    module = parse_module_text(GLOBALS)
    interpreter = make_interpreter(module)
    x = _f32(3)
    init = np.array([1, 2, 3], np.float32)
    first, runs = interpreter.call_op("add", (x,))
    # Initializer 1 copies @init, initializer 2 squares it: in that order.
    np.testing.assert_allclose(first, x + init * init)
    second, runs_again = interpreter.call_op("add", (x,))
    np.testing.assert_allclose(second, 2 * x + init * init)
    assert runs == runs_again == 1


def test_util_call_and_barrier():
    x = _f32(3)
    (y,) = run(GLOBALS, "call_add", x)
    np.testing.assert_allclose(y, x + np.array([1, 4, 9], np.float32))


def test_immutable_global_cannot_be_stored_by_a_function():
    text = """
    util.global private @g = 1 : index
    util.func public @f(%arg0: index) {
      util.global.store %arg0, @g : index
      util.return
    }
    """
    with pytest.raises(InterpreterError, match="immutable global @g"):
        run(text, "f", 3)


def test_assume_int_is_identity():
    text = """
    func.func @f(%a: index, %b: index) -> (index, index) {
      %0:2 = util.assume.int %a<umin = 0, umax = 10>, %b<udiv = 16> : index, index
      return %0#0, %0#1 : index, index
    }
    """
    assert [int(v) for v in run(text, "f", 7, 32)] == [7, 32]


# ---------------------------------------------------------------------------
# hal: buffer views
# ---------------------------------------------------------------------------

HAL = """
util.func public @f(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %d0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %d1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  %element_type_f32 = hal.element_type<f32> : i32
  %dense_row_major = hal.encoding_type<dense_row_major> : i32
  hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%d0, %d1]) type(%element_type_f32) encoding(%dense_row_major)
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%d0, %d1}
  %1 = arith.addf %0, %0 : tensor<?x?xf32>
  %2 = hal.tensor.export %1 "output0" : tensor<?x?xf32>{%d0, %d1} -> !hal.buffer_view
  util.return %2 : !hal.buffer_view
}
util.func public @static(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2x3xi8>
  %1 = hal.tensor.export %0 "output0" : tensor<2x3xi8> -> !hal.buffer_view
  util.return %1 : !hal.buffer_view
}
"""


@pytest.mark.parametrize("shape", [(3, 5), (0, 4), (1, 1)])
def test_buffer_view_round_trip(shape):
    x = _f32(*shape)
    (y,) = run(HAL, "f", x)
    np.testing.assert_array_equal(y, x + x)


def test_buffer_view_assert_rejects_wrong_element_type():
    with pytest.raises(InterpreterError, match="'input0' has element type float64, expected f32"):
        run(HAL, "f", np.zeros((2, 2)))


def test_tensor_import_rejects_wrong_shape():
    with pytest.raises(InterpreterError, match=r"has shape \(3, 3\), expected \(2, 3\)"):
        run(HAL, "static", np.zeros((3, 3), np.int8))


def test_tensor_import_accepts_either_signedness_for_signless_integers():
    x = np.arange(6, dtype=np.uint8).reshape(2, 3)
    (y,) = run(HAL, "static", x)
    np.testing.assert_array_equal(y.astype(np.uint8), x)


def test_element_type_codes_follow_iree_hal():
    from xdsl.dialects.builtin import IntegerType, Signedness, f16, f32, i1, i8

    assert element_type_code(f32) == 0x21000020
    assert element_type_code(f16) == 0x21000010
    assert element_type_code(i8) == 0x10000008
    assert element_type_code(IntegerType(8, Signedness.UNSIGNED)) == 0x12000008
    assert element_type_code(i1) == 0x13000008


# ---------------------------------------------------------------------------
# flow and iree_encoding
# ---------------------------------------------------------------------------

ENCODING = (
    "#iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], "
    "user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
    "affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>"
)

FLOW = f"""
func.func @region(%a: tensor<?x?xf32>, %m: index, %n: index) -> tensor<?x?xf32> {{
  %0 = flow.dispatch.region -> (tensor<?x?xf32>{{%m, %n}}) {{
    %1 = iree_encoding.set_encoding %a : tensor<?x?xf32> -> tensor<?x?xf32, {ENCODING}>
    %2 = iree_encoding.unset_encoding %1 : tensor<?x?xf32, {ENCODING}> -> tensor<?x?xf32>{{%m, %n}}
    %3 = arith.mulf %2, %2 : tensor<?x?xf32>
    flow.return %3 : tensor<?x?xf32>
  }}
  return %0 : tensor<?x?xf32>
}}
func.func @encode(%a: tensor<?x?xf32>, %m: index, %n: index, %m2: index, %n2: index) -> tensor<?x?xf32> {{
  %0 = flow.tensor.encode %a : tensor<?x?xf32>{{%m, %n}} -> tensor<?x?xf32, {ENCODING}>{{%m, %n}}
  %1 = flow.tensor.encode %0 : tensor<?x?xf32, {ENCODING}>{{%m, %n}} -> tensor<?x?xf32>{{%m2, %n2}}
  return %1 : tensor<?x?xf32>
}}
"""


def test_dispatch_region_and_unset_encoding_slicing():
    a = _f32(6, 5)
    (full,) = run(FLOW, "region", a, 6, 5)
    np.testing.assert_array_equal(full, a * a)
    # unset_encoding has slicing semantics: smaller result dims drop the tail.
    (part,) = run(FLOW, "region", a, 4, 2)
    np.testing.assert_array_equal(part, (a * a)[:4, :2])


def test_tensor_encode_keeps_the_logical_value():
    a = _f32(7, 3)
    (same,) = run(FLOW, "encode", a, 7, 3, 7, 3)
    np.testing.assert_array_equal(same, a)
    (cut,) = run(FLOW, "encode", a, 7, 3, 5, 1)
    np.testing.assert_array_equal(cut, a[:5, :1])


def test_unset_encoding_cannot_grow():
    with pytest.raises(InterpreterError, match="larger than"):
        run(FLOW, "region", _f32(2, 2), 3, 2)


FLOW_EXECUTABLE = """
flow.executable private @ex {
  flow.executable.export public @scale_rows workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scale_rows(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %arg1: index, %arg2: index,
                          %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
      %m = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
      %n = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
      %in = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%m, %n}
      %out = flow.dispatch.tie_shape %arg3 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
      %0 = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%m, %n} -> tensor<?x?xf32>
      %1 = iree_tensor_ext.compute_barrier.start %0 : tensor<?x?xf32>{%m, %n} -> tensor<?x?xf32>
      %2 = arith.addf %1, %1 : tensor<?x?xf32>
      iree_tensor_ext.dispatch.tensor.store %2, %out, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
      return
    }
  }
}
func.func @main(%a: tensor<?x?xf32>, %m: index, %n: index) -> tensor<?x?xf32> {
  %0 = flow.dispatch @ex::@scale_rows[%m, %n](%a, %m, %n) : (tensor<?x?xf32>{%m, %n}, index, index) -> tensor<?x?xf32>{%m, %n}
  return %0 : tensor<?x?xf32>
}
"""


@pytest.mark.parametrize("shape", [(4, 3), (1, 9), (0, 2)])
def test_flow_dispatch_calls_the_exported_function(shape):
    a = _f32(*shape)
    (c,) = run(FLOW_EXECUTABLE, "main", a, *shape)
    np.testing.assert_array_equal(c, a + a)


DISPATCH_TENSOR = """
func.func @copy(%src: !iree_tensor_ext.dispatch.tensor<readonly:tensor<6x5xf32>>,
                %dst: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<7x5xf32>>, %o: index) {
  %0 = iree_tensor_ext.dispatch.tensor.load %src, offsets = [1, %o], sizes = [3, 2], strides = [2, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<6x5xf32>> -> tensor<3x2xf32>
  iree_tensor_ext.dispatch.tensor.store %0, %dst, offsets = [4, 1], sizes = [3, 2], strides = [1, 2] : tensor<3x2xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<7x5xf32>>
  %1 = iree_tensor_ext.dispatch.tensor.load %src, offsets = [5, 0], sizes = [1, 5], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<6x5xf32>> -> tensor<5xf32>
  iree_tensor_ext.dispatch.tensor.store %1, %dst, offsets = [0, 0], sizes = [1, 5], strides = [1, 1] : tensor<5xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<7x5xf32>>
  return
}
"""


def test_dispatch_tensor_load_store_with_offsets_sizes_strides():
    from mini_iree.compiler.interpreter.bindings import DispatchTensor

    src = _f32(6, 5)
    dst = DispatchTensor(np.zeros((7, 5), np.float32), "readwrite")
    run(DISPATCH_TENSOR, "copy", DispatchTensor(src, "readonly"), dst, 2)
    expected = np.zeros((7, 5), np.float32)
    expected[4:7, 1:5:2] = src[1:6:2, 2:4]
    expected[0, :] = src[5, :]  # rank-reducing load and store
    np.testing.assert_array_equal(dst.array, expected)


def test_dispatch_tensor_out_of_bounds_is_an_error():
    from mini_iree.compiler.interpreter.bindings import DispatchTensor

    dst = DispatchTensor(np.zeros((7, 5), np.float32), "readwrite")
    with pytest.raises(InterpreterError, match="out of bounds of dim 1"):
        run(DISPATCH_TENSOR, "copy", DispatchTensor(_f32(6, 5), "readonly"), dst, 4)


# ---------------------------------------------------------------------------
# stream
# ---------------------------------------------------------------------------

LAYOUT = (
    "#iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {"
    "innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1]}}>]>"
)
TWO_LAYOUTS = (
    "#iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {"
    "innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>, "
    "#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {"
    "innerDimsPos = [1], innerTileSizes = [64], outerDimsPerm = [0, 1]}}>]>"
)

PADDED = "#iree_encoding.layout<[#iree_encoding.padding<[0, 64]>]>"

SIZEOF = f"""
func.func @sizes(%m: index, %n: index) -> (index, index, index, index, index) {{
  %0 = stream.tensor.sizeof tensor<?x?xf32>{{%m, %n}} : index
  %1 = stream.tensor.sizeof tensor<?x?xf32, {ENCODING}>{{%m, %n}} : index
  %2 = stream.tensor.sizeof tensor<?x?xf32, {LAYOUT}>{{%m, %n}} : index
  %3 = stream.tensor.sizeof tensor<?x?xi8, {TWO_LAYOUTS}>{{%m, %n}} : index
  %4 = stream.tensor.sizeof tensor<?x?xf16, {PADDED}>{{%m, %n}} : index
  return %0, %1, %2, %3, %4 : index, index, index, index, index
}}
"""


@pytest.mark.parametrize("m,n", [(37, 53), (128, 16), (1, 1), (0, 5)])
def test_tensor_sizeof(m, n):
    def up(x, t):
        return -(-x // t) * t

    plain, unserialized, packed, multi, padded = (int(v) for v in run(SIZEOF, "sizes", m, n))
    assert plain == m * n * 4
    assert unserialized == m * n * 4  # not resolved yet: the plain size
    assert packed == up(m, 128) * up(n, 16) * 4
    assert multi == max(up(m, 8) * n, m * up(n, 64), m * n)
    assert padded == m * (n + 64) * 2


STREAM = """
stream.executable private @ex {
  stream.executable.export public @add workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    stream.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @add(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: !stream.binding) {
      %c0 = arith.constant 0 : index
      %n = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
      %a = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n}
      %b = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n}
      %c = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
      %0 = iree_tensor_ext.dispatch.tensor.load %a, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
      %1 = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
      %2 = arith.addf %0, %1 : tensor<?xf32>
      iree_tensor_ext.dispatch.tensor.store %2, %c, offsets = [0], sizes = [%n], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
      return
    }
  }
}
util.func public @tensor_dispatch(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %size = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32>{%n} in !stream.resource<external>{%size}
  %b = stream.tensor.import %arg1 : !hal.buffer_view -> tensor<?xf32>{%n} in !stream.resource<external>{%size}
  %a1 = stream.async.transfer %a : !stream.resource<external>{%size} -> !stream.resource<*>{%size}
  %c = stream.tensor.dispatch @ex::@add[%n](%a1, %b, %n) : (tensor<?xf32>{%n} in !stream.resource<*>{%size}, tensor<?xf32>{%n} in !stream.resource<external>{%size}, index) -> tensor<?xf32>{%n} in !stream.resource<*>{%size}
  %r = stream.tensor.export %c : tensor<?xf32>{%n} in !stream.resource<*>{%size} -> !hal.buffer_view
  util.return %r : !hal.buffer_view
}
util.func public @async_dispatch(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %half = arith.divui %n, %c4 : index
  %size = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %hsize = stream.tensor.sizeof tensor<?xf32>{%half} : index
  %a = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32>{%n} in !stream.resource<external>{%size}
  %c = stream.async.dispatch @ex::@add[%half](%a[%c0 to %hsize for %hsize], %a[%hsize to %size for %hsize], %half) : (!stream.resource<external>{%size}, !stream.resource<external>{%size}, index) -> !stream.resource<*>{%hsize}
  %r = stream.tensor.export %c : tensor<?xf32>{%half} in !stream.resource<*>{%hsize} -> !hal.buffer_view
  util.return %r : !hal.buffer_view
}
"""


@pytest.mark.parametrize("n", [5, 1, 0])
def test_stream_tensor_dispatch(n):
    a, b = _f32(n), _f32(n)
    (c,) = run(STREAM, "tensor_dispatch", a, b)
    np.testing.assert_array_equal(c, a + b)


def test_stream_async_dispatch_binds_resource_ranges():
    # Elements [0, n/4) and [n/4, n/2) of one resource are bound as the two operands.
    a = _f32(12)
    (c,) = run(STREAM, "async_dispatch", a)
    np.testing.assert_array_equal(c, a[0:3] + a[3:6])


ENCODE = f"""
util.func public @encode(%arg0: !hal.buffer_view) -> !hal.buffer_view {{
  %m = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  %size = stream.tensor.sizeof tensor<?x?xf32>{{%m, %n}} : index
  %esize = stream.tensor.sizeof tensor<?x?xf32, {LAYOUT}>{{%m, %n}} : index
  %a = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?x?xf32>{{%m, %n}} in !stream.resource<external>{{%size}}
  %e = stream.tensor.encode %a : tensor<?x?xf32>{{%m, %n}} in !stream.resource<external>{{%size}} -> tensor<?x?xf32, {LAYOUT}>{{%m, %n}} in !stream.resource<*>{{%esize}}
  %d = stream.tensor.encode %e : tensor<?x?xf32, {LAYOUT}>{{%m, %n}} in !stream.resource<*>{{%esize}} -> tensor<?x?xf32>{{%m, %n}} in !stream.resource<*>{{%size}}
  %r = stream.tensor.export %d : tensor<?x?xf32>{{%m, %n}} in !stream.resource<*>{{%size}} -> !hal.buffer_view
  util.return %r : !hal.buffer_view
}}
"""


def test_stream_tensor_encode_round_trip():
    a = _f32(37, 5)
    (c,) = run(ENCODE, "encode", a)
    np.testing.assert_array_equal(c, a)


# ---------------------------------------------------------------------------
# hal: dispatch interface (bindings and push constants)
# ---------------------------------------------------------------------------

HAL_DISPATCH = """
func.func @scale() {
  %c0 = arith.constant 0 : index
  %lo = hal.interface.constant.load layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>) ordinal(0) : i32
  %n = hal.interface.constant.load layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>) ordinal(2) : index
  %off = arith.index_castui %lo : i32 to index
  %in = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>) binding(0) offset(%off) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n}
  %out = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>) binding(1) offset(%c0) : memref<?xf32>{%n}
  %0 = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
  %1 = arith.addf %0, %0 : tensor<?xf32>
  iree_codegen.store_to_buffer %1, %out : tensor<?xf32> into memref<?xf32>
  return
}
"""


def test_binding_subspan_views_bytes_at_an_offset():
    data = _f32(10)
    module = parse_module_text(HAL_DISPATCH)
    # The input starts 8 bytes (two elements) into binding 0.
    _, out = run_dispatch(module, "scale", [data, np.zeros(8 * 4, np.uint8)], [8, 0, 8])
    np.testing.assert_array_equal(out.view(np.float32), 2 * data[2:10])


def test_binding_too_small_is_an_error():
    module = parse_module_text(HAL_DISPATCH)
    with pytest.raises(InterpreterError, match="too small"):
        run_dispatch(module, "scale", [_f32(4), np.zeros(64, np.uint8)], [8, 0, 8])


def test_dispatch_function_needs_a_context():
    with pytest.raises(InterpreterError, match="dispatch context"):
        run(HAL_DISPATCH, "scale")


def test_split_index():
    assert split_index(0x1_0000_0005) == [5, 1]


# ---------------------------------------------------------------------------
# iree_codegen.inner_tiled with #iree_gpu.data_tiled_mma_layout
# ---------------------------------------------------------------------------

def _swizzle_layout(swizzle: TileSwizzle, inner_dims_pos, outer_dims_perm):
    """The pack + swizzle layout a data-tiled operand has, from its swizzle's parameters."""
    group_sizes = [int(np.prod([d.size for d in g])) for g in swizzle.expand_shape]
    return dict(
        inner_dims_pos=inner_dims_pos,
        inner_tiles=group_sizes,
        outer_dims_perm=outer_dims_perm,
        expand_sizes=[[d.size for d in g] for g in swizzle.expand_shape],
        permutation=swizzle.permutation,
    )


def _kind_layouts(kind):
    """LHS (M x K tiles), RHS (N x K tiles, the matrix transposed) and ACC (M x N) layouts."""
    return (
        _swizzle_layout(kind.swizzle(0), [0, 1], [0, 1]),
        _swizzle_layout(kind.swizzle(1), [1, 0], [1, 0]),
        _swizzle_layout(kind.swizzle(2), [0, 1], [0, 1]),
    )


def _tensor_type(packed, element_type):
    return "tensor<?x?x" + "x".join(map(str, packed.shape[2:])) + f"x{element_type}>"


def _inner_tiled_program(kind, lp, rp, ap, in_type, acc_type):
    lt, rt, at = _tensor_type(lp, in_type), _tensor_type(rp, in_type), _tensor_type(ap, acc_type)
    return f"""
    func.func @mma(%lhs: {lt}, %rhs: {rt}, %acc: {at}) -> {at} {{
      %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = {kind}}} : {lt}, {rt} into {at}
      return %0 : {at}
    }}
    """


@pytest.mark.parametrize("m,k,n", [(37, 53, 29), (130, 16, 257), (1, 1, 1)])
def test_inner_tiled_is_a_matmul_on_swizzled_tiles(m, k, n):
    kind = DataTiledMMAAttr(
        MMAIntrinsic.MFMA_F32_16x16x4_F32, intrinsics_m=8, intrinsics_n=2, subgroups_n=4, intrinsics_k=4
    )
    lhs_l, rhs_l, acc_l = _kind_layouts(kind)
    a, b, c0 = _f32(m, k), _f32(k, n), _f32(m, n)
    lp, rp, ap = pack(a, **lhs_l), pack(b, **rhs_l), pack(c0, **acc_l)
    (packed,) = run(_inner_tiled_program(kind, lp, rp, ap, "f32", "f32"), "mma", lp, rp, ap)
    np.testing.assert_allclose(packed, pack(c0 + a @ b, **acc_l), rtol=1e-4, atol=1e-4)


def test_data_tiled_swizzles_match_the_walkthrough_encodings():
    kind = DataTiledMMAAttr(MMAIntrinsic.MFMA_F32_16x16x4_F32, intrinsics_m=8, intrinsics_n=2, subgroups_n=4, intrinsics_k=4)
    for operand, layout in enumerate((LHS_LAYOUT, RHS_LAYOUT, ACC_LAYOUT)):
        swizzle = kind.swizzle(operand, cross_thread_outermost=True)
        assert [[d.size for d in g] for g in swizzle.expand_shape] == layout["expand_sizes"]
        assert swizzle.permutation == layout["permutation"]


def test_inner_tiled_integer_is_exact():
    kind = DataTiledMMAAttr(
        MMAIntrinsic.MFMA_I32_16x16x32_I8, intrinsics_m=2, intrinsics_n=2, subgroups_m=2, intrinsics_k=2
    )
    lhs_l, rhs_l, acc_l = _kind_layouts(kind)
    m, k, n = 45, 70, 33
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    c0 = rng.integers(-1000, 1000, (m, n), dtype=np.int32)
    lp, rp, ap = pack(a, **lhs_l), pack(b, **rhs_l), pack(c0, **acc_l)
    (packed,) = run(_inner_tiled_program(kind, lp, rp, ap, "i8", "i32"), "mma", lp, rp, ap)
    expected = c0 + a.astype(np.int32) @ b.astype(np.int32)
    np.testing.assert_array_equal(packed, pack(expected, **acc_l))


def test_inner_tiled_rejects_wrong_tile_shapes():
    kind = DataTiledMMAAttr(MMAIntrinsic.MFMA_F32_16x16x4_F32, intrinsics_m=2, intrinsics_k=2)
    lhs_l, rhs_l, acc_l = _kind_layouts(kind)
    lp, rp, ap = pack(_f32(5, 3), **lhs_l), pack(_f32(3, 4), **rhs_l), pack(_f32(5, 4), **acc_l)
    bad_lhs = np.zeros(lp.shape[:-1] + (lp.shape[-1] * 2,), np.float32)
    with pytest.raises(InterpreterError, match="operand 0 has shape"):
        run(_inner_tiled_program(kind, bad_lhs, rp, ap, "f32", "f32"), "mma", bad_lhs, rp, ap)


def test_swizzle_round_trip():
    swizzle = TileSwizzle(
        [[SwizzleDim.cross_thread(4), SwizzleDim.cross_intrinsic(2)], [SwizzleDim.internal(3)]], [2, 0, 1]
    )
    tiles = _f32(2, 8, 3)
    swizzled = swizzle_tile(tiles, swizzle, 1)
    assert swizzled.shape == (2, 3, 4, 2)
    np.testing.assert_array_equal(swizzled, tiles.reshape(2, 4, 2, 3).transpose(0, 3, 1, 2))
    np.testing.assert_array_equal(unswizzle_tile(swizzled, swizzle, 1), tiles)


# ---------------------------------------------------------------------------
# iree_linalg_ext.map_scatter / map_store
# ---------------------------------------------------------------------------

MAP_SCATTER = """
func.func @transpose_rows_below(%in: tensor<4x6xf32>, %out: tensor<6x4xf32>, %limit: index) -> tensor<6x4xf32> {
  %0 = iree_linalg_ext.map_scatter %in into %out {
  ^bb0(%i: index, %j: index):
    %mask = arith.cmpi ult, %i, %limit : index
    iree_linalg_ext.yield %j, %i, %mask : index, index, i1
  } : tensor<4x6xf32> into tensor<6x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}
func.func @shifted(%in: tensor<4x6xf32>, %out: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %true = arith.constant true
  %c1 = arith.constant 1 : index
  %0 = iree_linalg_ext.map_store %in into %out {
  ^bb0(%i: index, %j: index):
    %i1 = arith.addi %i, %c1 : index
    iree_linalg_ext.yield %j, %i1, %true : index, index, i1
  } : tensor<4x6xf32> into tensor<6x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}
"""


@pytest.mark.parametrize("limit", [4, 2, 0])
def test_map_scatter_with_mask(limit):
    x, init = _f32(4, 6), _f32(6, 4)
    (y,) = run(MAP_SCATTER, "transpose_rows_below", x, init, limit)
    expected = init.copy()
    expected[:, :limit] = x[:limit, :].T
    np.testing.assert_array_equal(y, expected)


def test_map_store_out_of_bounds_is_an_error():
    with pytest.raises(InterpreterError, match=r"input element \[3, 0\] maps to index 4 in dim 1"):
        run(MAP_SCATTER, "shifted", _f32(4, 6), _f32(6, 4))


MAP_SCATTER_MEMREF = """
func.func @reverse_into(%in: memref<5xi32>, %out: memref<5xi32>) {
  %true = arith.constant true
  %c4 = arith.constant 4 : index
  iree_linalg_ext.map_scatter %in into %out {
  ^bb0(%i: index):
    %r = arith.subi %c4, %i : index
    iree_linalg_ext.yield %r, %true : index, i1
  } : memref<5xi32> into memref<5xi32>
  return
}
"""


def test_map_scatter_into_a_memref_writes_in_place():
    source = np.arange(5, dtype=np.int32) * 7
    target = np.zeros(5, np.int32)
    run(MAP_SCATTER_MEMREF, "reverse_into", source, target)
    np.testing.assert_array_equal(target, source[::-1])


# ---------------------------------------------------------------------------
# More dispatch forms
# ---------------------------------------------------------------------------

TIED = """
flow.executable private @ex {
  flow.executable.export public @accumulate
  builtin.module {
    func.func @accumulate(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>,
                          %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>) {
      %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>> -> tensor<4xf32>
      %2 = arith.addf %0, %1 : tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>
      return
    }
  }
}
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = flow.dispatch @ex::@accumulate(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> %b
  return %0, %b : tensor<4xf32>, tensor<4xf32>
}
"""


def test_flow_dispatch_tied_result_updates_a_copy_of_its_operand():
    a, b = _f32(4), _f32(4)
    b_before = b.copy()
    result, b_after = run(TIED, "main", a, b)
    np.testing.assert_array_equal(result, a + b_before)
    # SSA semantics: the operand value itself does not change.
    np.testing.assert_array_equal(b_after, b_before)


CONSTANTS = """
util.func public @constants() -> (!hal.buffer_view, !hal.buffer_view) {
  %c24 = arith.constant 24 : index
  %size = stream.tensor.sizeof tensor<2x3xf32> : index
  %0 = stream.async.constant : !stream.resource<constant>{%c24} = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %1 = stream.tensor.export %0 : tensor<2x3xf32> in !stream.resource<constant>{%c24} -> !hal.buffer_view
  %2 = stream.tensor.constant : tensor<2x3xi32> in !stream.resource<constant> = dense<7> : tensor<2x3xi32>
  %3 = stream.tensor.export %2 : tensor<2x3xi32> in !stream.resource<constant>{%size} -> !hal.buffer_view
  util.return %1, %3 : !hal.buffer_view, !hal.buffer_view
}
"""


def test_stream_constants():
    floats, ints = run(CONSTANTS, "constants")
    np.testing.assert_array_equal(floats, np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(ints, np.full((2, 3), 7, np.int32))


PUSH_CONSTANT_BITS = """
func.func @bits() -> (f32, i32) {
  %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>) ordinal(0) : f32
  %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>) ordinal(1) : i32
  return %0, %1 : f32, i32
}
"""


def test_push_constants_are_32_bit_words():
    from mini_iree.compiler.interpreter.core import make_interpreter as make
    from mini_iree.compiler.interpreter.hal_ops import DispatchContext, HalFunctions

    module = parse_module_text(PUSH_CONSTANT_BITS)
    interpreter = make(module)
    word = int(np.array([1.5], np.float32).view(np.uint32)[0])
    interpreter.set_data(HalFunctions, "dispatch_context", DispatchContext([], [word, 0xFFFFFFFF]))
    value, minus_one = interpreter.call_op("bits", ())
    assert value == np.float32(1.5) and minus_one == -1


STRIDED = """
func.func @strided() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<constants = 0, bindings = [#hal.pipeline.binding<storage_buffer>]>) binding(0) offset(%c0) : memref<4x4xf32, strided<[1, 4]>>
  return
}
"""


def test_non_row_major_binding_layouts_are_rejected():
    with pytest.raises(InterpreterError, match="not row-major"):
        run_dispatch(parse_module_text(STRIDED), "strided", [np.zeros(16, np.float32)])


MISSING_EXPORT = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.dispatch @nowhere::@nothing(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_dispatch_to_a_missing_executable_names_the_symbol():
    with pytest.raises(InterpreterError, match=r"'flow.dispatch' op cannot find symbol @nowhere::@nothing"):
        run(MISSING_EXPORT, "main", _f32(4))


def test_buffer_view_dim_out_of_range():
    text = """
    util.func public @f(%arg0: !hal.buffer_view) -> index {
      %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[2] : index
      util.return %0 : index
    }
    """
    with pytest.raises(InterpreterError, match=r"buffer view of shape \(2, 3\) has no dimension 2"):
        run(text, "f", _f32(2, 3))


def test_global_loaded_before_it_is_stored():
    text = """
    util.global private mutable @g : tensor<2xf32>
    util.func public @f() -> !hal.buffer_view {
      %0 = util.global.load @g : tensor<2xf32>
      %1 = hal.tensor.export %0 : tensor<2xf32> -> !hal.buffer_view
      util.return %1 : !hal.buffer_view
    }
    """
    with pytest.raises(InterpreterError, match="loads global @g before anything stored it"):
        run(text, "f")
