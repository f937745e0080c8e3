"""``iree_codegen.inner_tiled`` with each kind the interpreter runs, against a plain matmul.

Operands are built from whole matrices: each matrix is cut into plain tiles
(LHS M0xK0, RHS N0xK0, ACC M0xN0; scaled kinds add the Kb block dim) and each
tile laid out by its kind's swizzle with a reshape and a transpose written here,
independently of the interpreter's relayouts. The result must be the
accumulator plus the matmul of the matrices, tiled and swizzled the same way.
"""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.interpreter import InterpreterError, parse_module_text, run
from mini_iree.compiler.interpreter.codegen_ops import _run_inner_tiled
from mini_iree.dialects import iree_codegen
from mini_iree.dialects.iree_codegen import TileSwizzle

RNG = np.random.default_rng(11)

PARALLEL, REDUCTION = "#linalg.iterator_type<parallel>", "#linalg.iterator_type<reduction>"
MATMUL_MAPS = "[affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]"
SCALED_MAPS = (
    "[affine_map<(m, n, k, kb) -> (m, k, kb)>, affine_map<(m, n, k, kb) -> (n, k, kb)>, "
    "affine_map<(m, n, k, kb) -> (m, k)>, affine_map<(m, n, k, kb) -> (n, k)>, affine_map<(m, n, k, kb) -> (m, n)>]"
)


def swizzled(tiles: np.ndarray, swizzle: TileSwizzle, outer_rank: int) -> np.ndarray:
    """Plain tiles (outer x one dim per swizzle group) in the swizzle's layout."""
    outer = tiles.shape[:outer_rank]
    expanded = tiles.reshape(outer + tuple(d.size for d in swizzle.flat_dims()))
    return expanded.transpose(list(range(outer_rank)) + [outer_rank + p for p in swizzle.permutation])


def tensor_type(array: np.ndarray, element: str) -> str:
    return "tensor<" + "x".join(map(str, array.shape)) + f"x{element}>"


def program(operands, elements, maps, iterators, kind, semantics, permutations=None) -> str:
    types = [tensor_type(a, e) for a, e in zip(operands, elements)]
    names = [f"%a{i}" for i in range(len(operands))]
    args = ", ".join(f"{n}: {t}" for n, t in zip(names, types))
    extra = f", permutations = {permutations}" if permutations else ""
    return f"""
    func.func @mma({args}) -> {types[-1]} {{
      %0 = iree_codegen.inner_tiled ins({", ".join(names[:-1])}) outs({names[-1]}) {{
        indexing_maps = {maps}, iterator_types = [{", ".join(iterators)}],
        kind = {kind}, semantics = {semantics}{extra}
      }} : {", ".join(types[:-1])} into {types[-1]}
      return %0 : {types[-1]}
    }}
    """


def matmul_tiles(a: np.ndarray, b: np.ndarray, c: np.ndarray, m0: int, n0: int, k0: int):
    """A (MxK), B (KxN), C (MxN) as the tiles of `MATMUL_MAPS`: LHS [i, k, M0, K0],
    RHS [k, j, N0, K0] (B's tiles transposed), ACC [i, j, M0, N0]."""
    (m, k), n = a.shape, b.shape[1]
    lhs = a.reshape(m // m0, m0, k // k0, k0).transpose(0, 2, 1, 3)
    rhs = b.reshape(k // k0, k0, n // n0, n0).transpose(0, 2, 3, 1)
    acc = c.reshape(m // m0, m0, n // n0, n0).transpose(0, 2, 1, 3)
    return lhs, rhs, acc


def cpu_kind(intrinsic: str, **counts: int) -> str:
    fields = "".join(f", {k} = {v}" for k, v in counts.items())
    return f"#iree_cpu.data_tiled_mma_layout<intrinsic = {intrinsic}{fields}>"


def parsed_kind(kind_text: str):
    return parse_module_text(f'"test.op"() {{kind = {kind_text}}} : () -> ()').body.block.ops.first.attributes["kind"]


# ---------------------------------------------------------------------------
# #iree_cpu.data_tiled_mma_layout
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "intrinsic,counts,tile",
    [
        ("MMA_X86_AVX512_1x16x1_F32_F32", {"intrinsics_m": 2}, (2, 16, 1)),
        ("MMA_X86_AVX512_16x1x1_F32_F32", {"intrinsics_n": 4, "intrinsics_k": 2}, (16, 4, 2)),
        ("MMA_X86_AVX2_FMA_1x8x1_F32_F32", {"intrinsics_m": 3, "intrinsics_n": 2}, (3, 16, 1)),
        ("MMA_GENERIC_SCALAR_1x1x1_REG8", {"intrinsics_m": 2, "lhs_type": "f32", "rhs_type": "f32", "acc_type": "f32"},
         (2, 1, 1)),
    ],
)  # fmt: skip
def test_cpu_data_tiled_f32(intrinsic, counts, tile):
    m0, n0, k0 = tile
    kind_text = "#iree_cpu.data_tiled_mma_layout<intrinsic = " + intrinsic + "".join(
        f", {k} = {v}" for k, v in counts.items()
    ) + ">"
    kind = parsed_kind(kind_text)
    a, b, c = (RNG.standard_normal(s).astype(np.float32) for s in ((3 * m0, 5 * k0), (5 * k0, 2 * n0), (3 * m0, 2 * n0)))
    tiles = matmul_tiles(a, b, c, m0, n0, k0)
    operands = [swizzled(t, kind.swizzle(i), 2) for i, t in enumerate(tiles)]
    text = program(operands, ["f32"] * 3, MATMUL_MAPS, [PARALLEL, PARALLEL, REDUCTION], kind_text, "#iree_cpu.mma_semantics<>")
    (result,) = run(text, "mma", *operands)
    expected = swizzled(matmul_tiles(a, b, c + a @ b, m0, n0, k0)[2], kind.swizzle(2), 2)
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)


def test_cpu_vnni_16x16x2_block_interleaved_accumulator_is_exact():
    kind_text = cpu_kind("MMA_X86_AVX512VNNI_16x16x2_I32_I8_CASTI16", intrinsics_k=2)
    kind = parsed_kind(kind_text)
    assert kind.swizzle(2).permutation == [1, 2, 0, 3]
    a = RNG.integers(-128, 128, (32, 12), dtype=np.int8)
    b = RNG.integers(-128, 128, (12, 48), dtype=np.int8)
    c = RNG.integers(-1000, 1000, (32, 48), dtype=np.int32)
    tiles = matmul_tiles(a, b, c, 16, 16, 4)
    operands = [swizzled(t, kind.swizzle(i), 2) for i, t in enumerate(tiles)]
    text = program(operands, ["i8", "i8", "i32"], MATMUL_MAPS, [PARALLEL, PARALLEL, REDUCTION], kind_text,
                   "#iree_cpu.mma_semantics<>")  # fmt: skip
    (result,) = run(text, "mma", *operands)
    full = c + a.astype(np.int32) @ b.astype(np.int32)
    np.testing.assert_array_equal(result, swizzled(matmul_tiles(a, b, full, 16, 16, 4)[2], kind.swizzle(2), 2))


def test_cpu_vnni_unsigned_lhs():
    # vpdpbusd multiplies unsigned LHS bytes by signed RHS bytes.
    kind_text = cpu_kind("MMA_X86_AVX512VNNI_1x16x4_I32_UI8_I8")
    kind = parsed_kind(kind_text)
    a = RNG.integers(0, 256, (2, 8), dtype=np.uint8)
    b = RNG.integers(-128, 128, (8, 32), dtype=np.int8)
    c = np.zeros((2, 32), np.int32)
    tiles = matmul_tiles(a.view(np.int8), b, c, 1, 16, 4)
    operands = [swizzled(t, kind.swizzle(i), 2) for i, t in enumerate(tiles)]
    text = program(operands, ["i8", "i8", "i32"], MATMUL_MAPS, [PARALLEL, PARALLEL, REDUCTION], kind_text,
                   "#iree_cpu.mma_semantics<>")  # fmt: skip
    (result,) = run(text, "mma", *operands)
    full = a.astype(np.int32) @ b.astype(np.int32)
    np.testing.assert_array_equal(result, swizzled(matmul_tiles(a, b, full, 1, 16, 4)[2], kind.swizzle(2), 2))


def test_cpu_scalable_kind_is_refused():
    kind_text = cpu_kind("MMA_ARM_SVE_FMLA_1x4VLx1_F32_F32")
    text = f"""
    func.func @mma(%l: tensor<2x2x1x1xf32>, %r: tensor<2x2x1x4xf32>, %a: tensor<2x2x1x4xf32>) -> tensor<2x2x1x4xf32> {{
      %0 = "iree_codegen.inner_tiled"(%l, %r, %a) <{{indexing_maps = {MATMUL_MAPS},
        iterator_types = [{PARALLEL}, {PARALLEL}, {REDUCTION}], kind = {kind_text}, operandSegmentSizes = array<i32: 2, 1>}}>
        : (tensor<2x2x1x1xf32>, tensor<2x2x1x4xf32>, tensor<2x2x1x4xf32>) -> tensor<2x2x1x4xf32>
      return %0 : tensor<2x2x1x4xf32>
    }}
    """
    zeros = [np.zeros((2, 2, 1, 1), np.float32), np.zeros((2, 2, 1, 4), np.float32), np.zeros((2, 2, 1, 4), np.float32)]
    with pytest.raises(InterpreterError, match="scalable tiles"):
        run(text, "mma", *zeros)


# ---------------------------------------------------------------------------
# #iree_gpu.mma_layout (a subgroup's tiles)
# ---------------------------------------------------------------------------


def test_gpu_mma_layout_with_transposed_rhs():
    a, b, c = (RNG.standard_normal(s).astype(np.float16) for s in ((32, 48), (48, 64), (32, 64)))
    lhs, rhs, acc = matmul_tiles(a, b, c.astype(np.float32), 16, 16, 16)
    # `permutations` stores the RHS tile N x K (the kind's tile is K x N).
    text = program([lhs, rhs, acc], ["f16", "f16", "f32"], MATMUL_MAPS, [PARALLEL, PARALLEL, REDUCTION],
                   "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>",
                   "#iree_gpu.mma_semantics<distributed = false, opaque = false>",
                   "[array<i64: 0, 1>, array<i64: 1, 0>, array<i64: 0, 1>]")  # fmt: skip
    (result,) = run(text, "mma", lhs, rhs, acc)
    full = c.astype(np.float32) + a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(result, matmul_tiles(a, b, full, 16, 16, 16)[2], rtol=1e-3, atol=1e-3)


def test_gpu_distributed_tiles_are_refused():
    lhs, rhs, acc = np.zeros((2, 2, 4), np.float16), np.zeros((2, 2, 4), np.float16), np.zeros((2, 2, 4), np.float32)
    text = program([lhs, rhs, acc], ["f16", "f16", "f32"], MATMUL_MAPS, [PARALLEL, PARALLEL, REDUCTION],
                   "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>",
                   "#iree_gpu.mma_semantics<distributed = true, opaque = false>")  # fmt: skip
    with pytest.raises(InterpreterError, match="distributed"):
        run(text, "mma", lhs, rhs, acc)


# ---------------------------------------------------------------------------
# Scaled kinds. numpy holds no f4E2M1FN, so the op runs on f32 arrays holding
# such values (and powers of two as scales): the contraction is the same.
# ---------------------------------------------------------------------------

FP4_VALUES = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], np.float32)


def fp4(shape) -> np.ndarray:
    return RNG.choice(FP4_VALUES, shape) * RNG.choice([-1, 1], shape).astype(np.float32)


def scales(shape) -> np.ndarray:
    return np.exp2(RNG.integers(-3, 4, shape)).astype(np.float32)


def scaled_reference(a, sa, b, sb, c, kb):
    """C + (A * its scales) @ (B * its scales), every `kb` elements along K sharing a scale."""
    return c + (a * np.repeat(sa, kb, axis=1)) @ (b * np.repeat(sb, kb, axis=0))


def scaled_tiles(a, sa, b, sb, c, m0, n0, k0, kb):
    """The tiles of `SCALED_MAPS` (outer kb of extent 1): LHS [m, k, 1, M0, K0, Kb],
    RHS [n, k, 1, N0, K0, Kb], scales [m, k, M0, K0] and [n, k, N0, K0], ACC [m, n, M0, N0]."""
    (m, kk), n = sa.shape, b.shape[1]
    mt, nt, kt = m // m0, n // n0, kk // k0
    lhs = a.reshape(mt, m0, kt, k0, kb).transpose(0, 2, 1, 3, 4)[:, :, None]
    rhs = b.reshape(kt, k0, kb, nt, n0).transpose(3, 0, 4, 1, 2)[:, :, None]
    lhs_scales = sa.reshape(mt, m0, kt, k0).transpose(0, 2, 1, 3)
    rhs_scales = sb.reshape(kt, k0, nt, n0).transpose(2, 0, 3, 1)
    acc = c.reshape(mt, m0, nt, n0).transpose(0, 2, 1, 3)
    return [lhs, rhs, lhs_scales, rhs_scales, acc]


def inner_tiled_op(text: str) -> iree_codegen.InnerTiledOp:
    module = parse_module_text(text)
    return next(op for op in module.walk() if isinstance(op, iree_codegen.InnerTiledOp))


@pytest.mark.parametrize(
    "fields",
    [
        "subgroups_m = 2, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [2, 3]",
        "intrinsics_m = 2, intrinsics_n = 2, operands_interleaving_intrinsics_m = [0]",
        (
            "operands_interleaving_intrinsics_m = [2], operands_interleaving_intrinsics_n = [3], "
            "operands_interleaving_intrinsics_k = [2, 3], unswizzled_operands = [0, 1]"
        ),
    ],
)
def test_gpu_data_tiled_scaled(fields):
    kind_text = (
        "#iree_gpu.data_tiled_scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32, "
        f"lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32, {fields}>"
    )
    kind = parsed_kind(kind_text)
    m0, n0, k0, kb = kind.tile_mnkkb()
    m, n, k = 2 * m0, 3 * n0, 2 * k0
    a, b = fp4((m, k * kb)), fp4((k * kb, n))
    sa, sb, c = scales((m, k)), scales((k, n)), RNG.standard_normal((m, n)).astype(np.float32)
    outer_ranks = (3, 3, 2, 2, 2)
    plain = scaled_tiles(a, sa, b, sb, c, m0, n0, k0, kb)
    operands = [swizzled(t, kind.swizzle(i), r) for i, (t, r) in enumerate(zip(plain, outer_ranks))]
    elements = ["f4E2M1FN", "f4E2M1FN", "f8E8M0FNU", "f8E8M0FNU", "f32"]
    text = program(operands, elements, SCALED_MAPS, [PARALLEL, PARALLEL, REDUCTION, REDUCTION], kind_text,
                   "#iree_gpu.mma_semantics<distributed = false, opaque = false>")  # fmt: skip
    result = _run_inner_tiled(inner_tiled_op(text), operands)
    full = scaled_reference(a, sa, b, sb, c, kb)
    expected = swizzled(scaled_tiles(a, sa, b, sb, full, m0, n0, k0, kb)[4], kind.swizzle(4), 2)
    np.testing.assert_allclose(result, expected, rtol=1e-4, atol=1e-3)


def test_gpu_scaled_mma_layout():
    kind_text = (
        "#iree_gpu.scaled_mma_layout<intrinsic = MFMA_SCALE_F32_32x32x64_B32, "
        "lhs_elem_type = f4E2M1FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>"
    )
    m0, n0, k0, kb = 32, 32, 2, 32
    m, n, k = 2 * m0, 2 * n0, 3 * k0
    a, b = fp4((m, k * kb)), fp4((k * kb, n))
    sa, sb, c = scales((m, k)), scales((k, n)), RNG.standard_normal((m, n)).astype(np.float32)
    lhs, rhs, lhs_scales, rhs_scales, acc = scaled_tiles(a, sa, b, sb, c, m0, n0, k0, kb)
    # The kind's tiles: LHS M x K x Kb, RHS K x Kb x N, scales M x K and K x N.
    operands = [lhs, rhs.transpose(0, 1, 2, 4, 5, 3), lhs_scales, rhs_scales.transpose(0, 1, 3, 2), acc]
    elements = ["f4E2M1FN", "f8E4M3FN", "f8E8M0FNU", "f8E8M0FNU", "f32"]
    text = program(operands, elements, SCALED_MAPS, [PARALLEL, PARALLEL, REDUCTION, REDUCTION], kind_text,
                   "#iree_gpu.mma_semantics<distributed = false, opaque = false>")  # fmt: skip
    result = _run_inner_tiled(inner_tiled_op(text), operands)
    full = scaled_reference(a, sa, b, sb, c, kb)
    np.testing.assert_allclose(result, scaled_tiles(a, sa, b, sb, full, m0, n0, k0, kb)[4], rtol=1e-4, atol=1e-3)


def test_gpu_scaled_mma_layout_in_the_older_operand_order():
    # IR without `semantics` (IREE, September 2025) lists the inputs as
    # lhs, lhs_scales, rhs, rhs_scales.
    kind_text = (
        "#iree_gpu.scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32, "
        "lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>"
    )
    m0, n0, k0, kb = 16, 16, 4, 32
    m, n, k = m0, 2 * n0, 2 * k0
    a, b = fp4((m, k * kb)), fp4((k * kb, n))
    sa, sb, c = scales((m, k)), scales((k, n)), RNG.standard_normal((m, n)).astype(np.float32)
    lhs, rhs, lhs_scales, rhs_scales, acc = scaled_tiles(a, sa, b, sb, c, m0, n0, k0, kb)
    operands = [lhs, lhs_scales, rhs.transpose(0, 1, 2, 4, 5, 3), rhs_scales.transpose(0, 1, 3, 2), acc]
    elements = ["f4E2M1FN", "f8E8M0FNU", "f4E2M1FN", "f8E8M0FNU", "f32"]
    maps = (
        "[affine_map<(m, n, k, kb) -> (m, k, kb)>, affine_map<(m, n, k, kb) -> (m, k)>, "
        "affine_map<(m, n, k, kb) -> (n, k, kb)>, affine_map<(m, n, k, kb) -> (n, k)>, affine_map<(m, n, k, kb) -> (m, n)>]"
    )
    text = program(operands, elements, maps, [PARALLEL, PARALLEL, REDUCTION, REDUCTION], kind_text, "")
    text = text.replace(", semantics = ", "")
    result = _run_inner_tiled(inner_tiled_op(text), operands)
    full = scaled_reference(a, sa, b, sb, c, kb)
    np.testing.assert_allclose(result, scaled_tiles(a, sa, b, sb, full, m0, n0, k0, kb)[4], rtol=1e-4, atol=1e-3)
