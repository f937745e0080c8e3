"""Data-tiled MMA swizzles, as the walkthrough and IREE 3.13 print them."""

from mini_iree.dialects.iree_gpu import ACC, LHS, RHS, DataTiledMMAAttr, MMAIntrinsic


def spelled(swizzle):
    return [[(d.kind.value, d.size) for d in group] for group in swizzle.expand_shape], swizzle.permutation


CT, CI, I = "CrossThread", "CrossIntrinsic", "Internal"


def test_walkthrough_era_swizzles():
    """Seed 003's gfx942 layouts (with the step that moves cross-thread dims outermost)."""
    kind = DataTiledMMAAttr(MMAIntrinsic.MFMA_F32_16x16x4_F32, intrinsics_m=8, intrinsics_n=2, subgroups_n=4, intrinsics_k=4)
    assert spelled(kind.swizzle(LHS, cross_thread_outermost=True)) == (
        [[(CT, 4), (CI, 8), (CT, 4)], [(CI, 4), (CT, 4)]],
        [1, 4, 0, 2, 3],
    )
    assert spelled(kind.swizzle(RHS, cross_thread_outermost=True)) == (
        [[(CT, 4), (CT, 16), (CI, 2)], [(CI, 4), (CT, 4)]],
        [0, 2, 4, 1, 3],
    )
    assert spelled(kind.swizzle(ACC, cross_thread_outermost=True)) == (
        [[(CT, 4), (CI, 8), (I, 4)], [(CT, 4), (CT, 16), (CI, 2)]],
        [3, 1, 5, 0, 4, 2],
    )
    assert kind.swizzle(LHS, cross_thread_outermost=True).swizzled_shape() == [8, 4, 4, 4, 4]


def test_iree_3_13_swizzles():
    """IREE 3.13's gfx942 dynamic f32 layouts (no cross-thread step)."""
    kind = DataTiledMMAAttr(
        MMAIntrinsic.MFMA_F32_16x16x4_F32,
        intrinsics_m=4,
        subgroups_m=2,
        intrinsics_n=4,
        subgroups_n=2,
        intrinsics_k=4,
        operands_interleaving_intrinsics_k=[0, 1],
    )
    assert spelled(kind.swizzle(LHS)) == ([[(CT, 2), (CI, 4), (CT, 16)], [(CI, 4), (CT, 4)]], [0, 1, 4, 2, 3])
    assert spelled(kind.swizzle(ACC)) == (
        [[(CT, 2), (CI, 4), (CT, 4), (I, 4)], [(CT, 2), (CI, 4), (CT, 16)]],
        [0, 4, 1, 5, 2, 6, 3],
    )
