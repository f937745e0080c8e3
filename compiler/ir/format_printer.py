"""Ops of a declarative assembly format, printed without re-reading their operands.

xDSL prints an op of an ``assembly_format`` by running the format's directives,
and every directive naming an operand or result (``$source``, ``type($result)``,
the anchor of ``(`{` $dims^ `}`)?``) asks the op for it by name. For an op with
``operandSegmentSizes`` each such question decodes the segment sizes again
(several per op); on a module of thousands of ``flow.tensor.encode`` ops this
was about a fifth of printing.

``format_printer`` turns an op class's format program into steps that split the
op's operands and results into their groups once per op, then print exactly as
xDSL's directives do: the directives naming operands and results are re-done here
on the groups (same calls on the printer, same spacing state); every other
directive (punctuation, keywords, attributes, regions...) is xDSL's own,
called as xDSL calls it, and so is ``attr-dict`` unless the dictionary it would
print is empty. A class whose format or operand layout is
not understood here (``SameVariadicOperandSize``, the ``operands`` directive...)
keeps xDSL's printer, and so does an op whose segment sizes do not add up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttrDictDirective,
    FormatDirective,
    FormatProgram,
    OperandVariable,
    OptionalGroupDirective,
    OptionalOperandVariable,
    OptionalResultVariable,
    PrintingState,
    ResultVariable,
    TypeDirective,
    VariadicOperandVariable,
    VariadicResultVariable,
)
from xdsl.printer import Printer

from mini_iree.compiler.ir.xdsl_internals import generated_format_program, operand_tuple
from mini_iree.dialects.support import GroupLayout, operand_groups, operand_layout, result_layout

__all__ = ["build_format_printer", "format_printer", "operand_groups"]

# (printer, state, op, operand groups, result groups)
_Groups = Sequence[Sequence[SSAValue]]
_Step = Callable[[Printer, PrintingState, IRDLOperation, _Groups, _Groups], None]
_Present = Callable[[IRDLOperation, _Groups, _Groups], bool]


def _types_getter(inner: object) -> Callable[[_Groups, _Groups], Sequence] | None:
    """``get_types`` of an operand or result variable, on the groups."""
    if isinstance(inner, OperandVariable | ResultVariable):
        index = inner.index
        use_results = isinstance(inner, ResultVariable)
        return lambda operands, results: ((results if use_results else operands)[index][0].type,)
    if isinstance(inner, VariadicOperandVariable | OptionalOperandVariable | VariadicResultVariable | OptionalResultVariable):
        index = inner.index
        use_results = isinstance(inner, VariadicResultVariable | OptionalResultVariable)
        return lambda operands, results: tuple(v.type for v in (results if use_results else operands)[index])
    return None


def _presence(anchor: object) -> _Present:
    """``is_present`` of an optional group's anchor."""
    if isinstance(anchor, TypeDirective):
        anchor = anchor.inner
    if isinstance(anchor, VariadicOperandVariable | OptionalOperandVariable):
        index = anchor.index
        return lambda op, operands, results: bool(operands[index])
    if isinstance(anchor, VariadicResultVariable | OptionalResultVariable):
        index = anchor.index
        return lambda op, operands, results: bool(results[index])
    return lambda op, operands, results: anchor.is_present(op)  # type: ignore[attr-defined]


def _step(directive: FormatDirective) -> _Step:
    if isinstance(directive, OperandVariable):
        index = directive.index

        def operand(printer, state, op, operands, results):
            state.print_whitespace(printer)
            printer.print_ssa_value(operands[index][0])

        return operand
    if isinstance(directive, VariadicOperandVariable | OptionalOperandVariable):
        index = directive.index
        variadic = isinstance(directive, VariadicOperandVariable)

        def group(printer, state, op, operands, results):
            values = operands[index]
            if not values:
                return
            state.print_whitespace(printer)
            if variadic:
                printer.print_list(values, printer.print_ssa_value)
            else:
                printer.print_ssa_value(values[0])

        return group
    if isinstance(directive, TypeDirective) and (get_types := _types_getter(directive.inner)) is not None:

        def types(printer, state, op, operands, results):
            found = get_types(operands, results)
            if not found:
                return
            state.print_whitespace(printer)
            printer.print_list(found, printer.print_attribute)

        return types
    if isinstance(directive, AttrDictDirective):
        expected = directive.expected_properties

        def attr_dict(printer, state, op, operands, results):
            # xDSL's prints nothing (and leaves the spacing state) for an empty
            # dictionary, the usual case; it builds several dicts to find out.
            if not op.attributes and (not expected or op.properties.keys().isdisjoint(expected)):
                return
            directive.print(printer, state, op)

        return attr_dict
    if isinstance(directive, OptionalGroupDirective):
        present = _presence(directive.anchor)
        then_steps = [_step(d) for d in (*directive.then_whitespace, directive.then_first, *directive.then_elements)]
        else_steps = [_step(d) for d in directive.else_elements]

        def optional_group(printer, state, op, operands, results):
            for step in then_steps if present(op, operands, results) else else_steps:
                step(printer, state, op, operands, results)

        return optional_group

    def xdsl_directive(printer, state, op, operands, results):
        directive.print(printer, state, op)

    return xdsl_directive


class _FormatPrinter:
    def __init__(self, program: FormatProgram, operands: GroupLayout, results: GroupLayout):
        self.steps = [_step(d) for d in program.stmts]
        self.operands = operands
        self.results = results
        self.program = program

    def print(self, printer: Printer, op: IRDLOperation) -> None:
        operands = self.operands.groups(op, operand_tuple(op))
        results = self.results.groups(op, op.results)
        if operands is None or results is None:
            self.program.print(printer, op)
            return
        state = PrintingState()
        for step in self.steps:
            step(printer, state, op, operands, results)


def build_format_printer(cls: type[Operation]) -> _FormatPrinter | None:
    """A fast printer of ``cls``'s declarative format, or None where xDSL's prints it.

    Built once per class by ``printer.py``'s table (see ``format_printer``).
    """
    if not issubclass(cls, IRDLOperation):
        return None
    program = generated_format_program(cls)
    if program is None:
        return None
    operands = operand_layout(cls)
    results = result_layout(cls)
    if operands is None or results is None:
        return None
    return _FormatPrinter(program, operands, results)


def format_printer(cls: type[Operation]) -> _FormatPrinter | None:
    """The fast printer of ``cls``'s declarative format, or None to call ``op.print``
    (the printer's table of them)."""
    from mini_iree.compiler.ir.printer import format_printer_of

    return format_printer_of(cls)
