"""The `xla` dialect: an XLA layout used as a tensor encoding.

```mlir
tensor<8x128xf32, #xla.layout<"{1,0:T(8,128)}">>
tensor<4x8xbf16, #xla.layout<"{1,0:T(2,4)(2,1)}">>
```

The string is an XLA layout exactly as HLO text writes it after a shape
(`f32[8,128]{1,0:T(8,128)}`); it is printed in XLA's canonical form. The
attribute says how the tensor is stored, nothing more: the same pad / reshape /
transpose chain as an IREE `encoding_info` (compiler/layout), so materialization
can lower both the same way. The tensor it is attached to must have as many
dims as the layout's minor_to_major list, and the layout must pass XLA's own
validation for that shape.

There is no upstream MLIR dialect for this; the spelling is ours.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.xla_shape import (
    XlaLayout,
    XlaLayoutError,
    XlaShape,
    parse_layout,
    validate_shape,
    xla_element_type,
)


def _xla_element_type(element_type: Attribute) -> str:
    """The XLA name of the tensor's element type, `f32` if XLA has none.

    Only used to name the shape in messages and sizes; validation does not
    depend on it.
    """
    return xla_element_type(str(element_type)) or "f32"


@irdl_attr_definition(init=False)
class LayoutAttr(ParametrizedAttribute):
    """`#xla.layout<"{1,0:T(8,128)}">`: a tensor stored in an XLA tiled layout."""

    name = "xla.layout"

    layout: StringAttr

    def __init__(self, layout: str | StringAttr):
        text = layout.data if isinstance(layout, StringAttr) else layout
        super().__init__(StringAttr(text))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            text = parser.parse_str_literal("XLA layout string")
            try:
                layout = parse_layout(text)
            except XlaLayoutError as err:
                parser.raise_error(f"invalid XLA layout '{text}': {err}", pos, parser.pos)
        return [StringAttr(str(layout))]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.layout.data)

    def verify(self) -> None:
        try:
            parse_layout(self.layout.data)
        except XlaLayoutError as err:
            raise VerifyException(f"invalid XLA layout '{self.layout.data}': {err}") from None

    def get_layout(self) -> XlaLayout:
        return parse_layout(self.layout.data)

    def xla_shape(self, shape: Sequence[int], element_type: Attribute) -> XlaShape:
        """The HLO shape this encoding gives `tensor<shape x element_type>` (static dims)."""
        return XlaShape(_xla_element_type(element_type), tuple(shape), self.get_layout())

    def verify_encoding(self, shape: Sequence[int], element_type: Attribute) -> None:
        """Check the layout against the tensor it is attached to (rank, XLA validation)."""
        layout = self.get_layout()
        if len(layout.minor_to_major) != len(shape):
            raise VerifyException(
                f"XLA layout {self.layout.data} has {len(layout.minor_to_major)} dimensions in minor_to_major "
                f"but the tensor has rank {len(shape)}"
            )
        # Dynamic sizes do not affect validity; check with 1 in their place.
        static = tuple(d if d >= 0 else 1 for d in shape)
        try:
            validate_shape(XlaShape(_xla_element_type(element_type), static, layout))
        except XlaLayoutError as err:
            raise VerifyException(str(err).removeprefix("INVALID_ARGUMENT: ")) from None


XLA = Dialect("xla", [], [LayoutAttr])
