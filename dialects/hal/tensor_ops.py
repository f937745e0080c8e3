"""Tensors at the ABI: `hal.tensor.import`/`export` (one base), `hal.tensor.barrier`
and `hal.tensor.alias`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, ShapedType, StringAttr, TensorType, UnitAttr
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
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
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.hal.syntax import parse_optional_affinity, print_optional_affinity
from mini_iree.dialects.hal.types import BufferType, BufferViewType, FenceType
from mini_iree.dialects.support import operand_groups
from mini_iree.dialects.traits import VerifierReadsOnlyItself
from mini_iree.dialects.utils import count_dynamic, parse_dynamic_dims, print_dynamic_dims

# ---------------------------------------------------------------------------
# Tensor import/export
# ---------------------------------------------------------------------------


def _parse_type_alias(parser: Parser) -> tuple[Attribute, Attribute]:
    """IREE's `custom<TypeAlias>`: `type` or `encoding_type as storage_type`; returns (encoding, storage)."""
    encoding = parser.parse_type()
    storage = parser.parse_type() if parser.parse_optional_keyword("as") is not None else encoding
    return encoding, storage


def _print_type_alias(printer: Printer, encoding: Attribute, storage: Attribute) -> None:
    if encoding != storage:
        printer.print_attribute(encoding)
        printer.print_string(" as ")
    printer.print_attribute(storage)


def _verify_type_storage_compatibility(encoding: Attribute, storage: Attribute) -> None:
    """The ABI-facing type may differ from the tensor type, but not in its dynamic dimensions."""
    if encoding == storage or not isinstance(encoding, ShapedType) or not isinstance(storage, ShapedType):
        return
    if count_dynamic(encoding) != count_dynamic(storage):
        raise VerifyException(
            "encoding and storage types must have the same dynamic dimension values; "
            f"encoding shape '{encoding}' incompatible with storage shape '{storage}'"
        )


def _print_optional_wait_fence(printer: Printer, fence: SSAValue | None) -> None:
    """`wait(%fence) =>`, before the source of an import or alias."""
    if fence is not None:
        printer.print_string(" wait(")
        printer.print_operand(fence)
        printer.print_string(") =>")


class _TensorAbiOp(IRDLOperation, ABC):
    """`hal.tensor.import` and `hal.tensor.export`: a tensor crossing the ABI.

    The tensor's type may be aliased (`tensor<4xi8> as tensor<1xi32>`: the
    encoding type, then the storage type) and its dynamic dimensions follow it;
    the other side is a buffer view (or buffer).
    """

    TENSOR: ClassVar[str]
    """Which side the tensor is: `target` (import) or `source` (export)."""

    @abstractmethod
    def abi_tensor(self) -> tuple[SSAValue, Sequence[SSAValue], Attribute]:
        """The tensor, its dynamic dimensions and its encoding type."""

    def _print_tensor_name(self, printer: Printer) -> None:
        tensor_name = self.tensor_name  # type: ignore[attr-defined]
        if tensor_name is not None:
            printer.print_string(" ")
            printer.print_attribute(tensor_name)

    def verify_(self) -> None:
        tensor, dims, encoding = self.abi_tensor()
        if count_dynamic(tensor.type) != len(dims):
            raise VerifyException(
                f"number of {self.TENSOR}_dims must match number of dynamic dims in {self.TENSOR} type"
            )
        _verify_type_storage_compatibility(encoding, tensor.type)


@irdl_op_definition
class TensorImportOp(_TensorAbiOp):
    """Imports a tensor from a HAL buffer view (or buffer).

    ```mlir
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%d0, %d1}
    %2 = hal.tensor.import on(#hal.device.affinity<@dev>) wait(%fence) => %arg1 : !hal.buffer_view -> tensor<4xf32>
    ```

    The dynamic dimensions of the result follow its type. `tensor<4xi8> as
    tensor<1xi32>` imports a value whose ABI type differs from the tensor type.
    https://iree.dev/reference/mlir-dialects/HAL/#haltensorimport-haltensorimportop
    """

    name = "hal.tensor.import"

    source = operand_def(BufferType | BufferViewType)
    target_dims = var_operand_def(IndexType)
    wait_fence = opt_operand_def(FenceType)
    byte_offset = opt_operand_def(IndexType)

    target_encoding = prop_def(TypeAttribute)
    consume = opt_prop_def(UnitAttr)
    tensor_name = opt_prop_def(StringAttr, prop_name="name")
    affinity = opt_prop_def(Attribute)

    target = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    TENSOR: ClassVar[str] = "target"

    def __init__(
        self,
        source: SSAValue,
        target_type: TensorType,
        target_dims: Sequence[SSAValue] = (),
        *,
        name: str | StringAttr | None = None,
        target_encoding: Attribute | None = None,
        consume: bool = False,
        wait_fence: SSAValue | None = None,
        byte_offset: SSAValue | None = None,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, target_dims, wait_fence, byte_offset],
            result_types=[target_type],
            properties={
                "target_encoding": target_encoding or target_type,
                "consume": UnitAttr() if consume else None,
                "name": StringAttr(name) if isinstance(name, str) else name,
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorImportOp:
        affinity = parse_optional_affinity(parser)
        wait_fence = None
        if parser.parse_optional_keyword("wait") is not None:
            with parser.in_parens():
                wait_fence = parser.parse_unresolved_operand()
            parser.parse_punctuation("=")
            parser.parse_punctuation(">")
        consume = parser.parse_optional_keyword("consume") is not None
        source = parser.parse_unresolved_operand()
        byte_offset = None
        if parser.parse_optional_keyword("offset") is not None:
            with parser.in_parens():
                byte_offset = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        name = parser.parse_optional_str_literal()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        pos = parser.pos
        encoding, target_type = _parse_type_alias(parser)
        if not isinstance(target_type, TensorType):
            parser.raise_error(f"expected a tensor type, got {target_type}", pos, parser.pos)
        dims = [parser.resolve_operand(d, IndexType()) for d in parse_dynamic_dims(parser)]
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            parser.resolve_operand(source, source_type),
            target_type,
            dims,
            name=name,
            target_encoding=encoding,
            consume=consume,
            wait_fence=None if wait_fence is None else parser.resolve_operand(wait_fence, FenceType()),
            byte_offset=byte_offset,
            affinity=affinity,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        # All operand groups at once: each accessor decodes the segment sizes again.
        (source,), target_dims, fences, offsets = operand_groups(self)
        wait_fence = fences[0] if fences else None
        byte_offset = offsets[0] if offsets else None
        print_optional_affinity(printer, self.affinity)
        _print_optional_wait_fence(printer, wait_fence)
        if self.consume is not None:
            printer.print_string(" consume")
        printer.print_string(" ")
        printer.print_operand(source)
        if byte_offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(byte_offset)
            printer.print_string(")")
        self._print_tensor_name(printer)
        printer.print_string(" : ")
        printer.print_attribute(source.type)
        printer.print_string(" -> ")
        _print_type_alias(printer, self.target_encoding, self.target.type)
        print_dynamic_dims(printer, target_dims)
        printer.print_op_attributes(self.attributes)

    def abi_tensor(self) -> tuple[SSAValue, Sequence[SSAValue], Attribute]:
        return self.target, self.target_dims, self.target_encoding


@irdl_op_definition
class TensorExportOp(_TensorAbiOp):
    """Exports a tensor to a HAL buffer view (or buffer).

    ```mlir
    %6 = hal.tensor.export %5 "output0" : tensor<?x?xf32>{%d0, %d1} -> !hal.buffer_view
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#haltensorexport-haltensorexportop
    """

    name = "hal.tensor.export"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)

    source_encoding = prop_def(TypeAttribute)
    tensor_name = opt_prop_def(StringAttr, prop_name="name")
    affinity = opt_prop_def(Attribute)

    target = result_def(BufferType | BufferViewType)

    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    TENSOR: ClassVar[str] = "source"

    def __init__(
        self,
        source: SSAValue,
        source_dims: Sequence[SSAValue] = (),
        *,
        name: str | StringAttr | None = None,
        source_encoding: Attribute | None = None,
        affinity: Attribute | None = None,
        target_type: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_dims],
            result_types=[target_type or BufferViewType()],
            properties={
                "source_encoding": source_encoding or source.type,
                "name": StringAttr(name) if isinstance(name, str) else name,
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorExportOp:
        affinity = parse_optional_affinity(parser)
        source = parser.parse_unresolved_operand()
        name = parser.parse_optional_str_literal()
        parser.parse_punctuation(":")
        encoding, source_type = _parse_type_alias(parser)
        dims = [parser.resolve_operand(d, IndexType()) for d in parse_dynamic_dims(parser)]
        parser.parse_punctuation("->")
        target_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            parser.resolve_operand(source, source_type),
            dims,
            name=name,
            source_encoding=encoding,
            affinity=affinity,
            target_type=target_type,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        self._print_tensor_name(printer)
        printer.print_string(" : ")
        _print_type_alias(printer, self.source_encoding, self.source.type)
        print_dynamic_dims(printer, self.source_dims)
        printer.print_string(" -> ")
        printer.print_attribute(self.target.type)
        printer.print_op_attributes(self.attributes)

    def abi_tensor(self) -> tuple[SSAValue, Sequence[SSAValue], Attribute]:
        return self.source, self.source_dims, self.source_encoding


# ---------------------------------------------------------------------------
# Fences at the ABI (wrap-entry-points' coarse-fences invocation model)
# ---------------------------------------------------------------------------


def _parse_optional_wait_fence(parser: Parser) -> SSAValue | None:
    """`wait(%fence) =>`, before the source of an import or alias."""
    if parser.parse_optional_keyword("wait") is None:
        return None
    with parser.in_parens():
        fence = parser.parse_unresolved_operand()
    parser.parse_punctuation("=")
    parser.parse_punctuation(">")
    return parser.resolve_operand(fence, FenceType())


@irdl_op_definition
class TensorBarrierOp(IRDLOperation):
    """Signals a fence once every source tensor is ready; the results are the same tensors.

    ```mlir
    %2:2 = hal.tensor.barrier join(%0, %1 : tensor<4xf32>, tensor<4xf32>) => %signal : !hal.fence
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#haltensorbarrier-haltensorbarrierop
    """

    name = "hal.tensor.barrier"

    sources = var_operand_def(TensorType)
    signal_fence = operand_def(FenceType)
    results_ = var_result_def(TensorType)

    def __init__(self, sources: Sequence[SSAValue], signal_fence: SSAValue):
        super().__init__(operands=[sources, signal_fence], result_types=[[s.type for s in sources]])

    @classmethod
    def parse(cls, parser: Parser) -> TensorBarrierOp:
        parser.parse_keyword("join")
        parser.parse_punctuation("(")
        start = parser.pos
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        sources = parser.resolve_operands(names, types, start)
        parser.parse_punctuation("=")
        parser.parse_punctuation(">")
        fence = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        fence_type = parser.parse_type()
        op = cls(sources, parser.resolve_operand(fence, fence_type))
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" join(")
        printer.print_list(self.sources, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([s.type for s in self.sources], printer.print_attribute)
        printer.print_string(") => ")
        printer.print_operand(self.signal_fence)
        printer.print_string(" : ")
        printer.print_attribute(self.signal_fence.type)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if [s.type for s in self.sources] != [r.type for r in self.results_]:
            raise VerifyException("failed to verify that all of {sources, results} have same type")


@irdl_op_definition
class TensorAliasOp(IRDLOperation):
    """Makes a tensor use caller-provided storage (a result written in place).

    ```mlir
    %1 = hal.tensor.alias wait(%fence) => %0 : tensor<?x4xf32>{%d} to %buffer : !hal.buffer
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#haltensoralias-haltensoraliasop
    """

    name = "hal.tensor.alias"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    storage = operand_def(BufferType | BufferViewType)
    wait_fence = opt_operand_def(FenceType)
    affinity = opt_prop_def(Attribute)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        source_dims: Sequence[SSAValue],
        storage: SSAValue,
        wait_fence: SSAValue | None = None,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_dims, storage, wait_fence],
            result_types=[source.type],
            properties={"affinity": affinity},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorAliasOp:
        affinity = parse_optional_affinity(parser)
        wait_fence = _parse_optional_wait_fence(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        dims = [parser.resolve_operand(d, IndexType()) for d in parse_dynamic_dims(parser)]
        parser.parse_keyword("to")
        storage = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        storage_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(source, source_type),
            dims,
            parser.resolve_operand(storage, storage_type),
            wait_fence,
            affinity,
        )
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        print_optional_affinity(printer, self.affinity)
        _print_optional_wait_fence(printer, self.wait_fence)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        print_dynamic_dims(printer, self.source_dims)
        printer.print_string(" to ")
        printer.print_operand(self.storage)
        printer.print_string(" : ")
        printer.print_attribute(self.storage.type)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if count_dynamic(self.source.type) != len(self.source_dims):
            raise VerifyException("number of dynamic dims must match the operand type")

