"""Stream async functions and their calls: `stream.async.func`, `stream.async.call`.

Part of the `stream` dialect (`dialects/stream.py` lists them). An async function
takes and returns resources (with their sizes as separate `index` arguments); a
result may be tied to an argument, updated in place (`-> %arg0`). A call passes
each resource as a byte range, as `stream.async.dispatch` does:

    stream.async.func private @extern(%arg0: !stream.resource<*>, %arg1: index) -> %arg0
    %r = stream.async.call @extern(%0[%c0 to %n for %n], %n) : (!stream.resource<*>{%n}, index) -> %0{%n}

A function may take resources of any lifetime (`*`); a call to it may pass any.

https://iree.dev/reference/mlir-dialects/Stream/#streamasyncfunc-streamasyncfuncop
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FlatSymbolRefAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.flow import (
    UNTIED_INDEX,
    tied_operand_index,
    tied_operands_attr,
    verify_tied_operands,
)
from mini_iree.dialects.stream_types import Lifetime, ResourceType
from mini_iree.dialects.symbols import lookup_symbol


@irdl_op_definition
class AsyncFuncOp(IRDLOperation):
    """A function on resources, usually a declaration: `stream.async.func private @f(%arg0: ...) -> %arg0`.

    https://iree.dev/reference/mlir-dialects/Stream/#streamasyncfunc-streamasyncfuncop
    """

    name = "stream.async.func"

    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = region_def()

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> AsyncFuncOp:
        # IREE's custom<SymbolVisibility> $sym_name custom<ShapedFunctionSignature>.
        visibility = parser.parse_optional_visibility_keyword()
        name = parser.parse_symbol_name()
        args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
        arg_types = [a.type for a in args]
        result_types: list[Attribute] = []
        tied: list[int] = []

        def parse_result() -> None:
            # `type`, or `%argN` (tied, same type) / `%argN as type`.
            start = parser.pos
            ref = parser.parse_optional_unresolved_operand()
            if ref is None:
                result_types.append(parser.parse_type())
                tied.append(UNTIED_INDEX)
                return
            names = [a.name.text for a in args]
            if ref.span.text not in names:
                parser.raise_error(f"tied operand not found for result reference {ref.span.text}", start, parser.pos)
            index = names.index(ref.span.text)
            tied.append(index)
            result_types.append(parser.parse_type() if parser.parse_optional_keyword("as") else arg_types[index])

        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_result)
                    parser.parse_punctuation(")")
            else:
                parse_result()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_optional_region(args)
        op = cls.create(
            properties={
                "sym_name": name,
                "function_type": FunctionType.from_lists(arg_types, result_types),
                **({"sym_visibility": visibility} if visibility is not None else {}),
                **(
                    {"tied_operands": tied_operands_attr(tied)}
                    if any(t != UNTIED_INDEX for t in tied)
                    else {}
                ),
            },
            regions=[region if region is not None else Region()],
        )
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        inputs = self.function_type.inputs.data
        results = self.function_type.outputs.data
        entry = self.body.blocks.first
        printer.print_string("(")
        for i, type_ in enumerate(inputs):
            if i:
                printer.print_string(", ")
            if entry is not None:
                printer.print_ssa_value(entry.args[i])
            else:
                printer.print_string(f"%arg{i}")
            printer.print_string(": ")
            printer.print_attribute(type_)
        printer.print_string(")")
        if results:
            printer.print_string(" -> ")
            if len(results) > 1:
                printer.print_string("(")
            for i, type_ in enumerate(results):
                if i:
                    printer.print_string(", ")
                tied = tied_operand_index(self.tied_operands, i)
                if tied == UNTIED_INDEX:
                    printer.print_attribute(type_)
                    continue
                if entry is not None:
                    printer.print_ssa_value(entry.args[tied])
                else:
                    printer.print_string(f"%arg{tied}")
                if type_ != inputs[tied]:
                    printer.print_string(" as ")
                    printer.print_attribute(type_)
            if len(results) > 1:
                printer.print_string(")")
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        verify_tied_operands(
            self.tied_operands, len(self.function_type.outputs.data), len(self.function_type.inputs.data)
        )


def _compatible(callee: Attribute, call: Attribute) -> bool:
    """A callee type of lifetime `*` takes a resource of any lifetime."""
    if callee == call:
        return True
    return (
        isinstance(callee, ResourceType)
        and isinstance(call, ResourceType)
        and callee.lifetime.data == Lifetime.UNKNOWN
    )


@irdl_op_definition
class AsyncCallOp(IRDLOperation):
    """Calls a `stream.async.func`, passing each resource as a byte range.

    https://iree.dev/reference/mlir-dialects/Stream/#streamasynccall-streamasynccallop
    """

    name = "stream.async.call"

    callee = prop_def(FlatSymbolRefAttr)
    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    resource_operand_offsets = var_operand_def(IndexType)
    resource_operand_ends = var_operand_def(IndexType)
    resource_operand_lengths = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(Attribute)
    res = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        operands: Sequence[SSAValue | Operation],
        operand_sizes: Sequence[SSAValue | Operation],
        offsets: Sequence[SSAValue | Operation],
        ends: Sequence[SSAValue | Operation],
        lengths: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue | Operation],
        tied_operands: Sequence[int] = (),
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[operands, operand_sizes, offsets, ends, lengths, result_sizes],
            result_types=[result_types],
            properties={
                "callee": SymbolRefAttr(callee) if isinstance(callee, str) else callee,
                "tied_operands": tied_operands_attr(tied_operands),
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCallOp:
        affinity = None
        if parser.parse_optional_keyword("on") is not None:
            parser.parse_punctuation("(")
            affinity = parser.parse_attribute()
            parser.parse_punctuation(")")
        callee = parser.parse_symbol_name()
        from mini_iree.dialects.stream import parse_ranged_operands

        ranged = parse_ranged_operands(parser)
        op = cls(
            SymbolRefAttr(callee),
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
        if self.affinity is not None:
            printer.print_string(" on(")
            printer.print_attribute(self.affinity)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_symbol_name(self.callee.string_value())
        from mini_iree.dialects.stream import print_ranged_operands

        print_ranged_operands(printer, self)

    def verify_(self) -> None:
        from mini_iree.dialects.stream import verify_ranged_operands

        verify_ranged_operands(self)
        if any(not isinstance(t, ResourceType) for t in self.result_types):
            raise VerifyException("non-resource return values are not yet supported on async calls")
        verify_tied_operands(self.tied_operands, len(self.results), len(self.resource_operands))
        self._verify_callee()

    def _verify_callee(self) -> None:
        """IREE's verifySymbolUses: the callee is a `stream.async.func` of a compatible type."""
        try:
            callee = lookup_symbol(self, self.callee)
        except ValueError:  # not inside a symbol table: nothing to check against
            return
        if not isinstance(callee, AsyncFuncOp):
            raise VerifyException(f"undefined external call: {self.callee.string_value()}")
        call_type = FunctionType.from_lists([v.type for v in self.resource_operands], list(self.result_types))
        callee_type = callee.function_type
        if len(callee_type.inputs.data) != len(call_type.inputs.data) or len(callee_type.outputs.data) != len(
            call_type.outputs.data
        ):
            raise VerifyException(f"function type mismatch; expected '{call_type}' but callee is '{callee_type}'")
        for callee_arg, call_arg in zip(callee_type.inputs.data, call_type.inputs.data):
            if not _compatible(callee_arg, call_arg):
                raise VerifyException(
                    f"function argument type mismatch; expected '{call_arg}' but callee provides '{callee_arg}'"
                )
        for callee_result, call_result in zip(callee_type.outputs.data, call_type.outputs.data):
            if not _compatible(callee_result, call_result):
                raise VerifyException(
                    f"function result type mismatch; expected '{call_result}' but callee provides '{callee_result}'"
                )
