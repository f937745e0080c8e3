"""Devices and fences on the host: `hal.devices.get`, `hal.device.resolve`,
`hal.fence.create`, `hal.fence.await` and `hal.fence.signal`."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, StringAttr, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    eq,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.hal.syntax import parse_optional_affinity, print_optional_affinity
from mini_iree.dialects.hal.types import DeviceType, FenceType


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
        affinity = parse_optional_affinity(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        start = parser.pos
        if not isinstance(parser.parse_type(), DeviceType):
            parser.raise_error("expected !hal.device", start, parser.pos)
        op = cls(affinity)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, self.affinity)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


class _FlagsOp(IRDLOperation, ABC):
    """Host fence ops ending in `flags("None") : <result type>` and an optional `attributes {...}`."""

    FLAGS: ClassVar[str]
    """What the flags are, in the verifier's message."""

    def print_flags_and_type(self, printer: Printer, result_type: Attribute) -> None:
        printer.print_string(f' flags("{self.flags.data}") : ')  # type: ignore[attr-defined]
        printer.print_attribute(result_type)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        flags = self.flags.data  # type: ignore[attr-defined]
        if flags not in _FLAG_NAMES:
            raise VerifyException(f"invalid {self.FLAGS} flags '{flags}'")


@irdl_op_definition
class FenceCreateOp(_FlagsOp):
    """A new fence on a device: `hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence`."""

    name = "hal.fence.create"

    device = operand_def(DeviceType)
    flags = prop_def(StringAttr)
    result = result_def(FenceType)

    FLAGS: ClassVar[str] = "fence"

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
        printer.print_string(")")
        self.print_flags_and_type(printer, self.result.type)


@irdl_op_definition
class FenceAwaitOp(_FlagsOp):
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

    FLAGS: ClassVar[str] = "wait"

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
        printer.print_string(")")
        self.print_flags_and_type(printer, self.status.type)


