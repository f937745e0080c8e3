"""Symbol lookups through per-table maps answer as a scan of the table would, after changes too."""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr

from mini_iree.dialects.symbols import lookup_symbol


def _function(name: str) -> func.FuncOp:
    return func.FuncOp(name, ((), ()))


def test_lookup_follows_added_renamed_and_moved_symbols():
    a, b = _function("a"), _function("b")
    inner_f = _function("f")
    inner = ModuleOp([inner_f], sym_name=StringAttr("inner"))
    module = ModuleOp([a, b, inner])
    assert lookup_symbol(module, "a") is a
    assert lookup_symbol(b, "b") is b  # from an op inside the table
    assert lookup_symbol(module, SymbolRefAttr("inner", ["f"])) is inner_f
    assert lookup_symbol(module, SymbolRefAttr("a", ["f"])) is None  # @a is no symbol table

    # Added after the map was built.
    c = _function("c")
    module.body.block.add_op(c)
    assert lookup_symbol(module, "c") is c
    # Renamed: the old name no longer answers, the new one does.
    a.sym_name = StringAttr("renamed")
    assert lookup_symbol(module, "a") is None
    assert lookup_symbol(module, "renamed") is a
    # Moved to another table.
    b.detach()
    inner.body.block.add_op(b)
    assert lookup_symbol(module, "b") is None
    assert lookup_symbol(module, SymbolRefAttr("inner", ["b"])) is b


def test_lookup_outside_any_table_raises_as_xdsl_does():
    with pytest.raises(ValueError):
        lookup_symbol(_function("alone"), "alone")
