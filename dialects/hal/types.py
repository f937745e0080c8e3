"""The `hal` types (`!hal.buffer`, `!hal.buffer_view`, `!hal.device`, `!hal.fence`) and enums."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntFlag

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

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
DESCRIPTOR_FLAG_NAMES: dict[str, int] = {
    "None": DescriptorFlags.NONE,
    "ReadOnly": DescriptorFlags.READ_ONLY,
    "Indirect": DescriptorFlags.INDIRECT,
}
PIPELINE_LAYOUT_FLAG_NAMES: dict[str, int] = {
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


