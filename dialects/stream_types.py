"""The types of the ``stream`` dialect: resources, bindings and timepoints.

``dialects/stream.py`` defines the dialect and re-exports these; they live here
so that the dialect's op modules (``stream_async_ops``) can use them as operand
constraints without an import cycle.

https://iree.dev/reference/mlir-dialects/Stream/#types
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


__all__ = ["BindingType", "ChannelType", "Lifetime", "ResourceType", "TimepointType"]


class Lifetime(StrEnum):
    """How long a resource lives and who manages it (``*`` = not decided yet)."""

    UNKNOWN = "*"
    EXTERNAL = "external"
    STAGING = "staging"
    TRANSIENT = "transient"
    VARIABLE = "variable"
    CONSTANT = "constant"


@irdl_attr_definition
class ResourceType(ParametrizedAttribute, TypeAttribute):
    """A sized block of device memory: ``!stream.resource<*>``, ``!stream.resource<external>``...

    Values of this type always travel with their byte size, written
    ``!stream.resource<*>{%size}`` in op syntax.

    https://iree.dev/reference/mlir-dialects/Stream/#resourcetype
    """

    name = "stream.resource"

    lifetime: StringAttr

    SIZE_AWARE: ClassVar[bool] = True

    def __init__(self, lifetime: Lifetime | str = Lifetime.UNKNOWN):
        super().__init__(StringAttr(str(lifetime)))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation("*") is not None:
                return (StringAttr(Lifetime.UNKNOWN),)
            pos = parser.pos
            lifetime = parser.parse_identifier(" (resource lifetime)")
            if lifetime not in set(Lifetime):
                parser.raise_error(f"unknown lifetime value: {lifetime}", pos, parser.pos)
        return (StringAttr(lifetime),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.lifetime.data}>")

    def verify(self) -> None:
        if self.lifetime.data not in set(Lifetime):
            raise VerifyException(f"unknown lifetime value: {self.lifetime.data}")

    @property
    def lifetime_kind(self) -> Lifetime:
        return Lifetime(self.lifetime.data)


@irdl_attr_definition
class BindingType(ParametrizedAttribute, TypeAttribute):
    """A dispatch function's handle on one of its resources: ``!stream.binding``.

    https://iree.dev/reference/mlir-dialects/Stream/#bindingtype
    """

    name = "stream.binding"


@irdl_attr_definition
class TimepointType(ParametrizedAttribute, TypeAttribute):
    """A point on a device timeline that async work can wait on: ``!stream.timepoint``.

    https://iree.dev/reference/mlir-dialects/Stream/#timepointtype
    """

    name = "stream.timepoint"


@irdl_attr_definition
class ChannelType(ParametrizedAttribute, TypeAttribute):
    """A collective communication channel between devices: ``!stream.channel``.

    https://iree.dev/reference/mlir-dialects/Stream/#channeltype
    """

    name = "stream.channel"
