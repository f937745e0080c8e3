"""The `iree_gpu` dialect: GPU targets, MMA intrinsics and GPU lowering configs.

For data tiling it provides:

- `#iree_gpu.target<arch = "gfx942", features = "", wgp = <...>>`, the GPU a
  dispatch is compiled for; the GPU encoding resolver reads its MMA intrinsics
  and register/memory limits (`TargetAttr.mma_intrinsics`, `vgpr_space_bits`, ...);
- `#iree_gpu.gpu_encoding_resolver<...>` and `#iree_gpu.gpu_padding_resolver<...>`,
  the GPU layout resolvers;
- `#iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, ...>`, the
  intrinsic unrolled over a data tile, which is the `kind` of the
  `iree_codegen.inner_tiled` ops GPU materialization creates, and the swizzle of
  each operand's tile (`DataTiledMMAAttr.swizzle`);
- `#iree_gpu.mma_layout`, `#iree_gpu.scaled_mma_layout` and
  `#iree_gpu.data_tiled_scaled_mma_layout`, the other `inner_tiled` kinds (the
  scaled ones take `lhs, rhs, lhs_scales, rhs_scales` and accumulate, every
  32 elements along K sharing one f8E8M0FNU scale);
- the lowering configuration attributes and the ops (`iree_gpu.barrier_region`,
  `value_barrier`, `subgroup_scan`, the DMA ops) that appear once a dispatch is
  tiled for the GPU.

Upstream: compiler/src/iree/compiler/Codegen/Dialect/GPU/IR/ in
https://github.com/iree-org/iree
"""

from __future__ import annotations

import re
from abc import ABC
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DictionaryAttr,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    VectorType,
    f16,
    f32,
    f64,
    i8,
    i32,
    i64,
)
from xdsl.dialects.utils import BitEnumAttribute, EnumAttribute
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mini_iree.dialects.iree_codegen import (
    EncodingResolverAttr,
    InnerTileDescAttr,
    InnerTiledSemanticsAttr,
    PipelineAttr,
    StructParam,
    SwizzleDim,
    SwizzleDimKind,
    TileSwizzle,
    attr_param,
    bool_param,
    i32_array_param,
    i64_array_param,
    int_param,
    optional_int,
    optional_values,
    parse_struct_attr,
    parse_verified,
    print_struct_params,
    string_param,
)

# ===----------------------------------------------------------------------=== #
# Enums
# ===----------------------------------------------------------------------=== #


class ComputeBitwidths(StrEnum):
    FP64 = "fp64"
    FP32 = "fp32"
    FP16 = "fp16"
    INT64 = "int64"
    INT32 = "int32"
    INT16 = "int16"
    INT8 = "int8"
    FP8 = "fp8"
    FP6 = "fp6"
    FP4 = "fp4"


class StorageBitwidths(StrEnum):
    B64 = "b64"
    B32 = "b32"
    B16 = "b16"
    B8 = "b8"


class SubgroupOps(StrEnum):
    SHUFFLE = "shuffle"
    ARITHMETIC = "arithmetic"


class DotProductOps(StrEnum):
    DP4XI8TOI32 = "dp4xi8toi32"


class MMAIntrinsic(StrEnum):
    """The matrix-multiply intrinsics IREE can target.

    Names follow `<kind>_<C type>_<M>x<N>x<K>[x<blocks>B]_<A type>[_<B type>]`;
    `shape` and `element_types` decode them.
    """

    # CDNA1
    MFMA_F32_16x16x4_F32 = "MFMA_F32_16x16x4_F32"
    MFMA_F32_16x16x16_F16 = "MFMA_F32_16x16x16_F16"
    MFMA_F32_32x32x8_F16 = "MFMA_F32_32x32x8_F16"
    MFMA_I32_16x16x16_I8 = "MFMA_I32_16x16x16_I8"
    MFMA_I32_32x32x8_I8 = "MFMA_I32_32x32x8_I8"
    # CDNA2
    MFMA_F32_16x16x8_BF16 = "MFMA_F32_16x16x8_BF16"
    MFMA_F32_32x32x4_BF16 = "MFMA_F32_32x32x4_BF16"
    MFMA_F64_16x16x4_F64 = "MFMA_F64_16x16x4_F64"
    # CDNA3
    MFMA_F32_16x16x16_BF16 = "MFMA_F32_16x16x16_BF16"
    MFMA_F32_32x32x8_BF16 = "MFMA_F32_32x32x8_BF16"
    MFMA_F32_16x16x32_F8E5M2FNUZ = "MFMA_F32_16x16x32_F8E5M2FNUZ"
    MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ = "MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ"
    MFMA_F32_16x16x32_F8E4M3FNUZ = "MFMA_F32_16x16x32_F8E4M3FNUZ"
    MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ = "MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ"
    MFMA_F32_32x32x16_F8E5M2FNUZ = "MFMA_F32_32x32x16_F8E5M2FNUZ"
    MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ = "MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ"
    MFMA_F32_32x32x16_F8E4M3FNUZ = "MFMA_F32_32x32x16_F8E4M3FNUZ"
    MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ = "MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ"
    MFMA_I32_16x16x32_I8 = "MFMA_I32_16x16x32_I8"
    MFMA_I32_32x32x16_I8 = "MFMA_I32_32x32x16_I8"
    # CDNA3 block intrinsics
    MFMA_F32_4x4x4x16B_F16 = "MFMA_F32_4x4x4x16B_F16"
    MFMA_F32_16x16x4x4B_F16 = "MFMA_F32_16x16x4x4B_F16"
    MFMA_F32_32x32x4x2B_F16 = "MFMA_F32_32x32x4x2B_F16"
    MFMA_F32_4x4x4x16B_BF16 = "MFMA_F32_4x4x4x16B_BF16"
    MFMA_F32_16x16x4x4B_BF16 = "MFMA_F32_16x16x4x4B_BF16"
    MFMA_F32_32x32x4x2B_BF16 = "MFMA_F32_32x32x4x2B_BF16"
    MFMA_F32_4x4x1x16B_F32 = "MFMA_F32_4x4x1x16B_F32"
    MFMA_F32_16x16x1x4B_F32 = "MFMA_F32_16x16x1x4B_F32"
    MFMA_F32_32x32x1x2B_F32 = "MFMA_F32_32x32x1x2B_F32"
    MFMA_F64_4x4x4x4B_F64 = "MFMA_F64_4x4x4x4B_F64"
    MFMA_I32_4x4x4x16B_I8 = "MFMA_I32_4x4x4x16B_I8"
    MFMA_I32_16x16x4x4B_I8 = "MFMA_I32_16x16x4x4B_I8"
    MFMA_I32_32x32x4x2B_I8 = "MFMA_I32_32x32x4x2B_I8"
    # CDNA4
    MFMA_F32_16x16x32_F16 = "MFMA_F32_16x16x32_F16"
    MFMA_F32_32x32x16_F16 = "MFMA_F32_32x32x16_F16"
    MFMA_F32_16x16x32_BF16 = "MFMA_F32_16x16x32_BF16"
    MFMA_F32_32x32x16_BF16 = "MFMA_F32_32x32x16_BF16"
    MFMA_F32_16x16x32_F8E5M2 = "MFMA_F32_16x16x32_F8E5M2"
    MFMA_F32_16x16x32_F8E5M2_F8E4M3FN = "MFMA_F32_16x16x32_F8E5M2_F8E4M3FN"
    MFMA_F32_16x16x32_F8E4M3FN = "MFMA_F32_16x16x32_F8E4M3FN"
    MFMA_F32_16x16x32_F8E4M3FN_F8E5M2 = "MFMA_F32_16x16x32_F8E4M3FN_F8E5M2"
    MFMA_F32_32x32x16_F8E5M2 = "MFMA_F32_32x32x16_F8E5M2"
    MFMA_F32_32x32x16_F8E5M2_F8E4M3FN = "MFMA_F32_32x32x16_F8E5M2_F8E4M3FN"
    MFMA_F32_32x32x16_F8E4M3FN = "MFMA_F32_32x32x16_F8E4M3FN"
    MFMA_F32_32x32x16_F8E4M3FN_F8E5M2 = "MFMA_F32_32x32x16_F8E4M3FN_F8E5M2"
    MFMA_F32_16x16x128_F8E5M2 = "MFMA_F32_16x16x128_F8E5M2"
    MFMA_F32_16x16x128_F8E5M2_F8E4M3FN = "MFMA_F32_16x16x128_F8E5M2_F8E4M3FN"
    MFMA_F32_16x16x128_F8E4M3FN = "MFMA_F32_16x16x128_F8E4M3FN"
    MFMA_F32_16x16x128_F8E4M3FN_F8E5M2 = "MFMA_F32_16x16x128_F8E4M3FN_F8E5M2"
    MFMA_F32_32x32x64_F8E5M2 = "MFMA_F32_32x32x64_F8E5M2"
    MFMA_F32_32x32x64_F8E5M2_F8E4M3FN = "MFMA_F32_32x32x64_F8E5M2_F8E4M3FN"
    MFMA_F32_32x32x64_F8E4M3FN = "MFMA_F32_32x32x64_F8E4M3FN"
    MFMA_F32_32x32x64_F8E4M3FN_F8E5M2 = "MFMA_F32_32x32x64_F8E4M3FN_F8E5M2"
    MFMA_I32_16x16x64_I8 = "MFMA_I32_16x16x64_I8"
    MFMA_I32_32x32x32_I8 = "MFMA_I32_32x32x32_I8"
    # RDNA3
    WMMAR3_F32_16x16x16_F16 = "WMMAR3_F32_16x16x16_F16"
    WMMAR3_F16_16x16x16_F16 = "WMMAR3_F16_16x16x16_F16"
    WMMAR3_F32_16x16x16_BF16 = "WMMAR3_F32_16x16x16_BF16"
    WMMAR3_BF16_16x16x16_BF16 = "WMMAR3_BF16_16x16x16_BF16"
    WMMAR3_I32_16x16x16_I8 = "WMMAR3_I32_16x16x16_I8"
    # RDNA4
    WMMAR4_F32_16x16x16_F16 = "WMMAR4_F32_16x16x16_F16"
    WMMAR4_F16_16x16x16_F16 = "WMMAR4_F16_16x16x16_F16"
    WMMAR4_F32_16x16x16_BF16 = "WMMAR4_F32_16x16x16_BF16"
    WMMAR4_BF16_16x16x16_BF16 = "WMMAR4_BF16_16x16x16_BF16"
    WMMAR4_F32_16x16x16_F8E5M2 = "WMMAR4_F32_16x16x16_F8E5M2"
    WMMAR4_F32_16x16x16_F8E5M2_F8E4M3FN = "WMMAR4_F32_16x16x16_F8E5M2_F8E4M3FN"
    WMMAR4_F32_16x16x16_F8E4M3FN = "WMMAR4_F32_16x16x16_F8E4M3FN"
    WMMAR4_F32_16x16x16_F8E4M3FN_F8E5M2 = "WMMAR4_F32_16x16x16_F8E4M3FN_F8E5M2"
    WMMAR4_I32_16x16x16_I8 = "WMMAR4_I32_16x16x16_I8"
    # gfx1250
    WMMA_F32_16x16x4_F32 = "WMMA_F32_16x16x4_F32"
    WMMA_F32_16x16x32_F16 = "WMMA_F32_16x16x32_F16"
    WMMA_F32_16x16x32_BF16 = "WMMA_F32_16x16x32_BF16"
    WMMA_F16_16x16x32_F16 = "WMMA_F16_16x16x32_F16"
    WMMA_BF16_16x16x32_BF16 = "WMMA_BF16_16x16x32_BF16"
    WMMA_F32_16x16x64_F8E4M3FN = "WMMA_F32_16x16x64_F8E4M3FN"
    WMMA_F32_16x16x64_F8E4M3FN_F8E5M2 = "WMMA_F32_16x16x64_F8E4M3FN_F8E5M2"
    WMMA_F32_16x16x64_F8E5M2 = "WMMA_F32_16x16x64_F8E5M2"
    WMMA_F32_16x16x64_F8E5M2_F8E4M3FN = "WMMA_F32_16x16x64_F8E5M2_F8E4M3FN"
    WMMA_F16_16x16x64_F8E4M3FN = "WMMA_F16_16x16x64_F8E4M3FN"
    WMMA_F16_16x16x64_F8E4M3FN_F8E5M2 = "WMMA_F16_16x16x64_F8E4M3FN_F8E5M2"
    WMMA_F16_16x16x64_F8E5M2 = "WMMA_F16_16x16x64_F8E5M2"
    WMMA_F16_16x16x64_F8E5M2_F8E4M3FN = "WMMA_F16_16x16x64_F8E5M2_F8E4M3FN"
    WMMA_I32_16x16x64_I8 = "WMMA_I32_16x16x64_I8"
    WMMA_F32_16x16x128_F8E5M2 = "WMMA_F32_16x16x128_F8E5M2"
    WMMA_F32_16x16x128_F8E5M2_F8E4M3FN = "WMMA_F32_16x16x128_F8E5M2_F8E4M3FN"
    WMMA_F32_16x16x128_F8E4M3FN = "WMMA_F32_16x16x128_F8E4M3FN"
    WMMA_F32_16x16x128_F8E4M3FN_F8E5M2 = "WMMA_F32_16x16x128_F8E4M3FN_F8E5M2"
    WMMA_F16_16x16x128_F8E5M2 = "WMMA_F16_16x16x128_F8E5M2"
    WMMA_F16_16x16x128_F8E5M2_F8E4M3FN = "WMMA_F16_16x16x128_F8E5M2_F8E4M3FN"
    WMMA_F16_16x16x128_F8E4M3FN = "WMMA_F16_16x16x128_F8E4M3FN"
    WMMA_F16_16x16x128_F8E4M3FN_F8E5M2 = "WMMA_F16_16x16x128_F8E4M3FN_F8E5M2"
    # NVIDIA
    NV_MMA_SYNC_F32_16x8x16_F16 = "NV_MMA_SYNC_F32_16x8x16_F16"
    NV_MMA_SYNC_F16_16x8x16_F16 = "NV_MMA_SYNC_F16_16x8x16_F16"
    NV_MMA_SYNC_F32_16x8x16_BF16 = "NV_MMA_SYNC_F32_16x8x16_BF16"
    NV_MMA_SYNC_F32_16x8x32_F8E4M3FN = "NV_MMA_SYNC_F32_16x8x32_F8E4M3FN"
    NV_MMA_SYNC_F32_16x8x32_F8E5M2 = "NV_MMA_SYNC_F32_16x8x32_F8E5M2"
    NV_WMMA_F32_16x16x16_F16 = "NV_WMMA_F32_16x16x16_F16"
    NV_WMMA_F16_16x16x16_F16 = "NV_WMMA_F16_16x16x16_F16"

    @property
    def shape(self) -> tuple[int, int, int]:
        """The (M, N, K) of one intrinsic (per block for block intrinsics)."""
        m, n, k = _decode_intrinsic(self)[1]
        return m, n, k

    @property
    def block_size(self) -> int:
        """How many independent blocks a block intrinsic computes (1 otherwise)."""
        return _decode_intrinsic(self)[2]

    @property
    def element_types(self) -> tuple[Attribute, Attribute, Attribute]:
        """The element types of the (A, B, C) operands."""
        return _decode_intrinsic(self)[3]

    @property
    def is_amd_mfma(self) -> bool:
        return self.value.startswith("MFMA_")

    @property
    def subgroup_size(self) -> int:
        """Threads cooperating on one intrinsic: 64 for CDNA MFMA, else 32."""
        return 64 if self.is_amd_mfma else 32


class ScaledMMAIntrinsic(StrEnum):
    MFMA_SCALE_F32_16x16x128_B32 = "MFMA_SCALE_F32_16x16x128_B32"
    MFMA_SCALE_F32_32x32x64_B32 = "MFMA_SCALE_F32_32x32x64_B32"


class LoweringPipeline(StrEnum):
    DEFAULT = "Default"
    BASE_LOWERING = "BaseLowering"
    DISTRIBUTE = "Distribute"
    VECTORIZE = "Vectorize"
    VECTOR_DISTRIBUTE = "VectorDistribute"
    WINOGRAD_VECTORIZE = "WinogradVectorize"
    TILE_AND_FUSE = "TileAndFuse"


class ReorderWorkgroupsStrategy(StrEnum):
    NONE = "None"
    TRANSPOSE = "Transpose"


_TYPE_TOKENS: dict[str, Attribute] = {
    "F64": f64,
    "F32": f32,
    "F16": f16,
    "BF16": BFloat16Type(),
    "I32": i32,
    "I8": i8,
    "F8E4M3FNUZ": Float8E4M3FNUZType(),
    "F8E5M2FNUZ": Float8E5M2FNUZType(),
    "F8E4M3FN": Float8E4M3FNType(),
    "F8E5M2": Float8E5M2Type(),
}

_INTRINSIC_NAME = re.compile(
    r"(?P<kind>.+?)_(?P<c>[A-Z0-9]+)"
    r"_(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)(?:x(?P<blocks>\d+)B)?"
    r"_(?P<a>[A-Z0-9]+)(?:_(?P<b>[A-Z0-9]+))?"
)


@cache
def _decode_intrinsic(
    intrinsic: MMAIntrinsic,
) -> tuple[str, tuple[int, int, int], int, tuple[Attribute, Attribute, Attribute]]:
    match = _INTRINSIC_NAME.fullmatch(intrinsic.value)
    assert match is not None, f"unexpected intrinsic name {intrinsic.value}"
    a = _TYPE_TOKENS[match["a"]]
    b = _TYPE_TOKENS[match["b"]] if match["b"] else a
    shape = (int(match["m"]), int(match["n"]), int(match["k"]))
    return match["kind"], shape, int(match["blocks"] or 1), (a, b, _TYPE_TOKENS[match["c"]])


# ===----------------------------------------------------------------------=== #
# Register layouts of the intrinsics and the swizzles built from them
# ===----------------------------------------------------------------------=== #

LHS, RHS, ACC = 0, 1, 2
"""Operand indices of an MMA: `ACC += LHS x RHS`."""


@dataclass(frozen=True)
class SubgroupLayout:
    """How one operand of an intrinsic is spread over a subgroup's registers.

    For each dim (M, K for LHS; K, N for RHS; M, N for ACC; the scaled
    intrinsics' LHS and RHS add the block dim: M, K, Kb and K, Kb, N) the
    extent is `outer * thread * element`: `thread` threads (lane strides
    `tstrides`) each hold `outer` runs of `element` contiguous values.
    """

    outer: tuple[int, ...]
    thread: tuple[int, ...]
    tstrides: tuple[int, ...]
    element: tuple[int, ...]


def single_subgroup_layout(intrinsic: MMAIntrinsic, operand: int) -> SubgroupLayout | None:
    """The register layout of one operand of `intrinsic`, as IREE defines it.

    Block intrinsics and the opaque NVIDIA WMMA ones have no such 2-D layout
    here; they return None.
    """
    kind, (m, _, k), blocks, _ = _decode_intrinsic(intrinsic)
    if blocks != 1 or kind == "NV_WMMA":
        return None
    if kind == "MFMA":
        if m == 16:
            if operand == ACC and intrinsic is MMAIntrinsic.MFMA_F64_16x16x4_F64:
                return SubgroupLayout((4, 1), (4, 16), (16, 1), (1, 1))
            return (
                SubgroupLayout((1, 1), (16, 4), (1, 16), (1, k // 4)),
                SubgroupLayout((1, 1), (4, 16), (16, 1), (k // 4, 1)),
                SubgroupLayout((1, 1), (4, 16), (16, 1), (4, 1)),
            )[operand]
        return (
            SubgroupLayout((1, 1), (32, 2), (1, 32), (1, k // 2)),
            SubgroupLayout((1, 1), (2, 32), (32, 1), (k // 2, 1)),
            SubgroupLayout((4, 1), (2, 32), (32, 1), (4, 1)),
        )[operand]
    if kind == "WMMAR3":
        return (
            SubgroupLayout((1, 1), (16, 1), (1, 0), (1, 16)),
            SubgroupLayout((1, 1), (1, 16), (0, 1), (16, 1)),
            SubgroupLayout((8, 1), (2, 16), (16, 1), (1, 1)),
        )[operand]
    if kind in ("WMMAR4", "WMMA"):
        return (
            SubgroupLayout((1, 1), (16, 2), (1, 16), (1, k // 2)),
            SubgroupLayout((1, 1), (2, 16), (16, 1), (k // 2, 1)),
            SubgroupLayout((1, 1), (2, 16), (16, 1), (8, 1)),
        )[operand]
    assert kind == "NV_MMA_SYNC"
    per_reg = k // 8
    return (
        SubgroupLayout((2, 2), (8, 4), (4, 1), (1, per_reg)),
        SubgroupLayout((2, 1), (4, 8), (1, 4), (per_reg, 1)),
        SubgroupLayout((2, 1), (8, 4), (4, 1), (1, 2)),
    )[operand]


LHS_SCALE, RHS_SCALE, SCALED_ACC = 2, 3, 4
"""Operand indices of a scaled MMA: `(lhs, rhs, lhs_scales, rhs_scales) -> acc`."""

_SCALED_ACC_16x16 = SubgroupLayout((1, 1), (4, 16), (16, 1), (4, 1))
_SCALED_ACC_32x32 = SubgroupLayout((4, 1), (2, 32), (32, 1), (4, 1))
_SCALED_LAYOUTS: dict[str, tuple[SubgroupLayout, ...]] = {
    "MFMA_SCALE_F32_16x16x128_B32": (
        SubgroupLayout((1, 1, 1), (16, 4, 1), (1, 16, 1), (1, 1, 32)),
        SubgroupLayout((1, 1, 1), (4, 1, 16), (16, 1, 1), (1, 32, 1)),
        SubgroupLayout((1, 1), (16, 4), (1, 16), (1, 1)),
        SubgroupLayout((1, 1), (4, 16), (16, 1), (1, 1)),
        _SCALED_ACC_16x16,
    ),
    "MFMA_SCALE_F32_32x32x64_B32": (
        SubgroupLayout((1, 1, 1), (32, 2, 1), (1, 32, 1), (1, 1, 32)),
        SubgroupLayout((1, 1, 1), (2, 1, 32), (32, 1, 1), (1, 32, 1)),
        SubgroupLayout((1, 1), (32, 2), (1, 32), (1, 1)),
        SubgroupLayout((1, 1), (2, 32), (32, 1), (1, 1)),
        _SCALED_ACC_32x32,
    ),
}


def scaled_subgroup_layout(intrinsic: ScaledMMAIntrinsic, operand: int, acc_col_major: bool = False) -> SubgroupLayout:
    """The register layout of one operand of a scaled intrinsic, as IREE defines it."""
    layout = _SCALED_LAYOUTS[intrinsic.value][operand]
    if operand == SCALED_ACC and acc_col_major:
        layout = SubgroupLayout(*(v[::-1] for v in (layout.outer, layout.thread, layout.tstrides, layout.element)))
    return layout


def scaled_intrinsic_mnkkb(intrinsic: ScaledMMAIntrinsic) -> tuple[int, int, int, int]:
    """(M, N, K, Kb) of one scaled intrinsic: K counts blocks of Kb elements."""
    lhs, rhs = scaled_subgroup_layout(intrinsic, LHS), scaled_subgroup_layout(intrinsic, RHS)

    def extent(layout: SubgroupLayout, dim: int) -> int:
        return layout.outer[dim] * layout.thread[dim] * layout.element[dim]

    return extent(lhs, 0), extent(rhs, 2), extent(lhs, 1), extent(lhs, 2)


SCALED_MMA_SUBGROUP_SIZE = 64
"""Both scaled MFMA intrinsics run on 64-lane CDNA subgroups."""


def intrinsic_swizzle(intrinsic: MMAIntrinsic, operand: int, replicated_threads: bool = True) -> TileSwizzle | None:
    """The swizzle of one intrinsic's operand tile: its register order.

    None for intrinsics without a 2-D register layout (see
    `single_subgroup_layout`).
    """
    layout = single_subgroup_layout(intrinsic, operand)
    if layout is None:
        return None
    return layout_swizzle(layout, intrinsic.subgroup_size, transposed=operand == RHS, replicated_threads=replicated_threads)


def layout_swizzle(
    layout: SubgroupLayout, subgroup_size: int, transposed: bool, replicated_threads: bool = True
) -> TileSwizzle:
    """IREE's getIntrinsicSwizzle: the TileSwizzle of one operand's register layout.

    `transposed` operands (RHS and RHS scales) are stored N-major, so their
    layout is rotated right by one first ([K, N] -> [N, K], [K, Kb, N] ->
    [N, K, Kb]). Element dims become Internal (innermost first, so a block dim
    Kb stays innermost), thread dims CrossThread (lanes that replicate a dim
    get a distribution factor), outer dims Internal again.
    """
    outer, thread, tstrides, element = layout.outer, layout.thread, layout.tstrides, layout.element
    if transposed:
        outer, thread, tstrides, element = (
            (v[-1], *v[:-1]) for v in (outer, thread, tstrides, element)
        )
    rank = len(thread)
    swizzle = TileSwizzle([[] for _ in range(rank)], [])
    for i in reversed(range(rank)):
        if element[i] != 1:
            swizzle.expand(i, SwizzleDim.internal(element[i]))
    distribution_factor = subgroup_size // _product(thread)
    for i in range(rank):
        if thread[i] != 1 or (tstrides[i] == 0 and replicated_threads):
            factor = distribution_factor if tstrides[i] == 0 else 1
            swizzle.expand(i, SwizzleDim.cross_thread(thread[i], factor))
    if thread[0] != 1 and thread[1] != 1 and tstrides[0] > tstrides[1]:
        swizzle.permutation[0], swizzle.permutation[1] = swizzle.permutation[1], swizzle.permutation[0]
    for i in range(rank):
        if outer[i] != 1:
            swizzle.expand(i, SwizzleDim.internal(outer[i]))
    return swizzle


def _product(values: Sequence[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


def _interleave(swizzle: TileSwizzle, dst_index: int) -> None:
    """Move the outermost dim of the permutation to position `dst_index`."""
    perm = swizzle.permutation
    swizzle.permutation = [*perm[1 : dst_index + 1], perm[0], *perm[dst_index + 1 :]]


def _expand_if_non_unit(swizzle: TileSwizzle, src_index: int, dim: SwizzleDim, interleave: bool = False) -> None:
    if dim.size <= 1:
        return
    swizzle.expand(src_index, dim)
    if interleave:
        flat = swizzle.flat_dims()
        ordered = [flat[p] for p in swizzle.permutation]
        innermost = max(i for i, d in enumerate(ordered) if d.kind is SwizzleDimKind.CROSS_THREAD)
        _interleave(swizzle, innermost)


def _refine_group(group: list[SwizzleDim], sizes: list[int]) -> list[SwizzleDim] | None:
    """Split the dims of `group` so their sizes become `sizes` (each split dim
    keeps its kind), or None when `sizes` does not refine `group`."""
    refined: list[SwizzleDim] = []
    remaining = list(sizes)
    for dim in group:
        product, parts = 1, []
        while remaining and product < dim.size:
            parts.append(remaining.pop(0))
            product *= parts[-1]
        if product != dim.size:
            return None
        refined += [SwizzleDim(dim.kind, size) for size in parts] if len(parts) > 1 else [dim]
    return None if remaining else refined


def _move_cross_thread_outermost(swizzle: TileSwizzle, acc: TileSwizzle, pairs: list[tuple[int, int]]) -> None:
    """The walkthrough-era last step of the data-tiled swizzle (IREE removed it in
    October 2025): within each group `g` that matches accumulator group `a`, put
    the dims that are CrossThread in the accumulator outermost, without changing
    the physical layout (only how it is described).

    Refining the group to the accumulator's sizes first lets a CrossThread dim of
    the operand be split the way the accumulator splits it (LHS M `[CI8, CT16]`
    becomes `[CI8, CT4, CT4]`, then `[CT4, CI8, CT4]`).
    """
    for group_index, acc_index in pairs:
        acc_group = acc.expand_shape[acc_index]
        refined = _refine_group(swizzle.expand_shape[group_index], [d.size for d in acc_group])
        if refined is None:
            continue
        start = sum(len(g) for g in swizzle.expand_shape[:group_index])
        old_len = len(swizzle.expand_shape[group_index])
        # Splitting a dim splits its entry in the permutation, outer part first.
        split_sizes = []
        remaining = [d.size for d in refined]
        for dim in swizzle.expand_shape[group_index]:
            count, product = 0, 1
            while product < dim.size:
                product *= remaining.pop(0)
                count += 1
            split_sizes.append(max(count, 1))
            if count == 0:
                remaining.pop(0)
        new_index: dict[int, list[int]] = {}
        position = 0
        total_old = len(swizzle.flat_dims())
        for old in range(total_old):
            if start <= old < start + old_len:
                width = split_sizes[old - start]
            else:
                width = 1
            new_index[old] = list(range(position, position + width))
            position += width
        swizzle.permutation = [n for p in swizzle.permutation for n in new_index[p]]
        swizzle.expand_shape[group_index] = refined
        # Stable partition: accumulator-CrossThread positions first.
        order = [i for i, d in enumerate(acc_group) if d.kind is SwizzleDimKind.CROSS_THREAD]
        order += [i for i, d in enumerate(acc_group) if d.kind is not SwizzleDimKind.CROSS_THREAD]
        swizzle.expand_shape[group_index] = [refined[i] for i in order]
        moved = {start + old: start + new for new, old in enumerate(order)}
        swizzle.permutation = [moved.get(p, p) for p in swizzle.permutation]


# ===----------------------------------------------------------------------=== #
# MMA attributes
# ===----------------------------------------------------------------------=== #


class MMAIntrinsicAttr(EnumAttribute[MMAIntrinsic]):
    """`#iree_gpu.mma_intrinsic<MFMA_F32_16x16x4_F32>`."""

    name = "iree_gpu.mma_intrinsic"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> MMAIntrinsic:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(MMAIntrinsic)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


def _parse_intrinsic(parser: AttrParser) -> Attribute:
    return MMAIntrinsicAttr(parser.parse_str_enum(MMAIntrinsic))


def _print_enum(printer: Printer, value: Attribute) -> None:
    assert isinstance(value, EnumAttribute)
    printer.print_string(value.data.value)


def _contraction_maps_ok(maps: Sequence[AffineMap]) -> bool:
    # linalg::inferContractionDims: three maps, the result one a projected
    # permutation from which the iterator kinds are inferred.
    return len(maps) == 3 and maps[2].is_projected_permutation()


@irdl_attr_definition(init=False)
class MMAAttr(ParametrizedAttribute, InnerTileDescAttr):
    """One MMA intrinsic, `C += A x B` on a single subgroup.

    ```mlir
    #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>
    ```

    Inside a target's `mma = [...]` list it is written without its prefix,
    `<MFMA_F32_16x16x4_F32>`.
    """

    name = "iree_gpu.mma_layout"

    intrinsic: MMAIntrinsicAttr
    col_major: IntegerAttr

    def __init__(self, intrinsic: MMAIntrinsic, col_major: bool = False):
        super().__init__(MMAIntrinsicAttr(intrinsic), IntegerAttr.from_bool(col_major))

    @property
    def is_col_major(self) -> bool:
        return bool(self.col_major.value.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            intrinsic = _parse_intrinsic(parser)
            col_major = False
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("col_major")
                parser.parse_punctuation("=")
                col_major = parser.parse_boolean()
        return [intrinsic, IntegerAttr.from_bool(col_major)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.intrinsic.data.value)
            if self.is_col_major:
                printer.print_string(", col_major = true")

    def expected_num_inputs(self) -> int:
        return 2

    def expected_num_outputs(self) -> int:
        return 1

    def verify_indexing_maps(self, maps: Sequence[AffineMap]) -> bool:
        return _contraction_maps_ok(maps)

    def undistributed_tile_types(self) -> list[VectorType] | None:
        m, n, k = self.intrinsic.data.shape
        a, b, c = self.intrinsic.data.element_types
        if self.intrinsic.data.block_size != 1:
            return None
        return [VectorType(a, [m, k]), VectorType(b, [k, n]), VectorType(c, [m, n])]

    def distributed_tile_types(self) -> list[VectorType] | None:
        if self.is_col_major:
            return None
        types: list[VectorType] = []
        for operand, element_type in enumerate(self.intrinsic.data.element_types):
            layout = single_subgroup_layout(self.intrinsic.data, operand)
            if layout is None:
                return None
            outer, element = layout.outer[0] * layout.outer[1], layout.element[0] * layout.element[1]
            # NVIDIA mma.sync operands are register arrays of small vectors.
            shape = [outer, element] if self.intrinsic.data.value.startswith("NV_MMA_SYNC") else [outer * element]
            types.append(VectorType(element_type, shape))
        return types


@irdl_attr_definition(init=False)
class DataTiledMMAAttr(ParametrizedAttribute, InnerTileDescAttr):
    """An MMA intrinsic unrolled and distributed over a data tile.

    `intrinsics_{m,n,k}` unroll the intrinsic along M, N, K within one
    subgroup; `subgroups_{m,n,k}` spread the tile over subgroups;
    `operands_interleaving_intrinsics_{m,n,k}` list the operands whose unrolled
    intrinsic tiles are interleaved innermost. Counts equal to 1 and absent
    lists are not printed.

    ```mlir
    #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8,
                                    intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4>
    ```
    """

    name = "iree_gpu.data_tiled_mma_layout"

    intrinsic: MMAIntrinsicAttr
    intrinsics_m: IntAttr
    subgroups_m: IntAttr
    intrinsics_n: IntAttr
    subgroups_n: IntAttr
    intrinsics_k: IntAttr
    subgroups_k: IntAttr
    operands_interleaving_intrinsics_m: DenseArrayBase | NoneAttr
    operands_interleaving_intrinsics_n: DenseArrayBase | NoneAttr
    operands_interleaving_intrinsics_k: DenseArrayBase | NoneAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        StructParam("intrinsic", _parse_intrinsic, _print_enum),
        int_param("intrinsics_m", default=1),
        int_param("subgroups_m", default=1),
        int_param("intrinsics_n", default=1),
        int_param("subgroups_n", default=1),
        int_param("intrinsics_k", default=1),
        int_param("subgroups_k", default=1),
        i64_array_param("operands_interleaving_intrinsics_m", optional=True),
        i64_array_param("operands_interleaving_intrinsics_n", optional=True),
        i64_array_param("operands_interleaving_intrinsics_k", optional=True),
    )

    def __init__(
        self,
        intrinsic: MMAIntrinsic,
        intrinsics_m: int = 1,
        subgroups_m: int = 1,
        intrinsics_n: int = 1,
        subgroups_n: int = 1,
        intrinsics_k: int = 1,
        subgroups_k: int = 1,
        operands_interleaving_intrinsics_m: Sequence[int] | None = None,
        operands_interleaving_intrinsics_n: Sequence[int] | None = None,
        operands_interleaving_intrinsics_k: Sequence[int] | None = None,
    ):
        def operands(values: Sequence[int] | None) -> DenseArrayBase | NoneAttr:
            return NoneAttr() if values is None else DenseArrayBase.from_list(i64, values)

        super().__init__(
            MMAIntrinsicAttr(intrinsic),
            *(IntAttr(v) for v in (intrinsics_m, subgroups_m, intrinsics_n, subgroups_n, intrinsics_k, subgroups_k)),
            operands(operands_interleaving_intrinsics_m),
            operands(operands_interleaving_intrinsics_n),
            operands(operands_interleaving_intrinsics_k),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    def tile_mnk(self) -> tuple[int, int, int]:
        """The (M, N, K) extent of the whole data tile."""
        m, n, k = self.intrinsic.data.shape
        return (
            m * self.intrinsics_m.data * self.subgroups_m.data,
            n * self.intrinsics_n.data * self.subgroups_n.data,
            k * self.intrinsics_k.data * self.subgroups_k.data,
        )

    def element_types(self) -> tuple[Attribute, Attribute, Attribute]:
        return self.intrinsic.data.element_types

    def subgroup_count(self) -> int:
        return self.subgroups_m.data * self.subgroups_n.data * self.subgroups_k.data

    def swizzle(self, operand: int, cross_thread_outermost: bool = False) -> TileSwizzle | None:
        """The layout of operand `operand`'s tile (0 = LHS, 1 = RHS, 2 = ACC).

        Starts from the intrinsic's register order and expands the tile by the
        unrolled intrinsics (CrossIntrinsic) and the subgroups (CrossThread).
        `cross_thread_outermost` adds the last step IREE took until October 2025
        (the data-tiling walkthrough's layouts); without it this is IREE 3.13's.
        None when the intrinsic has no known register layout.
        """
        if not cross_thread_outermost:
            return self._swizzle(operand, walkthrough_era=False)
        # Then, the K unrolling of both inputs was always interleaved.
        swizzle, acc = self._swizzle(operand, walkthrough_era=True), self._swizzle(ACC, walkthrough_era=True)
        if swizzle is None or acc is None:
            return None
        pairs = {LHS: [(0, 0)], RHS: [(0, 1)], ACC: [(0, 0), (1, 1)]}[operand]
        _move_cross_thread_outermost(swizzle, acc, pairs)
        return swizzle

    def _swizzle(self, operand: int, walkthrough_era: bool) -> TileSwizzle | None:
        swizzle = intrinsic_swizzle(self.intrinsic.data, operand, replicated_threads=not walkthrough_era)
        if swizzle is None:
            return None
        # Then, the K unrolling of both inputs was always interleaved.
        return data_tiled_swizzle(swizzle, operand, self, operand, interleave_inputs_k=walkthrough_era)

    def expected_num_inputs(self) -> int:
        return 2

    def expected_num_outputs(self) -> int:
        return 1

    def verify_indexing_maps(self, maps: Sequence[AffineMap]) -> bool:
        return _contraction_maps_ok(maps)

    def _tile_types(self, distributed: bool) -> list[VectorType] | None:
        types: list[VectorType] = []
        for operand, element_type in enumerate(self.element_types()):
            swizzle = self.swizzle(operand)
            if swizzle is None:
                return None
            keep = (lambda d: d.kind is not SwizzleDimKind.CROSS_THREAD) if distributed else (lambda d: True)
            types.append(VectorType(element_type, swizzle.swizzled_shape(keep)))
        return types

    def undistributed_tile_types(self) -> list[VectorType] | None:
        return self._tile_types(distributed=False)

    def distributed_tile_types(self) -> list[VectorType] | None:
        return self._tile_types(distributed=True)


@irdl_attr_definition(init=False)
class MMASemanticsAttr(ParametrizedAttribute, InnerTiledSemanticsAttr):
    """How an `inner_tiled` op with a GPU kind reads its inner tiles.

    `distributed`: the tiles are one thread's share rather than a subgroup's;
    `opaque`: only element type and count are checked, not the shape.

    ```mlir
    #iree_gpu.mma_semantics<distributed = false, opaque = false>
    ```
    """

    name = "iree_gpu.mma_semantics"

    distributed: IntegerAttr
    opaque: IntegerAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (bool_param("distributed"), bool_param("opaque"))

    def __init__(self, distributed: bool = False, opaque: bool = False):
        super().__init__(IntegerAttr.from_bool(distributed), IntegerAttr.from_bool(opaque))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    def is_distributed(self) -> bool:
        return bool(self.distributed.value.data)

    def is_opaque(self) -> bool:
        return bool(self.opaque.value.data)


class ScaledMMAIntrinsicAttr(EnumAttribute[ScaledMMAIntrinsic]):
    """`#iree_gpu.scaled_mma_intrinsic<MFMA_SCALE_F32_16x16x128_B32>`."""

    name = "iree_gpu.scaled_mma_intrinsic"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ScaledMMAIntrinsic:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(ScaledMMAIntrinsic)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


def _parse_scaled_intrinsic(parser: AttrParser) -> Attribute:
    return ScaledMMAIntrinsicAttr(parser.parse_str_enum(ScaledMMAIntrinsic))


def _parse_type(parser: AttrParser) -> Attribute:
    return parser.parse_type()


def _print_type(printer: Printer, value: Attribute) -> None:
    printer.print_attribute(value)


def _scaled_maps_ok(maps: Sequence[AffineMap]) -> bool:
    """ScaledMMAAttr::verifyIndexingMaps: (lhs, rhs, acc) form a contraction and
    each scale uses only indices its operand uses."""
    if len(maps) != 5 or not _contraction_maps_ok([maps[LHS], maps[RHS], maps[SCALED_ACC]]):
        return False
    lhs, rhs = set(maps[LHS].results), set(maps[RHS].results)
    return set(maps[LHS_SCALE].results) <= lhs and set(maps[RHS_SCALE].results) <= rhs


def _scaled_contraction_maps_ok(maps: Sequence[AffineMap]) -> bool:
    # IREE::LinalgExt::inferScaledContractionDims: five maps, the iterator
    # kinds inferred from the result map, a projected permutation.
    return len(maps) == 5 and maps[SCALED_ACC].is_projected_permutation()


def _f8e8m0() -> Attribute:
    return Float8E8M0FNUType()


@irdl_attr_definition(init=False)
class ScaledMMAAttr(ParametrizedAttribute, InnerTileDescAttr):
    """A block-scaled MMA intrinsic with its operand element types.

    Its operands are `(lhs, rhs, lhs_scales, rhs_scales) -> acc`; every
    `Kb = 32` elements along K share one f8E8M0FNU scale.

    ```mlir
    #iree_gpu.scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32,
        lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>
    ```
    """

    name = "iree_gpu.scaled_mma_layout"

    LEGACY_OPERAND_ORDER: ClassVar[tuple[int, ...] | None] = (0, 2, 1, 3, 4)

    intrinsic: ScaledMMAIntrinsicAttr
    lhs_elem_type: Attribute
    rhs_elem_type: Attribute
    acc_elem_type: Attribute
    col_major: IntegerAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        StructParam("intrinsic", _parse_scaled_intrinsic, _print_enum),
        StructParam("lhs_elem_type", _parse_type, _print_type),
        StructParam("rhs_elem_type", _parse_type, _print_type),
        StructParam("acc_elem_type", _parse_type, _print_type),
        bool_param("col_major", default=False),
    )

    def __init__(
        self,
        intrinsic: ScaledMMAIntrinsic,
        lhs_elem_type: Attribute,
        rhs_elem_type: Attribute,
        acc_elem_type: Attribute,
        col_major: bool = False,
    ):
        super().__init__(
            ScaledMMAIntrinsicAttr(intrinsic), lhs_elem_type, rhs_elem_type, acc_elem_type,
            IntegerAttr.from_bool(col_major),
        )  # fmt: skip

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    def block_size(self) -> int:
        return 32

    def element_types(self) -> tuple[Attribute, ...]:
        """Per operand: lhs, rhs, lhs scales, rhs scales, acc."""
        return self.lhs_elem_type, self.rhs_elem_type, _f8e8m0(), _f8e8m0(), self.acc_elem_type

    def expected_num_inputs(self) -> int:
        return 4

    def expected_num_outputs(self) -> int:
        return 1

    def verify_indexing_maps(self, maps: Sequence[AffineMap]) -> bool:
        return _scaled_maps_ok(maps)

    def undistributed_tile_types(self) -> list[VectorType] | None:
        m, n, k, kb = scaled_intrinsic_mnkkb(self.intrinsic.data)
        lhs, rhs, scale, _, acc = self.element_types()
        return [
            VectorType(lhs, [m, k, kb]),
            VectorType(rhs, [k, kb, n]),
            VectorType(scale, [m, k]),
            VectorType(scale, [k, n]),
            VectorType(acc, [m, n]),
        ]

    def distributed_tile_types(self) -> list[VectorType] | None:
        types: list[VectorType] = []
        for operand, element_type in enumerate(self.element_types()):
            layout = scaled_subgroup_layout(self.intrinsic.data, operand)
            types.append(VectorType(element_type, [_product(layout.outer) * _product(layout.element)]))
        return types


def data_tiled_swizzle(
    base: TileSwizzle,
    role: int,
    attr: DataTiledMMAAttr | DataTiledScaledMMAAttr,
    operand: int,
    interleave_inputs_k: bool = False,
) -> TileSwizzle:
    """IREE's getSwizzleImpl: expand an intrinsic's swizzle by the unrolled
    intrinsics (CrossIntrinsic) and the subgroups (CrossThread) of `attr`.

    `role` is LHS (also for the LHS scales), RHS (also the RHS scales) or ACC;
    `operand` is the operand's own index, which the interleaving lists name.
    `interleave_inputs_k` interleaves the K unrolling of the inputs whatever
    the lists say (IREE until October 2025).
    """
    swizzle = base

    def interleaved(values: DenseArrayBase | NoneAttr) -> bool:
        return operand in (optional_values(values) or ())

    sm, sn, sk = attr.subgroups_m.data, attr.subgroups_n.data, attr.subgroups_k.data
    im = SwizzleDim.cross_intrinsic(attr.intrinsics_m.data)
    in_ = SwizzleDim.cross_intrinsic(attr.intrinsics_n.data)
    ik = SwizzleDim.cross_intrinsic(attr.intrinsics_k.data)
    interleave_m = interleaved(attr.operands_interleaving_intrinsics_m)
    interleave_n = interleaved(attr.operands_interleaving_intrinsics_n)
    interleave_k = interleaved(attr.operands_interleaving_intrinsics_k) or (interleave_inputs_k and role != ACC)
    if role == LHS:
        # The LHS tile is shared by the subgroups along N.
        _expand_if_non_unit(swizzle, 1, ik, interleave_k)
        _expand_if_non_unit(swizzle, 0, im, interleave_m)
        _expand_if_non_unit(swizzle, 1, SwizzleDim.cross_thread(sk))
        _expand_if_non_unit(swizzle, 0, SwizzleDim.cross_thread(sm, sn))
    elif role == RHS:
        _expand_if_non_unit(swizzle, 1, ik, interleave_k)
        _expand_if_non_unit(swizzle, 0, in_, interleave_n)
        _expand_if_non_unit(swizzle, 1, SwizzleDim.cross_thread(sk))
        _expand_if_non_unit(swizzle, 0, SwizzleDim.cross_thread(sn))
    else:
        # The ACC tile is shared by the subgroups along K.
        subgroups_m, subgroups_n = SwizzleDim.cross_thread(sm), SwizzleDim.cross_thread(sn)
        if sn > 1:
            subgroups_n = SwizzleDim.cross_thread(sn, sk)
        elif sm > 1:
            subgroups_m = SwizzleDim.cross_thread(sm, sk)
        _expand_if_non_unit(swizzle, 1, in_, interleave_n)
        _expand_if_non_unit(swizzle, 0, im, interleave_m)
        _expand_if_non_unit(swizzle, 1, subgroups_n)
        _expand_if_non_unit(swizzle, 0, subgroups_m)
    return swizzle


def _swizzle_tile_types(
    swizzles: Sequence[TileSwizzle], element_types: Sequence[Attribute], distributed: bool
) -> list[VectorType]:
    """DataTiledMMAInterfaceAttr's tile types: the swizzled tile, CrossThread
    dims dropped (size 1) when distributed."""
    keep = (lambda d: d.kind is not SwizzleDimKind.CROSS_THREAD) if distributed else (lambda d: True)
    return [VectorType(t, s.swizzled_shape(keep)) for s, t in zip(swizzles, element_types)]


@irdl_attr_definition(init=False)
class DataTiledScaledMMAAttr(ParametrizedAttribute, InnerTileDescAttr):
    """A scaled MMA intrinsic unrolled and distributed over a data tile.

    The parameters are those of `#iree_gpu.data_tiled_mma_layout` plus the
    element types of `#iree_gpu.scaled_mma_layout`; `unswizzled_operands`
    lists operands whose tiles are only packed and expanded, not transposed.

    ```mlir
    #iree_gpu.data_tiled_scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32,
        lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32,
        subgroups_m = 2, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [2, 3]>
    ```
    """

    name = "iree_gpu.data_tiled_scaled_mma_layout"

    intrinsic: ScaledMMAIntrinsicAttr
    lhs_elem_type: Attribute
    rhs_elem_type: Attribute
    acc_elem_type: Attribute
    intrinsics_m: IntAttr
    subgroups_m: IntAttr
    intrinsics_n: IntAttr
    subgroups_n: IntAttr
    intrinsics_k: IntAttr
    subgroups_k: IntAttr
    operands_interleaving_intrinsics_m: DenseArrayBase | NoneAttr
    operands_interleaving_intrinsics_n: DenseArrayBase | NoneAttr
    operands_interleaving_intrinsics_k: DenseArrayBase | NoneAttr
    unswizzled_operands: DenseArrayBase | NoneAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        StructParam("intrinsic", _parse_scaled_intrinsic, _print_enum),
        StructParam("lhs_elem_type", _parse_type, _print_type),
        StructParam("rhs_elem_type", _parse_type, _print_type),
        StructParam("acc_elem_type", _parse_type, _print_type),
        int_param("intrinsics_m", default=1),
        int_param("subgroups_m", default=1),
        int_param("intrinsics_n", default=1),
        int_param("subgroups_n", default=1),
        int_param("intrinsics_k", default=1),
        int_param("subgroups_k", default=1),
        i64_array_param("operands_interleaving_intrinsics_m", optional=True),
        i64_array_param("operands_interleaving_intrinsics_n", optional=True),
        i64_array_param("operands_interleaving_intrinsics_k", optional=True),
        i64_array_param("unswizzled_operands", optional=True),
    )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    def element_types(self) -> tuple[Attribute, ...]:
        """Per operand: lhs, rhs, lhs scales, rhs scales, acc."""
        return self.lhs_elem_type, self.rhs_elem_type, _f8e8m0(), _f8e8m0(), self.acc_elem_type

    def tile_mnkkb(self) -> tuple[int, int, int, int]:
        """The (M, N, K, Kb) extent of the whole data tile (K counts blocks)."""
        m, n, k, kb = scaled_intrinsic_mnkkb(self.intrinsic.data)
        return (
            m * self.intrinsics_m.data * self.subgroups_m.data,
            n * self.intrinsics_n.data * self.subgroups_n.data,
            k * self.intrinsics_k.data * self.subgroups_k.data,
            kb,
        )

    def is_unswizzled_operand(self, operand: int) -> bool:
        return operand in (optional_values(self.unswizzled_operands) or ())

    def swizzle(self, operand: int) -> TileSwizzle:
        """The layout of operand `operand`'s tile; an unswizzled operand keeps
        the expanded dims in order (identity permutation)."""
        swizzle = self.distribution_swizzle(operand)
        if self.is_unswizzled_operand(operand):
            swizzle.permutation = list(range(len(swizzle.permutation)))
        return swizzle

    def distribution_swizzle(self, operand: int) -> TileSwizzle:
        """The fully swizzled layout, also of unswizzled operands (how threads
        delinearize their id)."""
        layout = scaled_subgroup_layout(self.intrinsic.data, operand)
        base = layout_swizzle(layout, SCALED_MMA_SUBGROUP_SIZE, transposed=operand in (RHS, RHS_SCALE))
        role = {LHS: LHS, LHS_SCALE: LHS, RHS: RHS, RHS_SCALE: RHS}.get(operand, ACC)
        return data_tiled_swizzle(base, role, self, operand)

    def expected_num_inputs(self) -> int:
        return 4

    def expected_num_outputs(self) -> int:
        return 1

    def verify_indexing_maps(self, maps: Sequence[AffineMap]) -> bool:
        return _scaled_contraction_maps_ok(maps)

    def undistributed_tile_types(self) -> list[VectorType] | None:
        return _swizzle_tile_types([self.swizzle(i) for i in range(5)], self.element_types(), distributed=False)

    def distributed_tile_types(self) -> list[VectorType] | None:
        return _swizzle_tile_types([self.swizzle(i) for i in range(5)], self.element_types(), distributed=True)


# ===----------------------------------------------------------------------=== #
# Target description
# ===----------------------------------------------------------------------=== #


class ComputeBitwidthsAttr(BitEnumAttribute[ComputeBitwidths]):
    name = "iree_gpu.compute_bitwidths"
    separator_value = "|"


class StorageBitwidthsAttr(BitEnumAttribute[StorageBitwidths]):
    name = "iree_gpu.storage_bitwidths"
    separator_value = "|"


class SubgroupOpsAttr(BitEnumAttribute[SubgroupOps]):
    name = "iree_gpu.subgroup_ops"
    separator_value = "|"
    none_value = "none"


class DotProductOpsAttr(BitEnumAttribute[DotProductOps]):
    name = "iree_gpu.dotproduct_ops"
    separator_value = "|"
    none_value = "none"


def _flags_param(
    name: str,
    cls: type[BitEnumAttribute[ComputeBitwidths | StorageBitwidths | SubgroupOps | DotProductOps]],
    *,
    default_none: bool = False,
) -> StructParam:
    """A bit-enum parameter, written bare inside the struct: `fp32|fp16`.

    With `default_none` an empty set is the default and is not printed.
    """

    def parse(parser: AttrParser) -> Attribute:
        def parse_flag() -> set[StrEnum]:
            if cls.none_value is not None and parser.parse_optional_keyword(cls.none_value) is not None:
                return set()
            return {parser.parse_str_enum(cls.enum_type)}

        flags = parser.parse_list(parser.Delimiter.NONE, parse_flag, "|")
        return cls(frozenset().union(*flags))  # pyright: ignore[reportArgumentType]

    def print_(printer: Printer, value: Attribute) -> None:
        assert isinstance(value, BitEnumAttribute)
        flags = [flag.value for flag in cls.enum_type if flag in value.data]
        printer.print_string("|".join(flags) if flags else (cls.none_value or ""))

    return StructParam(name, parse, print_, cls(None) if default_none else None)


def _nested_param(name: str, cls: type[ParametrizedAttribute], *, optional: bool = False) -> StructParam:
    """A parameter holding another attribute of this dialect, written `<...>`."""

    def parse(parser: AttrParser) -> Attribute:
        return cls.new(parse_verified(parser, cls, lambda: list(cls.parse_parameters(parser))))

    def print_(printer: Printer, value: Attribute) -> None:
        assert isinstance(value, cls)
        value.print_parameters(printer)

    return StructParam(name, parse, print_, optional=optional)


def _nested_list_param(name: str, cls: type[ParametrizedAttribute]) -> StructParam:
    """A list of attributes of this dialect written without prefix: `[<...>, <...>]`."""
    element = _nested_param(name, cls)

    def parse(parser: AttrParser) -> Attribute:
        return ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: element.parse(parser)))

    def print_(printer: Printer, value: Attribute) -> None:
        assert isinstance(value, ArrayAttr)
        with printer.in_square_brackets():
            printer.print_list(value.data, lambda item: element.print(printer, item))

    return StructParam(name, parse, print_, default=ArrayAttr([]))


@irdl_attr_definition(init=False)
class TargetWgpAttr(ParametrizedAttribute):
    """Features and limits of one workgroup processor (AMD CU, NVIDIA SM).

    Written as the `wgp = <...>` field of `#iree_gpu.target`. Its `mma` list, in
    preference order, is what the GPU encoding resolver picks intrinsics from.
    """

    name = "iree_gpu.target_wgp"

    compute: ComputeBitwidthsAttr
    storage: StorageBitwidthsAttr
    subgroup: SubgroupOpsAttr
    dot: DotProductOpsAttr
    mma: ArrayAttr[MMAAttr]
    scaled_mma: ArrayAttr[ScaledMMAAttr]
    subgroup_size_choices: DenseArrayBase
    max_workgroup_sizes: DenseArrayBase
    max_thread_count_per_workgroup: IntAttr
    max_workgroup_memory_bytes: IntAttr
    max_workgroup_counts: DenseArrayBase
    max_load_instruction_bits: IntAttr | NoneAttr
    simds_per_wgp: IntAttr | NoneAttr
    vgpr_space_bits: IntAttr | NoneAttr
    dma_sizes: DenseArrayBase | NoneAttr
    workgroup_memory_bank_count: IntAttr | NoneAttr
    extra: DictionaryAttr | NoneAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        _flags_param("compute", ComputeBitwidthsAttr),
        _flags_param("storage", StorageBitwidthsAttr),
        _flags_param("subgroup", SubgroupOpsAttr),
        _flags_param("dot", DotProductOpsAttr, default_none=True),
        _nested_list_param("mma", MMAAttr),
        _nested_list_param("scaled_mma", ScaledMMAAttr),
        i32_array_param("subgroup_size_choices"),
        i32_array_param("max_workgroup_sizes"),
        int_param("max_thread_count_per_workgroup"),
        int_param("max_workgroup_memory_bytes"),
        i32_array_param("max_workgroup_counts"),
        int_param("max_load_instruction_bits", optional=True),
        int_param("simds_per_wgp", optional=True),
        int_param("vgpr_space_bits", optional=True),
        i64_array_param("dma_sizes", optional=True),
        int_param("workgroup_memory_bank_count", optional=True),
        attr_param("extra", optional=True),
    )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    def verify(self) -> None:
        if not isinstance(self.extra, NoneAttr | DictionaryAttr):
            raise VerifyException("expected extra to be a dictionary attribute")


@irdl_attr_definition(init=False)
class TargetChipAttr(ParametrizedAttribute):
    """Chip-level features of a GPU product (e.g. its WGP count).

    Written as the optional `chip = <wgp_count = 304>` field of `#iree_gpu.target`.
    """

    name = "iree_gpu.target_chip"

    wgp_count: IntAttr
    sku: StringAttr | NoneAttr
    memory_bandwidth_tbps: Attribute
    perf_tflops: DictionaryAttr | NoneAttr
    extra: DictionaryAttr | NoneAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        int_param("wgp_count"),
        string_param("sku", optional=True),
        attr_param("memory_bandwidth_tbps", optional=True),
        attr_param("perf_tflops", optional=True),
        attr_param("extra", optional=True),
    )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)


@irdl_attr_definition(init=False)
class TargetAttr(ParametrizedAttribute):
    """A full GPU target: architecture, features, WGP and chip descriptions.

    Lives in an executable target's configuration as
    `iree_codegen.target_info = #iree_gpu.target<...>`.

    ```mlir
    #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32, storage = b64|b32,
        subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x4_F32>],
        subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024],
        max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536,
        max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128,
        simds_per_wgp = 4, vgpr_space_bits = 16384>>
    ```
    """

    name = "iree_gpu.target"

    arch: StringAttr
    features: StringAttr
    wgp: TargetWgpAttr
    chip: TargetChipAttr | NoneAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        string_param("arch"),
        string_param("features"),
        _nested_param("wgp", TargetWgpAttr),
        _nested_param("chip", TargetChipAttr, optional=True),
    )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    # Typed views of the fields data-tiling resolvers read.

    @property
    def arch_name(self) -> str:
        return self.arch.data

    @property
    def mma_intrinsics(self) -> list[MMAIntrinsic]:
        """The target's MMA intrinsics, in preference order."""
        return [mma.intrinsic.data for mma in self.wgp.mma.data]

    @property
    def max_load_instruction_bits(self) -> int | None:
        return optional_int(self.wgp.max_load_instruction_bits)

    @property
    def vgpr_space_bits(self) -> int | None:
        return optional_int(self.wgp.vgpr_space_bits)

    @property
    def simds_per_wgp(self) -> int | None:
        return optional_int(self.wgp.simds_per_wgp)

    @property
    def max_workgroup_memory_bytes(self) -> int:
        return self.wgp.max_workgroup_memory_bytes.data

    @property
    def subgroup_size_choices(self) -> list[int]:
        return [int(v) for v in self.wgp.subgroup_size_choices.get_values()]

    @property
    def preferred_subgroup_size(self) -> int:
        """The smallest supported subgroup size, as IREE prefers."""
        return min(self.subgroup_size_choices)

    @property
    def wgp_count(self) -> int | None:
        return None if isinstance(self.chip, NoneAttr) else self.chip.wgp_count.data

    def is_amd(self) -> bool:
        return self.arch.data.startswith(("gfx", "rdna"))


# ===----------------------------------------------------------------------=== #
# Encoding resolvers
# ===----------------------------------------------------------------------=== #


@irdl_attr_definition(init=False)
class GPUEncodingResolverAttr(EncodingResolverAttr):
    """The GPU data-tiling layout resolver.

    With no configuration it names the resolver in an executable target; with
    `configuration = {encoding_info = {...}}` it is a resolved layout (inner
    tiles plus the swizzle that matches the chosen intrinsic).

    ```mlir
    #iree_gpu.gpu_encoding_resolver<>
    #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1],
        innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {...}}}>
    ```
    """

    name = "iree_gpu.gpu_encoding_resolver"



@irdl_attr_definition(init=False)
class GPUPaddingResolverAttr(ParametrizedAttribute):
    """The GPU resolver that pads rows to avoid cache-set conflicts.

    ```mlir
    #iree_gpu.gpu_padding_resolver<cache_line_bytes = 128, cache_sets = 4>
    ```
    """

    name = "iree_gpu.gpu_padding_resolver"

    cache_line_bytes: IntAttr | NoneAttr
    cache_sets: IntAttr | NoneAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        int_param("cache_line_bytes", optional=True),
        int_param("cache_sets", optional=True),
    )

    def __init__(self, cache_line_bytes: int | None = None, cache_sets: int | None = None):
        super().__init__(*(NoneAttr() if v is None else IntAttr(v) for v in (cache_line_bytes, cache_sets)))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    def verify(self) -> None:
        for name, value in (("cache_line_bytes", self.cache_line_bytes), ("cache_sets", self.cache_sets)):
            if isinstance(value, IntAttr) and not 0 <= value.data < 2**32:
                raise VerifyException(f"expected {name} to be a 32-bit unsigned integer")


# ===----------------------------------------------------------------------=== #
# Lowering configuration
# ===----------------------------------------------------------------------=== #


class LoweringPipelineAttr(EnumAttribute[LoweringPipeline], PipelineAttr):
    """The LLVMGPU lowering pipeline of a dispatch: `#iree_gpu.pipeline<TileAndFuse>`."""

    name = "iree_gpu.pipeline"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> LoweringPipeline:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(LoweringPipeline)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


class ReorderWorkgroupsStrategyAttr(EnumAttribute[ReorderWorkgroupsStrategy]):
    """`#iree_gpu.reorder_workgroups_strategy<Transpose>`; `<Transpose>` when nested."""

    name = "iree_gpu.reorder_workgroups_strategy"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ReorderWorkgroupsStrategy:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(ReorderWorkgroupsStrategy)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


def _parse_reorder_strategy(parser: AttrParser) -> Attribute:
    return ReorderWorkgroupsStrategyAttr(ReorderWorkgroupsStrategyAttr.parse_parameter(parser))


def _print_reorder_strategy(printer: Printer, value: Attribute) -> None:
    assert isinstance(value, ReorderWorkgroupsStrategyAttr)
    value.print_parameter(printer)


@irdl_attr_definition(init=False)
class GPUPipelineOptionsAttr(ParametrizedAttribute):
    """Options of the GPU lowering pipelines, kept in a translation_info.

    ```mlir
    #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>
    ```
    """

    name = "iree_gpu.pipeline_options"

    prefetch_num_stages: IntAttr | NoneAttr
    no_reduce_shared_memory_bank_conflicts: IntegerAttr | NoneAttr
    use_igemm_convolution: IntegerAttr | NoneAttr
    reorder_workgroups_strategy: ReorderWorkgroupsStrategyAttr | NoneAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        int_param("prefetch_num_stages", optional=True),
        bool_param("no_reduce_shared_memory_bank_conflicts", optional=True),
        bool_param("use_igemm_convolution", optional=True),
        StructParam("reorder_workgroups_strategy", _parse_reorder_strategy, _print_reorder_strategy, optional=True),
    )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    @staticmethod
    def dict_key() -> str:
        """The key it is stored under in a translation_info configuration."""
        return "gpu_pipeline_options"


_TILING_LEVELS = ("workgroup", "reduction", "partial_reduction", "serial", "thread", "subgroup", "lane")


@irdl_attr_definition(init=False)
class LoweringConfigAttr(ParametrizedAttribute):
    """How one operation is tiled for the GPU: a dictionary of tiling levels.

    ```mlir
    #iree_gpu.lowering_config<{promote_operands = [0, 1], reduction = [0, 0, 1], workgroup = [1, 1, 0]}>
    ```
    """

    name = "iree_gpu.lowering_config"

    attributes: DictionaryAttr

    def __init__(self, attributes: DictionaryAttr | dict[str, Attribute]):
        super().__init__(attributes if isinstance(attributes, DictionaryAttr) else DictionaryAttr(attributes))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse() -> list[Attribute]:
            with parser.in_angle_brackets():
                pos = parser.pos
                attributes = parser.parse_attribute()
                if not isinstance(attributes, DictionaryAttr):
                    parser.raise_error("expected a dictionary attribute", pos, parser.pos)
            return [attributes]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.attributes)

    def tile_sizes(self, level: str) -> list[int] | None:
        """The tile sizes of a tiling level (`workgroup`, `reduction`, ...), if set."""
        assert level in _TILING_LEVELS, level
        return _int_array(self.attributes.data.get(level))

    @property
    def promoted_operands(self) -> list[int] | None:
        return _int_array(self.attributes.data.get("promote_operands"))

    def verify(self) -> None:
        promotion_types = self.attributes.data.get("promotion_types")
        if promotion_types is None:
            return
        if not isinstance(promotion_types, ArrayAttr):
            raise VerifyException("promotion_types must be an array")
        promoted = self.attributes.data.get("promote_operands")
        if not isinstance(promoted, ArrayAttr):
            raise VerifyException("promotion_types requires promote_operands to be specified")
        if _int_array(promoted) is None:
            raise VerifyException("promote_operands must be an array of integers")
        if len(promotion_types.data) != len(promoted.data):
            raise VerifyException("promote_operands and promotion_types must have the same length")
        if not all(isinstance(t, PromotionAttr) for t in promotion_types.data):
            raise VerifyException("promotion_types elements must implement IREE::GPU::PromotionAttr")


def _int_array(attr: Attribute | None) -> list[int] | None:
    if not isinstance(attr, ArrayAttr):
        return None
    values = [a.value.data for a in attr.data if isinstance(a, IntegerAttr)]
    return values if len(values) == len(attr.data) else None


class PromotionAttr(ABC):
    """How an operand is promoted (copied) before use (`PromotionAttr` interface)."""


@irdl_attr_definition
class DerivedThreadConfigAttr(ParametrizedAttribute, PromotionAttr):
    """Lowering config whose thread tiling is derived after earlier tiling.

    ```mlir
    %0 = linalg.copy {lowering_config = #iree_gpu.derived_thread_config} ins(...) outs(...) -> ...
    ```
    """

    name = "iree_gpu.derived_thread_config"


@irdl_attr_definition
class UseGlobalLoadDMAAttr(ParametrizedAttribute, PromotionAttr):
    """Promote with global-load DMA: `#iree_gpu.use_global_load_dma`."""

    name = "iree_gpu.use_global_load_dma"


@irdl_attr_definition(init=False)
class PromoteWithCacheSwizzleAttr(ParametrizedAttribute, PromotionAttr):
    """Promote with a cache swizzle: `#iree_gpu.promote_with_cache_swizzle<#iree_gpu.derived_thread_config>`."""

    name = "iree_gpu.promote_with_cache_swizzle"

    copy_config: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [parser.parse_attribute()]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.copy_config)


@irdl_attr_definition(init=False)
class SwizzleOperandAttr(ParametrizedAttribute, PromotionAttr):
    """Promote into a swizzled allocation.

    ```mlir
    #iree_gpu.swizzle_operand<copy_config = #iree_gpu.derived_thread_config,
                              swizzle = #iree_codegen.xor_shuffle<256, 32>>
    ```
    """

    name = "iree_gpu.swizzle_operand"

    copy_config: Attribute
    swizzle: Attribute

    STRUCT: ClassVar[tuple[StructParam, ...]] = (attr_param("copy_config"), attr_param("swizzle"))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)


@irdl_attr_definition(init=False)
class ConditionalTransposeAttr(ParametrizedAttribute):
    """Reorder workgroups by a conditional transpose over XCDs and CUs.

    ```mlir
    #iree_gpu.conditional_transpose<8, 38>
    ```
    """

    name = "iree_gpu.conditional_transpose"

    num_xcds: IntAttr
    num_cus: IntAttr

    def verify(self) -> None:
        if self.num_xcds.data == 0 or self.num_cus.data == 0:
            raise VerifyException("conditional_transpose must have non-zeros parameters")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse() -> list[Attribute]:
            with parser.in_angle_brackets():
                xcds = parser.parse_integer(allow_boolean=False)
                parser.parse_punctuation(",")
                cus = parser.parse_integer(allow_boolean=False)
            return [IntAttr(xcds), IntAttr(cus)]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.num_xcds.data}, {self.num_cus.data}>")


@irdl_attr_definition(init=False)
class LaneConstantAttr(ParametrizedAttribute):
    """An index hint: the value is the same across each group of lanes.

    ```mlir
    #iree_gpu.lane_constant<16>
    ```
    """

    name = "iree_gpu.lane_constant"

    group_size: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [IntAttr(parser.parse_integer(allow_boolean=False))]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.group_size.data}>")


@irdl_attr_definition(init=False)
class LaneIncrementAttr(ParametrizedAttribute):
    """An index hint: the value increments by `step` across each group of lanes.

    ```mlir
    #iree_gpu.lane_increment<64, step = 2, aligned>
    ```

    `step = 1` and `aligned = false` are left out.
    """

    name = "iree_gpu.lane_increment"

    group_size: IntAttr
    step: IntAttr
    aligned: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        group_size = parser.parse_integer(allow_boolean=False)
        step, aligned = None, None
        while parser.parse_optional_punctuation(",") is not None:
            if parser.parse_optional_keyword("step") is not None:
                if step is not None:
                    parser.raise_error("'step' specified more than once")
                parser.parse_punctuation("=")
                step = parser.parse_integer(allow_boolean=False)
            elif parser.parse_optional_keyword("aligned") is not None:
                if aligned is not None:
                    parser.raise_error("'aligned' specified more than once")
                aligned = True
            else:
                parser.raise_error("expected 'step' or 'aligned'")
        parser.parse_punctuation(">")
        return [IntAttr(group_size), IntAttr(1 if step is None else step), IntAttr(int(bool(aligned)))]

    def print_parameters(self, printer: Printer) -> None:
        text = f"<{self.group_size.data}"
        if self.step.data != 1:
            text += f", step = {self.step.data}"
        if self.aligned.data:
            text += ", aligned"
        printer.print_string(text + ">")


class SPIRVLoweringPipeline(StrEnum):
    BASE_LOWERING = "BaseLowering"
    BASE_DISTRIBUTE = "BaseDistribute"
    BASE_VECTORIZE = "BaseVectorize"
    SUBGROUP_REDUCE = "SubgroupReduce"
    MATMUL_PROMOTE_VECTORIZE = "MatmulPromoteVectorize"
    COOPERATIVE_MATRIX_VECTORIZE = "CooperativeMatrixVectorize"
    WINOGRAD_VECTORIZE = "WinogradVectorize"


@irdl_attr_definition
class SPIRVPipelineAttr(EnumAttribute[SPIRVLoweringPipeline], PipelineAttr):
    """A SPIR-V lowering pipeline: `#iree_gpu.spirv_pipeline<MatmulPromoteVectorize>`."""

    name = "iree_gpu.spirv_pipeline"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> SPIRVLoweringPipeline:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(SPIRVLoweringPipeline)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


class VirtualMMAIntrinsic(StrEnum):
    """MMA intrinsics IREE composes from native ones (unrolled K, interleaved
    reads, the sparse trick of the VDMFMA ones)."""

    VMFMA_F32_16x16x32_F16 = "VMFMA_F32_16x16x32_F16"
    VMFMA_F32_32x32x16_F16 = "VMFMA_F32_32x32x16_F16"
    VMFMA_F32_16x16x32_F8E4M3FNUZ = "VMFMA_F32_16x16x32_F8E4M3FNUZ"
    VMFMA_F32_32x32x16_F8E4M3FNUZ = "VMFMA_F32_32x32x16_F8E4M3FNUZ"
    VDMFMA_F32_8x16x64x2_F16 = "VDMFMA_F32_8x16x64x2_F16"
    VDMFMA_F32_8x16x64x2_BF16 = "VDMFMA_F32_8x16x64x2_BF16"
    VDMFMA_I32_8x16x128x2_I8 = "VDMFMA_I32_8x16x128x2_I8"
    VDMFMA_F32_8x16x128x2_F8E5M2FNUZ = "VDMFMA_F32_8x16x128x2_F8E5M2FNUZ"
    VDMFMA_F32_8x16x128x2_F8E5M2FNUZ_F8E4M3FNUZ = "VDMFMA_F32_8x16x128x2_F8E5M2FNUZ_F8E4M3FNUZ"
    VDMFMA_F32_8x16x128x2_F8E4M3FNUZ_F8E5M2FNUZ = "VDMFMA_F32_8x16x128x2_F8E4M3FNUZ_F8E5M2FNUZ"
    VDMFMA_F32_8x16x128x2_F8E4M3FNUZ = "VDMFMA_F32_8x16x128x2_F8E4M3FNUZ"
    VDMFMA_F32_8x16x64x1_F16 = "VDMFMA_F32_8x16x64x1_F16"
    VDMFMA_F32_8x16x64x1_BF16 = "VDMFMA_F32_8x16x64x1_BF16"
    VDMFMA_I32_8x16x128x1_I8 = "VDMFMA_I32_8x16x128x1_I8"
    VDMFMA_F32_8x16x128x1_F8E5M2 = "VDMFMA_F32_8x16x128x1_F8E5M2"
    VDMFMA_F32_8x16x128x1_F8E5M2_F8E4M3FN = "VDMFMA_F32_8x16x128x1_F8E5M2_F8E4M3FN"
    VDMFMA_F32_8x16x128x1_F8E4M3FN_F8E5M2 = "VDMFMA_F32_8x16x128x1_F8E4M3FN_F8E5M2"
    VDMFMA_F32_8x16x128x1_F8E4M3FN = "VDMFMA_F32_8x16x128x1_F8E4M3FN"


class VirtualMMAIntrinsicAttr(EnumAttribute[VirtualMMAIntrinsic]):
    """`#iree_gpu.virtual_mma_intrinsic<VMFMA_F32_16x16x32_F16>`."""

    name = "iree_gpu.virtual_mma_intrinsic"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> VirtualMMAIntrinsic:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(VirtualMMAIntrinsic)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


@irdl_attr_definition(init=False)
class VirtualMMAAttr(ParametrizedAttribute):
    """A virtual MMA intrinsic, written like `#iree_gpu.mma_layout`.

    ```mlir
    #iree_gpu.virtual_mma_layout<VMFMA_F32_16x16x32_F16, col_major = true>
    ```

    mini-iree parses and prints it; it does not describe its tiles, so it is
    not an `inner_tiled` kind here.
    """

    name = "iree_gpu.virtual_mma_layout"

    intrinsic: VirtualMMAIntrinsicAttr
    col_major: IntegerAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            intrinsic = VirtualMMAIntrinsicAttr(parser.parse_str_enum(VirtualMMAIntrinsic))
            col_major = False
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("col_major")
                parser.parse_punctuation("=")
                col_major = parser.parse_boolean()
        return [intrinsic, IntegerAttr.from_bool(col_major)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.intrinsic.data.value)
            if self.col_major.value.data:
                printer.print_string(", col_major = true")


# ===----------------------------------------------------------------------=== #
# Operations
# ===----------------------------------------------------------------------=== #


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Yields values out of an `iree_gpu` region.

    ```mlir
    iree_gpu.yield %v : tensor<4x16xf32>
    ```
    """

    name = "iree_gpu.yield"

    values = var_operand_def()

    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(BarrierRegionOp, SubgroupScanOp), Pure()))

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


@irdl_op_definition
class BarrierRegionOp(IRDLOperation):
    """Synchronizes the workers on the operands and results of a region.

    Arises when producer and consumer `scf.forall` loops over the same workers
    are fused: the region reads shared inputs once all workers wrote them, and
    its results are visible to all workers after it.

    ```mlir
    %r = iree_gpu.barrier_region ins(%alloc : tensor<4x128xf32>) {
    ^bb0(%shared: tensor<4x128xf32>):
      ...
      iree_gpu.yield %slice : tensor<4x16xf32>
    } : tensor<4x16xf32>
    ```
    """

    name = "iree_gpu.barrier_region"

    inputs = var_operand_def()
    res = var_result_def()
    region = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), Pure())

    assembly_format = "(`ins` `(` $inputs^ `:` type($inputs) `)`)? $region attr-dict `:` type($res)"

    def __init__(self, inputs: Sequence[SSAValue], result_types: Sequence[Attribute], region: Region):
        super().__init__(operands=[inputs], result_types=[result_types], regions=[region])

    def verify_(self) -> None:
        block = self.region.block
        if len(block.args) != len(self.inputs):
            raise VerifyException("expected the block argument count to match operand count")
        if any(arg.type != operand.type for arg, operand in zip(block.args, self.inputs)):
            raise VerifyException("expected block argument types to match operand types")
        yield_op = block.last_op
        if not isinstance(yield_op, YieldOp):
            return
        if len(yield_op.values) != len(self.res):
            raise VerifyException("expected body to yield same number of values as results")
        if any(value.type != result.type for value, result in zip(yield_op.values, self.res)):
            raise VerifyException("expected yielded value types to match result types")



@irdl_op_definition
class SubgroupScanOp(IRDLOperation):
    """A prefix scan across the lanes of a subgroup (in clusters of
    `cluster_size` lanes `cluster_stride` apart), with the total.

    ```mlir
    %scan, %total = iree_gpu.subgroup_scan(%x, identity = %zero : f32) cluster(size = 4, stride = 2) {
    ^bb0(%lhs: f32, %rhs: f32):
      %add = arith.addf %lhs, %rhs : f32
      iree_gpu.yield %add : f32
    } : f32
    ```

    An `inclusive` scan needs no identity; an exclusive one does.
    """

    name = "iree_gpu.subgroup_scan"

    value = operand_def()
    identity = opt_operand_def()
    result = result_def()
    total = result_def()
    inclusive = opt_prop_def(UnitAttr)
    cluster_size = opt_prop_def(IntegerAttr)
    cluster_stride = opt_prop_def(IntegerAttr)
    combiner = region_def("single_block")

    @classmethod
    def parse(cls, parser: Parser) -> SubgroupScanOp:
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("inclusive") is not None:
            properties["inclusive"] = UnitAttr()
        parser.parse_punctuation("(")
        value = parser.parse_unresolved_operand()
        identity = None
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("identity")
            parser.parse_punctuation("=")
            identity = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            identity = parser.resolve_operand(identity, parser.parse_type())
        parser.parse_punctuation(")")
        if parser.parse_optional_keyword("cluster") is not None:
            parser.parse_punctuation("(")
            parser.parse_keyword("size")
            parser.parse_punctuation("=")
            properties["cluster_size"] = IntegerAttr(parser.parse_integer(allow_boolean=False), i32)
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("stride")
                parser.parse_punctuation("=")
                properties["cluster_stride"] = IntegerAttr(parser.parse_integer(allow_boolean=False), i32)
            parser.parse_punctuation(")")
        combiner = parser.parse_region()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        operands = [parser.resolve_operand(value, value_type)] + ([identity] if identity is not None else [])
        return cls.create(
            operands=operands,
            result_types=[value_type, value_type],
            properties=properties,
            attributes=attributes,
            regions=[combiner],
        )

    def print(self, printer: Printer) -> None:
        if self.inclusive is not None:
            printer.print_string(" inclusive")
        printer.print_string("(")
        printer.print_operand(self.value)
        if self.identity is not None:
            printer.print_string(", identity = ")
            printer.print_operand(self.identity)
            printer.print_string(" : ")
            printer.print_attribute(self.identity.type)
        printer.print_string(")")
        if self.cluster_size is not None:
            printer.print_string(f" cluster(size = {self.cluster_size.value.data}")
            if self.cluster_stride is not None and self.cluster_stride.value.data != 1:
                printer.print_string(f", stride = {self.cluster_stride.value.data}")
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.combiner)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)

    def verify_(self) -> None:
        def power_of_two(v: int) -> bool:
            return v > 0 and v & (v - 1) == 0

        if self.cluster_size is not None and not power_of_two(self.cluster_size.value.data):
            raise VerifyException("cluster_size must be a power of 2")
        stride = 1 if self.cluster_stride is None else self.cluster_stride.value.data
        if not power_of_two(stride):
            raise VerifyException("cluster_stride must be a power of 2")
        if self.inclusive is None and self.identity is None:
            raise VerifyException("exclusive scan requires an identity operand")
        if self.identity is not None and self.identity.type != self.value.type:
            raise VerifyException("identity type must match value type")
        block = self.combiner.block
        if len(block.args) != 2:
            raise VerifyException("combiner region must have exactly 2 arguments")
        if any(arg.type != self.value.type for arg in block.args):
            raise VerifyException("combiner argument type must match value type")
        terminator = block.last_op
        if not isinstance(terminator, YieldOp) or [v.type for v in terminator.values] != [self.value.type]:
            raise VerifyException("combiner must yield one value of the value type")

@irdl_op_definition
class ValueBarrierOp(IRDLOperation):
    """Synchronizes the workers on tensor or vector values: its results are
    its inputs, once every worker has produced them.

    ```mlir
    %out:2 = iree_gpu.value_barrier %a, %b : vector<8xf16>, vector<8xf16>
    ```
    """

    name = "iree_gpu.value_barrier"

    inputs = var_operand_def(TensorType | VectorType)
    results_ = var_result_def(TensorType | VectorType)

    traits = traits_def(Pure())

    def __init__(self, inputs: Sequence[SSAValue]):
        super().__init__(operands=[inputs], result_types=[[v.type for v in inputs]])

    @classmethod
    def parse(cls, parser: Parser) -> ValueBarrierOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        values = parser.resolve_operands(operands, types, pos)
        op = cls(values)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(self.inputs.types, printer.print_attribute)

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("Atleast one input required")
        if [r.type for r in self.results_] != [v.type for v in self.inputs]:
            raise VerifyException("all of {inputs, results} have same type")
        tensors = isinstance(self.inputs[0].type, TensorType)
        if any(isinstance(v.type, TensorType) != tensors for v in self.inputs):
            raise VerifyException("All inputs should be either of tensor or vector type")


def _parallel_combining(destination: str):
    # Imported when first used: the scf dialect need not load with iree_gpu.
    from mini_iree.dialects.scf import ParallelCombiningOpInterface

    return ParallelCombiningOpInterface((destination,))


@irdl_op_definition
class CoalescedGatherDMAOp(IRDLOperation):
    """A gather (or, without indices, a copy) whose stores the lanes of a
    subgroup coalesce: `lane` places each lane's share in `init`.

    ```mlir
    iree_gpu.coalesced_gather_dma %source[%idx0] into %out lane(%lane)
        : tensor<4096xf32>, vector<64xi32>, tensor<64xf32>, index -> tensor<64xf32>
    ```

    Inside `scf.forall.in_parallel` the tensor form updates the shared output.
    """

    name = "iree_gpu.coalesced_gather_dma"

    source = operand_def(TensorType | MemRefType)
    indices = var_operand_def(TensorType | VectorType | MemRefType)
    init = operand_def(TensorType | MemRefType)
    lane = operand_def(IndexType)
    result = opt_result_def(TensorType | MemRefType)

    in_bounds = opt_prop_def(ArrayAttr)

    # The tensor form inside `scf.forall.in_parallel` writes the shared output `init`.
    traits = lazy_traits_def(lambda: (_parallel_combining("init"),))

    @classmethod
    def parse(cls, parser: Parser) -> CoalescedGatherDMAOp:
        source = parser.parse_unresolved_operand()
        indices = []
        if parser.parse_optional_punctuation("[") is not None:
            indices = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation("]")
        parser.parse_keyword("into")
        init = parser.parse_unresolved_operand()
        parser.parse_keyword("lane")
        parser.parse_punctuation("(")
        lane = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("in_bounds") is not None:
            properties["in_bounds"] = parser.parse_attribute()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        result_types = [parser.parse_type()] if parser.parse_optional_punctuation("->") is not None else []
        operands = parser.resolve_operands([source, *indices, init, lane], types, pos)
        return cls.create(operands=operands, result_types=result_types, properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        if self.indices:
            printer.print_string("[")
            printer.print_list(self.indices, printer.print_operand)
            printer.print_string("]")
        printer.print_string(" into ")
        printer.print_operand(self.init)
        printer.print_string(" lane(")
        printer.print_operand(self.lane)
        printer.print_string(")")
        if self.in_bounds is not None:
            printer.print_string(" in_bounds ")
            printer.print_attribute(self.in_bounds)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([o.type for o in self.operands], printer.print_attribute)
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        init_type, source_type = self.init.type, self.source.type
        tensor = isinstance(init_type, TensorType)
        if tensor and not isinstance(source_type, TensorType):
            raise VerifyException("source must be tensor when init is tensor")
        if not tensor and not isinstance(source_type, MemRefType):
            raise VerifyException("source must be memref when init is memref")
        init_shape, source_shape = init_type.get_shape(), source_type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        indices = list(self.indices)
        if len(indices) > len(init_shape):
            raise VerifyException(
                f"number of indices ({len(indices)}) cannot exceed destination rank ({len(init_shape)})"
            )
        if len(indices) > len(source_shape):
            raise VerifyException(f"number of indices ({len(indices)}) cannot exceed source rank ({len(source_shape)})")
        for i, index in enumerate(indices):
            if DYNAMIC_INDEX in index.type.get_shape():
                raise VerifyException(f"expected index {i} to have static shape")
        if indices:
            batch = None
            for i, index in enumerate(indices):
                shape = index.type.get_shape()
                if len(shape) != 1:
                    raise VerifyException(f"expected index {i} to be a 1-D tensor or vector")
                batch = shape[0] if batch is None else batch
                if shape[0] != batch:
                    raise VerifyException(
                        f"expected all index vectors to have the same length; index {i} has length {shape[0]} "
                        f"but expected {batch}"
                    )
            if init_shape and batch != init_shape[0]:
                raise VerifyException(
                    f"expected batch size (length of index vectors: {batch}) to match first destination "
                    f"dimension ({init_shape[0]})"
                )
        in_bounds = self.in_bounds.data if self.in_bounds is not None else ()
        for dim, size in enumerate(init_shape):
            if dim >= len(source_shape):
                raise VerifyException(
                    f"expected source to have at least {dim + 1} dimensions when destination has rank {len(init_shape)}"
                )
            if dim < len(indices):
                continue
            if dim < len(in_bounds) and isinstance(in_bounds[dim], IntegerAttr) and not in_bounds[dim].value.data:
                continue  # reads past the source's end are allowed (and read zero)
            if source_shape[dim] != size:
                raise VerifyException(
                    f"expected unindexed dimension {dim} to have same length in source ({source_shape[dim]}) "
                    f"and destination ({size})"
                )
        if self.in_bounds is not None and len(in_bounds) != len(init_shape):
            raise VerifyException(f"in_bounds array size ({len(in_bounds)}) must match init rank ({len(init_shape)})")


@irdl_op_definition
class AsyncDMAOp(IRDLOperation):
    """Moves a tile from one memory to another without going through registers.

    ```mlir
    %r = iree_gpu.async_dma %src[%i, %j] to %dst[%c0], vector<64xf16>
        permutation_map affine_map<(d0, d1) -> (d1)> in_bounds [true]
        : tensor<20x256xf16>, tensor<128xf16, #gpu.address_space<workgroup>>
        -> tensor<128xf16, #gpu.address_space<workgroup>>
    ```

    A source index is an `index` (a contiguous read) or a `vector<Nxindex>` (a
    gather); the source index types are printed, in brackets after the source
    type, only when one is a vector. The tensor form returns the new `dest`;
    the memref form writes it.
    """

    name = "iree_gpu.async_dma"

    source = operand_def(TensorType | MemRefType)
    source_indices = var_operand_def()
    dest = operand_def(TensorType | MemRefType)
    dest_indices = var_operand_def(IndexType)
    result = opt_result_def(TensorType | MemRefType)

    transfer_type = prop_def(Attribute)
    permutation_map = opt_prop_def(AffineMapAttr)
    in_bounds = opt_prop_def(ArrayAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> AsyncDMAOp:
        source = parser.parse_unresolved_operand()
        source_indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        parser.parse_keyword("to")
        dest = parser.parse_unresolved_operand()
        dest_indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        parser.parse_punctuation(",")
        properties: dict[str, Attribute] = {"transfer_type": parser.parse_type()}
        while True:  # oilist: the clauses in any order, each at most once
            if "permutation_map" not in properties and parser.parse_optional_keyword("permutation_map") is not None:
                properties["permutation_map"] = parser.parse_attribute()
            elif "in_bounds" not in properties and parser.parse_optional_keyword("in_bounds") is not None:
                properties["in_bounds"] = parser.parse_attribute()
            else:
                break
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        source_type = parser.parse_type()
        if parser.parse_optional_punctuation("[") is not None:
            index_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation("]")
        else:
            index_types = [IndexType()] * len(source_indices)
        parser.parse_punctuation(",")
        dest_type = parser.parse_type()
        result_types = [parser.parse_type()] if parser.parse_optional_punctuation("->") is not None else []
        (source_value,) = parser.resolve_operands([source], [source_type], pos)
        index_values = parser.resolve_operands(source_indices, index_types, pos)
        (dest_value,) = parser.resolve_operands([dest], [dest_type], pos)
        dest_index_values = parser.resolve_operands(dest_indices, [IndexType()] * len(dest_indices), pos)
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [1, len(index_values), 1, len(dest_index_values)]
        )
        return cls.create(
            operands=[source_value, *index_values, dest_value, *dest_index_values],
            result_types=result_types,
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_list(self.source_indices, printer.print_operand)
        printer.print_string("] to ")
        printer.print_operand(self.dest)
        printer.print_string("[")
        printer.print_list(self.dest_indices, printer.print_operand)
        printer.print_string("], ")
        printer.print_attribute(self.transfer_type)
        if self.permutation_map is not None:
            printer.print_string(" permutation_map ")
            printer.print_attribute(self.permutation_map)
        if self.in_bounds is not None:
            printer.print_string(" in_bounds ")
            printer.print_attribute(self.in_bounds)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        if not all(isinstance(v.type, IndexType) for v in self.source_indices):
            printer.print_string(" [")
            printer.print_list(self.source_indices.types, printer.print_attribute)
            printer.print_string("]")
        printer.print_string(", ")
        printer.print_attribute(self.dest.type)
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        source_type, dest_type = self.source.type, self.dest.type
        assert isinstance(source_type, TensorType | MemRefType) and isinstance(dest_type, TensorType | MemRefType)
        source_rank, dest_rank = len(source_type.get_shape()), len(dest_type.get_shape())
        if len(self.source_indices) != source_rank:
            raise VerifyException(
                f"expected {source_rank} source indices (source rank), got {len(self.source_indices)}"
            )
        if len(self.dest_indices) != dest_rank:
            raise VerifyException(f"expected {dest_rank} dest indices (dest rank), got {len(self.dest_indices)}")
        for i, index in enumerate(self.source_indices):
            t = index.type
            if isinstance(t, IndexType):
                continue
            if not isinstance(t, VectorType) or len(t.get_shape()) != 1 or not isinstance(t.element_type, IndexType):
                raise VerifyException(f"source index #{i} must be index or vector<Nxindex>, got {t}")
        if isinstance(dest_type, TensorType):
            if self.result is None:
                raise VerifyException("expected result for tensor operand")
            if self.result.type != dest_type:
                raise VerifyException("result type must match dest type")
        elif self.result is not None:
            raise VerifyException("unexpected result for memref operand")
        element_type = source_type.get_element_type()
        if element_type != dest_type.get_element_type():
            raise VerifyException("expected source and dest to have the same element type")
        transfer = self.transfer_type
        if not isinstance(transfer, VectorType):
            raise VerifyException("transfer_type must be a VectorType")
        if transfer.element_type != element_type:
            raise VerifyException(
                f"transfer_type element type ({transfer.element_type}) must match source/dest element type "
                f"({element_type})"
            )
        transfer_shape = transfer.get_shape()
        if len(transfer_shape) != dest_rank:
            raise VerifyException(f"transfer_type rank ({len(transfer_shape)}) must match dest rank ({dest_rank})")
        if self.in_bounds is not None and len(self.in_bounds.data) != dest_rank:
            raise VerifyException(
                f"in_bounds array size ({len(self.in_bounds.data)}) must match dest rank ({dest_rank})"
            )
        if self.permutation_map is not None:
            map_ = self.permutation_map.data
            if map_.num_dims != source_rank:
                raise VerifyException(
                    f"permutation_map num dims ({map_.num_dims}) must match source rank ({source_rank})"
                )
            if len(map_.results) != dest_rank:
                raise VerifyException(
                    f"permutation_map num results ({len(map_.results)}) must match dest rank ({dest_rank})"
                )
            if not map_.is_projected_permutation():
                raise VerifyException("permutation_map must be a projected permutation")
            positions = [e.position if isinstance(e, AffineDimExpr) else None for e in map_.results]
        elif source_rank != dest_rank:
            raise VerifyException(
                f"permutation_map is required when source rank ({source_rank}) differs from dest rank ({dest_rank})"
            )
        else:
            positions = list(range(source_rank))
        for i, index in enumerate(self.source_indices):
            if not isinstance(index.type, VectorType):
                continue
            if i not in positions:
                raise VerifyException(f"source dimension {i} has a gather index but is not mapped by permutation_map")
            dest_dim = positions.index(i)
            expected, actual = transfer_shape[dest_dim], index.type.get_shape()[0]
            if actual != expected:
                raise VerifyException(
                    f"gather index size ({actual}) for source dimension {i} must match transfer_type size "
                    f"({expected}) in dest dimension {dest_dim}"
                )

IREEGPU = Dialect(
    "iree_gpu",
    [AsyncDMAOp, BarrierRegionOp, CoalescedGatherDMAOp, SubgroupScanOp, ValueBarrierOp, YieldOp],
    [
        ComputeBitwidthsAttr,
        ConditionalTransposeAttr,
        DataTiledMMAAttr,
        DataTiledScaledMMAAttr,
        DerivedThreadConfigAttr,
        DotProductOpsAttr,
        LaneConstantAttr,
        LaneIncrementAttr,
        PromoteWithCacheSwizzleAttr,
        SPIRVPipelineAttr,
        SwizzleOperandAttr,
        UseGlobalLoadDMAAttr,
        VirtualMMAAttr,
        VirtualMMAIntrinsicAttr,
        GPUEncodingResolverAttr,
        GPUPaddingResolverAttr,
        GPUPipelineOptionsAttr,
        LoweringConfigAttr,
        LoweringPipelineAttr,
        MMAAttr,
        MMAIntrinsicAttr,
        MMASemanticsAttr,
        ReorderWorkgroupsStrategyAttr,
        ScaledMMAAttr,
        ScaledMMAIntrinsicAttr,
        StorageBitwidthsAttr,
        SubgroupOpsAttr,
        TargetAttr,
        TargetChipAttr,
        TargetWgpAttr,
    ],
)
