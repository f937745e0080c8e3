"""IREE 3.13's own dumps run and give numpy's answer.

Each example directory holds the input program (``input.mlir``) and IREE
3.13's IR before data tiling (03) and after each dispatch-creation pass up to
``HoistIntoGlobals`` (04-09). All of them are whole modules: the entry point
takes and returns buffer views from stage 03 on.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import reference_missing

from mini_iree.compiler.interpreter import InterpreterError, parse_module_text, run

IREE_313 = Path(__file__).resolve().parents[3] / "shared" / "reference" / "iree-3.13"

pytestmark = pytest.mark.skipif(not IREE_313.is_dir(), reason=reference_missing("IREE 3.13 dumps", IREE_313))

STAGES = [
    "input.mlir",
    "03_input_before_AnnotateDataTilingHints.mlir",
    "04_AnnotateDataTilingHintsPass.mlir",
    "05_SetEncodingPass.mlir",
    "06_HoistEncodingOpsPass.mlir",
    "07_FuseEncodingOpsIntoDispatchRegionsPass.mlir",
    "08_ConvertEncodingToFlowPass.mlir",
    "09_HoistIntoGlobalsPass.mlir",
]


def _module(example: str, stage: str):
    path = IREE_313 / example / stage
    return parse_module_text(path.read_text(), path.name)


def _random(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _assert_close(actual, expected, k):
    tolerance = 1e-5 * math.sqrt(k) * 10
    np.testing.assert_allclose(actual, expected, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("example", ["dynamic-matmul", "gfx942-dynamic-matmul"])
@pytest.mark.parametrize("stage", STAGES)
def test_dynamic_matmul(example, stage):
    m, k, n = 37, 53, 29
    a, b = _random((m, k), 1), _random((k, n), 2)
    (c,) = run(_module(example, stage), "matmul_f32f32f32", a, b)
    _assert_close(c, a @ b, k)


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("m,k,n", [(37, 53, 29), (1, 1, 1)])
def test_elementwise_producer_and_consumer(stage, m, k, n):
    a, bias_k, b, bias_n = _random((m, k), 3), _random((k,), 4), _random((k, n), 5), _random((n,), 6)
    (c,) = run(_module("elementwise-producer-consumer", stage), "matmul_ew_both", a, bias_k, b, bias_n)
    expected = np.maximum((a + bias_k[None, :]) @ b + bias_n[None, :], 0)
    _assert_close(c, expected, k)


def _weight_from_text(text: str) -> np.ndarray:
    """The 256x512 f32 weight, decoded from the hex blob of ``input.mlir``."""
    blob = re.search(r'dense<"0x([0-9A-Fa-f]+)">', text)
    assert blob is not None
    return np.frombuffer(bytes.fromhex(blob.group(1)), dtype="<f4").reshape(256, 512)


def test_const_weight_matmul_input():
    text = (IREE_313 / "const-weight-matmul" / "input.mlir").read_text()
    weight = _weight_from_text(text)
    a = _random((19, 256), 7)
    (c,) = run(parse_module_text(text), "matmul_const", a)
    _assert_close(c, a @ weight, 256)


# ---------------------------------------------------------------------------
# Stream-level modules
# ---------------------------------------------------------------------------

STREAM_MODULES = {
    "dynamic-matmul": ["10_SpecializeEncodingsPass.mlir", "13_MaterializeEncodingsPass.mlir"],
    "gfx942-dynamic-matmul": ["10_SpecializeEncodingsPass.mlir", "13_MaterializeEncodingsPass.mlir"],
    "elementwise-producer-consumer": ["10_SpecializeEncodingsPass.mlir", "14_MaterializeEncodingsPass.mlir"],
}


def _with_executables_of(module, donor):
    """``module`` (a host-only dump) completed with the executables of ``donor``."""
    from mini_iree.dialects.stream import ExecutableOp

    block = module.body.block
    for op in donor.ops:
        if isinstance(op, ExecutableOp):
            block.insert_op_before(op.clone(), block.first_op)
    return module


def _run_example(example, module):
    m, k, n = 37, 53, 29
    a, b = _random((m, k), 1), _random((k, n), 2)
    if example == "elementwise-producer-consumer":
        bias_k, bias_n = _random((k,), 4), _random((n,), 6)
        (c,) = run(module, "matmul_ew_both", a, bias_k, b, bias_n)
        _assert_close(c, np.maximum((a + bias_k[None, :]) @ b + bias_n[None, :], 0), k)
    else:
        (c,) = run(module, "matmul_f32f32f32", a, b)
        _assert_close(c, a @ b, k)


@pytest.mark.parametrize("example,stage", [(e, s) for e, stages in STREAM_MODULES.items() for s in stages])
def test_stream_level_modules(example, stage):
    _run_example(example, _module(example, stage))


@pytest.mark.parametrize("example", list(STREAM_MODULES))
def test_encode_host_tensors_with_the_executables_of_stage_10(example):
    """Dump 11 shows only the host function; `EncodeHostTensors` leaves executables as
    they were after `SpecializeEncodings`, so stage 10's complete it."""
    module = _module(example, "11_EncodeHostTensorsPass.mlir")
    _run_example(example, _with_executables_of(module, _module(example, "10_SpecializeEncodingsPass.mlir")))


@pytest.mark.parametrize("stage", STAGES[1:] + ["10_SpecializeEncodingsPass.mlir", "14_MaterializeEncodingsPass.mlir"])
def test_const_weight_matmul_dumps_have_no_weight_data(stage):
    """IREE prints large constants as ``dense_resource<__elided__>``: the dumps do not
    hold the weight, so running them stops with an error that says so."""
    module = _module("const-weight-matmul", stage)
    with pytest.raises(InterpreterError, match=r"dense_resource<__elided__>"):
        run(module, "matmul_const", _random((19, 256), 7))


# ---------------------------------------------------------------------------
# Dispatch functions after MaterializeDeviceEncoding (run through a dispatch context)
# ---------------------------------------------------------------------------

# x86 CPU (dynamic-matmul): LHS M x K in 8x1 tiles, RHS K x N transposed into N1 x K x 8 x 1.
CPU_LHS = dict(inner_dims_pos=[0, 1], inner_tiles=[8, 1], outer_dims_perm=[0, 1])
CPU_RHS = dict(inner_dims_pos=[1, 0], inner_tiles=[8, 1], outer_dims_perm=[1, 0])
# gfx942 (from the `encoding_info` of dump 10): IREE 3.13's swizzles.
GPU_LHS = dict(
    inner_dims_pos=[0, 1], inner_tiles=[128, 16], outer_dims_perm=[0, 1],
    expand_sizes=[[2, 4, 16], [4, 4]], permutation=[0, 1, 4, 2, 3],
)  # fmt: skip
GPU_RHS = dict(
    inner_dims_pos=[1, 0], inner_tiles=[128, 16], outer_dims_perm=[1, 0],
    expand_sizes=[[2, 4, 16], [4, 4]], permutation=[0, 1, 4, 2, 3],
)  # fmt: skip


def _words(*values):
    from mini_iree.compiler.interpreter.hal_ops import split_index

    return [word for v in values for word in split_index(v)]


def _gemm_bindings(lhs, rhs, m, n):
    """Binding 0 holds both packed inputs (the RHS at an aligned offset), binding 1 the result."""
    offset = -(-lhs.nbytes // 8192) * 8192
    binding0 = np.zeros(offset + rhs.nbytes, np.uint8)
    binding0[: lhs.nbytes] = lhs.reshape(-1).view(np.uint8)
    binding0[offset:] = rhs.reshape(-1).view(np.uint8)
    return [binding0, np.zeros(m * n * 4, np.uint8)], offset


@pytest.mark.parametrize(
    "example,stage,lhs_layout,rhs_layout",
    [
        ("dynamic-matmul", "14_MaterializeDeviceEncodingPass_matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32.mlir",
         CPU_LHS, CPU_RHS),
        ("gfx942-dynamic-matmul",
         "14_MaterializeDeviceEncodingPass_matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32.mlir", GPU_LHS, GPU_RHS),
        ("gfx942-dynamic-matmul", "16_GPUPackToIntrinsicsPass_matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32.mlir",
         GPU_LHS, GPU_RHS),
        ("gfx942-dynamic-matmul",
         "17_DecomposeBoundaryPackUnPackOpsPass_matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32.mlir", GPU_LHS, GPU_RHS),
    ],
)  # fmt: skip
def test_materialized_gemm_dispatch(example, stage, lhs_layout, rhs_layout):
    from mini_iree.compiler.interpreter.hal_ops import run_dispatch
    from test_iree_ops_walkthrough import pack

    m, k, n = 37, 53, 29
    a, b = _random((m, k), 1), _random((k, n), 2)
    bindings, offset = _gemm_bindings(pack(a, **lhs_layout), pack(b, **rhs_layout), m, n)
    # Push constants: the RHS byte offset, then the workload M, N, K, K.
    constants = _words(offset, m, n, k, k)
    _, out = run_dispatch(_module(example, stage), "matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32", bindings, constants)
    _assert_close(out.view(np.float32).reshape(m, n), a @ b, k)


def test_cpu_encoding_dispatches():
    """The LHS and RHS encoding dispatches of the x86 example write the packed layouts."""
    from mini_iree.compiler.interpreter.hal_ops import run_dispatch
    from test_iree_ops_walkthrough import pack

    m, k, n = 37, 53, 29
    a, b = _random((m, k), 1), _random((k, n), 2)
    lhs, rhs = pack(a, **CPU_LHS), pack(b, **CPU_RHS)
    lhs_stage = "18_MaterializeDeviceEncodingPass__encoding_0_encode_DxDxf32_to_DxDxf32.mlir"
    _, out = run_dispatch(
        _module("dynamic-matmul", lhs_stage), "_encoding_0_encode_DxDxf32_to_DxDxf32",
        [a, np.full(lhs.nbytes, 0xFF, np.uint8)], _words(m, k),
    )  # fmt: skip
    np.testing.assert_array_equal(out.view(np.float32).reshape(lhs.shape), lhs)
    # The RHS dispatch writes at a byte offset of its result binding (push constants 0-1).
    rhs_stage = "22_MaterializeDeviceEncodingPass__encoding_1_encode_DxDxf32_to_DxDxf32.mlir"
    _, out = run_dispatch(
        _module("dynamic-matmul", rhs_stage), "_encoding_1_encode_DxDxf32_to_DxDxf32",
        [b, np.full(64 + rhs.nbytes, 0xFF, np.uint8)], _words(64, k, n),
    )  # fmt: skip
    np.testing.assert_array_equal(out[64:].view(np.float32).reshape(rhs.shape), rhs)


GPU_LHS_ENCODE = [
    "20_MaterializeDeviceEncodingPass__encoding_0_encode_DxDxf32_to_DxDxf32.mlir",
    "22_GPUPackToIntrinsicsPass__encoding_0_encode_DxDxf32_to_DxDxf32.mlir",
    "23_DecomposeBoundaryPackUnPackOpsPass__encoding_0_encode_DxDxf32_to_DxDxf32.mlir",
    "24_CombineSourceLayoutTransformationPass__encoding_0_encode_DxDxf32_to_DxDxf32.mlir",
    "25_CombineResultLayoutTransformationPass__encoding_0_encode_DxDxf32_to_DxDxf32.mlir",
]
GPU_RHS_ENCODE = [
    "26_MaterializeDeviceEncodingPass__encoding_1_encode_DxDxf32_to_DxDxf32.mlir",
    "28_GPUPackToIntrinsicsPass__encoding_1_encode_DxDxf32_to_DxDxf32.mlir",
    "29_DecomposeBoundaryPackUnPackOpsPass__encoding_1_encode_DxDxf32_to_DxDxf32.mlir",
    "30_CombineSourceLayoutTransformationPass__encoding_1_encode_DxDxf32_to_DxDxf32.mlir",
    "31_CombineResultLayoutTransformationPass__encoding_1_encode_DxDxf32_to_DxDxf32.mlir",
]


@pytest.mark.parametrize("stage", GPU_LHS_ENCODE)
def test_gfx942_lhs_encoding_dispatch(stage):
    from mini_iree.compiler.interpreter.hal_ops import run_dispatch
    from test_iree_ops_walkthrough import pack

    # Later stages run loops over tiles and elements one iteration at a time:
    # keep the matrix small (still padded in both dims).
    m, k = 5, 7
    a = _random((m, k), 1)
    expected = pack(a, **GPU_LHS)
    _, out = run_dispatch(
        _module("gfx942-dynamic-matmul", stage), "_encoding_0_encode_DxDxf32_to_DxDxf32",
        [a, np.full(expected.nbytes, 0xFF, np.uint8)], _words(m, k),
    )  # fmt: skip
    np.testing.assert_array_equal(out.view(np.float32).reshape(expected.shape), expected)


@pytest.mark.parametrize("stage", GPU_RHS_ENCODE)
def test_gfx942_rhs_encoding_dispatch(stage):
    from mini_iree.compiler.interpreter.hal_ops import run_dispatch
    from test_iree_ops_walkthrough import pack

    k, n = 7, 5  # see the LHS test for the sizes
    b = _random((k, n), 2)
    expected = pack(b, **GPU_RHS)
    offset = 8192  # the result's byte offset in binding 1 (push constants 0-1)
    _, out = run_dispatch(
        _module("gfx942-dynamic-matmul", stage), "_encoding_1_encode_DxDxf32_to_DxDxf32",
        [b, np.full(offset + expected.nbytes, 0xFF, np.uint8)], _words(offset, k, n),
    )  # fmt: skip
    np.testing.assert_array_equal(out[offset:].view(np.float32).reshape(expected.shape), expected)
