"""mlir-opt's printing flags on top of the MLIR-style printer.

``--mlir-print-debuginfo`` prints each op's ``loc(...)``;
``--mlir-elide-elementsattrs-if-larger=N`` prints an elements attribute of more
than N elements (a splat is never elided, as in MLIR) as
``dense_resource<__elided__>``, which parses back as IREE's elided constants do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from io import StringIO
from math import prod

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Operation

from mini_iree.compiler.ir.dense_elements import is_splat
from mini_iree.compiler.ir.printer import MLIRPrinter


@dataclass(eq=False, repr=False)
class OptionsPrinter(MLIRPrinter):
    elide_elements_larger_than: int | None = field(default=None)

    def _print_attribute_inline(self, attribute: Attribute) -> None:
        if self._elides(attribute):
            self.print_string("dense_resource<__elided__> : ")
            self.print_attribute(attribute.get_type())  # type: ignore[attr-defined]
            return
        super()._print_attribute_inline(attribute)

    def _elides(self, attribute: Attribute) -> bool:
        if self.elide_elements_larger_than is None or not isinstance(attribute, DenseIntOrFPElementsAttr):
            return False
        if prod(attribute.get_shape()) <= self.elide_elements_larger_than:
            return False
        return not is_splat(attribute)


def print_module_text(
    module: Operation,
    *,
    generic: bool = False,
    local_scope: bool = False,
    debuginfo: bool = False,
    elide_elements_larger_than: int | None = None,
) -> str:
    """The text ``mini-iree-opt`` writes for ``module`` under the printing flags."""
    stream = StringIO()
    printer = OptionsPrinter(
        stream=stream,
        print_generic_format=generic,
        local_scope=local_scope,
        print_debuginfo=debuginfo,
        elide_elements_larger_than=elide_elements_larger_than,
    )
    printer.print_module(module)
    return stream.getvalue()
