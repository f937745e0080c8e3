"""The executable interface: `hal.interface.constant.load` and
`hal.interface.binding.subspan`, which name a slot of the pipeline layout."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, ArrayAttr, IndexType, IntegerAttr, IntegerType, ShapedType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
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

from mini_iree.dialects.hal.attrs import PipelineBindingAttr, PipelineLayoutAttr, parse_layout, print_layout
from mini_iree.dialects.hal.syntax import parse_bit_enum, print_bit_enum, stringify_bit_enum
from mini_iree.dialects.hal.types import DESCRIPTOR_FLAG_NAMES, DescriptorFlags
from mini_iree.dialects.utils import count_dynamic, parse_dynamic_dims, print_dynamic_dims

# ---------------------------------------------------------------------------
# Executable interface
# ---------------------------------------------------------------------------


class _LayoutSlotOp(IRDLOperation, ABC):
    """Interface ops that name one slot of the executable's pipeline layout:
    `layout(<...>) <slot>(N)`, then an optional `alignment(N)`."""

    SLOT: ClassVar[str]
    """The slot's keyword, and the name of the property holding its index."""

    @classmethod
    def parse_slot(cls, parser: Parser) -> tuple[PipelineLayoutAttr, int, int | None]:
        """The layout, the slot index and the alignment (None if absent)."""
        parser.parse_keyword("layout")
        with parser.in_parens():
            layout = parse_layout(parser)
        parser.parse_keyword(cls.SLOT)
        with parser.in_parens():
            index = parser.parse_integer(allow_boolean=False)
        alignment = None
        if parser.parse_optional_keyword("alignment") is not None:
            with parser.in_parens():
                alignment = parser.parse_integer(allow_boolean=False)
        return layout, index, alignment

    def print_slot(self, printer: Printer) -> None:
        printer.print_string(" layout(")
        print_layout(printer, self.layout)  # type: ignore[attr-defined]
        printer.print_string(f") {self.SLOT}({getattr(self, self.SLOT).value.data})")
        alignment = self.alignment  # type: ignore[attr-defined]
        if alignment is not None:
            printer.print_string(f" alignment({alignment.value.data})")


@irdl_op_definition
class InterfaceConstantLoadOp(_LayoutSlotOp):
    """Loads a push constant of the executable's pipeline layout.

    ```mlir
    %0 = hal.interface.constant.load layout(<constants = 2, bindings = [...]>) ordinal(0) : i32
    %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) alignment(16) values([0 : i32, 32 : i32]) : i32
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halinterfaceconstantload-halinterfaceconstantloadop
    """

    name = "hal.interface.constant.load"

    layout = prop_def(PipelineLayoutAttr)
    ordinal = prop_def(IntegerAttr[IndexType])
    alignment = opt_prop_def(IntegerAttr[IndexType])
    values = opt_prop_def(ArrayAttr)

    result = result_def(IndexType | IntegerType | AnyFloat)

    traits = traits_def(Pure())

    SLOT: ClassVar[str] = "ordinal"

    def __init__(
        self,
        layout: PipelineLayoutAttr,
        ordinal: int,
        result_type: Attribute = i32,
        *,
        alignment: int | None = None,
        values: ArrayAttr | None = None,
    ):
        super().__init__(
            properties={
                "layout": layout,
                "ordinal": IntegerAttr(ordinal, IndexType()),
                "alignment": None if alignment is None else IntegerAttr(alignment, IndexType()),
                "values": values,
            },
            result_types=[result_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> InterfaceConstantLoadOp:
        layout, ordinal, alignment = cls.parse_slot(parser)
        values = None
        if parser.parse_optional_keyword("values") is not None:
            with parser.in_parens():
                values = ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_attribute))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(layout, ordinal, parser.parse_type(), alignment=alignment, values=values)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        self.print_slot(printer)
        if self.values is not None:
            printer.print_string(" values(")
            printer.print_attribute(self.values)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.ordinal.value.data >= self.layout.constants.data:
            raise VerifyException("push constant ordinal out of bounds")


@irdl_op_definition
class InterfaceBindingSubspanOp(_LayoutSlotOp):
    """A view of (part of) one of the executable's bindings, typed as a tensor or memref.

    ```mlir
    %0 = hal.interface.binding.subspan layout(<constants = 4, bindings = [...], flags = Indirect>)
        binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect")
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
    %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1)
        : memref<?x4xf32, #hal.descriptor_type<storage_buffer>>{%d0}
    ```

    `alignment` is the byte alignment of the binding's base, `offset` a byte
    offset into it, `flags` the descriptor flags.
    https://iree.dev/reference/mlir-dialects/HAL/#halinterfacebindingsubspan-halinterfacebindingsubspanop
    """

    name = "hal.interface.binding.subspan"

    byte_offset = opt_operand_def(IndexType)
    dynamic_dims = var_operand_def(IndexType)

    layout = prop_def(PipelineLayoutAttr)
    binding = prop_def(IntegerAttr[IndexType])
    alignment = opt_prop_def(IntegerAttr[IndexType])
    descriptor_flags = opt_prop_def(IntegerAttr[IntegerType])

    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    SLOT: ClassVar[str] = "binding"

    def __init__(
        self,
        result_type: Attribute,
        layout: PipelineLayoutAttr,
        binding: int,
        byte_offset: SSAValue | None = None,
        dynamic_dims: Sequence[SSAValue] = (),
        *,
        alignment: int | None = None,
        flags: DescriptorFlags | int | None = None,
    ):
        super().__init__(
            operands=[byte_offset, dynamic_dims],
            properties={
                "layout": layout,
                "binding": IntegerAttr(binding, IndexType()),
                "alignment": None if alignment is None else IntegerAttr(alignment, IndexType()),
                "descriptor_flags": None if flags is None else IntegerAttr(int(flags), i32),
            },
            result_types=[result_type],
        )

    @property
    def flags(self) -> DescriptorFlags | None:
        """The descriptor flags, or None if not given."""
        return None if self.descriptor_flags is None else DescriptorFlags(self.descriptor_flags.value.data)

    @property
    def pipeline_binding(self) -> PipelineBindingAttr:
        """The layout entry this op binds to (the op must verify)."""
        return self.layout.bindings.data[self.binding.value.data]

    @classmethod
    def parse(cls, parser: Parser) -> InterfaceBindingSubspanOp:
        layout, binding, alignment = cls.parse_slot(parser)
        byte_offset = None
        if parser.parse_optional_keyword("offset") is not None:
            with parser.in_parens():
                byte_offset = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        flags = None
        if parser.parse_optional_keyword("flags") is not None:
            with parser.in_parens():
                flags = parse_bit_enum(parser, DESCRIPTOR_FLAG_NAMES, "descriptor flags")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        dims = [parser.resolve_operand(d, IndexType()) for d in parse_dynamic_dims(parser)]
        op = cls(result_type, layout, binding, byte_offset, dims, alignment=alignment, flags=flags)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        self.print_slot(printer)
        if self.byte_offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(self.byte_offset)
            printer.print_string(")")
        if self.descriptor_flags is not None:
            printer.print_string(" flags(")
            text = stringify_bit_enum(self.descriptor_flags.value.data, DESCRIPTOR_FLAG_NAMES)
            # IREE quotes the empty set here (`flags("None")`), though not inside a layout attribute.
            if text == "None":
                printer.print_string('"None"')
            else:
                print_bit_enum(printer, self.descriptor_flags.value.data, DESCRIPTOR_FLAG_NAMES)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)
        print_dynamic_dims(printer, self.dynamic_dims)

    def verify_(self) -> None:
        result_type = self.result.type
        if isinstance(result_type, ShapedType) and count_dynamic(result_type) != len(self.dynamic_dims):
            raise VerifyException(
                f"result type '{result_type}' has {count_dynamic(result_type)} dynamic dimensions "
                f"but {len(self.dynamic_dims)} associated dimension SSA values"
            )
        binding = self.binding.value.data
        if binding >= len(self.layout.bindings.data):
            raise VerifyException(f"binding ordinal {binding} out of bounds in layout {self.layout}")


