"""iree-codegen-gpu-generalize-named-ops keeps what every generalized op computes.

Each program runs in the interpreter before and after the pass on the same
inputs (the generic's body is the named op's scalar computation, so results are
bit-identical); the walkthrough's relayout dispatch (dump 19) writes the same
bytes with its transpose generalized, and dump 19 -> canonicalize -> this pass ->
bufferize-dispatch-tensor-load-store prints exactly as dump 21.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import require_reference
from xdsl.context import Context

from mini_iree.compiler.interpreter import parse_module_text, run
from mini_iree.compiler.interpreter.hal_ops import run_dispatch, split_index
from mini_iree.compiler.ir.printer import print_module_to_string
from mini_iree.compiler.ir.verifier import verify_op_tree
from mini_iree.compiler.ir.diagnostics import SourceLoc
from mini_iree.passes.bufferize_dispatch_tensor_load_store import BufferizeDispatchTensorLoadStorePass
from mini_iree.passes.canonicalize import CanonicalizePass
from mini_iree.passes.gpu_generalize_named_ops import GPUGeneralizeNamedOpsPass

GENERALIZE = GPUGeneralizeNamedOpsPass()


def _apply(text: str, *passes):
    module = parse_module_text(text)
    for p in passes:
        p.apply(Context(), module)
        verify_op_tree(module, SourceLoc("input.mlir", 1, 1))
    return module


PROGRAMS = {
    "transpose": (
        """func.func @f(%a: tensor<2x3x4x8x4x4x4xf32>, %b: tensor<2x3x8x4x4x4x4xf32>) -> tensor<2x3x8x4x4x4x4xf32> {
  %t = linalg.transpose ins(%a : tensor<2x3x4x8x4x4x4xf32>) outs(%b : tensor<2x3x8x4x4x4x4xf32>) permutation = [0, 1, 3, 6, 2, 4, 5]
  return %t : tensor<2x3x8x4x4x4x4xf32>
}""",
        [(2, 3, 4, 8, 4, 4, 4), (2, 3, 8, 4, 4, 4, 4)],
        np.float32,
    ),
    "matmul_i8": (
        """func.func @f(%a: tensor<5x7xi8>, %b: tensor<7x3xi8>, %c: tensor<5x3xi32>) -> tensor<5x3xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<5x7xi8>, tensor<7x3xi8>) outs(%c : tensor<5x3xi32>) -> tensor<5x3xi32>
  return %0 : tensor<5x3xi32>
}""",
        [(5, 7), (7, 3), (5, 3)],
        np.int8,
    ),
    "matmul_transposed_b": (
        """func.func @f(%a: tensor<5x7xf32>, %b: tensor<3x7xf32>, %c: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<5x7xf32>, tensor<3x7xf32>) outs(%c : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}""",
        [(5, 7), (3, 7), (5, 3)],
        np.float32,
    ),
    "batch_matmul": (
        """func.func @f(%a: tensor<2x5x7xf16>, %b: tensor<2x7x3xf16>, %c: tensor<2x5x3xf32>) -> tensor<2x5x3xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x5x7xf16>, tensor<2x7x3xf16>) outs(%c : tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}""",
        [(2, 5, 7), (2, 7, 3), (2, 5, 3)],
        np.float16,
    ),
    "matvec_vecmat": (
        """func.func @f(%m: tensor<4x6xf32>, %v: tensor<6xf32>, %r: tensor<4xf32>) -> (tensor<4xf32>, tensor<6xf32>) {
  %0 = linalg.matvec ins(%m, %v : tensor<4x6xf32>, tensor<6xf32>) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.vecmat ins(%0, %m : tensor<4xf32>, tensor<4x6xf32>) outs(%v : tensor<6xf32>) -> tensor<6xf32>
  return %0, %1 : tensor<4xf32>, tensor<6xf32>
}""",
        [(4, 6), (6,), (4,)],
        np.float32,
    ),
}


def _inputs(shapes, dtype, seed):
    rng = np.random.default_rng(seed)
    arrays = []
    for i, shape in enumerate(shapes):
        if np.issubdtype(dtype, np.integer) and i < 2:
            arrays.append(rng.integers(-128, 128, shape).astype(dtype))
        elif np.issubdtype(dtype, np.integer):
            arrays.append(rng.integers(-1000, 1000, shape).astype(np.int32))
        else:
            # Accumulators are f32 even when the operands are f16.
            arrays.append(rng.standard_normal(shape).astype(dtype if i < 2 else np.float32))
    return arrays


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_generalized_program_computes_the_same(name):
    text, shapes, dtype = PROGRAMS[name]
    args = _inputs(shapes, dtype, seed=len(name))
    before = run(parse_module_text(text), "f", *args)
    module = _apply(text, GENERALIZE)
    printed = print_module_to_string(module)
    assert "linalg.generic" in printed
    assert not any(f"linalg.{op} " in printed for op in ("transpose", "matmul", "batch_matmul", "matvec", "vecmat"))
    after = run(module, "f", *args)
    assert len(after) == len(before)
    for x, y in zip(before, after):
        np.testing.assert_array_equal(y, x)


def _dump(name: str) -> str:
    return (require_reference() / "seed-walkthrough" / name).read_text()


def test_walkthrough_relayout_dispatch_writes_the_same_bytes():
    text = _dump("19-materialize-device-encoding.relayout.after.mlir")
    m, k = 37, 53
    a = np.random.default_rng(3).standard_normal((m, k)).astype(np.float32)
    out_bytes = -(-m // 128) * 128 * -(-k // 16) * 16 * 4
    constants = [w for v in (m, k) for w in split_index(v)]

    def dispatch(module):
        bindings = [a.copy(), np.full(out_bytes, 0xFF, np.uint8)]
        return run_dispatch(module, "_encoding_0_encode_DxDxf32_to_DxDxf32", bindings, constants)[1].copy()

    before = dispatch(parse_module_text(text))
    generalized = _apply(text, GENERALIZE)
    assert "linalg.transpose" not in print_module_to_string(generalized)
    np.testing.assert_array_equal(dispatch(generalized), before)


def test_dump_19_gives_dump_21():
    """IREE's LLVMGPU order: the canonicalizer (dedups the assumptions), this pass, then bufferization."""
    ours = _apply(
        _dump("19-materialize-device-encoding.relayout.after.mlir"),
        CanonicalizePass(),
        GENERALIZE,
        BufferizeDispatchTensorLoadStorePass(),
    )
    expected = parse_module_text(_dump("21-bufferize-dispatch-tensor-load-store.relayout.after.mlir"))
    assert print_module_to_string(ours) == print_module_to_string(expected)
