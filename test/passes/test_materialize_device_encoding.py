"""iree-codegen-materialize-device-encoding keeps what dispatch functions compute.

Two ways:

* whole stream-form modules (IREE 3.13's MaterializeEncodings output on x86_64
  and gfx942, and the walkthrough's dump 17 on gfx942) through
  ``--verify-each-with-interpreter``: the encode dispatches, materialized too,
  write packed bytes that the materialized matmul dispatch reads back;
* every case of ``materialize_device_encoding.mlir`` (one dispatch function per
  target: x86_64 avx2/avx512, aarch64, riscv64, VMVX, gfx942) run with
  ``hal_ops.run_dispatch`` before and after the pass: before, an encoded binding
  holds the logical tensor; after, it holds the tensor packed by the layout
  algebra (numpy), and the function's packed output, unpacked, must equal the
  logical output exactly (inputs are small integers, so every sum is exact).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import require_reference, run_opt

from mini_iree.compiler.interpreter import make_context, parse_module_text
from mini_iree.compiler.interpreter.core import numpy_dtype
from mini_iree.compiler.interpreter.hal_ops import run_dispatch
from mini_iree.compiler.layout.iree_encoding import encoding_relayout
from mini_iree.compiler.materialize_encoding.layouts import LayoutSource, find_target
from mini_iree.dialects import hal
from mini_iree.passes.materialize_device_encoding import MaterializeDeviceEncodingPass

PASS = "iree-codegen-materialize-device-encoding"
LIT_FILE = Path(__file__).with_name("materialize_device_encoding.mlir")


# ---------------------------------------------------------------------------
# Whole modules in stream form
# ---------------------------------------------------------------------------

STREAM_MODULES = [
    "iree-3.13/dynamic-matmul/13_MaterializeEncodingsPass.mlir",
    "iree-3.13/elementwise-producer-consumer/14_MaterializeEncodingsPass.mlir",
    "iree-3.13/gfx942-dynamic-matmul/13_MaterializeEncodingsPass.mlir",
    "seed-walkthrough/17-materialize-encodings.after.mlir",
]


@pytest.mark.parametrize("size", [1, 9, 130])
@pytest.mark.parametrize("path", STREAM_MODULES)
def test_stream_module_keeps_results(path: str, size: int) -> None:
    reference = require_reference()
    result = run_opt(
        [str(reference / path), "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"]
    )
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr


def test_const_weight_module_keeps_results(tmp_path: Path) -> None:
    """The hoisted weight (a narrow-N RHS) is packed by an initializer's encode dispatch.

    The dump elides the weight; a non-uniform one stands in, so that swapped or
    mis-transposed operands would change the result.
    """
    reference = require_reference()
    text = (reference / "iree-3.13/const-weight-matmul/14_MaterializeEncodingsPass.mlir").read_text()
    weight = (np.arange(256 * 512) % 7 - 3).reshape(256, 512)
    dense = "dense<[" + ", ".join("[" + ", ".join(f"{v}.0" for v in row) + "]" for row in weight) + "]>"
    text = text.replace("dense_resource<__elided__> : tensor<256x512xf32>", f"{dense} : tensor<256x512xf32>")
    path = tmp_path / "const_weight.mlir"
    path.write_text(text)
    result = run_opt([str(path), "-p", PASS, "--verify-each-with-interpreter", "--interpreter-dynamic-size=11"])
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------------------
# Single dispatch functions
# ---------------------------------------------------------------------------


def _cases() -> list[str]:
    """The lit cases that are one dispatch function at the top of the module.

    (The hal.executable and stream.executable cases hold their function
    inside an executable; the stream form is run whole in the tests above.)
    """
    text = LIT_FILE.read_text()
    return [
        c
        for c in text.split("// -----")
        if "hal.interface.binding.subspan" in c and "hal.executable " not in c and "stream.executable" not in c
    ]


def _case_name(case: str) -> str:
    return case.split("func.func @", 1)[1].split("(", 1)[0]


def _constant_ordinal(value) -> int:
    """The push-constant ordinal a dim comes from (`index_castui(hal.interface.constant.load)`)."""
    op = value.owner
    while not isinstance(op, hal.InterfaceConstantLoadOp):
        op = op.operands[0].owner
    return op.ordinal.value.data


def _bindings(module):
    func_op = next(op for op in module.walk() if op.name == "func.func")
    return func_op, [op for op in func_op.walk() if isinstance(op, hal.InterfaceBindingSubspanOp)]


def _shape(subspan, constants: list[int]) -> tuple[int, ...]:
    dims = iter(subspan.dynamic_dims)
    return tuple(constants[_constant_ordinal(next(dims))] if s < 0 else s for s in subspan.result.type.get_shape())


def _random(shape, element, rng) -> np.ndarray:
    dtype = numpy_dtype(element)
    return rng.integers(-3, 4, size=shape).astype(dtype)


@pytest.mark.parametrize("sizes", [(1, 1, 1, 1), (13, 7, 5, 3), (37, 130, 19, 2)])
@pytest.mark.parametrize("case", _cases(), ids=_case_name)
def test_dispatch_function_keeps_results(case: str, sizes: tuple[int, ...]) -> None:
    _check_dispatch(case, sizes, "walkthrough")


@pytest.mark.parametrize("sizes", [(1, 1, 1, 1), (37, 130, 19, 2)])
@pytest.mark.parametrize("case", [c for c in _cases() if "gfx942" in c], ids=_case_name)
def test_gfx942_dispatch_with_iree_3_13_heuristics_keeps_results(case: str, sizes: tuple[int, ...]) -> None:
    """`gpu-era=3.13`: IREE 3.13's unrolling and swizzle (no cross-thread-outermost step)."""
    _check_dispatch(case, sizes, "3.13")


def test_walkthrough_binding_example_keeps_results() -> None:
    """Dump 12: `set_encoding` into a binding with the older `layouts = [...]` encoding."""
    reference = require_reference()
    _check_dispatch((reference / "seed-walkthrough/12-specialize-encodings.binding.example.mlir").read_text(), (), "walkthrough")


def _check_dispatch(case: str, sizes: tuple[int, ...], era: str) -> None:
    rng = np.random.default_rng(0)
    before = parse_module_text(case)
    after = parse_module_text(case)
    MaterializeDeviceEncodingPass(gpu_era=era).apply(make_context(), after)
    func_op, subspans = _bindings(before)
    layouts = LayoutSource(find_target(func_op), era)
    constants = list(sizes)

    logical_in: list[np.ndarray] = []
    packed_in: list[np.ndarray] = []
    relayouts = []
    for subspan in subspans:
        ty = subspan.result.type.bound_type
        shape = _shape(subspan, constants)
        info = layouts.info(subspan, ty)
        relayout = None if info is None or info.is_identity() else encoding_relayout(info, shape)
        relayouts.append(relayout)
        element = ty.get_element_type()
        if subspan.result.type.can_read():
            array = _random(shape, element, rng)
        else:
            array = np.zeros(shape, numpy_dtype(element))
        logical_in.append(array)
        packed_in.append(array if relayout is None else relayout.pack(array))

    name = func_op.sym_name.data
    out_before = run_dispatch(before, name, logical_in, constants)
    out_after = run_dispatch(after, name, packed_in, constants)
    checked = 0
    for index, subspan in enumerate(subspans):
        if subspan.result.type.can_read():
            continue
        expected = out_before[index].view(logical_in[index].dtype).reshape(logical_in[index].shape)
        got = out_after[index].view(packed_in[index].dtype).reshape(packed_in[index].shape)
        relayout = relayouts[index]
        if relayout is not None:
            # A packed output must be exactly the packing of the logical one, padding included.
            np.testing.assert_array_equal(got, relayout.pack(expected))
            got = relayout.unpack(got)
        np.testing.assert_array_equal(got, expected)
        checked += 1
    assert checked == 1


# ---------------------------------------------------------------------------
# Elementwise ops on swizzled tiles
# ---------------------------------------------------------------------------

# The walkthrough's gfx942 f32 matmul result (ACC), its LHS, its RHS (outer dims
# transposed), a bias broadcast over M (the ACC's N pieces), a narrow-N bias,
# and a CPU layout without swizzle.
_ACC = (
    '{innerDimsPos = [0, 1], innerTileSizes = [128, 128], outerDimsPerm = [0, 1], swizzle = {expandShape = '
    '[[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["Internal", 4 : i16]], [["CrossThread", 4 : i16], '
    '["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]]], permutation = [3, 1, 5, 0, 4, 2]}}'
)
_LAYOUTS = [
    (_ACC, (37, 130)),
    (
        '{innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = '
        '[[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], [["CrossIntrinsic", 4 : i16], '
        '["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}',
        (130, 19),
    ),
    (
        '{innerDimsPos = [1, 0], innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = '
        '[[["CrossThread", 4 : i16], ["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]], [["CrossIntrinsic", 4 : i16], '
        '["CrossThread", 4 : i16]]], permutation = [0, 2, 4, 1, 3]}}',
        (19, 130),
    ),
    (
        '{innerDimsPos = [0], innerTileSizes = [128], outerDimsPerm = [0], swizzle = {expandShape = '
        '[[["CrossThread", 4 : i16], ["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]]], permutation = [0, 2, 1]}}',
        (130,),
    ),
    (
        '{innerDimsPos = [0], innerTileSizes = [32], outerDimsPerm = [0], swizzle = {expandShape = '
        '[[["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]]], permutation = [1, 0]}}',
        (32,),
    ),
    ("{innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}", (13, 7)),
]


@pytest.mark.parametrize("text,shape", _LAYOUTS)
def test_materialized_dim_sources_say_what_each_dim_indexes(text: str, shape: tuple[int, ...]) -> None:
    """Packing each logical coordinate gives, at every materialized index, the coordinate the sources name:
    outer index * tile + the tile's pieces read as a mixed-radix number (outermost piece first)."""
    from mini_iree.compiler.layout.iree_encoding import materialized_dim_sources, parse_encoding_info

    info = parse_encoding_info(text)
    relayout = encoding_relayout(info, shape)
    sources = materialized_dim_sources(info, len(shape))
    coords = np.indices(shape)
    packed_shape = relayout.pack(coords[0]).shape
    assert len(sources) == len(packed_shape)
    index = np.indices(packed_shape)
    expected = []
    for d in range(len(shape)):
        pieces = sorted((k, j) for j, (e, k) in enumerate(sources) if e == d and k is not None)
        coordinate = np.zeros(packed_shape, dtype=np.int64)
        stride = 1
        for _, j in reversed(pieces):
            coordinate += index[j] * stride
            stride *= packed_shape[j]
        coordinate += index[sources.index((d, None))] * stride
        expected.append(coordinate)
    inside = np.all([c < n for c, n in zip(expected, shape)], axis=0)
    assert inside.sum() == np.prod(shape)
    for d in range(len(shape)):
        np.testing.assert_array_equal(relayout.pack(coords[d])[inside], expected[d][inside])


def test_bias_relu_on_swizzled_result_matches_numpy() -> None:
    """The gfx942 bias + relu dispatch, run after the pass on numpy-packed operands, gives relu(A @ B + bias)."""
    case = next(c for c in _cases() if "@elementwise_generic_on_swizzled_tiles_gfx942" in c)
    module = parse_module_text(case)
    MaterializeDeviceEncodingPass().apply(make_context(), module)
    func_op, subspans = _bindings(parse_module_text(case))
    layouts = LayoutSource(find_target(func_op), "walkthrough")
    m, n, k = 37, 130, 19
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, (m, k)).astype(np.float32)
    b = rng.integers(-3, 4, (k, n)).astype(np.float32)
    bias = rng.integers(-9, 10, (n,)).astype(np.float32)
    inputs = []
    for subspan, array in zip(subspans, [a, b, bias, np.zeros((m, n), np.float32)]):
        info = layouts.info(subspan, subspan.result.type.bound_type)
        inputs.append(array if info is None else encoding_relayout(info, array.shape).pack(array))
    # The bias really is stored swizzled: 130 -> 2 outer x (4 x 2 x 16).
    assert inputs[2].shape == (2, 4, 2, 16)
    outputs = run_dispatch(module, func_op.sym_name.data, inputs, [m, n, k])
    got = outputs[3].view(np.float32).reshape(m, n)
    np.testing.assert_array_equal(got, np.maximum(a @ b + bias, 0))
