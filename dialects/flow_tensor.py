"""``flow.tensor.*``: whole-tensor ops on the host side of dispatches.

IREE's flow dialect moves, reshapes and patches whole tensors between
dispatches with these ops; each carries the dynamic sizes of its tensors as
``{%d0, ...}`` operands after their types.

    %1 = flow.tensor.reshape %0 : tensor<?x4xf32>{%n} -> tensor<?xf32>{%m}
    %2 = flow.tensor.bitcast %0 : tensor<4xi32> -> tensor<4xf32>
    %3 = flow.tensor.load %0[%i, %j] : tensor<?x4xf32>{%n}
    %4 = flow.tensor.store %v, %0[%i, %j] : tensor<?x4xf32>{%n}
    %5 = flow.tensor.splat %v : tensor<?x4xf32>{%n}
    %6 = flow.tensor.clone %0 : tensor<?x4xf32>{%n}
    %7 = flow.tensor.slice %0[%i, %j for %h, %w] : tensor<?x4xf32>{%n} -> tensor<?x?xf32>{%h, %w}
    %8 = flow.tensor.update %u, %0[%i, %j] : tensor<?x?xf32>{%h, %w} -> %0 as tensor<?x4xf32>{%n}
    %9 = flow.tensor.alloca : tensor<?x4xf32>{%n}
    %10 = flow.tensor.empty : tensor<?x4xf32>{%n}
    %11 = flow.tensor.transfer %0 : tensor<?x4xf32>{%n} to #hal.device.promise<@dev_a>
    %12 = flow.tensor.tie_shape %0 : tensor<?x4xf32>{%n}
    flow.tensor.trace "key" = [%0 : tensor<?x4xf32>{%n}, %1 : tensor<4xf32>]

Formats and verifier messages are IREE's (FlowOps.td / FlowOps.cpp).
https://iree.dev/reference/mlir-dialects/Flow/
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, StringAttr, TensorType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait, MemoryAllocEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.utils import count_dynamic, verify_op_dynamic_dims

# -- shared syntax -------------------------------------------------------------------


def _parse_dims(parser: Parser, type_: Attribute) -> list[SSAValue]:
    """``{%d0, %d1}`` after a type: one index operand per ``?`` (nothing for static types)."""
    count = count_dynamic(type_) if isinstance(type_, TensorType) else 0
    if count == 0:
        return []
    start = parser.pos
    parser.parse_punctuation("{")
    dims = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation("}")
    if len(dims) != count:
        parser.raise_error(f"expected {count} dynamic dimension values but got {len(dims)}", start, parser.pos)
    return [parser.resolve_operand(d, IndexType()) for d in dims]


def _print_type_and_dims(printer: Printer, type_: Attribute, dims: Sequence[SSAValue]) -> None:
    printer.print_attribute(type_)
    if dims:
        printer.print_string("{")
        printer.print_list(dims, printer.print_operand)
        printer.print_string("}")


def _parse_indices(parser: Parser) -> list[UnresolvedOperand]:
    indices = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
    return indices or []


def _print_indices(printer: Printer, indices: Sequence[SSAValue]) -> None:
    if indices:
        printer.print_string("[")
        printer.print_list(indices, printer.print_operand)
        printer.print_string("]")


def _index_operands(parser: Parser, operands: Sequence[UnresolvedOperand]) -> list[SSAValue]:
    return [parser.resolve_operand(o, IndexType()) for o in operands]


def _parse_attr_dict_with_keyword(parser: Parser, op: Operation) -> None:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes |= attrs.data


def _print_attr_dict_with_keyword(printer: Printer, op: Operation) -> None:
    if op.attributes:
        printer.print_op_attributes(op.attributes, print_keyword=True)


def _same_element_type(names: str, *types: Attribute) -> None:
    elements = {t.element_type for t in types if isinstance(t, TensorType)}
    if len(elements) > 1:
        raise VerifyException(f"failed to verify that all of {{{names}}} have same element type")


def _same_rank(names: str, *types: Attribute) -> None:
    ranks = {t.get_num_dims() for t in types if isinstance(t, TensorType)}
    if len(ranks) > 1:
        raise VerifyException(f"failed to verify that all of {{{names}}} have same rank")


def _same_type(names: str, *types: Attribute) -> None:
    if len(set(types)) > 1:
        raise VerifyException(f"failed to verify that all of {{{names}}} have same type")


def _bit_width(type_: Attribute) -> int | None:
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, AnyFloat):
        return type_.bitwidth
    if isinstance(type_, IndexType):
        return None
    return None


def _is_primitive(type_: Attribute) -> bool:
    # FLOW_PrimitiveType (index, integer, float) or a vector of them.
    return isinstance(type_, IndexType | IntegerType | AnyFloat | VectorType)


# -- reshape and bitcast: a new type over the same contents ------------------------------


class ReshapeLikeOpBase(IRDLOperation):
    """`$source : type{dims} -> type{dims}`: a new type over the same contents
    (shared with `iree_tensor_ext.bitcast`)."""

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    assembly_format = (
        "$source `:` type($source) (`{` $source_dims^ `}`)? `->` type($result) (`{` $result_dims^ `}`)?"
        " attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        result_type: Attribute,
        source_dims: Sequence[SSAValue | Operation] = (),
        result_dims: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(operands=[source, source_dims, result_dims], result_types=[result_type])

    def _verify_dims(self) -> None:
        verify_op_dynamic_dims([self.source.type], self.source_dims)
        verify_op_dynamic_dims([self.result.type], self.result_dims)


@irdl_op_definition
class TensorReshapeOp(ReshapeLikeOpBase):
    """Reshapes a tensor without modifying the contents (row-major order is kept)."""

    name = "flow.tensor.reshape"

    def verify_(self) -> None:
        _same_element_type("source, result", self.source.type, self.result.type)
        source, result = self.source.type, self.result.type
        assert isinstance(source, TensorType) and isinstance(result, TensorType)
        if _bit_width(source.element_type) != _bit_width(result.element_type):
            raise VerifyException("element bit widths must match")
        self._verify_dims()


@irdl_op_definition
class TensorBitCastOp(ReshapeLikeOpBase):
    """Reinterprets the bytes of a tensor as another type (element type and shape may change)."""

    name = "flow.tensor.bitcast"

    def verify_(self) -> None:
        self._verify_dims()


# -- element access ----------------------------------------------------------------------


@irdl_op_definition
class TensorLoadOp(IRDLOperation):
    """Loads one element of a tensor: `flow.tensor.load %t[%i, %j] : tensor<?x4xf32>{%n}`."""

    name = "flow.tensor.load"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    indices = var_operand_def(IndexType)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        indices: Sequence[SSAValue] = (),
        source_dims: Sequence[SSAValue] = (),
    ):
        assert isinstance(source.type, TensorType)
        super().__init__(operands=[source, source_dims, indices], result_types=[source.type.element_type])

    @classmethod
    def parse(cls, parser: Parser) -> TensorLoadOp:
        source = parser.parse_unresolved_operand()
        indices = _parse_indices(parser)
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        dims = _parse_dims(parser, type_)
        op = cls(parser.resolve_operand(source, type_), _index_operands(parser, indices), dims)
        _parse_attr_dict_with_keyword(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_indices(printer, self.indices)
        printer.print_string(" : ")
        _print_type_and_dims(printer, self.source.type, self.source_dims)
        _print_attr_dict_with_keyword(printer, self)

    def verify_(self) -> None:
        verify_op_dynamic_dims([self.source.type], self.source_dims)
        if not _is_primitive(self.result.type):
            raise VerifyException(f"result #0 must be index or integer or floating-point, but got '{self.result.type}'")


@irdl_op_definition
class TensorStoreOp(IRDLOperation):
    """Stores one element into a tensor: `flow.tensor.store %v, %t[%i] : tensor<?xf32>{%n}`."""

    name = "flow.tensor.store"

    value = operand_def()
    target = operand_def(TensorType)
    target_dims = var_operand_def(IndexType)
    indices = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue,
        target: SSAValue,
        indices: Sequence[SSAValue] = (),
        target_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(operands=[value, target, target_dims, indices], result_types=[target.type])

    @classmethod
    def parse(cls, parser: Parser) -> TensorStoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        indices = _parse_indices(parser)
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        dims = _parse_dims(parser, type_)
        if not isinstance(type_, TensorType):
            parser.raise_error(f"expected a tensor type, got {type_}")
        op = cls(
            parser.resolve_operand(value, type_.element_type),
            parser.resolve_operand(target, type_),
            _index_operands(parser, indices),
            dims,
        )
        _parse_attr_dict_with_keyword(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        _print_indices(printer, self.indices)
        printer.print_string(" : ")
        _print_type_and_dims(printer, self.target.type, self.target_dims)
        _print_attr_dict_with_keyword(printer, self)

    def verify_(self) -> None:
        _same_type("target, result", self.target.type, self.result.type)
        verify_op_dynamic_dims([self.target.type], self.target_dims)
        assert isinstance(self.target.type, TensorType)
        if self.value.type != self.target.type.element_type:
            raise VerifyException("failed to verify that value type matches element type of target")


# -- new tensors ----------------------------------------------------------------------------


@irdl_op_definition
class TensorSplatOp(IRDLOperation):
    """A tensor with every element `value`: `flow.tensor.splat %v : tensor<?x4xf32>{%n}`."""

    name = "flow.tensor.splat"

    value = operand_def()
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, value: SSAValue, result_type: Attribute, result_dims: Sequence[SSAValue] = ()):
        super().__init__(operands=[value, result_dims], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> TensorSplatOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        start = parser.pos
        type_ = parser.parse_type()
        if not isinstance(type_, TensorType):
            parser.raise_error(f"expected a tensor type, got {type_}", start, parser.pos)
        dims = _parse_dims(parser, type_)
        op = cls(parser.resolve_operand(value, type_.element_type), type_, dims)
        _parse_attr_dict_with_keyword(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        _print_type_and_dims(printer, self.result.type, self.result_dims)
        _print_attr_dict_with_keyword(printer, self)

    def verify_(self) -> None:
        verify_op_dynamic_dims([self.result.type], self.result_dims)
        assert isinstance(self.result.type, TensorType)
        if self.value.type != self.result.type.element_type:
            raise VerifyException("failed to verify that value type matches element type of result")


class _ShapeOnlyOp(IRDLOperation):
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    assembly_format = "`:` type($result) (`{` $result_dims^ `}`)? attr-dict-with-keyword"

    def __init__(self, result_type: Attribute, result_dims: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[result_dims], result_types=[result_type])

    def verify_(self) -> None:
        verify_op_dynamic_dims([self.result.type], self.result_dims)


@irdl_op_definition
class TensorAllocaOp(_ShapeOnlyOp):
    """A tensor with undefined contents, allocated where it is used (transient)."""

    name = "flow.tensor.alloca"

    traits = traits_def(MemoryAllocEffect())


@irdl_op_definition
class TensorEmptyOp(_ShapeOnlyOp):
    """A tensor with undefined contents (no storage until something writes it)."""

    name = "flow.tensor.empty"

    traits = traits_def(Pure())


# -- whole-tensor copies ----------------------------------------------------------------------


class _CopyLikeOp(IRDLOperation):
    operand = operand_def(TensorType)
    operand_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    def _verify(self) -> None:
        _same_type("operand, result", self.operand.type, self.result.type)
        verify_op_dynamic_dims([self.operand.type], self.operand_dims)


@irdl_op_definition
class TensorCloneOp(_CopyLikeOp):
    """A copy of a whole tensor: `flow.tensor.clone %0 : tensor<?x4xf32>{%n}`."""

    name = "flow.tensor.clone"

    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, operand_dims: Sequence[SSAValue] = ()):
        super().__init__(operands=[operand, operand_dims], result_types=[operand.type])

    @classmethod
    def parse(cls, parser: Parser) -> TensorCloneOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        dims = _parse_dims(parser, type_)
        op = cls(parser.resolve_operand(operand, type_), dims)
        _parse_attr_dict_with_keyword(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(" : ")
        _print_type_and_dims(printer, self.result.type, self.operand_dims)
        _print_attr_dict_with_keyword(printer, self)

    def verify_(self) -> None:
        self._verify()


@irdl_op_definition
class TensorTransferOp(_CopyLikeOp):
    """Moves a tensor to a device (`#hal.device.promise<@dev>`, an affinity, or a name)."""

    name = "flow.tensor.transfer"

    target = prop_def(Attribute)

    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, target: Attribute, operand_dims: Sequence[SSAValue] = ()):
        super().__init__(operands=[operand, operand_dims], result_types=[operand.type], properties={"target": target})

    @classmethod
    def parse(cls, parser: Parser) -> TensorTransferOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        dims = _parse_dims(parser, type_)
        parser.parse_keyword("to")
        target = parser.parse_attribute()
        op = cls(parser.resolve_operand(operand, type_), target, dims)
        _parse_attr_dict_with_keyword(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(" : ")
        _print_type_and_dims(printer, self.result.type, self.operand_dims)
        printer.print_string(" to ")
        printer.print_attribute(self.target)
        _print_attr_dict_with_keyword(printer, self)

    def verify_(self) -> None:
        self._verify()


class _TieShapeCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldTensorTieShapeOp(), ReplaceOpIfTensorOperandZeroElements())


@irdl_op_definition
class TensorTieShapeOp(IRDLOperation):
    """Ties a tensor to the values of its dynamic sizes: a witness to shape calculations, which
    moves no data (``iree-flow-capture-dynamic-dims`` puts them on loop-carried tensors)::

        %1 = flow.tensor.tie_shape %0 : tensor<?x4xf32>{%n}
    """

    name = "flow.tensor.tie_shape"

    operand = operand_def(TensorType)
    dynamic_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(Pure(), _TieShapeCanonicalization())

    def __init__(self, operand: SSAValue | Operation, dynamic_dims: Sequence[SSAValue | Operation] = ()):
        operand = SSAValue.get(operand)
        super().__init__(operands=[operand, dynamic_dims], result_types=[operand.type])

    @classmethod
    def parse(cls, parser: Parser) -> TensorTieShapeOp:
        operand = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        # Any number of sizes: a count that does not match the type is the verifier's error, as in IREE.
        dims = []
        if parser.parse_optional_punctuation("{") is not None and parser.parse_optional_punctuation("}") is None:
            dims = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation("}")
        index = IndexType()
        op = cls(parser.resolve_operand(operand, type_), [parser.resolve_operand(d, index) for d in dims])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_type_and_dims(printer, self.result.type, self.dynamic_dims)

    def verify_(self) -> None:
        _same_type("operand, result", self.operand.type, self.result.type)
        verify_op_dynamic_dims([self.operand.type], self.dynamic_dims)


class FoldTensorTieShapeOp(RewritePattern):
    """IREE's ``TensorTieShapeOp::fold``: a tie of no sizes (a static tensor) is its operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorTieShapeOp, rewriter: PatternRewriter) -> None:
        if not op.dynamic_dims:
            rewriter.replace(op, [], [op.operand])


class ReplaceOpIfTensorOperandZeroElements(RewritePattern):
    """IREE's ``ReplaceOpIfTensorOperandZeroElements<TensorTieShapeOp, 0>``: a tensor with a static
    size of zero holds nothing, so the tie becomes a ``flow.tensor.empty`` of its sizes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorTieShapeOp, rewriter: PatternRewriter) -> None:
        if 0 not in op.operand.type.get_shape():  # type: ignore[attr-defined]
            return
        empty = TensorEmptyOp(op.result.type, list(op.dynamic_dims))
        empty.location = op.location
        rewriter.replace(op, empty)


# -- sub-tensors --------------------------------------------------------------------------------


@irdl_op_definition
class TensorSliceOp(IRDLOperation):
    """A copy of a sub-tensor: `flow.tensor.slice %0[%i for %n] : tensor<8xf32> -> tensor<?xf32>{%n}`."""

    name = "flow.tensor.slice"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    assembly_format = (
        "$source `[` $start_indices `for` $lengths `]` `:` type($source) (`{` $source_dims^ `}`)? `->`"
        " type($result) (`{` $result_dims^ `}`)? attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue,
        start_indices: Sequence[SSAValue],
        lengths: Sequence[SSAValue],
        result_type: Attribute,
        source_dims: Sequence[SSAValue] = (),
        result_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[source, source_dims, start_indices, lengths, result_dims], result_types=[result_type]
        )

    def verify_(self) -> None:
        _same_rank("source, result", self.source.type, self.result.type)
        _same_element_type("source, result", self.source.type, self.result.type)
        verify_op_dynamic_dims([self.source.type], self.source_dims)
        verify_op_dynamic_dims([self.result.type], self.result_dims)


@irdl_op_definition
class TensorUpdateOp(IRDLOperation):
    """Writes `update` into `target` at `start_indices`; the result is tied to (reuses) `target`.

        %8 = flow.tensor.update %u, %t[%i, %j] : tensor<?x?xf32>{%h, %w} -> %t as tensor<?x4xf32>{%n}
    """

    name = "flow.tensor.update"

    target = operand_def(TensorType)
    target_dims = var_operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    update = operand_def(TensorType)
    update_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        target: SSAValue,
        start_indices: Sequence[SSAValue],
        update: SSAValue,
        target_dims: Sequence[SSAValue] = (),
        update_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[target, target_dims, start_indices, update, update_dims], result_types=[target.type]
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorUpdateOp:
        update = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        indices = _parse_indices(parser)
        parser.parse_punctuation(":")
        update_type = parser.parse_type()
        update_dims = _parse_dims(parser, update_type)
        parser.parse_punctuation("->")
        # IREE's custom<ShapedTiedResult>: `%target as type{dims}`.
        start = parser.pos
        tied = parser.parse_unresolved_operand()
        if tied.operand_name != target.operand_name or tied.index != target.index:
            parser.raise_error("the result must be tied to the target operand", start, parser.pos)
        parser.parse_keyword("as")
        target_type = parser.parse_type()
        target_dims = _parse_dims(parser, target_type)
        op = cls(
            parser.resolve_operand(target, target_type),
            _index_operands(parser, indices),
            parser.resolve_operand(update, update_type),
            target_dims,
            update_dims,
        )
        _parse_attr_dict_with_keyword(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.update)
        printer.print_string(", ")
        printer.print_operand(self.target)
        printer.print_string("[")
        printer.print_list(self.start_indices, printer.print_operand)
        printer.print_string("] : ")
        _print_type_and_dims(printer, self.update.type, self.update_dims)
        printer.print_string(" -> ")
        printer.print_operand(self.target)
        printer.print_string(" as ")
        _print_type_and_dims(printer, self.result.type, self.target_dims)
        _print_attr_dict_with_keyword(printer, self)

    def verify_(self) -> None:
        _same_rank("update, target, result", self.update.type, self.target.type, self.result.type)
        _same_type("target, result", self.target.type, self.result.type)
        _same_element_type("update, target, result", self.update.type, self.target.type, self.result.type)
        verify_op_dynamic_dims([self.update.type], self.update_dims)
        verify_op_dynamic_dims([self.target.type], self.target_dims)


# -- debugging ----------------------------------------------------------------------------------


@irdl_op_definition
class TensorTraceOp(IRDLOperation):
    """Prints tensors at runtime under a key: `flow.tensor.trace "key" = [%0 : tensor<?xf32>{%n}]`."""

    name = "flow.tensor.trace"

    key = prop_def(StringAttr)
    values = var_operand_def(TensorType)
    value_dims = var_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryWriteEffect())

    def __init__(self, key: str, values: Sequence[SSAValue], value_dims: Sequence[SSAValue] = ()):
        super().__init__(operands=[values, value_dims], properties={"key": StringAttr(key)})

    @classmethod
    def parse(cls, parser: Parser) -> TensorTraceOp:
        key = parser.parse_str_literal()
        parser.parse_punctuation("=")

        def parse_value() -> tuple[SSAValue, list[SSAValue]]:
            operand = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            type_ = parser.parse_type()
            return parser.resolve_operand(operand, type_), _parse_dims(parser, type_)

        entries = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_value)
        op = cls(key, [v for v, _ in entries], [d for _, dims in entries for d in dims])
        _parse_attr_dict_with_keyword(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.key.data)
        printer.print_string(" = [")
        dims = list(self.value_dims)

        def print_value(value: SSAValue) -> None:
            nonlocal dims
            count = count_dynamic(value.type) if isinstance(value.type, TensorType) else 0
            printer.print_operand(value)
            printer.print_string(" : ")
            _print_type_and_dims(printer, value.type, dims[:count])
            dims = dims[count:]

        printer.print_list(self.values, print_value)
        printer.print_string("]")
        _print_attr_dict_with_keyword(printer, self)

    def verify_(self) -> None:
        verify_op_dynamic_dims([v.type for v in self.values], self.value_dims)


FLOW_TENSOR_OPS = (
    TensorReshapeOp,
    TensorBitCastOp,
    TensorLoadOp,
    TensorStoreOp,
    TensorSplatOp,
    TensorCloneOp,
    TensorSliceOp,
    TensorUpdateOp,
    TensorAllocaOp,
    TensorEmptyOp,
    TensorTransferOp,
    TensorTieShapeOp,
    TensorTraceOp,
)

__all__ = [op.__name__ for op in FLOW_TENSOR_OPS] + ["FLOW_TENSOR_OPS"]
