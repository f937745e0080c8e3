"""The CPU and VMVX encoding resolvers: which mmt4d tile each target packs for.

IREE's Codegen/ExternalInterfaces/CPUEncodingExternalModels.cpp. A resolver
enumerates the tiles its microkernels are built for ("preferred tile, then
its truncations in M" for narrow problems), picks one taking the narrow
dimension into account, and packs each operand for it. Targets and element
types without a tile get the identity layout: IREE then drops the encoding
and runs the plain matmul (there is no generic fallback tile).

Decisions read only the target configuration: `target_triple` (the
architecture), `cpu_features` (exact comma-separated tokens: `+avx2` does not
imply `+avx`) and `ukernels` ("default", "none", "all" or a list).

Scalable (SVE / RVV `vscale`) tiles, under `--iree-llvmcpu-enable-scalable-vectorization`
(`compiler/cpu_options.py`): an AArch64 `+sve`/`+sve2` or RISC-V `+v` target
makes its N tile scalable (`scalableTiles`, `scalable_tile_flags`), `N0 * vscale`
elements. RISC-V then takes the tiles of a 64-bit VLEN (`vscale = VLEN / 64`) and
never SpacemiT's fixed tiles. With the option, a narrow N is no longer
transposed into a narrow M when the tiles are scalable (the N tile must stay the
trailing, scalable one), and the tile is chosen for the size of M.

`enable_inner_tiled = true` in the target configuration (IREE 2026): contractions
run on a CPU MMA intrinsic, unrolled, as `iree_codegen.inner_tiled` with
`#iree_cpu.data_tiled_mma_layout` (`compiler/layout/cpu_mma.py` chooses it); each
operand's tile is the swizzled tile of that MMA and a narrow N is not transposed.

Convolution encodings (`op_type = conv`) take the (OC, IC) tile of
`compiler/materialize_encoding/convolution.py` (enumerateCPUConvTiles).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BFloat16Type,
    IntegerAttr,
    Float16Type,
    Float32Type,
    IntegerType,
    Signedness,
    StringAttr,
)
from xdsl.ir import Attribute

from mini_iree.compiler.cpu_options import is_scalable_vectorization_enabled
from mini_iree.compiler.era import EraProfile
from mini_iree.compiler.resolvers.interface import DataTilingResolver
from mini_iree.compiler.resolvers.matmul_info import (
    MatmulTile,
    get_contraction_dims,
    get_encoding_info_for_matmul,
    get_matmul_narrow_dim,
    get_matmul_sizes,
    is_narrow_n_result,
    power_of_2_ceil,
)
from mini_iree.dialects import hal
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo
from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType

# ---------------------------------------------------------------------------
# Target configuration queries (Codegen/Utils/Utils.cpp)
# ---------------------------------------------------------------------------


def _config_string(target: hal.ExecutableTargetAttr, key: str) -> str | None:
    value = target.get_config(key)
    return value.data if isinstance(value, StringAttr) else None


def target_arch(target: hal.ExecutableTargetAttr) -> str | None:
    """The architecture of `target_triple` ("x86_64", "aarch64", "riscv64", ...)."""
    triple = _config_string(target, "target_triple")
    if not triple:
        return None
    arch = triple.split("-", 1)[0]
    # LLVM's Triple spells AArch64 two ways.
    return "aarch64" if arch == "arm64" else arch


def has_feature(target: hal.ExecutableTargetAttr, feature: str) -> bool:
    """Whether `cpu_features` lists exactly this token (no prefix matches)."""
    features = _config_string(target, "cpu_features")
    return features is not None and feature in features.split(",")


def has_ukernel(target: hal.ExecutableTargetAttr, name: str = "") -> bool:
    """IREE's hasUkernel: are microkernels (or the one named) enabled?

    "default" means mmt4d on x86_64 and aarch64 (and RISC-V with `+xsmtvdot`),
    nothing elsewhere, so riscv32 and VMVX need an explicit `ukernels = "all"`.
    """
    enabled = _config_string(target, "ukernels") or "default"
    if enabled == "default":
        arch = target_arch(target)
        default_on = arch in ("x86_64", "aarch64") or (arch == "riscv64" and has_feature(target, "+xsmtvdot"))
        enabled = "mmt4d" if default_on else "none"
    if enabled == "none":
        return False
    if enabled == "all":
        return True
    if not name:
        return bool(enabled)
    return name in enabled.split(",")


# ---------------------------------------------------------------------------
# Element type predicates
# ---------------------------------------------------------------------------


def _is_float(t: Attribute) -> bool:
    # MLIR's FloatType: every builtin float, including f64 and the f8 types.
    return isinstance(t, AnyFloat)


def _is_f32_f16_bf16(t: Attribute) -> bool:
    return isinstance(t, Float32Type | Float16Type | BFloat16Type)


def _signless(t: Attribute, width: int) -> bool:
    return isinstance(t, IntegerType) and t.width.data == width and t.signedness.data == Signedness.SIGNLESS


def _unsigned(t: Attribute, width: int) -> bool:
    return isinstance(t, IntegerType) and t.width.data == width and t.signedness.data == Signedness.UNSIGNED


def _narrow_m_truncations(m0: int, n0: int, k0: int) -> list[MatmulTile]:
    """The preferred tile followed by its truncations to every smaller power-of-two M."""
    smaller = [1 << i for i in reversed(range(m0.bit_length())) if 1 << i < m0]
    return [MatmulTile(m, n0, k0) for m in (m0, *smaller)]


# ---------------------------------------------------------------------------
# Tile tables (enumerateMatmulTile*)
# ---------------------------------------------------------------------------


def _x86_64_tiles(target: hal.ExecutableTargetAttr, lhs: Attribute, rhs: Attribute, out: Attribute) -> list[MatmulTile]:
    if _is_f32_f16_bf16(out):
        both_bf16 = isinstance(lhs, BFloat16Type) and isinstance(rhs, BFloat16Type)
        if both_bf16 and isinstance(out, BFloat16Type | Float32Type) and has_feature(target, "+avx512bf16"):
            return _narrow_m_truncations(16, 16, 2)  # VDPBF16PS (zmm)
        if _is_float(lhs) and _is_float(rhs):
            # f16/bf16 inputs use the f32 tile: they are widened in registers.
            if has_feature(target, "+avx512f"):
                return _narrow_m_truncations(16, 16, 1)  # VFMADD* (zmm)
            if has_feature(target, "+avx"):
                return _narrow_m_truncations(8, 8, 1)  # VFMADD* (ymm)
            return _narrow_m_truncations(8, 4, 1)  # SSE: MULPS/ADDPS (xmm)
    if _signless(out, 32) and ((_signless(lhs, 8) and _signless(rhs, 8)) or (_signless(lhs, 16) and _signless(rhs, 16))):
        if has_feature(target, "+avx512vnni") or has_feature(target, "+avx512bw"):
            return _narrow_m_truncations(16, 16, 2)  # VPDPWSSD / VPMADDWD (zmm)
        if has_feature(target, "+avx2"):
            return _narrow_m_truncations(8, 8, 2)  # VPMADDWD (ymm)
        return _narrow_m_truncations(8, 4, 2)  # SSE: PMADDWD (xmm)
    if _signless(out, 32) and _signless(lhs, 16) and _unsigned(rhs, 4) and has_feature(target, "+avx512vnni"):
        return [MatmulTile(1, 32, 8)]  # experimental s16u4s32 vecmat (VPDPBUSD)
    return []


def _aarch64_tiles(target: hal.ExecutableTargetAttr, lhs: Attribute, rhs: Attribute, out: Attribute) -> list[MatmulTile]:
    if _is_f32_f16_bf16(out):
        both_bf16 = isinstance(lhs, BFloat16Type) and isinstance(rhs, BFloat16Type)
        if both_bf16 and isinstance(out, BFloat16Type | Float32Type) and has_feature(target, "+bf16"):
            return _narrow_m_truncations(8, 8, 4)  # BFMMLA
        if _is_float(lhs) and _is_float(rhs):
            return _narrow_m_truncations(8, 8, 1)  # FMLA / FMLAL
    if _signless(lhs, 8) and _signless(rhs, 8) and _signless(out, 32):
        if has_feature(target, "+i8mm"):
            return _narrow_m_truncations(8, 8, 8)  # SMMLA
        if has_feature(target, "+dotprod"):
            return _narrow_m_truncations(8, 8, 4)  # SDOT
    if _signless(lhs, 8) and _signless(rhs, 4) and _signless(out, 32):
        if has_feature(target, "+i8mm"):
            return _narrow_m_truncations(4, 8, 16)
        if has_feature(target, "+dotprod"):
            return _narrow_m_truncations(8, 8, 8)
        return _narrow_m_truncations(4, 16, 2)
    return []


_RISCV_ZVL = (65536, 32768, 16384, 8192, 4096, 2048, 1024, 512, 256)


def vlen_from_features(features: Sequence[str]) -> int:
    """RISC-V VLEN in bits from the largest `+zvlNb` feature; the V extension guarantees 128."""
    return next((vlen for vlen in _RISCV_ZVL if f"+zvl{vlen}b" in features), 128)


def riscv_vlen(target: hal.ExecutableTargetAttr) -> int:
    """VLEN in bits of a RISC-V target (see `vlen_from_features`)."""
    return vlen_from_features((_config_string(target, "cpu_features") or "").split(","))


def _riscv64_tiles(
    target: hal.ExecutableTargetAttr, lhs: Attribute, rhs: Attribute, out: Attribute, scalable_rvv: bool = True
) -> list[MatmulTile]:
    # Only the V extension has tiles. N0 = VLEN/8 is 4 vector registers of f32
    # lanes (LMUL=4), so 7 rows of accumulators plus the RHS fill all 32.
    if not has_feature(target, "+v"):
        return []
    scalable = scalable_rvv and is_scalable_vectorization_enabled()
    # Scalable mode: the tiles of the smallest VLEN, 64 bits; the N tile then
    # scales with vscale = VLEN / 64 (`scalable_tile_flags`).
    vlen = 64 if scalable else riscv_vlen(target)
    n0 = vlen // 8
    if isinstance(lhs, Float32Type) and isinstance(rhs, Float32Type) and isinstance(out, Float32Type):
        return _narrow_m_truncations(7, n0, 1)  # vfmacc
    if isinstance(lhs, Float16Type) and isinstance(rhs, Float16Type):
        if has_feature(target, "+zvfh"):
            return _narrow_m_truncations(7, n0, 1)
        if has_feature(target, "+zvfhmin"):
            return _narrow_m_truncations(6, n0, 1)
    both_bf16 = isinstance(lhs, BFloat16Type) and isinstance(rhs, BFloat16Type)
    if both_bf16 and isinstance(out, Float32Type) and has_feature(target, "+zvfbfwma"):
        return _narrow_m_truncations(7, n0, 1)  # vfwmaccbf16
    if _signless(lhs, 8) and _signless(rhs, 8) and _signless(out, 32):
        # SpacemiT IME (vmadot) has fixed tiles for three VLENs.
        ime = has_feature(target, "+xsmtvdot") and not scalable
        atom = {256: 4, 1024: 8, 4096: 16}.get(vlen) if ime else None
        if atom is not None:
            return [MatmulTile(3 * atom, 4 * atom, 2 * atom)]
        return _narrow_m_truncations(7, n0, 1)  # widening i8 -> i16 -> i32 chain
    return []


def _riscv32_tiles(target: hal.ExecutableTargetAttr) -> list[MatmulTile]:
    # Only the microkernels have a layout on riscv32, whatever the types.
    return _narrow_m_truncations(8, 8, 4) if has_ukernel(target) else []


def enumerate_cpu_matmul_tiles(
    target: hal.ExecutableTargetAttr, encoding: EncodingAttr, scalable_rvv: bool = True
) -> list[MatmulTile]:
    """Candidate tiles of an llvm-cpu target for this encoding's element types.

    `scalable_rvv`: RISC-V takes its scalable base tiles under scalable vectorization (IREE 3.13).
    """
    element_types = encoding.get_element_types()
    if len(element_types) != 3:
        return []
    lhs, rhs, out = element_types
    arch = target_arch(target)
    if arch == "aarch64":
        return _aarch64_tiles(target, lhs, rhs, out)
    if arch == "x86_64":
        return _x86_64_tiles(target, lhs, rhs, out)
    if arch == "riscv32":
        return _riscv32_tiles(target)
    if arch == "riscv64":
        return _riscv64_tiles(target, lhs, rhs, out, scalable_rvv)
    return []


def enumerate_vmvx_matmul_tiles(target: hal.ExecutableTargetAttr, encoding: EncodingAttr) -> list[MatmulTile]:
    """VMVX tiles: one fixed table for every type, or `?x?x?` with microkernels.

    With `ukernels` enabled the tile is left to the runtime (dynamic; the host
    sizes buffers as if it were 16). The microkernels take neither a batch
    dimension nor narrow problems, which keep the static table.
    """
    dims = get_contraction_dims(encoding)
    ukernels = has_ukernel(target)
    if dims is not None and (dims.batch or get_matmul_narrow_dim(encoding) is not None):
        ukernels = False
    if ukernels:
        return [MatmulTile(DYNAMIC_INDEX, DYNAMIC_INDEX, DYNAMIC_INDEX)]
    return _narrow_m_truncations(8, 8, 4)


# The tile IREE's VMVX runtime answers `iree_codegen.query_tile_sizes` with: its
# generic microkernel tile (`iree_uk_query_matmul_tile_sizes_generic`), M0 = 8,
# N0 = 8, K0 = 4. The device code of a dynamic VMVX layout asks for it at run time
# (the interpreter answers the query with it); it never exceeds the 16 the host
# sizes the buffers for.
VMVX_RUNTIME_MATMUL_TILE = MatmulTile(8, 8, 4)


def vmvx_runtime_encoding_info(encoding: EncodingAttr) -> MaterializeEncodingInfo:
    """The layout the VMVX runtime gives `encoding` when the resolver left its tile dynamic."""
    return get_encoding_info_for_matmul(encoding, VMVX_RUNTIME_MATMUL_TILE)


# ---------------------------------------------------------------------------
# Choosing a tile (chooseMatmulTile)
# ---------------------------------------------------------------------------


def choose_matmul_tile(
    tiles: Sequence[MatmulTile], narrow: tuple[str, int] | None, keep_scalable_narrow_n: bool = True
) -> MatmulTile:
    """The tile that pads the narrow dimension least, then has the largest M0*N0*K0.

    Tables only list narrow-M variants, so a narrow N is chosen as if it were
    M and the tile's M0/N0 swapped back. Padding up to the next power of two
    is free: a 7-row problem may still take the 8-row tile.
    """
    if narrow is not None and narrow[0] == "N" and not (keep_scalable_narrow_n and is_scalable_vectorization_enabled()):
        tile = choose_matmul_tile(tiles, ("M", narrow[1]))
        return MatmulTile(tile.n, tile.m, tile.k)
    if any(DYNAMIC_INDEX in (t.m, t.n, t.k) for t in tiles):
        assert len(tiles) == 1, "a dynamic tile must be the only candidate"
        return tiles[0]

    def penalty(tile: MatmulTile) -> int:
        if narrow is None:
            return 0
        return max(tile.m - power_of_2_ceil(narrow[1]), 0)

    best_penalty = min(penalty(t) for t in tiles)
    candidates = [t for t in tiles if penalty(t) == best_penalty]
    # max() keeps the first of equal products, as IREE's strict comparison does.
    return max(candidates, key=lambda t: t.m * t.n * t.k)


def scalable_2026(era: EraProfile) -> bool:
    """IREE 3.13's scalable data tiling: RISC-V `+v` too, a narrow N kept (not transposed) when the
    tiles are scalable. The walkthrough's IREE only gave AArch64 SVE a scalable N tile, after
    transposing a narrow N (and without swapping the flags).
    """
    return era.scalable_riscv_and_narrow_n


def scalable_tile_flags(
    target: hal.ExecutableTargetAttr, encoding: EncodingAttr, riscv: bool = True
) -> list[bool] | None:
    """IREE's getScalableTileFlags: which of this operand's inner tiles (M, N, K order) are scalable.

    None (no `scalableTiles`) unless scalable vectorization is enabled and the
    target has scalable vectors: AArch64 with `+sve` or `+sve2` (and not
    `+sme`, whose data tiling IREE does not support yet), or riscv64 with `+v`.
    Only the N tile is scalable.
    """
    if not is_scalable_vectorization_enabled():
        return None
    arch = target_arch(target)
    aarch64_sve = arch == "aarch64" and (has_feature(target, "+sve") or has_feature(target, "+sve2"))
    riscv_v = riscv and arch == "riscv64" and has_feature(target, "+v")
    if not aarch64_sve and not riscv_v:
        return None
    dims = get_contraction_dims(encoding)
    assert dims is not None
    flags: list[bool] = []
    for loops, scalable in ((dims.m, False), (dims.n, True), (dims.k, False)):
        if loops and encoding.map_dim_to_operand_index(loops[0]) is not None:
            if loops is dims.m and has_feature(target, "+sme"):
                return None
            flags.append(scalable)
    return flags


def _narrow_dim(encoding: EncodingAttr) -> tuple[str, int] | None:
    """The narrow dimension the tile is chosen for.

    Under scalable vectorization a narrow N of a matmul with an M loop is not
    transposed: the tile is chosen for M's size (none when M is dynamic), so
    that the scalable N tile stays the trailing one.
    """
    narrow = get_matmul_narrow_dim(encoding)
    dims = get_contraction_dims(encoding)
    if is_scalable_vectorization_enabled() and narrow is not None and narrow[0] == "N" and dims and dims.m:
        sizes = get_matmul_sizes(encoding)
        if sizes is None or sizes[0] == DYNAMIC_INDEX:
            return None
        return "M", sizes[0]
    return narrow


def transpose_in_place(info: MaterializeEncodingInfo) -> None:
    """Swap the M and N entries (the last two) of a narrow-N RESULT's layout.

    The result is then stored N1 x M1 x N0 x M0 and the mmt4d computes
    C^T = B^T * A^T, reusing the narrow-M microkernels. Vectors have nothing
    to swap.
    """
    if len(info.inner_tile_sizes) < 2:
        return
    for values in (info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm, info.scalable_tiles):
        if values is not None:
            values[-2], values[-1] = values[-1], values[-2]


def _resolve(
    encoding: EncodingAttr,
    tiles: list[MatmulTile],
    target: hal.ExecutableTargetAttr | None = None,
    era: EraProfile | None = None,
) -> MaterializeEncodingInfo:
    """The layout for the best of `tiles`; with a `target` (the CPU resolver's path, not VMVX's)
    the tiles may be scalable, and in IREE 3.13 (`era`) the narrow dimension follows them."""
    if not tiles or get_contraction_dims(encoding) is None:
        return MaterializeEncodingInfo()
    modern = era is None or scalable_2026(era)
    narrow = _narrow_dim(encoding) if target is not None and modern else get_matmul_narrow_dim(encoding)
    tile = choose_matmul_tile(tiles, narrow, modern)
    info = get_encoding_info_for_matmul(encoding, tile)
    if target is not None and not modern:
        # The walkthrough's order: transpose, then the (unswapped) flags.
        if is_narrow_n_result(encoding):
            transpose_in_place(info)
        info.scalable_tiles = scalable_tile_flags(target, encoding, riscv=False)
        return info
    if target is not None:
        info.scalable_tiles = scalable_tile_flags(target, encoding)
    # Scalable tiles keep a narrow-N result as it is (the scalable N tile last).
    if is_narrow_n_result(encoding) and not any(info.scalable_tiles or []):
        transpose_in_place(info)
    return info


def enable_inner_tiled(target: hal.ExecutableTargetAttr) -> bool:
    """getEnableInnerTiledFromConfig: `enable_inner_tiled = true` in the configuration."""
    value = target.get_config("enable_inner_tiled")
    return isinstance(value, IntegerAttr) and value.type == IntegerType(1) and value.value.data != 0


def inner_tiled_encoding_info(target: hal.ExecutableTargetAttr, encoding: EncodingAttr) -> MaterializeEncodingInfo:
    """getInnerTiledEncodingInfo: the tile of the chosen CPU MMA, swizzled as that MMA
    holds it; identity when no intrinsic takes the element types."""
    from mini_iree.compiler.layout.cpu_mma import choose_cpu_inner_tiled_mma, tile_mxnxk

    if get_contraction_dims(encoding) is None:
        return MaterializeEncodingInfo()
    mma = choose_cpu_inner_tiled_mma(target, encoding)
    if mma is None:
        return MaterializeEncodingInfo()
    info = get_encoding_info_for_matmul(encoding, tile_mxnxk(mma))
    if info.is_identity():
        return info
    info.scalable_tiles = scalable_tile_flags(target, encoding)
    info.swizzle = mma.swizzle(encoding.get_operand_index())
    return info


def get_encoding_info(target: hal.ExecutableTargetAttr, encoding: EncodingAttr) -> MaterializeEncodingInfo:
    """The packed layout an llvm-cpu or VMVX target gives this encoded tensor.

    Identity (empty) when the encoding is not a matmul with at most one
    batch/M/N/K loop or the target has no tile for its element types: IREE
    then drops the encoding. The target's own data-tiling resolver decides; a
    target that names none is asked as its backend's (VMVX's for `vmvx`).
    """
    from mini_iree.compiler.era import WALKTHROUGH
    from mini_iree.compiler.resolvers.registry import resolver_of

    resolver = resolver_of(target)
    if not resolver.packs:
        resolver = (VMVXResolver if target.backend.data == "vmvx" else CPUResolver)(resolver.attr, target)
    info = resolver.encoding_info(encoding, WALKTHROUGH)
    assert info is not None
    return info


# ---------------------------------------------------------------------------
# The resolvers (CPUEncodingExternalModels.cpp)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CPUResolver(DataTilingResolver):
    """`#iree_cpu.cpu_encoding_resolver`: the tile tables of the target's architecture and features."""

    def _tiles(self, encoding: EncodingAttr) -> list[MatmulTile]:
        assert self.target is not None
        return enumerate_cpu_matmul_tiles(self.target, encoding)

    def encoding_info(self, encoding: EncodingAttr, era: EraProfile) -> MaterializeEncodingInfo | None:
        assert self.target is not None
        if encoding.get_op_type() is EncodingOpType.CONV:
            # A convolution's operands take an (OC, IC) tile (getEncodingInfoForConv), or the identity.
            from mini_iree.compiler.materialize_encoding.convolution import cpu_conv_encoding_info

            return cpu_conv_encoding_info(self.target, encoding)
        if enable_inner_tiled(self.target):
            return inner_tiled_encoding_info(self.target, encoding)
        tiles = enumerate_cpu_matmul_tiles(self.target, encoding, scalable_rvv=scalable_2026(era))
        return _resolve(encoding, tiles, self.target, era)

    def lower_contraction(self, builder, op, encodings, infos, operands, sizes, era):
        if self.target is None or not enable_inner_tiled(self.target):
            return super().lower_contraction(builder, op, encodings, infos, operands, sizes, era)
        from mini_iree.compiler.ir.diagnostics import OpError
        from mini_iree.compiler.layout.cpu_mma import choose_cpu_inner_tiled_mma
        from mini_iree.compiler.materialize_encoding.contraction import lower_to_cpu_inner_tiled

        # The same choice as the layouts', from the result's encoding (lowerContractionToInnerTiled).
        kind = choose_cpu_inner_tiled_mma(self.target, encodings[-1])
        if kind is None:
            raise OpError(op, "no CPU MMA intrinsic on this target takes its element types")
        return lower_to_cpu_inner_tiled(builder, op, kind, encodings, operands)


@dataclass(frozen=True)
class VMVXResolver(CPUResolver):
    """`#iree_cpu.vmvx_encoding_resolver`: one fixed tile, or tiles the runtime chooses with microkernels.

    Its serialized layouts also record the original encoding (`encoding_attr`),
    as IREE does, because the runtime's tile query needs it.
    """

    has_runtime_tiles: ClassVar[bool] = True

    def _tiles(self, encoding: EncodingAttr) -> list[MatmulTile]:
        assert self.target is not None
        return enumerate_vmvx_matmul_tiles(self.target, encoding)

    def encoding_info(self, encoding: EncodingAttr, era: EraProfile) -> MaterializeEncodingInfo | None:
        # VMVX has no scalable vectors: IREE's VMVX resolver never asks for scalable tiles
        # (the era still decides whether the option keeps a narrow N when choosing the tile).
        return _resolve(encoding, self._tiles(encoding), None, era)

    def _configuration(self, encoding: EncodingAttr, info_attr: Attribute) -> dict[str, Attribute]:
        return {"encoding_attr": encoding, "encoding_info": info_attr}

    def runtime_encoding_info(self, encoding: EncodingAttr) -> MaterializeEncodingInfo | None:
        return vmvx_runtime_encoding_info(encoding)

    def runtime_source(self, layout: Attribute) -> Attribute | None:
        config = layout.configuration_dict  # type: ignore[attr-defined]
        return config.data.get("encoding_attr") if config is not None else None
