"""Pieces of syntax the `stream` dialect's tensor and async ops share.

IREE writes them as custom directives of the ops' assembly formats:
`on(#affinity)`, a resource's size in braces (`!stream.resource<*>{%size}`),
`custom<ShapedTiedResult>` (`%target as !stream.resource<*>{%size}`), and an
`attributes {...}` dictionary after the types.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer

__all__ = [
    "parse_affinity",
    "parse_attributes",
    "parse_shaped_tied_result",
    "parse_size",
    "print_affinity",
    "print_attributes",
    "print_sized",
]


def parse_affinity(parser: Parser) -> Attribute | None:
    """`on(#hal.device.affinity<@dev>)`, if written."""
    if parser.parse_optional_keyword("on") is None:
        return None
    parser.parse_punctuation("(")
    affinity = parser.parse_attribute()
    parser.parse_punctuation(")")
    return affinity


def print_affinity(printer: Printer, affinity: Attribute | None) -> None:
    if affinity is not None:
        printer.print_string(" on(")
        printer.print_attribute(affinity)
        printer.print_string(")")


def parse_size(parser: Parser) -> SSAValue:
    """`{%size}` after a resource type."""
    parser.parse_punctuation("{")
    size = parser.parse_unresolved_operand()
    parser.parse_punctuation("}")
    return parser.resolve_operand(size, IndexType())


def print_sized(printer: Printer, value: SSAValue, size: SSAValue) -> None:
    """`!stream.resource<*>{%size}`."""
    printer.print_attribute(value.type)
    printer.print_string("{")
    printer.print_operand(size)
    printer.print_string("}")


def parse_shaped_tied_result(parser: Parser) -> tuple[Attribute, SSAValue]:
    """IREE's custom<ShapedTiedResult>: `%target as !stream.resource<*>{%size}`.

    The result is always tied to the target; like IREE's parser, the name written
    before `as` is not checked (and may be left out).
    """
    if parser.parse_optional_unresolved_operand() is not None:
        parser.parse_keyword("as")
    type_ = parser.parse_type()
    return type_, parse_size(parser)


def parse_attributes(parser: Parser, op: Operation) -> None:
    """`attributes {...}` after the types, into `op`."""
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes |= attrs.data


def print_attributes(printer: Printer, op: Operation) -> None:
    if op.attributes:
        printer.print_op_attributes(op.attributes, print_keyword=True)
