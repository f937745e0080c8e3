"""Buffer views: `hal.element_type`, `hal.encoding_type`, `hal.buffer_view.dim` and
`hal.buffer_view.assert`."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    Float128Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i32,
)
from xdsl.ir import Attribute, SSAValue, TypeAttribute
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

from mini_iree.dialects.hal.types import BufferViewType

# ---------------------------------------------------------------------------
# Buffer views
# ---------------------------------------------------------------------------

# The float types the HAL ABI can describe (IREE's `ElementTypeOp::getTypeValue`).
_ABI_FLOAT_TYPES = (
    Float16Type,
    Float32Type,
    Float64Type,
    Float128Type,
    BFloat16Type,
    Float8E5M2Type,
    Float8E4M3FNType,
    Float8E5M2FNUZType,
    Float8E4M3FNUZType,
    Float8E8M0FNUType,
)


def is_abi_element_type(type: Attribute) -> bool:
    """Whether a type has an `iree_hal_element_type_t` (integers, most floats, complex)."""
    if isinstance(type, ComplexType):
        return isinstance(type.element_type, IntegerType | AnyFloat)
    return isinstance(type, (IntegerType, *_ABI_FLOAT_TYPES))


@irdl_op_definition
class ElementTypeOp(IRDLOperation):
    """The runtime `iree_hal_element_type_t` value of an element type.

    ```mlir
    %element_type_f32 = hal.element_type<f32> : i32
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halelement_type-halelementtypeop
    """

    name = "hal.element_type"

    element_type = prop_def(TypeAttribute, prop_name="type")
    result = result_def(eq(i32))

    traits = traits_def(Pure())

    def __init__(self, element_type: Attribute):
        super().__init__(properties={"type": element_type}, result_types=[i32])

    def asm_result_names(self) -> list[str | None]:
        """IREE names the result after the type (`%element_type_f32`)."""
        return [f"element_type_{self.element_type}"]

    @classmethod
    def parse(cls, parser: Parser) -> ElementTypeOp:
        with parser.in_angle_brackets():
            element_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        if parser.parse_type() != i32:
            parser.raise_error("expected i32", pos, parser.pos)
        op = cls(element_type)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.element_type)
        printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not is_abi_element_type(self.element_type):
            raise VerifyException("unsupported element type")


@irdl_op_definition
class EncodingTypeOp(IRDLOperation):
    """The runtime `iree_hal_encoding_type_t` value of a tensor encoding.

    Only the default dense row-major layout (no encoding attribute) is supported.

    ```mlir
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halencoding_type-halencodingtypeop
    """

    name = "hal.encoding_type"

    encoding = opt_prop_def(Attribute)
    result = result_def(eq(i32))

    traits = traits_def(Pure())

    def __init__(self, encoding: Attribute | None = None):
        super().__init__(properties={"encoding": encoding}, result_types=[i32])

    def asm_result_names(self) -> list[str | None]:
        return ["dense_row_major" if self.encoding is None else None]

    @classmethod
    def parse(cls, parser: Parser) -> EncodingTypeOp:
        with parser.in_angle_brackets():
            encoding = None
            if parser.parse_optional_keyword("dense_row_major") is None:
                encoding = parser.parse_attribute()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        if parser.parse_type() != i32:
            parser.raise_error("expected i32", pos, parser.pos)
        op = cls(encoding)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        if self.encoding is None:
            printer.print_string("dense_row_major")
        else:
            printer.print_attribute(self.encoding)
        printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.encoding is not None:
            raise VerifyException("unsupported encoding type")


@irdl_op_definition
class BufferViewDimOp(IRDLOperation):
    """The size of one dimension of a buffer view.

    ```mlir
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halbuffer_viewdim-halbufferviewdimop
    """

    name = "hal.buffer_view.dim"

    buffer_view = operand_def(BufferViewType)
    index = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `` `[` $index `]` `:` type($result) attr-dict-with-keyword"
    )

    def __init__(self, buffer_view: SSAValue, index: int):
        super().__init__(
            operands=[buffer_view],
            properties={"index": IntegerAttr(index, IndexType())},
            result_types=[IndexType()],
        )


@irdl_op_definition
class BufferViewAssertOp(IRDLOperation):
    """Aborts unless a buffer view has the given shape, element type and encoding.

    ```mlir
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0")
        shape([%0, %1]) type(%element_type_f32) encoding(%dense_row_major)
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halbuffer_viewassert-halbufferviewassertop
    """

    name = "hal.buffer_view.assert"

    buffer_view = operand_def(BufferViewType)
    element_type = operand_def(eq(i32))
    encoding_type = operand_def(eq(i32))
    shape = var_operand_def(IndexType)
    message = prop_def(StringAttr)

    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `message` `(` $message `)` `shape` `(` `[` $shape `]` `)` "
        "`type` `(` $element_type `)` `encoding` `(` $encoding_type `)` attr-dict-with-keyword"
    )

    def __init__(
        self,
        buffer_view: SSAValue,
        message: str,
        shape: Sequence[SSAValue],
        element_type: SSAValue,
        encoding_type: SSAValue,
    ):
        super().__init__(
            operands=[buffer_view, element_type, encoding_type, shape],
            properties={"message": StringAttr(message)},
        )


