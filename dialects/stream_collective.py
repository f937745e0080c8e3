"""Collective operations across devices: `#stream.collective`, `stream.async.collective`.

Part of the `stream` dialect (`dialects/stream.py` lists them). A collective sends a
byte range of one resource and receives into a byte range of another over a
`!stream.channel`; the attribute says which collective and on what elements:

    %0 = stream.async.collective<all_gather : f32>[%count] on(#hal.device.affinity<@dev>) channel(%ch)
           %send[%c0 to %ss for %ss], %recv[%c0 to %rs for %rs] : !stream.resource<*>{%ss} -> %recv as !stream.resource<*>{%rs}

Broadcast and recv name a `source` rank, reduce and send a `target`, send_recv a
`source_target_pair`; the other kinds take no rank.

https://iree.dev/reference/mlir-dialects/Stream/#streamasynccollective-streamasynccollectiveop
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerType, Signedness, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.stream_types import ChannelType, ResourceType


KINDS = (
    "all_gather",
    "all_reduce",
    "all_to_all",
    "broadcast",
    "reduce",
    "reduce_scatter",
    "send",
    "recv",
    "send_recv",
)
REDUCTIONS = ("none", "sum", "product", "minimum", "maximum", "average")
ELEMENT_TYPES = ("si8", "ui8", "si16", "ui16", "si32", "ui32", "si64", "ui64", "f16", "f32", "f64", "bf16")

# The rank operand each kind names (IREE's getCollectiveParamKeyword).
PARAM_KEYWORDS = {
    "broadcast": "source",
    "reduce": "target",
    "send": "target",
    "recv": "source",
    "send_recv": "source_target_pair",
}


def _parse_choice(parser: AttrParser, choices: tuple[str, ...], what: str) -> StringAttr:
    start = parser.pos
    word = parser.parse_identifier(f" ({what})")
    if word not in choices:
        parser.raise_error(f"expected one of [{', '.join(choices)}] for {what}, got '{word}'", start, parser.pos)
    return StringAttr(word)


@irdl_attr_definition
class CollectiveAttr(ParametrizedAttribute):
    """Which collective and on what elements: `#stream.collective<all_reduce with sum : f32>`.

    https://iree.dev/reference/mlir-dialects/Stream/#collectiveattr
    """

    name = "stream.collective"

    kind: StringAttr
    reduction: StringAttr  # "" when none is given
    element_type: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, StringAttr, StringAttr]:
        parser.parse_punctuation("<")
        kind = _parse_choice(parser, KINDS, "collective kind")
        reduction = StringAttr("")
        if parser.parse_optional_keyword("with") is not None:
            reduction = _parse_choice(parser, REDUCTIONS, "collective reduction op")
        parser.parse_punctuation(":")
        element_type = _parse_choice(parser, ELEMENT_TYPES, "collective element type")
        parser.parse_punctuation(">")
        return kind, reduction, element_type

    def print_parameters(self, printer: Printer) -> None:
        with_reduction = f" with {self.reduction.data}" if self.reduction.data else ""
        printer.print_string(f"<{self.kind.data}{with_reduction} : {self.element_type.data}>")


def _parse_range(parser: Parser) -> tuple:
    resource = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    offset = parser.parse_unresolved_operand()
    parser.parse_keyword("to")
    end = parser.parse_unresolved_operand()
    parser.parse_keyword("for")
    length = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    index = IndexType()
    return (
        resource,
        parser.resolve_operand(offset, index),
        parser.resolve_operand(end, index),
        parser.resolve_operand(length, index),
    )


def _print_range(printer: Printer, resource: SSAValue, offset: SSAValue, end: SSAValue, length: SSAValue) -> None:
    printer.print_operand(resource)
    printer.print_string("[")
    printer.print_operand(offset)
    printer.print_string(" to ")
    printer.print_operand(end)
    printer.print_string(" for ")
    printer.print_operand(length)
    printer.print_string("]")


@irdl_op_definition
class AsyncCollectiveOp(IRDLOperation):
    """A collective from a byte range of `source` into a byte range of `target`, in place.

    https://iree.dev/reference/mlir-dialects/Stream/#streamasynccollective-streamasynccollectiveop
    """

    name = "stream.async.collective"

    op = prop_def(CollectiveAttr)
    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    target_length = operand_def(IndexType)
    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    source_length = operand_def(IndexType)
    element_count = operand_def(IndexType)
    channel = operand_def(ChannelType)
    param = opt_operand_def(IntegerType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCollectiveOp:
        collective = CollectiveAttr(*CollectiveAttr.parse_parameters(parser))
        parser.parse_punctuation("[")
        count = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        parser.parse_punctuation("]")
        affinity = None
        if parser.parse_optional_keyword("on") is not None:
            parser.parse_punctuation("(")
            affinity = parser.parse_attribute()
            parser.parse_punctuation(")")
        parser.parse_keyword("channel")
        parser.parse_punctuation("(")
        channel = parser.resolve_operand(parser.parse_unresolved_operand(), ChannelType())
        parser.parse_punctuation(")")
        params: list[SSAValue] = []
        keyword = PARAM_KEYWORDS.get(collective.kind.data)
        if keyword is not None:
            parser.parse_keyword(keyword)
            parser.parse_punctuation("(")
            params.append(parser.resolve_operand(parser.parse_unresolved_operand(), IntegerType(32)))
            parser.parse_punctuation(")")
        source, source_offset, source_end, source_length = _parse_range(parser)
        parser.parse_punctuation(",")
        target, target_offset, target_end, target_length = _parse_range(parser)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("{")
        source_size = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        parser.parse_punctuation("}")
        parser.parse_punctuation("->")
        # IREE's custom<ShapedTiedResult>: `[%target as] type{%size}`.
        if parser.parse_optional_unresolved_operand() is not None:
            parser.parse_keyword("as")
        target_type = parser.parse_type()
        parser.parse_punctuation("{")
        target_size = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        parser.parse_punctuation("}")
        op = cls.create(
            operands=[
                parser.resolve_operand(target, target_type),
                target_size,
                target_offset,
                target_end,
                target_length,
                parser.resolve_operand(source, source_type),
                source_size,
                source_offset,
                source_end,
                source_length,
                count,
                channel,
                *params,
            ],
            result_types=[target_type],
            properties={"op": collective, **({"affinity": affinity} if affinity is not None else {})},
        )
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        self.op.print_parameters(printer)
        printer.print_string("[")
        printer.print_operand(self.element_count)
        printer.print_string("]")
        if self.affinity is not None:
            printer.print_string(" on(")
            printer.print_attribute(self.affinity)
            printer.print_string(")")
        printer.print_string(" channel(")
        printer.print_operand(self.channel)
        printer.print_string(") ")
        if self.param is not None:
            printer.print_string(f"{PARAM_KEYWORDS.get(self.op.kind.data, 'param')}(")
            printer.print_operand(self.param)
            printer.print_string(") ")
        _print_range(printer, self.source, self.source_offset, self.source_end, self.source_length)
        printer.print_string(", ")
        _print_range(printer, self.target, self.target_offset, self.target_end, self.target_length)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string("{")
        printer.print_operand(self.source_size)
        printer.print_string("} -> ")
        printer.print_operand(self.target)
        printer.print_string(" as ")
        printer.print_attribute(self.target.type)
        printer.print_string("{")
        printer.print_operand(self.target_size)
        printer.print_string("}")
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if self.target.type != self.result.type:
            raise VerifyException("failed to verify that all of {target, result} have same type")
        param = self.param
        if param is not None and not (
            isinstance(param.type, IntegerType)
            and param.type.width.data == 32
            and param.type.signedness.data == Signedness.SIGNLESS
        ):
            raise VerifyException(f"operand #12 must be 32-bit signless integer, but got '{param.type}'")
        keyword = PARAM_KEYWORDS.get(self.op.kind.data)
        if keyword is not None and param is None:
            raise VerifyException(f"collective operation requires a {keyword} parameter but none present")
        if keyword is None and param is not None:
            raise VerifyException("collective operation does not require a parameter but one present")


__all__ = ["AsyncCollectiveOp", "CollectiveAttr"]
