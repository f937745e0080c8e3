"""The CPU MMA choice of the `enable_inner_tiled` path (compiler/layout/cpu_mma.py): the
intrinsic, its unrolling and the tile they cover, on the configurations IREE's
materialize_encoding_x86_64.mlir documents."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, BFloat16Type, IntegerType, Signedness, f32, i8, i32
from xdsl.ir.affine import AffineExpr, AffineMap

from mini_iree.compiler.layout.cpu_mma import choose_cpu_inner_tiled_mma, mma_intrinsics_for_target, tile_mxnxk
from mini_iree.compiler.resolvers.cpu import get_encoding_info
from mini_iree.compiler.resolvers.matmul_info import MatmulTile
from mini_iree.compiler.resolvers.targets import parse_target
from mini_iree.dialects.iree_cpu import MMAIntrinsic as I
from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType

D = DYNAMIC_INDEX
TYPES = {
    "f32": [f32, f32, f32],
    "bf16": [BFloat16Type(), BFloat16Type(), f32],
    "i4": [IntegerType(4), IntegerType(4), i32],
    "i8": [i8, i8, i32],
    "ui8i8": [IntegerType(8, Signedness.UNSIGNED), i8, i32],
}


def target(features: str, inner_tiled: bool = True, triple: str = "x86_64-xyz-xyz"):
    flag = "true" if inner_tiled else "false"
    return parse_target(
        f'#hal.executable.target<"llvm-cpu", "xyz", {{target_triple = "{triple}", cpu_features = "{features}", '
        f"enable_inner_tiled = {flag}, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}}>"
    )


def encoding(operand: int, types: str, sizes: list[int]) -> EncodingAttr:
    maps = [AffineMap(3, 0, tuple(AffineExpr.dimension(d) for d in dims)) for dims in ([0, 2], [2, 1], [0, 1])]
    return EncodingAttr(operand, EncodingOpType.MATMUL, TYPES[types], maps, sizes)


@pytest.mark.parametrize(
    ("features", "types", "sizes", "expected"),
    [
        # 29 x (1x16x1) f32 tiles: 29 * 16 * 32 + 29 * 32 + 16 * 32 bits fit 32 ZMM registers.
        ("+avx512f", "f32", [D, D, D], (I.MMA_X86_AVX512_1x16x1_F32_F32, 29, 1, 1)),
        # N = 8 caps the natural orientation's useful lanes: the swapped one fills all 16.
        ("+avx512f", "f32", [127, 8, D], (I.MMA_X86_AVX512_16x1x1_F32_F32, 3, 8, 1)),
        # AVX2 has no bf16 intrinsic: the generic scalar one, 3 x 3 + 3 + 3 = 15 of 16 registers.
        ("+avx2,+fma", "bf16", [D, D, D], (I.MMA_GENERIC_SCALAR_1x1x1_REG16, 3, 3, 1)),
        # i4 needs K groups of 2 to be whole bytes: 2 x 3 + 2 x 2 + 3 x 2 = 16 registers.
        ("+avx2,+fma", "i4", [D, D, D], (I.MMA_GENERIC_SCALAR_1x1x1_REG16, 2, 3, 2)),
        # vpdpbusd takes an unsigned LHS only: ui8 x i8 finds it, i8 x i8 does not.
        ("+avx512f,+avx512vnni", "ui8i8", [D, D, D], (I.MMA_X86_AVX512VNNI_1x16x4_I32_UI8_I8, None, None, 1)),
    ],
)
def test_choice(features, types, sizes, expected):
    mma = choose_cpu_inner_tiled_mma(target(features), encoding(2, types, sizes))
    assert mma is not None
    intrinsic, m, n, k = expected
    assert mma.intrinsic.data is intrinsic
    assert m is None or mma.intrinsics_m.data == m
    assert n is None or mma.intrinsics_n.data == n
    assert mma.intrinsics_k.data == k
    # Only the type-polymorphic intrinsic names its element types.
    assert (mma.lhs_type == TYPES[types][0]) == intrinsic.is_generic_scalar


def test_signless_i8_skips_the_unsigned_vnni_intrinsic():
    mma = choose_cpu_inner_tiled_mma(target("+avx512f,+avx512vnni"), encoding(2, "i8", [D, D, D]))
    assert mma is not None and mma.intrinsic.data is I.MMA_X86_AVX512VNNI_16x16x2_I32_I8_CASTI16


def test_intrinsics_need_every_feature_and_end_with_the_generic_one():
    assert mma_intrinsics_for_target(target("+avx2")) == [I.MMA_GENERIC_SCALAR_1x1x1_REG16]
    assert mma_intrinsics_for_target(target("+avx2,+fma")) == [
        I.MMA_X86_AVX2_FMA_1x8x1_F32_F32, I.MMA_X86_AVX2_FMA_8x1x1_F32_F32, I.MMA_GENERIC_SCALAR_1x1x1_REG16,
    ]  # fmt: skip
    assert mma_intrinsics_for_target(target("", triple="riscv32-xyz-xyz")) == [I.MMA_GENERIC_SCALAR_1x1x1_REG8]


def test_layouts_follow_the_mma_and_keep_a_narrow_n():
    t = target("+avx512f")
    mma = choose_cpu_inner_tiled_mma(t, encoding(2, "f32", [127, 8, D]))
    assert mma is not None and tile_mxnxk(mma) == MatmulTile(48, 8, 1)
    info = get_encoding_info(t, encoding(2, "f32", [127, 8, D]))
    # No narrow-N transpose (the mmt4d path's would make it [1, 0]).
    assert info.outer_dims_perm == [0, 1] and info.inner_tile_sizes == [48, 8]
    assert info.swizzle is not None and info.swizzle.swizzled_shape() == [3, 8, 16, 1]


def test_without_the_flag_the_mmt4d_tiles_stay():
    info = get_encoding_info(target("+avx512f", inner_tiled=False), encoding(0, "f32", [D, D, D]))
    assert info.inner_tile_sizes == [16, 1] and info.swizzle is None
