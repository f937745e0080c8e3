"""Dispatch sites of stream executables, seen the way IREE's stream passes see them.

IREE's late stream passes (annotate-dispatch-assumptions, pack-dispatch-operands,
materialize-interfaces) look at ``stream.cmd.dispatch``: *uniform operands*
(the scalars passed to every workgroup) and *resources* (each with an access,
``ro``/``wo``/``rw``). Their executable functions take one argument per
operand, in order, bindings for resources. mini-iree's host programs stop at
``stream.async.dispatch``; its operand list mixes resources and scalars, and
each result is one more resource the function writes. This module gives both
the same shape:

* the uniform operands are the non-resource operands, in order;
* the resources are the resource operands (``rw`` when a result is tied to
  them, ``ro`` otherwise), then the untied results (``wo``), which is also the
  order of the function's ``!stream.binding`` arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mini_iree.compiler.analysis.functions import functions
from mini_iree.dialects import stream
from mini_iree.dialects.flow import UNTIED_INDEX
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolTable
from mini_iree.dialects.symbols import lookup_symbol

__all__ = [
    "DispatchResource",
    "dispatch_ops",
    "export_dispatch_sites",
    "exported_function",
    "is_dispatch_site",
    "rebuild_cmd_dispatch",
    "resource_size_at_use",
    "resources",
    "tied_operand_indices",
    "uniform_operands",
]


@dataclass(frozen=True)
class DispatchResource:
    """One binding of a dispatch: the resource value and how the dispatch accesses it.

    ``value`` is the operand for ``ro``/``rw`` resources and the result for ``wo`` ones.
    """

    value: SSAValue
    access: str  # "ro", "wo" or "rw"

    @property
    def is_written(self) -> bool:
        return self.access != "ro"


def dispatch_ops(root: Operation) -> Iterator[stream.AsyncDispatchOp]:
    """Every ``stream.async.dispatch`` under ``root``, in program order."""
    for op in root.walk():
        if isinstance(op, stream.AsyncDispatchOp):
            yield op


def tied_operand_indices(op: stream.AsyncDispatchOp) -> list[int]:
    """For each result, the index (into the mixed operand list) of its tied operand, or -1."""
    tied = op.tied_operands
    indices = [t.value.data for t in tied.data] if isinstance(tied, ArrayAttr) else []
    return indices + [UNTIED_INDEX] * (len(op.results) - len(indices))


def is_dispatch_site(op: Operation) -> bool:
    """A ``stream.cmd.dispatch`` (IREE's dispatch sites) or ``stream.async.dispatch`` (before allocation)."""
    return isinstance(op, stream.AsyncDispatchOp | stream.CmdDispatchOp)


def uniform_operands(site: Operation) -> list[SSAValue]:
    """The scalar operands of a dispatch site, in order (IREE's ``getUniformOperands``)."""
    if isinstance(site, stream.CmdDispatchOp):
        return list(site.uniform_operands)
    assert isinstance(site, stream.AsyncDispatchOp)
    return [v for v in site.resource_operands if not isinstance(v.type, stream.ResourceType)]


def resources(op: stream.AsyncDispatchOp) -> list[DispatchResource]:
    """The resources a dispatch binds, in the order of the function's binding arguments."""
    tied = tied_operand_indices(op)
    bound = [
        DispatchResource(v, "rw" if i in tied else "ro")
        for i, v in enumerate(op.resource_operands)
        if isinstance(v.type, stream.ResourceType)
    ]
    bound += [DispatchResource(r, "wo") for r, t in zip(op.results, tied) if t == UNTIED_INDEX]
    return bound


def resource_size_at_use(op: stream.AsyncDispatchOp, value: SSAValue) -> SSAValue:
    """The size a dispatch gives a resource operand (its ``!stream.resource<*>{%size}``)."""
    sizes = iter(op.resource_operand_sizes)
    for operand in op.resource_operands:
        if not isinstance(operand.type, stream.ResourceType):
            continue
        size = next(sizes)
        if operand == value:
            return size
    raise ValueError("not a resource operand of the dispatch")


def _lookup(module: ModuleOp, ref: SymbolRefAttr) -> Operation | None:
    found: Operation | None = lookup_symbol(module, ref.root_reference.data)
    for nested in ref.nested_references.data:
        if found is None or found.get_trait(SymbolTable) is None:
            return None
        found = lookup_symbol(found, nested.data)
    return found


def export_dispatch_sites(
    module: ModuleOp, is_site: Callable[[Operation], bool] = is_dispatch_site
) -> dict[Operation, list[Operation]]:
    """Dispatch sites (those ``is_site`` accepts) grouped by the export op each entry point names
    (IREE's ``entryDispatchMap``)."""
    sites: dict[Operation, list[Operation]] = {}
    for op in module.walk():
        if not is_site(op):
            continue
        for ref in op.entry_points.data:  # type: ignore[attr-defined]
            if (export := _lookup(module, ref)) is not None:
                sites.setdefault(export, []).append(op)
    return sites


def rebuild_cmd_dispatch(
    site: stream.CmdDispatchOp, uniform: list[SSAValue] | None = None, workload: list[SSAValue] | None = None
) -> stream.CmdDispatchOp:
    """The same ``stream.cmd.dispatch`` with other uniform operands or workload, in its place (and location)."""
    new_op = stream.CmdDispatchOp(
        list(site.entry_points.data),
        list(site.workload) if workload is None else workload,
        list(site.uniform_operands) if uniform is None else uniform,
        site.resources,
        site.resource_sizes,
        site.resource_offsets,
        site.resource_lengths,
        site.accesses,
    )
    new_op.attributes |= site.attributes
    new_op.location = site.location
    Rewriter.replace_op(site, new_op)
    return new_op


def exported_function(export: stream.ExecutableExportOp) -> func.FuncOp | None:
    """The ``func.func`` of the executable's inner module that a stream export names (``lookupFunctionRef``)."""
    executable = export.parent_op()
    if executable is None:
        return None
    name = export.function_ref.root_reference.data
    for inner in executable.regions[0].block.ops:
        if inner.name != "builtin.module":
            continue
        for candidate in functions(inner, kinds=("func.func",)):
            if candidate.sym_name.data == name:  # type: ignore[attr-defined]
                return candidate  # type: ignore[return-value]
    return None
