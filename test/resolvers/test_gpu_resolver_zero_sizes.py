"""The GPU resolver on edge cases (static sizes of 0, tiny register files): never a tile of 0.

A static M or N of 0 is the narrowest problem there is; like the CPU resolvers
(which then take their smallest tile), the GPU heuristics keep at least one
intrinsic in that dimension, in both eras. A 0 tile would divide by zero when
the host computes the tensor's byte size.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import f16, f32

from mini_iree.compiler.resolvers import gpu
from mini_iree.compiler.resolvers.targets import parse_target
from mini_iree.compiler.tools.layout_main import matmul_encodings

D = None  # a dynamic size


@pytest.mark.parametrize("era", ["walkthrough", "3.13"])
@pytest.mark.parametrize("types", [(f32, f32, f32), (f16, f16, f32)], ids=["f32", "f16"])
@pytest.mark.parametrize("sizes", [(0, 7, 5), (3, 0, 5), (0, 0, 5), (0, D, D), (D, 0, D), (0, 4096, 4096)])
def test_zero_sized_matmul_gets_no_zero_tile(era, types, sizes):
    target = gpu.rocm_target("gfx942")
    for operand, encoding in matmul_encodings(list(types), list(sizes)).items():
        info = gpu.get_encoding_info(target, encoding, era)
        assert info.inner_tile_sizes, (operand, info)
        assert all(t > 0 for t in info.inner_tile_sizes), (operand, info)


def test_zero_m_takes_one_intrinsic_like_m_of_1():
    """M = 0 packs as the narrowest non-empty M does."""
    target = gpu.rocm_target("gfx942")
    for zero, one in zip(matmul_encodings([f32] * 3, [0, 7, 5]).values(), matmul_encodings([f32] * 3, [1, 7, 5]).values()):
        assert gpu.get_encoding_info(target, zero).inner_tile_sizes == gpu.get_encoding_info(target, one).inner_tile_sizes


@pytest.mark.parametrize("era", ["walkthrough", "3.13"])
@pytest.mark.parametrize("vgpr", [0, 255, 1000, 2000, 16384])
def test_few_vgprs_still_give_whole_tiles(era, vgpr):
    """A target_info with too few VGPRs for the usual unrolling: at least one intrinsic,
    and no more subgroups than intrinsics (the walkthrough's formula alone gives a
    negative shift below 1 unrolled step and 0-wide tiles below 4)."""
    text = gpu.rocm_target_text("gfx942").replace("vgpr_space_bits = 16384", f"vgpr_space_bits = {vgpr}")
    target = parse_target(text)
    for operand, encoding in matmul_encodings([f32] * 3, [D, D, D]).items():
        info = gpu.get_encoding_info(target, encoding, era)
        assert info.inner_tile_sizes and all(t > 0 for t in info.inner_tile_sizes), (operand, info)
