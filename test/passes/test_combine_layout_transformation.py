"""bufferize-dispatch-tensor-load-store and combine-layout-transformation keep what a dispatch writes.

Each dispatch runs through ``hal_ops.run_dispatch`` on the same bindings and push
constants before and after the passes, with sizes that leave partial tiles (so the
padding loops and the unpack mask matter), and the output binding prefilled with a
marker so that an element nobody writes would show. The walkthrough's gemm and
relayout dispatches (dumps 18-23) are run, and so are CPU forms written by hand in
the same HAL-interface style: an x86_64 LHS and RHS encode (``linalg.pack`` without
swizzle, the RHS transposed) and the unpack of an mmt4d-shaped ``?x?x8x8``
accumulator. The passes' outputs on dumps 20 and 21 are also compared with dumps 22
and 23 as printed text.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import require_reference
from xdsl.context import Context

from mini_iree.compiler import layout as L
from mini_iree.compiler.interpreter import parse_module_text
from mini_iree.compiler.interpreter.hal_ops import run_dispatch, split_index
from mini_iree.compiler.ir.diagnostics import SourceLoc
from mini_iree.compiler.ir.printer import print_module_to_string
from mini_iree.compiler.ir.verifier import verify_op_tree
from mini_iree.passes.bufferize_dispatch_tensor_load_store import BufferizeDispatchTensorLoadStorePass
from mini_iree.passes.combine_layout_transformation import (
    CombineLayoutTransformationPass,
    CombineResultLayoutTransformationPass,
    GPUCombineLayoutTransformationPass,
)

BUFFERIZE = BufferizeDispatchTensorLoadStorePass()
COMBINE_PASSES = [
    CombineLayoutTransformationPass(),
    GPUCombineLayoutTransformationPass(),
    CombineResultLayoutTransformationPass(scope="dispatch"),
]


def _apply(text: str, *passes):
    module = parse_module_text(text)
    for p in passes:
        p.apply(Context(), module)
        verify_op_tree(module, SourceLoc("input.mlir", 1, 1))  # also dominance, which module.verify() skips
    return module


def _run(module, name: str, bindings, constants):
    return [b.copy() for b in run_dispatch(module, name, [np.asarray(b).copy() for b in bindings], constants)]


def _assert_same_bindings(text: str, name: str, bindings, constants, combine) -> list[np.ndarray]:
    """The original, bufferized, and combined dispatches write the same bytes; returns them."""
    before = _run(parse_module_text(text), name, bindings, constants)
    bufferized = _apply(text, BUFFERIZE)
    after_bufferize = _run(bufferized, name, bindings, constants)
    combined = _apply(text, BUFFERIZE, combine)
    text_after = print_module_to_string(combined)
    assert "linalg.pack" not in text_after and "linalg.unpack" not in text_after
    assert "map_scatter" in text_after or "map_store" in text_after
    after_combine = _run(combined, name, bindings, constants)
    for b0, b1, b2 in zip(before, after_bufferize, after_combine):
        np.testing.assert_array_equal(b1, b0)
        np.testing.assert_array_equal(b2, b0)
    return before


def _random(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _marker(nbytes: int) -> np.ndarray:
    return np.full(nbytes, 0xFF, np.uint8)


# ---------------------------------------------------------------------------
# x86_64 forms written by hand (no swizzle): encode LHS / RHS, unpack the accumulator
# ---------------------------------------------------------------------------

_LAYOUT = (
    '#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, '
    '"ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>\n'
)

_PROLOGUE = """  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d0 = arith.index_castui %0 : i32 to index
  %d1 = arith.index_castui %1 : i32 to index
"""

ENCODE_LHS = _LAYOUT + """func.func @encode_lhs() {
  %cst = arith.constant 0.000000e+00 : f32
""" + _PROLOGUE + """  %src = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
  %o0 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%d0]
  %dst = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x1xf32>>{%o0, %d1}
  %2 = iree_tensor_ext.dispatch.tensor.load %src, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1} -> tensor<?x?xf32>
  %3 = tensor.empty(%o0, %d1) : tensor<?x?x8x1xf32>
  %pack = linalg.pack %2 padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %3 : tensor<?x?xf32> -> tensor<?x?x8x1xf32>
  iree_tensor_ext.dispatch.tensor.store %pack, %dst, offsets = [0, 0, 0, 0], sizes = [%o0, %d1, 8, 1], strides = [1, 1, 1, 1] : tensor<?x?x8x1xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x1xf32>>{%o0, %d1}
  return
}
"""

# The RHS (K x N) is stored transposed: N1 x K1 x N0 x K0.
ENCODE_RHS = _LAYOUT + """func.func @encode_rhs() {
  %cst = arith.constant 0.000000e+00 : f32
""" + _PROLOGUE + """  %src = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
  %o1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%d1]
  %dst = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x1xf32>>{%o1, %d0}
  %2 = iree_tensor_ext.dispatch.tensor.load %src, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1} -> tensor<?x?xf32>
  %3 = tensor.empty(%o1, %d0) : tensor<?x?x8x1xf32>
  %pack = linalg.pack %2 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %3 : tensor<?x?xf32> -> tensor<?x?x8x1xf32>
  iree_tensor_ext.dispatch.tensor.store %pack, %dst, offsets = [0, 0, 0, 0], sizes = [%o1, %d0, 8, 1], strides = [1, 1, 1, 1] : tensor<?x?x8x1xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x1xf32>>{%o1, %d0}
  return
}
"""

# The mmt4d result (M1 x N1 x 8 x 8) back to M x N.
UNPACK_ACC = _LAYOUT + """func.func @unpack_acc() {
""" + _PROLOGUE + """  %o0 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%d0]
  %o1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%d1]
  %src = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x8xf32>>{%o0, %o1}
  %dst = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  %2 = iree_tensor_ext.dispatch.tensor.load %src, offsets = [0, 0, 0, 0], sizes = [%o0, %o1, 8, 8], strides = [1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x8xf32>>{%o0, %o1} -> tensor<?x?x8x8xf32>
  %3 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %unpack = linalg.unpack %2 outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %3 : tensor<?x?x8x8xf32> -> tensor<?x?xf32>
  iree_tensor_ext.dispatch.tensor.store %unpack, %dst, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  return
}
"""

CPU_LHS = "{innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}"
CPU_RHS = "{innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}"
CPU_ACC = "{innerDimsPos = [0, 1], innerTileSizes = [8, 8], outerDimsPerm = [0, 1]}"


def _packed(info: str, array: np.ndarray) -> np.ndarray:
    return L.encoding_relayout(L.parse_encoding_info(info), array.shape).pack(array)


@pytest.mark.parametrize("combine", COMBINE_PASSES, ids=lambda p: p.name)
@pytest.mark.parametrize("m,k", [(13, 5), (8, 3), (1, 1)])
def test_x86_encode_lhs(combine, m, k):
    a = _random((m, k), 1)
    expected = _packed(CPU_LHS, a)
    _, out = _assert_same_bindings(ENCODE_LHS, "encode_lhs", [a, _marker(expected.nbytes)], [m, k], combine)
    np.testing.assert_array_equal(out.view(np.float32).reshape(expected.shape), expected)


@pytest.mark.parametrize("combine", COMBINE_PASSES[:1], ids=lambda p: p.name)
@pytest.mark.parametrize("k,n", [(5, 13), (3, 17)])
def test_x86_encode_rhs_transposed(combine, k, n):
    b = _random((k, n), 2)
    expected = _packed(CPU_RHS, b)
    _, out = _assert_same_bindings(ENCODE_RHS, "encode_rhs", [b, _marker(expected.nbytes)], [k, n], combine)
    np.testing.assert_array_equal(out.view(np.float32).reshape(expected.shape), expected)


@pytest.mark.parametrize("combine", COMBINE_PASSES, ids=lambda p: p.name)
@pytest.mark.parametrize("m,n", [(13, 21), (16, 8), (1, 9)])
def test_x86_unpack_accumulator(combine, m, n):
    c = _random((m, n), 3)
    packed = _packed(CPU_ACC, c)
    _, out = _assert_same_bindings(UNPACK_ACC, "unpack_acc", [packed, _marker(c.nbytes)], [m, n], combine)
    np.testing.assert_array_equal(out.view(np.float32).reshape(m, n), c)


# ---------------------------------------------------------------------------
# The walkthrough's dispatches (gfx942, swizzled)
# ---------------------------------------------------------------------------

WALKTHROUGH_LHS = (
    '{innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = '
    '[[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], '
    '[["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}'
)
WALKTHROUGH_RHS = (
    '{innerDimsPos = [1, 0], innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = '
    '[[["CrossThread", 4 : i16], ["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]], '
    '[["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [0, 2, 4, 1, 3]}}'
)


def _dump(name: str) -> str:
    return (require_reference() / "seed-walkthrough" / name).read_text()


def _index_words(*values):
    return [word for v in values for word in split_index(v)]


@pytest.mark.parametrize("m,k,n", [(37, 53, 29), (130, 17, 129)])
def test_walkthrough_gemm_dispatch(m, k, n):
    """Dump 18 -> bufferize -> combine writes the same C as dump 18, and C = A @ B."""
    text = _dump("18-materialize-device-encoding.gemm.after.mlir")
    a, b = _random((m, k), 5), _random((k, n), 6)
    lhs, rhs = _packed(WALKTHROUGH_LHS, a), _packed(WALKTHROUGH_RHS, b)
    rhs_offset = -(-lhs.nbytes // 8192) * 8192  # the RHS sits at an aligned offset of binding 0
    binding0 = np.zeros(rhs_offset + rhs.nbytes, np.uint8)
    binding0[: lhs.nbytes] = lhs.reshape(-1).view(np.uint8)
    binding0[rhs_offset:] = rhs.reshape(-1).view(np.uint8)
    constants = _index_words(rhs_offset, m, k, k, n)
    name = "matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32"
    _, out = _assert_same_bindings(text, name, [binding0, _marker(m * n * 4)], constants, COMBINE_PASSES[0])
    tol = 1e-4 * math.sqrt(k)
    np.testing.assert_allclose(out.view(np.float32).reshape(m, n), a @ b, rtol=tol, atol=tol)


@pytest.mark.parametrize("combine", COMBINE_PASSES, ids=lambda p: p.name)
def test_walkthrough_relayout_dispatch(combine):
    """Dump 19 -> bufferize -> combine packs and swizzles like dump 19, padding included
    (the padding loops run as lanes: every iteration of the workgroup loop at once)."""
    text = _dump("19-materialize-device-encoding.relayout.after.mlir")
    m, k = 37, 53
    a = _random((m, k), 7)
    expected = _packed(WALKTHROUGH_LHS, a)
    _, out = _assert_same_bindings(
        text, "_encoding_0_encode_DxDxf32_to_DxDxf32", [a, _marker(expected.nbytes)], _index_words(m, k), combine
    )
    np.testing.assert_array_equal(out.view(np.float32).reshape(expected.shape), expected)


def _printed(text: str, *passes) -> str:
    return print_module_to_string(_apply(text, *passes))


def test_dump_20_gives_dump_22():
    expected = _printed(_dump("22-combine-layout-transformation.gemm.after.mlir"))
    assert _printed(_dump("20-bufferize-dispatch-tensor-load-store.gemm.after.mlir"), COMBINE_PASSES[0]) == expected
    # From dump 18 through both passes as well (dump 20's generalized transpose comes from another pass).
    assert _printed(_dump("18-materialize-device-encoding.gemm.after.mlir"), BUFFERIZE, COMBINE_PASSES[0]) == expected


def test_dump_21_gives_dump_23_with_the_gpu_distribution():
    expected = _printed(_dump("23-combine-layout-transformation.relayout.after.mlir"))
    assert _printed(_dump("21-bufferize-dispatch-tensor-load-store.relayout.after.mlir"), COMBINE_PASSES[1]) == expected


def test_dump_18_and_19_bufferize_like_dumps_20_and_21():
    """The lines the bufferization pass is responsible for: subspans, loads, stores."""
    for before, after in [
        ("18-materialize-device-encoding.gemm.after.mlir", "20-bufferize-dispatch-tensor-load-store.gemm.after.mlir"),
        ("19-materialize-device-encoding.relayout.after.mlir", "21-bufferize-dispatch-tensor-load-store.relayout.after.mlir"),
    ]:
        ours = _printed(_dump(before), BUFFERIZE).splitlines()
        theirs = _printed(_dump(after)).splitlines()

        def pick(lines):
            keys = ("hal.interface.binding.subspan", "load_from_buffer", "store_to_buffer")
            return [line.split(" = ", 1)[-1] for line in lines if any(key in line for key in keys)]

        # SSA numbers differ (dump 20 has other passes' clean-ups), so compare the ops' text after `=`
        # with operands normalised away.
        import re

        def shape(lines):
            return [re.sub(r"%[\w#]+", "%", line) for line in pick(lines)]

        assert shape(ours) == shape(theirs)


def test_map_store_spelling_with_the_313_name():
    module = _apply(UNPACK_ACC, BUFFERIZE, COMBINE_PASSES[2])
    text = print_module_to_string(module)
    assert "iree_linalg_ext.map_store" in text and "map_scatter" not in text


def test_unknown_scope_is_an_error(tmp_path):
    """A scope IREE does not have is a diagnostic, not silently the dispatch scope."""
    from conftest import run_opt

    source = tmp_path / "f.mlir"
    source.write_text("func.func @f() {\n  return\n}\n")
    result = run_opt([str(source), "-p", "iree-codegen-combine-result-layout-transformation{scope=device}"])
    assert result.returncode == 1
    assert "scope 'device' is not supported" in result.stderr
    assert "Traceback" not in result.stderr


# A pack that is not the first relayout op: the input is transposed first, so the
# padding loops run the transformation of the steps after the pad only.
TRANSPOSE_THEN_PACK = _LAYOUT + """func.func @transpose_then_pack() {
  %cst = arith.constant 0.000000e+00 : f32
""" + _PROLOGUE + """  %src = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d1, %d0}
  %o0 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%d0]
  %o1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 2)>()[%d1]
  %dst = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x2xf32>>{%o0, %o1}
  %2 = iree_tensor_ext.dispatch.tensor.load %src, offsets = [0, 0], sizes = [%d1, %d0], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d1, %d0} -> tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %t = linalg.transpose ins(%2 : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) permutation = [1, 0]
  %3 = tensor.empty(%o0, %o1) : tensor<?x?x8x2xf32>
  %pack = linalg.pack %t padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %3 : tensor<?x?xf32> -> tensor<?x?x8x2xf32>
  iree_tensor_ext.dispatch.tensor.store %pack, %dst, offsets = [0, 0, 0, 0], sizes = [%o0, %o1, 8, 2], strides = [1, 1, 1, 1] : tensor<?x?x8x2xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x2xf32>>{%o0, %o1}
  return
}
"""


@pytest.mark.parametrize("combine", COMBINE_PASSES[:2], ids=lambda p: p.name)
@pytest.mark.parametrize("m,k", [(11, 5), (8, 4)])
def test_transpose_then_pack(combine, m, k):
    a = _random((k, m), 4)
    expected = _packed("{innerDimsPos = [0, 1], innerTileSizes = [8, 2], outerDimsPerm = [0, 1]}", a.T.copy())
    _, out = _assert_same_bindings(
        TRANSPOSE_THEN_PACK, "transpose_then_pack", [a, _marker(expected.nbytes)], [m, k], combine
    )
    np.testing.assert_array_equal(out.view(np.float32).reshape(expected.shape), expected)


# A transposed accumulator (IREE's narrow-N result layout): N1 x M1 x N0 x M0.
UNPACK_TRANSPOSED = UNPACK_ACC.replace("@unpack_acc", "@unpack_transposed").replace(
    "tensor<?x?x8x8xf32>>{%o0, %o1}", "tensor<?x?x4x8xf32>>{%o1, %o0}"
).replace("sizes = [%o0, %o1, 8, 8]", "sizes = [%o1, %o0, 4, 8]").replace(
    "(s0 ceildiv 8)>()[%d1]", "(s0 ceildiv 4)>()[%d1]"
).replace(
    "outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8]",
    "outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [4, 8]",
).replace("tensor<?x?x8x8xf32>", "tensor<?x?x4x8xf32>")


@pytest.mark.parametrize("combine", COMBINE_PASSES[:1], ids=lambda p: p.name)
@pytest.mark.parametrize("m,n", [(13, 6), (3, 9)])
def test_unpack_transposed_accumulator(combine, m, n):
    c = _random((m, n), 8)
    packed = _packed("{innerDimsPos = [1, 0], innerTileSizes = [4, 8], outerDimsPerm = [1, 0]}", c)
    assert packed.shape == (-(-n // 4), -(-m // 8), 4, 8)
    _, out = _assert_same_bindings(UNPACK_TRANSPOSED, "unpack_transposed", [packed, _marker(c.nbytes)], [m, n], combine)
    np.testing.assert_array_equal(out.view(np.float32).reshape(m, n), c)


CODEGEN_PIPELINE = ",".join(
    [
        "iree-stream-annotate-dispatch-assumptions",
        "iree-stream-pack-dispatch-operands",
        "iree-hal-materialize-interfaces",
        "iree-codegen-materialize-device-encoding",
        "iree-codegen-bufferize-dispatch-tensor-load-store",
        "iree-codegen-combine-layout-transformation",
    ]
)


@pytest.mark.parametrize("size", [37, 5])
def test_whole_walkthrough_program_keeps_results(size):
    """From dump 17 (the whole program) through HAL interfaces, device encoding materialization and
    both passes: the host function computes the same matmul after every pass."""
    from conftest import run_opt

    dump = require_reference() / "seed-walkthrough" / "17-materialize-encodings.after.mlir"
    result = run_opt(
        [str(dump), "-p", CODEGEN_PIPELINE, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}",
         "-o", "/dev/null"]
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "pass 'iree-codegen-combine-layout-transformation' kept the results" in result.stderr


# An index constant left just before the store (as earlier passes can leave one) is the one
# the pass reuses for the `tensor.dim`s of an unpack source whose sizes it cannot read from
# its producer (here an elementwise doubling): it must end up before them.
UNPACK_LATE_CONSTANT = UNPACK_ACC.replace("@unpack_acc", "@unpack_late_constant").replace(
    "  %3 = tensor.empty(%d0, %d1)",
    """  %e = tensor.empty(%o0, %o1) : tensor<?x?x8x8xf32>
  %twice = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<?x?x8x8xf32>) outs(%e : tensor<?x?x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<?x?x8x8xf32>
  %3 = tensor.empty(%d0, %d1)""",
).replace("linalg.unpack %2", "linalg.unpack %twice").replace(
    "  iree_tensor_ext.dispatch.tensor.store", "  %c1 = arith.constant 1 : index\n  iree_tensor_ext.dispatch.tensor.store"
)


@pytest.mark.parametrize("combine", COMBINE_PASSES, ids=lambda p: p.name)
def test_reused_constant_dominates_its_uses(combine):
    m, n = 13, 21
    c = _random((m, n), 7)
    packed = _packed(CPU_ACC, c)
    args = [packed, _marker(c.nbytes)]
    _, out = _assert_same_bindings(UNPACK_LATE_CONSTANT, "unpack_late_constant", args, [m, n], combine)
    np.testing.assert_array_equal(out.view(np.float32).reshape(m, n), 2 * c)


_MATMUL_CHAIN = """
func.func @chain(%x0: tensor<?x?xf32>, %w0: tensor<?x?xf32>, %w1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.000000e+00 : f32
  %m0 = tensor.dim %x0, %c0 : tensor<?x?xf32>
  %n0 = tensor.dim %w0, %c1 : tensor<?x?xf32>
  %e0 = tensor.empty(%m0, %n0) : tensor<?x?xf32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %x1 = linalg.matmul ins(%x0, %w0 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %m1 = tensor.dim %x1, %c0 : tensor<?x?xf32>
  %n1 = tensor.dim %w1, %c1 : tensor<?x?xf32>
  %e1 = tensor.empty(%m1, %n1) : tensor<?x?xf32>
  %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %x2 = linalg.matmul ins(%x1, %w1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %x2 : tensor<?x?xf32>
}
"""


def test_unpack_then_pack_between_chained_matmuls_keeps_results(tmp_path):
    # The first matmul's result is unpacked (a slice) and packed again (a pad) for the second:
    # only the pack folds into a map_scatter, and every pass keeps the results.
    from conftest import run_opt

    source = tmp_path / "chain.mlir"
    source.write_text(_MATMUL_CHAIN)
    result = run_opt(
        [str(source), "-p", "data-tiling{target=x86_64:+avx,+avx2,+fma}", "--verify-each-with-interpreter"]
    )
    assert result.returncode == 0, result.stderr
    assert "'iree-codegen-combine-layout-transformation' kept the results of 1 function" in result.stderr
    stored = result.stdout.split("linalg.unpack", 1)[1]
    assert "iree_linalg_ext.map_scatter %unpack into" in stored
    assert "linalg.pack" not in result.stdout
