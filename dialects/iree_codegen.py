"""The `iree_codegen` dialect: IREE's target-independent code generation IR.

Data tiling meets this dialect at the end of the pipeline, inside dispatches:

- `iree_codegen.load_from_buffer` / `iree_codegen.store_to_buffer` move a whole
  tensor in and out of a binding's memref;
- `iree_codegen.inner_tiled` is the contraction on data-tiled operands (each
  operand is `outer dims x inner tile`, the inner tiles combined by an
  intrinsic named by its `kind`);
- `#iree_codegen.workgroup_mapping<x>` maps `scf.forall` loops to workgroups and
  `#iree_codegen.translation_info<...>` names the lowering pipeline of a
  dispatch function.

The module also holds what IREE keeps in its Codegen dialect for the backends
(`iree_cpu`, `iree_gpu`) to share: the `struct(params)` attribute syntax, the
`TileSwizzle` and `MaterializeEncodingInfo` descriptions of a packed layout, and
the interfaces an `inner_tiled` kind and semantics implement.

Upstream: compiler/src/iree/compiler/Codegen/Dialect/Codegen/IR/ in
https://github.com/iree-org/iree
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    VectorType,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, ParametrizedAttribute, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mini_iree.dialects.utils import raise_missing_struct_key


# ===----------------------------------------------------------------------=== #
# `struct(params)` attribute syntax
# ===----------------------------------------------------------------------=== #
#
# Most IREE codegen attributes use MLIR's declarative `<` struct(params) `>`
# format: `key = value` pairs, accepted in any order, printed in declaration
# order, with absent optional parameters and default-valued parameters left
# out. These helpers give every attribute of the iree_codegen, iree_cpu and
# iree_gpu dialects that same syntax and MLIR's diagnostics.


@dataclass(frozen=True)
class StructParam:
    """One `key = value` entry of a `struct(params)` attribute body.

    Absent entries take `default` when one is given (a `DefaultValuedParameter`)
    and are stored as `NoneAttr` when `optional` (an `OptionalParameter`); the
    printer leaves out both a `NoneAttr` and a value equal to the default.
    """

    name: str
    parse: Callable[[AttrParser], Attribute]
    print: Callable[[Printer, Attribute], None]
    default: Attribute | None = None
    optional: bool = False

    @property
    def required(self) -> bool:
        return self.default is None and not self.optional


def parse_struct_params(parser: AttrParser, params: Sequence[StructParam]) -> list[Attribute]:
    """Parse `<key = value, ...>` into one attribute per entry of `params`."""
    by_name = {param.name: param for param in params}
    seen: dict[str, Attribute] = {}

    def parse_entry() -> None:
        key = parser.parse_optional_identifier()
        if key is None:
            raise_missing_struct_key(parser)
        if key not in by_name or key in seen:
            parser.raise_error(f"duplicate or unknown struct parameter name: {key}")
        parser.parse_punctuation("=")
        seen[key] = by_name[key].parse(parser)

    parser.parse_punctuation("<")
    if parser.parse_optional_punctuation(">") is None:
        parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_entry)
        parser.parse_punctuation(">")
    for param in params:
        if param.required and param.name not in seen:
            parser.raise_error(f"struct is missing required parameter: {param.name}")
    return [seen.get(p.name, p.default if p.default is not None else NoneAttr()) for p in params]


def print_struct_params(printer: Printer, params: Sequence[StructParam], values: Sequence[Attribute]) -> None:
    """Print `<key = value, ...>`, leaving out absent and default values."""
    present = [
        (param, value)
        for param, value in zip(params, values, strict=True)
        if not isinstance(value, NoneAttr) and value != param.default
    ]
    with printer.in_angle_brackets():
        for i, (param, value) in enumerate(present):
            if i:
                printer.print_string(", ")
            printer.print_string(f"{param.name} = ")
            param.print(printer, value)


def parse_verified(
    parser: AttrParser, cls: type[ParametrizedAttribute], parse: Callable[[], list[Attribute]]
) -> list[Attribute]:
    """Run `parse`, then `cls`'s verifier, reporting a failure at the attribute.

    MLIR verifies an attribute as it is parsed and points the diagnostic at its
    text; doing the same keeps a bad attribute a parse error with a location.
    """
    start = parser.pos
    values = parse()
    try:
        cls.new(values)
    except VerifyException as e:
        parser.raise_error(str(e), start, parser.pos)
    return values


def parse_struct_attr(parser: AttrParser, cls: type[ParametrizedAttribute]) -> list[Attribute]:
    """Parse the `<` struct(params) `>` body of `cls` (its `STRUCT` params) and verify it."""
    params: Sequence[StructParam] = getattr(cls, "STRUCT")
    return parse_verified(parser, cls, lambda: parse_struct_params(parser, params))


# Parsers and printers of the parameter kinds these dialects use. Values are
# stored as the builtin attribute MLIR's generic form would use.


def _parse_int(parser: AttrParser) -> Attribute:
    return IntAttr(parser.parse_integer(allow_boolean=False))


def _print_int(printer: Printer, value: Attribute) -> None:
    assert isinstance(value, IntAttr)
    printer.print_string(str(value.data))


def _parse_bool(parser: AttrParser) -> Attribute:
    return IntegerAttr.from_bool(parser.parse_boolean())


def _print_bool(printer: Printer, value: Attribute) -> None:
    assert isinstance(value, IntegerAttr)
    printer.print_string("true" if value.value.data else "false")


def _dense_array_param(
    element_type: IntegerType,
) -> tuple[Callable[[AttrParser], Attribute], Callable[[Printer, Attribute], None]]:
    def parse(parser: AttrParser) -> Attribute:
        values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(False))
        return DenseArrayBase.from_list(element_type, values)

    def print_(printer: Printer, value: Attribute) -> None:
        assert isinstance(value, DenseArrayBase)
        printer.print_string("[" + ", ".join(str(v) for v in value.get_values()) + "]")

    return parse, print_


def _parse_string(parser: AttrParser) -> Attribute:
    return StringAttr(parser.parse_str_literal())


def _print_string(printer: Printer, value: Attribute) -> None:
    assert isinstance(value, StringAttr)
    printer.print_string_literal(value.data)


def _print_any(printer: Printer, value: Attribute) -> None:
    printer.print_attribute(value)


def int_param(name: str, *, default: int | None = None, optional: bool = False) -> StructParam:
    """An `int64_t`-like parameter, printed as a bare integer."""
    return StructParam(name, _parse_int, _print_int, None if default is None else IntAttr(default), optional)


def bool_param(name: str, *, default: bool | None = None, optional: bool = False) -> StructParam:
    """A `bool` (or `BoolAttr`) parameter, printed `true` / `false`."""
    default_attr = None if default is None else IntegerAttr.from_bool(default)
    return StructParam(name, _parse_bool, _print_bool, default_attr, optional)


def i64_array_param(name: str, *, optional: bool = False) -> StructParam:
    """A `DenseI64ArrayAttr` parameter, printed `[1, 2]`."""
    return StructParam(name, *_dense_array_param(i64), optional=optional)


def i32_array_param(name: str, *, optional: bool = False) -> StructParam:
    """A `DenseI32ArrayAttr` parameter, printed `[1, 2]`."""
    return StructParam(name, *_dense_array_param(i32), optional=optional)


def string_param(name: str, *, optional: bool = False) -> StructParam:
    """A string parameter, printed as a quoted literal."""
    return StructParam(name, _parse_string, _print_string, optional=optional)


def attr_param(name: str, *, optional: bool = False) -> StructParam:
    """A parameter holding any attribute, printed in full (e.g. a dictionary)."""
    return StructParam(name, lambda parser: parser.parse_attribute(), _print_any, optional=optional)


def optional_int(value: Attribute) -> int | None:
    """The integer an `int_param` holds, or None when absent."""
    return value.data if isinstance(value, IntAttr) else None


def optional_values(value: Attribute) -> tuple[int, ...] | None:
    """The integers an array parameter holds, or None when absent."""
    if not isinstance(value, DenseArrayBase):
        return None
    return tuple(int(v) for v in value.get_values())


# ===----------------------------------------------------------------------=== #
# Packed layouts: TileSwizzle and MaterializeEncodingInfo
# ===----------------------------------------------------------------------=== #


class SwizzleDimKind(Enum):
    """What one dimension of a swizzled inner tile is distributed over."""

    INTERNAL = "Internal"
    """Iterated within one thread, e.g. the elements of a register vector."""
    CROSS_THREAD = "CrossThread"
    """Distributed across the threads of a subgroup (or across subgroups)."""
    CROSS_INTRINSIC = "CrossIntrinsic"
    """Iterated across unrolled copies of the intrinsic."""


@dataclass(frozen=True)
class SwizzleDim:
    """One dimension of a TileSwizzle expand-shape group (`Dim` in IREE)."""

    kind: SwizzleDimKind
    size: int
    distribution_factor: int = 1
    """CrossThread only: how many threads share each index of this dimension."""
    symbolic_multiplier: str = "One"
    """Internal only: a runtime multiplier of `size` (scalable vectors)."""

    @staticmethod
    def internal(size: int) -> SwizzleDim:
        return SwizzleDim(SwizzleDimKind.INTERNAL, size)

    @staticmethod
    def cross_thread(size: int, distribution_factor: int = 1) -> SwizzleDim:
        return SwizzleDim(SwizzleDimKind.CROSS_THREAD, size, distribution_factor)

    @staticmethod
    def cross_intrinsic(size: int) -> SwizzleDim:
        return SwizzleDim(SwizzleDimKind.CROSS_INTRINSIC, size)

    def to_attr(self) -> ArrayAttr:
        # IREE's serialization: ["Kind", size : i16 (, factor : i8 | , "Multiplier")].
        entries: list[Attribute] = [StringAttr(self.kind.value), IntegerAttr(self.size, i16)]
        if self.kind is SwizzleDimKind.CROSS_THREAD:
            entries.append(IntegerAttr(self.distribution_factor, i8))
        if self.kind is SwizzleDimKind.INTERNAL:
            entries.append(StringAttr(self.symbolic_multiplier))
        return ArrayAttr(entries)

    @staticmethod
    def from_attr(attr: Attribute) -> SwizzleDim | None:
        if not isinstance(attr, ArrayAttr) or len(attr.data) < 2:
            return None
        kind_attr, size_attr, *rest = attr.data
        if not isinstance(kind_attr, StringAttr) or not isinstance(size_attr, IntegerAttr):
            return None
        kind = next((k for k in SwizzleDimKind if k.value == kind_attr.data), None)
        size = size_attr.value.data
        if kind is None or not 0 < size < 2**15:
            return None
        if kind is SwizzleDimKind.CROSS_INTRINSIC:
            return SwizzleDim.cross_intrinsic(size)
        if kind is SwizzleDimKind.INTERNAL:
            if not rest:
                return SwizzleDim.internal(size)
            if not isinstance(rest[0], StringAttr):
                return None
            return SwizzleDim(kind, size, symbolic_multiplier=rest[0].data)
        if not rest:
            return SwizzleDim.cross_thread(size)
        if not isinstance(rest[0], IntegerAttr) or not 0 < rest[0].value.data < 2**7:
            return None
        return SwizzleDim.cross_thread(size, rest[0].value.data)


@dataclass
class TileSwizzle:
    """How a packed inner tile is further expanded and transposed.

    Each inner-tile dimension `i` is expanded into the dims of `expand_shape[i]`
    (outermost first); the flattened expanded dims are then transposed so that
    result dim `j` is expanded dim `permutation[j]`. Data-tiling resolvers use
    it to lay tiles out in exactly the order the threads of an intrinsic read
    them.
    """

    expand_shape: list[list[SwizzleDim]] = field(default_factory=list[list[SwizzleDim]])
    permutation: list[int] = field(default_factory=list[int])

    def expand(self, src_index: int, dim: SwizzleDim) -> None:
        """Split `dim` off the front of group `src_index`; it becomes outermost."""
        dst = sum(len(group) for group in self.expand_shape[:src_index])
        self.expand_shape[src_index].insert(0, dim)
        self.permutation = [dst, *(p + 1 if p >= dst else p for p in self.permutation)]

    def flat_dims(self) -> list[SwizzleDim]:
        return [dim for group in self.expand_shape for dim in group]

    def swizzled_shape(self, keep: Callable[[SwizzleDim], bool] = lambda _: True) -> list[int]:
        """The transposed expanded shape; dims failing `keep` count as size 1."""
        sizes = [d.size if keep(d) else 1 for d in self.flat_dims()]
        return [sizes[p] for p in self.permutation]

    def verify(self) -> str | None:
        """IREE's TileSwizzle::verify; returns the error message, if any."""
        total = len(self.flat_dims())
        if len(self.permutation) != total:
            return (
                f"swizzle permutation size ({len(self.permutation)}) does not match total expanded dimensions ({total})"
            )
        if sorted(self.permutation) != list(range(total)):
            return "swizzle permutation is not a valid permutation"
        return None

    def to_attr(self) -> DictionaryAttr:
        return DictionaryAttr(
            {
                "expandShape": ArrayAttr([ArrayAttr([d.to_attr() for d in group]) for group in self.expand_shape]),
                "permutation": ArrayAttr([IntegerAttr(p, i64) for p in self.permutation]),
            }
        )

    @staticmethod
    def from_attr(attr: Attribute) -> TileSwizzle | None:
        if not isinstance(attr, DictionaryAttr):
            return None
        expand_shape = attr.data.get("expandShape")
        permutation = _int_list(attr.data.get("permutation"))
        if not isinstance(expand_shape, ArrayAttr) or permutation is None:
            return None
        groups: list[list[SwizzleDim]] = []
        for group in expand_shape.data:
            if not isinstance(group, ArrayAttr):
                return None
            dims = [SwizzleDim.from_attr(d) for d in group.data]
            if any(d is None for d in dims):
                return None
            groups.append([d for d in dims if d is not None])
        return TileSwizzle(groups, permutation)


def _int_list(attr: Attribute | None) -> list[int] | None:
    if not isinstance(attr, ArrayAttr):
        return None
    values = [a.value.data for a in attr.data if isinstance(a, IntegerAttr)]
    return values if len(values) == len(attr.data) else None


@dataclass
class MaterializeEncodingInfo:
    """The packed layout a resolver chooses for one encoded tensor.

    It is the `linalg.pack` that materializes the encoding (`inner_dims_pos`,
    `inner_tile_sizes`, `outer_dims_perm`) plus an optional swizzle of the inner
    tile. Resolvers store it in their `configuration` as `encoding_info = {...}`.
    """

    inner_dims_pos: list[int] = field(default_factory=list[int])
    inner_tile_sizes: list[int] = field(default_factory=list[int])
    outer_dims_perm: list[int] = field(default_factory=list[int])
    swizzle: TileSwizzle | None = None
    scalable_tiles: list[bool] | None = None

    def is_identity(self) -> bool:
        """A layout that leaves the tensor as it is (encodings get dropped)."""
        return (
            not self.inner_dims_pos
            and not self.inner_tile_sizes
            and not self.outer_dims_perm
            and self.swizzle is None
            and self.scalable_tiles is None
        )

    def to_attr(self) -> DictionaryAttr:
        entries: dict[str, Attribute] = {
            "innerDimsPos": ArrayAttr([IntegerAttr(v, i64) for v in self.inner_dims_pos]),
            "innerTileSizes": ArrayAttr([IntegerAttr(v, i64) for v in self.inner_tile_sizes]),
            "outerDimsPerm": ArrayAttr([IntegerAttr(v, i64) for v in self.outer_dims_perm]),
        }
        if self.swizzle is not None:
            entries["swizzle"] = self.swizzle.to_attr()
        if self.scalable_tiles is not None:
            entries["scalableTiles"] = ArrayAttr([IntegerAttr.from_bool(v) for v in self.scalable_tiles])
        return DictionaryAttr(entries)

    @staticmethod
    def from_attr(attr: Attribute) -> MaterializeEncodingInfo | None:
        """Read `{innerDimsPos = [...], ...}`; None if it is malformed."""
        if not isinstance(attr, DictionaryAttr):
            return None
        lists = [_int_list(attr.data.get(key)) for key in ("innerDimsPos", "innerTileSizes", "outerDimsPerm")]
        inner_dims_pos, inner_tile_sizes, outer_dims_perm = lists
        if inner_dims_pos is None or inner_tile_sizes is None or outer_dims_perm is None:
            return None
        info = MaterializeEncodingInfo(inner_dims_pos, inner_tile_sizes, outer_dims_perm)
        if "swizzle" in attr.data:
            info.swizzle = TileSwizzle.from_attr(attr.data["swizzle"])
            if info.swizzle is None:
                return None
        if "scalableTiles" in attr.data:
            flags = _int_list(attr.data["scalableTiles"])
            if flags is None:
                return None
            info.scalable_tiles = [bool(f) for f in flags]
        return info


# A dataclass, so the parameters declared here take part in equality and hashing.
@dataclass(frozen=True, init=False)
class EncodingResolverAttr(ParametrizedAttribute):
    """Base of the backends' `*_encoding_resolver` attributes.

    A resolver is placed in an executable target as
    `iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>`; once it has
    chosen a layout for a tensor it is stored inside `#iree_encoding.layout<[...]>`
    with `configuration = {encoding_info = {...}}`. `configuration` is a builtin
    dictionary, so while a layout is being chosen it can also carry whatever the
    executable target says (`cpu_features`, `iree_codegen.target_info`, ...).

    Subclasses only add their name; the syntax is `<` struct(params) `>`.
    """

    configuration: DictionaryAttr | NoneAttr

    STRUCT: ClassVar[tuple[StructParam, ...]] = (attr_param("configuration", optional=True),)

    def __init__(self, configuration: DictionaryAttr | None = None):
        super().__init__(NoneAttr() if configuration is None else configuration)

    @classmethod
    def with_encoding_info(cls, info: MaterializeEncodingInfo) -> Self:
        """The resolver holding a resolved layout, as encoding specialization stores it."""
        return cls(DictionaryAttr({"encoding_info": info.to_attr()}))

    @property
    def configuration_dict(self) -> DictionaryAttr | None:
        """The `configuration` dictionary, or None when it is absent."""
        return self.configuration if isinstance(self.configuration, DictionaryAttr) else None

    @property
    def encoding_info(self) -> MaterializeEncodingInfo | None:
        """The resolved layout in `configuration`, if the resolver carries one."""
        config = self.configuration_dict
        if config is None or "encoding_info" not in config.data:
            return None
        return MaterializeEncodingInfo.from_attr(config.data["encoding_info"])

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return parse_struct_attr(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        print_struct_params(printer, self.STRUCT, self.parameters)

    def verify(self) -> None:
        _verify_encoding_resolver_config(self.configuration)

    def verify_encoding(self, shape: Sequence[int], element_type: Attribute) -> None:
        """Check a resolved layout against the tensor type it is attached to."""
        from mini_iree.dialects.encoding_info_checks import verify_resolved_layout

        verify_resolved_layout(self, len(shape))


def _verify_encoding_resolver_config(configuration: Attribute) -> None:
    """Reject an `encoding_info` entry that does not describe a layout."""
    if not isinstance(configuration, DictionaryAttr) or "encoding_info" not in configuration.data:
        return
    info = MaterializeEncodingInfo.from_attr(configuration.data["encoding_info"])
    if info is None:
        raise VerifyException(
            "expected encoding_info to be a dictionary with integer arrays innerDimsPos, innerTileSizes and "
            "outerDimsPerm, and an optional swizzle"
        )


# ===----------------------------------------------------------------------=== #
# Interfaces of the attributes iree_codegen.inner_tiled is parameterized by
# ===----------------------------------------------------------------------=== #


class InnerTileDescAttr(ABC):
    """An attribute naming the intrinsic of an `inner_tiled` op (its `kind`).

    Mirrors IREE's `InnerTileDescAttrInterface`: it fixes how many inputs and
    outputs the op has and the vector type of each operand's inner tile.
    """

    LEGACY_OPERAND_ORDER: ClassVar[tuple[int, ...] | None] = None
    """Where each operand of the kind sat in IR written before `semantics`
    existed, when that order differs (IREE's scaled MMA once took
    `lhs, lhs_scales, rhs, rhs_scales`)."""

    @abstractmethod
    def expected_num_inputs(self) -> int: ...

    @abstractmethod
    def expected_num_outputs(self) -> int: ...

    def verify_indexing_maps(self, maps: Sequence[AffineMap]) -> bool:
        """Whether the outer iteration described by `maps` suits this kind."""
        return True

    def undistributed_tile_types(self) -> list[VectorType] | None:
        """Per-operand inner tiles seen by a whole subgroup; None if unknown."""
        return None

    def distributed_tile_types(self) -> list[VectorType] | None:
        """Per-operand inner tiles held by one thread; None if unknown."""
        return None


class InnerTiledSemanticsAttr(ABC):
    """An attribute fixing how strictly `inner_tiled` checks its inner tiles.

    Mirrors IREE's `InnerTiledSemanticsAttrInterface`.
    """

    @abstractmethod
    def is_distributed(self) -> bool: ...

    @abstractmethod
    def is_opaque(self) -> bool: ...

    def tile_types(self, kind: InnerTileDescAttr) -> list[VectorType] | None:
        if self.is_distributed():
            return kind.distributed_tile_types()
        return kind.undistributed_tile_types()


class PipelineAttr(ABC):
    """An attribute naming a codegen pass pipeline (`PipelineAttrInterface`)."""


# ===----------------------------------------------------------------------=== #
# Attributes
# ===----------------------------------------------------------------------=== #


class WorkgroupId(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


@irdl_attr_definition(init=False)
class WorkgroupMappingAttr(ParametrizedAttribute):
    """Maps an `scf.forall` dimension to a workgroup id.

    `x`, `y` and `z` map to `hal.workgroup.id[0..2]`; `z:N` (N > 0) is the N-th
    dimension delinearized out of the `z` id.

    ```mlir
    scf.forall (%i, %j) in (%a, %b) { ... } {mapping = [#iree_codegen.workgroup_mapping<y>,
                                                       #iree_codegen.workgroup_mapping<x>]}
    ```
    """

    name = "iree_codegen.workgroup_mapping"

    id: StringAttr
    delinearized_dim: IntAttr

    def __init__(self, id: WorkgroupId | str, delinearized_dim: int = 0):
        super().__init__(StringAttr(WorkgroupId(id).value), IntAttr(delinearized_dim))

    @property
    def workgroup_id(self) -> WorkgroupId:
        return WorkgroupId(self.id.data)

    @property
    def mapping_id(self) -> int:
        """The linear order of mappings: x, y, z:0, z:1, ..."""
        return "xyz".index(self.id.data) + self.delinearized_dim.data

    def verify(self) -> None:
        if self.id.data not in ("x", "y", "z"):
            raise VerifyException(f"expected workgroup id to be one of x, y, z, got {self.id.data}")
        if self.delinearized_dim.data > 0 and self.id.data != "z":
            raise VerifyException(f"illegal to use `delinearizationDim` for {self.id.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse() -> list[Attribute]:
            with parser.in_angle_brackets():
                id = parser.parse_str_enum(WorkgroupId)
                dim = 0
                if parser.parse_optional_punctuation(":") is not None:
                    dim = parser.parse_integer(allow_boolean=False, allow_negative=False)
            return [StringAttr(id.value), IntAttr(dim)]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.id.data)
            if self.delinearized_dim.data:
                printer.print_string(f":{self.delinearized_dim.data}")


def verify_workgroup_mapping_list(attrs: Sequence[Attribute]) -> None:
    """IREE's WorkgroupMappingAttr::verifyAttrList, for an `scf.forall` mapping.

    The mappings must be distinct and, sorted, form `x`, `y`, `z:0`, `z:1`, ...
    without gaps.
    """
    if not attrs:
        return
    mappings: list[WorkgroupMappingAttr] = []
    for attr in attrs:
        if not isinstance(attr, WorkgroupMappingAttr):
            raise VerifyException("expected all the mapping attribute to be of `WorkgroupMappingAttr` type")
        if attr in mappings:
            raise VerifyException("illegal to repeat mapping specification")
        mappings.append(attr)
    ids = sorted(m.mapping_id for m in mappings)
    if ids[0] != 0:
        raise VerifyException("missing `workgroup_mapping<x>`")
    if len(ids) > 1 and ids[1] != 1:
        raise VerifyException("missing `workgroup_mapping<y>`")
    for index, mapping_id in enumerate(ids[2:]):
        if mapping_id != index + 2:
            raise VerifyException(f"missing `workgroup_mapping<z:{index}>`")


@irdl_attr_definition(init=False)
class TranslationInfoAttr(ParametrizedAttribute):
    """Drives the lowering of a dispatch function: pipeline and launch shape.

    ```mlir
    func.func @dispatch() attributes {translation_info = #iree_codegen.translation_info<
        pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64,
        {gpu_pipeline_options = #iree_gpu.pipeline_options<use_igemm_convolution = false>}>}
    ```

    Absent optional fields are `NoneAttr`; a subgroup size of 0 means unset.
    """

    name = "iree_codegen.translation_info"

    pass_pipeline: Attribute
    codegen_spec: SymbolRefAttr | NoneAttr
    workgroup_size: DenseArrayBase | NoneAttr
    subgroup_size: IntAttr
    configuration: DictionaryAttr | NoneAttr

    def __init__(
        self,
        pass_pipeline: Attribute,
        workgroup_size: Sequence[int] | None = None,
        subgroup_size: int = 0,
        configuration: DictionaryAttr | None = None,
        codegen_spec: SymbolRefAttr | None = None,
    ):
        super().__init__(
            pass_pipeline,
            NoneAttr() if codegen_spec is None else codegen_spec,
            NoneAttr() if workgroup_size is None else DenseArrayBase.from_list(i64, workgroup_size),
            IntAttr(subgroup_size),
            NoneAttr() if configuration is None else configuration,
        )

    def asm_alias(self) -> str | None:
        return "translation"

    @property
    def workgroup_size_values(self) -> tuple[int, ...]:
        return optional_values(self.workgroup_size) or ()

    def verify(self) -> None:
        if not isinstance(self.pass_pipeline, PipelineAttr):
            raise VerifyException("pass pipeline must implement PipelineAttrInterface")
        if not isinstance(self.codegen_spec, NoneAttr) and not isinstance(
            self.pass_pipeline, TransformDialectCodegenPipelineAttr
        ):
            raise VerifyException("transform dialect codegen spec requires transform dialect codegen pipeline")
        sizes = self.workgroup_size_values
        if len(sizes) > 3:
            raise VerifyException("workgroup size cannot have more than 3 entries")
        if any(size <= 0 for size in sizes):
            raise VerifyException("workgroup size value has to be greater than zero")
        if self.subgroup_size.data < 0:
            raise VerifyException("subgroup size value cannot be negative")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse() -> list[Attribute]:
            with parser.in_angle_brackets():
                parser.parse_keyword("pipeline")
                parser.parse_punctuation("=")
                pipeline = _parse_pipeline(parser)
                spec: Attribute = NoneAttr()
                sizes: Attribute = NoneAttr()
                subgroup = 0
                if parser.parse_optional_keyword("codegen_spec") is not None:
                    parser.parse_punctuation("=")
                    spec = parser.parse_attribute()
                if parser.parse_optional_keyword("workgroup_size") is not None:
                    parser.parse_punctuation("=")
                    sizes = DenseArrayBase.from_list(
                        i64,
                        parser.parse_comma_separated_list(
                            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
                        ),
                    )
                if parser.parse_optional_keyword("subgroup_size") is not None:
                    parser.parse_punctuation("=")
                    subgroup = parser.parse_integer(allow_boolean=False)
                config: Attribute = NoneAttr()
                if parser.parse_optional_punctuation(",") is not None:
                    config = parser.parse_attribute()
                    if not isinstance(config, DictionaryAttr):
                        parser.raise_error("expected a dictionary of pipeline configuration")
            return [pipeline, spec, sizes, IntAttr(subgroup), config]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("pipeline = ")
            if isinstance(self.pass_pipeline, DispatchLoweringPassPipelineAttr):
                printer.print_string(self.pass_pipeline.pipeline.data)
            else:
                printer.print_attribute(self.pass_pipeline)
            if not isinstance(self.codegen_spec, NoneAttr):
                printer.print_string(" codegen_spec = ")
                printer.print_attribute(self.codegen_spec)
            if not isinstance(self.workgroup_size, NoneAttr):
                printer.print_string(" workgroup_size = [")
                printer.print_string(", ".join(str(v) for v in self.workgroup_size_values))
                printer.print_string("]")
            if self.subgroup_size.data:
                printer.print_string(f" subgroup_size = {self.subgroup_size.data}")
            if not isinstance(self.configuration, NoneAttr):
                printer.print_string(", ")
                printer.print_attribute(self.configuration)


# IREE's DispatchLoweringPassPipeline enum (IREECodegenAttrs.td).
DISPATCH_LOWERING_PASS_PIPELINES = (
    "CPUDefault", "CPUDoubleTilingExpert", "CPUConvTileAndDecomposeExpert", "Mmt4dTilingExpert",
    "CPUBufferOpsTileAndVectorize", "CPUDataTiling", "CPULinalgExtTileAndVectorize",
    "LLVMGPUDefault", "LLVMGPUBaseLowering", "LLVMGPUDistribute", "LLVMGPUVectorize",
    "LLVMGPUTransposeSharedMem", "LLVMGPUVectorDistribute", "LLVMGPUWinogradVectorize", "LLVMGPUTileAndFuse",
    "SPIRVBaseLowering", "SPIRVBaseDistribute", "SPIRVBaseVectorize", "SPIRVSubgroupReduce",
    "SPIRVMatmulPromoteVectorize", "SPIRVCooperativeMatrixVectorize", "SPIRVWinogradVectorize",
    "VMVXDefault", "TransformDialectCodegen", "Custom", "None",
)  # fmt: skip


@irdl_attr_definition(init=False)
class DispatchLoweringPassPipelineAttr(ParametrizedAttribute, PipelineAttr):
    """One of IREE's named codegen pipelines; `translation_info` prints it bare.

    ```mlir
    #iree_codegen.translation_info<pipeline = CPUDefault>
    ```
    """

    name = "iree_codegen.dispatch_lowering_pass_pipeline"

    pipeline: StringAttr

    def __init__(self, pipeline: str):
        super().__init__(StringAttr(pipeline))

    def verify(self) -> None:
        if self.pipeline.data not in DISPATCH_LOWERING_PASS_PIPELINES:
            raise VerifyException(f"unknown dispatch lowering pass pipeline '{self.pipeline.data}'")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [StringAttr(_parse_pipeline_name(parser))]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.pipeline.data}>")


def _parse_pipeline_name(parser: AttrParser) -> str:
    start = parser.pos
    name = parser.parse_identifier(" dispatch lowering pass pipeline name")
    if name not in DISPATCH_LOWERING_PASS_PIPELINES:
        parser.raise_error(f"failed to parse DispatchLoweringPassPipelineAttr: unknown pipeline '{name}'", start, parser.pos)
    return name


def _parse_pipeline(parser: AttrParser) -> Attribute:
    """`pipeline = CPUDefault` (a named pipeline) or `pipeline = #iree_gpu.pipeline<...>`."""
    if parser._current_token.kind.name == "BARE_IDENT":
        return DispatchLoweringPassPipelineAttr(_parse_pipeline_name(parser))
    return parser.parse_attribute()


class _UnitPipelineAttr(ParametrizedAttribute, PipelineAttr):
    """A pipeline without parameters, printed as its bare name."""

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return []

    def print_parameters(self, printer: Printer) -> None:
        pass


@irdl_attr_definition(init=False)
class NoPipelineAttr(_UnitPipelineAttr):
    """No lowering pipeline: `#iree_codegen.no_pipeline`."""

    name = "iree_codegen.no_pipeline"


@irdl_attr_definition(init=False)
class VMVXPipelineAttr(_UnitPipelineAttr):
    """The VMVX lowering pipeline: `#iree_codegen.vmvx_pipeline`."""

    name = "iree_codegen.vmvx_pipeline"


@irdl_attr_definition(init=False)
class TransformDialectCodegenPipelineAttr(_UnitPipelineAttr):
    """Lowering by a transform-dialect script (`codegen_spec`): `#iree_codegen.transform_dialect_codegen`."""

    name = "iree_codegen.transform_dialect_codegen"


@irdl_attr_definition(init=False)
class PassPipelineAttr(ParametrizedAttribute, PipelineAttr):
    """A textual pass pipeline: `#iree_codegen.pass_pipeline<"canonicalize">`."""

    name = "iree_codegen.pass_pipeline"

    pipeline: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [StringAttr(parser.parse_str_literal())]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.pipeline.data)


@irdl_attr_definition(init=False)
class WorkgroupLocalMemoryAttr(ParametrizedAttribute):
    """The memory space of workgroup-local allocations on the CPU: `#iree_codegen.workgroup_local`."""

    name = "iree_codegen.workgroup_local"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return []

    def print_parameters(self, printer: Printer) -> None:
        pass


@irdl_attr_definition(init=False)
class WorkgroupScopeAttr(ParametrizedAttribute):
    """Distribution over workgroups: `#iree_codegen.workgroup_scope` or
    `#iree_codegen.workgroup_scope<linearize>`."""

    name = "iree_codegen.workgroup_scope"

    linearize: IntegerAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        linearize = False
        if parser.parse_optional_punctuation("<") is not None:
            parser.parse_keyword("linearize")
            parser.parse_punctuation(">")
            linearize = True
        return [IntegerAttr.from_bool(linearize)]

    def print_parameters(self, printer: Printer) -> None:
        if self.linearize.value.data:
            printer.print_string("<linearize>")


@irdl_attr_definition(init=False)
class ExportConfigAttr(ParametrizedAttribute):
    """Launch configuration of an export: `#iree_codegen.export_config<workgroup_size = [4, 1]>`."""

    name = "iree_codegen.export_config"

    workgroup_size: DenseArrayBase

    def verify(self) -> None:
        if len(self.workgroup_size.get_values()) > 3:
            raise VerifyException("expected workgroup size to have atmost 3 entries")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse() -> list[Attribute]:
            with parser.in_angle_brackets():
                parser.parse_keyword("workgroup_size")
                parser.parse_punctuation("=")
                sizes = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
                )
            return [DenseArrayBase.from_list(i64, sizes)]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        sizes = ", ".join(str(v) for v in self.workgroup_size.get_values())
        printer.print_string(f"<workgroup_size = [{sizes}]>")


class LoweringConfigAttrInterface(ABC):
    """An attribute that can be an op's `lowering_config` (`LoweringConfigAttrInterface`)."""


@irdl_attr_definition(init=False)
class LoweringConfigAttr(ParametrizedAttribute, LoweringConfigAttrInterface):
    """Tile sizes per tiling level: `#iree_codegen.lowering_config<tile_sizes = [[64, 64, 0], [8, [16], 0]]>`.

    A size in brackets is scalable (a multiple of the vector length). Each level
    is an array of sizes; a scalable size is a one-element array.
    """

    name = "iree_codegen.lowering_config"

    tiling_levels: ArrayAttr[Attribute]
    """Each level an array of sizes (a scalable size a one-element array), or a
    `LoweringConfigTilingLevelAttr` when it has an interchange."""

    def __init__(self, tile_sizes: Sequence[Sequence[int]]):
        super().__init__(ArrayAttr(ArrayAttr(IntAttr(v) for v in level) for level in tile_sizes))

    def asm_alias(self) -> str | None:
        return "config"

    @property
    def tile_sizes(self) -> list[list[int]]:
        return [
            [int(v) for v in level.sizes.get_values()]
            if isinstance(level, LoweringConfigTilingLevelAttr)
            else [e.data[0].data if isinstance(e, ArrayAttr) else e.data for e in level.data]  # type: ignore[union-attr]
            for level in self.tiling_levels.data
        ]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def size() -> Attribute:
            if parser.parse_optional_punctuation("[") is not None:
                value = parser.parse_integer(allow_boolean=False)
                parser.parse_punctuation("]")
                return ArrayAttr([IntAttr(value)])
            return IntAttr(parser.parse_integer(allow_boolean=False))

        def level() -> Attribute:
            if parser._current_token.text == "{":
                return LoweringConfigTilingLevelAttr.parse_body(parser)
            return ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, size))

        with parser.in_angle_brackets():
            parser.parse_keyword("tile_sizes")
            parser.parse_punctuation("=")
            levels = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, level)
        return [ArrayAttr(levels)]

    def print_parameters(self, printer: Printer) -> None:
        def size(entry: Attribute) -> str:
            return f"[{entry.data[0].data}]" if isinstance(entry, ArrayAttr) else str(entry.data)  # type: ignore[attr-defined]

        printer.print_string("<tile_sizes = [")
        for i, level in enumerate(self.tiling_levels.data):
            if i:
                printer.print_string(", ")
            if isinstance(level, LoweringConfigTilingLevelAttr):
                level.print_body(printer)
            else:
                printer.print_string("[" + ", ".join(size(e) for e in level.data) + "]")  # pyright: ignore[reportAttributeAccessIssue]
        printer.print_string("]>")


@irdl_attr_definition(init=False)
class LoweringConfigTilingLevelAttr(ParametrizedAttribute):
    """The tile sizes of one tiling level, with optional interchange.

    ```mlir
    #iree_codegen.lowering_config_level<[0, [32], 16]>
    #iree_codegen.lowering_config_level<{sizes = [0, [32], 16], interchange = [0, 1, 2]}>
    ```

    A size in brackets is scalable. Lowering configs write levels without the
    prefix (`parse_body` / `print_body`).
    """

    name = "iree_codegen.lowering_config_level"

    sizes: DenseArrayBase
    interchange: DenseArrayBase
    scalable_flags: DenseArrayBase

    def __init__(self, sizes: Sequence[int], interchange: Sequence[int] = (), scalable_flags: Sequence[bool] = ()):
        super().__init__(
            DenseArrayBase.from_list(i64, list(sizes)),
            DenseArrayBase.from_list(i64, list(interchange)),
            DenseArrayBase.from_list(i64, [int(f) for f in scalable_flags]),
        )

    def verify(self) -> None:
        flags, sizes = self.scalable_flags.get_values(), self.sizes.get_values()
        if flags and len(flags) != len(sizes):
            raise VerifyException("scalable flags length does not match tile sizes")

    @staticmethod
    def parse_body(parser: AttrParser) -> LoweringConfigTilingLevelAttr:
        def sizes_list(scalable: list[bool] | None, prefix_checked: bool = False) -> list[int]:
            if not prefix_checked:
                parser.parse_punctuation("[")
            values: list[int] = []
            if parser.parse_optional_punctuation("]") is not None:
                return values

            def one() -> None:
                is_scalable = scalable is not None and parser.parse_optional_punctuation("[") is not None
                values.append(parser.parse_integer(allow_boolean=False))
                if is_scalable:
                    parser.parse_punctuation("]")
                if scalable is not None:
                    scalable.append(is_scalable)

            parser.parse_comma_separated_list(parser.Delimiter.NONE, one)
            parser.parse_punctuation("]")
            return values

        flags: list[bool] = []
        interchange: list[int] = []
        if parser.parse_optional_punctuation("[") is not None:
            sizes = sizes_list(flags, prefix_checked=True)
        else:
            parser.parse_punctuation("{")
            parser.parse_keyword("sizes")
            parser.parse_punctuation("=")
            sizes = sizes_list(flags)
            parser.parse_punctuation(",")
            parser.parse_keyword("interchange")
            parser.parse_punctuation("=")
            interchange = sizes_list(None)
            parser.parse_punctuation("}")
        # A level without scalable sizes stores no flags, as IREE's builder does.
        return LoweringConfigTilingLevelAttr(sizes, interchange, flags if any(flags) else ())

    def print_body(self, printer: Printer) -> None:
        sizes, flags = self.sizes.get_values(), self.scalable_flags.get_values()
        text = ", ".join(f"[{v}]" if flags and flags[i] else str(v) for i, v in enumerate(sizes))
        interchange = self.interchange.get_values()
        if not interchange:
            printer.print_string(f"[{text}]")
        else:
            printer.print_string(f"{{sizes = [{text}], interchange = [{', '.join(map(str, interchange))}]}}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            level = cls.parse_body(parser)
        return list(level.parameters)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)


@irdl_attr_definition(init=False)
class XORShuffleAttr(ParametrizedAttribute):
    """A shared-memory swizzle: rows of `row_width` elements accessed
    `access_width` at a time, access `j` of row `i` moved to `(i / per_phase) % N
    XOR j` (`N = row_width / access_width`).

    ```mlir
    #iree_codegen.xor_shuffle<256, 32>
    #iree_codegen.xor_shuffle<256, 32, 512, 2>
    ```

    The optional `row_stride` and `per_phase` are 0 when absent.
    """

    name = "iree_codegen.xor_shuffle"

    row_width: IntAttr
    access_width: IntAttr
    row_stride: IntAttr
    per_phase: IntAttr

    def verify(self) -> None:
        row, access = self.row_width.data, self.access_width.data
        if access == 0 or row % access != 0:
            raise VerifyException("expected access width to divide row width")
        if self.per_phase.data > row // access:
            raise VerifyException("per_phase must be smaller than max_phase")
        if row == 0 or self.row_stride.data % row != 0:
            raise VerifyException("expected row width to divide row stride")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse() -> list[Attribute]:
            with parser.in_angle_brackets():
                values = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, lambda: parser.parse_integer(allow_boolean=False)
                )
            if not 2 <= len(values) <= 4:
                parser.raise_error("expected row_width, access_width and optionally row_stride and per_phase")
            return [IntAttr(v) for v in values + [0] * (4 - len(values))]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        values = [self.row_width.data, self.access_width.data]
        values += [v.data for v in (self.row_stride, self.per_phase) if v.data]
        printer.print_string("<" + ", ".join(map(str, values)) + ">")


@irdl_attr_definition(init=False)
class CompilationInfoAttr(ParametrizedAttribute):
    """A preset lowering for one op, set on the compiler's input: data tiling leaves such ops alone.

    ```mlir
    #iree_codegen.compilation_info<
        lowering_config = #iree_codegen.lowering_config<tile_sizes = [[0, 0, 0]]>,
        translation_info = #iree_codegen.translation_info<pipeline = CPUDefault>>
    ```
    """

    name = "iree_codegen.compilation_info"

    lowering_config: Attribute
    translation_info: Attribute

    def __init__(self, lowering_config: Attribute, translation_info: Attribute):
        super().__init__(lowering_config, translation_info)

    def asm_alias(self) -> str | None:
        return "compilation"

    def verify(self) -> None:
        # IREE's CompilationInfoAttr::verify.
        if not isinstance(self.lowering_config, LoweringConfigAttrInterface):
            raise VerifyException("missing lowering config")
        if not isinstance(self.translation_info, TranslationInfoAttr):
            raise VerifyException("missing translation info")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse() -> list[Attribute]:
            with parser.in_angle_brackets():
                parser.parse_keyword("lowering_config")
                parser.parse_punctuation("=")
                config = parser.parse_attribute()
                parser.parse_punctuation(",")
                parser.parse_keyword("translation_info")
                parser.parse_punctuation("=")
                translation = parser.parse_attribute()
            return [config, translation]

        return parse_verified(parser, cls, parse)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<lowering_config = ")
        printer.print_attribute(self.lowering_config)
        printer.print_string(", translation_info = ")
        printer.print_attribute(self.translation_info)
        printer.print_string(">")


# ===----------------------------------------------------------------------=== #
# Operations
# ===----------------------------------------------------------------------=== #


def _compatible_shapes(lhs: Sequence[int], rhs: Sequence[int]) -> bool:
    """MLIR's verifyCompatibleShape: same rank, static extents agree."""
    return len(lhs) == len(rhs) and all(a == b or DYNAMIC_INDEX in (a, b) for a, b in zip(lhs, rhs))


@irdl_op_definition
class LoadFromBufferOp(IRDLOperation):
    """Loads a whole tensor from a memref of compatible shape.

    ```mlir
    %t = iree_codegen.load_from_buffer %buf : memref<?x?xf32> -> tensor<?x?xf32>
    ```
    """

    name = "iree_codegen.load_from_buffer"

    buffer = operand_def(MemRefType)
    tensor = result_def(TensorType)

    traits = traits_def(MemoryReadEffect())

    assembly_format = "$buffer attr-dict `:` type($buffer) `->` type($tensor)"

    def __init__(self, buffer: SSAValue, result_type: TensorType):
        super().__init__(operands=[buffer], result_types=[result_type])

    def verify_(self) -> None:
        buffer_type, tensor_type = self.buffer.type, self.tensor.type
        assert isinstance(buffer_type, MemRefType) and isinstance(tensor_type, TensorType)
        if (
            not _compatible_shapes(tensor_type.get_shape(), buffer_type.get_shape())
            or tensor_type.element_type != buffer_type.element_type
        ):
            raise VerifyException("buffer and tensor shapes must be compatible and element types must match")


@irdl_op_definition
class StoreToBufferOp(IRDLOperation):
    """Stores a whole tensor into a memref of compatible shape.

    ```mlir
    iree_codegen.store_to_buffer %t, %buf : tensor<?x?xf32> into memref<?x?xf32>
    ```
    """

    name = "iree_codegen.store_to_buffer"

    tensor = operand_def(TensorType)
    buffer = operand_def(MemRefType)

    traits = traits_def(MemoryWriteEffect())

    assembly_format = "$tensor `,` $buffer attr-dict `:` type($tensor) `into` type($buffer)"

    def __init__(self, tensor: SSAValue, buffer: SSAValue):
        super().__init__(operands=[tensor, buffer])

    def verify_(self) -> None:
        tensor_type, buffer_type = self.tensor.type, self.buffer.type
        assert isinstance(buffer_type, MemRefType) and isinstance(tensor_type, TensorType)
        if (
            not _compatible_shapes(tensor_type.get_shape(), buffer_type.get_shape())
            or tensor_type.element_type != buffer_type.element_type
        ):
            raise VerifyException("tensor and buffer shapes must be compatible and element types must match")


@irdl_op_definition
class UKernelGenericOp(IRDLOperation):
    """A computation forwarded to a microkernel, named by a string.

    ```mlir
    %0:2 = iree_codegen.ukernel.generic "foo"
        ins(%in0, %in1 : tensor<?x?xf32>, tensor<?xf32>)
        outs(%out0, %out1 : tensor<?xf32>, tensor<?x?xf32>)
        (%b0, %b1 : f32, i64) strided_dims([[0, 1], [], [1]])
        -> tensor<?xf32>, tensor<?x?xf32>
    ```

    Destination style: each tensor output has a result of its type.
    """

    name = "iree_codegen.ukernel.generic"

    inputs = var_operand_def()
    outputs = var_operand_def()
    other_operands = var_operand_def()
    results_ = var_result_def()
    u_kernel_fn_name = prop_def(StringAttr)
    fn_def_attrs = opt_prop_def(DictionaryAttr)
    strided_dims = opt_prop_def(ArrayAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> UKernelGenericOp:
        attributes = parser.parse_optional_attr_dict()
        properties: dict[str, Attribute] = {"u_kernel_fn_name": StringAttr(parser.parse_str_literal())}

        def operand_group() -> list[SSAValue]:
            operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            return parser.resolve_operands(operands, types, pos)

        groups: list[list[SSAValue]] = []
        for keyword in ("ins", "outs", None):
            if keyword is not None and parser.parse_optional_keyword(keyword) is None:
                groups.append([])
                continue
            if parser.parse_optional_punctuation("(") is None:
                if keyword is not None:
                    parser.parse_punctuation("(")
                groups.append([])
                continue
            groups.append(operand_group())
        if parser.parse_optional_keyword("fn_def_attrs") is not None:
            properties["fn_def_attrs"] = parser.parse_attribute()
        if parser.parse_optional_keyword("strided_dims") is not None:
            parser.parse_punctuation("(")
            properties["strided_dims"] = parser.parse_attribute()
            parser.parse_punctuation(")")
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(g) for g in groups])
        return cls.create(
            operands=[v for g in groups for v in g],
            result_types=result_types,
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_string_literal(self.u_kernel_fn_name.data)
        for keyword, values in (("ins", self.inputs), ("outs", self.outputs), ("", self.other_operands)):
            if not values:
                continue
            printer.print_string(f" {keyword}(" if keyword else " (")
            printer.print_list(values, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list(values.types, printer.print_attribute)
            printer.print_string(")")
        if self.fn_def_attrs is not None:
            printer.print_string(" fn_def_attrs ")
            printer.print_attribute(self.fn_def_attrs)
        if self.strided_dims is not None:
            printer.print_string(" strided_dims(")
            printer.print_attribute(self.strided_dims)
            printer.print_string(")")
        if self.results_:
            printer.print_string(" -> ")
            printer.print_list(self.results_.types, printer.print_attribute)

    def verify_(self) -> None:
        for index, output in enumerate(self.outputs):
            if not isinstance(output.type, TensorType | MemRefType):
                raise VerifyException(
                    f"operand #{len(self.inputs) + index} must be variadic of ranked tensor or memref of any "
                    f"type, but got '{output.type}'"
                )
        # DestinationStyleOpInterface: one result per tensor output, of its type.
        tensor_outputs = [(i, o) for i, o in enumerate(self.outputs) if isinstance(o.type, TensorType)]
        if len(self.results_) != len(tensor_outputs):
            raise VerifyException(
                f"expected the number of tensor results ({len(self.results_)}) to be equal to the number of "
                f"output tensors ({len(tensor_outputs)})"
            )
        for (index, output), result in zip(tensor_outputs, self.results_):
            if output.type != result.type:
                raise VerifyException(
                    f"expected type of operand #{len(self.inputs) + index} ('{output.type}') to match type of "
                    f"corresponding result ('{result.type}')"
                )


@irdl_op_definition
class QueryTileSizesOp(IRDLOperation):
    """The inner tile sizes of an encoded tensor type, asked of the runtime (VMVX's microkernels
    choose them when the executable runs; the compiler leaves them dynamic).

    ```mlir
    %tiles:2 = iree_codegen.query_tile_sizes tensor<?x?xi8, #encoding> -> index, index
    ```
    """

    name = "iree_codegen.query_tile_sizes"

    # Checked in verify_ with ODS's messages (TensorTypeAttr, Variadic<Index>).
    tensor_type = prop_def(Attribute)
    results_ = var_result_def(Attribute)

    traits = traits_def(Pure())

    assembly_format = "attr-dict $tensor_type `->` type($results_)"

    def __init__(self, tensor_type: TensorType, count: int | None = None):
        count = len(tensor_type.get_shape()) if count is None else count
        super().__init__(properties={"tensor_type": tensor_type}, result_types=[[IndexType()] * count])

    def verify_(self) -> None:
        if not isinstance(self.tensor_type, TensorType):
            raise VerifyException("attribute 'tensor_type' failed to satisfy constraint: Tensor type attribute")
        for result in self.results_:
            if not isinstance(result.type, IndexType):
                raise VerifyException(f"result #0 must be variadic of index, but got '{result.type}'")


@irdl_op_definition
class FusionBarrierOp(IRDLOperation):
    """Keeps producers and consumers of a tensor from fusing through it.

    ```mlir
    %1 = iree_codegen.fusion_barrier %0 : tensor<6x?xf32>
    ```
    """

    name = "iree_codegen.fusion_barrier"

    T: ClassVar = VarConstraint("T", base(TensorType))
    source = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "attr-dict $source `:` type($result)"

    def __init__(self, source: SSAValue):
        super().__init__(operands=[source], result_types=[source.type])


@irdl_op_definition
class IndexHintOp(IRDLOperation):
    """Annotates an index with how it varies across lanes; a pass-through.

    ```mlir
    %row = iree_codegen.index_hint %idx(#iree_gpu.lane_constant<16>) : index
    ```
    """

    name = "iree_codegen.index_hint"

    input = operand_def(IndexType)
    hint = prop_def(Attribute)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "$input `(` $hint `)` attr-dict `:` type($input)"


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminates the regions of `iree_codegen` ops.

    ```mlir
    iree_codegen.yield %x, %y, %z : index, index, index
    ```
    """

    name = "iree_codegen.yield"

    values = var_operand_def()

    traits = traits_def(Pure(), IsTerminator())

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class DispatchConfigOp(IRDLOperation):
    """The workgroup count computation and launch metadata of a dispatch function.

    ```mlir
    iree_codegen.dispatch_config @matmul workgroup_size = [64, 16, 1] subgroup_size = 64 {
    ^bb0(%w0: index, %w1: index):
      %c1 = arith.constant 1 : index
      iree_codegen.yield %w0, %w1, %c1 : index, index, index
    }
    ```

    The region maps the workload (its block arguments) to the workgroup count
    (x, y, z) it yields.
    """

    name = "iree_codegen.dispatch_config"

    function_ref = prop_def(SymbolRefAttr)
    workgroup_size = opt_prop_def(DenseArrayBase)
    subgroup_size = opt_prop_def(IntegerAttr)
    workgroup_local_memory = opt_prop_def(IntegerAttr)
    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (IsolatedFromAbove(), SingleBlockImplicitTerminator(YieldOp)))

    @classmethod
    def parse(cls, parser: Parser) -> DispatchConfigOp:
        properties: dict[str, Attribute] = {"function_ref": SymbolRefAttr(parser.parse_symbol_name())}
        if parser.parse_optional_keyword("workgroup_size") is not None:
            parser.parse_punctuation("=")
            sizes = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
            )
            properties["workgroup_size"] = DenseArrayBase.from_list(i64, sizes)
        if parser.parse_optional_keyword("subgroup_size") is not None:
            parser.parse_punctuation("=")
            properties["subgroup_size"] = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
        if parser.parse_optional_keyword("workgroup_local_memory") is not None:
            parser.parse_punctuation("=")
            properties["workgroup_local_memory"] = IntegerAttr(
                parser.parse_integer(allow_boolean=False), IndexType()
            )
        body = parser.parse_region()
        attributes = parser.parse_optional_attr_dict()
        # SingleBlockImplicitTerminator: the custom form may leave out the
        # block of an empty region and an empty yield.
        if not body.blocks:
            body.add_block(Block())
        if body.block.last_op is None or not body.block.last_op.has_trait(IsTerminator):
            body.block.add_op(YieldOp())
        return cls.create(properties=properties, attributes=attributes, regions=[body])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.function_ref)
        if self.workgroup_size is not None:
            sizes = ", ".join(str(v) for v in self.workgroup_size.get_values())
            printer.print_string(f" workgroup_size = [{sizes}]")
        if self.subgroup_size is not None:
            printer.print_string(f" subgroup_size = {self.subgroup_size.value.data}")
        if self.workgroup_local_memory is not None:
            printer.print_string(f" workgroup_local_memory = {self.workgroup_local_memory.value.data}")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True, print_empty_block=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.workgroup_size is not None:
            count = len(self.workgroup_size.get_values())
            if not 1 <= count <= 3:
                raise VerifyException(f"workgroup_size must have 1 to 3 entries, got {count}")
        terminator = self.body.block.last_op if self.body.blocks else None
        if not isinstance(terminator, YieldOp):
            return  # the block's own verifier reports a missing terminator
        if len(terminator.values) != 3:
            raise VerifyException(
                "expected terminator to yield exactly 3 operands (workgroup count x, y, z), "
                f"got {len(terminator.values)}"
            )
        for index, value in enumerate(terminator.values):
            if not isinstance(value.type, IndexType):
                raise VerifyException(f"expected terminator operand #{index} to be index type, got {value.type}")


_INNER_TILED_PROPS = ("indexing_maps", "iterator_types", "kind", "semantics", "permutations")


@irdl_op_definition
class InnerTiledOp(IRDLOperation):
    """A contraction over operands tiled by an intrinsic (`kind`).

    Each operand is `outer dims x inner tile`. The outer dims are indexed by
    `indexing_maps` and iterated like `vector.contract`'s (`iterator_types`); at
    every outer point the inner tiles of the outputs are updated from those of
    the inputs by the intrinsic `kind`. `semantics` says whether the inner tiles
    are a subgroup's (`distributed = false`) or one thread's share.

    ```mlir
    %r = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [#map, #map1, #map2],
        iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>,
                          #linalg.iterator_type<reduction>],
        kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4,
            subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4,
            operands_interleaving_intrinsics_k = [0, 1]>,
        semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>>
        : tensor<?x?x2x4x4x16x4xf32>, tensor<?x?x2x4x4x16x4xf32> into tensor<?x?x2x2x4x4x4x16x4xf32>
    ```

    The op's inherent attributes print as `<...>` (IREE 3.13); IR written before
    `semantics` existed spells them in the attribute dictionary,
    `outs(%acc) {indexing_maps = ..., kind = ...} : ...`, and is printed back
    that way. Without `semantics` the inner tiles are not checked against `kind`,
    as in that older IR.
    """

    name = "iree_codegen.inner_tiled"

    inputs = var_operand_def(TensorType | VectorType)
    outputs = var_operand_def(TensorType | VectorType)
    res = var_result_def(TensorType | VectorType)

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[Attribute])
    kind = prop_def(Attribute)
    semantics = opt_prop_def(Attribute)
    permutations = opt_prop_def(ArrayAttr[DenseArrayBase])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        indexing_maps: Sequence[AffineMap | AffineMapAttr],
        iterator_types: Sequence[Attribute],
        kind: Attribute,
        semantics: Attribute | None = None,
        permutations: Sequence[Sequence[int]] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        properties: dict[str, Attribute | None] = {
            "indexing_maps": ArrayAttr([AffineMapAttr(m) if isinstance(m, AffineMap) else m for m in indexing_maps]),
            "iterator_types": ArrayAttr(iterator_types),
            "kind": kind,
            "semantics": semantics,
            "permutations": None
            if permutations is None
            else ArrayAttr([DenseArrayBase.from_list(i64, p) for p in permutations]),
        }
        super().__init__(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs]],
            properties=properties,
            attributes=attributes,
        )

    def indexing_maps_list(self) -> list[AffineMap]:
        return [m.data for m in self.indexing_maps.data]

    def kind_operand_order(self) -> list[int]:
        """For each operand of the kind, the index of the op operand holding it."""
        kind = self.kind
        legacy = kind.LEGACY_OPERAND_ORDER if isinstance(kind, InnerTileDescAttr) else None
        if self.semantics is None and legacy is not None and len(legacy) == len(self.operands):
            return list(legacy)
        return list(range(len(self.operands)))

    def operand_inner_shape(self, index: int) -> tuple[int, ...]:
        """The trailing dims of operand `index` that its indexing map skips."""
        ty = self.operands[index].type
        assert isinstance(ty, TensorType | VectorType)
        return ty.get_shape()[len(self.indexing_maps_list()[index].results) :]

    def iteration_bounds(self) -> list[int | None]:
        """Each loop's extent, from the first operand dim it indexes (None if unused)."""
        bounds: list[int | None] = [None] * len(self.iterator_types.data)
        for operand, map in zip(self.operands, self.indexing_maps_list()):
            ty = operand.type
            assert isinstance(ty, TensorType | VectorType)
            for expr, size in zip(map.results, ty.get_shape()):
                if isinstance(expr, AffineDimExpr) and expr.position < len(bounds) and bounds[expr.position] is None:
                    bounds[expr.position] = size
        return bounds

    @classmethod
    def parse(cls, parser: Parser) -> InnerTiledOp:
        parser.parse_keyword("ins")
        inputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("outs")
        outputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("<") is not None:
            properties = _parse_key_value_list(parser)
        attributes = parser.parse_optional_attr_dict()
        # IR printed before the op had properties keeps them in the attribute
        # dictionary; they are inherent either way.
        for name in _INNER_TILED_PROPS:
            if name in attributes and name not in properties:
                properties[name] = attributes.pop(name)
        parser.parse_punctuation(":")
        types_pos = parser.pos
        input_types: list[Attribute] = []
        if parser.parse_optional_keyword("into") is None:
            input_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_keyword("into")
        output_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        input_values = parser.resolve_operands(inputs, input_types, types_pos)
        output_values = parser.resolve_operands(outputs, output_types, types_pos)
        op = cls.create(
            operands=[*input_values, *output_values],
            result_types=output_types,
            properties=properties,
            attributes=attributes,
        )
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(inputs), len(outputs)])
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ins(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(") outs(")
        printer.print_list(self.outputs, printer.print_operand)
        printer.print_string(")")
        inherent = {name: self.properties[name] for name in _INNER_TILED_PROPS if name in self.properties}
        if self.semantics is None:
            # A dictionary attribute, sorted by name as MLIR stores it.
            merged = {**inherent, **self.attributes}
            printer.print_op_attributes({name: merged[name] for name in sorted(merged)})
        else:
            printer.print_string(" <")
            printer.print_list(inherent.items(), lambda item: _print_key_value(printer, item))
            printer.print_string(">")
            printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(self.inputs.types, printer.print_attribute)
        if self.inputs:
            printer.print_string(" ")
        printer.print_string("into ")
        printer.print_list(self.outputs.types, printer.print_attribute)

    def verify_(self) -> None:
        kind = self.kind
        if not isinstance(kind, InnerTileDescAttr):
            raise VerifyException(f"expected kind to implement InnerTileDescAttrInterface, but got {kind}")
        num_inputs, num_outputs = kind.expected_num_inputs(), kind.expected_num_outputs()
        if len(self.inputs) != num_inputs:
            raise VerifyException(
                f"number of inputs ({len(self.inputs)}) doesn't match expected number from kind ({num_inputs})"
            )
        if len(self.outputs) != num_outputs:
            raise VerifyException(
                f"number of outputs ({len(self.outputs)}) doesn't match expected number from kind ({num_outputs})"
            )
        semantics = self.semantics
        if semantics is not None:
            if not isinstance(semantics, InnerTiledSemanticsAttr):
                raise VerifyException(
                    f"expected semantics to implement InnerTiledSemanticsAttrInterface, but got {semantics}"
                )
            kind_ns, sem_ns = kind.name.split(".")[0], semantics.name.split(".")[0]
            if kind_ns != sem_ns:
                raise VerifyException(
                    f"kind attribute (dialect '{kind_ns}') and semantics attribute (dialect '{sem_ns}') "
                    "must use the same dialect namespace"
                )
        if len(self.res) != len(self.outputs) or self.res.types != self.outputs.types:
            raise VerifyException("expected result types to match the output types")
        for iterator in self.iterator_types.data:
            if not _is_iterator_type(iterator):
                raise VerifyException(
                    f"expected iterator_types to be #linalg.iterator_type attributes, but got {iterator}"
                )

        maps = self.indexing_maps_list()
        if len(maps) != num_inputs + num_outputs:
            raise VerifyException("expected an indexing map for each operand")
        num_iterators = len(self.iterator_types.data)
        for index, (map, operand) in enumerate(zip(maps, self.operands)):
            rank = len(_shape(operand))
            if map.num_symbols != 0:
                raise VerifyException(f"expected indexing map {index} to have no symbols")
            if map.num_dims != num_iterators:
                raise VerifyException(f"expected indexing map {index} to have {num_iterators} input dims")
            if len(map.results) >= rank:
                raise VerifyException(f"expected indexing map {index} to have fewer than {rank} results")
            if not map.is_projected_permutation():
                raise VerifyException(f"expected indexing map {index} to be a projected permutation")
        if not kind.verify_indexing_maps([maps[i] for i in self.kind_operand_order()]):
            raise VerifyException("failed to verify indexing maps")

        bounds = self.iteration_bounds()
        for map, operand in zip(maps, self.operands):
            for expr, size in zip(map.results, _shape(operand)):
                assert isinstance(expr, AffineDimExpr)
                if size != bounds[expr.position]:
                    raise VerifyException("shape does not match iteration bounds")

        self._verify_permutations(maps)
        if isinstance(semantics, InnerTiledSemanticsAttr):
            self._verify_inner_tiles(kind, semantics)

    def _verify_permutations(self, maps: Sequence[AffineMap]) -> None:
        if self.permutations is None:
            return
        perms = self.permutations.data
        if len(perms) != len(self.operands):
            raise VerifyException(
                f"mismatch between the number of permutations ({len(perms)}) and "
                f"the number of operands ({len(self.operands)})"
            )
        for index, perm_attr in enumerate(perms):
            perm = [int(v) for v in perm_attr.get_values()]
            operand_type = self.operands[index].type
            inner_rank = len(_shape(self.operands[index])) - len(maps[index].results)
            if len(perm) != inner_rank:
                raise VerifyException(
                    f"permutation #{index} length {len(perm)} does not match the inner rank {inner_rank} "
                    f"of the corresponding operand of type {operand_type}"
                )
            if sorted(perm) != list(range(len(perm))):
                raise VerifyException(f"permutation #{index} is not a permutation vector")

    def _verify_inner_tiles(self, kind: InnerTileDescAttr, semantics: InnerTiledSemanticsAttr) -> None:
        """Each operand's inner tile must match the intrinsic's tile type.

        Opaque semantics only compare element counts; otherwise the shapes must
        agree once unit dims are dropped. Kinds that cannot describe their tiles
        are not checked.
        """
        expected = semantics.tile_types(kind)
        if expected is None or len(expected) != len(self.operands):
            return
        opaque = semantics.is_opaque()
        permutations = [None] * len(self.operands) if self.permutations is None else self.permutations.data
        for index, (operand, vector, perm) in enumerate(zip(self.operands, expected, permutations)):
            shape, scalable = list(vector.get_shape()), list(vector.get_scalable_dims())
            if perm is not None and not opaque:
                order = [int(p) for p in perm.get_values()]
                shape, scalable = [shape[p] for p in order], [scalable[p] for p in order]
            vector = VectorType(
                vector.element_type,
                shape,
                ArrayAttr([BoolAttr.from_bool(s) for s in scalable]) if any(scalable) else None,
            )
            element_type = operand.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
            inner = self.operand_inner_shape(index)
            if not _tiles_match(inner, element_type, vector, opaque):
                # MLIR quotes the types it streams into a diagnostic.
                raise VerifyException(
                    f"operand #{index} inner tile '{TensorType(element_type, inner)}' is incompatible with "
                    f"expected MMA tile type '{vector}'"
                )


def _tiles_match(inner: Sequence[int], element_type: Attribute, vector: VectorType, opaque: bool) -> bool:
    """IREE's matchTileTypes: opaque tiles compare element counts; otherwise the
    shapes once unit dims are dropped, a scalable MMA dim matching only a
    dynamic tensor dim."""
    if element_type != vector.element_type:
        return False
    if opaque:
        return (
            DYNAMIC_INDEX not in inner
            and not any(vector.get_scalable_dims())
            and _product(inner) == _product(vector.get_shape())
        )
    tensor_dims = [d for d in inner if d != 1]
    vector_dims = [
        (size, scalable)
        for size, scalable in zip(vector.get_shape(), vector.get_scalable_dims())
        if scalable or size != 1
    ]
    if len(tensor_dims) != len(vector_dims):
        return False
    for tensor_size, (vector_size, scalable) in zip(tensor_dims, vector_dims):
        if scalable and tensor_size != DYNAMIC_INDEX:
            return False
        if not scalable and tensor_size != vector_size:
            return False
    return True


def _product(values: Iterable[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


def _shape(value: SSAValue) -> tuple[int, ...]:
    ty = value.type
    assert isinstance(ty, TensorType | VectorType)
    return ty.get_shape()


def _is_iterator_type(attr: Attribute) -> bool:
    # `#linalg.iterator_type<...>` belongs to the linalg dialect; compare by name
    # so any registration of it is accepted.
    return attr.name == "linalg.iterator_type"


def _parse_key_value_list(parser: Parser) -> dict[str, Attribute]:
    """The body of `<key = value, ...>` after the `<`, through the `>`."""
    entries: dict[str, Attribute] = {}

    def parse_entry() -> None:
        key = parser.parse_identifier(" in property list")
        if key in entries:
            parser.raise_error(f"duplicate key '{key}' in property list")
        parser.parse_punctuation("=")
        entries[key] = parser.parse_attribute()

    parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_entry)
    parser.parse_punctuation(">")
    return entries


def _print_key_value(printer: Printer, item: tuple[str, Attribute]) -> None:
    printer.print_string(f"{item[0]} = ")
    printer.print_attribute(item[1])


IREECodegen = Dialect(
    "iree_codegen",
    [
        LoadFromBufferOp,
        StoreToBufferOp,
        InnerTiledOp,
        FusionBarrierOp,
        QueryTileSizesOp,
        IndexHintOp,
        DispatchConfigOp,
        YieldOp,
        UKernelGenericOp,
    ],
    [
        WorkgroupMappingAttr,
        TranslationInfoAttr,
        DispatchLoweringPassPipelineAttr,
        LoweringConfigAttr,
        LoweringConfigTilingLevelAttr,
        CompilationInfoAttr,
        XORShuffleAttr,
        NoPipelineAttr,
        VMVXPipelineAttr,
        TransformDialectCodegenPipelineAttr,
        PassPipelineAttr,
        WorkgroupLocalMemoryAttr,
        WorkgroupScopeAttr,
        ExportConfigAttr,
    ],
)
