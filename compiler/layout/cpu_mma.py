"""The CPU MMA intrinsic a data-tiled contraction runs on (`enable_inner_tiled`).

IREE's Codegen/ExternalInterfaces/CPUEncodingExternalModels.cpp
(getMmaIntrinsicsForTargetConfig, chooseIntrinsic, chooseUnrolling,
chooseCpuInnerTiledMmaForEncoding, getTileMxNxK). The choice reads only the
encoding (element types, iteration sizes) and the target configuration, so the
layout of each operand and the `kind` of the `inner_tiled` op agree.

1. The intrinsic: the target's intrinsics taking exactly the encoding's element
   types (with signedness: vpdpbusd's `ui8`), plus the type-polymorphic generic
   scalar one, scored by the useful multiply-adds of one invocation
   (`min(intrinsicM, M) * min(intrinsicN, N) * intrinsicK`, a dynamic size
   not narrowing), then by its raw size; the first wins ties.
2. The unrolling: the (intrinsics_m, intrinsics_n) whose ACC + LHS + RHS tiles
   fit the register budget (bits of the vector register file; registers for
   the generic scalar intrinsic), with the highest arithmetic intensity
   `effM * effN / (effM + effN)`. The generic scalar intrinsic also groups
   sub-byte K elements into whole bytes (intrinsics_k).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerType, Signedness
from xdsl.ir import Attribute

from mini_iree.compiler.resolvers.matmul_info import MatmulTile, get_contraction_dims, get_matmul_sizes
from mini_iree.dialects import hal
from mini_iree.dialects.iree_cpu import DataTiledMMAAttr, MMAIntrinsic
from mini_iree.dialects.iree_encoding import EncodingAttr

_X86_FEATURES: dict[MMAIntrinsic, tuple[str, ...]] = {}
for _name, _features in (
    ("MMA_X86_AVX2_FMA_", ("+avx2", "+fma")),
    ("MMA_X86_AVX512_", ("+avx512f",)),
    ("MMA_X86_AVX512FP16_", ("+avx512fp16",)),
    ("MMA_X86_AVX512BF16_", ("+avx512bf16",)),
    ("MMA_X86_AVX512VNNI_", ("+avx512vnni",)),
):
    for _intr in MMAIntrinsic:
        if _intr.value.startswith(_name):
            _X86_FEATURES[_intr] = _features
del _name, _features, _intr


def required_features(intrinsic: MMAIntrinsic) -> tuple[str, ...]:
    """getMmaIntrinsicRequiredFeatures: every `+feature` the x86 intrinsic needs (empty: not x86)."""
    return _X86_FEATURES.get(intrinsic, ())


def mma_intrinsics_for_target(target: hal.ExecutableTargetAttr) -> list[MMAIntrinsic]:
    """getMmaIntrinsicsForTargetConfig: the x86 intrinsics whose features the
    target has, in enum order, then the generic scalar one (`_REG16` on 64-bit
    triples, `_REG8` on 32-bit ones)."""
    from mini_iree.compiler.resolvers.cpu import has_feature, target_arch

    arch = target_arch(target)
    out: list[MMAIntrinsic] = []
    if arch == "x86_64":
        for intr in MMAIntrinsic:
            features = required_features(intr)
            if features and all(has_feature(target, f) for f in features):
                out.append(intr)
    is_64_bit = arch is None or "64" in arch
    out.append(MMAIntrinsic.MMA_GENERIC_SCALAR_1x1x1_REG16 if is_64_bit else MMAIntrinsic.MMA_GENERIC_SCALAR_1x1x1_REG8)
    return out


def _bits(t: Attribute) -> int:
    width = getattr(t, "bitwidth", None)
    if isinstance(t, IntegerType):
        return t.width.data
    assert isinstance(width, int)
    return width


def _typed_abc(intrinsic: MMAIntrinsic) -> tuple[Attribute, Attribute, Attribute] | None:
    """getABCElementTypes with signedness: the `UI8` inputs of vpdpbusd are `ui8`."""
    types = intrinsic.element_types
    if types is None:
        return None
    inputs = intrinsic.value.split("_", 4)[-1].split("_CAST")[0].split("_")[1:]
    ui8 = IntegerType(8, Signedness.UNSIGNED)
    lhs, rhs, acc = types
    if inputs and inputs[0] == "UI8":
        lhs = ui8
    if inputs and inputs[-1] == "UI8":
        rhs = ui8
    return lhs, rhs, acc


def _intrinsic_info(types: Sequence[Attribute], intrinsic: MMAIntrinsic) -> tuple[int, int, int, int, int, int] | None:
    """getIntrinsicInfo: (M, N, K, lhsBits, rhsBits, accBits); None if the element types differ."""
    if intrinsic.is_generic_scalar:
        return 1, 1, 1, 0, 0, 0
    abc = _typed_abc(intrinsic)
    mnk = intrinsic.row_major_mnk
    if abc is None or mnk is None or tuple(abc) != tuple(types):
        return None
    return (*mnk, *(_bits(t) for t in abc))


def _sizes(encoding: EncodingAttr) -> tuple[int, int]:
    sizes = get_matmul_sizes(encoding)
    return sizes if sizes is not None else (DYNAMIC_INDEX, DYNAMIC_INDEX)


def choose_intrinsic(target: hal.ExecutableTargetAttr, encoding: EncodingAttr) -> MMAIntrinsic | None:
    """chooseIntrinsic: the most useful multiply-adds per invocation, then the biggest."""
    types = encoding.get_element_types()
    m, n = _sizes(encoding)

    def useful(size: int, intrinsic_size: int) -> int:
        return intrinsic_size if size == DYNAMIC_INDEX else min(intrinsic_size, size)

    best, best_score = None, (-1, -1)
    for intr in mma_intrinsics_for_target(target):
        info = _intrinsic_info(types, intr)
        if info is None:
            continue
        im, in_, ik = info[:3]
        score = (useful(m, im) * useful(n, in_) * ik, im * in_ * ik)
        if score > best_score:
            best, best_score = intr, score
    return best


def _unroll_cap(size: int, intrinsic_size: int, fallback: int) -> int:
    return fallback if size == DYNAMIC_INDEX else max(1, -(-size // intrinsic_size))


def choose_unrolling(encoding: EncodingAttr, intrinsic: MMAIntrinsic) -> tuple[int, int, int] | None:
    """chooseUnrolling: (intrinsics_m, intrinsics_n, intrinsics_k) under the register budget."""
    types = encoding.get_element_types()
    info = _intrinsic_info(types, intrinsic)
    if info is None:
        return None
    im0, in0, ik0, lhs_bits, rhs_bits, acc_bits = info
    intrinsics_k = 1
    if intrinsic.is_generic_scalar:
        lb, rb = _bits(types[0]), _bits(types[1])
        while intrinsics_k <= 8 and ((intrinsics_k * lb) % 8 or (intrinsics_k * rb) % 8):
            intrinsics_k *= 2
        if intrinsics_k > 8:
            return None
        budget = intrinsic.generic_scalar_register_budget
        acc_unit = lhs_unit = rhs_unit = 1
    else:
        budget = intrinsic.register_space_bytes * 8
        acc_unit, lhs_unit, rhs_unit = acc_bits, lhs_bits, rhs_bits
    m, n = _sizes(encoding)
    cap_m = _unroll_cap(m, im0, budget)
    cap_n = _unroll_cap(n, in0, budget)
    acc_term = im0 * in0 * acc_unit
    lhs_term = im0 * ik0 * intrinsics_k * lhs_unit
    rhs_term = in0 * ik0 * intrinsics_k * rhs_unit
    best: tuple[int, int] | None = None
    best_intensity = -1.0
    for im in range(1, cap_m + 1):
        remaining = budget - im * lhs_term
        if remaining <= 0:
            break
        in_ = min(cap_n, remaining // (im * acc_term + rhs_term))
        if in_ < 1:
            continue
        eff_m, eff_n = float(im * im0), float(in_ * in0)
        intensity = eff_m * eff_n / (eff_m + eff_n)
        if intensity > best_intensity:
            best_intensity, best = intensity, (im, in_)
    im, in_ = best or (1, 1)  # some register spill rather than no data tiling
    return im, in_, intrinsics_k


def choose_cpu_inner_tiled_mma(target: hal.ExecutableTargetAttr, encoding: EncodingAttr) -> DataTiledMMAAttr | None:
    """chooseCpuInnerTiledMmaForEncoding; None when no intrinsic takes the element types."""
    types = encoding.get_element_types()
    if len(types) != 3 or get_contraction_dims(encoding) is None:
        return None
    intr = choose_intrinsic(target, encoding)
    if intr is None:
        return None
    unroll = choose_unrolling(encoding, intr)
    if unroll is None:
        return None
    # The generic intrinsic's enum value does not fix its element types: the attribute carries them.
    return DataTiledMMAAttr(intr, *unroll, types=list(types) if intr.is_generic_scalar else None)


def tile_mxnxk(mma: DataTiledMMAAttr) -> MatmulTile:
    """getTileMxNxK: M and K from the LHS swizzle's two groups, N from the RHS one's first."""

    def product(group) -> int:
        result = 1
        for dim in group:
            result *= dim.size
        return result

    lhs, rhs = mma.swizzle(0), mma.swizzle(1)
    return MatmulTile(product(lhs.expand_shape[0]), product(rhs.expand_shape[0]), product(lhs.expand_shape[1]))
