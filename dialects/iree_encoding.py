"""The ``iree_encoding`` dialect: tensor encodings and the ops that add or drop them.

Data tiling starts by annotating the operands of a matmul with an *encoding*: an
attribute on the tensor type that says how the tensor is going to be used
(``#iree_encoding.encoding<...>``: operand index, element types, indexing maps,
problem sizes). ``set_encoding`` and ``unset_encoding`` switch a value between
its plain and its encoded type; they never change its logical shape.

An encoding goes through three states:

    verbose encoding        ->  serialized encoding          ->  physical ops/types
    #iree_encoding.encoding     #iree_encoding.layout<[...]>     linalg.pack, mmt4d, ...

A *layout resolver* (usually a backend attribute such as
``#iree_cpu.cpu_encoding_resolver``) turns the verbose form into the serialized
one. IREE expresses these roles as attribute interfaces; here they are the
Python mixins ``SerializableAttr`` and ``LayoutResolverAttr``.

Besides IREE's current attributes the module keeps the spellings used before
mid-2025 (``specialized_encoding``, ``testing_encoding``, ``round_dims_to`` and
``layouts`` on ``#iree_encoding.encoding``, ...), because the data-tiling
walkthrough still prints them.

https://iree.dev/reference/mlir-dialects/Encoding
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Sequence
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    UNKNOWN_LOC,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParametrizedAttribute,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mini_iree.dialects.traits import VerifierReadsOnlyItself
from mini_iree.dialects.utils import (
    operand_segment_sizes,
    plain_ssa_values,
    raise_missing_struct_key,
    verify_op_dynamic_dims,
)

_AttributeT = TypeVar("_AttributeT", bound=Attribute)

# ---------------------------------------------------------------------------
# Operand types and indices
# ---------------------------------------------------------------------------


class EncodingOpType(StrEnum):
    """The kind of op whose operand an encoding describes."""

    MATMUL = "matmul"
    SCALED_MATMUL = "scaled_matmul"
    CONV = "conv"


# Operand positions an encoding's `operand_index` refers to, per op type.
MATMUL_LHS, MATMUL_RHS, MATMUL_RESULT = 0, 1, 2
SCALED_MATMUL_LHS, SCALED_MATMUL_RHS, SCALED_MATMUL_LHS_SCALES, SCALED_MATMUL_RHS_SCALES, SCALED_MATMUL_RESULT = range(5)
CONV_INPUT, CONV_FILTER, CONV_OUTPUT = 0, 1, 2

# IREE's `stringifyOperandIndex`: how dispatch names call each operand.
_OPERAND_INDEX_NAMES: dict[EncodingOpType, tuple[str, ...]] = {
    EncodingOpType.MATMUL: ("LHS", "RHS", "RESULT"),
    EncodingOpType.SCALED_MATMUL: ("LHS", "RHS", "LHS_SCALES", "RHS_SCALES", "RESULT"),
    EncodingOpType.CONV: ("CONV_IN", "CONV_FILTER", "CONV_OUT"),
}


def stringify_operand_index(op_type: EncodingOpType, index: int) -> str:
    """``LHS``, ``RHS_SCALES``, ``CONV_FILTER``...: the operand ``index`` of an ``op_type`` op (its number if unknown)."""
    names = _OPERAND_INDEX_NAMES.get(op_type, ())
    return names[index] if 0 <= index < len(names) else str(index)


def _parse_op_type(parser: AttrParser) -> EncodingOpType:
    start = parser.pos
    value = parser.parse_optional_identifier()
    if value not in EncodingOpType.__members__.values():
        parser.raise_error(
            "expected ::mlir::iree_compiler::IREE::Encoding::EncodingOpType to be one of: "
            + ", ".join(EncodingOpType.__members__.values()),
            start,
            parser.pos,
        )
    return EncodingOpType(value)


@irdl_attr_definition
class EncodingOpTypeAttr(EnumAttribute[EncodingOpType]):
    """The `op_type` of an encoding: `#iree_encoding.optype<matmul>`.

    Inside `#iree_encoding.encoding<...>` only the bare keyword is written.
    """

    name = "iree_encoding.optype"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> EncodingOpType:
        with parser.in_angle_brackets():
            return _parse_op_type(parser)


# ---------------------------------------------------------------------------
# Interfaces
# ---------------------------------------------------------------------------


class SerializableAttr:
    """An encoding whose layout is (or can become) concrete enough for the host.

    IREE's `SerializableAttr` interface. Only these attributes are valid
    encodings on the result of `set_encoding` / the source of `unset_encoding`,
    and only they may appear in `#iree_encoding.layout<[...]>`.
    """

    def is_serialized(self) -> bool:
        """True once the layout is fully resolved (no more target decisions)."""
        return False

    def is_identity_layout(self) -> bool:
        """True if the encoded tensor is stored exactly like the plain one."""
        return False

    def num_dynamic_encoding_dims(self) -> int | None:
        """How many `encoding_dims` values set/unset_encoding must carry.

        None means the encoding does not say, and the count is not checked.
        """
        return None


class LayoutResolverAttr:
    """An attribute that resolves verbose encodings into serialized layouts.

    IREE's `LayoutResolverAttr` interface; backends provide the real ones.
    """


# Backend attributes that IREE makes serializable from the outside (external
# interface models in Codegen/ExternalInterfaces), so their own dialects do not
# declare it. The *_layout names are the spellings used before mid-2025.
EXTERNAL_SERIALIZABLE_ATTRS = frozenset(
    {
        "iree_cpu.cpu_encoding_resolver",
        "iree_cpu.vmvx_encoding_resolver",
        "iree_gpu.gpu_encoding_resolver",
        "iree_gpu.gpu_padding_resolver",
        "iree_cpu.cpu_encoding_layout",
        "iree_cpu.vmvx_encoding_layout",
        "iree_gpu.gpu_encoding_layout",
        "iree_gpu.gpu_pad_layout",
    }
)


def is_serializable_encoding(attr: Attribute) -> bool:
    """Whether `attr` implements SerializableAttr (a valid tensor encoding)."""
    return isinstance(attr, SerializableAttr) or attr.name in EXTERNAL_SERIALIZABLE_ATTRS


def is_serialized_encoding(attr: Attribute) -> bool:
    """Whether a serializable encoding is fully resolved.

    Backend resolvers only show up inside a layout once they carry the resolved
    layout, so the external ones count as serialized.
    """
    if isinstance(attr, SerializableAttr):
        return attr.is_serialized()
    return attr.name in EXTERNAL_SERIALIZABLE_ATTRS


def _compatible_with(attr: Attribute, other: Attribute | None) -> bool:
    """IREE's ``SerializableAttr::isCompatibleWith`` (``other`` None: no encoding)."""
    if attr.name == "iree_encoding.packed_storage":
        # It does not change the tensor's shape: compatible with no encoding, and with itself.
        return other is None or other.name == attr.name
    if other is None:
        return False
    if is_serialized_encoding(attr) and is_serialized_encoding(other):
        return attr == other
    return True


def are_compatible_encodings(lhs: Attribute, rhs: Attribute) -> bool:
    """IREE's ``SerializableAttr::areCompatible``: two tensor encodings (``NoneAttr``: none) describe
    the same storage, or may once targets decide (an unserialized encoding matches any layout)."""
    if lhs == rhs:
        return True
    lhs_encoding = lhs if is_serializable_encoding(lhs) else None
    rhs_encoding = rhs if is_serializable_encoding(rhs) else None
    return (lhs_encoding is None or _compatible_with(lhs_encoding, rhs_encoding)) and (
        rhs_encoding is None or _compatible_with(rhs_encoding, lhs_encoding)
    )


def get_encoding_attr(ty: Attribute) -> EncodingAttr | None:
    """The `#iree_encoding.encoding` of a tensor type, if it has one."""
    if isinstance(ty, TensorType) and isinstance(ty.encoding, EncodingAttr):
        return ty.encoding
    return None


# ---------------------------------------------------------------------------
# Parsing and printing helpers
# ---------------------------------------------------------------------------


def _parse_dynamic_int_list(parser: AttrParser) -> list[int]:
    """`[?, 4, 0]`: signed integers, `?` standing for a dynamic value."""

    def parse_one() -> int:
        if parser.parse_optional_punctuation("?") is not None:
            return DYNAMIC_INDEX
        return parser.parse_integer(allow_boolean=False)

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_one)


def _print_dynamic_int_list(printer: Printer, values: Sequence[int]) -> None:
    with printer.in_square_brackets():
        printer.print_list(values, lambda v: printer.print_string("?" if v == DYNAMIC_INDEX else str(v)))


def _parse_struct(
    parser: AttrParser,
    fields: dict[str, Callable[[], Attribute]],
    required: Sequence[str] = (),
    *,
    opened: bool = False,
) -> dict[str, Attribute]:
    """MLIR's `struct(...)` syntax: `<key = value, ...>`, keys in any order
    (`opened`: the `<` has been read, and at least one key follows)."""
    values: dict[str, Attribute] = {}
    if not opened:
        parser.parse_punctuation("<")
        if not required and parser.parse_optional_punctuation(">") is not None:
            return values
    while True:
        start = parser.pos
        key = parser.parse_optional_identifier()
        if key is None:
            raise_missing_struct_key(parser)
        if key not in fields or key in values:
            parser.raise_error(f"duplicate or unknown struct parameter name: {key}", start, parser.pos)
        parser.parse_punctuation("=")
        values[key] = fields[key]()
        if parser.parse_optional_punctuation(",") is None:
            break
    for key in required:
        if key not in values:
            parser.raise_error(f"struct is missing required parameter: {key}")
    parser.parse_punctuation(">")
    return values


def _parse_attribute_of(parser: AttrParser, kind: type[_AttributeT]) -> _AttributeT:
    """An attribute that must be of class `kind` (MLIR's typed attribute parameters)."""
    start = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, kind):
        parser.raise_error("invalid kind of attribute specified", start, parser.pos)
    return attr


def _checked(
    cls: type[ParametrizedAttribute], parser: AttrParser, start: int, params: Sequence[Attribute]
) -> Sequence[Attribute]:
    """Run the attribute verifier now, so its error points at the attribute.

    MLIR verifies attributes while parsing; without this the failure would be
    reported later, with no source location.
    """
    try:
        cls.new(params)
    except VerifyException as e:
        parser.raise_error(str(e), start, parser.pos)
    return params


def _optional(attr: Attribute | None) -> Attribute:
    return NoneAttr() if attr is None else attr


def _present(attr: Attribute) -> bool:
    return not isinstance(attr, NoneAttr)


class _NoParametersAttr(ParametrizedAttribute, ABC):
    """An attribute that is just its name, such as `#iree_encoding.identity`.

    Like MLIR's parameterless attributes, an empty `<>` after the name is
    accepted (`#iree_encoding.identity_resolver<>`) and printed without it;
    a non-empty `<...>` is an error at its first token.
    """

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        if parser.parse_optional_punctuation("<") is not None:
            parser.parse_punctuation(">")
        return ()

    def print_parameters(self, printer: Printer) -> None:
        pass


# ---------------------------------------------------------------------------
# Affine map chains in `user_indexing_maps`
# ---------------------------------------------------------------------------


def compose_map_chain(entry: Attribute) -> AffineMap | None:
    """The map an entry of `user_indexing_maps` stands for.

    An entry is either one affine map or a chain `[m0, m1, ..., mn]` that
    propagation appended to (e.g. a broadcast after the root op); the chain
    means `mn o ... o m1 o m0`. Returns None for an empty chain and raises
    ValueError when the entry is not a composable chain of maps.
    """
    if isinstance(entry, AffineMapAttr):
        return entry.data
    if not isinstance(entry, ArrayAttr):
        raise ValueError("not an affine map or a list of affine maps")
    if not entry.data:
        return None
    if not all(isinstance(m, AffineMapAttr) for m in entry.data):
        raise ValueError("not a list of affine maps")
    maps = [m.data for m in entry.data if isinstance(m, AffineMapAttr)]
    composed = maps[-1]
    for inner in reversed(maps[:-1]):
        composed = composed.compose(inner)
    return composed


def _first_or_last_map(entry: Attribute, last: bool) -> AffineMap | None:
    if isinstance(entry, AffineMapAttr):
        return entry.data
    if isinstance(entry, ArrayAttr) and entry.data:
        chosen = entry.data[-1] if last else entry.data[0]
        if isinstance(chosen, AffineMapAttr):
            return chosen.data
    return None


# ---------------------------------------------------------------------------
# #iree_encoding.encoding
# ---------------------------------------------------------------------------


@irdl_attr_definition(init=False)
class EncodingAttr(ParametrizedAttribute, SerializableAttr):
    """Information to decide how to data-tile a tensor (the verbose encoding).

        #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul,
            element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2],
            iteration_sizes = [?, ?, ?]>

    - `operand_index`: which operand of the user op the tensor is.
    - `element_types`: element types of all operands of the user op.
    - `original_element_type`: the sub-byte type a tensor had before it was
      bitcast into a wider storage type.
    - `user_indexing_maps`: the user op's indexing maps. An entry may be a list
      of maps, a chain to compose (see `get_map_for_operand_index`).
    - `iteration_sizes`: the user op's loop ranges (`?` if dynamic); each `?`
      is an `encoding_dims` value on set/unset_encoding.
    - `round_dims_to = array<i64: ...>`, `layouts = [...]`: the older spellings
      of the problem-size hint and of resolved layouts (now
      `#iree_encoding.layout`), still printed by the data-tiling walkthrough.

    Optional parameters hold `NoneAttr` when absent.
    """

    name = "iree_encoding.encoding"

    operand_index: IntegerAttr
    op_type: EncodingOpTypeAttr
    element_types: ArrayAttr[Attribute]
    original_element_type: Attribute
    user_indexing_maps: ArrayAttr[Attribute] | NoneAttr
    round_dims_to: DenseArrayBase | NoneAttr
    iteration_sizes: ArrayAttr[IntegerAttr] | NoneAttr
    layouts: ArrayAttr[Attribute] | NoneAttr

    _REQUIRED: ClassVar[tuple[str, ...]] = ("operand_index", "op_type", "element_types")

    def __init__(
        self,
        operand_index: int | IntegerAttr,
        op_type: EncodingOpType | EncodingOpTypeAttr,
        element_types: Sequence[Attribute],
        user_indexing_maps: Sequence[AffineMap | Sequence[AffineMap] | Attribute] | None = None,
        iteration_sizes: Sequence[int] | None = None,
        *,
        original_element_type: Attribute | None = None,
        round_dims_to: Sequence[int] | None = None,
        layouts: Sequence[Attribute] | None = None,
    ):
        if isinstance(operand_index, int):
            operand_index = IntegerAttr(operand_index, IndexType())
        if isinstance(op_type, EncodingOpType):
            op_type = EncodingOpTypeAttr(op_type)
        maps = None
        if user_indexing_maps is not None:
            maps = ArrayAttr(_to_map_entry(m) for m in user_indexing_maps)
        sizes = None
        if iteration_sizes is not None:
            sizes = ArrayAttr(IntegerAttr(s, i64) for s in iteration_sizes)
        round_to = None
        if round_dims_to is not None:
            round_to = DenseArrayBase.from_list(i64, round_dims_to)
        super().__init__(
            operand_index,
            op_type,
            ArrayAttr(element_types),
            _optional(original_element_type),
            _optional(maps),
            _optional(round_to),
            _optional(sizes),
            _optional(None if layouts is None else ArrayAttr(layouts)),
        )

    # -- syntax ---------------------------------------------------------------

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        fields: dict[str, Callable[[], Attribute]] = {
            "operand_index": lambda: _parse_attribute_of(parser, IntegerAttr),
            "op_type": lambda: EncodingOpTypeAttr(_parse_op_type(parser)),
            "element_types": lambda: _parse_attribute_of(parser, ArrayAttr),
            "original_element_type": parser.parse_type,
            "user_indexing_maps": lambda: _parse_attribute_of(parser, ArrayAttr),
            "round_dims_to": lambda: _parse_attribute_of(parser, DenseArrayBase),
            "iteration_sizes": lambda: ArrayAttr(IntegerAttr(v, i64) for v in _parse_dynamic_int_list(parser)),
            "layouts": lambda: _parse_attribute_of(parser, ArrayAttr),
        }
        values = _parse_struct(parser, fields, cls._REQUIRED)
        params = [values.get(key, NoneAttr()) for key in fields]
        return _checked(cls, parser, start, params)

    def print_parameters(self, printer: Printer) -> None:
        # Declared order, as MLIR's struct() prints it; absent parameters are left out.
        fields: list[tuple[str, Callable[[], None]]] = [
            ("operand_index", lambda: printer.print_attribute(self.operand_index)),
            ("op_type", lambda: printer.print_string(self.op_type.data.value)),
            ("element_types", lambda: printer.print_attribute(self.element_types)),
            ("original_element_type", lambda: printer.print_attribute(self.original_element_type)),
            ("user_indexing_maps", lambda: printer.print_attribute(self.user_indexing_maps)),
            ("round_dims_to", lambda: printer.print_attribute(self.round_dims_to)),
            ("iteration_sizes", lambda: _print_dynamic_int_list(printer, self.get_iteration_sizes())),
            ("layouts", lambda: printer.print_attribute(self.layouts)),
        ]
        present = [(key, print_value) for key, print_value in fields if _present(getattr(self, key))]

        def print_field(field: tuple[str, Callable[[], None]]) -> None:
            printer.print_string(f"{field[0]} = ")
            field[1]()

        with printer.in_angle_brackets():
            printer.print_list(present, print_field)

    def asm_alias(self) -> str | None:
        return "encoding"

    # -- verifier ---------------------------------------------------------------

    def verify(self) -> None:
        operand_map: AffineMap | None = None
        if isinstance(self.user_indexing_maps, ArrayAttr):
            index = self.operand_index.value.data
            if not 0 <= index < len(self.user_indexing_maps.data):
                raise VerifyException("`operandIndex` exceeds the size of `user_indexing_maps`")
            for i, entry in enumerate(self.user_indexing_maps.data):
                try:
                    composed = compose_map_chain(entry)
                except ValueError:
                    raise VerifyException(
                        f"found a non-composable attribute in `user_indexing_maps` at index: {i}"
                    ) from None
                if i == index:
                    operand_map = composed
        if isinstance(self.iteration_sizes, ArrayAttr):
            if operand_map is None:
                raise VerifyException("found `iteration_sizes` without any corresponding `user_indexing_maps`")
            num_sizes = len(self.iteration_sizes.data)
            if num_sizes != operand_map.num_dims:
                raise VerifyException(
                    f"found an encoding with {num_sizes} iteration sizes, but expected "
                    f"{operand_map.num_dims} based on the user indexing maps"
                )
            # A loop range is a static size (0 included: IREE allows empty dims) or `?`;
            # IREE's verifier does not look, but a negative range would reach the resolvers.
            if any(size < 0 and size != DYNAMIC_INDEX for size in self.get_iteration_sizes()):
                raise VerifyException("expected all `iteration_sizes` to be non-negative or dynamic")

    # -- queries ----------------------------------------------------------------

    def get_operand_index(self) -> int:
        return self.operand_index.value.data

    def get_op_type(self) -> EncodingOpType:
        return self.op_type.data

    def get_element_types(self) -> list[Attribute]:
        return list(self.element_types.data)

    def get_iteration_sizes(self) -> list[int]:
        """The `iteration_sizes` (DYNAMIC_INDEX for `?`); empty if absent."""
        if not isinstance(self.iteration_sizes, ArrayAttr):
            return []
        return [size.value.data for size in self.iteration_sizes.data]

    def get_round_dims_to(self) -> list[int]:
        """The older `round_dims_to` hint; empty if absent."""
        if not isinstance(self.round_dims_to, DenseArrayBase):
            return []
        return [int(v) for v in self.round_dims_to.get_values()]

    def get_map_for_operand_index(self) -> AffineMap | None:
        """The composed indexing map of this operand, or None without maps.

        Its dims are the root op's loops; its results index the encoded tensor.
        """
        if not isinstance(self.user_indexing_maps, ArrayAttr):
            return None
        return compose_map_chain(self.user_indexing_maps.data[self.get_operand_index()])

    def get_root_maps(self) -> list[AffineMap | None]:
        """The first map of every entry: the indexing maps of the root op.

        This is what identifies M, N and K of the op that was data-tiled.
        """
        if not isinstance(self.user_indexing_maps, ArrayAttr):
            return []
        return [_first_or_last_map(entry, last=False) for entry in self.user_indexing_maps.data]

    def get_last_map_for_operand_index(self) -> AffineMap | None:
        """The last map of this operand's chain (new maps must compose with it)."""
        if not isinstance(self.user_indexing_maps, ArrayAttr):
            return None
        return _first_or_last_map(self.user_indexing_maps.data[self.get_operand_index()], last=True)

    def map_dim_to_operand_index(self, dim_pos: int) -> int | None:
        """The tensor dimension that loop `dim_pos` of the root op indexes, if any."""
        operand_map = self.get_map_for_operand_index()
        if operand_map is None:
            return None
        wanted = AffineExpr.dimension(dim_pos)
        for position, result in enumerate(operand_map.results):
            if result == wanted:
                return position
        return None

    def num_dynamic_encoding_dims(self) -> int | None:
        return sum(1 for size in self.get_iteration_sizes() if size == DYNAMIC_INDEX)

    def is_serialized(self) -> bool:
        # The older spelling of a resolved encoding kept its layouts here
        # (`layouts = [...]`, walkthrough dumps 12 and 15); today it is a
        # separate `#iree_encoding.layout`.
        return _present(self.layouts)

    # -- rewriting --------------------------------------------------------------

    def clone_with_new_operand_indexing_map(self, new_map: AffineMap) -> EncodingAttr:
        """Append `new_map` to this operand's chain in `user_indexing_maps`."""
        assert isinstance(self.user_indexing_maps, ArrayAttr), "encoding has no user_indexing_maps"
        entries = list(self.user_indexing_maps.data)
        index = self.get_operand_index()
        current = entries[index]
        chain = list(current.data) if isinstance(current, ArrayAttr) else [current]
        entries[index] = ArrayAttr([*chain, AffineMapAttr(new_map)])
        return EncodingAttr.new(
            [
                self.operand_index,
                self.op_type,
                self.element_types,
                self.original_element_type,
                ArrayAttr(entries),
                self.round_dims_to,
                self.iteration_sizes,
                self.layouts,
            ]
        )

    def clone_with_layouts(self, layouts: Sequence[Attribute]) -> LayoutAttr:
        """The serialized encoding once a resolver has chosen `layouts`."""
        return LayoutAttr(layouts)


def _to_map_entry(entry: AffineMap | Sequence[AffineMap] | Attribute) -> Attribute:
    if isinstance(entry, AffineMap):
        return AffineMapAttr(entry)
    if isinstance(entry, Attribute):
        return entry
    return ArrayAttr(AffineMapAttr(m) for m in entry)


# ---------------------------------------------------------------------------
# Serialized encodings
# ---------------------------------------------------------------------------


@irdl_attr_definition(init=False)
class LayoutAttr(ParametrizedAttribute, SerializableAttr):
    """Resolved layouts of a tensor, one per target it may live on.

        #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {
            innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>

    Every element must be serializable; it is an array because a tensor can be
    used on several devices.
    """

    name = "iree_encoding.layout"

    layouts: ArrayAttr[Attribute]

    def __init__(self, layouts: Sequence[Attribute]):
        super().__init__(ArrayAttr(layouts))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            layouts = _parse_attribute_of(parser, ArrayAttr)
        return _checked(cls, parser, start, [layouts])

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.layouts)

    def asm_alias(self) -> str | None:
        return "encoding"

    def verify(self) -> None:
        if not self.layouts.data:
            raise VerifyException("expected non-empty layouts")
        if not all(is_serializable_encoding(layout) for layout in self.layouts.data):
            raise VerifyException("expected all the layout attributes to implement SerializableAttr")

    def verify_encoding(self, shape: Sequence[int], element_type: Attribute) -> None:
        """Check the layouts against the tensor type they are attached to."""
        for layout in self.layouts.data:
            if isinstance(layout, PackedStorageAttr):
                layout.verify_encoding(shape, element_type)
        # Each resolved `encoding_info` must describe a pack of a tensor of this rank (the
        # resolvers check, when built, what needs no tensor).
        from mini_iree.dialects.encoding_info_checks import verify_resolved_layout

        for layout in self.layouts.data:
            verify_resolved_layout(layout, len(shape))

    def is_serialized(self) -> bool:
        return all(is_serialized_encoding(layout) for layout in self.layouts.data)

    def is_identity_layout(self) -> bool:
        return all(isinstance(layout, SerializableAttr) and layout.is_identity_layout() for layout in self.layouts.data)


@irdl_attr_definition(init=False)
class MatmulKAttr(ParametrizedAttribute, SerializableAttr):
    """Only the reduction dimensions of a matmul operand: `#iree_encoding.matmul_k<k_dims = [1]>`.

    `k_dims` lists the tensor's own dimensions that a K loop of the user op
    indexes: `[1]` for `(M, K)` LHS, `[0]` for a `(K, N)` RHS, `[]` for the
    result. Sizes are not recorded, so static and dynamic shapes encode alike.
    It is never serialized: resolving it yields a `#iree_encoding.layout`.
    """

    name = "iree_encoding.matmul_k"

    k_dims: DenseArrayBase

    def __init__(self, k_dims: Sequence[int]):
        super().__init__(DenseArrayBase.from_list(i32, k_dims))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def parse_k_dims() -> Attribute:
            values = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
            )
            return DenseArrayBase.from_list(i32, values)

        values = _parse_struct(parser, {"k_dims": parse_k_dims}, required=("k_dims",))
        return [values["k_dims"]]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<k_dims = [{', '.join(str(d) for d in self.get_k_dims())}]>")

    def asm_alias(self) -> str | None:
        return "encoding"

    def get_k_dims(self) -> list[int]:
        return [int(v) for v in self.k_dims.get_values()]

    def get_reduction_dims(self) -> list[int]:
        """IREE's ContractionEncodingAttrInterface: the encoded tensor's reduction dims."""
        return self.get_k_dims()

    def clone_with_layouts(self, layouts: Sequence[Attribute]) -> LayoutAttr:
        return LayoutAttr(layouts)


@irdl_attr_definition
class PackedStorageAttr(_NoParametersAttr, SerializableAttr):
    """Sub-byte elements stored back to back: `#iree_encoding.packed_storage`.

    Only valid on element types narrower than a byte with a power-of-two width.
    """

    name = "iree_encoding.packed_storage"

    def is_serialized(self) -> bool:
        return True

    def verify_encoding(self, shape: Sequence[int], element_type: Attribute) -> None:
        """Check the element type of the tensor this encoding is attached to."""
        width = getattr(element_type, "bitwidth", None)
        if not isinstance(width, int):
            return
        if width > 7:
            raise VerifyException(
                f"bit-width of the element type is {width} but packed_storage is currently only supported for sub-byte types"
            )
        if width & (width - 1) != 0:
            raise VerifyException(
                f"bit-width of the element type is {width} but packed_storage currently only supports types with "
                "power-of-two bitwidth"
            )


# A dataclass, so the parameters declared here take part in equality and hashing.
@dataclass(frozen=True, init=False)
class _PaddingBase(ParametrizedAttribute, SerializableAttr, ABC):
    """Pad values per tensor dimension: `<[0, 64, ?]>`.

    `0` means no padding, `N` appends N elements, `?` lets the backend decide.
    The logical shape does not change; padded elements are uninitialized.
    """

    padding: DenseArrayBase

    def __init__(self, padding: Sequence[int]):
        super().__init__(DenseArrayBase.from_list(i64, padding))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            values = _parse_dynamic_int_list(parser)
        return _checked(cls, parser, start, [DenseArrayBase.from_list(i64, values)])

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_dynamic_int_list(printer, self.get_padding())

    def verify(self) -> None:
        if not all(v == DYNAMIC_INDEX or v >= 0 for v in self.get_padding()):
            raise VerifyException("expected all padding values need to be non-negative or dynamic")

    def get_padding(self) -> list[int]:
        return [int(v) for v in self.padding.get_values()]

    def is_serialized(self) -> bool:
        return DYNAMIC_INDEX not in self.get_padding()

    def is_identity_layout(self) -> bool:
        return all(v == 0 for v in self.get_padding())

    def clone_with_layouts(self, layouts: Sequence[Attribute]) -> LayoutAttr:
        return LayoutAttr(layouts)


@irdl_attr_definition(init=False)
class PaddingAttr(_PaddingBase):
    """`#iree_encoding.padding<[0, ?]>`: pad-only layout (see `_PaddingBase`)."""

    name = "iree_encoding.padding"


@irdl_attr_definition
class IdentityAttr(_NoParametersAttr, SerializableAttr):
    """`#iree_encoding.identity`: encoded exactly like the plain tensor."""

    name = "iree_encoding.identity"

    def is_serialized(self) -> bool:
        return True

    def is_identity_layout(self) -> bool:
        return True


# ---------------------------------------------------------------------------
# Resolvers and testing encodings
# ---------------------------------------------------------------------------


@irdl_attr_definition
class IdentityResolverAttr(_NoParametersAttr, LayoutResolverAttr):
    """`#iree_encoding.identity_resolver`: resolves every encoding to no encoding."""

    name = "iree_encoding.identity_resolver"


@irdl_attr_definition
class UnsupportedResolverAttr(_NoParametersAttr, LayoutResolverAttr):
    """`#iree_encoding.unsupported_resolver`: never resolves a layout (a fallback)."""

    name = "iree_encoding.unsupported_resolver"


# How `#iree_encoding.testing` prints its layouts: positionally as the walkthrough's IREE
# does (`testing<[...]>`), or as IREE 3.13 does (`testing<layouts = [...]>`, the only form
# it parses). The run's era decides (`compiler/era.py` sets it); the dialect holds the choice.
_TESTING_KEYWORD_FORM: ContextVar[bool] = ContextVar("mini_iree_testing_keyword_form", default=False)


# Whether set/unset_encoding must carry every dynamic encoding dim (IREE 3.13's verifier) or may
# leave them out (the walkthrough's older form). The run's era decides, as for the print form.
_REQUIRES_ENCODING_DIMS: ContextVar[bool] = ContextVar("mini_iree_requires_encoding_dims", default=False)


def set_requires_encoding_dims(required: bool) -> Token[bool]:
    """Verify set/unset_encoding as IREE 3.13 does (every dynamic encoding dim given) or not."""
    return _REQUIRES_ENCODING_DIMS.set(required)


def reset_requires_encoding_dims(token: Token[bool]) -> None:
    _REQUIRES_ENCODING_DIMS.reset(token)


def set_testing_keyword_form(keyword: bool) -> Token[bool]:
    """Print `#iree_encoding.testing` with `layouts = ` from now on (or not); returns the token to reset."""
    return _TESTING_KEYWORD_FORM.set(keyword)


def reset_testing_keyword_form(token: Token[bool]) -> None:
    _TESTING_KEYWORD_FORM.reset(token)


@irdl_attr_definition(init=False)
class TestingAttr(ParametrizedAttribute, SerializableAttr):
    """An encoding for tests: `#iree_encoding.testing<[...]>` (the walkthrough's IREE),
    or IREE 3.13's `#iree_encoding.testing<layouts = [...], original_element_type = i4>`.

    Both parameters are optional (`#iree_encoding.testing<>`); it counts as
    serialized once it has layouts. Both forms parse. It prints in IREE 3.13's
    keyword form in that era, or when it has an `original_element_type` (which the
    walkthrough's positional form cannot spell).
    """

    name = "iree_encoding.testing"

    layouts: ArrayAttr[Attribute] | NoneAttr
    original_element_type: Attribute

    def __init__(self, layouts: Sequence[Attribute] | None = None, original_element_type: Attribute | None = None):
        super().__init__(_optional(None if layouts is None else ArrayAttr(layouts)), _optional(original_element_type))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields: dict[str, Callable[[], Attribute]] = {
            "layouts": lambda: _parse_attribute_of(parser, ArrayAttr),
            "original_element_type": parser.parse_type,
        }
        parser.parse_punctuation("<")
        if parser.parse_optional_punctuation(">") is not None:
            return [NoneAttr(), NoneAttr()]
        if parser._current_token.text == "[":
            # The walkthrough era's positional `testing<[#layout, ...]>`.
            layouts = _parse_attribute_of(parser, ArrayAttr)
            parser.parse_punctuation(">")
            return [layouts, NoneAttr()]
        values = _parse_struct(parser, fields, opened=True)
        return [values.get(key, NoneAttr()) for key in fields]

    def print_parameters(self, printer: Printer) -> None:
        if not _present(self.original_element_type) and not _TESTING_KEYWORD_FORM.get():
            with printer.in_angle_brackets():
                if _present(self.layouts):
                    printer.print_attribute(self.layouts)
            return
        present = [(key, getattr(self, key)) for key in ("layouts", "original_element_type")]
        present = [(key, value) for key, value in present if _present(value)]

        def print_field(field: tuple[str, Attribute]) -> None:
            printer.print_string(f"{field[0]} = ")
            printer.print_attribute(field[1])

        with printer.in_angle_brackets():
            printer.print_list(present, print_field)

    def asm_alias(self) -> str | None:
        return "encoding"

    def is_serialized(self) -> bool:
        return _present(self.layouts)

    def clone_with_layouts(self, layouts: Sequence[Attribute]) -> TestingAttr:
        return TestingAttr(layouts, None if not _present(self.original_element_type) else self.original_element_type)


@irdl_attr_definition
class UnknownAttr(_NoParametersAttr):
    """`#iree_encoding.unknown`: an encoding no interface knows (for tests)."""

    name = "iree_encoding.unknown"

    def asm_alias(self) -> str | None:
        return "encoding"


# A dataclass, so the parameters declared here take part in equality and hashing.
@dataclass(frozen=True, init=False)
class _SeedAttr(ParametrizedAttribute, ABC):
    """`<seed>`: an integer standing for one made-up layout (for tests)."""

    seed: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return [IntAttr(parser.parse_integer(allow_boolean=False))]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(str(self.seed.data))


# A dataclass, so the parameters declared here take part in equality and hashing.
@dataclass(frozen=True, init=False)
class _SeedAndTypeAttr(ParametrizedAttribute, SerializableAttr, ABC):
    """`<seed[, type]>`: the layout a seed resolved to, for a given tensor type."""

    seed: IntAttr
    type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            seed = IntAttr(parser.parse_integer(allow_boolean=False))
            ty = parser.parse_type() if parser.parse_optional_punctuation(",") is not None else NoneAttr()
        return [seed, ty]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(str(self.seed.data))
            if _present(self.type):
                printer.print_string(", ")
                printer.print_attribute(self.type)


@irdl_attr_definition
class SpecializationResolverAttr(_SeedAttr, LayoutResolverAttr):
    """`#iree_encoding.specialization_resolver<123>`: resolves to `specialized<123, type>`."""

    name = "iree_encoding.specialization_resolver"


@irdl_attr_definition
class SpecializedAttr(_SeedAndTypeAttr):
    """`#iree_encoding.specialized<123, tensor<?x?xf32>>`: a layout picked by a seed."""

    name = "iree_encoding.specialized"


# ---------------------------------------------------------------------------
# Spellings used before mid-2025 (seen in the data-tiling walkthrough)
# ---------------------------------------------------------------------------


@irdl_attr_definition(init=False)
class PadEncodingLayoutAttr(_PaddingBase):
    """`#iree_encoding.pad_encoding_layout<[0, 64]>`: older name of `padding`."""

    name = "iree_encoding.pad_encoding_layout"


@irdl_attr_definition
class IdentityEncodingAttr(_NoParametersAttr, LayoutResolverAttr):
    """`#iree_encoding.identity_encoding`: older name of `identity_resolver`."""

    name = "iree_encoding.identity_encoding"


@irdl_attr_definition
class UnsupportedEncodingAttr(_NoParametersAttr, LayoutResolverAttr):
    """`#iree_encoding.unsupported_encoding`: older name of `unsupported_resolver`."""

    name = "iree_encoding.unsupported_encoding"


@irdl_attr_definition(init=False)
class TestingEncodingAttr(ParametrizedAttribute, SerializableAttr):
    """`#iree_encoding.testing_encoding<[#layout, ...]>`: older form of `testing`."""

    name = "iree_encoding.testing_encoding"

    layouts: ArrayAttr[Attribute] | NoneAttr

    def __init__(self, layouts: Sequence[Attribute] | None = None):
        super().__init__(_optional(None if layouts is None else ArrayAttr(layouts)))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            start = parser.pos
            layouts = parser.parse_optional_attribute()
            if layouts is not None and not isinstance(layouts, ArrayAttr):
                parser.raise_error("expected array attribute", start, parser.pos)
        return [_optional(layouts)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            if _present(self.layouts):
                printer.print_attribute(self.layouts)

    def asm_alias(self) -> str | None:
        return "encoding"

    def is_serialized(self) -> bool:
        return _present(self.layouts)

    def clone_with_layouts(self, layouts: Sequence[Attribute]) -> TestingEncodingAttr:
        return TestingEncodingAttr(layouts)


@irdl_attr_definition
class UnknownEncodingAttr(_NoParametersAttr):
    """`#iree_encoding.unknown_encoding`: older name of `unknown`."""

    name = "iree_encoding.unknown_encoding"

    def asm_alias(self) -> str | None:
        return "encoding"


@irdl_attr_definition
class UnspecializedEncodingAttr(_SeedAttr, LayoutResolverAttr):
    """`#iree_encoding.unspecialized_encoding<123>`: older name of `specialization_resolver`."""

    name = "iree_encoding.unspecialized_encoding"


@irdl_attr_definition
class SpecializedEncodingAttr(_SeedAndTypeAttr):
    """`#iree_encoding.specialized_encoding<123, tensor<?x?xf32>>`: older name of `specialized`."""

    name = "iree_encoding.specialized_encoding"


# ---------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------


def _verify_same_logical_shape(plain: TensorType, encoded: TensorType) -> None:
    if plain.get_num_dims() != encoded.get_num_dims():
        raise VerifyException("cannot change the rank of the tensor")
    for a, b in zip(plain.get_shape(), encoded.get_shape()):
        if a != b and DYNAMIC_INDEX not in (a, b):
            raise VerifyException("expected to preserve the logical shape of the tensor")


def _verify_encoding_dims(encoding: Attribute, encoding_dims: Sequence[SSAValue]) -> None:
    # Without encoding_dims the op is in its older form, from before the dynamic
    # sizes were carried as operands (the data-tiling walkthrough prints it with
    # `iteration_sizes = [?, ?, ?]`): only a given list is checked, unless the
    # run follows an IREE that carries them (3.13), whose verifier wants them all.
    if not isinstance(encoding, SerializableAttr):
        return
    if not encoding_dims and not _REQUIRES_ENCODING_DIMS.get():
        return
    expected = encoding.num_dynamic_encoding_dims()
    if expected is not None and expected != len(encoding_dims):
        raise VerifyException(
            f"encoding expects {expected} dynamic encoding dimension(s), but {len(encoding_dims)} provided"
        )


@irdl_op_definition
class SetEncodingOp(IRDLOperation):
    """Adds an encoding to the type of a tensor; the shape stays the same.

        %1 = iree_encoding.set_encoding %0 encoding_dims{%m, %n, %k}
            : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>

    Once the encoding is resolved this becomes a relayout (a pack, with padding).
    `encoding_dims` carries the dynamic problem sizes the encoding refers to,
    one per `?` in its `iteration_sizes`.

    https://iree.dev/reference/mlir-dialects/Encoding/#iree_encodingset_encoding-encodingsetencodingop
    """

    name = "iree_encoding.set_encoding"

    source = operand_def(TensorType)
    encoding_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    assembly_format = "attr-dict $source (`encoding_dims` `{` $encoding_dims^ `}`)? `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue, result_type: Attribute, encoding_dims: Sequence[SSAValue] = ()):
        if plain_ssa_values(source, encoding_dims):
            # Data tiling builds one per contraction operand: skip the IRDL
            # builder's argument processing, which would make the same op.
            Operation.__init__(
                self, operands=(source, *encoding_dims), result_types=(result_type,), location=UNKNOWN_LOC
            )
            return
        super().__init__(operands=[source, encoding_dims], result_types=[result_type])

    def verify_(self) -> None:
        source_type = self.source.type
        result_type = self.result.type
        assert isinstance(source_type, TensorType) and isinstance(result_type, TensorType)
        if _present(source_type.encoding):
            raise VerifyException("source of set_encoding op cannot have a tensor encoding")
        if not is_serializable_encoding(result_type.encoding):
            raise VerifyException("result of set_encoding op expected to have a valid tensor encoding")
        _verify_same_logical_shape(source_type, result_type)
        _verify_encoding_dims(result_type.encoding, self.encoding_dims)


@irdl_op_definition
class UnsetEncodingOp(IRDLOperation):
    """Drops the encoding of a tensor, going back to the default row-major layout.

        %2 = iree_encoding.unset_encoding %1 encoding_dims{%m, %n, %k}
            : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}

    `{%d0, %d1}` gives the dynamic sizes of the result. They may be smaller than
    those of the source (the op then also slices, like an unpack); static sizes
    must match.

    https://iree.dev/reference/mlir-dialects/Encoding/#iree_encodingunset_encoding-encodingunsetencodingop
    """

    name = "iree_encoding.unset_encoding"

    source = operand_def(TensorType)
    result_dims = var_operand_def(IndexType)
    encoding_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    assembly_format = (
        "attr-dict $source (`encoding_dims` `{` $encoding_dims^ `}`)? `:` type($source) `->` type($result)"
        " (`` `{` $result_dims^ `}`)?"
    )

    def __init__(
        self,
        source: SSAValue,
        result_type: Attribute,
        result_dims: Sequence[SSAValue] = (),
        encoding_dims: Sequence[SSAValue] = (),
    ):
        if plain_ssa_values(source, result_dims, encoding_dims):
            # As SetEncodingOp: the operands, result and segment sizes the IRDL builder would make.
            Operation.__init__(
                self,
                operands=(source, *result_dims, *encoding_dims),
                result_types=(result_type,),
                properties={"operandSegmentSizes": operand_segment_sizes(1, len(result_dims), len(encoding_dims))},
                location=UNKNOWN_LOC,
            )
            return
        super().__init__(operands=[source, result_dims, encoding_dims], result_types=[result_type])

    def verify_(self) -> None:
        source_type = self.source.type
        result_type = self.result.type
        assert isinstance(source_type, TensorType) and isinstance(result_type, TensorType)
        if _present(result_type.encoding):
            raise VerifyException("result of unset_encoding op cannot have a tensor encoding")
        if not is_serializable_encoding(source_type.encoding):
            raise VerifyException("source of unset_encoding op expected to have a valid tensor encoding")
        _verify_same_logical_shape(result_type, source_type)
        verify_op_dynamic_dims([result_type], self.result_dims, set_name="result type")
        _verify_encoding_dims(source_type.encoding, self.encoding_dims)


IREEEncoding = Dialect(
    "iree_encoding",
    [
        SetEncodingOp,
        UnsetEncodingOp,
    ],
    [
        EncodingOpTypeAttr,
        EncodingAttr,
        MatmulKAttr,
        LayoutAttr,
        PackedStorageAttr,
        PaddingAttr,
        IdentityAttr,
        IdentityResolverAttr,
        UnsupportedResolverAttr,
        TestingAttr,
        UnknownAttr,
        SpecializationResolverAttr,
        SpecializedAttr,
        PadEncodingLayoutAttr,
        IdentityEncodingAttr,
        UnsupportedEncodingAttr,
        TestingEncodingAttr,
        UnknownEncodingAttr,
        UnspecializedEncodingAttr,
        SpecializedEncodingAttr,
    ],
)
