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

Scheduling then turns the async program into commands on allocated memory:
``stream.async.execute`` regions (awaited with ``stream.timepoint.await``),
``stream.resource.alloca``/``pack``/``dealloca``, and ``stream.cmd.execute``
regions of ``stream.cmd.dispatch`` ops binding byte ranges of resources.

Tensor-phase ops write a value as ``tensor<...>{%dims} in !stream.resource<*>{%size}``:
the logical tensor (with its encoding and dynamic extents), then the resource
that stores it and its byte size.

Attributes named ``stream.affinity`` and ``stream.affinity.default`` hold
``#hal.device.affinity`` values (owned by the hal dialect); they are discardable
attributes, not definitions of this dialect.

https://iree.dev/reference/mlir-dialects/Stream
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mini_iree.dialects.flow import (
    UNTIED_INDEX,
    ExecutableExportOpBase,
    ExecutableOpBase,
    find_tied_operand,
    is_size_aware,
    parse_dispatch_entry_points,
    parse_exact_dims,
    parse_tied_result,
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
# The dialect's types live in `stream_types`, so that its op modules can use them
# without importing this module; they are re-exported here.
from mini_iree.dialects.stream_types import BindingType, ChannelType, Lifetime, ResourceType, TimepointType  # noqa: F401
from mini_iree.dialects.utils import print_dynamic_dims, verify_op_dynamic_dims
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    NoneAttr,
    NoneType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

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


@dataclass(frozen=True)
class _Canonicalization(HasCanonicalizationPatternsTrait):
    """An op's canonicalization patterns, by name. They live in ``dialects/stream_canonicalization.py``,
    which imports the ops, so they are looked up when ``canonicalize`` asks for them."""

    patterns: tuple[str, ...]

    def __init__(self, *patterns: str):
        object.__setattr__(self, "patterns", patterns)

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        from mini_iree.dialects import stream_canonicalization

        return tuple(getattr(stream_canonicalization, name)() for name in self.patterns)

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        raise NotImplementedError("the patterns are per op: see get_patterns")


class _TensorRetypeOp(IRDLOperation):
    """A tensor held in a resource, into a new resource holding it as another tensor type:
    `$source : type{dims} in !stream.resource<*>{size} -> type{dims} in !stream.resource<*>{size}`."""

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
class TensorEncodeOp(_TensorRetypeOp):
    """Relayouts a tensor held in a resource into a new resource, e.g. to add an encoding.

    ``iree-stream-materialize-encodings`` replaces it with a ``stream.async.dispatch``
    of a generated executable.

        %11 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %4
                : tensor<?x?xf32>{%0, %1} in !stream.resource<*>{%2}
                -> tensor<?x?xf32, #encoding>{%0, %1} in !stream.resource<*>{%10}

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorencode-streamtensorencodeop
    """

    name = "stream.tensor.encode"


@irdl_op_definition
class TensorCloneOp(_TensorRetypeOp):
    """A copy of a tensor held in a resource, possibly as another shape of the same bytes.

    Stream conversion makes one of each ``flow.tensor.reshape``: a row-major
    reshape keeps the bytes, so the clone copies them as they are, and
    canonicalization elides it when nothing writes the result in place.

        %12 = stream.tensor.clone on(#hal.device.affinity<@__device_0>) %4
                : tensor<?x?xf32>{%0, %1} in !stream.resource<*>{%2}
                -> tensor<?xf32>{%10} in !stream.resource<*>{%11}

    https://iree.dev/reference/mlir-dialects/Stream/#streamtensorclone-streamtensorcloneop
    """

    name = "stream.tensor.clone"

    traits = traits_def(Pure(), _Canonicalization("FoldTensorCloneOp", "ElideUnneededTensorClones"))

    def verify_(self) -> None:
        # Clones may change shape and element type, never the storage an encoding
        # describes (IREE's SerializableAttr::areCompatible).
        from mini_iree.dialects.iree_encoding import are_compatible_encodings

        source, result = self.source_encoding, self.result_encoding
        if (
            isinstance(source, TensorType)
            and isinstance(result, TensorType)
            and not are_compatible_encodings(source.encoding, result.encoding)
        ):
            # MLIR prints an absent encoding as a null attribute.
            def text(encoding: Attribute) -> str:
                return "<<NULL ATTRIBUTE>>" if isinstance(encoding, NoneAttr) else str(encoding)

            raise VerifyException(
                f"clones changing tensor encoding from {text(source.encoding)} to {text(result.encoding)}; not allowed"
            )
        super().verify_()


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


@dataclass
class RangedOperands:
    """IREE's `custom<DispatchOperands>` and the shaped function type after it, as parsed.

    `(%r[%offset to %end for %length], %v) {attrs} : (!stream.resource<*>{%size}, index) -> ...`:
    each resource operand carries the byte range the callee uses; other operands are plain.
    `stream.async.dispatch` and `stream.async.call` share this syntax and its checks.
    """

    operands: list[SSAValue]
    sizes: list[SSAValue]
    offsets: list[SSAValue]
    ends: list[SSAValue]
    lengths: list[SSAValue]
    result_types: list[Attribute]
    result_sizes: list[SSAValue]
    tied: list[int]
    attributes: dict[str, Attribute]


def parse_ranged_operands(parser: Parser) -> RangedOperands:
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
    return RangedOperands(
        [parser.resolve_operand(o, t) for o, t in zip(operands, operand_types)],
        resolve_index_operands(parser, sizes),
        resolve_index_operands(parser, offsets),
        resolve_index_operands(parser, ends),
        resolve_index_operands(parser, lengths),
        list(result_types),
        resolve_index_operands(parser, result_sizes),
        list(tied),
        dict(attrs),
    )


def print_ranged_operands(printer: Printer, op: Operation) -> None:
    """`(%r[%offset to %end for %length], %v) {attrs} : (types) -> results` of a dispatch or a call."""
    ranges = iter(zip(op.resource_operand_offsets, op.resource_operand_ends, op.resource_operand_lengths))  # type: ignore[attr-defined]
    printer.print_string("(")
    for i, operand in enumerate(op.resource_operands):  # type: ignore[attr-defined]
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
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    print_shaped_function_type(
        printer,
        op.resource_operands,  # type: ignore[attr-defined]
        op.resource_operand_sizes,  # type: ignore[attr-defined]
        op.result_types,
        op.result_sizes,  # type: ignore[attr-defined]
        op.tied_operands,  # type: ignore[attr-defined]
    )


def verify_ranged_operands(op: Operation) -> None:
    """Sizes for every resource operand and result, and one byte range per resource operand."""
    operands = op.resource_operands  # type: ignore[attr-defined]
    verify_value_sizes(operands, op.resource_operand_sizes)  # type: ignore[attr-defined]
    verify_value_sizes(op.results, op.result_sizes)  # type: ignore[attr-defined]
    required = sum(1 for v in operands if isinstance(v.type, ResourceType))
    present = len(op.resource_operand_offsets)  # type: ignore[attr-defined]
    if len(op.resource_operand_ends) != present or len(op.resource_operand_lengths) != present:  # type: ignore[attr-defined]
        raise VerifyException("mismatch on resource range offsets/ends/lengths; counts must match")
    if present != required:
        raise VerifyException(f"expects {required} resource range operand sets but {present} are present")


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
        ranged = parse_ranged_operands(parser)
        op = cls(
            list(entry_points.data),
            workload,
            ranged.operands,
            ranged.sizes,
            ranged.offsets,
            ranged.ends,
            ranged.lengths,
            ranged.result_types,
            ranged.result_sizes,
            ranged.tied,
            affinity,
        )
        op.attributes |= ranged.attributes
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, "on", self.affinity)
        print_dispatch_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        print_ranged_operands(printer, self)

    def verify_(self) -> None:
        verify_ranged_operands(self)
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


# ---------------------------------------------------------------------------
# Execution regions, timepoints and allocations (scheduling)
# ---------------------------------------------------------------------------


def _parse_resource_list(parser: Parser) -> tuple[list[Attribute], list[UnresolvedOperand]]:
    """``type{%size}, type{%size}, ...`` (the types of resource values with their sizes)."""
    types: list[Attribute] = []
    sizes: list[UnresolvedOperand] = []

    def parse_one() -> None:
        ty, dims = parse_shaped_type(parser)
        types.append(ty)
        sizes.extend(dims)

    parse_one()
    while parser.parse_optional_punctuation(",") is not None:
        parse_one()
    return types, sizes


def _print_resource_list(printer: Printer, values: Sequence[SSAValue], sizes: Sequence[SSAValue]) -> None:
    rest: Sequence[SSAValue] = list(sizes)
    for i, value in enumerate(values):
        if i:
            printer.print_string(", ")
        rest = print_shaped_type(printer, value.type, rest)


def _parse_captures(parser: Parser) -> tuple[list[UnresolvedOperand], list[Any], list[UnresolvedOperand]]:
    """IREE's ``with(%x as %arg: type{%size}, ...)``: captured operands, block arguments, sizes."""
    operands: list[UnresolvedOperand] = []
    arguments: list[Any] = []
    sizes: list[UnresolvedOperand] = []

    def parse_one() -> None:
        operands.append(parser.parse_unresolved_operand())
        parser.parse_keyword("as")
        argument = parser.parse_argument(expect_type=False)
        parser.parse_punctuation(":")
        ty, dims = parse_shaped_type(parser)
        arguments.append(argument.resolve(ty))
        sizes.extend(dims)

    parser.parse_keyword("with")
    parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_one)
    return operands, arguments, sizes


def _print_captures(printer: Printer, operands: Sequence[SSAValue], args: Sequence[SSAValue], sizes: Sequence[SSAValue]) -> None:
    printer.print_string("with(")
    rest: Sequence[SSAValue] = list(sizes)
    for i, (operand, arg) in enumerate(zip(operands, args)):
        if i:
            printer.print_string(", ")
        printer.print_operand(operand)
        printer.print_string(" as ")
        printer.print_operand(arg)
        printer.print_string(": ")
        rest = print_shaped_type(printer, operand.type, rest)
    printer.print_string(")")


def _parse_fat_arrow(parser: Parser) -> None:
    """``=>`` (xDSL lexes it as ``=`` then ``>``)."""
    parser.parse_punctuation("=")
    parser.parse_punctuation(">")


def _parse_optional_await(parser: Parser) -> UnresolvedOperand | None:
    """``await(%timepoint) =>``, if present."""
    if parser.parse_optional_keyword("await") is None:
        return None
    parser.parse_punctuation("(")
    timepoint = parser.parse_unresolved_operand()
    parser.parse_punctuation(")")
    _parse_fat_arrow(parser)
    return timepoint


def _print_optional_await(printer: Printer, timepoint: SSAValue | None) -> None:
    if timepoint is not None:
        printer.print_string(" await(")
        printer.print_operand(timepoint)
        printer.print_string(") =>")


def _parse_timepoint_result(parser: Parser) -> None:
    """``=> !stream.timepoint``, the type of the timepoint an op signals."""
    _parse_fat_arrow(parser)
    parser.parse_type()


def _print_timepoint_result(printer: Printer) -> None:
    printer.print_string(" => ")
    printer.print_attribute(TimepointType())


def _resolve_await(parser: Parser, timepoint: UnresolvedOperand | None) -> SSAValue | None:
    return parser.resolve_operand(timepoint, TimepointType()) if timepoint is not None else None


def _parse_region_results(
    parser: Parser, operands: Sequence[UnresolvedOperand], operand_types: Sequence[Attribute]
) -> tuple[list[Attribute], list[UnresolvedOperand], list[int]]:
    """IREE's shaped result list of a resource region: `-> type{%size}`, `-> %captured{%size}`
    (a result tied to a captured operand) or `-> (...)`; types, sizes and tied operand indices."""
    types: list[Attribute] = []
    sizes: list[UnresolvedOperand] = []
    tied: list[int] = []
    if parser.parse_optional_punctuation("->") is None:
        return types, sizes, tied

    def parse_one() -> None:
        ty, index = parse_tied_result(parser, operands, operand_types)
        types.append(ty)
        tied.append(index)
        sizes.extend(parse_exact_dims(parser, 1 if is_size_aware(ty) else 0))

    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_one)
            parser.parse_punctuation(")")
    else:
        parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_one)
    return types, sizes, tied


def _print_region_results(
    printer: Printer,
    results: Sequence[SSAValue],
    sizes: Sequence[SSAValue],
    operands: Sequence[SSAValue],
    tied_operands: ArrayAttr[IntegerAttr] | None,
) -> None:
    if not results:
        return
    printer.print_string(" -> ")
    if len(results) > 1:
        printer.print_string("(")
    rest: Sequence[SSAValue] = list(sizes)
    for i, result in enumerate(results):
        if i:
            printer.print_string(", ")
        tied = tied_operand_index(tied_operands, i)
        print_tied_result(printer, result.type, operands[tied] if tied != UNTIED_INDEX else None)
        n = 1 if is_size_aware(result.type) else 0
        print_dynamic_dims(printer, rest[:n])
        rest = rest[n:]
    if len(results) > 1:
        printer.print_string(")")


class _ExecutionRegionOp(IRDLOperation, ABC):
    """``stream.async.execute`` and ``stream.cmd.execute``: a region run on a device as one
    unit after ``await``, the resources it uses captured as block arguments (``with``),
    signalling a timepoint when done."""

    @staticmethod
    def parse_head(parser: Parser) -> tuple[Attribute | None, UnresolvedOperand | None, list, list, list]:
        """``on(...) await(...) => with(...)``: affinity, await timepoint, captured operands,
        block arguments and sizes."""
        affinity = parse_optional_affinity(parser, "on")
        timepoint = _parse_optional_await(parser)
        operands, arguments, sizes = _parse_captures(parser)
        return affinity, timepoint, operands, arguments, sizes

    def print_head(self, printer: Printer) -> None:
        print_optional_affinity(printer, "on", self.affinity)  # type: ignore[attr-defined]
        _print_optional_await(printer, self.await_timepoint)  # type: ignore[attr-defined]
        printer.print_string(" ")
        _print_captures(printer, self.resource_operands, self.body.block.args, self.resource_operand_sizes)  # type: ignore[attr-defined]

    def print_body_and_timepoint(self, printer: Printer, *, print_block_terminators: bool) -> None:
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=print_block_terminators)  # type: ignore[attr-defined]
        _print_timepoint_result(printer)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_captures(self) -> None:
        operands = self.resource_operands  # type: ignore[attr-defined]
        verify_value_sizes(operands, self.resource_operand_sizes)  # type: ignore[attr-defined]
        block = self.body.block  # type: ignore[attr-defined]
        if len(block.args) != len(operands):
            raise VerifyException(f"region takes {len(block.args)} arguments but {len(operands)} resources are captured")


class _ResourceLifetimeOp(IRDLOperation, ABC):
    """``stream.resource.alloca`` and ``stream.resource.dealloca``: one resource of a given
    size allocated or freed in stream order, ``: type{%size} => !stream.timepoint``."""

    @staticmethod
    def parse_sized_resource(parser: Parser) -> tuple[Attribute, UnresolvedOperand, dict[str, Attribute]]:
        """``: type{%size} => !stream.timepoint {attrs}``: the type, its size and the attributes."""
        parser.parse_punctuation(":")
        ty, sizes = parse_shaped_type(parser)
        _parse_timepoint_result(parser)
        attrs = parser.parse_optional_attr_dict()
        if len(sizes) != 1:
            parser.raise_error("expected the resource size")
        return ty, sizes[0], attrs

    def print_sized_resource(self, printer: Printer, resource: SSAValue, size: SSAValue) -> None:
        printer.print_string(" : ")
        print_shaped_type(printer, resource.type, [size])
        _print_timepoint_result(printer)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Yields the resources an execution region produces (its terminator).

        stream.yield %30 : !stream.resource<external>{%20}

    https://iree.dev/reference/mlir-dialects/Stream/#streamyield-streamyieldop
    """

    name = "stream.yield"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    def __init__(self, values: Sequence[SSAValue | Operation] = (), sizes: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[values, sizes])

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        attrs = parser.parse_optional_attr_dict()
        operands: list[UnresolvedOperand] = []
        if (first := parser.parse_optional_unresolved_operand()) is not None:
            operands.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            types, sizes = _parse_resource_list(parser)
        else:
            types, sizes = [], []
        op = cls([parser.resolve_operand(o, t) for o, t in zip(operands, types)], resolve_index_operands(parser, sizes))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.resource_operands:
            printer.print_string(" ")
            printer.print_list(self.resource_operands, printer.print_operand)
            printer.print_string(" : ")
            _print_resource_list(printer, self.resource_operands, self.resource_operand_sizes)

    def verify_(self) -> None:
        verify_value_sizes(self.resource_operands, self.resource_operand_sizes)


@irdl_op_definition
class AsyncExecuteOp(_ExecutionRegionOp):
    """Runs the async ops of its region on a device as one unit, after ``await``.

    Resources the region uses are captured as block arguments (``with``); the
    results are what its ``stream.yield`` yields, ready once the result
    timepoint is reached (``stream.timepoint.await``).

        %results, %result_timepoint = stream.async.execute on(#hal.device.affinity<@__device_0>)
            with(%4 as %arg2: !stream.resource<external>{%3}) -> !stream.resource<*>{%17} {
          %0 = stream.async.dispatch @ex::@fn(%arg2[%c0 to %3 for %3]) : (...) -> !stream.resource<*>{%17}
          stream.yield %0 : !stream.resource<*>{%17}
        } => !stream.timepoint

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncexecute-streamasyncexecuteop
    """

    name = "stream.async.execute"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(Attribute)
    res = var_result_def(ResourceType)
    result_timepoint = result_def(TimepointType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        resource_operands: Sequence[SSAValue | Operation],
        resource_operand_sizes: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue | Operation],
        body: Region,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | Operation | None = None,
        tied_operands: Sequence[int] = (),
    ):
        super().__init__(
            operands=[
                resource_operands,
                resource_operand_sizes,
                result_sizes,
                [await_timepoint] if await_timepoint is not None else [],
            ],
            result_types=[result_types, TimepointType()],
            properties={"affinity": affinity, "tied_operands": tied_operands_attr(tied_operands)},
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncExecuteOp:
        affinity, timepoint, operands, arguments, sizes = cls.parse_head(parser)
        result_types, result_sizes, tied = _parse_region_results(parser, operands, [a.type for a in arguments])
        body = parser.parse_region(arguments)
        _parse_timepoint_result(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(
            [parser.resolve_operand(o, a.type) for o, a in zip(operands, arguments)],
            resolve_index_operands(parser, sizes),
            result_types,
            resolve_index_operands(parser, result_sizes),
            body,
            affinity,
            _resolve_await(parser, timepoint),
            tied,
        )
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        self.print_head(printer)
        _print_region_results(printer, self.res, self.result_sizes, self.resource_operands, self.tied_operands)
        self.print_body_and_timepoint(printer, print_block_terminators=True)

    def verify_(self) -> None:
        verify_value_sizes(self.resource_operands, self.resource_operand_sizes)
        verify_value_sizes(self.res, self.result_sizes)
        block = self.body.block
        if len(block.args) != len(self.resource_operands):
            raise VerifyException(
                f"region takes {len(block.args)} arguments but {len(self.resource_operands)} resources are captured"
            )
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            raise VerifyException("expected the region to end in stream.yield")
        if [v.type for v in terminator.resource_operands] != [r.type for r in self.res]:
            raise VerifyException("stream.yield types do not match the op's result types")
        verify_tied_operands(self.tied_operands, len(self.res), len(self.resource_operands))

    def asm_result_names(self) -> list[str | None]:
        """IREE names the results ``%results`` and ``%result_timepoint``."""
        return ["results"] * len(self.res) + ["result_timepoint"]


@irdl_op_definition
class AsyncConcurrentOp(_ExecutionRegionOp):
    """A region of an execution region whose ops may run concurrently with one another.

    Like ``stream.async.execute`` without the timeline: it captures resources
    (``with``), yields its results, and a result may be tied to a captured operand.

        %1 = stream.async.concurrent with(%arg3 as %arg4: !stream.resource<*>{%s}) -> %arg3{%s} {
          stream.yield %arg4 : !stream.resource<*>{%s}
        }

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncconcurrent-streamasyncconcurrentop
    """

    name = "stream.async.concurrent"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(Attribute)
    res = var_result_def(ResourceType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        resource_operands: Sequence[SSAValue | Operation],
        resource_operand_sizes: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue | Operation],
        body: Region,
        affinity: Attribute | None = None,
        tied_operands: Sequence[int] = (),
    ):
        super().__init__(
            operands=[resource_operands, resource_operand_sizes, result_sizes],
            result_types=[result_types],
            properties={"affinity": affinity, "tied_operands": tied_operands_attr(tied_operands)},
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncConcurrentOp:
        affinity = parse_optional_affinity(parser, "on")
        operands, arguments, sizes = _parse_captures(parser)
        result_types, result_sizes, tied = _parse_region_results(parser, operands, [a.type for a in arguments])
        body = parser.parse_region(arguments)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(
            [parser.resolve_operand(o, a.type) for o, a in zip(operands, arguments)],
            resolve_index_operands(parser, sizes),
            result_types,
            resolve_index_operands(parser, result_sizes),
            body,
            affinity,
            tied,
        )
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, "on", self.affinity)
        printer.print_string(" ")
        _print_captures(printer, self.resource_operands, self.body.block.args, self.resource_operand_sizes)
        _print_region_results(printer, self.res, self.result_sizes, self.resource_operands, self.tied_operands)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=True)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), AsyncExecuteOp | AsyncConcurrentOp):
            raise VerifyException("expects parent op to be one of 'stream.async.execute, stream.async.concurrent'")
        self.verify_captures()
        verify_value_sizes(self.res, self.result_sizes)
        terminator = self.body.block.last_op
        if not isinstance(terminator, YieldOp):
            raise VerifyException("expected the region to end in stream.yield")
        if [v.type for v in terminator.resource_operands] != [r.type for r in self.res]:
            raise VerifyException("stream.yield types do not match the op's result types")
        verify_tied_operands(self.tied_operands, len(self.res), len(self.resource_operands))


@irdl_op_definition
class TimepointAwaitOp(IRDLOperation):
    """Waits on the host for a timepoint; its results are the operands, ready to use.

        %26 = stream.timepoint.await %25 => %result : !stream.resource<external>{%20}

    https://iree.dev/reference/mlir-dialects/Stream/#streamtimepointawait-streamtimepointawaitop
    """

    name = "stream.timepoint.await"

    await_timepoint = operand_def(TimepointType)
    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    res = var_result_def()

    traits = traits_def(_Canonicalization("SinkSubviewsAcrossAwaits", "FoldDuplicateAwaitResources"))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        timepoint: SSAValue | Operation,
        operands: Sequence[SSAValue | Operation],
        sizes: Sequence[SSAValue | Operation],
        affinity: Attribute | None = None,
    ):
        types = [SSAValue.get(o).type for o in operands]
        super().__init__(
            operands=[timepoint, operands, sizes], result_types=[types], properties={"affinity": affinity}
        )

    @classmethod
    def parse(cls, parser: Parser) -> TimepointAwaitOp:
        affinity = parse_optional_affinity(parser, "on")
        timepoint = parser.parse_unresolved_operand()
        _parse_fat_arrow(parser)
        operands = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(",") is not None:
            operands.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(":")
        types, sizes = _parse_resource_list(parser)
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            parser.resolve_operand(timepoint, TimepointType()),
            [parser.resolve_operand(o, t) for o, t in zip(operands, types)],
            resolve_index_operands(parser, sizes),
            affinity,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, "on", self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.await_timepoint)
        printer.print_string(" => ")
        printer.print_list(self.resource_operands, printer.print_operand)
        printer.print_string(" : ")
        _print_resource_list(printer, self.resource_operands, self.resource_operand_sizes)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        verify_value_sizes(self.resource_operands, self.resource_operand_sizes)


@irdl_op_definition
class TimepointJoinOp(IRDLOperation):
    """A timepoint reached when all of its operands are.

        %22 = stream.timepoint.join max(%result_timepoint, %result_timepoint_2) => !stream.timepoint

    https://iree.dev/reference/mlir-dialects/Stream/#streamtimepointjoin-streamtimepointjoinop
    """

    name = "stream.timepoint.join"

    await_timepoints = var_operand_def(TimepointType)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(Pure())

    def __init__(self, timepoints: Sequence[SSAValue | Operation]):
        super().__init__(operands=[timepoints], result_types=[TimepointType()])

    @classmethod
    def parse(cls, parser: Parser) -> TimepointJoinOp:
        parser.parse_keyword("max")
        operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        _parse_fat_arrow(parser)
        parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls([parser.resolve_operand(o, TimepointType()) for o in operands])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" max(")
        printer.print_list(self.await_timepoints, printer.print_operand)
        printer.print_string(") => ")
        printer.print_attribute(TimepointType())
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ResourceAllocaOp(_ResourceLifetimeOp):
    """Allocates a resource in stream order: ready (contents undefined) once the timepoint is reached.

        %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>)
            : !stream.resource<external>{%20} => !stream.timepoint

    https://iree.dev/reference/mlir-dialects/Stream/#streamresourcealloca-streamresourceallocaop
    """

    name = "stream.resource.alloca"

    storage_size = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(Attribute)
    indeterminate_lifetime = opt_prop_def(UnitAttr)
    result = result_def(ResourceType)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        result_type: Attribute,
        storage_size: SSAValue | Operation,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[storage_size, [await_timepoint] if await_timepoint is not None else []],
            result_types=[result_type, TimepointType()],
            properties={"affinity": affinity},
        )

    def asm_result_names(self) -> list[str | None]:
        return ["result", "result_timepoint"]

    @classmethod
    def parse(cls, parser: Parser) -> ResourceAllocaOp:
        parser.parse_keyword("uninitialized")
        indeterminate = parser.parse_optional_keyword("indeterminate") is not None
        affinity = parse_optional_affinity(parser, "on")
        timepoint = _parse_optional_await(parser)
        ty, size, attrs = cls.parse_sized_resource(parser)
        op = cls(ty, parser.resolve_operand(size, IndexType()), affinity, _resolve_await(parser, timepoint))
        if indeterminate:
            op.indeterminate_lifetime = UnitAttr()
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" uninitialized")
        if self.indeterminate_lifetime is not None:
            printer.print_string(" indeterminate")
        print_optional_affinity(printer, "on", self.affinity)
        _print_optional_await(printer, self.await_timepoint)
        self.print_sized_resource(printer, self.result, self.storage_size)


@irdl_op_definition
class ResourceDeallocaOp(_ResourceLifetimeOp):
    """Frees a ``stream.resource.alloca`` allocation in stream order, once ``await`` is reached.

        %24 = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%23) => %result_1
            : !stream.resource<transient>{%21} => !stream.timepoint

    https://iree.dev/reference/mlir-dialects/Stream/#streamresourcedealloca-streamresourcedeallocaop
    """

    name = "stream.resource.dealloca"

    operand = operand_def(ResourceType)
    operand_size = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(Attribute)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> ResourceDeallocaOp:
        affinity = parse_optional_affinity(parser, "on")
        timepoint = _parse_optional_await(parser)
        operand = parser.parse_unresolved_operand()
        ty, size, attrs = cls.parse_sized_resource(parser)
        op = cls(
            parser.resolve_operand(operand, ty),
            parser.resolve_operand(size, IndexType()),
            affinity,
            _resolve_await(parser, timepoint),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, "on", self.affinity)
        _print_optional_await(printer, self.await_timepoint)
        printer.print_string(" ")
        printer.print_operand(self.operand)
        self.print_sized_resource(printer, self.operand, self.operand_size)

    def __init__(
        self,
        operand: SSAValue | Operation,
        operand_size: SSAValue | Operation,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[operand, operand_size, [await_timepoint] if await_timepoint is not None else []],
            result_types=[TimepointType()],
            properties={"affinity": affinity},
        )


@irdl_op_definition
class ResourceSubviewOp(IRDLOperation):
    """A range of a resource, as a resource of its own (no copy): ``length`` bytes from ``offset``.

        %33 = stream.resource.subview %result[%32#1] : !stream.resource<external>{%32#0} -> !stream.resource<external>{%25}

    Schedule-allocation hands out the results of an execution region as
    subviews of one allocation; canonicalization folds a subview an execution
    region captures into the ranges its commands use.

    https://iree.dev/reference/mlir-dialects/Stream/#streamresourcesubview-streamresourcesubviewop
    """

    name = "stream.resource.subview"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result_size = operand_def(IndexType)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->`"
        " type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        source_offset: SSAValue | Operation,
        result_size: SSAValue | Operation,
    ):
        super().__init__(
            operands=[source, source_size, source_offset, result_size],
            result_types=[SSAValue.get(source).type],
        )


@irdl_op_definition
class ResourcePackOp(IRDLOperation):
    """Packs slices with lifetime intervals into one allocation: its total length, then each slice's offset.

    Slices whose intervals ``[start, end]`` overlap get disjoint ranges;
    ``iree-stream-layout-slices`` turns the op into offset arithmetic.

        %21:3 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
          [0, 1] = %14,
          [0, 1] = %19
        }) : index

    https://iree.dev/reference/mlir-dialects/Stream/#streamresourcepack-streamresourcepackop
    """

    name = "stream.resource.pack"

    offset = opt_operand_def(IndexType)
    dynamic_slice_sizes = var_operand_def(IndexType)
    lifetime_intervals = prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(Attribute)
    total_length = result_def(IndexType)
    packed_offsets = var_result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        intervals: Sequence[tuple[int, int]],
        sizes: Sequence[SSAValue | Operation],
        affinity: Attribute | None = None,
        offset: SSAValue | Operation | None = None,
    ):
        flat = [IntegerAttr(v, IndexType()) for interval in intervals for v in interval]
        super().__init__(
            operands=[[offset] if offset is not None else [], sizes],
            result_types=[IndexType(), [IndexType()] * len(sizes)],
            properties={"lifetime_intervals": ArrayAttr(flat), "affinity": affinity},
        )

    @property
    def intervals(self) -> list[tuple[int, int]]:
        values = [a.value.data for a in self.lifetime_intervals.data]
        return list(zip(values[::2], values[1::2]))

    @classmethod
    def parse(cls, parser: Parser) -> ResourcePackOp:
        affinity = parse_optional_affinity(parser, "on")
        offset = None
        if parser.parse_optional_keyword("offset") is not None:
            parser.parse_punctuation("(")
            offset = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
        parser.parse_keyword("slices")
        parser.parse_punctuation("(")
        parser.parse_punctuation("{")
        intervals: list[tuple[int, int]] = []
        sizes: list[UnresolvedOperand] = []

        def parse_slice() -> None:
            parser.parse_punctuation("[")
            start = parser.parse_integer()
            parser.parse_punctuation(",")
            end = parser.parse_integer()
            parser.parse_punctuation("]")
            parser.parse_punctuation("=")
            intervals.append((start, end))
            sizes.append(parser.parse_unresolved_operand())

        if parser.parse_optional_punctuation("}") is None:
            parse_slice()
            while parser.parse_optional_punctuation(",") is not None:
                parse_slice()
            parser.parse_punctuation("}")
        parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            intervals,
            resolve_index_operands(parser, sizes),
            affinity,
            parser.resolve_operand(offset, IndexType()) if offset is not None else None,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, "on", self.affinity)
        if self.offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(self.offset)
            printer.print_string(")")
        printer.print_string(" slices({")
        with printer.indented():
            for i, ((start, end), size) in enumerate(zip(self.intervals, self.dynamic_slice_sizes)):
                printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
                printer.print_string(f"[{start}, {end}] = ")
                printer.print_operand(size)
                if i + 1 < len(self.dynamic_slice_sizes):
                    printer.print_string(",")
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
        printer.print_string("}) : index")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if len(self.lifetime_intervals.data) != 2 * len(self.dynamic_slice_sizes):
            raise VerifyException("requires a [start, end] range for each slice")


# ---------------------------------------------------------------------------
# Command-phase ops
# ---------------------------------------------------------------------------

RESOURCE_ACCESSES = ("ro", "wo", "rw")


@irdl_op_definition
class CmdExecuteOp(_ExecutionRegionOp):
    """Records the commands of its region (dispatches on resource ranges) and submits them after ``await``.

    The resources the commands use are captured as block arguments (``with``).

        %23 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%22)
            => with(%4 as %arg2: !stream.resource<external>{%3}, ...) {
          stream.cmd.dispatch @ex::@fn(...) {...}
        } => !stream.timepoint

    https://iree.dev/reference/mlir-dialects/Stream/#streamcmdexecute-streamcmdexecuteop
    """

    name = "stream.cmd.execute"

    resource_operands = var_operand_def(ResourceType)
    resource_operand_sizes = var_operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(Attribute)
    once = opt_prop_def(UnitAttr)
    result_timepoint = result_def(TimepointType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(_Canonicalization("CloneCapturedCmdExecuteSubviewOps", "ClosureOptimizationPattern"))

    def __init__(
        self,
        resource_operands: Sequence[SSAValue | Operation],
        resource_operand_sizes: Sequence[SSAValue | Operation],
        body: Region,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[
                resource_operands,
                resource_operand_sizes,
                [await_timepoint] if await_timepoint is not None else [],
            ],
            result_types=[TimepointType()],
            properties={"affinity": affinity},
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmdExecuteOp:
        once = parser.parse_optional_keyword("once") is not None
        affinity, timepoint, operands, arguments, sizes = cls.parse_head(parser)
        body = parser.parse_region(arguments)
        if not isinstance(body.block.last_op, YieldOp):
            body.block.add_op(YieldOp())  # the implicit terminator IREE does not print
        _parse_timepoint_result(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(
            [parser.resolve_operand(o, a.type) for o, a in zip(operands, arguments)],
            resolve_index_operands(parser, sizes),
            body,
            affinity,
            _resolve_await(parser, timepoint),
        )
        if once:
            op.once = UnitAttr()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        if self.once is not None:
            printer.print_string(" once")
        self.print_head(printer)
        self.print_body_and_timepoint(printer, print_block_terminators=False)

    def verify_(self) -> None:
        self.verify_captures()
        if not isinstance(self.body.block.last_op, YieldOp):
            raise VerifyException("expected the region to end in stream.yield")


@irdl_op_definition
class CmdDispatchOp(IRDLOperation):
    """Dispatches an export on byte ranges of the resources its ``stream.cmd.execute`` captured.

    Uniform operands (scalars, the same for every workgroup) are listed first;
    each resource is bound with its access (``ro``, ``wo``, ``rw``) and the range
    ``[%offset for %length]`` the dispatch uses.

        stream.cmd.dispatch @ex::@fn[%0, %1](%0, %1 : index, index) {
          ro %arg2[%c0 for %3] : !stream.resource<external>{%3},
          wo %arg5[%21#1 for %14] : !stream.resource<transient>{%21#0}
        }

    https://iree.dev/reference/mlir-dialects/Stream/#streamcmddispatch-streamcmddispatchop
    """

    name = "stream.cmd.dispatch"

    workload = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    uniform_operands = var_operand_def()
    resources = var_operand_def(ResourceType)
    resource_sizes = var_operand_def(IndexType)
    resource_offsets = var_operand_def(IndexType)
    resource_lengths = var_operand_def(IndexType)
    resource_accesses = prop_def(ArrayAttr[StringAttr])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(_Canonicalization("FoldSubviewsIntoDispatchOp"))

    def __init__(
        self,
        entry_point: SymbolRefAttr | Sequence[SymbolRefAttr],
        workload: Sequence[SSAValue | Operation],
        uniform_operands: Sequence[SSAValue | Operation],
        resources: Sequence[SSAValue | Operation],
        resource_sizes: Sequence[SSAValue | Operation],
        resource_offsets: Sequence[SSAValue | Operation],
        resource_lengths: Sequence[SSAValue | Operation],
        resource_accesses: Sequence[str],
    ):
        entry_points = [entry_point] if isinstance(entry_point, SymbolRefAttr) else list(entry_point)
        super().__init__(
            operands=[workload, uniform_operands, resources, resource_sizes, resource_offsets, resource_lengths],
            properties={
                "entry_points": ArrayAttr(entry_points),
                "resource_accesses": ArrayAttr([StringAttr(a) for a in resource_accesses]),
            },
        )

    @property
    def accesses(self) -> list[str]:
        return [a.data for a in self.resource_accesses.data]

    @classmethod
    def parse(cls, parser: Parser) -> CmdDispatchOp:
        entry_points = parse_dispatch_entry_points(parser)
        workload = parse_optional_workload(parser)
        operands: list[SSAValue] = []
        if parser.parse_optional_punctuation("(") is not None:
            unresolved = [parser.parse_unresolved_operand()]
            while parser.parse_optional_punctuation(",") is not None:
                unresolved.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            types = [parser.parse_type()]
            while parser.parse_optional_punctuation(",") is not None:
                types.append(parser.parse_type())
            parser.parse_punctuation(")")
            operands = [parser.resolve_operand(o, t) for o, t in zip(unresolved, types)]
        accesses: list[str] = []
        resources: list[tuple[UnresolvedOperand, UnresolvedOperand, UnresolvedOperand]] = []
        types: list[Attribute] = []
        sizes: list[UnresolvedOperand] = []

        def parse_resource() -> None:
            pos = parser.pos
            access = parser.parse_identifier()
            if access not in RESOURCE_ACCESSES:
                parser.raise_error(f"expected one of {', '.join(RESOURCE_ACCESSES)}", pos, parser.pos)
            accesses.append(access)
            resource = parser.parse_unresolved_operand()
            parser.parse_punctuation("[")
            offset = parser.parse_unresolved_operand()
            parser.parse_keyword("for")
            length = parser.parse_unresolved_operand()
            parser.parse_punctuation("]")
            parser.parse_punctuation(":")
            ty, dims = parse_shaped_type(parser)
            resources.append((resource, offset, length))
            types.append(ty)
            sizes.extend(dims)

        parser.parse_comma_separated_list(parser.Delimiter.BRACES, parse_resource)
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            list(entry_points.data),
            workload,
            operands,
            [parser.resolve_operand(r, t) for (r, _, _), t in zip(resources, types)],
            resolve_index_operands(parser, sizes),
            resolve_index_operands(parser, [o for _, o, _ in resources]),
            resolve_index_operands(parser, [n for _, _, n in resources]),
            accesses,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_dispatch_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        if self.uniform_operands:
            printer.print_string("(")
            printer.print_list(self.uniform_operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.uniform_operands], printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" {")
        rows = list(zip(self.accesses, self.resources, self.resource_sizes, self.resource_offsets, self.resource_lengths))
        with printer.indented():
            for i, (access, resource, size, offset, length) in enumerate(rows):
                printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
                printer.print_string(f"{access} ")
                printer.print_operand(resource)
                printer.print_string("[")
                printer.print_operand(offset)
                printer.print_string(" for ")
                printer.print_operand(length)
                printer.print_string("] : ")
                print_shaped_type(printer, resource.type, [size])
                if i + 1 < len(rows):
                    printer.print_string(",")
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
        printer.print_string("}")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        count = len(self.resources)
        if not (len(self.resource_sizes) == len(self.resource_offsets) == len(self.resource_lengths) == count):
            raise VerifyException("resource size, offset and length counts must match the resources")
        if len(self.resource_accesses.data) != count or any(a not in RESOURCE_ACCESSES for a in self.accesses):
            raise VerifyException("requires one access (ro, wo or rw) per resource")
        verify_dispatch_symbol_uses(self, self.entry_points, self.workload, ExecutableExportOp.name)



from mini_iree.dialects.stream_async_call import AsyncCallOp, AsyncFuncOp  # noqa: E402 - ops with a syntax of their own
from mini_iree.dialects.stream_collective import AsyncCollectiveOp, CollectiveAttr  # noqa: E402
from mini_iree.dialects.stream_async_ops import (  # noqa: E402 - ops of this dialect with a syntax of their own
    AsyncCopyOp,
    AsyncFillOp,
    AsyncLoadOp,
    AsyncSliceOp,
    AsyncSplatOp,
    AsyncStoreOp,
    AsyncUpdateOp,
)
from mini_iree.dialects.stream_tensor_ops import (  # noqa: E402 - ops of this dialect with a syntax of their own
    TensorFillOp,
    TensorLoadOp,
    TensorSliceOp,
    TensorSplatOp,
    TensorStoreOp,
    TensorTraceOp,
    TensorUpdateOp,
)

Stream = Dialect(
    "stream",
    [
        TensorSplatOp,
        TensorFillOp,
        TensorSliceOp,
        TensorUpdateOp,
        TensorLoadOp,
        TensorStoreOp,
        TensorTraceOp,
        ExecutableOp,
        ExecutableExportOp,
        ReturnOp,
        BindingSubspanOp,
        TensorSizeOfOp,
        TensorImportOp,
        TensorExportOp,
        TensorEncodeOp,
        TensorCloneOp,
        TensorConstantOp,
        TensorDispatchOp,
        AsyncDispatchOp,
        AsyncTransferOp,
        AsyncCastOp,
        AsyncCloneOp,
        AsyncSplatOp,
        AsyncSliceOp,
        AsyncFillOp,
        AsyncUpdateOp,
        AsyncCopyOp,
        AsyncLoadOp,
        AsyncStoreOp,
        AsyncFuncOp,
        AsyncCallOp,
        AsyncCollectiveOp,
        AsyncAllocaOp,
        TensorEmptyOp,
        AsyncConstantOp,
        ResourceSizeOp,
        YieldOp,
        AsyncExecuteOp,
        AsyncConcurrentOp,
        TimepointAwaitOp,
        TimepointJoinOp,
        ResourceAllocaOp,
        ResourceDeallocaOp,
        ResourcePackOp,
        ResourceSubviewOp,
        CmdExecuteOp,
        CmdDispatchOp,
    ],
    [ResourceType, BindingType, TimepointType, ChannelType, CollectiveAttr],
)
