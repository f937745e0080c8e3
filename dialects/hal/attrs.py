"""The `hal` attributes: pipeline layouts, device and executable targets, affinities."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntAttr, IntegerAttr, NoneAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.hal.syntax import parse_bit_enum, print_bit_enum, sanitize_symbol_name, sorted_dict
from mini_iree.dialects.hal.types import (
    DESCRIPTOR_FLAG_NAMES,
    PIPELINE_LAYOUT_FLAG_NAMES,
    DescriptorFlags,
    DescriptorType,
    DescriptorTypeAttr,
    DeviceType,
    PipelineLayoutFlags,
)

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
                flags = parse_bit_enum(parser, DESCRIPTOR_FLAG_NAMES, "descriptor flags")
        return [type, IntAttr(flags)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.type.value.data)
            if self.flags.data != 0:
                printer.print_string(", ")
                print_bit_enum(printer, self.flags.data, DESCRIPTOR_FLAG_NAMES)


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
                flags = IntAttr(parse_bit_enum(parser, PIPELINE_LAYOUT_FLAG_NAMES, "pipeline layout flags"))
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
                print_bit_enum(printer, self.flags.data, PIPELINE_LAYOUT_FLAG_NAMES)


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
            sorted_dict(configuration),
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
                configuration = sorted_dict(config)
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
            sorted_dict(configuration),
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
                    configuration = sorted_dict(config)
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


