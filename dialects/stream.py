"""The ``stream`` dialect: tensors as device resources, executables and async work.

``iree-stream-conversion`` turns the ``flow`` program into ``stream`` ops: every
tensor becomes a ``!stream.resource<lifetime>`` whose byte size is an explicit
``index`` value, and every op says which device it runs on through an affinity
(``on(#hal.device.affinity<@__device_0>)``). Data tiling does much of its work
here:

* ``stream.tensor.sizeof`` asks how many bytes a (possibly encoded) tensor needs;
  ``iree-stream-specialize-encodings`` resolves the encoding for the device and
  ``iree-stream-encode-host-tensors`` replaces the op with arithmetic on padded
  sizes.
* ``stream.tensor.encode`` relayouts a whole tensor;
  ``iree-stream-materialize-encodings`` turns it into a ``stream.async.dispatch``
  of a generated ``stream.executable``.
* ``stream.binding.subspan`` is how a dispatch function sees its bindings, as
  ``!iree_tensor_ext.dispatch.tensor`` values whose encodings specialization updates.

Tensor-phase ops write a value as ``tensor<...>{%dims} in !stream.resource<*>{%size}``:
the logical tensor (with its encoding and dynamic extents), then the resource
that stores it and its byte size.

Attributes named ``stream.affinity`` and ``stream.affinity.default`` hold
``#hal.device.affinity`` values (owned by the hal dialect); they are discardable
attributes, not definitions of this dialect.

https://iree.dev/reference/mlir-dialects/Stream
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    NoneType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mini_iree.dialects.flow import (
    UNTIED_INDEX,
    ExecutableExportOpBase,
    ExecutableOpBase,
    find_tied_operand,
    is_size_aware,
    parse_dispatch_entry_points,
    parse_exact_dims,
    parse_optional_workload,
    parse_shaped_function_type,
    parse_shaped_type,
    print_dispatch_entry_points,
    print_shaped_function_type,
    print_shaped_type,
    print_tied_result,
    print_workload,
    resolve_index_operands,
    tied_operand_index,
    tied_operands_attr,
    verify_dispatch_symbol_uses,
    verify_tied_operands,
    verify_workgroup_count_return,
)
from mini_iree.dialects.utils import print_dynamic_dims, verify_op_dynamic_dims

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


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


UNUSED_ENCODING = NoneType()
"""Encoding recorded for a dispatch operand that is not a tensor (IREE uses ``!util.unused``)."""


# ---------------------------------------------------------------------------
# Syntax and verification helpers
# ---------------------------------------------------------------------------


def parse_optional_affinity(parser: Parser, keyword: str) -> Attribute | None:
    """``keyword(#affinity)``, e.g. ``on(#hal.device.affinity<@__device_0>)``, if present."""
    if parser.parse_optional_keyword(keyword) is None:
        return None
    parser.parse_punctuation("(")
    affinity = parser.parse_attribute()
    parser.parse_punctuation(")")
    return affinity


def print_optional_affinity(printer: Printer, keyword: str, affinity: Attribute | None) -> None:
    if affinity is not None:
        printer.print_string(f" {keyword}(")
        printer.print_attribute(affinity)
        printer.print_string(")")


def verify_value_sizes(values: Sequence[SSAValue], sizes: Sequence[SSAValue]) -> None:
    """IREE's ``verifyOpValueSizes``: one size operand per resource value (same wording as for dims)."""
    required = sum(1 for v in values if is_size_aware(v.type))
    if len(sizes) != required:
        raise VerifyException(
            f"value set has {required} dynamic dimensions but only {len(sizes)} dimension values are attached"
        )


def verify_encoding_dims(encoding: Attribute, dims: Sequence[SSAValue]) -> None:
    """Dims of a tensor-phase op's encoding type ("type set" in IREE's wording), and the
    type's encoding against its shape (MLIR checks it when the type is built)."""
    verify_op_dynamic_dims([encoding], dims, set_name="type")
    check = getattr(getattr(encoding, "encoding", None), "verify_encoding", None)
    if check is not None:
        check(encoding.get_shape(), encoding.get_element_type())  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# Executables
# ---------------------------------------------------------------------------


@irdl_op_definition
class ExecutableOp(ExecutableOpBase):
    """An executable: exports plus a ``builtin.module`` with the dispatch functions.

        stream.executable private @ex {
          stream.executable.export public @entry workgroups(%arg0: index) -> (index, index, index) {...}
          builtin.module {
            func.func @entry(%arg0: !stream.binding, %arg1: index) {...}
          }
        }

    https://iree.dev/reference/mlir-dialects/Stream/#streamexecutable-streamexecutableop
    """

    name = "stream.executable"


@irdl_op_definition
class ExecutableExportOp(ExecutableExportOpBase):
    """Exports a function of the executable as a dispatch entry point.

    The optional ``workgroups`` region computes the XYZ workgroup count from the
    workload a dispatch passes. The export is named after its function unless
    written ``@fn as("name")``.

        stream.executable.export public @entry workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
          stream.return %x, %y, %z : index, index, index
        }

    https://iree.dev/reference/mlir-dialects/Stream/#streamexecutableexport-streamexecutableexportop
    """

    name = "stream.executable.export"

    traits = traits_def(HasParent(ExecutableOp), IsolatedFromAbove(), SymbolOpInterface())

    RETURN_OP_NAME: ClassVar[str] = "stream.return"


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Returns the XYZ workgroup count from an export's ``workgroups`` region.

        stream.return %x, %y, %z : index, index, index

    https://iree.dev/reference/mlir-dialects/Stream/#streamreturn-streamreturnop
    """

    name = "stream.return"

    values = var_operand_def()

    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(ExecutableExportOp))

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, operands: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[operands])

    def verify_(self) -> None:
        verify_workgroup_count_return(self)


@irdl_op_definition
class BindingSubspanOp(IRDLOperation):
    """Views a binding at a byte offset as a typed value, usually a dispatch tensor.

        %4 = stream.binding.subspan %arg0[%c0] : !stream.binding
               -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%0, %1}

    https://iree.dev/reference/mlir-dialects/Stream/#streambindingsubspan-streambindingsubspanop
    """

    name = "stream.binding.subspan"

    binding = operand_def(BindingType)
    byte_offset = operand_def(IndexType)
    dynamic_dims = var_operand_def(IndexType)
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = (
        "$binding `` `[` $byte_offset `]` attr-dict `:` type($binding) `->` type($result) (`{` $dynamic_dims^ `}`)?"
    )

    def __init__(
        self,
        binding: SSAValue | Operation,
        byte_offset: SSAValue | Operation,
        result_type: Attribute,
        dynamic_dims: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(operands=[binding, byte_offset, dynamic_dims], result_types=[result_type])

    def verify_(self) -> None:
        # IREE only counts the extents of builtin shaped results; dispatch
        # tensors, the usual result, are checked here too.
        verify_op_dynamic_dims([self.result.type], self.dynamic_dims, set_name="type")


# ---------------------------------------------------------------------------
# Tensor-phase ops
# ---------------------------------------------------------------------------

_AFFINITY = "(`on` `(` $affinity^ `)`)?"


@irdl_op_definition
class TensorSizeOfOp(IRDLOperation):
    """The storage size in bytes of a tensor type on a device, encoding included.

        %10 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding>{%0, %1} : index

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorsizeof-streamtensorsizeofop
    """

    name = "stream.tensor.sizeof"

    encoding = prop_def(TypeAttribute)
    encoding_dims = var_operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    storage_size = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = _AFFINITY + " $encoding (`{` $encoding_dims^ `}`)? attr-dict `:` type($storage_size)"

    def __init__(
        self,
        encoding: Attribute,
        encoding_dims: Sequence[SSAValue | Operation] = (),
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[encoding_dims],
            result_types=[IndexType()],
            properties={"encoding": encoding, "affinity": affinity},
        )

    def verify_(self) -> None:
        verify_encoding_dims(self.encoding, self.encoding_dims)


@irdl_op_definition
class TensorImportOp(IRDLOperation):
    """Wraps an external value (a ``!hal.buffer_view``) as a stream resource holding a tensor.

    ``consume`` transfers ownership of the imported storage.

        %3 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0
               : !hal.buffer_view -> tensor<?x?xf32>{%0, %1} in !stream.resource<external>{%2}

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorimport-streamtensorimportop
    """

    name = "stream.tensor.import"

    source = operand_def()
    result_encoding = prop_def(TypeAttribute)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    consume = opt_prop_def(UnitAttr)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    assembly_format = (
        _AFFINITY + " (`consume` $consume^)? $source `:` type($source) `->`"
        " $result_encoding (`` `{` $result_encoding_dims^ `}`)? `in` type($result) `{` $result_size `}`"
        " attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        result_encoding: Attribute,
        result_encoding_dims: Sequence[SSAValue | Operation],
        result_type: Attribute,
        result_size: SSAValue | Operation,
        affinity: Attribute | None = None,
        consume: bool = False,
    ):
        super().__init__(
            operands=[source, result_encoding_dims, result_size],
            result_types=[result_type],
            properties={
                "result_encoding": result_encoding,
                "affinity": affinity,
                "consume": UnitAttr() if consume else None,
            },
        )

    def verify_(self) -> None:
        verify_encoding_dims(self.result_encoding, self.result_encoding_dims)


@irdl_op_definition
class TensorExportOp(IRDLOperation):
    """Hands a resource holding a tensor out as an external value (a ``!hal.buffer_view``).

        %17 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %16
                : tensor<?x?xf32>{%0, %6} in !stream.resource<external>{%14} -> !hal.buffer_view

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorexport-streamtensorexportop
    """

    name = "stream.tensor.export"

    source = operand_def(ResourceType)
    source_encoding = prop_def(TypeAttribute)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    assembly_format = (
        _AFFINITY + " $source `:` $source_encoding (`` `{` $source_encoding_dims^ `}`)?"
        " `in` type($source) `` `{` $source_size `}` `->` type($result) attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_encoding: Attribute,
        source_encoding_dims: Sequence[SSAValue | Operation],
        source_size: SSAValue | Operation,
        result_type: Attribute,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_encoding_dims, source_size],
            result_types=[result_type],
            properties={"source_encoding": source_encoding, "affinity": affinity},
        )

    def verify_(self) -> None:
        verify_encoding_dims(self.source_encoding, self.source_encoding_dims)


@irdl_op_definition
class TensorEncodeOp(IRDLOperation):
    """Relayouts a tensor held in a resource into a new resource, e.g. to add an encoding.

    ``iree-stream-materialize-encodings`` replaces it with a ``stream.async.dispatch``
    of a generated executable.

        %11 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %4
                : tensor<?x?xf32>{%0, %1} in !stream.resource<*>{%2}
                -> tensor<?x?xf32, #encoding>{%0, %1} in !stream.resource<*>{%10}

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorencode-streamtensorencodeop
    """

    name = "stream.tensor.encode"

    source = operand_def(ResourceType)
    source_encoding = prop_def(TypeAttribute)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    result_encoding = prop_def(TypeAttribute)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    assembly_format = (
        _AFFINITY + " $source `:` $source_encoding (`` `{` $source_encoding_dims^ `}`)?"
        " `in` type($source) `` `{` $source_size `}` `->`"
        " $result_encoding (`` `{` $result_encoding_dims^ `}`)?"
        " `in` type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_encoding: Attribute,
        source_encoding_dims: Sequence[SSAValue | Operation],
        source_size: SSAValue | Operation,
        result_encoding: Attribute,
        result_encoding_dims: Sequence[SSAValue | Operation],
        result_size: SSAValue | Operation,
        result_type: Attribute | None = None,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_encoding_dims, source_size, result_encoding_dims, result_size],
            result_types=[result_type if result_type is not None else SSAValue.get(source).type],
            properties={
                "source_encoding": source_encoding,
                "result_encoding": result_encoding,
                "affinity": affinity,
            },
        )

    def verify_(self) -> None:
        verify_encoding_dims(self.source_encoding, self.source_encoding_dims)
        verify_encoding_dims(self.result_encoding, self.result_encoding_dims)


@irdl_op_definition
class TensorConstantOp(IRDLOperation):
    """A constant tensor materialized in a resource.

        %cst = stream.tensor.constant on(#hal.device.affinity<@__device_0>)
                 : tensor<256x512xf32> in !stream.resource<constant> = dense_resource<__elided__> : tensor<256x512xf32>

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorconstant-streamtensorconstantop
    """

    name = "stream.tensor.constant"

    value = prop_def(Attribute)
    result_encoding = prop_def(TypeAttribute)
    result_encoding_dims = var_operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    assembly_format = (
        _AFFINITY + " `:` $result_encoding (`` `{` $result_encoding_dims^ `}`)? `in` type($result)"
        " `=` $value attr-dict-with-keyword"
    )

    def __init__(
        self,
        value: Attribute,
        result_encoding: Attribute,
        result_type: Attribute,
        result_encoding_dims: Sequence[SSAValue | Operation] = (),
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[result_encoding_dims],
            result_types=[result_type],
            properties={"value": value, "result_encoding": result_encoding, "affinity": affinity},
        )

    def asm_result_names(self) -> list[str | None]:
        """IREE names a constant's result ``%cst``."""
        return ["cst"]

    def verify_(self) -> None:
        verify_encoding_dims(self.result_encoding, self.result_encoding_dims)
        # The value holds the tensor's elements: its shape and element type are the
        # tensor's (a `?` of the tensor takes any size), whatever the tensor's encoding.
        tensor = self.result_encoding
        value_type = getattr(self.value, "type", None)
        if not isinstance(tensor, TensorType):
            return
        if not isinstance(value_type, TensorType) or value_type.element_type != tensor.element_type or not (
            len(value_type.get_shape()) == len(tensor.get_shape())
            and all(d in (v, DYNAMIC_INDEX) for v, d in zip(value_type.get_shape(), tensor.get_shape()))
        ):
            plain = TensorType(tensor.element_type, tensor.get_shape())
            raise VerifyException(f"value of type {value_type or 'none'} does not hold the elements of {plain}")


@irdl_op_definition
class TensorEmptyOp(IRDLOperation):
    """A resource for a tensor whose contents are undefined (``flow.tensor.empty`` on the host).

        %empty = stream.tensor.empty on(#hal.device.affinity<@__device_0>)
                   : tensor<?x4xf32>{%arg0} in !stream.resource<*>{%0}

    ``iree-stream-encode-host-tensors`` turns it into ``stream.async.alloca``.

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorempty-streamtensoremptyop
    """

    name = "stream.tensor.empty"

    result_encoding = prop_def(TypeAttribute)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    assembly_format = (
        _AFFINITY + " `:` $result_encoding (`` `{` $result_encoding_dims^ `}`)? `in` type($result)"
        " `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        result_encoding: Attribute,
        result_encoding_dims: Sequence[SSAValue | Operation],
        result_type: Attribute,
        result_size: SSAValue | Operation,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[result_encoding_dims, result_size],
            result_types=[result_type],
            properties={"result_encoding": result_encoding, "affinity": affinity},
        )

    def asm_result_names(self) -> list[str | None]:
        """IREE names the result ``%empty``."""
        return ["empty"]

    def verify_(self) -> None:
        verify_encoding_dims(self.result_encoding, self.result_encoding_dims)


def _parse_encoded_type(
    parser: Parser,
) -> tuple[Attribute, list[UnresolvedOperand], Attribute, list[UnresolvedOperand]]:
    """``encoding{%dims} in type{%size}`` or a plain ``type{%size}``/``type``.

    Returns (type, sizes, encoding, encoding dims); a plain operand gets ``UNUSED_ENCODING``.
    """
    first, first_dims = parse_shaped_type(parser)
    if parser.parse_optional_keyword("in") is None:
        return first, first_dims, UNUSED_ENCODING, []
    ty, sizes = parse_shaped_type(parser)
    return ty, sizes, first, first_dims


@irdl_op_definition
class TensorDispatchOp(IRDLOperation):
    """Dispatches an export on tensors held in resources (tensor phase of a dispatch).

    Like ``flow.dispatch``, with each tensor argument and result written as
    ``tensor<...>{%dims} in !stream.resource<*>{%size}``. The tensor types (with
    their encodings) are kept in ``operand_encodings``/``result_encodings``;
    ``iree-stream-specialize-encodings`` rewrites them and may duplicate the
    executable per distinct set of layouts.

        %15 = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@entry[%0, %1](%11, %0, %1)
                : (tensor<?x?xf32, #encoding>{%0, %1} in !stream.resource<*>{%10}, index, index)
                -> tensor<?x?xf32>{%0, %1} in !stream.resource<*>{%14}

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensordispatch-streamtensordispatchop
    """

    name = "stream.tensor.dispatch"

    workload = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    mixed_operands = var_operand_def()
    operand_sizes = var_operand_def(IndexType)
    operand_encodings = prop_def(ArrayAttr[Attribute])
    operand_encoding_dims = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    result_encodings = prop_def(ArrayAttr[Attribute])
    result_encoding_dims = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(Attribute)
    res = var_result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        entry_point: SymbolRefAttr | Sequence[SymbolRefAttr],
        workload: Sequence[SSAValue | Operation],
        mixed_operands: Sequence[SSAValue | Operation],
        operand_sizes: Sequence[SSAValue | Operation],
        operand_encodings: Sequence[Attribute],
        operand_encoding_dims: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue | Operation],
        result_encodings: Sequence[Attribute],
        result_encoding_dims: Sequence[SSAValue | Operation],
        tied_operands: Sequence[int] = (),
        affinity: Attribute | None = None,
    ):
        """``operand_encodings`` has one entry per operand, ``UNUSED_ENCODING`` for non-tensors."""
        entry_points = [entry_point] if isinstance(entry_point, SymbolRefAttr) else list(entry_point)
        super().__init__(
            operands=[
                workload,
                mixed_operands,
                operand_sizes,
                operand_encoding_dims,
                result_sizes,
                result_encoding_dims,
            ],
            result_types=[result_types],
            properties={
                "entry_points": ArrayAttr(entry_points),
                "operand_encodings": ArrayAttr(operand_encodings),
                "result_encodings": ArrayAttr(result_encodings),
                "tied_operands": tied_operands_attr(tied_operands),
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorDispatchOp:
        affinity = parse_optional_affinity(parser, "on")
        entry_points = parse_dispatch_entry_points(parser)
        workload = parse_optional_workload(parser)
        operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")

        operand_types: list[Attribute] = []
        operand_sizes: list[UnresolvedOperand] = []
        operand_encodings: list[Attribute] = []
        operand_encoding_dims: list[UnresolvedOperand] = []
        pos = parser.pos
        parser.parse_punctuation("(")
        if parser.parse_optional_punctuation(")") is None:
            while True:
                ty, sizes, encoding, dims = _parse_encoded_type(parser)
                operand_types.append(ty)
                operand_sizes += sizes
                operand_encodings.append(encoding)
                operand_encoding_dims += dims
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation(")")
        if len(operand_types) != len(operands):
            parser.raise_error(f"expected {len(operands)} operand types but got {len(operand_types)}", pos, parser.pos)
        parser.parse_punctuation("->")

        result_types: list[Attribute] = []
        result_sizes: list[UnresolvedOperand] = []
        result_encodings: list[Attribute] = []
        result_encoding_dims: list[UnresolvedOperand] = []
        tied: list[int] = []

        def parse_result() -> None:
            # `type{%size}`, or `encoding{%dims} in type{%size}` / `... in %operand [as type]{%size}`.
            encoding, encoding_dims = parse_shaped_type(parser)
            if parser.parse_optional_keyword("in") is None:
                result_types.append(encoding)
                result_sizes.extend(encoding_dims)
                result_encodings.append(UNUSED_ENCODING)
                tied.append(UNTIED_INDEX)
                return
            ref = parser.parse_optional_unresolved_operand()
            index = UNTIED_INDEX
            if ref is None:
                ty = parser.parse_type()
            else:
                index = find_tied_operand(parser, ref, operands)
                ty = parser.parse_type() if parser.parse_optional_keyword("as") is not None else operand_types[index]
            result_sizes.extend(parse_exact_dims(parser, 1 if is_size_aware(ty) else 0))
            result_types.append(ty)
            result_encodings.append(encoding)
            result_encoding_dims.extend(encoding_dims)
            tied.append(index)

        if parser.parse_optional_punctuation("(") is not None:
            if parser.parse_optional_punctuation(")") is None:
                parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_result)
                parser.parse_punctuation(")")
        else:
            parse_result()

        op = cls(
            list(entry_points.data),
            workload,
            [parser.resolve_operand(o, t) for o, t in zip(operands, operand_types)],
            resolve_index_operands(parser, operand_sizes),
            operand_encodings,
            resolve_index_operands(parser, operand_encoding_dims),
            result_types,
            resolve_index_operands(parser, result_sizes),
            result_encodings,
            resolve_index_operands(parser, result_encoding_dims),
            tied,
            affinity,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, "on", self.affinity)
        print_dispatch_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.mixed_operands, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        sizes: Sequence[SSAValue] = self.operand_sizes
        encoding_dims: Sequence[SSAValue] = self.operand_encoding_dims
        for i, (operand, encoding) in enumerate(zip(self.mixed_operands, self.operand_encodings.data)):
            if i:
                printer.print_string(", ")
            if encoding != UNUSED_ENCODING:
                encoding_dims = print_shaped_type(printer, encoding, encoding_dims)
                printer.print_string(" in ")
            sizes = print_shaped_type(printer, operand.type, sizes)
        printer.print_string(") -> ")
        n = len(self.results)
        if n != 1:
            printer.print_string("(")
        sizes = self.result_sizes
        encoding_dims = self.result_encoding_dims
        for i, (ty, encoding) in enumerate(zip(self.result_types, self.result_encodings.data)):
            if i:
                printer.print_string(", ")
            if encoding != UNUSED_ENCODING:
                encoding_dims = print_shaped_type(printer, encoding, encoding_dims)
                printer.print_string(" in ")
            tied = tied_operand_index(self.tied_operands, i)
            print_tied_result(printer, ty, self.mixed_operands[tied] if tied != UNTIED_INDEX else None)
            if is_size_aware(ty):
                print_dynamic_dims(printer, sizes[:1])
                sizes = sizes[1:]
        if n != 1:
            printer.print_string(")")

    def verify_(self) -> None:
        verify_value_sizes(self.mixed_operands, self.operand_sizes)
        verify_value_sizes(self.results, self.result_sizes)
        if len(self.operand_encodings) != len(self.mixed_operands):
            raise VerifyException(
                f"expected {len(self.mixed_operands)} operand encodings but got {len(self.operand_encodings)}"
            )
        if len(self.result_encodings) != len(self.results):
            raise VerifyException(f"expected {len(self.results)} result encodings but got {len(self.result_encodings)}")
        verify_op_dynamic_dims(self.operand_encodings.data, self.operand_encoding_dims, set_name="type")
        verify_op_dynamic_dims(self.result_encodings.data, self.result_encoding_dims, set_name="type")
        verify_tied_operands(self.tied_operands, len(self.results), len(self.mixed_operands))
        for i, result_encoding in enumerate(self.result_encodings.data):
            tied = tied_operand_index(self.tied_operands, i)
            if tied == UNTIED_INDEX:
                continue
            operand_encoding = self.operand_encodings.data[tied]
            if operand_encoding != result_encoding:
                raise VerifyException(
                    f"the {tied}-th operandEncoding ({operand_encoding}) does not match "
                    f"the resultEncoding ({result_encoding})"
                )
        verify_dispatch_symbol_uses(self, self.entry_points, self.workload, ExecutableExportOp.name)


# ---------------------------------------------------------------------------
# Async-phase ops
# ---------------------------------------------------------------------------


@irdl_op_definition
class AsyncDispatchOp(IRDLOperation):
    """Dispatches an export on resources (async phase of a dispatch).

    Each resource argument is passed with the byte range the dispatch uses,
    ``%r[%offset to %end for %length]``; results are new resources.

        %28 = stream.async.dispatch on(#hal.device.affinity<@__device_0>)
                @ex::@entry[%0, %1](%18[%c0 to %17 for %17], %0, %1)
                : (!stream.resource<*>{%17}, index, index) -> !stream.resource<*>{%27}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncdispatch-streamasyncdispatchop
    """

    name = "stream.async.dispatch"

    workload = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    resource_operand_offsets = var_operand_def(IndexType)
    resource_operand_ends = var_operand_def(IndexType)
    resource_operand_lengths = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(Attribute)
    res = var_result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        entry_point: SymbolRefAttr | Sequence[SymbolRefAttr],
        workload: Sequence[SSAValue | Operation],
        resource_operands: Sequence[SSAValue | Operation],
        resource_operand_sizes: Sequence[SSAValue | Operation],
        resource_operand_offsets: Sequence[SSAValue | Operation],
        resource_operand_ends: Sequence[SSAValue | Operation],
        resource_operand_lengths: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue | Operation],
        tied_operands: Sequence[int] = (),
        affinity: Attribute | None = None,
    ):
        entry_points = [entry_point] if isinstance(entry_point, SymbolRefAttr) else list(entry_point)
        super().__init__(
            operands=[
                workload,
                resource_operands,
                resource_operand_sizes,
                resource_operand_offsets,
                resource_operand_ends,
                resource_operand_lengths,
                result_sizes,
            ],
            result_types=[result_types],
            properties={
                "entry_points": ArrayAttr(entry_points),
                "tied_operands": tied_operands_attr(tied_operands),
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncDispatchOp:
        affinity = parse_optional_affinity(parser, "on")
        entry_points = parse_dispatch_entry_points(parser)
        workload = parse_optional_workload(parser)
        operands: list[UnresolvedOperand] = []
        offsets: list[UnresolvedOperand] = []
        ends: list[UnresolvedOperand] = []
        lengths: list[UnresolvedOperand] = []

        def parse_operand() -> None:
            operands.append(parser.parse_unresolved_operand())
            if parser.parse_optional_punctuation("[") is None:
                return
            offsets.append(parser.parse_unresolved_operand())
            parser.parse_keyword("to")
            ends.append(parser.parse_unresolved_operand())
            parser.parse_keyword("for")
            lengths.append(parser.parse_unresolved_operand())
            parser.parse_punctuation("]")

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        operand_types, sizes, result_types, result_sizes, tied = parse_shaped_function_type(parser, operands)
        if len(operand_types) != len(operands):
            parser.raise_error(f"expected {len(operands)} operand types but got {len(operand_types)}", pos, parser.pos)
        op = cls(
            list(entry_points.data),
            workload,
            [parser.resolve_operand(o, t) for o, t in zip(operands, operand_types)],
            resolve_index_operands(parser, sizes),
            resolve_index_operands(parser, offsets),
            resolve_index_operands(parser, ends),
            resolve_index_operands(parser, lengths),
            result_types,
            resolve_index_operands(parser, result_sizes),
            tied,
            affinity,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, "on", self.affinity)
        print_dispatch_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        printer.print_string("(")
        ranges = iter(zip(self.resource_operand_offsets, self.resource_operand_ends, self.resource_operand_lengths))
        for i, operand in enumerate(self.resource_operands):
            if i:
                printer.print_string(", ")
            printer.print_operand(operand)
            if isinstance(operand.type, ResourceType):
                offset, end, length = next(ranges)
                printer.print_string("[")
                printer.print_operand(offset)
                printer.print_string(" to ")
                printer.print_operand(end)
                printer.print_string(" for ")
                printer.print_operand(length)
                printer.print_string("]")
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_shaped_function_type(
            printer,
            self.resource_operands,
            self.resource_operand_sizes,
            self.result_types,
            self.result_sizes,
            self.tied_operands,
        )

    def verify_(self) -> None:
        verify_value_sizes(self.resource_operands, self.resource_operand_sizes)
        verify_value_sizes(self.results, self.result_sizes)
        required = sum(1 for v in self.resource_operands if isinstance(v.type, ResourceType))
        present = len(self.resource_operand_offsets)
        if len(self.resource_operand_ends) != present or len(self.resource_operand_lengths) != present:
            raise VerifyException("mismatch on resource range offsets/ends/lengths; counts must match")
        if present != required:
            raise VerifyException(f"expects {required} resource range operand sets but {present} are present")
        verify_tied_operands(self.tied_operands, len(self.results), len(self.resource_operands))
        verify_dispatch_symbol_uses(self, self.entry_points, self.workload, ExecutableExportOp.name)


@irdl_op_definition
class AsyncTransferOp(IRDLOperation):
    """Moves a resource to another lifetime and/or device.

    ``from``/``to`` give the source and target affinities, the optional ``on``
    the device that executes the transfer.

        %4 = stream.async.transfer %3 : !stream.resource<external>{%2} from(#hal.device.affinity<@__device_0>)
               -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%2}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasynctransfer-streamasynctransferop
    """

    name = "stream.async.transfer"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_affinity = opt_prop_def(Attribute)
    target_affinity = opt_prop_def(Attribute)
    execution_affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    assembly_format = (
        "(`on` `(` $execution_affinity^ `)`)? $source `:` type($source) `` `{` $source_size `}`"
        " (`from` `(` $source_affinity^ `)`)? `->` (`to` `(` $target_affinity^ `)`)?"
        " type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        result_type: Attribute,
        result_size: SSAValue | Operation,
        source_affinity: Attribute | None = None,
        target_affinity: Attribute | None = None,
        execution_affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            result_types=[result_type],
            properties={
                "source_affinity": source_affinity,
                "target_affinity": target_affinity,
                "execution_affinity": execution_affinity,
            },
        )


class _AsyncCopyLikeOp(IRDLOperation):
    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        result_type: Attribute,
        result_size: SSAValue | Operation,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            result_types=[result_type],
            properties={"affinity": affinity},
        )


@irdl_op_definition
class AsyncCastOp(_AsyncCopyLikeOp):
    """Reinterprets a resource with another lifetime, sharing its storage.

        %4 = stream.async.cast on(#hal.device.affinity<@__device_0>) %3
               : !stream.resource<external>{%2} -> !stream.resource<*>{%2}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasynccast-streamasynccastop
    """

    name = "stream.async.cast"

    assembly_format = (
        _AFFINITY + " $source `:` type($source) `{` $source_size `}` `->` type($result) `{` $result_size `}` attr-dict"
    )

    def verify_(self) -> None:
        if self.source_size != self.result_size:
            raise VerifyException("source and result sizes must be equal (tied storage)")


@irdl_op_definition
class AsyncCloneOp(_AsyncCopyLikeOp):
    """Copies a resource into a new one, possibly of another lifetime.

        %2 = stream.async.clone on(#hal.device.affinity<@__device_0>) %1
               : !stream.resource<*>{%c524288} -> !stream.resource<constant>{%c524288}

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncclone-streamasynccloneop
    """

    name = "stream.async.clone"

    assembly_format = (
        _AFFINITY + " $source `:` type($source) `` `{` $source_size `}` `->`"
        " type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )


@irdl_op_definition
class AsyncAllocaOp(IRDLOperation):
    """A new resource of ``storage_size`` bytes whose contents are undefined until written.

        %1 = stream.async.alloca on(#hal.device.affinity<@__device_0>) : !stream.resource<*>{%0}

    ``flow.tensor.alloca`` converts to it (with a ``stream.tensor.sizeof`` for
    the size); IREE prints other attributes before the colon.

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncalloca-streamasyncallocaop
    """

    name = "stream.async.alloca"

    storage_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    assembly_format = _AFFINITY + " attr-dict `:` type($result) `` `{` $storage_size `}`"

    def __init__(self, result_type: Attribute, storage_size: SSAValue | Operation, affinity: Attribute | None = None):
        super().__init__(operands=[storage_size], result_types=[result_type], properties={"affinity": affinity})


@irdl_op_definition
class AsyncConstantOp(IRDLOperation):
    """A resource initialized with a constant value.

        %cst = stream.async.constant on(#hal.device.affinity<@__device_0>)
                 : !stream.resource<constant>{%c524288} = dense_resource<__elided__> : tensor<256x512xf32>

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncconstant-streamasyncconstantop
    """

    name = "stream.async.constant"

    await_timepoint = opt_operand_def(TimepointType)
    value = prop_def(Attribute)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    assembly_format = (
        _AFFINITY + " (`await` `(` $await_timepoint^ `)`)? `:` type($result) `` `{` $result_size `}`"
        " `=` $value attr-dict-with-keyword"
    )

    def __init__(
        self,
        value: Attribute,
        result_type: Attribute,
        result_size: SSAValue | Operation,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[[await_timepoint] if await_timepoint is not None else [], result_size],
            result_types=[result_type],
            properties={"value": value, "affinity": affinity},
        )

    def asm_result_names(self) -> list[str | None]:
        """IREE names a constant's result ``%cst``."""
        return ["cst"]


@irdl_op_definition
class ResourceSizeOp(IRDLOperation):
    """The byte size of a resource.

        %0 = stream.resource.size %cst : !stream.resource<constant>

    https://iree.dev/reference/mlir-dialects/Stream/#streamresourcesize-streamresourcesizeop
    """

    name = "stream.resource.size"

    operand = operand_def(ResourceType)
    affinity = opt_prop_def(Attribute)
    result = result_def(IndexType)

    # IREE prints the affinity, when set, in the attribute dictionary.
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    assembly_format = "$operand attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue | Operation, affinity: Attribute | None = None):
        super().__init__(operands=[operand], result_types=[IndexType()], properties={"affinity": affinity})


Stream = Dialect(
    "stream",
    [
        ExecutableOp,
        ExecutableExportOp,
        ReturnOp,
        BindingSubspanOp,
        TensorSizeOfOp,
        TensorImportOp,
        TensorExportOp,
        TensorEncodeOp,
        TensorConstantOp,
        TensorDispatchOp,
        AsyncDispatchOp,
        AsyncTransferOp,
        AsyncCastOp,
        AsyncCloneOp,
        AsyncAllocaOp,
        TensorEmptyOp,
        AsyncConstantOp,
        ResourceSizeOp,
    ],
    [ResourceType, BindingType, TimepointType],
)
