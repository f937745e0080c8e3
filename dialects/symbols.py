"""Symbol lookup in constant time, for verifiers and passes that resolve a symbol per op.

xDSL's ``SymbolTable.lookup_symbol`` scans the table's ops on every call: a
module of N dispatches, each verified against the executable it names, costs
N^2. MLIR's ``SymbolTable`` keeps a name -> op map per table; here one map per
table op is built on first use and trusted as long as what it answers still
holds (the op it names is still in that table under that name; symbol names are
unique in a valid table). A name it does not know, or an answer that no longer
holds, builds the map again, so symbols added, renamed or moved are found.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolOpInterface, SymbolTable

__all__ = ["lookup_symbol", "lookup_symbol_in_table"]

# id(table op) -> (the table op, its name -> op map); the table is kept alive with its map.
_MAPS: dict[int, tuple[Operation, dict[str, Operation]]] = {}
# Tables remembered before starting again.
_LIMIT = 1 << 12
# Op class -> whether it is a symbol table (traits belong to the class; xDSL's `has_trait` searches them).
_IS_TABLE: dict[type, bool] = {}


def _is_symbol_table(op: Operation) -> bool:
    known = _IS_TABLE.get(type(op))
    if known is None:
        known = _IS_TABLE[type(op)] = op.has_trait(SymbolTable)
    return known


def _symbol_name(op: Operation) -> str | None:
    attr = op.properties.get("sym_name") or op.attributes.get("sym_name")
    if isinstance(attr, StringAttr):
        return attr.data
    interface = op.get_trait(SymbolOpInterface)
    name = interface.get_sym_attr_name(op) if interface is not None else None
    return name.data if name is not None else None


def _build(table: Operation) -> dict[str, Operation]:
    symbols: dict[str, Operation] = {}
    for op in table.regions[0].block.ops:
        if op.get_trait(SymbolOpInterface) is not None and (name := _symbol_name(op)) is not None:
            symbols.setdefault(name, op)  # the first, as a scan finds it
    if len(_MAPS) >= _LIMIT:
        _MAPS.clear()
    _MAPS[id(table)] = (table, symbols)
    return symbols


def lookup_symbol_in_table(table: Operation, name: str) -> Operation | None:
    """The op named ``name`` directly in symbol table ``table``, or None."""
    entry = _MAPS.get(id(table))
    if entry is not None and entry[0] is table:
        found = entry[1].get(name)
        if found is not None and found.parent_op() is table and _symbol_name(found) == name:
            return found
    return _build(table).get(name)


def lookup_symbol(op: Operation, ref: str | StringAttr | SymbolRefAttr) -> Operation | None:
    """``ref`` resolved from the symbol table nearest ``op`` (``op`` itself if it is one),
    nested references in the symbol tables they name; raises ``ValueError`` as xDSL's
    ``SymbolTable.lookup_symbol`` does when ``op`` is in no symbol table."""
    anchor: Operation | None = op
    while anchor is not None and not _is_symbol_table(anchor):
        anchor = anchor.parent_op()
    if anchor is None:
        raise ValueError(f"Operation {op.name} has no SymbolTable ancestor")
    if isinstance(ref, str):
        return lookup_symbol_in_table(anchor, ref)
    if isinstance(ref, StringAttr):
        return lookup_symbol_in_table(anchor, ref.data)
    found = lookup_symbol_in_table(anchor, ref.root_reference.data)
    for nested in ref.nested_references.data:
        if found is None or not _is_symbol_table(found):
            return None
        found = lookup_symbol_in_table(found, nested.data)
    return found
