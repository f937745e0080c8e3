"""Small helpers on types and integer lists, and the syntax the ops share (`ins(...) outs(...)`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, MemRefType, ShapedType, TensorType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.parser import Parser
from xdsl.printer import Printer

# ---------------------------------------------------------------------------------------
# Small helpers on types and integer lists
# ---------------------------------------------------------------------------------------


def element_type_or_self(ty: Attribute) -> Attribute:
    """The element type of a tensor or memref; any other type stands for itself."""
    if isinstance(ty, TensorType | MemRefType):
        return cast(ShapedType, ty).get_element_type()
    return ty


def shape_of(ty: Attribute) -> tuple[int, ...]:
    """The static shape of a shaped type; scalars are rank 0."""
    if isinstance(ty, ShapedType):
        return tuple(ty.get_shape())
    return ()


def quoted_type(ty: Attribute) -> str:
    """A type as MLIR's diagnostics print it: between single quotes."""
    return f"'{ty}'"


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


def constant_int(value: int | SSAValue) -> int | None:
    """The integer an index is known to hold: a static entry, or an `arith.constant`.

    Mirrors MLIR's `getConstantIntValue` on an `OpFoldResult`.
    """
    if isinstance(value, int):
        return value
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def is_permutation(values: Sequence[int]) -> bool:
    """True when `values` holds each of `0..len(values)-1` exactly once."""
    return sorted(values) == list(range(len(values)))


def invert_permutation(perm: Sequence[int]) -> list[int]:
    inverse = [0] * len(perm)
    for position, value in enumerate(perm):
        inverse[value] = position
    return inverse


def apply_permutation(values: Sequence[int], perm: Sequence[int]) -> list[int]:
    """`result[i] = values[perm[i]]`, MLIR's `applyPermutationToVector`."""
    return [values[p] for p in perm]


def is_strictly_increasing(values: Sequence[int]) -> bool:
    return all(a < b for a, b in zip(values, values[1:]))


def is_function_of_dim(expr: AffineExpr, position: int) -> bool:
    return position in expr.used_dims()


# ---------------------------------------------------------------------------------------
# Shared syntax: `ins(%a, %b : T, U) outs(%c : V) -> V`
# ---------------------------------------------------------------------------------------


def _parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """Parse an optional `keyword(%a, %b : T, U)` group into resolved operands."""
    if parser.parse_optional_keyword(keyword) is None:
        return []
    parser.parse_punctuation("(")
    pos = parser.pos
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"{len(names)} operands present, but expected {len(types)}", pos)
    return [parser.resolve_operand(name, ty) for name, ty in zip(names, types, strict=True)]


def parse_ins_outs(parser: Parser) -> tuple[list[SSAValue], list[SSAValue]]:
    """Parse MLIR's optional `ins(...)` and `outs(...)` groups of structured ops."""
    inputs = _parse_operand_group(parser, "ins")
    outputs = _parse_operand_group(parser, "outs")
    return inputs, outputs


def print_ins_outs(printer: Printer, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> None:
    """Print ` ins(%a, %b : T, U) outs(%c : V)`, leaving out empty groups like MLIR."""
    for keyword, values in (("ins", inputs), ("outs", outputs)):
        if not values:
            continue
        printer.print_string(f" {keyword}(")
        printer.print_list(values, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)
        printer.print_string(")")


def parse_optional_arrow_type_list(parser: Parser) -> list[Attribute]:
    """Parse MLIR's optional `-> T` or `-> (T, U)` result list."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    if types is not None:
        return types
    return [parser.parse_type()]


def print_optional_arrow_type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def print_dense_i64_array(printer: Printer, name: str, values: Sequence[int]) -> None:
    # MLIR's printDenseI64ArrayAttr leaves a space after the closing bracket, so a
    # `linalg.transpose` line ends in `permutation = [1, 0] `.
    printer.print_string(f" {name} = [{', '.join(str(v) for v in values)}] ")


def parse_dense_i64_array(parser: Parser, name: str) -> list[int]:
    parser.parse_keyword(name)
    parser.parse_punctuation("=")
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


