"""The `iree_cpu` dialect: the CPU and VMVX data-tiling layout resolvers, the
CPU `inner_tiled` kind and the CPU lowering configuration.

- `#iree_cpu.data_tiled_mma_layout<intrinsic = MMA_X86_AVX512_1x16x1_F32_F32,
  intrinsics_m = 16>` names a CPU MMA intrinsic unrolled over a data tile; with
  `#iree_cpu.mma_semantics<>` it is the `kind` of CPU `iree_codegen.inner_tiled`
  ops (IREE's `enable_inner_tiled` path). Its tiles are row-major (LHS MxK,
  RHS NxK, ACC MxN) except SVE's scalable ones and the block-interleaved
  accumulator of the 16x16x2 VNNI intrinsic.
- `#iree_cpu.lowering_config<...>`, `#iree_cpu.pipeline<...>`,
  `#iree_cpu.inner_tile_alignments<...>` and `#iree_cpu.ukernel_provider`
  describe how a dispatch is lowered.

An executable target names its resolver in its configuration,
`iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>`. When the stream
dialect specializes encodings, the resolver chooses a packed layout for each
encoded tensor and is stored, with that layout in its configuration, inside
`#iree_encoding.layout<[...]>`:

```mlir
#iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {
    innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
```

Upstream: compiler/src/iree/compiler/Codegen/Dialect/CPU/IR/IREECPUAttrs.td in
https://github.com/iree-org/iree
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntAttr,
    IntegerType,
    NoneAttr,
    VectorType,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mini_iree.dialects.iree_codegen import (
    EncodingResolverAttr,
    InnerTileDescAttr,
    InnerTiledSemanticsAttr as InnerTiledSemanticsAttrInterface,
    LoweringConfigAttrInterface,
    LoweringConfigTilingLevelAttr,
    PipelineAttr,
    StructParam,
    SwizzleDim,
    SwizzleDimKind,
    TileSwizzle,
    int_param,
    parse_struct_attr,
    parse_verified,
    print_struct_params,
)


@irdl_attr_definition(init=False)
class CPUEncodingResolverAttr(EncodingResolverAttr):
    """The data-tiling layout resolver of the LLVMCPU backend.

    ```mlir
    #iree_cpu.cpu_encoding_resolver<>
    #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1],
                                    innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>
    ```
    """

    name = "iree_cpu.cpu_encoding_resolver"



@irdl_attr_definition(init=False)
class VMVXEncodingResolverAttr(EncodingResolverAttr):
    """The data-tiling layout resolver of the VMVX backend.

    ```mlir
    #iree_cpu.vmvx_encoding_resolver<>
    ```
    """

    name = "iree_cpu.vmvx_encoding_resolver"



@irdl_attr_definition(init=False)
class CPUEncodingLayoutAttr(EncodingResolverAttr):
    """The CPU resolver under its earlier name (IREE, December 2024).

    The encoding-specialization write-ups of that time show resolved layouts as
    `#iree_cpu.cpu_encoding_layout<configuration = {encoding_info = {...}}>`.
    """

    name = "iree_cpu.cpu_encoding_layout"



# ===----------------------------------------------------------------------=== #
# CPU MMA intrinsics and the data-tiled `inner_tiled` kind
# ===----------------------------------------------------------------------=== #


class MMAIntrinsic(StrEnum):
    """The CPU matrix-multiply intrinsics (IREECPUEnums.td).

    Names read `MMA_<ISA>_<M>x<N>x<K>_<ACC type>_<input types>`; each
    non-square one also exists M/N-swapped. `MMA_GENERIC_SCALAR_1x1x1_REG*`
    take their element types from the attribute that names them.
    """

    NONE = "None"
    MMA_X86_AVX2_FMA_1x8x1_F32_F32 = "MMA_X86_AVX2_FMA_1x8x1_F32_F32"
    MMA_X86_AVX2_FMA_8x1x1_F32_F32 = "MMA_X86_AVX2_FMA_8x1x1_F32_F32"
    MMA_X86_AVX512_1x8x1_F64_F64 = "MMA_X86_AVX512_1x8x1_F64_F64"
    MMA_X86_AVX512_8x1x1_F64_F64 = "MMA_X86_AVX512_8x1x1_F64_F64"
    MMA_X86_AVX512_1x16x1_F32_F32 = "MMA_X86_AVX512_1x16x1_F32_F32"
    MMA_X86_AVX512_16x1x1_F32_F32 = "MMA_X86_AVX512_16x1x1_F32_F32"
    MMA_X86_AVX512_1x16x1_F32_F16_CASTF32 = "MMA_X86_AVX512_1x16x1_F32_F16_CASTF32"
    MMA_X86_AVX512_16x1x1_F32_F16_CASTF32 = "MMA_X86_AVX512_16x1x1_F32_F16_CASTF32"
    MMA_X86_AVX512FP16_1x32x1_F16_F16 = "MMA_X86_AVX512FP16_1x32x1_F16_F16"
    MMA_X86_AVX512FP16_32x1x1_F16_F16 = "MMA_X86_AVX512FP16_32x1x1_F16_F16"
    MMA_X86_AVX512BF16_1x16x2_F32_BF16 = "MMA_X86_AVX512BF16_1x16x2_F32_BF16"
    MMA_X86_AVX512BF16_16x1x2_F32_BF16 = "MMA_X86_AVX512BF16_16x1x2_F32_BF16"
    MMA_X86_AVX512_1x16x2_I32_I16 = "MMA_X86_AVX512_1x16x2_I32_I16"
    MMA_X86_AVX512_16x1x2_I32_I16 = "MMA_X86_AVX512_16x1x2_I32_I16"
    MMA_X86_AVX512VNNI_1x16x2_I32_I16 = "MMA_X86_AVX512VNNI_1x16x2_I32_I16"
    MMA_X86_AVX512VNNI_16x1x2_I32_I16 = "MMA_X86_AVX512VNNI_16x1x2_I32_I16"
    MMA_X86_AVX512_1x16x2_I32_I8_CASTI16 = "MMA_X86_AVX512_1x16x2_I32_I8_CASTI16"
    MMA_X86_AVX512_16x1x2_I32_I8_CASTI16 = "MMA_X86_AVX512_16x1x2_I32_I8_CASTI16"
    MMA_X86_AVX512VNNI_1x16x2_I32_I8_CASTI16 = "MMA_X86_AVX512VNNI_1x16x2_I32_I8_CASTI16"
    MMA_X86_AVX512VNNI_16x1x2_I32_I8_CASTI16 = "MMA_X86_AVX512VNNI_16x1x2_I32_I8_CASTI16"
    MMA_X86_AVX512VNNI_1x16x4_I32_UI8_I8 = "MMA_X86_AVX512VNNI_1x16x4_I32_UI8_I8"
    MMA_X86_AVX512VNNI_16x1x4_I32_I8_UI8 = "MMA_X86_AVX512VNNI_16x1x4_I32_I8_UI8"
    MMA_X86_AVX512VNNI_16x16x2_I32_I8_CASTI16 = "MMA_X86_AVX512VNNI_16x16x2_I32_I8_CASTI16"
    MMA_ARM_SVE_FMLA_1x4VLx1_F32_F32 = "MMA_ARM_SVE_FMLA_1x4VLx1_F32_F32"
    MMA_ARM_SVE_FMLA_4VLx1x1_F32_F32 = "MMA_ARM_SVE_FMLA_4VLx1x1_F32_F32"
    MMA_GENERIC_SCALAR_1x1x1_REG8 = "MMA_GENERIC_SCALAR_1x1x1_REG8"
    MMA_GENERIC_SCALAR_1x1x1_REG16 = "MMA_GENERIC_SCALAR_1x1x1_REG16"

    @property
    def is_generic_scalar(self) -> bool:
        return self.value.startswith("MMA_GENERIC_SCALAR_")

    @property
    def is_arm_sve(self) -> bool:
        return self.value.startswith("MMA_ARM_SVE_")

    @property
    def generic_scalar_register_budget(self) -> int:
        """How many registers the generic scalar intrinsic may use (its `_REG<n>`)."""
        assert self.is_generic_scalar
        return int(self.value.rsplit("_REG", 1)[1])

    @property
    def register_space_bytes(self) -> int:
        """getRegisterSpaceBytes: the vector register file the cost model fills
        (16 YMM x 32 B on AVX2, 32 ZMM x 64 B on AVX-512, 32 Z x 16 B on SVE
        taken at its minimum length, 16 x 32 B otherwise)."""
        if self.value.startswith("MMA_X86_AVX512"):
            return 32 * 64
        if self.is_arm_sve:
            return 32 * 16
        return 16 * 32

    @property
    def row_major_mnk(self) -> tuple[int, int, int] | None:
        """getRowMajorTilesMNKShape: the (M, N, K) of intrinsics whose tiles are
        plain row-major (all but SVE's scalable ones)."""
        if self is MMAIntrinsic.NONE:
            return 0, 0, 0
        if self.is_generic_scalar:
            return 1, 1, 1
        if self.is_arm_sve:
            return None
        match = _INTRINSIC_NAME.fullmatch(self.value)
        assert match is not None
        return int(match["m"]), int(match["n"]), int(match["k"])

    @property
    def element_types(self) -> tuple[Attribute, Attribute, Attribute] | None:
        """getABCElementTypes, signless as the tile types in IR are; None for
        `None` and the type-polymorphic generic-scalar intrinsics."""
        if self is MMAIntrinsic.NONE or self.is_generic_scalar:
            return None
        match = _INTRINSIC_NAME.fullmatch(self.value)
        assert match is not None
        acc = _TYPE_TOKENS[match["acc"]]
        # `_CAST<T>` names the type inputs are widened to, not their own; the
        # unsigned inputs of vpdpbusd are signless in IR.
        inputs = match["inputs"].split("_CAST")[0].replace("UI8", "I8").split("_")
        return _TYPE_TOKENS[inputs[0]], _TYPE_TOKENS[inputs[-1]], acc


_INTRINSIC_NAME = re.compile(r"MMA_.+?_(?P<m>\d+(?:VL)?)x(?P<n>\d+(?:VL)?)x(?P<k>\d+)_(?P<acc>[A-Z0-9]+)_(?P<inputs>.+)")
_TYPE_TOKENS: dict[str, Attribute] = {
    "F64": f64, "F32": f32, "F16": f16, "BF16": BFloat16Type(), "I32": i32, "I16": i16, "I8": i8,
}  # fmt: skip


class MMAIntrinsicAttr(EnumAttribute[MMAIntrinsic]):
    """`#iree_cpu.mma_intrinsic<MMA_X86_AVX512_1x16x1_F32_F32>`."""

    name = "iree_cpu.mma_intrinsic"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> MMAIntrinsic:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(MMAIntrinsic)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


_SVE_MULTIPLIER = "ArmSveVLIn128bitUnits"
"""The symbolic multiplier of SVE's `4VL` dims: the vector length in 128-bit units."""


def _fixup_swizzle(swizzle: TileSwizzle) -> TileSwizzle:
    """Every group gets at least one dim (a unit Internal one); identity permutation."""
    for group in swizzle.expand_shape:
        if not group:
            group.append(SwizzleDim.internal(1))
    swizzle.permutation = list(range(len(swizzle.flat_dims())))
    return swizzle


def intrinsic_swizzle(intrinsic: MMAIntrinsic, operand: int) -> TileSwizzle:
    """IREE's CPU getIntrinsicSwizzle: the (outer, inner) layout of one
    operand's tile; LHS is (M, K), RHS is (N, K) and ACC is (M, N)."""
    swizzle = TileSwizzle([[], []], [])
    if intrinsic.is_arm_sve:
        # 4VL lives on the first dim of the operand that has it, and of ACC.
        with_4vl = 0 if intrinsic is MMAIntrinsic.MMA_ARM_SVE_FMLA_4VLx1x1_F32_F32 else 1
        if operand in (with_4vl, 2):
            swizzle.expand(0, SwizzleDim(SwizzleDimKind.INTERNAL, 4, symbolic_multiplier=_SVE_MULTIPLIER))
        return _fixup_swizzle(swizzle)
    if intrinsic is MMAIntrinsic.MMA_X86_AVX512VNNI_16x16x2_I32_I8_CASTI16 and operand == 2:
        # The ACC tile of vpdpwssd is block-interleaved: (rlo, chi, rhi, clo).
        internal4 = SwizzleDim.internal(4)
        return TileSwizzle([[internal4, internal4], [internal4, internal4]], [1, 2, 0, 3])
    mnk = intrinsic.row_major_mnk
    assert mnk is not None
    m, n, k = mnk
    outer, inner = ((m, k), (n, k), (m, n))[operand]
    if inner > 1:
        swizzle.expand(1, SwizzleDim.internal(inner))
    if outer > 1:
        swizzle.expand(0, SwizzleDim.internal(outer))
    return _fixup_swizzle(swizzle)


@irdl_attr_definition(init=False)
class DataTiledMMAAttr(ParametrizedAttribute, InnerTileDescAttr):
    """A CPU MMA intrinsic unrolled over a data tile, the `kind` of CPU
    `iree_codegen.inner_tiled` ops.

    Unlike the GPU attribute there are no threads: `intrinsics_{m,n,k}` only
    unroll. `lhs_type` / `rhs_type` / `acc_type` are used by the
    type-polymorphic `MMA_GENERIC_SCALAR_1x1x1_REG*` intrinsics only.

    ```mlir
    #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_X86_AVX512_1x16x1_F32_F32, intrinsics_m = 16>
    ```
    """

    name = "iree_cpu.data_tiled_mma_layout"

    intrinsic: MMAIntrinsicAttr
    intrinsics_m: IntAttr
    intrinsics_n: IntAttr
    intrinsics_k: IntAttr
    lhs_type: Attribute
    rhs_type: Attribute
    acc_type: Attribute

    STRUCT: ClassVar[tuple[StructParam, ...]] = (
        StructParam(
            "intrinsic",
            lambda parser: MMAIntrinsicAttr(parser.parse_str_enum(MMAIntrinsic)),
            lambda printer, value: printer.print_string(value.data.value),  # pyright: ignore[reportAttributeAccessIssue]
        ),
        int_param("intrinsics_m", default=1),
        int_param("intrinsics_n", default=1),
        int_param("intrinsics_k", default=1),
        StructParam("lhs_type", lambda parser: parser.parse_type(), Printer.print_attribute, optional=True),
        StructParam("rhs_type", lambda parser: parser.parse_type(), Printer.print_attribute, optional=True),
        StructParam("acc_type", lambda parser: parser.parse_type(), Printer.print_attribute, optional=True),
    )

    def __init__(
        self,
        intrinsic: MMAIntrinsic,
        intrinsics_m: int = 1,
        intrinsics_n: int = 1,
        intrinsics_k: int = 1,
        types: Sequence[Attribute] | None = None,
    ):
        lhs, rhs, acc = types if types is not None else (NoneAttr(), NoneAttr(), NoneAttr())
        super().__init__(
            MMAIntrinsicAttr(intrinsic), IntAttr(intrinsics_m), IntAttr(intrinsics_n), IntAttr(intrinsics_k),
            lhs, rhs, acc,
        )  # fmt: skip

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    def element_types(self) -> tuple[Attribute, Attribute, Attribute] | None:
        """Signless (LHS, RHS, ACC) element types; None when unknown."""
        intrinsic = self.intrinsic.data
        if intrinsic.is_generic_scalar:
            types = (self.lhs_type, self.rhs_type, self.acc_type)
            if any(isinstance(t, NoneAttr) for t in types):
                return None
            return tuple(
                IntegerType(t.width.data) if isinstance(t, IntegerType) else t  # pyright: ignore[reportReturnType]
                for t in types
            )
        return intrinsic.element_types

    def swizzle(self, operand: int) -> TileSwizzle:
        """IREE's CPU getSwizzle: the intrinsic's tile, unrolled (CrossIntrinsic)."""
        swizzle = intrinsic_swizzle(self.intrinsic.data, operand)
        im, in_, ik = (SwizzleDim.cross_intrinsic(v.data) for v in (self.intrinsics_m, self.intrinsics_n, self.intrinsics_k))
        outer, inner = ((im, ik), (in_, ik), (im, in_))[operand]
        if inner.size > 1:
            swizzle.expand(1, inner)
        if outer.size > 1:
            swizzle.expand(0, outer)
        return swizzle

    def mnk(self) -> tuple[int, int, int] | None:
        """The static (M, N, K) of the whole data tile; None for scalable ones."""
        mnk = self.intrinsic.data.row_major_mnk
        if mnk is None:
            return None
        return mnk[0] * self.intrinsics_m.data, mnk[1] * self.intrinsics_n.data, mnk[2] * self.intrinsics_k.data

    def expected_num_inputs(self) -> int:
        return 2

    def expected_num_outputs(self) -> int:
        return 1

    def verify_indexing_maps(self, maps: Sequence[AffineMap]) -> bool:
        return len(maps) == 3 and maps[2].is_projected_permutation()

    def undistributed_tile_types(self) -> list[VectorType] | None:
        types = self.element_types()
        if types is None:
            return None
        return [_tile_vector_type(self.swizzle(i), t) for i, t in enumerate(types)]

    def distributed_tile_types(self) -> list[VectorType] | None:
        # No threads on the CPU: a thread's tile is the whole tile.
        return self.undistributed_tile_types()


def _tile_vector_type(swizzle: TileSwizzle, element_type: Attribute) -> VectorType:
    """Codegen::getTileVectorType: the swizzled shape; Internal dims with a
    symbolic multiplier are scalable."""
    scalable = [d.kind is SwizzleDimKind.INTERNAL and d.symbolic_multiplier != "One" for d in swizzle.flat_dims()]
    scalable = [scalable[p] for p in swizzle.permutation]
    flags = ArrayAttr([BoolAttr.from_bool(f) for f in scalable]) if any(scalable) else None
    return VectorType(element_type, swizzle.swizzled_shape(), flags)


@irdl_attr_definition(init=False)
class InnerTiledSemanticsAttr(ParametrizedAttribute, InnerTiledSemanticsAttrInterface):
    """How a CPU `inner_tiled` reads its tiles: never distributed, never opaque.

    ```mlir
    #iree_cpu.mma_semantics<>
    ```
    """

    name = "iree_cpu.mma_semantics"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_punctuation(">")
        return []

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<>")

    def is_distributed(self) -> bool:
        return False

    def is_opaque(self) -> bool:
        return False

    def tile_types(self, kind: InnerTileDescAttr) -> list[VectorType] | None:
        return kind.undistributed_tile_types()


# ===----------------------------------------------------------------------=== #
# Lowering configuration, pipelines and hints
# ===----------------------------------------------------------------------=== #


class LoweringPipeline(StrEnum):
    DEFAULT = "Default"
    DOUBLE_TILING_EXPERT = "DoubleTilingExpert"
    CONV_TILE_AND_DECOMPOSE_EXPERT = "ConvTileAndDecomposeExpert"
    MMT4D_TILING_EXPERT = "Mmt4dTilingExpert"
    BUFFER_OPS_TILE_AND_VECTORIZE = "BufferOpsTileAndVectorize"
    DATA_TILING = "DataTiling"
    LINALG_EXT_TILE_AND_VECTORIZE = "LinalgExtTileAndVectorize"


@irdl_attr_definition
class LoweringPipelineAttr(EnumAttribute[LoweringPipeline], PipelineAttr):
    """A CPU lowering pipeline: `#iree_cpu.pipeline<DoubleTilingExpert>`."""

    name = "iree_cpu.pipeline"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> LoweringPipeline:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(LoweringPipeline)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


TILING_LEVELS = (
    "distribution",
    "cache_parallel",
    "cache_reduction",
    "vector_common_parallel",
    "vector_reduction",
    "vector_inner_parallel",
)
"""The lowering-config keys that hold a tiling level (IREE's TilingLevel order)."""


def _parse_key(parser: AttrParser) -> str:
    # parseKeywordOrString.
    key = parser.parse_optional_identifier()
    if key is None:
        key = parser.parse_optional_str_literal()
    if key is None:
        parser.raise_error("expected valid keyword or string")
    return key


def _print_key(printer: Printer, key: str) -> None:
    printer.print_string(f"{key} = ")


@irdl_attr_definition(init=False)
class LoweringConfigAttr(ParametrizedAttribute, LoweringConfigAttrInterface):
    """A CPU lowering configuration: tiling levels and any other entries.

    ```mlir
    #iree_cpu.lowering_config<distribution = [128, 128, 0], vector_common_parallel = [[4], [4], 0]>
    ```

    Entries print sorted by key (a dictionary); tiling levels print without
    their `#iree_codegen.lowering_config_level` prefix.
    """

    name = "iree_cpu.lowering_config"

    config: DictionaryAttr

    def __init__(self, config: dict[str, Attribute]):
        super().__init__(DictionaryAttr(config))

    def asm_alias(self) -> str | None:
        return "config"

    def verify(self) -> None:
        for key, value in self.config.data.items():
            if key in TILING_LEVELS and not isinstance(value, LoweringConfigTilingLevelAttr):
                raise VerifyException(f"{key} is not LoweringConfigTilingLevelAttr: {value}")

    def tile_sizes(self, level: str) -> list[int]:
        value = self.config.data.get(level)
        if not isinstance(value, LoweringConfigTilingLevelAttr):
            return []
        return [int(v) for v in value.sizes.get_values()]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse() -> list[Attribute]:
            entries: dict[str, Attribute] = {}
            parser.parse_punctuation("<")
            first = True
            while parser.parse_optional_punctuation(">") is None:
                if not first:
                    parser.parse_punctuation(",")
                first = False
                key = _parse_key(parser)
                parser.parse_punctuation("=")
                if key in TILING_LEVELS:
                    entries[key] = LoweringConfigTilingLevelAttr.parse_body(parser)
                else:
                    entries[key] = parser.parse_attribute()
            return [DictionaryAttr(entries)]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for i, key in enumerate(sorted(self.config.data)):
            if i:
                printer.print_string(", ")
            _print_key(printer, key)
            value = self.config.data[key]
            if isinstance(value, LoweringConfigTilingLevelAttr):
                value.print_body(printer)
            else:
                printer.print_attribute(value)
        printer.print_string(">")


_INNER_TILE_ALIGNMENTS = ("Unknown", "Multiple", "Equal")
"""mlir::InnerTileAlignment, in enum-value order."""


@irdl_attr_definition(init=False)
class InnerTileAlignmentsAttr(ParametrizedAttribute):
    """Per tiling level, how each dim's inner tile relates to its tile size.

    ```mlir
    #iree_cpu.inner_tile_alignments<vector_common_parallel = [Unknown, Equal]>
    ```
    """

    name = "iree_cpu.inner_tile_alignments"

    alignments: DictionaryAttr

    def verify(self) -> None:
        if not self.alignments.data:
            raise VerifyException("expected at least one tiling level")
        for key, value in self.alignments.data.items():
            if not isinstance(value, DenseArrayBase):
                raise VerifyException(f"expected a per-dimension InnerTileAlignment array for '{key}'")
            for v in value.get_values():
                if not 0 <= int(v) < len(_INNER_TILE_ALIGNMENTS):
                    raise VerifyException(f"invalid InnerTileAlignment value: {v}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def alignment() -> int:
            pos = parser.pos
            keyword = parser.parse_identifier()
            if keyword not in _INNER_TILE_ALIGNMENTS:
                parser.raise_error(
                    f"expected an InnerTileAlignment (Unknown|Multiple|Equal), got: {keyword}", pos, parser.pos
                )
            return _INNER_TILE_ALIGNMENTS.index(keyword)

        def parse() -> list[Attribute]:
            entries: dict[str, Attribute] = {}
            parser.parse_punctuation("<")
            first = True
            while parser.parse_optional_punctuation(">") is None:
                if not first:
                    parser.parse_punctuation(",")
                first = False
                key = _parse_key(parser)
                parser.parse_punctuation("=")
                values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, alignment)
                entries[key] = DenseArrayBase.from_list(i64, values)
            return [DictionaryAttr(entries)]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        items = [
            f"{key} = [" + ", ".join(_INNER_TILE_ALIGNMENTS[int(v)] for v in value.get_values()) + "]"  # pyright: ignore[reportAttributeAccessIssue]
            for key, value in sorted(self.alignments.data.items())
        ]
        printer.print_string("<" + ", ".join(items) + ">")


@irdl_attr_definition(init=False)
class UKernelProviderAttr(ParametrizedAttribute):
    """The LLVMCPU built-in ukernels: `#iree_cpu.ukernel_provider`.

    Set as `iree_codegen.ukernel_provider` in an executable target's
    configuration; it has no parameters.
    """

    name = "iree_cpu.ukernel_provider"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return []

    def print_parameters(self, printer: Printer) -> None:
        pass


IREECPU = Dialect(
    "iree_cpu",
    [],
    [
        CPUEncodingResolverAttr,
        VMVXEncodingResolverAttr,
        CPUEncodingLayoutAttr,
        MMAIntrinsicAttr,
        DataTiledMMAAttr,
        InnerTiledSemanticsAttr,
        LoweringPipelineAttr,
        LoweringConfigAttr,
        InnerTileAlignmentsAttr,
        UKernelProviderAttr,
    ],
)
