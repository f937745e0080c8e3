"""The GPU data-tiling resolver: `#iree_gpu.gpu_encoding_resolver<>` on AMD GPUs (CDNA, RDNA3).

A matmul operand is packed into tiles of one MMA intrinsic unrolled over the
data tile (`#iree_gpu.data_tiled_mma_layout<...>`), and each tile is swizzled
into the order in which the threads of a subgroup hold it in registers. As in
IREE (Codegen/ExternalInterfaces/GPUEncodingExternalModels.cpp
`chooseDataTiledMMAAttr`, Codegen/Dialect/GPU/IR/GPUTileSwizzleUtils.cpp):

1. intrinsic: among the target's non-block MMA intrinsics whose (A, B, C)
   element types are the encoding's, the one with the largest K;
2. `intrinsics_k`: enough K unrolling that one thread's A/B registers fill
   one maximal load (`max_load_instruction_bits`);
3. M/N unrolling from the VGPR budget, split between plain unrolling and
   subgroups. Two generations of this heuristic exist and both are kept, and
   the era profile (`compiler/era.py`) picks one: the walkthrough's quadratic
   solve (all subgroups on N, then a narrow-M/N fix-up), or IREE 3.13's
   enumeration (arithmetic intensity, capped by static sizes and by the
   chip's workgroup count);
4. tile = intrinsic shape x unrolling; pack info from `matmul_info`;
5. swizzle = `DataTiledMMAAttr.swizzle` of the operand, minus the groups of
   dims the operand lacks (matvec / vecmat / broadcasts).

Unlike the CPU resolver there is no narrow-N transposition: `inner_tiled`
takes the intrinsic's operand order as it is.

A scaled (MX) matmul (`op_type = scaled_matmul`: lhs, rhs, their f8E8M0FNU
scales, result) gets a `#iree_gpu.data_tiled_scaled_mma_layout<...>` the same
way, from the target's scaled intrinsics (gfx950): the scales count towards
the inputs' register use, K is unrolled to a whole register of scales, and
each operand is packed in the order batch, M|N, K, Kb.

The targets themselves (`rocm_target`) are described as the era's IREE
describes them: IREE 3.13 also lists the block intrinsics and the chip's DMA
sizes and LDS bank count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, DictionaryAttr, IntAttr, NoneAttr, i64
from xdsl.ir import Attribute

from mini_iree.compiler.analysis.scaled_contraction import ScaledContractionDims
from mini_iree.compiler.era import ERA_NAMES, EraProfile, era_profile
from mini_iree.compiler.ir.memo import Memo
from mini_iree.compiler.resolvers.interface import DataTilingResolver
from mini_iree.compiler.resolvers.matmul_info import (
    MatmulTile,
    get_contraction_dims,
    get_encoding_info_for_matmul,
    get_matmul_narrow_dim,
    get_matmul_sizes,
)
from mini_iree.dialects import hal
from mini_iree.dialects.iree_codegen import EncodingResolverAttr, MaterializeEncodingInfo, TileSwizzle
from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType
from mini_iree.dialects.iree_gpu import (
    ACC,
    LHS,
    LHS_SCALE,
    RHS,
    RHS_SCALE,
    SCALED_ACC,
    DataTiledMMAAttr,
    DataTiledScaledMMAAttr,
    MMAIntrinsic,
    ScaledMMAAttr,
    ScaledMMAIntrinsicAttr,
    TargetAttr,
    scaled_intrinsic_mnkkb,
    single_subgroup_layout,
)

GPU_ERAS = ERA_NAMES
"""Generations of the unrolling heuristic and swizzle: the walkthrough's (the default) and IREE 3.13's."""

TARGET_INFO_KEY = "iree_codegen.target_info"

# ===----------------------------------------------------------------------=== #
# Known targets (IREE's Codegen/Dialect/GPU/TargetUtils/KnownTargets.cpp)
# ===----------------------------------------------------------------------=== #

# Preference order as KnownTargets.cpp lists them. The block intrinsics IREE
# added later (and 3.13 prints) are left out, as the walkthrough's gfx942
# target has none; the resolver skips them anyway.
_CDNA2_MMA = (
    "MFMA_F32_16x16x8_BF16 MFMA_F32_32x32x4_BF16 MFMA_F64_16x16x4_F64 MFMA_F32_16x16x4_F32 "
    "MFMA_F32_16x16x16_F16 MFMA_F32_32x32x8_F16 MFMA_I32_16x16x16_I8 MFMA_I32_32x32x8_I8"
).split()
_CDNA3_MMA = (
    "MFMA_F32_16x16x16_BF16 MFMA_F32_32x32x8_BF16 MFMA_F32_16x16x32_F8E5M2FNUZ "
    "MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ MFMA_F32_16x16x32_F8E4M3FNUZ MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ "
    "MFMA_F32_32x32x16_F8E5M2FNUZ MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ MFMA_F32_32x32x16_F8E4M3FNUZ "
    "MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ MFMA_I32_16x16x32_I8 MFMA_I32_32x32x16_I8 MFMA_F64_16x16x4_F64 "
    "MFMA_F32_16x16x4_F32 MFMA_F32_16x16x16_F16 MFMA_F32_32x32x8_F16"
).split()
_CDNA4_MMA = (
    "MFMA_F32_16x16x32_F16 MFMA_F32_32x32x16_F16 MFMA_F32_16x16x32_BF16 MFMA_F32_32x32x16_BF16 "
    "MFMA_F32_16x16x128_F8E5M2 MFMA_F32_16x16x128_F8E5M2_F8E4M3FN MFMA_F32_16x16x128_F8E4M3FN "
    "MFMA_F32_16x16x128_F8E4M3FN_F8E5M2 MFMA_F32_32x32x64_F8E5M2 MFMA_F32_32x32x64_F8E5M2_F8E4M3FN "
    "MFMA_F32_32x32x64_F8E4M3FN MFMA_F32_32x32x64_F8E4M3FN_F8E5M2 MFMA_I32_16x16x64_I8 MFMA_I32_32x32x32_I8 "
    "MFMA_F32_16x16x16_BF16 MFMA_F32_32x32x8_BF16 MFMA_F32_16x16x32_F8E5M2 MFMA_F32_16x16x32_F8E5M2_F8E4M3FN "
    "MFMA_F32_16x16x32_F8E4M3FN MFMA_F32_16x16x32_F8E4M3FN_F8E5M2 MFMA_F32_32x32x16_F8E5M2 "
    "MFMA_F32_32x32x16_F8E5M2_F8E4M3FN MFMA_F32_32x32x16_F8E4M3FN MFMA_F32_32x32x16_F8E4M3FN_F8E5M2 "
    "MFMA_I32_16x16x32_I8 MFMA_I32_32x32x16_I8 MFMA_F64_16x16x4_F64 MFMA_F32_16x16x4_F32 "
    "MFMA_F32_16x16x16_F16 MFMA_F32_32x32x8_F16"
).split()
# CDNA1 (gfx908): the first MFMA generation.
_CDNA1_MMA = "MFMA_F32_16x16x4_F32 MFMA_F32_16x16x16_F16 MFMA_F32_32x32x8_F16 MFMA_I32_16x16x16_I8 MFMA_I32_32x32x8_I8".split()
# RDNA3 (gfx1100): wave32/wave64 WMMA.
_RDNA3_MMA = (
    "WMMAR3_F32_16x16x16_F16 WMMAR3_F16_16x16x16_F16 WMMAR3_F32_16x16x16_BF16 WMMAR3_BF16_16x16x16_BF16 "
    "WMMAR3_I32_16x16x16_I8"
).split()
# CDNA4's block-scaled intrinsics, one entry per supported input type (output f32).
_CDNA4_SCALED_MMA = [
    f"<intrinsic = {intrinsic}, lhs_elem_type = {t}, rhs_elem_type = {t}, acc_elem_type = f32>"
    for intrinsic in ("MFMA_SCALE_F32_16x16x128_B32", "MFMA_SCALE_F32_32x32x64_B32")
    for t in ("f8E8M0FNU", "f8E5M2", "f8E5M2FNUZ", "f8E4M3FN", "f8E4M3FNUZ", "f4E2M1FN")
]

# IREE 3.13's block intrinsics: CDNA3 and CDNA4 list them after the others.
_BLOCK_MMA = (
    "MFMA_F32_4x4x4x16B_F16 MFMA_F32_16x16x4x4B_F16 MFMA_F32_32x32x4x2B_F16 MFMA_F32_4x4x4x16B_BF16 "
    "MFMA_F32_16x16x4x4B_BF16 MFMA_F32_32x32x4x2B_BF16 MFMA_F32_4x4x1x16B_F32 MFMA_F32_16x16x1x4B_F32 "
    "MFMA_F32_32x32x1x2B_F32 MFMA_F64_4x4x4x4B_F64 MFMA_I32_4x4x4x16B_I8 MFMA_I32_16x16x4x4B_I8 "
    "MFMA_I32_32x32x4x2B_I8"
).split()
# CDNA2 in IREE 3.13: its block intrinsics interleaved with the others (the
# non-block ones keep their order, so the resolver chooses as before).
_CDNA2_MMA_3_13 = (
    "MFMA_F32_16x16x8_BF16 MFMA_F32_32x32x4_BF16 MFMA_F64_16x16x4_F64 MFMA_F32_4x4x4x16B_BF16 "
    "MFMA_F32_16x16x4x4B_BF16 MFMA_F32_32x32x4x2B_BF16 MFMA_F64_4x4x4x4B_F64 MFMA_F32_16x16x4_F32 "
    "MFMA_F32_16x16x16_F16 MFMA_F32_32x32x8_F16 MFMA_I32_16x16x16_I8 MFMA_I32_32x32x8_I8 "
    "MFMA_F32_4x4x4x16B_F16 MFMA_F32_16x16x4x4B_F16 MFMA_F32_32x32x4x2B_F16 MFMA_F32_4x4x1x16B_F32 "
    "MFMA_F32_16x16x1x4B_F32 MFMA_F32_32x32x1x2B_F32 MFMA_I32_4x4x4x16B_I8 MFMA_I32_16x16x4x4B_I8 "
    "MFMA_I32_32x32x4x2B_I8"
).split()
# CDNA1's block intrinsics (named as CDNA3 names them) follow its others.
_CDNA1_BLOCK_MMA = (
    "MFMA_F32_4x4x4x16B_F16 MFMA_F32_16x16x4x4B_F16 MFMA_F32_32x32x4x2B_F16 MFMA_F32_4x4x1x16B_F32 "
    "MFMA_F32_16x16x1x4B_F32 MFMA_F32_32x32x1x2B_F32 MFMA_I32_4x4x4x16B_I8 MFMA_I32_16x16x4x4B_I8 "
    "MFMA_I32_32x32x4x2B_I8"
).split()
_MMA_3_13: dict[str, list[str]] = {
    "gfx908": _CDNA1_MMA + _CDNA1_BLOCK_MMA,
    "gfx1100": _RDNA3_MMA,
    "gfx90a": _CDNA2_MMA_3_13,
    "gfx942": _CDNA3_MMA + _BLOCK_MMA,
    "gfx950": _CDNA4_MMA + _BLOCK_MMA,
}
# IREE 3.13's memory fields: arch -> (dma_sizes, workgroup_memory_bank_count).
_MEMORY_3_13: dict[str, tuple[list[int], int]] = {
    "gfx908": ([], 32),
    "gfx1100": ([], 64),
    "gfx90a": ([], 32),
    "gfx942": ([32], 32),
    "gfx950": ([32, 128], 64),
}

# arch -> (mma list, scaled mma list, max_workgroup_memory_bytes, vgpr_space_bits)
_WGP_DETAILS: dict[str, tuple[list[str], list[str], int, int]] = {
    "gfx908": (_CDNA1_MMA, [], 64 * 1024, 256 * 32),
    "gfx1100": (_RDNA3_MMA, [], 64 * 1024, 256 * 32),
    "gfx90a": (_CDNA2_MMA, [], 64 * 1024, 256 * 32),
    "gfx942": (_CDNA3_MMA, [], 64 * 1024, 512 * 32),
    "gfx950": (_CDNA4_MMA, _CDNA4_SCALED_MMA, 160 * 1024, 512 * 32),
}

# RDNA runs wave32 or wave64; CDNA only wave64.
_SUBGROUP_SIZES: dict[str, list[int]] = {"gfx1100": [32, 64]}

KNOWN_ROCM_ARCHS = tuple(sorted(_WGP_DETAILS, key=lambda arch: (len(arch), arch)))


ENCODING_LAYOUT_RESOLVERS = {
    "data-tiling": "#iree_gpu.gpu_encoding_resolver<>",
    "pad": "#iree_gpu.gpu_padding_resolver<>",
    "none": None,
}
"""IREE's `--iree-hip-encoding-layout-resolver` values and the resolver each puts in the target."""


def rocm_target_text(arch: str, resolver: str = "data-tiling", era: str | EraProfile | None = None) -> str:
    """The `#hal.executable.target<"rocm", ...>` of `arch`, as the era's IREE prints it (None: the run's era).

    `resolver` is IREE's `--iree-hip-encoding-layout-resolver`: `data-tiling`
    (the walkthrough's), `pad` (rows padded for the L1 cache) or `none`. The
    walkthrough's gfx942 is its dumps' target; IREE 3.13 adds the block
    intrinsics, `dma_sizes` and `workgroup_memory_bank_count`.
    """
    profile = era_profile(era)
    if arch not in _WGP_DETAILS:
        raise ValueError(f"unknown ROCm architecture '{arch}' (known: {', '.join(KNOWN_ROCM_ARCHS)})")
    if resolver not in ENCODING_LAYOUT_RESOLVERS:
        raise ValueError(
            f"unknown encoding layout resolver '{resolver}' (expected one of: {', '.join(ENCODING_LAYOUT_RESOLVERS)})"
        )
    resolver_attr = ENCODING_LAYOUT_RESOLVERS[resolver]
    resolver_entry = f"iree.encoding.resolver = {resolver_attr}, " if resolver_attr else ""
    mma, scaled, smem, vgpr = _WGP_DETAILS[arch]
    if profile.gpu_block_intrinsics:
        mma = _MMA_3_13[arch]
    scaled_text = f" scaled_mma = [{', '.join(scaled)}]," if scaled else ""
    memory_text = ""
    if profile.gpu_memory_fields:
        dma_sizes, banks = _MEMORY_3_13[arch]
        dma_text = f", dma_sizes = [{', '.join(map(str, dma_sizes))}]" if dma_sizes else ""
        memory_text = f"{dma_text}, workgroup_memory_bank_count = {banks}"
    wgp = (
        "compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, "
        "subgroup = shuffle|arithmetic, dot = dp4xi8toi32, "
        f"mma = [{', '.join(f'<{name}>' for name in mma)}],{scaled_text} "
        f"subgroup_size_choices = [{', '.join(map(str, _SUBGROUP_SIZES.get(arch, [64])))}], max_workgroup_sizes = [1024, 1024, 1024], "
        f"max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = {smem}, "
        "max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, "
        f"simds_per_wgp = 4, vgpr_space_bits = {vgpr}{memory_text}"
    )
    return (
        '#hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", '
        f"{resolver_entry}"
        f'{TARGET_INFO_KEY} = #iree_gpu.target<arch = "{arch}", features = "", wgp = <{wgp}>>, '
        'ukernels = "none"}>'
    )


@cache  # one context, made when first needed (importing every dialect is not for start-up)
def _context() -> Context:
    from mini_iree.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def rocm_target(
    arch: str, resolver: str = "data-tiling", era: str | EraProfile | None = None
) -> hal.ExecutableTargetAttr:
    """The executable target of a known AMD GPU (gfx908, gfx90a, gfx942, gfx950, gfx1100); data tiling on by default.

    Described as `era`'s IREE describes it (None: the run's era).
    """
    era_name = era_profile(era).name
    return _ROCM_TARGETS.lookup((arch, resolver, era_name), _rocm_target, arch, resolver, era_name)


# Parsed once per (arch, resolver, era): the attribute is immutable.
_ROCM_TARGETS: Memo[tuple[str, str, str], hal.ExecutableTargetAttr] = Memo("resolvers.rocm_target", limit=None)


def _rocm_target(arch: str, resolver: str, era: str) -> hal.ExecutableTargetAttr:
    from xdsl.parser import Parser

    attr = Parser(_context(), rocm_target_text(arch, resolver, era), f"<{arch}>").parse_attribute()
    assert isinstance(attr, hal.ExecutableTargetAttr)
    return attr


_test_target: str | None = None


def set_test_target(arch: str | None) -> None:
    """IREE's `--iree-gpu-test-target`: the GPU lit tests compile for when the IR names no target.

    A process-wide setting, as IREE's command-line option is; `None` clears it.
    """
    global _test_target
    if arch is not None and arch not in _WGP_DETAILS:
        raise ValueError(f"unknown ROCm architecture '{arch}' (known: {', '.join(KNOWN_ROCM_ARCHS)})")
    _test_target = arch


def test_target(
    resolver: str = "data-tiling", era: str | EraProfile | None = None
) -> hal.ExecutableTargetAttr | None:
    """The `--iree-gpu-test-target` GPU with `resolver` (as `era` describes it); None without the option."""
    return None if _test_target is None else rocm_target(_test_target, resolver, era)


def gpu_target_info(target: Attribute) -> TargetAttr | None:
    """The `#iree_gpu.target` of an executable target, a resolver's configuration, or itself."""
    if isinstance(target, TargetAttr):
        return target
    config: Attribute | None = None
    if isinstance(target, hal.ExecutableTargetAttr):
        config = target.get_config(TARGET_INFO_KEY)
    elif isinstance(target, EncodingResolverAttr) and target.configuration_dict is not None:
        config = target.configuration_dict.data.get(TARGET_INFO_KEY)
    elif isinstance(target, DictionaryAttr):
        config = target.data.get(TARGET_INFO_KEY)
    return config if isinstance(config, TargetAttr) else None


# ===----------------------------------------------------------------------=== #
# Choosing the data-tiled MMA
# ===----------------------------------------------------------------------=== #


def _bits(element_type: Attribute) -> int:
    width = getattr(element_type, "bitwidth", None)
    assert isinstance(width, int), f"no bit width for {element_type}"
    return width


def _operand_bits(intrinsic: MMAIntrinsic, operand: int) -> int | None:
    """Bits one thread holds of an intrinsic's operand (IREE's getABCVectorTypes sizes)."""
    layout = single_subgroup_layout(intrinsic, operand)
    if layout is None:
        return None
    count = layout.outer[0] * layout.outer[1] * layout.element[0] * layout.element[1]
    return count * _bits(intrinsic.element_types[operand])


def choose_intrinsic(target: TargetAttr, element_types: Sequence[Attribute]) -> MMAIntrinsic | None:
    """The target's intrinsic for these (A, B, C) element types with the largest K.

    Ties keep the later one in the target's list, as IREE's loop does; block
    intrinsics and intrinsics without a known register layout are skipped.
    """
    chosen: MMAIntrinsic | None = None
    for intrinsic in target.mma_intrinsics:
        if intrinsic.block_size != 1 or single_subgroup_layout(intrinsic, LHS) is None:
            continue
        if list(intrinsic.element_types) != list(element_types[:3]):
            continue
        if chosen is not None and chosen.shape[2] > intrinsic.shape[2]:
            continue
        chosen = intrinsic
    return chosen


def _pow2_floor(value: float) -> int:
    return 1 << int(math.floor(math.log2(value)))


def _unroll_walkthrough(
    bits: tuple[int, int, int], intrinsics_k: int, target: TargetAttr, encoding: EncodingAttr, intrinsic: MMAIntrinsic
) -> tuple[int, int, int, int]:
    """(intrinsics_m, subgroups_m, intrinsics_n, subgroups_n), the walkthrough's way.

    A square `x` by `x` unrolling fills the VGPRs exactly when
    `C*x^2 + ik*(A+B)*x = vgpr`; it is rounded to a power-of-two rectangle with
    N >= M, all subgroups go on N, and a narrow M or N then caps the unrolling.
    """
    bits_a, bits_b, bits_c = bits
    vgpr = max(target.vgpr_space_bits or 0, 0)
    c2, c1, c0 = float(bits_c), float(intrinsics_k * (bits_a + bits_b)), -float(vgpr)
    x = (-c1 + math.sqrt(c1 * c1 - 4 * c0 * c2)) / (2 * c2)
    # Registers too few for even one intrinsic per thread (a target_info with a tiny
    # vgpr_space_bits): unroll once rather than not at all.
    x = max(x, 1.0)
    # std::round breaks ties away from zero; log2(x) >= 0 here.
    total_n = 1 << int(math.floor(math.log2(x) + 0.5))
    total_m = _pow2_floor(x * x / total_n)
    # No more subgroups than the total unrolling has intrinsics to share out.
    subgroups_m, subgroups_n = 1, min(max(target.simds_per_wgp or 1, 1), total_n)
    intrinsics_m, intrinsics_n = total_m // subgroups_m, total_n // subgroups_n
    intrinsic_m, intrinsic_n, _ = intrinsic.shape
    narrow = get_matmul_narrow_dim(encoding)
    # A static size of 0 is the narrowest of all, but still takes one intrinsic:
    # a 0 unrolling would make a 0 tile (as CPU resolvers then take their smallest tile).
    if narrow is not None and narrow[0] == "M":
        intrinsics_m = min(intrinsics_m, max(1, -(-narrow[1] // intrinsic_m)))
    if narrow is not None and narrow[0] == "N":
        intrinsics_m, intrinsics_n = intrinsics_n, intrinsics_m
        subgroups_m, subgroups_n = subgroups_n, subgroups_m
        intrinsics_n = min(intrinsics_n, max(1, -(-narrow[1] // intrinsic_n)))
    return intrinsics_m, subgroups_m, intrinsics_n, subgroups_n


def _contraction_sizes(encoding: EncodingAttr) -> tuple[int, int] | None:
    """(M, N) of a matmul or scaled matmul encoding (IREE's getEncodingContractionLikeSizes)."""
    if encoding.get_op_type() is not EncodingOpType.SCALED_MATMUL:
        return get_matmul_sizes(encoding)
    dims = scaled_contraction_dims(encoding)
    sizes = encoding.get_iteration_sizes()
    if dims is None or not sizes:
        return None
    return (sizes[dims.m[0]] if dims.m else 1), (sizes[dims.n[0]] if dims.n else 1)


def _intensity(m: int, n: int) -> float:
    return m * n / (m + n)


def _unroll_3_13(
    bits: tuple[int, int, int], intrinsics_k: int, target: TargetAttr, encoding: EncodingAttr, intrinsic: MMAIntrinsic
) -> tuple[int, int, int, int]:
    """(intrinsics_m, subgroups_m, intrinsics_n, subgroups_n), IREE 3.13's way.

    Enumerates power-of-two total unrollings (tm, tn) whose A, B, C tiles fit
    in VGPRs and whose A, B tiles fit in workgroup memory, capped so a static
    M or N is not over-padded and a static M x N still spreads over the chip's
    workgroup processors (512 when the target does not say); keeps the best
    arithmetic intensity tm*tn/(tm+tn). The same criterion then splits each
    total into subgroups and plain unrolling. Strict comparisons make ties keep
    the earlier (smaller) choice: a 1 x 2 total can end up as 1 x 1.
    """
    bits_a, bits_b, bits_c = bits
    vgpr = target.vgpr_space_bits or 0
    smem_bits = target.max_workgroup_memory_bytes * 8
    intrinsic_m, intrinsic_n, _ = intrinsic.shape
    max_m = max_n = max_mn = math.inf
    sizes = _contraction_sizes(encoding)
    if sizes is not None:
        m, n = sizes
        if m != DYNAMIC_INDEX:
            max_m = -(-m // intrinsic_m)
        if n != DYNAMIC_INDEX:
            max_n = -(-n // intrinsic_n)
        if m != DYNAMIC_INDEX and n != DYNAMIC_INDEX:
            wgps = target.wgp_count or 512
            max_mn = -(-(m * n) // (wgps * intrinsic_m * intrinsic_n))

    total_m = total_n = 1
    best = _intensity(1, 1)
    tm = 1
    while tm <= max_m:
        a_tile = tm * intrinsics_k * bits_a
        tn_vgpr = (vgpr - a_tile) // (intrinsics_k * bits_b + tm * bits_c)
        tn_smem = (smem_bits - a_tile) // (intrinsics_k * bits_b)
        tn = min(tn_vgpr, tn_smem, max_n, max_mn // tm)
        if tn <= 0:
            break
        tn = _pow2_floor(tn)
        if _intensity(tm, tn) > best:
            total_m, total_n, best = tm, tn, _intensity(tm, tn)
        tm <<= 1

    simds = max(target.simds_per_wgp or 1, 1)
    chosen = (1, 1, 1, 1)
    best = _intensity(1, 1)
    sm = 1
    while sm <= min(simds, total_m):
        sn = _pow2_floor(min(simds // sm, total_n))
        im, in_ = total_m // sm, total_n // sn
        if _intensity(im, in_) > best:
            chosen, best = (im, sm, in_, sn), _intensity(im, in_)
        sm <<= 1
    return chosen


def choose_data_tiled_mma(
    target: Attribute, encoding: EncodingAttr, era: str | EraProfile | None = None
) -> DataTiledMMAAttr | DataTiledScaledMMAAttr | None:
    """The `#iree_gpu.data_tiled_mma_layout` a matmul encoding gets on `target`, or None.

    None when the target is not a GPU with the register/memory limits data
    tiling needs, the encoding is not a matmul, or no intrinsic takes its
    element types: IREE then leaves the tensor unpacked. `era` (None: the
    run's) picks the unrolling heuristic.
    """
    profile = era_profile(era)
    info = gpu_target_info(target)
    if info is not None and encoding.get_op_type() is EncodingOpType.SCALED_MATMUL:
        return choose_data_tiled_scaled_mma(info, encoding, profile)
    if info is None or encoding.get_op_type() is not EncodingOpType.MATMUL:
        return None
    if info.max_load_instruction_bits is None or info.vgpr_space_bits is None or info.simds_per_wgp is None:
        return None
    intrinsic = choose_intrinsic(info, encoding.get_element_types())
    if intrinsic is None:
        return None
    bits = tuple(_operand_bits(intrinsic, operand) for operand in (LHS, RHS, ACC))
    assert all(b is not None for b in bits)
    bits_a, bits_b, bits_c = bits  # type: ignore[misc]
    # Enough K unrolling that one thread's A and B registers make one maximal load.
    intrinsics_k = max(1, info.max_load_instruction_bits // min(bits_a, bits_b))
    unroll = _unroll_3_13 if profile.gpu_unroll_by_intensity else _unroll_walkthrough
    im, sm, in_, sn = unroll((bits_a, bits_b, bits_c), intrinsics_k, info, encoding, intrinsic)
    # The walkthrough's attribute does not list the interleaved operands: back
    # then the K unrolling of both inputs was always interleaved.
    interleave_k = [LHS, RHS] if profile.gpu_lists_interleaved_operands else None
    return DataTiledMMAAttr(
        intrinsic, im, sm, in_, sn, intrinsics_k, 1, operands_interleaving_intrinsics_k=interleave_k
    )


# ===----------------------------------------------------------------------=== #
# Scaled (MX) matmuls
# ===----------------------------------------------------------------------=== #

SCALES_VECTOR_SIZE = 4
"""A scaled MFMA takes its f8E8M0FNU scales four to a 32-bit register (IREE's getScalesVectorSize)."""


def scaled_contraction_dims(encoding: EncodingAttr) -> ScaledContractionDims | None:
    """Batch/M/N/K/Kb loops of a `scaled_matmul` encoding's root op, or None.

    As IREE's getScaledContractionLikeDimInfo asserts: one K, one Kb, at most
    one batch, M and N loop, and no loop of any other kind.
    """
    from mini_iree.compiler.analysis.scaled_contraction import infer_scaled_contraction_dims

    if encoding.get_op_type() is not EncodingOpType.SCALED_MATMUL:
        return None
    maps = encoding.get_root_maps()
    if len(maps) != 5 or any(m is None for m in maps):
        return None
    dims = infer_scaled_contraction_dims([m for m in maps if m is not None])
    if dims is None or len(dims.k) != 1 or len(dims.kb) != 1:
        return None
    if any(len(loops) > 1 for loops in (dims.batch, dims.m, dims.n)):
        return None
    classified = len(dims.batch) + len(dims.m) + len(dims.n) + 2
    if classified != maps[0].num_dims:  # type: ignore[union-attr]
        return None
    return dims


def choose_scaled_intrinsic(target: TargetAttr, element_types: Sequence[Attribute]) -> ScaledMMAAttr | None:
    """The first of the target's scaled intrinsics taking these LHS, RHS and result types.

    IREE's chooseScaledIntrinsicMMAAttr: the encoding lists `[lhs, rhs,
    lhs_scales, rhs_scales, result]`; the scales are always f8E8M0FNU.
    """
    if len(element_types) != 5:
        return None
    for mma in target.wgp.scaled_mma.data:
        if (mma.lhs_elem_type, mma.rhs_elem_type, mma.acc_elem_type) == (
            element_types[0],
            element_types[1],
            element_types[4],
        ):
            return mma
    return None


def _distributed_bits(mma: ScaledMMAAttr) -> list[int]:
    """Bits one thread holds of each scaled operand (IREE's getDistributedTileTypes)."""
    types = mma.distributed_tile_types()
    assert types is not None
    return [math.prod(t.get_shape()) * _bits(t.get_element_type()) for t in types]


def choose_data_tiled_scaled_mma(
    info: TargetAttr, encoding: EncodingAttr, era: str | EraProfile | None = None
) -> DataTiledScaledMMAAttr | None:
    """The `#iree_gpu.data_tiled_scaled_mma_layout` of a scaled matmul encoding, or None.

    As IREE's chooseDataTiledMMAAttr for `scaled_matmul`: an input's bits
    count its scales too (unrolling M, N or K unrolls both); K is unrolled
    to a multiple of the scales vector size, so consecutive intrinsics share
    one register of scales; M/N unrolling as for plain matmuls. Only the
    scales interleave their K unrolling: LHS and RHS are loaded in blocks.
    """
    if info.max_load_instruction_bits is None or info.vgpr_space_bits is None or info.simds_per_wgp is None:
        return None
    if scaled_contraction_dims(encoding) is None:
        return None
    mma = choose_scaled_intrinsic(info, encoding.get_element_types())
    if mma is None:
        return None
    lhs, rhs, lhs_scales, rhs_scales, acc = _distributed_bits(mma)
    bits = (lhs + lhs_scales, rhs + rhs_scales, acc)
    intrinsics_k = max(1, info.max_load_instruction_bits // min(bits[0], bits[1]))
    intrinsics_k = math.lcm(intrinsics_k, SCALES_VECTOR_SIZE)
    m, n, _, _ = scaled_intrinsic_mnkkb(mma.intrinsic.data)
    unroll = _unroll_3_13 if era_profile(era).gpu_unroll_by_intensity else _unroll_walkthrough
    im, sm, in_, sn = unroll(bits, intrinsics_k, info, encoding, _IntrinsicShape((m, n, 0)))
    return DataTiledScaledMMAAttr(
        ScaledMMAIntrinsicAttr(mma.intrinsic.data),
        mma.lhs_elem_type,
        mma.rhs_elem_type,
        mma.acc_elem_type,
        *(IntAttr(v) for v in (im, sm, in_, sn, intrinsics_k, 1)),
        NoneAttr(),
        NoneAttr(),
        DenseArrayBase.from_list(i64, [LHS_SCALE, RHS_SCALE]),
        NoneAttr(),
    )


@dataclass(frozen=True)
class _IntrinsicShape:
    """What the unrolling heuristics read of an intrinsic: its (M, N, K) shape."""

    shape: tuple[int, int, int]


def scaled_encoding_info(encoding: EncodingAttr, mma: DataTiledScaledMMAAttr) -> MaterializeEncodingInfo:
    """The pack and swizzle of one scaled matmul operand (IREE's getEncodingInfoForMatmul
    with a TileMxNxKxKb, then getEncodingSwizzle).

    Present dims go in the order batch, M, N, K, Kb; all are outer dims, the
    non-batch ones also tiled. The swizzle's groups follow the same order
    (LHS [M, K, Kb], RHS [N, K, Kb], scales [M|N, K], result [M, N]): one the
    operand should index but does not (a broadcast) is removed, outermost
    first, as IREE removes them.
    """
    dims = scaled_contraction_dims(encoding)
    info = MaterializeEncodingInfo()
    if dims is None:
        return info
    tile_m, tile_n, tile_k, tile_kb = mma.tile_mnkkb()
    operand = encoding.get_operand_index()
    for loops, size in ((dims.batch, None), (dims.m, tile_m), (dims.n, tile_n), (dims.k, tile_k), (dims.kb, tile_kb)):
        position = encoding.map_dim_to_operand_index(loops[0]) if loops else None
        if position is None:
            continue
        info.outer_dims_perm.append(position)
        if size is not None:
            info.inner_dims_pos.append(position)
            info.inner_tile_sizes.append(size)
    if operand not in (LHS, RHS, LHS_SCALE, RHS_SCALE, SCALED_ACC):
        return info
    swizzle = mma.swizzle(operand)
    should_have = (
        (dims.m, operand in (LHS, SCALED_ACC)),
        (dims.n, operand in (RHS, SCALED_ACC)),
        (dims.k, operand in (LHS, RHS, LHS_SCALE, RHS_SCALE)),
        (dims.kb, operand in (LHS, RHS)),
    )
    for loops, wanted in should_have:
        if loops and wanted and encoding.map_dim_to_operand_index(loops[0]) is None:
            _remove_group(swizzle, 0)
    info.swizzle = swizzle
    return info


# ===----------------------------------------------------------------------=== #
# Encoding info
# ===----------------------------------------------------------------------=== #


def _remove_group(swizzle: TileSwizzle, index: int) -> None:
    """Drop expand group `index` and its dims from the permutation (IREE's `remove`)."""
    start = sum(len(group) for group in swizzle.expand_shape[:index])
    width = len(swizzle.expand_shape[index])
    del swizzle.expand_shape[index]
    swizzle.permutation = [p if p < start else p - width for p in swizzle.permutation if not start <= p < start + width]


def encoding_swizzle(
    encoding: EncodingAttr, mma: DataTiledMMAAttr, era: str | EraProfile | None = None
) -> TileSwizzle | None:
    """The swizzle of this operand's inner tile (IREE's getEncodingSwizzle).

    The intrinsic's groups are (M, K) for LHS, (N, K) for RHS and (M, N) for
    ACC; a group whose loop this operand does not index (a broadcast) is
    removed. The group of a loop the contraction lacks (matvec's N, vecmat's
    M) stays in IREE 3.13 (its `shouldHaveDim`): the vector operands then hold
    a whole intrinsic tile, more than their one packed dim. The walkthrough
    era drops it too, so one group remains per inner tile.
    """
    dims = get_contraction_dims(encoding)
    operand = encoding.get_operand_index()
    if dims is None or operand not in (LHS, RHS, ACC):
        return None
    swizzle = mma.swizzle(operand, cross_thread_outermost=era_profile(era).gpu_swizzle_cross_thread_outermost)
    if swizzle is None:
        return None
    groups = {LHS: (dims.m, dims.k), RHS: (dims.n, dims.k), ACC: (dims.m, dims.n)}[operand]
    whole_tiles = era_profile(era).gpu_vector_contractions_inner_tiled
    # Inner to outer, so earlier group indices stay valid.
    for index in reversed(range(len(groups))):
        loops = groups[index]
        if not loops and whole_tiles:
            continue
        if not loops or encoding.map_dim_to_operand_index(loops[0]) is None:
            _remove_group(swizzle, index)
    return swizzle


def get_encoding_info(
    target: Attribute, encoding: EncodingAttr, era: str | EraProfile | None = None
) -> MaterializeEncodingInfo:
    """The packed, swizzled layout of a matmul operand on a GPU target.

    The identity layout (an empty `MaterializeEncodingInfo`) when no data-tiled
    MMA applies; then the encoding is simply dropped.
    """
    mma = choose_data_tiled_mma(target, encoding, era)
    if mma is None:
        return MaterializeEncodingInfo()
    if isinstance(mma, DataTiledScaledMMAAttr):
        return scaled_encoding_info(encoding, mma)
    m, n, k = mma.tile_mnk()
    info = get_encoding_info_for_matmul(encoding, MatmulTile(m, n, k))
    if info.is_identity():
        return info
    info.swizzle = encoding_swizzle(encoding, mma, era)
    return info


# ===----------------------------------------------------------------------=== #
# The resolver
# ===----------------------------------------------------------------------=== #


@dataclass(frozen=True)
class GPUResolver(DataTilingResolver):
    """`#iree_gpu.gpu_encoding_resolver`: tiles of one data-tiled MMA, swizzled for the threads that hold them.

    Contractions on its layouts become `iree_codegen.inner_tiled` with that MMA.
    """

    def encoding_info(self, encoding: EncodingAttr, era: EraProfile) -> MaterializeEncodingInfo | None:
        assert self.target is not None
        return get_encoding_info(self.target, encoding, era)

    def _info_attr(self, info: MaterializeEncodingInfo, era: EraProfile) -> Attribute:
        info_attr = info.to_attr()
        return info_attr if era.gpu_distribution_factors else _without_distribution_factors(info_attr)

    def lower_contraction(self, builder, op, encodings, infos, operands, sizes, era):
        from mini_iree.compiler.ir.diagnostics import OpError
        from mini_iree.compiler.materialize_encoding.contraction import lower_to_inner_tiled

        if self.target is None:
            raise OpError(op, "needs the GPU target to choose its data-tiled MMA")
        kind = choose_data_tiled_mma(self.target, encodings[0], era)
        if kind is None:
            raise OpError(op, "no data-tiled MMA intrinsic on this target takes its element types")
        return lower_to_inner_tiled(builder, op, kind, encodings, operands, era)


def _without_distribution_factors(info_attr: Attribute) -> Attribute:
    """`encoding_info` as the walkthrough prints it: swizzle dims are `["Kind", size : i16]`.

    The thread distribution factor (`, 1 : i8`) and the scalable multiplier
    came later; the walkthrough's layouts have neither.
    """
    from xdsl.dialects.builtin import ArrayAttr

    assert isinstance(info_attr, DictionaryAttr)
    swizzle = info_attr.data.get("swizzle")
    if not isinstance(swizzle, DictionaryAttr) or not isinstance(swizzle.data.get("expandShape"), ArrayAttr):
        return info_attr
    expand_shape = swizzle.data["expandShape"]
    assert isinstance(expand_shape, ArrayAttr)
    groups = ArrayAttr(
        [
            ArrayAttr([ArrayAttr(dim.data[:2]) if isinstance(dim, ArrayAttr) else dim for dim in group.data])
            if isinstance(group, ArrayAttr)
            else group
            for group in expand_shape.data
        ]
    )
    new_swizzle = DictionaryAttr({**swizzle.data, "expandShape": groups})
    return DictionaryAttr({**info_attr.data, "swizzle": new_swizzle})
