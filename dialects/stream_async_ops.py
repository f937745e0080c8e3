"""The stream async ops on bytes of resources: `splat`, `fill`, `slice`, `update`, `copy`, `load`, `store`.

Part of the `stream` dialect (`dialects/stream.py` lists them); kept here because they
share a syntax of their own. `iree-stream-encode-host-tensors` lowers the tensor ops of
`dialects/stream_tensor_ops.py` to them: the tensor types are gone, offsets and sizes
are in bytes (`%r[%offset to %end]`, `[... for %length]` when the op writes a range),
splat/fill patterns are integers of 8, 16, 32 or 64 bits, and loads and stores of one
value read and write host-visible (`staging`) resources. The ops that write into
their target in place print it as IREE's `custom<ShapedTiedResult>`,
`-> %target as !stream.resource<*>{%size}`.

https://iree.dev/reference/mlir-dialects/Stream/#streamasyncsplat-streamasyncsplatop
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerType, Signedness
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.stream_types import ResourceType, TimepointType
from mini_iree.dialects.stream_syntax import (
    parse_affinity,
    parse_attributes,
    parse_shaped_tied_result,
    parse_size,
    print_affinity,
    print_attributes,
    print_sized,
)


_AFFINITY = "(`on` `(` $affinity^ `)`)?"

# IREE's Stream_FillPatternType, with the wording ODS gives its operand check.
_FILL_PATTERN_WIDTHS = (8, 16, 32, 64)
_FILL_PATTERN_DESCRIPTION = " or ".join(f"{w}-bit signless integer" for w in _FILL_PATTERN_WIDTHS)


def _verify_fill_pattern(value: SSAValue, index: int) -> None:
    ty = value.type
    if not (
        isinstance(ty, IntegerType)
        and ty.signedness.data == Signedness.SIGNLESS
        and ty.width.data in _FILL_PATTERN_WIDTHS
    ):
        raise VerifyException(f"operand #{index} must be {_FILL_PATTERN_DESCRIPTION}, but got '{ty}'")


def _verify_same_type(a: SSAValue, b: SSAValue, names: str) -> None:
    if a.type != b.type:
        raise VerifyException(f"failed to verify that all of {{{names}}} have same type")


def _parse_index(parser: Parser) -> SSAValue:
    return parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())


def _print_range(printer: Printer, resource: SSAValue, offset: SSAValue, end: SSAValue) -> None:
    printer.print_operand(resource)
    printer.print_string("[")
    printer.print_operand(offset)
    printer.print_string(" to ")
    printer.print_operand(end)


def _print_tied(printer: Printer, target: SSAValue, size: SSAValue) -> None:
    printer.print_string(" -> ")
    printer.print_operand(target)
    printer.print_string(" as ")
    print_sized(printer, target, size)


@irdl_op_definition
class AsyncSplatOp(IRDLOperation):
    """A new resource whose every byte pattern is `value` (an i8/i16/i32/i64).

        %0 = stream.async.splat %c0_i32 : i32 -> !stream.resource<*>{%size}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncsplat-streamasyncsplatop
    """

    name = "stream.async.splat"

    await_timepoint = opt_operand_def(TimepointType)
    value = operand_def()
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    assembly_format = (
        _AFFINITY + " (`await` `(` $await_timepoint^ `)`)?"
        " $value `:` type($value) `->` type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        result_type: Attribute,
        value: SSAValue | Operation,
        result_size: SSAValue | Operation,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[[await_timepoint] if await_timepoint is not None else [], value, result_size],
            result_types=[result_type],
            properties={"affinity": affinity},
        )

    def verify_(self) -> None:
        # ODS counts operands as they are laid out: after the timepoint when there is one.
        _verify_fill_pattern(self.value, 0 if self.await_timepoint is None else 1)


@irdl_op_definition
class AsyncSliceOp(IRDLOperation):
    """A copy of the bytes `[offset, end)` of a resource, as a new resource.

        %1 = stream.async.slice %0[%c0 to %c128] : !stream.resource<*>{%size} -> !stream.resource<*>{%c128}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncslice-streamasyncsliceop
    """

    name = "stream.async.slice"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    assembly_format = (
        _AFFINITY + " $source `[` $source_offset `to` $source_end `]` `:`"
        " type($source) `` `{` $source_size `}` `->` type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        result_type: Attribute,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        source_offset: SSAValue | Operation,
        source_end: SSAValue | Operation,
        result_size: SSAValue | Operation,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_size, source_offset, source_end, result_size],
            result_types=[result_type],
            properties={"affinity": affinity},
        )

    def verify_(self) -> None:
        _verify_same_type(self.source, self.result, "source, result")


@irdl_op_definition
class AsyncFillOp(IRDLOperation):
    """Writes the pattern `value` over the bytes `[offset, end)` of `target`, in place.

        %1 = stream.async.fill %c0_i8, %0[%c0 to %c128 for %c128] : i8 -> %0 as !stream.resource<*>{%size}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncfill-streamasyncfillop
    """

    name = "stream.async.fill"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    target_length = operand_def(IndexType)
    value = operand_def()
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        result_type: Attribute,
        target: SSAValue | Operation,
        target_size: SSAValue | Operation,
        target_offset: SSAValue | Operation,
        target_end: SSAValue | Operation,
        target_length: SSAValue | Operation,
        value: SSAValue | Operation,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, target_end, target_length, value],
            result_types=[result_type],
            properties={"affinity": affinity},
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncFillOp:
        affinity = parse_affinity(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = _parse_index(parser)
        parser.parse_keyword("to")
        end = _parse_index(parser)
        parser.parse_keyword("for")
        length = _parse_index(parser)
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        target_type, target_size = parse_shaped_tied_result(parser)
        op = cls(
            target_type,
            parser.resolve_operand(target, target_type),
            target_size,
            offset,
            end,
            length,
            parser.resolve_operand(value, value_type),
            affinity,
        )
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        _print_range(printer, self.target, self.target_offset, self.target_end)
        printer.print_string(" for ")
        printer.print_operand(self.target_length)
        printer.print_string("] : ")
        printer.print_attribute(self.value.type)
        _print_tied(printer, self.target, self.target_size)
        print_attributes(printer, self)

    def verify_(self) -> None:
        _verify_same_type(self.target, self.result, "target, result")
        _verify_fill_pattern(self.value, 5)


@irdl_op_definition
class AsyncUpdateOp(IRDLOperation):
    """Writes the bytes of `update` over `[offset, end)` of `target`, in place.

        %2 = stream.async.update %1, %0[%c0 to %c128] : !stream.resource<*>{%c128} -> %0 as !stream.resource<*>{%size}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncupdate-streamasyncupdateop
    """

    name = "stream.async.update"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    update = operand_def(ResourceType)
    update_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        result_type: Attribute,
        target: SSAValue | Operation,
        target_size: SSAValue | Operation,
        target_offset: SSAValue | Operation,
        target_end: SSAValue | Operation,
        update: SSAValue | Operation,
        update_size: SSAValue | Operation,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, target_end, update, update_size],
            result_types=[result_type],
            properties={"affinity": affinity},
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncUpdateOp:
        affinity = parse_affinity(parser)
        update = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = _parse_index(parser)
        parser.parse_keyword("to")
        end = _parse_index(parser)
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        update_type = parser.parse_type()
        update_size = parse_size(parser)
        parser.parse_punctuation("->")
        target_type, target_size = parse_shaped_tied_result(parser)
        op = cls(
            target_type,
            parser.resolve_operand(target, target_type),
            target_size,
            offset,
            end,
            parser.resolve_operand(update, update_type),
            update_size,
            affinity,
        )
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.update)
        printer.print_string(", ")
        _print_range(printer, self.target, self.target_offset, self.target_end)
        printer.print_string("] : ")
        print_sized(printer, self.update, self.update_size)
        _print_tied(printer, self.target, self.target_size)
        print_attributes(printer, self)

    def verify_(self) -> None:
        _verify_same_type(self.target, self.result, "target, result")


@irdl_op_definition
class AsyncCopyOp(IRDLOperation):
    """Copies `length` bytes from `[source_offset, source_end)` of `source` into `target`, in place.

        %2 = stream.async.copy %1[%c0 to %c128], %0[%c0 to %c128], %c128
               : !stream.resource<*>{%s} -> %0 as !stream.resource<*>{%t}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasynccopy-streamasynccopyop
    """

    name = "stream.async.copy"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    length = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        result_type: Attribute,
        target: SSAValue | Operation,
        target_size: SSAValue | Operation,
        target_offset: SSAValue | Operation,
        target_end: SSAValue | Operation,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        source_offset: SSAValue | Operation,
        source_end: SSAValue | Operation,
        length: SSAValue | Operation,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[
                target, target_size, target_offset, target_end,
                source, source_size, source_offset, source_end, length,
            ],
            result_types=[result_type],
            properties={"affinity": affinity},
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCopyOp:
        affinity = parse_affinity(parser)

        def parse_range() -> tuple[UnresolvedOperand, SSAValue, SSAValue]:
            resource = parser.parse_unresolved_operand()
            parser.parse_punctuation("[")
            offset = _parse_index(parser)
            parser.parse_keyword("to")
            end = _parse_index(parser)
            parser.parse_punctuation("]")
            return resource, offset, end

        source, source_offset, source_end = parse_range()
        parser.parse_punctuation(",")
        target, target_offset, target_end = parse_range()
        parser.parse_punctuation(",")
        length = _parse_index(parser)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        source_size = parse_size(parser)
        parser.parse_punctuation("->")
        target_type, target_size = parse_shaped_tied_result(parser)
        op = cls(
            target_type,
            parser.resolve_operand(target, target_type),
            target_size,
            target_offset,
            target_end,
            parser.resolve_operand(source, source_type),
            source_size,
            source_offset,
            source_end,
            length,
            affinity,
        )
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        _print_range(printer, self.source, self.source_offset, self.source_end)
        printer.print_string("], ")
        _print_range(printer, self.target, self.target_offset, self.target_end)
        printer.print_string("], ")
        printer.print_operand(self.length)
        printer.print_string(" : ")
        print_sized(printer, self.source, self.source_size)
        _print_tied(printer, self.target, self.target_size)
        print_attributes(printer, self)

    def verify_(self) -> None:
        _verify_same_type(self.target, self.result, "target, result")


def _verify_staging(value: SSAValue, index: int) -> None:
    """IREE's Stream_StagingResource operand constraint (host-visible memory)."""
    type_ = value.type
    if not isinstance(type_, ResourceType) or type_.lifetime.data != "staging":
        raise VerifyException(f"operand #{index} must be staging resource, but got '{type_}'")


@irdl_op_definition
class AsyncLoadOp(IRDLOperation):
    """Reads a value at a byte offset of a staging resource.

        %0 = stream.async.load %r[%c0] : !stream.resource<staging>{%size} -> f32

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncload-streamasyncloadop
    """

    name = "stream.async.load"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result = result_def()

    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` type($result)"
        " attr-dict-with-keyword"
    )

    def __init__(
        self,
        result_type: Attribute,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        source_offset: SSAValue | Operation,
    ):
        super().__init__(operands=[source, source_size, source_offset], result_types=[result_type])

    def verify_(self) -> None:
        _verify_staging(self.source, 0)


@irdl_op_definition
class AsyncStoreOp(IRDLOperation):
    """Writes a value at a byte offset of a staging resource, in place.

        %0 = stream.async.store %v, %r[%c0] : f32 -> %r as !stream.resource<staging>{%size}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncstore-streamasyncstoreop
    """

    name = "stream.async.store"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    value = operand_def()
    result = result_def(ResourceType)

    def __init__(
        self,
        target: SSAValue | Operation,
        target_size: SSAValue | Operation,
        target_offset: SSAValue | Operation,
        value: SSAValue | Operation,
    ):
        target_value = SSAValue.get(target)
        super().__init__(operands=[target, target_size, target_offset, value], result_types=[target_value.type])

    @classmethod
    def parse(cls, parser: Parser) -> AsyncStoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = _parse_index(parser)
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        target_type, target_size = parse_shaped_tied_result(parser)
        op = cls(
            parser.resolve_operand(target, target_type),
            target_size,
            offset,
            parser.resolve_operand(value, value_type),
        )
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        printer.print_string("[")
        printer.print_operand(self.target_offset)
        printer.print_string("] : ")
        printer.print_attribute(self.value.type)
        _print_tied(printer, self.target, self.target_size)
        print_attributes(printer, self)

    def verify_(self) -> None:
        _verify_staging(self.target, 0)
        _verify_same_type(self.target, self.result, "target, result")
