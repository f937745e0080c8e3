"""The CPU `inner_tiled` kind: intrinsic facts and tile layouts as IREE's CPU attributes compute them."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import BFloat16Type, IntegerType, f32

from mini_iree.dialects.iree_codegen import SwizzleDimKind
from mini_iree.dialects.iree_cpu import DataTiledMMAAttr, MMAIntrinsic


def test_generic_scalar_accumulator_swizzle():
    # IREE's materialize_encoding_x86_64.mlir spells this one out: the ACC of
    # the generic scalar intrinsic unrolled 2 x 4 is [[Cross(2), Int(1)],
    # [Cross(4), Int(1)]] with permutation [0, 2, 1, 3].
    kind = DataTiledMMAAttr(MMAIntrinsic.MMA_GENERIC_SCALAR_1x1x1_REG16, intrinsics_m=2, intrinsics_n=4,
                            types=[BFloat16Type(), BFloat16Type(), f32])  # fmt: skip
    swizzle = kind.swizzle(2)
    assert [[(d.kind, d.size) for d in g] for g in swizzle.expand_shape] == [
        [(SwizzleDimKind.CROSS_INTRINSIC, 2), (SwizzleDimKind.INTERNAL, 1)],
        [(SwizzleDimKind.CROSS_INTRINSIC, 4), (SwizzleDimKind.INTERNAL, 1)],
    ]
    assert swizzle.permutation == [0, 2, 1, 3]
    assert [str(t) for t in kind.undistributed_tile_types()] == [
        "vector<2x1x1xbf16>", "vector<4x1x1xbf16>", "vector<2x4x1x1xf32>",
    ]  # fmt: skip


def test_generic_scalar_needs_its_types():
    assert DataTiledMMAAttr(MMAIntrinsic.MMA_GENERIC_SCALAR_1x1x1_REG8).undistributed_tile_types() is None


@pytest.mark.parametrize(
    "intrinsic,mnk,types,register_bytes",
    [
        (MMAIntrinsic.MMA_X86_AVX2_FMA_8x1x1_F32_F32, (8, 1, 1), ("f32", "f32", "f32"), 512),
        (MMAIntrinsic.MMA_X86_AVX512_1x16x1_F32_F16_CASTF32, (1, 16, 1), ("f16", "f16", "f32"), 2048),
        (MMAIntrinsic.MMA_X86_AVX512VNNI_16x1x4_I32_I8_UI8, (16, 1, 4), ("i8", "i8", "i32"), 2048),
        (MMAIntrinsic.MMA_ARM_SVE_FMLA_4VLx1x1_F32_F32, None, ("f32", "f32", "f32"), 512),
    ],
)
def test_intrinsic_facts(intrinsic, mnk, types, register_bytes):
    assert intrinsic.row_major_mnk == mnk
    assert tuple(str(t) for t in intrinsic.element_types) == types
    assert intrinsic.register_space_bytes == register_bytes


def test_budget_and_unsigned_inputs_are_signless_tiles():
    assert MMAIntrinsic.MMA_GENERIC_SCALAR_1x1x1_REG8.generic_scalar_register_budget == 8
    lhs, rhs, _ = MMAIntrinsic.MMA_X86_AVX512VNNI_1x16x4_I32_UI8_I8.element_types
    assert lhs == rhs == IntegerType(8)


def test_sve_tiles_are_scalable():
    # The unrolled N intrinsics go outermost, as every `expand` does.
    kind = DataTiledMMAAttr(MMAIntrinsic.MMA_ARM_SVE_FMLA_4VLx1x1_F32_F32, intrinsics_n=2)
    assert [str(t) for t in kind.undistributed_tile_types()] == [
        "vector<[4]x1xf32>", "vector<2x1x1xf32>", "vector<2x[4]x1xf32>",
    ]  # fmt: skip
