"""The stream tensor ops that fill, slice and update resources: `splat`, `fill`, `slice`, `update`,
read or write one element of a staging resource (`load`, `store`), and print
staging resources at runtime (`trace`).

Part of the `stream` dialect (`dialects/stream.py` lists them); kept here because they
share a syntax of their own: a resource seen as a tensor type with its dynamic sizes,
`tensor<?x4xf32, #encoding>{%d} in !stream.resource<*>{%size}`, and, for the ops that
write into their target in place, IREE's `custom<ShapedTiedResult>`,
`in %target as !stream.resource<*>{%size}`. Each carries its tensor types as
`*_encoding` properties, which `iree-stream-specialize-encodings` resolves (splat,
fill) or requires to be serialized already (slice, update), as IREE does.

https://iree.dev/reference/mlir-dialects/Stream/#streamtensorsplat-streamtensorsplatop
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IndexType, StringAttr, TensorType
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.utils import count_dynamic, verify_op_dynamic_dims
from mini_iree.dialects.stream_syntax import (
    parse_affinity,
    parse_attributes,
    parse_shaped_tied_result,
    parse_size,
    print_affinity,
    print_attributes,
)


_AFFINITY = "(`on` `(` $affinity^ `)`)?"


def _parse_dims(parser: Parser, type_: Attribute) -> list[SSAValue]:
    count = count_dynamic(type_) if isinstance(type_, TensorType) else 0
    if not count:
        return []
    start = parser.pos
    parser.parse_punctuation("{")
    dims = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation("}")
    if len(dims) != count:
        parser.raise_error(f"expected {count} dynamic dimension values but got {len(dims)}", start, parser.pos)
    return [parser.resolve_operand(d, IndexType()) for d in dims]


def _print_encoded(printer: Printer, encoding: Attribute, dims: Sequence[SSAValue]) -> None:
    printer.print_attribute(encoding)
    if dims:
        printer.print_string("{")
        printer.print_list(dims, printer.print_operand)
        printer.print_string("}")


def _print_tied(printer: Printer, target: SSAValue, size: SSAValue) -> None:
    printer.print_string(" in ")
    printer.print_operand(target)
    printer.print_string(" as ")
    printer.print_attribute(target.type)
    printer.print_string("{")
    printer.print_operand(size)
    printer.print_string("}")


@irdl_op_definition
class TensorSplatOp(IRDLOperation):
    """A resource holding a tensor whose every element is one value.

        %0 = stream.tensor.splat on(#hal.device.affinity<@dev>) %f : f32
               -> tensor<?x4xf32>{%d} in !stream.resource<*>{%size}
    """

    name = "stream.tensor.splat"

    value = operand_def()
    result_encoding = prop_def(TypeAttribute)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def()

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        _AFFINITY + " $value `:` type($value) `->` $result_encoding (`` `{` $result_encoding_dims^ `}`)?"
        " `in` type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )


@irdl_op_definition
class TensorSliceOp(IRDLOperation):
    """A copy of a slice of a tensor held by a resource, as a resource of its own.

        %1 = stream.tensor.slice on(#hal.device.affinity<@dev>) %0[%c0, %c1 for %n, %c1]
               : tensor<?x4xf32>{%d} in !stream.resource<*>{%s} -> tensor<?x1xf32>{%n} in !stream.resource<*>{%t}
    """

    name = "stream.tensor.slice"

    source = operand_def()
    source_encoding = prop_def(TypeAttribute)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    result_encoding = prop_def(TypeAttribute)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def()

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        _AFFINITY + " $source `[` $start_indices `for` $lengths `]` `:`"
        " $source_encoding (`` `{` $source_encoding_dims^ `}`)? `in` type($source) `` `{` $source_size `}` `->`"
        " $result_encoding (`` `{` $result_encoding_dims^ `}`)? `in` type($result) `` `{` $result_size `}`"
        " attr-dict-with-keyword"
    )


@irdl_op_definition
class TensorFillOp(IRDLOperation):
    """Fill a region of a tensor held by a resource with one value, in place.

        %0 = stream.tensor.fill on(#hal.device.affinity<@dev>) %f, %t[%c0, %c0 for %c1, %c1] : f32
               -> tensor<?x4xf32>{%d} in %t as !stream.resource<*>{%size}
    """

    name = "stream.tensor.fill"

    target = operand_def()
    target_encoding = prop_def(TypeAttribute)
    target_encoding_dims = var_operand_def(IndexType)
    target_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    value = operand_def()
    affinity = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TensorFillOp:
        affinity = parse_affinity(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        starts: list[UnresolvedOperand] = []
        lengths: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation("[") is not None:
            starts = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_keyword("for")
            lengths = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        encoding = parser.parse_type()
        dims = _parse_dims(parser, encoding)
        parser.parse_keyword("in")
        target_type, size = parse_shaped_tied_result(parser)
        index = IndexType()
        op = cls.create(
            operands=[
                parser.resolve_operand(target, target_type),
                *dims,
                size,
                *(parser.resolve_operand(s, index) for s in starts),
                *(parser.resolve_operand(n, index) for n in lengths),
                parser.resolve_operand(value, value_type),
            ],
            result_types=[target_type],
            properties={
                "target_encoding": encoding,
                **({"affinity": affinity} if affinity is not None else {}),
            },
        )
        op.properties["operandSegmentSizes"] = _segments(1, len(dims), 1, len(starts), len(lengths), 1)
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        if self.start_indices:
            printer.print_string("[")
            printer.print_list(self.start_indices, printer.print_operand)
            printer.print_string(" for ")
            printer.print_list(self.lengths, printer.print_operand)
            printer.print_string("]")
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        _print_encoded(printer, self.target_encoding, self.target_encoding_dims)
        _print_tied(printer, self.target, self.target_size)
        print_attributes(printer, self)


@irdl_op_definition
class TensorUpdateOp(IRDLOperation):
    """Write a tensor into a region of another held by a resource, in place.

        %0 = stream.tensor.update on(#hal.device.affinity<@dev>) %u, %t[%c0, %c0]
               : tensor<2x2xf32> in !stream.resource<*>{%us} -> tensor<?x4xf32>{%d} in %t as !stream.resource<*>{%ts}
    """

    name = "stream.tensor.update"

    target = operand_def()
    target_encoding = prop_def(TypeAttribute)
    target_encoding_dims = var_operand_def(IndexType)
    target_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    update = operand_def()
    update_encoding = prop_def(TypeAttribute)
    update_encoding_dims = var_operand_def(IndexType)
    update_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TensorUpdateOp:
        affinity = parse_affinity(parser)
        update = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        starts = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        update_encoding = parser.parse_type()
        update_dims = _parse_dims(parser, update_encoding)
        parser.parse_keyword("in")
        update_type = parser.parse_type()
        update_size = parse_size(parser)
        parser.parse_punctuation("->")
        target_encoding = parser.parse_type()
        target_dims = _parse_dims(parser, target_encoding)
        parser.parse_keyword("in")
        target_type, target_size = parse_shaped_tied_result(parser)
        op = cls.create(
            operands=[
                parser.resolve_operand(target, target_type),
                *target_dims,
                target_size,
                *(parser.resolve_operand(s, IndexType()) for s in starts),
                parser.resolve_operand(update, update_type),
                *update_dims,
                update_size,
            ],
            result_types=[target_type],
            properties={
                "target_encoding": target_encoding,
                "update_encoding": update_encoding,
                **({"affinity": affinity} if affinity is not None else {}),
            },
        )
        op.properties["operandSegmentSizes"] = _segments(1, len(target_dims), 1, len(starts), 1, len(update_dims), 1)
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.update)
        printer.print_string(", ")
        printer.print_operand(self.target)
        printer.print_string("[")
        printer.print_list(self.start_indices, printer.print_operand)
        printer.print_string("] : ")
        _print_encoded(printer, self.update_encoding, self.update_encoding_dims)
        printer.print_string(" in ")
        printer.print_attribute(self.update.type)
        printer.print_string("{")
        printer.print_operand(self.update_size)
        printer.print_string("} -> ")
        _print_encoded(printer, self.target_encoding, self.target_encoding_dims)
        _print_tied(printer, self.target, self.target_size)
        print_attributes(printer, self)


def _verify_staging(value: SSAValue, index: int, constraint: str = "staging resource") -> None:
    """IREE's Stream_StagingResource operand constraint (host-visible memory)."""
    type_ = value.type
    if getattr(type_, "name", None) != "stream.resource" or type_.lifetime.data != "staging":  # type: ignore[attr-defined]
        raise VerifyException(f"operand #{index} must be {constraint}, but got '{type_}'")


def _verify_indices(encoding: Attribute, indices: Sequence[SSAValue]) -> None:
    if isinstance(encoding, TensorType) and len(indices) != encoding.get_num_dims():
        raise VerifyException("indices rank mismatch")


def _parse_optional_indices(parser: Parser) -> list[SSAValue]:
    if parser.parse_optional_punctuation("[") is None:
        return []
    indices = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation("]")
    return [parser.resolve_operand(i, IndexType()) for i in indices]


def _print_optional_indices(printer: Printer, indices: Sequence[SSAValue]) -> None:
    if indices:
        printer.print_string("[")
        printer.print_list(indices, printer.print_operand)
        printer.print_string("]")


@irdl_op_definition
class TensorLoadOp(IRDLOperation):
    """Reads one element of a tensor held by a staging resource.

        %0 = stream.tensor.load %r[%c0] : tensor<?xf32>{%d} in !stream.resource<staging>{%size} -> f32

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorload-streamtensorloadop
    """

    name = "stream.tensor.load"

    source = operand_def()
    source_encoding = prop_def(TypeAttribute)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    indices = var_operand_def(IndexType)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TensorLoadOp:
        source = parser.parse_unresolved_operand()
        indices = _parse_optional_indices(parser)
        parser.parse_punctuation(":")
        encoding = parser.parse_type()
        dims = _parse_dims(parser, encoding)
        parser.parse_keyword("in")
        source_type = parser.parse_type()
        size = parse_size(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls.create(
            operands=[parser.resolve_operand(source, source_type), *dims, size, *indices],
            result_types=[result_type],
            properties={"source_encoding": encoding},
        )
        op.properties["operandSegmentSizes"] = _segments(1, len(dims), 1, len(indices))
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_optional_indices(printer, self.indices)
        printer.print_string(" : ")
        _print_encoded(printer, self.source_encoding, self.source_encoding_dims)
        printer.print_string(" in ")
        printer.print_attribute(self.source.type)
        printer.print_string("{")
        printer.print_operand(self.source_size)
        printer.print_string("} -> ")
        printer.print_attribute(self.result.type)
        print_attributes(printer, self)

    def verify_(self) -> None:
        _verify_staging(self.source, 0)
        verify_op_dynamic_dims([self.source_encoding], self.source_encoding_dims, set_name="type")
        _verify_indices(self.source_encoding, self.indices)


@irdl_op_definition
class TensorStoreOp(IRDLOperation):
    """Writes one element of a tensor held by a staging resource, in place.

        %0 = stream.tensor.store %v, %r[%c0] : f32 -> tensor<?xf32>{%d} in %r as !stream.resource<staging>{%size}

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorstore-streamtensorstoreop
    """

    name = "stream.tensor.store"

    target = operand_def()
    target_encoding = prop_def(TypeAttribute)
    target_encoding_dims = var_operand_def(IndexType)
    target_size = operand_def(IndexType)
    indices = var_operand_def(IndexType)
    value = operand_def()
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TensorStoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        indices = _parse_optional_indices(parser)
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        encoding = parser.parse_type()
        dims = _parse_dims(parser, encoding)
        parser.parse_keyword("in")
        target_type, size = parse_shaped_tied_result(parser)
        op = cls.create(
            operands=[
                parser.resolve_operand(target, target_type),
                *dims,
                size,
                *indices,
                parser.resolve_operand(value, value_type),
            ],
            result_types=[target_type],
            properties={"target_encoding": encoding},
        )
        op.properties["operandSegmentSizes"] = _segments(1, len(dims), 1, len(indices), 1)
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        _print_optional_indices(printer, self.indices)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        _print_encoded(printer, self.target_encoding, self.target_encoding_dims)
        _print_tied(printer, self.target, self.target_size)
        print_attributes(printer, self)

    def verify_(self) -> None:
        _verify_staging(self.target, 0)
        verify_op_dynamic_dims([self.target_encoding], self.target_encoding_dims, set_name="type")
        _verify_indices(self.target_encoding, self.indices)


@irdl_op_definition
class TensorTraceOp(IRDLOperation):
    """Prints the tensors held by staging resources at runtime, under a key.

        stream.tensor.trace "key" = [
          %0 : tensor<?x4xf32>{%d} in !stream.resource<staging>{%size}
        ]

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensortrace-streamtensortraceop
    """

    name = "stream.tensor.trace"

    key = prop_def(StringAttr)
    resources = var_operand_def()
    resource_sizes = var_operand_def(IndexType)
    resource_encodings = prop_def(ArrayAttr)
    resource_encoding_dims = var_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> TensorTraceOp:
        key = parser.parse_str_literal()
        parser.parse_punctuation("=")

        def parse_entry() -> tuple[SSAValue, Attribute, list[SSAValue], SSAValue]:
            # IREE's custom<EncodedResourceOperands>: `%r : tensor<...>{%dims} in type{%size}`.
            operand = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            encoding = parser.parse_type()
            dims = _parse_dims(parser, encoding)
            parser.parse_keyword("in")
            type_ = parser.parse_type()
            return parser.resolve_operand(operand, type_), encoding, dims, parse_size(parser)

        entries = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_entry)
        op = cls.create(
            operands=[
                *(e[0] for e in entries),
                *(e[3] for e in entries),
                *(d for e in entries for d in e[2]),
            ],
            properties={"key": StringAttr(key), "resource_encodings": ArrayAttr([e[1] for e in entries])},
        )
        op.properties["operandSegmentSizes"] = _segments(len(entries), len(entries), sum(len(e[2]) for e in entries))
        parse_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.key.data)
        printer.print_string(" = [")
        dims = list(self.resource_encoding_dims)
        entries = list(zip(self.resources, self.resource_sizes, self.resource_encodings.data))
        with printer.indented():
            for i, (resource, size, encoding) in enumerate(entries):
                printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
                printer.print_operand(resource)
                printer.print_string(" : ")
                count = count_dynamic(encoding) if isinstance(encoding, TensorType) else 0
                _print_encoded(printer, encoding, dims[:count])
                dims = dims[count:]
                printer.print_string(" in ")
                printer.print_attribute(resource.type)
                printer.print_string("{")
                printer.print_operand(size)
                printer.print_string("}")
                if i + 1 < len(entries):
                    printer.print_string(",")
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
        printer.print_string("]")
        print_attributes(printer, self)

    def verify_(self) -> None:
        encodings = self.resource_encodings.data
        if not (len(self.resources) == len(encodings) == len(self.resource_sizes)):
            raise VerifyException(
                "each resource needs a matching resource encoding and size (array length mismatch)"
            )
        verify_op_dynamic_dims(list(encodings), self.resource_encoding_dims, set_name="type")
        # ODS numbers operand groups: the resources are group #0, checked as one variadic.
        for resource in self.resources:
            _verify_staging(resource, 0, "variadic of staging resource")


def _segments(*sizes: int):
    from xdsl.dialects.builtin import DenseArrayBase, i32

    return DenseArrayBase.from_list(i32, list(sizes))
