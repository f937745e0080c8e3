"""`linalg.fill`, whose hidden body is built once per signature."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.ir import Region, SSAValue
from xdsl.irdl import lazy_traits_def
from xdsl.printer import Printer

from mini_iree.dialects.linalg.bodies import create_named_op, hidden_body
from mini_iree.dialects.linalg.syntax import print_ins_outs
from mini_iree.dialects.support import operand_groups
from mini_iree.dialects.traits import VerifierReadsOnlyItself


class FillOp(xdsl_linalg.FillOp):
    """xDSL's ``linalg.fill``, whose hidden body (``linalg.yield %in``) is copied
    from one built per signature (``hidden_body``)."""

    # (not an IRDL definition of its own: its traits are xDSL's class's, and one more)
    traits = lazy_traits_def(lambda: (*xdsl_linalg.FillOp.traits, VerifierReadsOnlyItself()))

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        key = (cls, *(v.type for v in inputs), None, *(v.type for v in outputs))  # type: ignore[misc]
        return hidden_body(key, lambda: super(FillOp, cls).get_hidden_region(inputs, outputs))

    @classmethod
    def build(cls, *, operands=None, result_types=None, attributes=None, properties=None, successors=None, regions=None):  # type: ignore[override]
        # xDSL's `NamedOperation.parse` builds the op with exactly these
        # arguments: `(ins, outs)`, `(result types,)`, one fresh body, no None
        # values. Anything else takes the IRDL constructor.
        if (
            successors is None
            and operands is not None
            and len(operands) == 2
            and result_types is not None
            and len(result_types) == 1
            and regions is not None
            and len(regions) == 1
            and isinstance(regions[0], Region)
            and regions[0].parent is None
        ):
            inputs, outputs = operands
            types = result_types[0]
            if (
                isinstance(inputs, Sequence)
                and isinstance(outputs, Sequence)
                and isinstance(types, Sequence)
                and all(isinstance(v, SSAValue) for v in (*inputs, *outputs))
                and None not in (properties or {}).values()
                and None not in (attributes or {}).values()
            ):
                return create_named_op(cls, inputs, outputs, types, properties or {}, attributes or {}, regions[0])
        return super().build(
            operands=operands,
            result_types=result_types,
            attributes=attributes,
            properties=properties,
            successors=successors,
            regions=regions,
        )

    def print(self, printer: Printer) -> None:
        # xDSL's `NamedOperation.print`, reading `ins` and `outs` once: each of
        # its six reads decodes the segment sizes again.
        inputs, outputs = operand_groups(self)
        extra_attrs = {**self.attributes, **self.properties}
        for name in (
            "indexing_maps",
            "linalg.memoized_indexing_maps",
            "iterator_types",
            "doc",
            "library_call",
            "operandSegmentSizes",
        ):
            extra_attrs.pop(name, None)
        if extra_attrs and self.PRINT_ATTRS_IN_FRONT:
            printer.print_op_attributes(extra_attrs)
        print_ins_outs(printer, inputs, outputs)
        if extra_attrs and not self.PRINT_ATTRS_IN_FRONT:
            printer.print_string(" attrs = ")
            printer.print_op_attributes(extra_attrs)
        results = self.results
        if results:
            printer.print_string(" -> ")
            if len(results) == 1:
                printer.print_attribute(results[0].type)
            else:
                with printer.in_parens():
                    printer.print_list(results, lambda res: printer.print_attribute(res.type))

