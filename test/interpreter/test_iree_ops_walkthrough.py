"""The seed walkthrough's programs run, stage by stage, and compute ``A @ B``.

Whole modules (stages 00-10, 13, 17) run through their public function on
buffer views; dump 16 shows only the host function and runs with stage 13's
executable. The function-level dumps after codegen (18-23) take no arguments:
they run through a dispatch context whose bindings this test packs in numpy
(:func:`pack`, also used by the other IREE op tests), from the layouts the
walkthrough spells out in its encodings (``innerDimsPos``/``innerTileSizes``/
``outerDimsPerm`` plus the GPU swizzle). Sizes are odd so that tiles are padded.

The matmul dispatches (18, 20, 22) compute with ``iree_codegen.inner_tiled``,
which reads its tiles with the swizzle its ``kind`` defines. The dialect builds
IREE 3.13's swizzle, while the walkthrough's layouts carry the seed-era one, so
those dumps are run with the kind answering the walkthrough's swizzles, and
run as they are only once the kind can give the seed-era layout.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from conftest import reference_missing

from mini_iree.compiler.interpreter import parse_module_text, run
from mini_iree.compiler.interpreter.hal_ops import run_dispatch, split_index

WALKTHROUGH = Path(__file__).resolve().parents[3] / "shared" / "reference" / "seed-walkthrough"

pytestmark = pytest.mark.skipif(not WALKTHROUGH.is_dir(), reason=reference_missing("walkthrough dumps", WALKTHROUGH))


def _module(name: str):
    return parse_module_text((WALKTHROUGH / name).read_text(), name)


def _random(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _assert_matmul_close(actual, expected, k):
    # f32 accumulation over k terms of unit-variance products.
    np.testing.assert_allclose(actual, expected, rtol=1e-5 * math.sqrt(k) * 10, atol=1e-5 * math.sqrt(k) * 10)


# ---------------------------------------------------------------------------
# Whole modules: @matmul_f32f32f32(A, B) = A @ B with dynamic sizes
# ---------------------------------------------------------------------------

MATMUL_STAGES = [
    "00-annotate-data-tiling-hints.before.mlir",
    "01-annotate-data-tiling-hints.after.mlir",
    "02-set-encoding.after.mlir",
    "03-hoist-encoding-ops.after.mlir",
    "06-convert-encoding-to-flow.after.mlir",
    "09-convert-to-stream.before.mlir",
    "10-convert-to-stream.after.mlir",
    "13-specialize-encodings.after.mlir",
    "17-materialize-encodings.after.mlir",
]


@pytest.mark.parametrize("stage", MATMUL_STAGES)
@pytest.mark.parametrize("m,k,n", [(37, 53, 29), (1, 5, 130), (0, 3, 4)])
def test_matmul_stage(stage, m, k, n):
    a, b = _random((m, k), 1), _random((k, n), 2)
    (c,) = run(_module(stage), "matmul_f32f32f32", a, b)
    assert c.shape == (m, n) and c.dtype == np.float32
    _assert_matmul_close(c, a @ b, k)


def test_matmul_stage_16_with_the_executable_of_stage_13():
    """Dump 16 shows only the host function: `iree-stream-encode-host-tensors` rewrites
    host code and leaves executables alone, so stage 13's executable completes it."""
    from mini_iree.dialects.stream import ExecutableOp

    module = _module("16-encode-host-tensors.after.mlir")
    assert not any(isinstance(op, ExecutableOp) for op in module.ops)
    block = module.body.block
    for op in _module("13-specialize-encodings.after.mlir").ops:
        if isinstance(op, ExecutableOp):
            block.insert_op_before(op.clone(), block.first_op)
    m, k, n = 37, 53, 29
    a, b = _random((m, k), 1), _random((k, n), 2)
    (c,) = run(module, "matmul_f32f32f32", a, b)
    _assert_matmul_close(c, a @ b, k)


# ---------------------------------------------------------------------------
# Whole modules: @foo(A, bias) = (A @ ones(513, 1023)) * bias, static sizes
# ---------------------------------------------------------------------------

FOO_STAGES = [
    "04-hoist-encoding-ops.local-propagation.before.mlir",
    "05-hoist-encoding-ops.local-propagation.after.mlir",
    "07-hoist-into-globals.before.mlir",
    "08-hoist-into-globals.after.mlir",
]


@pytest.mark.parametrize("stage", FOO_STAGES)
def test_matmul_times_bias_stage(stage):
    a, bias = _random((255, 513), 3), _random((1023,), 4)
    (c,) = run(_module(stage), "foo", a, bias)
    expected = (a @ np.ones((513, 1023), np.float32)) * bias[None, :]
    _assert_matmul_close(c, expected, 513)


def test_08_initializer_fills_the_hoisted_global():
    """Stage 08 reads the encoded weight from a global only its initializer stores."""
    text = (WALKTHROUGH / "08-hoist-into-globals.after.mlir").read_text()
    assert "util.initializer" in text and "util.global.load" in text
    a, bias = np.ones((255, 513), np.float32), np.ones((1023,), np.float32)
    (c,) = run(parse_module_text(text), "foo", a, bias)
    np.testing.assert_array_equal(c, np.full((255, 1023), 513, np.float32))


# ---------------------------------------------------------------------------
# Packed layouts of the walkthrough (gfx942, MFMA_F32_16x16x4_F32)
# ---------------------------------------------------------------------------


def pack(array, inner_dims_pos, inner_tiles, outer_dims_perm, expand_sizes=None, permutation=None):
    """IREE's materialized layout, written out in numpy: pad, tile, permute, swizzle.

    ``expand_sizes`` lists, per inner tile dim, the sizes it is split into
    (outermost first); ``permutation`` then orders the expanded dims.
    """
    padded_shape = list(array.shape)
    for dim, tile in zip(inner_dims_pos, inner_tiles):
        padded_shape[dim] = -(-padded_shape[dim] // tile) * tile
    padded = np.zeros(padded_shape, array.dtype)
    padded[tuple(slice(0, n) for n in array.shape)] = array
    # Split every tiled dim d into (outer_d, tile_d).
    split_shape, outer_axis, inner_axis, axis = [], {}, {}, 0
    for dim, extent in enumerate(padded_shape):
        if dim in inner_dims_pos:
            tile = inner_tiles[inner_dims_pos.index(dim)]
            split_shape += [extent // tile, tile]
            outer_axis[dim], inner_axis[dim] = axis, axis + 1
            axis += 2
        else:
            split_shape.append(extent)
            outer_axis[dim] = axis
            axis += 1
    tiled = padded.reshape(split_shape)
    order = [outer_axis[d] for d in outer_dims_perm] + [inner_axis[d] for d in inner_dims_pos]
    packed = tiled.transpose(order)
    if expand_sizes is None:
        return np.ascontiguousarray(packed)
    rank = len(outer_dims_perm)
    flat = [s for group in expand_sizes for s in group]
    expanded = packed.reshape(packed.shape[:rank] + tuple(flat))
    return np.ascontiguousarray(expanded.transpose(list(range(rank)) + [rank + p for p in permutation]))


# From the walkthrough's #encoding (LHS) and #encoding1 (RHS) after specialization.
LHS_LAYOUT = dict(
    inner_dims_pos=[0, 1], inner_tiles=[128, 16], outer_dims_perm=[0, 1],
    expand_sizes=[[4, 8, 4], [4, 4]], permutation=[1, 4, 0, 2, 3],
)  # fmt: skip
RHS_LAYOUT = dict(
    inner_dims_pos=[1, 0], inner_tiles=[128, 16], outer_dims_perm=[1, 0],
    expand_sizes=[[4, 16, 2], [4, 4]], permutation=[0, 2, 4, 1, 3],
)  # fmt: skip


def _index_constants(*values):
    return [word for v in values for word in split_index(v)]


def test_pack_helper_matches_the_walkthrough_shapes():
    a, b = np.zeros((37, 53), np.float32), np.zeros((53, 29), np.float32)
    assert pack(a, **LHS_LAYOUT).shape == (1, 4, 8, 4, 4, 4, 4)
    assert pack(b, **RHS_LAYOUT).shape == (1, 4, 4, 2, 4, 16, 4)


GEMM_STAGES = [
    "18-materialize-device-encoding.gemm.after.mlir",
    "20-bufferize-dispatch-tensor-load-store.gemm.after.mlir",
    "22-combine-layout-transformation.gemm.after.mlir",
]

# The accumulator layout of dump 18: its unswizzle is `linalg.transpose
# permutation = [0, 1, 5, 3, 7, 2, 6, 4]` then a collapse of [4, 8, 4] x [4, 16, 2].
ACC_LAYOUT = dict(
    inner_dims_pos=[0, 1], inner_tiles=[128, 128], outer_dims_perm=[0, 1],
    expand_sizes=[[4, 8, 4], [4, 16, 2]], permutation=[3, 1, 5, 0, 4, 2],
)  # fmt: skip


def _run_gemm_dispatch(stage, m, k, n):
    """The matmul dispatch reads packed LHS/RHS from binding 0 and writes plain C to binding 1."""
    a, b = _random((m, k), 5), _random((k, n), 6)
    lhs, rhs = pack(a, **LHS_LAYOUT), pack(b, **RHS_LAYOUT)
    # Both inputs share binding 0; the RHS starts at an aligned byte offset (push constants 0-1).
    rhs_offset = -(-lhs.nbytes // 8192) * 8192
    binding0 = np.zeros(rhs_offset + rhs.nbytes, np.uint8)
    binding0[: lhs.nbytes] = lhs.reshape(-1).view(np.uint8)
    binding0[rhs_offset:] = rhs.reshape(-1).view(np.uint8)
    binding1 = np.zeros(m * n * 4, np.uint8)
    constants = _index_constants(rhs_offset, m, k, k, n)
    _, out = run_dispatch(_module(stage), "matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32", [binding0, binding1], constants)
    _assert_matmul_close(out.view(np.float32).reshape(m, n), a @ b, k)


@pytest.mark.parametrize("stage", GEMM_STAGES)
@pytest.mark.parametrize("m,k,n", [(37, 53, 29), (130, 17, 129)])
def test_gemm_dispatch(stage, m, k, n):
    """The kind's walkthrough-era swizzles read the tiles the walkthrough's encodings wrote."""
    _run_gemm_dispatch(stage, m, k, n)


@pytest.mark.parametrize(
    "stage,m,k",
    [
        ("19-materialize-device-encoding.relayout.after.mlir", 37, 53),
        ("21-bufferize-dispatch-tensor-load-store.relayout.after.mlir", 37, 53),
        # Stage 23 writes the padding one element per loop iteration: keep it small.
        ("23-combine-layout-transformation.relayout.after.mlir", 5, 7),
    ],
)
def test_relayout_dispatch(stage, m, k):
    """The LHS encoding dispatch turns a plain M x K matrix into the swizzled packed layout."""
    a = _random((m, k), 7)
    expected = pack(a, **LHS_LAYOUT)
    source = a.reshape(-1).view(np.uint8)
    # Fill the output with a marker so unwritten padding would show.
    target = np.full(expected.nbytes, 0xFF, np.uint8)
    constants = _index_constants(m, k)
    _, out = run_dispatch(_module(stage), "_encoding_0_encode_DxDxf32_to_DxDxf32", [source, target], constants)
    np.testing.assert_array_equal(out.view(np.float32).reshape(expected.shape), expected)
