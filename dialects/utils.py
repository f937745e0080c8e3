"""Syntax shared by IREE's host-side dialects (flow, stream, hal, iree_tensor_ext).

IREE writes the dynamic extents of a shaped value right after its type:
``tensor<?x?xf32>{%d0, %d1}`` or ``!stream.resource<*>{%size}``. These helpers
parse and print that ``type{dims}`` form so every dialect spells it the same.
"""

from collections.abc import Sequence

from xdsl.ir import Attribute, SSAValue
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


def print_dynamic_dims(printer: Printer, dims: Sequence[SSAValue]) -> None:
    """Print ``{%a, %b}``; prints nothing for an empty list, as IREE does."""
    if not dims:
        return
    printer.print_string("{")
    printer.print_list(dims, printer.print_operand)
    printer.print_string("}")


def count_dynamic(ty: Attribute) -> int:
    """Number of ``?`` extents of a shaped type (0 for unshaped types)."""
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    shape = getattr(ty, "get_shape", None)
    if shape is None:
        return 0
    return sum(1 for d in shape() if d == DYNAMIC_INDEX)


def verify_op_dynamic_dims(types: Sequence[Attribute], dims: Sequence[SSAValue], set_name: str = "value") -> None:
    """IREE's ``verifyOpDynamicDims``: one ``index`` operand per ``?`` of ``types``.

    flow and iree_tensor_ext call the checked list a "value set", stream a
    "type set", iree_encoding's unset_encoding a "result type set"; the rest of
    the message is the same everywhere.
    """
    from xdsl.utils.exceptions import VerifyException

    required = sum(count_dynamic(t) for t in types)
    if len(dims) != required:
        raise VerifyException(
            f"{set_name} set has {required} dynamic dimensions but only {len(dims)} dimension values are attached"
        )


def raise_missing_struct_key(parser) -> None:
    """MLIR's error for a struct entry that does not start with a key.

    MLIR reports two errors at the same place: the keyword its struct parser
    failed to read, then the struct's own error. Where the parser can raise
    several errors at once (mini-iree-opt's ``raise_errors_at``), both are
    raised; elsewhere the struct's error.
    """
    raise_errors_at = getattr(parser, "raise_errors_at", None)
    if raise_errors_at is not None:
        raise_errors_at(parser.pos, "expected valid keyword", "expected a parameter name in struct")
    parser.raise_error("expected a parameter name in struct")


# Builders of ops that passes create by the thousand may skip the IRDL builder's
# argument processing (about 50 us an op) by calling ``Operation.__init__``
# with exactly the operands, result types and properties it would have built.
# These two helpers are what such a builder needs.


def plain_ssa_values(value: object, *value_lists: object) -> bool:
    """``value`` is an SSA value and each list a list or tuple of SSA values.

    The IRDL builder also takes ops for their single result; a builder given
    one falls back to it.
    """
    return isinstance(value, SSAValue) and all(
        isinstance(values, (list, tuple)) and all(isinstance(v, SSAValue) for v in values)
        for values in value_lists
    )


def operand_segment_sizes(*sizes: int) -> Attribute:
    """The ``operandSegmentSizes`` property the IRDL builder makes for these group sizes.

    Attributes are immutable, so each combination is built once.
    """
    known = _SEGMENT_SIZES.get(sizes)
    if known is None:
        from xdsl.dialects.builtin import DenseArrayBase, i32

        known = _SEGMENT_SIZES[sizes] = DenseArrayBase.from_list(i32, sizes)
    return known


_SEGMENT_SIZES: dict[tuple[int, ...], Attribute] = {}
