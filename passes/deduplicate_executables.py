"""``iree-flow-deduplicate-executables``: executables with the same structure become one.

Two ``flow.executable`` ops are duplicates when their contents are equivalent as
MLIR's ``OperationEquivalence`` sees them, which is what IREE's
DeduplicateExecutables compares: the same ops in the same order with the same
attributes, result types, block argument types and regions, and operands that
refer to the same positions. SSA names, locations and the names of the
executable and of the symbols it defines (its exports and functions) are not
part of the comparison; a reference to one of those symbols is compared by the
position of the symbol it names. References to anything else are compared as
written.

Each executable gets one structural key (a nested tuple) in one walk, and
duplicates are found by hashing the keys, so the pass is linear in the size of
the module. The first executable of each group is kept and takes the fused
location of the group; the others are erased and the ``flow.dispatch`` ops naming
their exports are pointed at the kept executable's exports, matched by position,
as IREE does.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolOpInterface

from mini_iree.compiler.ir.locations import fused_location
from mini_iree.dialects import flow

__all__ = ["DeduplicateExecutablesPass", "executable_key"]

_SYM_NAME = "sym_name"


def _exports(executable: flow.ExecutableOp) -> list[flow.ExecutableExportOp]:
    return [op for op in executable.body.block.ops if isinstance(op, flow.ExecutableExportOp)]


def _symbol_name(op: Operation) -> str | None:
    """The name ``op`` defines, if it is a symbol."""
    if op.get_trait(SymbolOpInterface) is None:
        return None
    name = op.properties.get(_SYM_NAME) or op.attributes.get(_SYM_NAME)
    return name.data if isinstance(name, StringAttr) else None


class _StructuralKey:
    """Builds the key of one executable: its ops with values, blocks and own symbols numbered by position."""

    def __init__(self, executable: Operation):
        self.values: dict[SSAValue, int] = {}
        self.blocks: dict[Block, int] = {}
        self.symbols: dict[str, int] = {}
        # Number everything first: a use may come before its definition in walk
        # order (a branch to a later block, a graph region).
        for op in executable.walk():
            if op is not executable and (name := _symbol_name(op)) is not None:
                self.symbols.setdefault(name, len(self.symbols))
            for region in op.regions:
                for block in region.blocks:
                    self.blocks[block] = len(self.blocks)
                    for arg in block.args:
                        self.values[arg] = len(self.values)
            for result in op.results:
                self.values[result] = len(self.values)

    def attribute(self, attr: Attribute) -> Hashable:
        """``attr``, with references to the executable's own symbols replaced by their positions."""
        if isinstance(attr, SymbolRefAttr) and attr.root_reference.data in self.symbols:
            return ("symbol", self.symbols[attr.root_reference.data], attr.nested_references)
        if isinstance(attr, ArrayAttr) and any(isinstance(a, SymbolRefAttr | ArrayAttr | DictionaryAttr) for a in attr):
            return ("array", *(self.attribute(a) for a in attr))
        if isinstance(attr, DictionaryAttr):
            return ("dict", *((k, self.attribute(v)) for k, v in sorted(attr.data.items())))
        return attr

    def attributes(self, op: Operation, own_symbol: bool) -> tuple[Hashable, ...]:
        entries: list[Hashable] = []
        for kind, table in (("prop", op.properties), ("attr", op.attributes)):
            for key in sorted(table):
                if own_symbol and key == _SYM_NAME:
                    continue
                entries.append((kind, key, self.attribute(table[key])))
        return tuple(entries)

    def block(self, block: Block) -> Hashable:
        return tuple(arg.type for arg in block.args), tuple(self.op(inner) for inner in block.ops)

    def op(self, op: Operation, top: bool = False) -> Hashable:
        # The name an op defines is not compared (the executable's own, or a
        # symbol inside it, which references see by position).
        own_symbol = top or _symbol_name(op) is not None
        return (
            op.name,
            self.attributes(op, own_symbol),
            tuple(self.values.get(operand, ("outside", operand)) for operand in op.operands),
            tuple(result.type for result in op.results),
            tuple(self.blocks[successor] for successor in op.successors),
            tuple(tuple(self.block(block) for block in region.blocks) for region in op.regions),
        )


def executable_key(executable: flow.ExecutableOp) -> Hashable:
    """The structure of ``executable``, names and locations left out: equal keys, equivalent executables."""
    return _StructuralKey(executable).op(executable, top=True)


@dataclass(frozen=True)
class DeduplicateExecutablesPass(ModulePass):
    """Merges ``flow.executable`` ops with the same structure and rewrites the dispatch sites.

    Executables are equivalent when their ops, attributes, types, regions and
    operand structure agree; SSA names, locations and the names of the
    executables and of the symbols they define are ignored.
    """

    name = "iree-flow-deduplicate-executables"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        groups: dict[Hashable, list[flow.ExecutableOp]] = {}
        for executable in [o for o in op.ops if isinstance(o, flow.ExecutableOp)]:
            groups.setdefault(executable_key(executable), []).append(executable)
        renames: dict[SymbolRefAttr, SymbolRefAttr] = {}
        for original, *duplicates in groups.values():
            if not duplicates:
                continue
            # The one executable left now stands for the code of every dispatch it replaced.
            original.location = fused_location(original, duplicates)
            for executable in duplicates:
                for duplicate, export in zip(_exports(executable), _exports(original), strict=True):
                    old = SymbolRefAttr(executable.sym_name.data, [duplicate.sym_name.data])
                    renames[old] = SymbolRefAttr(original.sym_name.data, [export.sym_name.data])
                Rewriter.erase_op(executable)
        if not renames:
            return
        for dispatch in op.walk():
            if isinstance(dispatch, flow.DispatchOp):
                dispatch.entry_points = ArrayAttr([renames.get(r, r) for r in dispatch.entry_points.data])
