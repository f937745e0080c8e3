"""Syntax shared by IREE's host-side dialects (flow, stream, hal, iree_tensor_ext).

IREE writes the dynamic extents of a shaped value right after its type:
``tensor<?x?xf32>{%d0, %d1}`` or ``!stream.resource<*>{%size}``. These helpers
parse and print that ``type{dims}`` form so every dialect spells it the same.
"""

from collections.abc import Sequence

from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer


def parse_dynamic_dims(parser: Parser) -> list[UnresolvedOperand]:
    """Parse an optional ``{%a, %b}`` list of index operands (empty if absent)."""
    if parser.parse_optional_punctuation("{") is None:
        return []
    if parser.parse_optional_punctuation("}") is not None:
        return []
    dims = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation("}")
    return dims


def parse_type_with_dims(parser: Parser) -> tuple[Attribute, list[SSAValue]]:
    """Parse ``type{%d...}`` and resolve the dims as ``index`` values."""
    from xdsl.dialects.builtin import IndexType

    ty = parser.parse_type()
    dims = parse_dynamic_dims(parser)
    return ty, [parser.resolve_operand(d, IndexType()) for d in dims]


def print_dynamic_dims(printer: Printer, dims: Sequence[SSAValue]) -> None:
    """Print ``{%a, %b}``; prints nothing for an empty list, as IREE does."""
    if not dims:
        return
    printer.print_string("{")
    printer.print_list(dims, printer.print_operand)
    printer.print_string("}")


def print_type_with_dims(printer: Printer, ty: Attribute, dims: Sequence[SSAValue]) -> None:
    printer.print_attribute(ty)
    print_dynamic_dims(printer, dims)


def count_dynamic(ty: Attribute) -> int:
    """Number of ``?`` extents of a shaped type (0 for unshaped types)."""
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    shape = getattr(ty, "get_shape", None)
    if shape is None:
        return 0
    return sum(1 for d in shape() if d == DYNAMIC_INDEX)


def verify_dims_match(op: IRDLOperation, ty: Attribute, dims: Sequence[SSAValue], what: str) -> None:
    """IREE's check that a value's dynamic dims are all given."""
    from xdsl.utils.exceptions import VerifyException

    expected = count_dynamic(ty)
    if expected != len(dims):
        raise VerifyException(
            f"{what} type set has {expected} dynamic dimensions but only {len(dims)} dimension values are attached"
        )
