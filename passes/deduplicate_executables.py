"""``iree-flow-deduplicate-executables``: executables that differ only in their names become one.

Two ``flow.executable`` ops are duplicates when they are identical once the
executable, its exports and its functions are named by position (export 0,
function 0, ...): same attributes, same export ``workgroups`` regions, same
function bodies. The first of each group is kept; every later one is erased and
the ``flow.dispatch`` ops naming its exports are pointed at the kept executable's
exports, matched by position, as IREE's DeduplicateExecutables does. Executables
that reference other symbols by name are compared as written, so they only
merge when those references agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.rewriter import Rewriter

from mini_iree.compiler.ir.locations import fused_location
from mini_iree.dialects import flow

__all__ = ["DeduplicateExecutablesPass", "executable_key"]


def _exports(executable: flow.ExecutableOp) -> list[flow.ExecutableExportOp]:
    return [op for op in executable.body.block.ops if isinstance(op, flow.ExecutableExportOp)]


def executable_key(executable: flow.ExecutableOp) -> str:
    """The executable's generic text with its own symbols renamed by position: equal keys, equal code."""
    clone = executable.clone()
    clone.sym_name = StringAttr("executable")
    functions: dict[str, str] = {}
    for op in clone.walk():
        if isinstance(op, func.FuncOp):
            new_name = f"function_{len(functions)}"
            functions[op.sym_name.data] = new_name
            op.sym_name = StringAttr(new_name)
    for index, export in enumerate(_exports(clone)):
        export.sym_name = StringAttr(f"export_{index}")
        name = export.function_ref.root_reference.data
        export.function_ref = SymbolRefAttr(functions.get(name, name))
    stream = StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(clone)
    return stream.getvalue()


@dataclass(frozen=True)
class DeduplicateExecutablesPass(ModulePass):
    """Merges ``flow.executable`` ops that are identical up to their names and rewrites the dispatch sites."""

    name = "iree-flow-deduplicate-executables"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kept: dict[str, flow.ExecutableOp] = {}
        renames: dict[SymbolRefAttr, SymbolRefAttr] = {}
        for executable in [o for o in op.ops if isinstance(o, flow.ExecutableOp)]:
            key = executable_key(executable)
            original = kept.setdefault(key, executable)
            if original is executable:
                continue
            for duplicate, export in zip(_exports(executable), _exports(original)):
                old = SymbolRefAttr(executable.sym_name.data, [duplicate.sym_name.data])
                renames[old] = SymbolRefAttr(original.sym_name.data, [export.sym_name.data])
            # The one executable left now stands for the code of every dispatch it replaced.
            original.location = fused_location(original, executable)
            Rewriter.erase_op(executable)
        if not renames:
            return
        for dispatch in op.walk():
            if isinstance(dispatch, flow.DispatchOp):
                dispatch.entry_points = ArrayAttr([renames.get(r, r) for r in dispatch.entry_points.data])
