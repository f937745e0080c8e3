"""The `hal` dialect: IREE's hardware abstraction layer, as far as data tiling needs it.

Two halves of HAL appear in the data-tiling pipeline:

* the host side: `!hal.buffer_view` function arguments turned into tensors
  (`hal.tensor.import/export`, `hal.buffer_view.dim/assert`), and the device
  targets (`#hal.device.target`, `#hal.executable.target`) whose configuration
  dictionaries carry the encoding resolver that picks tile sizes;
* the executable side: `hal.executable` with one `hal.executable.variant` per
  executable target, each exporting functions (`hal.executable.export`, with
  their `#hal.pipeline.layout`) from a `builtin.module`; and
  `hal.interface.binding.subspan` / `hal.interface.constant.load`, which a
  dispatch function uses to reach its buffers and push constants through that
  layout.

Upstream documentation: https://iree.dev/reference/mlir-dialects/HAL/
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import IntFlag

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    ComplexType,
    DictionaryAttr,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    Float128Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    ShapedType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
    TypedAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    eq,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
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
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    SymbolTable,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mini_iree.compiler.ir.format_printer import operand_groups
from mini_iree.dialects.traits import VerifierReadsOnlyItself
from mini_iree.dialects.utils import count_dynamic, parse_dynamic_dims, print_dynamic_dims

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def sanitize_symbol_name(name: str) -> str:
    """IREE's `sanitizeSymbolName`: every character outside [A-Za-z0-9_] becomes `_`."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _parse_bit_enum(parser: AttrParser, cases: Mapping[str, int], what: str) -> int:
    """Parse an MLIR bit enum: a keyword (`Indirect`) or a string (`"ReadOnly|Indirect"`)."""
    pos = parser.pos
    spelling = parser.parse_optional_identifier_or_str_literal()
    if spelling is None:
        parser.raise_error(f"expected {what}")
    value = 0
    for flag in spelling.split("|"):
        if (bit := cases.get(flag.strip())) is None:
            parser.raise_error(f"invalid {what} '{spelling}', expected one of {', '.join(cases)}", pos, parser.pos)
        value |= bit
    return value


def _stringify_bit_enum(value: int, cases: Mapping[str, int]) -> str:
    """MLIR's `stringifyEnum` for bit enums: set bits joined by `|`, in declaration order."""
    if value == 0:
        return next((name for name, bit in cases.items() if bit == 0), "")
    return "|".join(name for name, bit in cases.items() if bit and value & bit == bit)


def _print_bit_enum(printer: Printer, value: int, cases: Mapping[str, int]) -> None:
    printer.print_identifier_or_string_literal(_stringify_bit_enum(value, cases))


def _sorted_dict(entries: DictionaryAttr | Mapping[str, Attribute] | None) -> DictionaryAttr:
    """A dictionary with its keys sorted, as MLIR's `DictionaryAttr` always keeps them."""
    if isinstance(entries, DictionaryAttr):
        entries = entries.data
    return DictionaryAttr(dict(sorted((entries or {}).items())))


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """A reference to a buffer with a specific memory type and usage: `!hal.buffer`."""

    name = "hal.buffer"


@irdl_attr_definition
class BufferViewType(ParametrizedAttribute, TypeAttribute):
    """A buffer plus its shape, element type and encoding: `!hal.buffer_view`.

    Public functions of a compiled module take and return buffer views; the
    ABI wrapper imports them into tensors with `hal.tensor.import`.
    """

    name = "hal.buffer_view"


@irdl_attr_definition
class DeviceType(ParametrizedAttribute, TypeAttribute):
    """A logical device: `!hal.device`. Device globals (`util.global @__device_0`) have this type."""

    name = "hal.device"


@irdl_attr_definition
class FenceType(ParametrizedAttribute, TypeAttribute):
    """A set of semaphore timepoints: `!hal.fence`."""

    name = "hal.fence"


# ---------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------


class DescriptorType(StrEnum):
    """The kind of resource a pipeline binding refers to."""

    UNIFORM_BUFFER = "uniform_buffer"
    STORAGE_BUFFER = "storage_buffer"


class DescriptorFlags(IntFlag):
    """How a binding may be accessed; spelled `ReadOnly`, `Indirect`, `"ReadOnly|Indirect"` or `None`."""

    NONE = 0
    READ_ONLY = 1
    INDIRECT = 2


class PipelineLayoutFlags(IntFlag):
    """Layout-wide flags: `Indirect` when bindings are passed through a table."""

    NONE = 0
    INDIRECT = 1


# MLIR spells each bit by its case name; this is also the printing order.
_DESCRIPTOR_FLAG_NAMES: dict[str, int] = {
    "None": DescriptorFlags.NONE,
    "ReadOnly": DescriptorFlags.READ_ONLY,
    "Indirect": DescriptorFlags.INDIRECT,
}
_PIPELINE_LAYOUT_FLAG_NAMES: dict[str, int] = {
    "None": PipelineLayoutFlags.NONE,
    "Indirect": PipelineLayoutFlags.INDIRECT,
}


@irdl_attr_definition
class DescriptorTypeAttr(ParametrizedAttribute):
    """A descriptor type: `#hal.descriptor_type<storage_buffer>`.

    Besides naming the kind of a binding, it is the memory space of the memrefs
    that bufferized dispatches read and write:
    `memref<?x?xf32, #hal.descriptor_type<storage_buffer>>`.
    """

    name = "hal.descriptor_type"

    value: StringAttr

    def __init__(self, value: DescriptorType | str):
        super().__init__(StringAttr(DescriptorType(value).value))

    @property
    def descriptor_type(self) -> DescriptorType:
        return DescriptorType(self.value.data)

    def verify(self) -> None:
        if self.value.data not in set(DescriptorType):
            raise VerifyException(f"invalid descriptor type '{self.value.data}'")

    @staticmethod
    def parse_value(parser: AttrParser) -> DescriptorType:
        """A bare descriptor type keyword: `storage_buffer`."""
        pos = parser.pos
        if (keyword := parser.parse_optional_identifier()) not in set(DescriptorType):
            parser.raise_error(
                f"expected descriptor type to be one of: {', '.join(DescriptorType)}", pos, max(parser.pos, pos + 1)
            )
        return DescriptorType(keyword)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return [StringAttr(cls.parse_value(parser).value)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.value.data)


# ---------------------------------------------------------------------------
# Pipeline layouts
# ---------------------------------------------------------------------------


@irdl_attr_definition
class PipelineBindingAttr(ParametrizedAttribute):
    """One binding of a pipeline layout: `#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">`.

    The flags are omitted when they are `None`.
    """

    name = "hal.pipeline.binding"

    type: DescriptorTypeAttr
    flags: IntAttr

    def __init__(
        self,
        type: DescriptorType | str = DescriptorType.STORAGE_BUFFER,
        flags: DescriptorFlags | int = DescriptorFlags.NONE,
    ):
        super().__init__(DescriptorTypeAttr(type), IntAttr(int(flags)))

    @property
    def descriptor_flags(self) -> DescriptorFlags:
        return DescriptorFlags(self.flags.data)

    def verify(self) -> None:
        if self.flags.data & ~int(DescriptorFlags.READ_ONLY | DescriptorFlags.INDIRECT):
            raise VerifyException(f"invalid descriptor flags {self.flags.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            type = DescriptorTypeAttr(DescriptorTypeAttr.parse_value(parser))
            flags = 0
            if parser.parse_optional_punctuation(",") is not None:
                flags = _parse_bit_enum(parser, _DESCRIPTOR_FLAG_NAMES, "descriptor flags")
        return [type, IntAttr(flags)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.type.value.data)
            if self.flags.data != 0:
                printer.print_string(", ")
                _print_bit_enum(printer, self.flags.data, _DESCRIPTOR_FLAG_NAMES)


@irdl_attr_definition
class PipelineLayoutAttr(ParametrizedAttribute):
    """The interface of an executable function: its push constants and bindings.

    ```mlir
    #hal.pipeline.layout<constants = 4, bindings = [
      #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">,
      #hal.pipeline.binding<storage_buffer, Indirect>
    ], flags = Indirect>
    ```

    `constants` is omitted when 0; `flags` is printed whenever it was given.
    Ops print the layout without its `#hal.pipeline.layout` prefix:
    `hal.interface.constant.load layout(<constants = 4, ...>) ordinal(0) : i32`.
    """

    name = "hal.pipeline.layout"

    bindings: ArrayAttr[PipelineBindingAttr]
    constants: IntAttr
    flags: IntAttr | NoneAttr

    def __init__(
        self,
        bindings: Sequence[PipelineBindingAttr],
        constants: int = 0,
        flags: PipelineLayoutFlags | int | None = None,
    ):
        super().__init__(
            ArrayAttr(bindings),
            IntAttr(constants),
            NoneAttr() if flags is None else IntAttr(int(flags)),
        )

    @property
    def layout_flags(self) -> PipelineLayoutFlags | None:
        return PipelineLayoutFlags(self.flags.data) if isinstance(self.flags, IntAttr) else None

    def verify(self) -> None:
        if self.constants.data < 0:
            raise VerifyException(f"expected a non-negative number of constants, got {self.constants.data}")
        if isinstance(self.flags, IntAttr) and self.flags.data & ~int(PipelineLayoutFlags.INDIRECT):
            raise VerifyException(f"invalid pipeline layout flags {self.flags.data}")

    def asm_alias(self) -> str | None:
        return "pipeline_layout"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            constants = 0
            if parser.parse_optional_keyword("constants") is not None:
                parser.parse_punctuation("=")
                constants = parser.parse_integer(allow_boolean=False, allow_negative=False)
                parser.parse_punctuation(",")
            parser.parse_keyword("bindings")
            parser.parse_punctuation("=")

            def parse_binding() -> PipelineBindingAttr:
                pos = parser.pos
                if not isinstance(binding := parser.parse_attribute(), PipelineBindingAttr):
                    parser.raise_error(f"expected #hal.pipeline.binding, got {binding}", pos, parser.pos)
                return binding

            bindings = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_binding)
            flags: IntAttr | NoneAttr = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("flags")
                parser.parse_punctuation("=")
                flags = IntAttr(_parse_bit_enum(parser, _PIPELINE_LAYOUT_FLAG_NAMES, "pipeline layout flags"))
        return [ArrayAttr(bindings), IntAttr(constants), flags]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            if self.constants.data != 0:
                printer.print_string(f"constants = {self.constants.data}, ")
            printer.print_string("bindings = [")
            printer.print_list(self.bindings, printer.print_attribute)
            printer.print_string("]")
            if isinstance(self.flags, IntAttr):
                printer.print_string(", flags = ")
                _print_bit_enum(printer, self.flags.data, _PIPELINE_LAYOUT_FLAG_NAMES)


def parse_layout(parser: Parser) -> PipelineLayoutAttr:
    """Parse an op's `layout(...)` operand: `<...>` (prefix elided) or a full attribute or alias."""
    pos = parser.pos
    attr = parser.parse_optional_attribute()
    if attr is None:
        return PipelineLayoutAttr.new(PipelineLayoutAttr.parse_parameters(parser))
    if not isinstance(attr, PipelineLayoutAttr):
        parser.raise_error(f"expected #hal.pipeline.layout, got {attr}", pos, parser.pos)
    return attr


def print_layout(printer: Printer, layout: PipelineLayoutAttr) -> None:
    """Print a layout as MLIR's `printStrippedAttrOrType` does: `#alias` if it has one, else `<...>`.

    Only the MLIR-style printer knows aliases; xDSL's plain printer gets the `<...>` form.
    """
    if (print_stripped := getattr(printer, "print_stripped_attribute", None)) is not None:
        print_stripped(layout)
    else:
        layout.print_parameters(printer)


# ---------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------


@irdl_attr_definition
class ExecutableTargetAttr(ParametrizedAttribute):
    """How to compile executables for one target: backend, output format and configuration.

    ```mlir
    #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3",
      cpu_features = "+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
    ```

    The configuration is omitted when empty. Data tiling reads it to find the
    encoding resolver (`iree.encoding.resolver`) and the CPU features that decide
    the tile sizes.
    """

    name = "hal.executable.target"

    backend: StringAttr
    format: StringAttr
    configuration: DictionaryAttr

    def __init__(
        self,
        backend: str | StringAttr,
        format: str | StringAttr,
        configuration: DictionaryAttr | Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            StringAttr(backend) if isinstance(backend, str) else backend,
            StringAttr(format) if isinstance(format, str) else format,
            _sorted_dict(configuration),
        )

    @property
    def config(self) -> Mapping[str, Attribute]:
        """The configuration dictionary, as a Python mapping."""
        return self.configuration.data

    def get_config(self, key: str) -> Attribute | None:
        """The configuration entry `key`, or None."""
        return self.configuration.data.get(key)

    def has_config(self, key: str) -> bool:
        return key in self.configuration.data

    def symbol_name_fragment(self) -> str:
        """IREE's name for this target in symbols and aliases: the sanitized, lowercased format."""
        return sanitize_symbol_name(self.format.data.lower())

    def asm_alias(self) -> str | None:
        return "executable_target_" + self.symbol_name_fragment()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            backend = StringAttr(parser.parse_str_literal())
            parser.parse_punctuation(",")
            format = StringAttr(parser.parse_str_literal())
            configuration = DictionaryAttr({})
            if parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                if not isinstance(config := parser.parse_attribute(), DictionaryAttr):
                    parser.raise_error("expected a configuration dictionary", pos, parser.pos)
                configuration = _sorted_dict(config)
        return [backend, format, configuration]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.backend)
            printer.print_string(", ")
            printer.print_attribute(self.format)
            if self.configuration.data:
                printer.print_string(", ")
                printer.print_attribute(self.configuration)


@irdl_attr_definition
class DeviceTargetAttr(TypedAttribute):
    """A target device: its runtime id, configuration and the executable formats it runs.

    ```mlir
    #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
    #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_x86_64]> : !hal.device
    ```

    It is a typed attribute (of type `!hal.device`), so it can initialize a
    device global: `util.global private @__device_0 = #device_target_local`.
    """

    name = "hal.device.target"

    device_id: StringAttr
    configuration: DictionaryAttr
    executable_targets: ArrayAttr[ExecutableTargetAttr]
    type: DeviceType

    def __init__(
        self,
        device_id: str | StringAttr,
        executable_targets: Sequence[ExecutableTargetAttr] = (),
        configuration: DictionaryAttr | Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            StringAttr(device_id) if isinstance(device_id, str) else device_id,
            _sorted_dict(configuration),
            ArrayAttr(executable_targets),
            DeviceType(),
        )

    def get_config(self, key: str) -> Attribute | None:
        """The configuration entry `key`, or None."""
        return self.configuration.data.get(key)

    def symbol_name_fragment(self) -> str:
        """IREE's name for this device in aliases: the device id, plus `_<ordinal>_` if configured."""
        name = self.device_id.data.lower()
        if isinstance(ordinal := self.get_config("ordinal"), IntegerAttr):
            # The trailing `_` keeps the alias from ending in a number.
            name += f"_{ordinal.value.data}_"
        return sanitize_symbol_name(name)

    def asm_alias(self) -> str | None:
        return "device_target_" + self.symbol_name_fragment()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def parse_target() -> ExecutableTargetAttr:
            pos = parser.pos
            target = parser.parse_attribute()
            if not isinstance(target, ExecutableTargetAttr):
                parser.raise_error(f"expected #hal.executable.target, got {target}", pos, parser.pos)
            return target

        configuration = DictionaryAttr({})
        targets: list[ExecutableTargetAttr] | None = None
        with parser.in_angle_brackets():
            device_id = StringAttr(parser.parse_str_literal())
            # Either `, [targets]` or `, {config}` optionally followed by `, [targets]`.
            if parser.parse_optional_punctuation(",") is not None:
                targets = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE, parse_target)
                if targets is None:
                    pos = parser.pos
                    if not isinstance(config := parser.parse_attribute(), DictionaryAttr):
                        parser.raise_error("expected a configuration dictionary or a list of targets", pos, parser.pos)
                    configuration = _sorted_dict(config)
                    if parser.parse_optional_punctuation(",") is not None:
                        targets = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_target)
        cls._parse_trailing_type(parser)
        return [device_id, configuration, ArrayAttr(targets or []), DeviceType()]

    @staticmethod
    def _parse_trailing_type(parser: AttrParser) -> None:
        # MLIR prints typed attributes followed by `: type`; parse it here so the
        # attribute reads the same wherever it appears (alias definitions included).
        if parser.parse_optional_punctuation(":") is None:
            return
        pos = parser.pos
        if not isinstance(type := parser.parse_type(), DeviceType):
            parser.raise_error(f"expected !hal.device, got {type}", pos, parser.pos)

    def print_without_type(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.device_id)
            if self.configuration.data:
                printer.print_string(", ")
                printer.print_attribute(self.configuration)
            if self.executable_targets.data:
                printer.print_string(", [")
                printer.print_list(self.executable_targets, printer.print_attribute)
                printer.print_string("]")

    def print_parameters(self, printer: Printer) -> None:
        self.print_without_type(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.type)


# ---------------------------------------------------------------------------
# Affinities
# ---------------------------------------------------------------------------

ANY_QUEUE = -1
"""The queue mask meaning "any queue on the device"."""


def _parse_queue_mask(parser: AttrParser) -> int:
    """`, [0, 1]` sets bits 0 and 1; no list means any queue (-1)."""
    if parser.parse_optional_punctuation(",") is None:
        return ANY_QUEUE
    mask = 0
    for queue in parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False, allow_negative=False)
    ):
        if queue >= 64:
            parser.raise_error(f"queue index {queue} out of range [0, 64)")
        mask |= 1 << queue
    return mask


def _print_queue_mask(printer: Printer, mask: int) -> None:
    if mask == ANY_QUEUE:
        return
    printer.print_string(", [")
    printer.print_list((i for i in range(64) if mask & (1 << i)), lambda i: printer.print_string(str(i)))
    printer.print_string("]")


@irdl_attr_definition
class DeviceAffinityAttr(ParametrizedAttribute):
    """Where an op may run: a device global and optionally a set of its queues.

    ```mlir
    #hal.device.affinity<@__device_0>
    #hal.device.affinity<@device_b, [4, 5]>
    ```
    """

    name = "hal.device.affinity"

    device: SymbolRefAttr
    queue_mask: IntAttr

    def __init__(self, device: str | SymbolRefAttr, queue_mask: int = ANY_QUEUE):
        super().__init__(SymbolRefAttr(device) if isinstance(device, str) else device, IntAttr(queue_mask))

    @property
    def queues(self) -> list[int] | None:
        """The allowed queue indices, or None for any queue."""
        mask = self.queue_mask.data
        return None if mask == ANY_QUEUE else [i for i in range(64) if mask & (1 << i)]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            device = SymbolRefAttr(parser.parse_symbol_name())
            mask = _parse_queue_mask(parser)
        return [device, IntAttr(mask)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.device)
            _print_queue_mask(printer, self.queue_mask.data)


@irdl_attr_definition
class DevicePromiseAttr(ParametrizedAttribute):
    """An affinity to a device that is declared later in compilation: `#hal.device.promise<@device_a>`."""

    name = "hal.device.promise"

    device: StringAttr
    queue_mask: IntAttr

    def __init__(self, device: str | StringAttr, queue_mask: int = ANY_QUEUE):
        super().__init__(StringAttr(device) if isinstance(device, str) else device, IntAttr(queue_mask))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            device = parser.parse_symbol_name()
            mask = _parse_queue_mask(parser)
        return [device, IntAttr(mask)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_symbol_name(self.device.data)
            _print_queue_mask(printer, self.queue_mask.data)


@irdl_attr_definition
class DeviceOptimalAttr(ParametrizedAttribute):
    """Any one of several affinities, whichever is best: `#hal.device.optimal<[#hal.device.affinity<@a>, ...]>`."""

    name = "hal.device.optimal"

    affinities: ArrayAttr[Attribute]

    def __init__(self, affinities: Sequence[Attribute]):
        super().__init__(ArrayAttr(affinities))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            affinities = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_attribute)
        return [ArrayAttr(affinities)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets(), printer.in_square_brackets():
            printer.print_list(self.affinities, printer.print_attribute)


# ---------------------------------------------------------------------------
# Tensor import/export
# ---------------------------------------------------------------------------


def _parse_type_alias(parser: Parser) -> tuple[Attribute, Attribute]:
    """IREE's `custom<TypeAlias>`: `type` or `encoding_type as storage_type`; returns (encoding, storage)."""
    encoding = parser.parse_type()
    storage = parser.parse_type() if parser.parse_optional_keyword("as") is not None else encoding
    return encoding, storage


def _print_type_alias(printer: Printer, encoding: Attribute, storage: Attribute) -> None:
    if encoding != storage:
        printer.print_attribute(encoding)
        printer.print_string(" as ")
    printer.print_attribute(storage)


def _verify_type_storage_compatibility(encoding: Attribute, storage: Attribute) -> None:
    """The ABI-facing type may differ from the tensor type, but not in its dynamic dimensions."""
    if encoding == storage or not isinstance(encoding, ShapedType) or not isinstance(storage, ShapedType):
        return
    if count_dynamic(encoding) != count_dynamic(storage):
        raise VerifyException(
            "encoding and storage types must have the same dynamic dimension values; "
            f"encoding shape '{encoding}' incompatible with storage shape '{storage}'"
        )


def _parse_optional_affinity(parser: Parser) -> Attribute | None:
    """`on(#hal.device.affinity<@device>)`, the placement prefix shared by host-side ops."""
    if parser.parse_optional_keyword("on") is None:
        return None
    with parser.in_parens():
        return parser.parse_attribute()


def _print_optional_affinity(printer: Printer, affinity: Attribute | None) -> None:
    if affinity is None:
        return
    printer.print_string(" on(")
    printer.print_attribute(affinity)
    printer.print_string(")")


@irdl_op_definition
class TensorImportOp(IRDLOperation):
    """Imports a tensor from a HAL buffer view (or buffer).

    ```mlir
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%d0, %d1}
    %2 = hal.tensor.import on(#hal.device.affinity<@dev>) wait(%fence) => %arg1 : !hal.buffer_view -> tensor<4xf32>
    ```

    The dynamic dimensions of the result follow its type. `tensor<4xi8> as
    tensor<1xi32>` imports a value whose ABI type differs from the tensor type.
    https://iree.dev/reference/mlir-dialects/HAL/#haltensorimport-haltensorimportop
    """

    name = "hal.tensor.import"

    source = operand_def(BufferType | BufferViewType)
    target_dims = var_operand_def(IndexType)
    wait_fence = opt_operand_def(FenceType)
    byte_offset = opt_operand_def(IndexType)

    target_encoding = prop_def(TypeAttribute)
    consume = opt_prop_def(UnitAttr)
    tensor_name = opt_prop_def(StringAttr, prop_name="name")
    affinity = opt_prop_def(Attribute)

    target = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    def __init__(
        self,
        source: SSAValue,
        target_type: TensorType,
        target_dims: Sequence[SSAValue] = (),
        *,
        name: str | StringAttr | None = None,
        target_encoding: Attribute | None = None,
        consume: bool = False,
        wait_fence: SSAValue | None = None,
        byte_offset: SSAValue | None = None,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, target_dims, wait_fence, byte_offset],
            result_types=[target_type],
            properties={
                "target_encoding": target_encoding or target_type,
                "consume": UnitAttr() if consume else None,
                "name": StringAttr(name) if isinstance(name, str) else name,
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorImportOp:
        affinity = _parse_optional_affinity(parser)
        wait_fence = None
        if parser.parse_optional_keyword("wait") is not None:
            with parser.in_parens():
                wait_fence = parser.parse_unresolved_operand()
            parser.parse_punctuation("=")
            parser.parse_punctuation(">")
        consume = parser.parse_optional_keyword("consume") is not None
        source = parser.parse_unresolved_operand()
        byte_offset = None
        if parser.parse_optional_keyword("offset") is not None:
            with parser.in_parens():
                byte_offset = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        name = parser.parse_optional_str_literal()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        pos = parser.pos
        encoding, target_type = _parse_type_alias(parser)
        if not isinstance(target_type, TensorType):
            parser.raise_error(f"expected a tensor type, got {target_type}", pos, parser.pos)
        dims = [parser.resolve_operand(d, IndexType()) for d in parse_dynamic_dims(parser)]
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            parser.resolve_operand(source, source_type),
            target_type,
            dims,
            name=name,
            target_encoding=encoding,
            consume=consume,
            wait_fence=None if wait_fence is None else parser.resolve_operand(wait_fence, FenceType()),
            byte_offset=byte_offset,
            affinity=affinity,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        # All operand groups at once: each accessor decodes the segment sizes again.
        groups = operand_groups(self)
        if groups is not None:
            (source,), target_dims, fences, offsets = groups
            wait_fence = fences[0] if fences else None
            byte_offset = offsets[0] if offsets else None
        else:
            source, target_dims = self.source, self.target_dims
            wait_fence, byte_offset = self.wait_fence, self.byte_offset
        _print_optional_affinity(printer, self.affinity)
        if wait_fence is not None:
            printer.print_string(" wait(")
            printer.print_operand(wait_fence)
            printer.print_string(") =>")
        if self.consume is not None:
            printer.print_string(" consume")
        printer.print_string(" ")
        printer.print_operand(source)
        if byte_offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(byte_offset)
            printer.print_string(")")
        if self.tensor_name is not None:
            printer.print_string(" ")
            printer.print_attribute(self.tensor_name)
        printer.print_string(" : ")
        printer.print_attribute(source.type)
        printer.print_string(" -> ")
        _print_type_alias(printer, self.target_encoding, self.target.type)
        print_dynamic_dims(printer, target_dims)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if count_dynamic(self.target.type) != len(self.target_dims):
            raise VerifyException("number of target_dims must match number of dynamic dims in target type")
        _verify_type_storage_compatibility(self.target_encoding, self.target.type)


@irdl_op_definition
class TensorExportOp(IRDLOperation):
    """Exports a tensor to a HAL buffer view (or buffer).

    ```mlir
    %6 = hal.tensor.export %5 "output0" : tensor<?x?xf32>{%d0, %d1} -> !hal.buffer_view
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#haltensorexport-haltensorexportop
    """

    name = "hal.tensor.export"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)

    source_encoding = prop_def(TypeAttribute)
    tensor_name = opt_prop_def(StringAttr, prop_name="name")
    affinity = opt_prop_def(Attribute)

    target = result_def(BufferType | BufferViewType)

    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    def __init__(
        self,
        source: SSAValue,
        source_dims: Sequence[SSAValue] = (),
        *,
        name: str | StringAttr | None = None,
        source_encoding: Attribute | None = None,
        affinity: Attribute | None = None,
        target_type: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_dims],
            result_types=[target_type or BufferViewType()],
            properties={
                "source_encoding": source_encoding or source.type,
                "name": StringAttr(name) if isinstance(name, str) else name,
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorExportOp:
        affinity = _parse_optional_affinity(parser)
        source = parser.parse_unresolved_operand()
        name = parser.parse_optional_str_literal()
        parser.parse_punctuation(":")
        encoding, source_type = _parse_type_alias(parser)
        dims = [parser.resolve_operand(d, IndexType()) for d in parse_dynamic_dims(parser)]
        parser.parse_punctuation("->")
        target_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            parser.resolve_operand(source, source_type),
            dims,
            name=name,
            source_encoding=encoding,
            affinity=affinity,
            target_type=target_type,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_optional_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        if self.tensor_name is not None:
            printer.print_string(" ")
            printer.print_attribute(self.tensor_name)
        printer.print_string(" : ")
        _print_type_alias(printer, self.source_encoding, self.source.type)
        print_dynamic_dims(printer, self.source_dims)
        printer.print_string(" -> ")
        printer.print_attribute(self.target.type)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if count_dynamic(self.source.type) != len(self.source_dims):
            raise VerifyException("number of source_dims must match number of dynamic dims in source type")
        _verify_type_storage_compatibility(self.source_encoding, self.source.type)


# ---------------------------------------------------------------------------
# Buffer views
# ---------------------------------------------------------------------------

# The float types the HAL ABI can describe (IREE's `ElementTypeOp::getTypeValue`).
_ABI_FLOAT_TYPES = (
    Float16Type,
    Float32Type,
    Float64Type,
    Float128Type,
    BFloat16Type,
    Float8E5M2Type,
    Float8E4M3FNType,
    Float8E5M2FNUZType,
    Float8E4M3FNUZType,
    Float8E8M0FNUType,
)


def is_abi_element_type(type: Attribute) -> bool:
    """Whether a type has an `iree_hal_element_type_t` (integers, most floats, complex)."""
    if isinstance(type, ComplexType):
        return isinstance(type.element_type, IntegerType | AnyFloat)
    return isinstance(type, (IntegerType, *_ABI_FLOAT_TYPES))


@irdl_op_definition
class ElementTypeOp(IRDLOperation):
    """The runtime `iree_hal_element_type_t` value of an element type.

    ```mlir
    %element_type_f32 = hal.element_type<f32> : i32
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halelement_type-halelementtypeop
    """

    name = "hal.element_type"

    element_type = prop_def(TypeAttribute, prop_name="type")
    result = result_def(eq(i32))

    traits = traits_def(Pure())

    def __init__(self, element_type: Attribute):
        super().__init__(properties={"type": element_type}, result_types=[i32])

    def asm_result_names(self) -> list[str | None]:
        """IREE names the result after the type (`%element_type_f32`)."""
        return [f"element_type_{self.element_type}"]

    @classmethod
    def parse(cls, parser: Parser) -> ElementTypeOp:
        with parser.in_angle_brackets():
            element_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        if parser.parse_type() != i32:
            parser.raise_error("expected i32", pos, parser.pos)
        op = cls(element_type)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.element_type)
        printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not is_abi_element_type(self.element_type):
            raise VerifyException("unsupported element type")


@irdl_op_definition
class EncodingTypeOp(IRDLOperation):
    """The runtime `iree_hal_encoding_type_t` value of a tensor encoding.

    Only the default dense row-major layout (no encoding attribute) is supported.

    ```mlir
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halencoding_type-halencodingtypeop
    """

    name = "hal.encoding_type"

    encoding = opt_prop_def(Attribute)
    result = result_def(eq(i32))

    traits = traits_def(Pure())

    def __init__(self, encoding: Attribute | None = None):
        super().__init__(properties={"encoding": encoding}, result_types=[i32])

    def asm_result_names(self) -> list[str | None]:
        return ["dense_row_major" if self.encoding is None else None]

    @classmethod
    def parse(cls, parser: Parser) -> EncodingTypeOp:
        with parser.in_angle_brackets():
            encoding = None
            if parser.parse_optional_keyword("dense_row_major") is None:
                encoding = parser.parse_attribute()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        if parser.parse_type() != i32:
            parser.raise_error("expected i32", pos, parser.pos)
        op = cls(encoding)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        if self.encoding is None:
            printer.print_string("dense_row_major")
        else:
            printer.print_attribute(self.encoding)
        printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.encoding is not None:
            raise VerifyException("unsupported encoding type")


@irdl_op_definition
class BufferViewDimOp(IRDLOperation):
    """The size of one dimension of a buffer view.

    ```mlir
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halbuffer_viewdim-halbufferviewdimop
    """

    name = "hal.buffer_view.dim"

    buffer_view = operand_def(BufferViewType)
    index = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `` `[` $index `]` `:` type($result) attr-dict-with-keyword"
    )

    def __init__(self, buffer_view: SSAValue, index: int):
        super().__init__(
            operands=[buffer_view],
            properties={"index": IntegerAttr(index, IndexType())},
            result_types=[IndexType()],
        )


@irdl_op_definition
class BufferViewAssertOp(IRDLOperation):
    """Aborts unless a buffer view has the given shape, element type and encoding.

    ```mlir
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0")
        shape([%0, %1]) type(%element_type_f32) encoding(%dense_row_major)
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halbuffer_viewassert-halbufferviewassertop
    """

    name = "hal.buffer_view.assert"

    buffer_view = operand_def(BufferViewType)
    element_type = operand_def(eq(i32))
    encoding_type = operand_def(eq(i32))
    shape = var_operand_def(IndexType)
    message = prop_def(StringAttr)

    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `message` `(` $message `)` `shape` `(` `[` $shape `]` `)` "
        "`type` `(` $element_type `)` `encoding` `(` $encoding_type `)` attr-dict-with-keyword"
    )

    def __init__(
        self,
        buffer_view: SSAValue,
        message: str,
        shape: Sequence[SSAValue],
        element_type: SSAValue,
        encoding_type: SSAValue,
    ):
        super().__init__(
            operands=[buffer_view, element_type, encoding_type, shape],
            properties={"message": StringAttr(message)},
        )


# ---------------------------------------------------------------------------
# Executable interface
# ---------------------------------------------------------------------------


@irdl_op_definition
class InterfaceConstantLoadOp(IRDLOperation):
    """Loads a push constant of the executable's pipeline layout.

    ```mlir
    %0 = hal.interface.constant.load layout(<constants = 2, bindings = [...]>) ordinal(0) : i32
    %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) alignment(16) values([0 : i32, 32 : i32]) : i32
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halinterfaceconstantload-halinterfaceconstantloadop
    """

    name = "hal.interface.constant.load"

    layout = prop_def(PipelineLayoutAttr)
    ordinal = prop_def(IntegerAttr[IndexType])
    alignment = opt_prop_def(IntegerAttr[IndexType])
    values = opt_prop_def(ArrayAttr)

    result = result_def(IndexType | IntegerType | AnyFloat)

    traits = traits_def(Pure())

    def __init__(
        self,
        layout: PipelineLayoutAttr,
        ordinal: int,
        result_type: Attribute = i32,
        *,
        alignment: int | None = None,
        values: ArrayAttr | None = None,
    ):
        super().__init__(
            properties={
                "layout": layout,
                "ordinal": IntegerAttr(ordinal, IndexType()),
                "alignment": None if alignment is None else IntegerAttr(alignment, IndexType()),
                "values": values,
            },
            result_types=[result_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> InterfaceConstantLoadOp:
        parser.parse_keyword("layout")
        with parser.in_parens():
            layout = parse_layout(parser)
        parser.parse_keyword("ordinal")
        with parser.in_parens():
            ordinal = parser.parse_integer(allow_boolean=False)
        alignment = None
        if parser.parse_optional_keyword("alignment") is not None:
            with parser.in_parens():
                alignment = parser.parse_integer(allow_boolean=False)
        values = None
        if parser.parse_optional_keyword("values") is not None:
            with parser.in_parens():
                values = ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_attribute))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(layout, ordinal, parser.parse_type(), alignment=alignment, values=values)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" layout(")
        print_layout(printer, self.layout)
        printer.print_string(f") ordinal({self.ordinal.value.data})")
        if self.alignment is not None:
            printer.print_string(f" alignment({self.alignment.value.data})")
        if self.values is not None:
            printer.print_string(" values(")
            printer.print_attribute(self.values)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.ordinal.value.data >= self.layout.constants.data:
            raise VerifyException("push constant ordinal out of bounds")


@irdl_op_definition
class InterfaceBindingSubspanOp(IRDLOperation):
    """A view of (part of) one of the executable's bindings, typed as a tensor or memref.

    ```mlir
    %0 = hal.interface.binding.subspan layout(<constants = 4, bindings = [...], flags = Indirect>)
        binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect")
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
    %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1)
        : memref<?x4xf32, #hal.descriptor_type<storage_buffer>>{%d0}
    ```

    `alignment` is the byte alignment of the binding's base, `offset` a byte
    offset into it, `flags` the descriptor flags.
    https://iree.dev/reference/mlir-dialects/HAL/#halinterfacebindingsubspan-halinterfacebindingsubspanop
    """

    name = "hal.interface.binding.subspan"

    byte_offset = opt_operand_def(IndexType)
    dynamic_dims = var_operand_def(IndexType)

    layout = prop_def(PipelineLayoutAttr)
    binding = prop_def(IntegerAttr[IndexType])
    alignment = opt_prop_def(IntegerAttr[IndexType])
    descriptor_flags = opt_prop_def(IntegerAttr[IntegerType])

    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        result_type: Attribute,
        layout: PipelineLayoutAttr,
        binding: int,
        byte_offset: SSAValue | None = None,
        dynamic_dims: Sequence[SSAValue] = (),
        *,
        alignment: int | None = None,
        flags: DescriptorFlags | int | None = None,
    ):
        super().__init__(
            operands=[byte_offset, dynamic_dims],
            properties={
                "layout": layout,
                "binding": IntegerAttr(binding, IndexType()),
                "alignment": None if alignment is None else IntegerAttr(alignment, IndexType()),
                "descriptor_flags": None if flags is None else IntegerAttr(int(flags), i32),
            },
            result_types=[result_type],
        )

    @property
    def flags(self) -> DescriptorFlags | None:
        """The descriptor flags, or None if not given."""
        return None if self.descriptor_flags is None else DescriptorFlags(self.descriptor_flags.value.data)

    @property
    def pipeline_binding(self) -> PipelineBindingAttr:
        """The layout entry this op binds to (the op must verify)."""
        return self.layout.bindings.data[self.binding.value.data]

    @classmethod
    def parse(cls, parser: Parser) -> InterfaceBindingSubspanOp:
        parser.parse_keyword("layout")
        with parser.in_parens():
            layout = parse_layout(parser)
        parser.parse_keyword("binding")
        with parser.in_parens():
            binding = parser.parse_integer(allow_boolean=False)
        alignment = None
        if parser.parse_optional_keyword("alignment") is not None:
            with parser.in_parens():
                alignment = parser.parse_integer(allow_boolean=False)
        byte_offset = None
        if parser.parse_optional_keyword("offset") is not None:
            with parser.in_parens():
                byte_offset = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        flags = None
        if parser.parse_optional_keyword("flags") is not None:
            with parser.in_parens():
                flags = _parse_bit_enum(parser, _DESCRIPTOR_FLAG_NAMES, "descriptor flags")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        dims = [parser.resolve_operand(d, IndexType()) for d in parse_dynamic_dims(parser)]
        op = cls(result_type, layout, binding, byte_offset, dims, alignment=alignment, flags=flags)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" layout(")
        print_layout(printer, self.layout)
        printer.print_string(f") binding({self.binding.value.data})")
        if self.alignment is not None:
            printer.print_string(f" alignment({self.alignment.value.data})")
        if self.byte_offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(self.byte_offset)
            printer.print_string(")")
        if self.descriptor_flags is not None:
            printer.print_string(" flags(")
            text = _stringify_bit_enum(self.descriptor_flags.value.data, _DESCRIPTOR_FLAG_NAMES)
            # IREE quotes the empty set here (`flags("None")`), though not inside a layout attribute.
            if text == "None":
                printer.print_string('"None"')
            else:
                _print_bit_enum(printer, self.descriptor_flags.value.data, _DESCRIPTOR_FLAG_NAMES)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)
        print_dynamic_dims(printer, self.dynamic_dims)

    def verify_(self) -> None:
        result_type = self.result.type
        if isinstance(result_type, ShapedType) and count_dynamic(result_type) != len(self.dynamic_dims):
            raise VerifyException(
                f"result type '{result_type}' has {count_dynamic(result_type)} dynamic dimensions "
                f"but {len(self.dynamic_dims)} associated dimension SSA values"
            )
        binding = self.binding.value.data
        if binding >= len(self.layout.bindings.data):
            raise VerifyException(f"binding ordinal {binding} out of bounds in layout {self.layout}")


# ---------------------------------------------------------------------------
# Executables
# ---------------------------------------------------------------------------


def _parse_body_with_implicit_end(parser: Parser, end_op: type[IRDLOperation]) -> Region:
    """A single-block body whose `end_op` terminator may be left out, as IREE prints it."""
    body = parser.parse_region()
    if not body.blocks:
        body.add_block(Block())
    block = body.blocks.first
    assert block is not None
    if not isinstance(block.last_op, end_op):
        block.add_op(end_op())
    return body


def _insert_before_end(body: Region, op: Operation) -> Operation:
    """Append `op` to a body with an implicit terminator (before the terminator)."""
    block = body.block
    if (last := block.last_op) is not None and last.has_trait(IsTerminator):
        block.insert_op_before(op, last)
    else:
        block.add_op(op)
    return op


@irdl_op_definition
class ExecutableEndOp(IRDLOperation):
    """Terminator pseudo-op of `hal.executable`; never printed in custom form.

    https://iree.dev/reference/mlir-dialects/HAL/#halexecutable_end-halexecutableendop
    """

    name = "hal.executable_end"

    traits = lazy_traits_def(lambda: (HasParent(ExecutableOp), IsTerminator()))

    assembly_format = "attr-dict"


@irdl_op_definition
class ExecutableVariantEndOp(IRDLOperation):
    """Terminator pseudo-op of `hal.executable.variant`; never printed in custom form.

    https://iree.dev/reference/mlir-dialects/HAL/#halexecutablevariant_end-halexecutablevariantendop
    """

    name = "hal.executable.variant_end"

    traits = lazy_traits_def(lambda: (HasParent(ExecutableVariantOp), IsTerminator()))

    assembly_format = "attr-dict"


@irdl_op_definition
class ExecutableOp(IRDLOperation):
    """A target-specific executable: one `hal.executable.variant` per executable target.

    ```mlir
    hal.executable private @ex {
      hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
        hal.executable.export public @entry ordinal(0) layout(#pipeline_layout) count(...) -> (index, index, index) {...}
        builtin.module {
          func.func @entry() {...}
        }
      }
    }
    ```

    The body ends in an implicit `hal.executable_end`.
    https://iree.dev/reference/mlir-dialects/HAL/#halexecutable-halexecutableop
    """

    name = "hal.executable"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(StringAttr)
    lazy = opt_prop_def(UnitAttr)
    body = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (
            IsolatedFromAbove(),
            SingleBlockImplicitTerminator(ExecutableEndOp),
            SymbolOpInterface(),
            SymbolTable(),
        )
    )

    def __init__(self, sym_name: str, sym_visibility: str | None = None, body: Region | None = None):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "sym_visibility": None if sym_visibility is None else StringAttr(sym_visibility),
            },
            regions=[body if body is not None else Region(Block())],
        )
        ensure_terminator(self, SingleBlockImplicitTerminator(ExecutableEndOp))

    @property
    def variant_ops(self) -> list[ExecutableVariantOp]:
        return [op for op in self.body.block.ops if isinstance(op, ExecutableVariantOp)]

    def add_op(self, op: Operation) -> Operation:
        """Append `op` to the body, before the implicit terminator."""
        return _insert_before_end(self.body, op)

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableOp:
        from mini_iree.dialects.flow import parse_symbol_visibility

        visibility = parse_symbol_visibility(parser)
        lazy = parser.parse_optional_keyword("lazy") is not None
        sym_name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = _parse_body_with_implicit_end(parser, ExecutableEndOp)
        op = cls(sym_name.data, visibility.data if visibility is not None else None, body)
        if lazy:
            op.lazy = UnitAttr()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        from mini_iree.dialects.flow import print_symbol_visibility

        print_symbol_visibility(printer, self.sym_visibility)
        if self.lazy is not None:
            printer.print_string(" lazy")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=False)


@irdl_op_definition
class ExecutableVariantOp(IRDLOperation):
    """The executable compiled for one target: its exports and a `builtin.module` of device code.

    ```mlir
    hal.executable.variant public @embedded_elf_x86_64 target(#executable_target_embedded_elf_x86_64) {
      hal.executable.export public @entry ordinal(0) layout(#pipeline_layout)
      builtin.module {...}
    }
    ```

    IREE names a variant after its target's format (`symbol_name_fragment`).
    The body ends in an implicit `hal.executable.variant_end`.
    https://iree.dev/reference/mlir-dialects/HAL/#halexecutablevariant-halexecutablevariantop
    """

    name = "hal.executable.variant"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(StringAttr)
    target = prop_def(ExecutableTargetAttr)
    body = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (
            IsolatedFromAbove(),
            HasParent(ExecutableOp),
            SingleBlockImplicitTerminator(ExecutableVariantEndOp),
            SymbolOpInterface(),
            SymbolTable(),
        )
    )

    def __init__(
        self,
        sym_name: str,
        target: ExecutableTargetAttr,
        sym_visibility: str | None = None,
        body: Region | None = None,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "target": target,
                "sym_visibility": None if sym_visibility is None else StringAttr(sym_visibility),
            },
            regions=[body if body is not None else Region(Block())],
        )
        ensure_terminator(self, SingleBlockImplicitTerminator(ExecutableVariantEndOp))

    @property
    def export_ops(self) -> list[ExecutableExportOp]:
        return [op for op in self.body.block.ops if isinstance(op, ExecutableExportOp)]

    @property
    def inner_module(self) -> Operation | None:
        """The `builtin.module` holding the device code, or None for an external variant."""
        return next((op for op in self.body.block.ops if op.name == "builtin.module"), None)

    def add_op(self, op: Operation) -> Operation:
        """Append `op` to the body, before the implicit terminator."""
        return _insert_before_end(self.body, op)

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableVariantOp:
        from mini_iree.dialects.flow import parse_symbol_visibility

        visibility = parse_symbol_visibility(parser)
        sym_name = parser.parse_symbol_name()
        parser.parse_keyword("target")
        with parser.in_parens():
            pos = parser.pos
            target = parser.parse_attribute()
            if not isinstance(target, ExecutableTargetAttr):
                parser.raise_error(f"expected #hal.executable.target, got {target}", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = _parse_body_with_implicit_end(parser, ExecutableVariantEndOp)
        op = cls(sym_name.data, target, visibility.data if visibility is not None else None, body)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        from mini_iree.dialects.flow import print_symbol_visibility

        print_symbol_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" target(")
        printer.print_attribute(self.target)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=False)


@irdl_op_definition
class ExecutableExportOp(IRDLOperation):
    """An entry point of an executable variant, with the pipeline layout its function uses.

    ```mlir
    hal.executable.export public @entry ordinal(0) layout(#hal.pipeline.layout<constants = 2, bindings = [
        #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">,
        #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>)
        count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
      hal.return %x, %y, %z : index, index, index
    }
    ```

    The export names the function of the variant's module it runs (same name).
    The optional `count` region computes the XYZ workgroup count from the
    device and the workload a dispatch captures.
    https://iree.dev/reference/mlir-dialects/HAL/#halexecutableexport-halexecutableexportop
    """

    name = "hal.executable.export"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(StringAttr)
    ordinal = opt_prop_def(IntegerAttr[IndexType])
    layout = prop_def(PipelineLayoutAttr)
    workgroup_count = region_def()

    traits = lazy_traits_def(lambda: (HasParent(ExecutableVariantOp), IsolatedFromAbove(), SymbolOpInterface()))

    def __init__(
        self,
        sym_name: str,
        layout: PipelineLayoutAttr,
        ordinal: int | None = None,
        workgroup_count: Region | None = None,
        sym_visibility: str | None = "public",
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "layout": layout,
                "ordinal": None if ordinal is None else IntegerAttr(ordinal, IndexType()),
                "sym_visibility": None if sym_visibility is None else StringAttr(sym_visibility),
            },
            regions=[workgroup_count if workgroup_count is not None else Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableExportOp:
        from mini_iree.dialects.flow import parse_symbol_visibility, parse_workgroup_count_region

        visibility = parse_symbol_visibility(parser)
        sym_name = parser.parse_symbol_name()
        ordinal = None
        if parser.parse_optional_keyword("ordinal") is not None:
            with parser.in_parens():
                ordinal = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_keyword("layout")
        with parser.in_parens():
            pos = parser.pos
            layout = parser.parse_attribute()
            if not isinstance(layout, PipelineLayoutAttr):
                parser.raise_error(f"expected #hal.pipeline.layout, got {layout}", pos, parser.pos)
        count = Region()
        if parser.parse_optional_keyword("count") is not None:
            count = parse_workgroup_count_region(parser, ReturnOp.name)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(sym_name.data, layout, ordinal, count, visibility.data if visibility is not None else None)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        from mini_iree.dialects.flow import print_symbol_visibility, print_workgroup_count_region

        print_symbol_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.ordinal is not None:
            printer.print_string(f" ordinal({self.ordinal.value.data})")
        printer.print_string(" layout(")
        printer.print_attribute(self.layout)
        printer.print_string(")")
        if self.workgroup_count.blocks:
            printer.print_string(" count")
            print_workgroup_count_region(printer, self.workgroup_count)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        region = self.workgroup_count
        if not region.blocks:
            return
        if len(region.blocks) != 1:
            raise VerifyException("expected a single region block for the workgroup count")
        arg_types = region.block.arg_types
        if not arg_types or not isinstance(arg_types[0], DeviceType) or not all(
            isinstance(t, IndexType) for t in arg_types[1:]
        ):
            raise VerifyException(
                "expected workgroup_count to take (%device: !hal.device, %workload_0: index, %workload_1: index, ..."
            )
        for op in region.walk():
            if isinstance(op, ReturnOp) and (
                len(op.operands) != 3 or not all(isinstance(t, IndexType) for t in op.operand_types)
            ):
                raise VerifyException("workgroup count region must return the XYZ dimension counts as `index` types")


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Returns values from a `hal.*` region, e.g. the workgroup count of an export.

    ```mlir
    hal.return %x, %y, %z : index, index, index
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halreturn-halreturnop
    """

    name = "hal.return"

    values = var_operand_def()

    traits = traits_def(IsTerminator())

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None or not parent.has_trait(CallableOpInterface):
            return
        expected = parent.get_trait(CallableOpInterface).get_result_types(parent)  # type: ignore[union-attr]
        if len(self.values) != len(expected):
            raise VerifyException(
                "return must have the same number of operands as the parent result signature "
                f"(have {len(self.values)}, expected {len(expected)})"
            )


# ---------------------------------------------------------------------------
# Fences at the ABI (wrap-entry-points' coarse-fences invocation model)
# ---------------------------------------------------------------------------


def _parse_optional_wait_fence(parser: Parser) -> SSAValue | None:
    """`wait(%fence) =>`, before the source of an import or alias."""
    if parser.parse_optional_keyword("wait") is None:
        return None
    with parser.in_parens():
        fence = parser.parse_unresolved_operand()
    parser.parse_punctuation("=")
    parser.parse_punctuation(">")
    return parser.resolve_operand(fence, FenceType())


@irdl_op_definition
class TensorBarrierOp(IRDLOperation):
    """Signals a fence once every source tensor is ready; the results are the same tensors.

    ```mlir
    %2:2 = hal.tensor.barrier join(%0, %1 : tensor<4xf32>, tensor<4xf32>) => %signal : !hal.fence
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#haltensorbarrier-haltensorbarrierop
    """

    name = "hal.tensor.barrier"

    sources = var_operand_def(TensorType)
    signal_fence = operand_def(FenceType)
    results_ = var_result_def(TensorType)

    def __init__(self, sources: Sequence[SSAValue], signal_fence: SSAValue):
        super().__init__(operands=[sources, signal_fence], result_types=[[s.type for s in sources]])

    @classmethod
    def parse(cls, parser: Parser) -> TensorBarrierOp:
        parser.parse_keyword("join")
        parser.parse_punctuation("(")
        start = parser.pos
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        sources = parser.resolve_operands(names, types, start)
        parser.parse_punctuation("=")
        parser.parse_punctuation(">")
        fence = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        fence_type = parser.parse_type()
        op = cls(sources, parser.resolve_operand(fence, fence_type))
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" join(")
        printer.print_list(self.sources, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([s.type for s in self.sources], printer.print_attribute)
        printer.print_string(") => ")
        printer.print_operand(self.signal_fence)
        printer.print_string(" : ")
        printer.print_attribute(self.signal_fence.type)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if [s.type for s in self.sources] != [r.type for r in self.results_]:
            raise VerifyException("failed to verify that all of {sources, results} have same type")


@irdl_op_definition
class TensorAliasOp(IRDLOperation):
    """Makes a tensor use caller-provided storage (a result written in place).

    ```mlir
    %1 = hal.tensor.alias wait(%fence) => %0 : tensor<?x4xf32>{%d} to %buffer : !hal.buffer
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#haltensoralias-haltensoraliasop
    """

    name = "hal.tensor.alias"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    storage = operand_def(BufferType | BufferViewType)
    wait_fence = opt_operand_def(FenceType)
    affinity = opt_prop_def(Attribute)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        source_dims: Sequence[SSAValue],
        storage: SSAValue,
        wait_fence: SSAValue | None = None,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_dims, storage, wait_fence],
            result_types=[source.type],
            properties={"affinity": affinity},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorAliasOp:
        affinity = _parse_optional_affinity(parser)
        wait_fence = _parse_optional_wait_fence(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        dims = [parser.resolve_operand(d, IndexType()) for d in parse_dynamic_dims(parser)]
        parser.parse_keyword("to")
        storage = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        storage_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(source, source_type),
            dims,
            parser.resolve_operand(storage, storage_type),
            wait_fence,
            affinity,
        )
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_optional_affinity(printer, self.affinity)
        if self.wait_fence is not None:
            printer.print_string(" wait(")
            printer.print_operand(self.wait_fence)
            printer.print_string(") =>")
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        print_dynamic_dims(printer, self.source_dims)
        printer.print_string(" to ")
        printer.print_operand(self.storage)
        printer.print_string(" : ")
        printer.print_attribute(self.storage.type)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if count_dynamic(self.source.type) != len(self.source_dims):
            raise VerifyException("number of dynamic dims must match the operand type")


@irdl_op_definition
class FenceSignalOp(IRDLOperation):
    """Signals a fence from the host: `hal.fence.signal<%fence : !hal.fence>`.

    https://iree.dev/reference/mlir-dialects/HAL/#halfencesignal-halfencesignalop
    """

    name = "hal.fence.signal"

    fence = operand_def(FenceType)

    assembly_format = "`<` $fence `:` type($fence) `>` attr-dict-with-keyword"

    def __init__(self, fence: SSAValue):
        super().__init__(operands=[fence])


# IREE's FenceFlagBitfield and WaitFlagBitfield (HALAttrs.td): printed as `flags("None")`.
_FLAG_NAMES = ("None", "Reserved")


def _parse_flags(parser: Parser) -> StringAttr:
    parser.parse_keyword("flags")
    with parser.in_parens():
        start = parser.pos
        value = parser.parse_str_literal()
    if value not in _FLAG_NAMES:
        parser.raise_error(f"expected one of {', '.join(_FLAG_NAMES)} for flags, got '{value}'", start, parser.pos)
    return StringAttr(value)


@irdl_op_definition
class DevicesGetOp(IRDLOperation):
    """The device at an index of the runtime's device list: `hal.devices.get %c0 : !hal.device`."""

    name = "hal.devices.get"

    index = operand_def(IndexType)
    result = result_def(DeviceType)

    traits = traits_def(Pure())

    assembly_format = "$index attr-dict `:` type($result)"

    def __init__(self, index: SSAValue):
        super().__init__(operands=[index], result_types=[DeviceType()])


@irdl_op_definition
class DeviceResolveOp(IRDLOperation):
    """The device an affinity names: `hal.device.resolve on(#hal.device.affinity<@dev>) : !hal.device`."""

    name = "hal.device.resolve"

    affinity = opt_prop_def(Attribute)
    result = result_def(DeviceType)

    traits = traits_def(Pure())

    def __init__(self, affinity: Attribute | None):
        super().__init__(result_types=[DeviceType()], properties={"affinity": affinity})

    @classmethod
    def parse(cls, parser: Parser) -> DeviceResolveOp:
        affinity = _parse_optional_affinity(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        start = parser.pos
        if not isinstance(parser.parse_type(), DeviceType):
            parser.raise_error("expected !hal.device", start, parser.pos)
        op = cls(affinity)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_optional_affinity(printer, self.affinity)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class FenceCreateOp(IRDLOperation):
    """A new fence on a device: `hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence`."""

    name = "hal.fence.create"

    device = operand_def(DeviceType)
    flags = prop_def(StringAttr)
    result = result_def(FenceType)

    def __init__(self, device: SSAValue, flags: str = "None"):
        super().__init__(operands=[device], result_types=[FenceType()], properties={"flags": StringAttr(flags)})

    @classmethod
    def parse(cls, parser: Parser) -> FenceCreateOp:
        parser.parse_keyword("device")
        with parser.in_parens():
            device = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            device_type = parser.parse_type()
        flags = _parse_flags(parser)
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(parser.resolve_operand(device, device_type), flags.data)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" device(")
        printer.print_operand(self.device)
        printer.print_string(" : ")
        printer.print_attribute(self.device.type)
        printer.print_string(f') flags("{self.flags.data}") : ')
        printer.print_attribute(self.result.type)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if self.flags.data not in _FLAG_NAMES:
            raise VerifyException(f"invalid fence flags '{self.flags.data}'")


@irdl_op_definition
class FenceAwaitOp(IRDLOperation):
    """Blocks the host until the fences are signalled.

    ```mlir
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
    ```
    """

    name = "hal.fence.await"

    timeout_millis = operand_def(eq(i32))
    fences = var_operand_def(FenceType)
    flags = prop_def(StringAttr)
    status = result_def(eq(i32))

    def __init__(self, timeout_millis: SSAValue, fences: Sequence[SSAValue], flags: str = "None"):
        super().__init__(
            operands=[timeout_millis, fences], result_types=[i32], properties={"flags": StringAttr(flags)}
        )

    @classmethod
    def parse(cls, parser: Parser) -> FenceAwaitOp:
        parser.parse_keyword("until")
        with parser.in_parens():
            fences = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        parser.parse_keyword("timeout_millis")
        with parser.in_parens():
            timeout = parser.parse_unresolved_operand()
        flags = _parse_flags(parser)
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(
            parser.resolve_operand(timeout, i32),
            [parser.resolve_operand(f, FenceType()) for f in fences],
            flags.data,
        )
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" until([")
        printer.print_list(self.fences, printer.print_operand)
        printer.print_string("]) timeout_millis(")
        printer.print_operand(self.timeout_millis)
        printer.print_string(f') flags("{self.flags.data}") : ')
        printer.print_attribute(self.status.type)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if self.flags.data not in _FLAG_NAMES:
            raise VerifyException(f"invalid wait flags '{self.flags.data}'")


HAL = Dialect(
    "hal",
    [
        TensorImportOp,
        TensorExportOp,
        TensorBarrierOp,
        TensorAliasOp,
        FenceSignalOp,
        FenceCreateOp,
        FenceAwaitOp,
        DevicesGetOp,
        DeviceResolveOp,
        ElementTypeOp,
        EncodingTypeOp,
        BufferViewDimOp,
        BufferViewAssertOp,
        InterfaceConstantLoadOp,
        InterfaceBindingSubspanOp,
        ExecutableOp,
        ExecutableEndOp,
        ExecutableVariantOp,
        ExecutableVariantEndOp,
        ExecutableExportOp,
        ReturnOp,
    ],
    [
        BufferType,
        BufferViewType,
        DeviceType,
        FenceType,
        DescriptorTypeAttr,
        PipelineBindingAttr,
        PipelineLayoutAttr,
        ExecutableTargetAttr,
        DeviceTargetAttr,
        DeviceAffinityAttr,
        DevicePromiseAttr,
        DeviceOptimalAttr,
    ],
)
