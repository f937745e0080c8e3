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
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    OptionalDef,
    VariadicDef,
)
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

# (printer, state, op, operand groups, result groups)
_Groups = Sequence[Sequence[SSAValue]]
_Step = Callable[[Printer, PrintingState, IRDLOperation, _Groups, _Groups], None]
_Present = Callable[[IRDLOperation, _Groups, _Groups], bool]


class _Layout:
    """How an op class's operands (or results) split into the groups of its definition."""

    def __init__(self, defs: Sequence[tuple[str, object]], segments: AttrSizedOperandSegments | AttrSizedResultSegments | None):
        self.variadic = [isinstance(d, VariadicDef) for _, d in defs]
        self.optional = [isinstance(d, OptionalDef) for _, d in defs]
        self.segments = segments
        self.fixed = len(defs) - sum(self.variadic)

    def understood(self) -> bool:
        return self.segments is not None or sum(self.variadic) <= 1

    def groups(self, op: Operation, values: Sequence[SSAValue]) -> list[Sequence[SSAValue]] | None:
        """The groups, or None if the op's sizes do not fit its definition."""
        if self.segments is not None:
            container = op.properties if self.segments.as_property else op.attributes
            attr = container.get(self.segments.attribute_name)
            sizes = _segment_sizes(attr)
            if sizes is None:
                return None
            if len(sizes) != len(self.variadic) or sum(sizes) != len(values):
                return None
            for size, variadic, optional in zip(sizes, self.variadic, self.optional):
                if size < 0 or (not variadic and size != 1) or (optional and size > 1):
                    return None
        else:
            extra = len(values) - self.fixed
            if extra < 0 or (extra and not any(self.variadic)):
                return None
            sizes = [extra if variadic else 1 for variadic in self.variadic]
            if any(o and s > 1 for o, s in zip(self.optional, sizes)):
                return None
        groups: list[Sequence[SSAValue]] = []
        start = 0
        for size in sizes:
            groups.append(values[start : start + size])
            start += size
        return groups


# The values of each segment-sizes attribute met, decoded once rather than once
# per op (attributes are immutable; ops share a few). Keyed by identity, which
# spares hashing the attribute; the entry keeps the attribute alive, so that no
# other object takes its id meanwhile.
_SIZES: dict[int, tuple[object, tuple[int, ...] | None]] = {}
_SIZES_LIMIT = 4096


def _segment_sizes(attr: object) -> tuple[int, ...] | None:
    known = _SIZES.get(id(attr))
    if known is not None and known[0] is attr:
        return known[1]
    get_values = getattr(attr, "get_values", None)
    sizes = tuple(get_values()) if get_values is not None else None
    if len(_SIZES) >= _SIZES_LIMIT:
        _SIZES.clear()
    _SIZES[id(attr)] = (attr, sizes)
    return sizes


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
    def __init__(self, program: FormatProgram, operands: _Layout, results: _Layout):
        self.steps = [_step(d) for d in program.stmts]
        self.operands = operands
        self.results = results
        self.program = program

    def print(self, printer: Printer, op: IRDLOperation) -> None:
        operands = self.operands.groups(op, op._operands)  # noqa: SLF001 - the operand tuple, without a view per op
        results = self.results.groups(op, op.results)
        if operands is None or results is None:
            self.program.print(printer, op)
            return
        state = PrintingState()
        for step in self.steps:
            step(printer, state, op, operands, results)


# By op class: its printer, or None where xDSL's own prints it. Classes do not
# change once defined.
_PRINTERS: dict[type[Operation], _FormatPrinter | None] = {}


def _program_of(cls: type[Operation]) -> FormatProgram | None:
    """The format program xDSL made for ``cls`` at its definition.

    ``irdl_op_definition`` keeps it only in the closure of the ``print`` it
    generates (named ``print_with_format``); a class with a ``print`` of its own
    has none.
    """
    fn = cls.__dict__.get("print")
    if fn is None or getattr(fn, "__name__", "") != "print_with_format":
        return None
    for cell in getattr(fn, "__closure__", None) or ():
        if isinstance(cell.cell_contents, FormatProgram):
            return cell.cell_contents
    return None


def _make(cls: type[Operation]) -> _FormatPrinter | None:
    if not issubclass(cls, IRDLOperation):
        return None
    program = _program_of(cls)
    if program is None:
        return None
    op_def = cls.get_irdl_definition()
    operand_segments = next((o for o in op_def.options if isinstance(o, AttrSizedOperandSegments)), None)
    result_segments = next((o for o in op_def.options if isinstance(o, AttrSizedResultSegments)), None)
    operands = _Layout(op_def.operands, operand_segments)
    results = _Layout(op_def.results, result_segments)
    if not operands.understood() or not results.understood():
        return None
    return _FormatPrinter(program, operands, results)


# By op class: how its operands split into groups, or None where not understood.
_OPERAND_LAYOUTS: dict[type[Operation], _Layout | None] = {}


def operand_groups(op: Operation) -> list[Sequence[SSAValue]] | None:
    """``op``'s operands split by its definition's operand groups, as its
    accessors (``op.inputs``, ``op.outputs``...) give them one at a time, each
    decoding ``operandSegmentSizes`` again; None if the op's definition or its
    sizes are not understood (then ask the accessors)."""
    cls = type(op)
    try:
        layout = _OPERAND_LAYOUTS[cls]
    except KeyError:
        layout = None
        if issubclass(cls, IRDLOperation):
            op_def = cls.get_irdl_definition()
            segments = next((o for o in op_def.options if isinstance(o, AttrSizedOperandSegments)), None)
            layout = _Layout(op_def.operands, segments)
            if not layout.understood():
                layout = None
        _OPERAND_LAYOUTS[cls] = layout
    if layout is None:
        return None
    return layout.groups(op, op._operands)  # noqa: SLF001 - the operand tuple, without a view per op


def format_printer(cls: type[Operation]) -> _FormatPrinter | None:
    """The fast printer of ``cls``'s declarative format, or None to call ``op.print``."""
    try:
        return _PRINTERS[cls]
    except KeyError:
        made = _PRINTERS[cls] = _make(cls)
        return made
