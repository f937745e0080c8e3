"""``iree-flow-outline-dispatch-regions``: each ``flow.dispatch.workgroups`` becomes an executable and a dispatch.

The body of a ``flow.dispatch.workgroups`` is already isolated from above; this
pass moves it into a ``func.func`` of its own inside a new
``flow.executable private @<function>_dispatch_<N>`` (``_initializer_<K>`` for
the dispatches of the K-th ``util.initializer``), exports it with the op's
``count`` region as the export's ``workgroups`` region, and replaces the op with
``flow.dispatch @executable::@export[workload](operands)``. Each executable is
placed right before the function that dispatches it. Nothing else is touched:
``flow.dispatch.region`` ops (not yet isolated) are left where they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.functions import FUNCTION_LIKE, functions
from mini_iree.compiler.ir.locations import give_location
from mini_iree.dialects import flow, util

__all__ = ["OutlineDispatchRegionsPass", "outline_dispatch_workgroups"]


def _unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name_0``, ``name_1``... if a symbol of the module already has it."""
    candidate, suffix = name, 0
    while candidate in taken:
        candidate = f"{name}_{suffix}"
        suffix += 1
    taken.add(candidate)
    return candidate


def _workgroup_function(name: str, body: Region) -> func.FuncOp:
    """A dispatch body (already detached) as a free function returning nothing."""
    function = func.FuncOp(name, FunctionType.from_lists(body.block.arg_types, []), body)
    for block in body.blocks:
        terminator = block.last_op
        if isinstance(terminator, flow.ReturnOp):
            new_terminator = func.ReturnOp(*terminator.operands)
            new_terminator.location = terminator.location
            Rewriter.replace_op(terminator, new_terminator)
    return function


def outline_dispatch_workgroups(
    name: str, workgroups: flow.DispatchWorkgroupsOp, parent_function: Operation
) -> flow.DispatchOp:
    """Outline ``workgroups`` into ``flow.executable @name`` before ``parent_function``; return the dispatch."""
    body, count = workgroups.workgroup_body, workgroups.workgroup_count
    workgroups.detach_region(body)
    workgroups.detach_region(count)
    function = _workgroup_function(name, body)
    export = flow.ExecutableExportOp(name, name, count, "public")
    # Dialect attributes (placement hints such as `stream.affinity`) travel to both.
    export.attributes |= workgroups.attributes
    executable = flow.ExecutableOp(name, Region(Block([export, ModuleOp([function])])), "private")
    # As in IREE, the executable, its export and function take the location of
    # the dispatch they outline; the body's ops keep their own.
    give_location(executable, workgroups.location)
    Rewriter.insert_op(executable, InsertPoint.before(parent_function))

    dispatch = flow.DispatchOp(
        SymbolRefAttr(name, [name]),
        workgroups.workload,
        workgroups.arguments,
        workgroups.argument_dims,
        workgroups.result_types,
        workgroups.result_dims,
        [flow.tied_operand_index(workgroups.tied_operands, i) for i in range(len(workgroups.results))],
    )
    dispatch.attributes |= workgroups.attributes
    dispatch.location = workgroups.location
    Rewriter.replace_op(workgroups, dispatch)
    return dispatch


@dataclass(frozen=True)
class OutlineDispatchRegionsPass(ModulePass):
    """Outlines every ``flow.dispatch.workgroups`` into a ``flow.executable`` called by ``flow.dispatch``."""

    name = "iree-flow-outline-dispatch-regions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        taken = {
            o.properties["sym_name"].data  # type: ignore[union-attr]
            for o in op.ops
            if isinstance(o.properties.get("sym_name"), Attribute)
        }
        initializer_count = 0
        # Top-level functions and initializers, in order (IREE's FunctionOpInterface ops).
        for function in functions(op, kinds=FUNCTION_LIKE):
            if isinstance(function, util.InitializerOp):
                prefix = f"_initializer_{initializer_count}"
                initializer_count += 1
            else:
                prefix = function.sym_name.data  # type: ignore[union-attr]
            dispatches = [o for o in function.walk() if isinstance(o, flow.DispatchWorkgroupsOp)]
            for ordinal, workgroups in enumerate(dispatches):
                name = _unique_name(f"{prefix}_dispatch_{ordinal}", taken)
                outline_dispatch_workgroups(name, workgroups, function)
