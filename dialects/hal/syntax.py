"""Helpers the `hal` modules share: symbol names, bit enums, the `on(affinity)` prefix."""

from __future__ import annotations

import re
from collections.abc import Mapping

from xdsl.dialects.builtin import DictionaryAttr
from xdsl.ir import Attribute
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def sanitize_symbol_name(name: str) -> str:
    """IREE's `sanitizeSymbolName`: every character outside [A-Za-z0-9_] becomes `_`."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def parse_bit_enum(parser: AttrParser, cases: Mapping[str, int], what: str) -> int:
    """Parse an MLIR bit enum: a keyword (`Indirect`) or a string (`"ReadOnly|Indirect"`)."""
    pos = parser.pos
    spelling = parser.parse_optional_identifier_or_str_literal()
    if spelling is None:
        parser.raise_error(f"expected {what}")
    value = 0
    for flag in spelling.split("|"):
        if (bit := cases.get(flag.strip())) is None:
            parser.raise_error(f"invalid {what} '{spelling}', expected one of {', '.join(cases)}", pos, parser.pos)
        value |= bit
    return value


def stringify_bit_enum(value: int, cases: Mapping[str, int]) -> str:
    """MLIR's `stringifyEnum` for bit enums: set bits joined by `|`, in declaration order."""
    if value == 0:
        return next((name for name, bit in cases.items() if bit == 0), "")
    return "|".join(name for name, bit in cases.items() if bit and value & bit == bit)


def print_bit_enum(printer: Printer, value: int, cases: Mapping[str, int]) -> None:
    printer.print_identifier_or_string_literal(stringify_bit_enum(value, cases))


def sorted_dict(entries: DictionaryAttr | Mapping[str, Attribute] | None) -> DictionaryAttr:
    """A dictionary with its keys sorted, as MLIR's `DictionaryAttr` always keeps them."""
    if isinstance(entries, DictionaryAttr):
        entries = entries.data
    return DictionaryAttr(dict(sorted((entries or {}).items())))


def parse_optional_affinity(parser: Parser) -> Attribute | None:
    """`on(#hal.device.affinity<@device>)`, the placement prefix shared by host-side ops."""
    if parser.parse_optional_keyword("on") is None:
        return None
    with parser.in_parens():
        return parser.parse_attribute()


def print_optional_affinity(printer: Printer, affinity: Attribute | None) -> None:
    if affinity is None:
        return
    printer.print_string(" on(")
    printer.print_attribute(affinity)
    printer.print_string(")")


