"""``iree-stream-fold-uniform-operands``: drop dispatch operands every dispatch site passes alike.

For each export of a ``stream.executable``, IREE looks at all dispatch sites
together and removes two kinds of uniform operands, first one then the other:

* **duplicates**: an operand that is the same SSA value as an earlier operand
  at *every* site is dropped; the function's argument is replaced by the
  earlier one's. Walkthrough dump 19's encode dispatch is dispatched with
  ``(%0, %1, %0, %1)`` (source dims, then result dims); once packed into i32
  words and CSE'd, the last four words repeat the first four, so the function
  keeps 4 push constants instead of 8.
* **uniform constants**: an operand that is an integer constant with the same
  value at every site is dropped and the function gets an ``arith.constant``
  of that value at its top (located at the constants' fused locations).

The comparison is by SSA value, so IREE runs canonicalize and CSE before this
pass (the stream cleanup pipeline); run ``cse`` first to get the same folding.

Dispatch sites are ``stream.cmd.dispatch`` ops, as in IREE, or
``stream.async.dispatch`` ops of a program not yet allocated; their uniform operands are the non-resource operands, in order, and map onto
the function's non-binding arguments. Left alone: exports without dispatch
sites or without a function, sites that name several entry points, and
functions whose scalar arguments do not match their sites' operand count.

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/FoldUniformOperands.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mini_iree.compiler.analysis.dispatch_sites import (
    export_dispatch_sites,
    exported_function,
    rebuild_cmd_dispatch,
    tied_operand_indices,
    uniform_operands,
)
from mini_iree.compiler.era import option_era, run_era
from mini_iree.compiler.ir.locations import fused_location
from mini_iree.dialects import stream
from mini_iree.dialects.flow import UNTIED_INDEX
from mini_iree.dialects.iree_tensor_ext import DispatchWorkloadOrdinalOp
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

__all__ = [
    "FoldUniformOperandsPass",
    "erase_uniform_operands",
]


# ---------------------------------------------------------------------------
# Dispatch sites: their uniform operands, and removing some of them
# ---------------------------------------------------------------------------


def _erase_async(site: stream.AsyncDispatchOp, dead: set[int]) -> Operation:
    """Rebuilds an async dispatch without its ``dead`` uniform operands (tied indices follow)."""
    kept: list[SSAValue] = []
    new_index: dict[int, int] = {}
    uniform = 0
    for index, value in enumerate(site.resource_operands):
        if not isinstance(value.type, stream.ResourceType):
            uniform += 1
            if uniform - 1 in dead:
                continue
        new_index[index] = len(kept)
        kept.append(value)
    tied = [t if t == UNTIED_INDEX else new_index[t] for t in tied_operand_indices(site)]
    new_op = stream.AsyncDispatchOp(
        list(site.entry_points.data),
        site.workload,
        kept,
        site.resource_operand_sizes,
        site.resource_operand_offsets,
        site.resource_operand_ends,
        site.resource_operand_lengths,
        site.result_types,
        site.result_sizes,
        tied,
        site.affinity,
    )
    new_op.attributes |= site.attributes
    new_op.location = site.location
    Rewriter.replace_op(site, new_op)
    return new_op


def erase_uniform_operands(site: Operation, dead: set[int]) -> Operation:
    """Removes the uniform operands at positions ``dead``; returns the site (a new op when rebuilt)."""
    if not dead:
        return site
    if isinstance(site, stream.CmdDispatchOp):
        return rebuild_cmd_dispatch(site, [v for i, v in enumerate(site.uniform_operands) if i not in dead])
    assert isinstance(site, stream.AsyncDispatchOp)
    return _erase_async(site, dead)


# ---------------------------------------------------------------------------
# The function side
# ---------------------------------------------------------------------------


def _operand_args(function: func.FuncOp) -> list[int]:
    """IREE's ``makeOperandToArgMap``: the k-th uniform operand is the k-th non-binding argument."""
    return [i for i, t in enumerate(function.function_type.inputs.data) if not isinstance(t, stream.BindingType)]


def _erase_args(function: func.FuncOp, dead_args: set[int]) -> None:
    block = function.body.block
    inputs = function.function_type.inputs.data
    attrs = function.arg_attrs.data if function.arg_attrs is not None else None
    for index in sorted(dead_args, reverse=True):
        block.erase_arg(block.args[index])
    kept = [i for i in range(len(inputs)) if i not in dead_args]
    function.function_type = FunctionType.from_lists([inputs[i] for i in kept], function.function_type.outputs.data)
    for arg in block.args:
        arg.name_hint = None  # renumbered, as MLIR prints them
    if attrs is not None:
        new_attrs = [attrs[i] for i in kept]
        function.arg_attrs = ArrayAttr(new_attrs) if any(a.data for a in new_attrs) else None


# ---------------------------------------------------------------------------
# The two foldings
# ---------------------------------------------------------------------------


def _uniform_duplicates(value_lists: list[list[SSAValue]]) -> dict[int, int]:
    """IREE's ``getUniformDupeIndexingAndDeadValues``: each position that repeats an earlier one at
    every site, mapped to that earlier position."""
    count = len(value_lists[0])
    # Per site, each value's first earlier duplicate (or None).
    dupe_maps = [[next((j for j in range(i) if vs[j] == vs[i]), None) for i in range(count)] for vs in value_lists]
    dead: set[int] = set()
    base_of: dict[int, int] = {}
    for idx in range(count):
        if idx in dead:
            continue
        same = {i for i in range(count) if i != idx and all(m[i] == idx for m in dupe_maps)}
        dead |= same
        for i in same:
            base_of[i] = idx
    return base_of


def _deduplicate_operands(function: func.FuncOp, sites: list[Operation]) -> list[Operation]:
    """IREE's ``deduplicateOperands``: operands equal to an earlier operand at every site go."""
    base_of = _uniform_duplicates([uniform_operands(site) for site in sites])
    if not base_of:
        return sites
    dead = set(base_of)
    arg_of = _operand_args(function)
    block = function.body.block
    for dupe, base in base_of.items():
        block.args[arg_of[dupe]].replace_all_uses_with(block.args[arg_of[base]])
    sites = [erase_uniform_operands(site, dead) for site in sites]
    _erase_args(function, {arg_of[i] for i in dead})
    return sites


def _deduplicate_workloads(
    export: stream.ExecutableExportOp, function: func.FuncOp, sites: list[Operation]
) -> list[Operation]:
    """IREE 3.13's ``deduplicateWorkloads``: workload values repeated at every site go too.

    The export's ``workgroups`` region loses the repeated arguments and the
    function's ``dispatch.workload.ordinal`` ops are renumbered. As in IREE, an
    ordinal op whose workload entry was dropped gets ordinal 0 (3.13 prints
    ``workload.ordinal %20#2, 0`` on the encode dispatches).
    """
    if not export.workgroup_count.blocks:
        return sites
    workloads = [list(site.workload) for site in sites]  # type: ignore[attr-defined]
    if len({len(w) for w in workloads}) != 1 or len(export.workgroup_count.block.args) != len(workloads[0]):
        return sites
    base_of = _uniform_duplicates(workloads)
    if not base_of:
        return sites
    new_ordinals: dict[int, int] = {}
    for index in range(len(workloads[0])):
        if index not in base_of:
            new_ordinals[index] = len(new_ordinals)
    for op in function.walk():
        if isinstance(op, DispatchWorkloadOrdinalOp):
            ordinal = op.ordinal.value.data
            if new_ordinals.get(ordinal, 0) != ordinal:
                op.ordinal = IntegerAttr(new_ordinals.get(ordinal, 0), IndexType())
    block = export.workgroup_count.block
    for dead, live in base_of.items():
        block.args[dead].replace_all_uses_with(block.args[live])
    for index in sorted(base_of, reverse=True):
        block.erase_arg(block.args[index])
    for arg in block.args:
        arg.name_hint = None
    new_sites: list[Operation] = []
    for site, workload in zip(sites, workloads):
        kept = [w for i, w in enumerate(workload) if i not in base_of]
        new_sites.append(_with_workload(site, kept))
    return new_sites


def _with_workload(site: Operation, workload: list[SSAValue]) -> Operation:
    if isinstance(site, stream.CmdDispatchOp):
        return rebuild_cmd_dispatch(site, workload=workload)
    assert isinstance(site, stream.AsyncDispatchOp)
    new_op = stream.AsyncDispatchOp(
        list(site.entry_points.data),
        workload,
        site.resource_operands,
        site.resource_operand_sizes,
        site.resource_operand_offsets,
        site.resource_operand_ends,
        site.resource_operand_lengths,
        site.result_types,
        site.result_sizes,
        tied_operand_indices(site),
        site.affinity,
    )
    new_op.attributes |= site.attributes
    new_op.location = site.location
    Rewriter.replace_op(site, new_op)
    return new_op


def _constant_int(value: SSAValue) -> int | None:
    """``m_ConstantInt``: the value of an integer or index ``arith.constant``."""
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr) and isinstance(value.type, IntegerType | IndexType):
            return attr.value.data
    return None


def _inline_uniform_constants(function: func.FuncOp, sites: list[Operation]) -> list[Operation]:
    """IREE's ``inlineUniformConstants``: constants equal at every site move into the function."""
    operands = [uniform_operands(site) for site in sites]
    count = len(operands[0])
    uniform: dict[int, int] = {}
    for idx in range(count):
        values = [_constant_int(ops[idx]) for ops in operands]
        if values[0] is not None and all(v == values[0] for v in values):
            uniform[idx] = values[0]
    if not uniform:
        return sites
    arg_of = _operand_args(function)
    block = function.body.block
    point = InsertPoint.at_start(block)
    for idx, value in uniform.items():
        arg = block.args[arg_of[idx]]
        constant = arith.ConstantOp(IntegerAttr(value, arg.type))  # type: ignore[arg-type]
        constant.location = fused_location(ops[idx].owner for ops in operands)  # type: ignore[misc]
        Rewriter.insert_op(constant, point)
        arg.replace_all_uses_with(constant.result)
        constant.result.name_hint = None  # xDSL hands the argument's name on; MLIR names it after its value
    sites = [erase_uniform_operands(site, set(uniform)) for site in sites]
    _erase_args(function, {arg_of[i] for i in uniform})
    return sites


def _foldable(function: func.FuncOp | None, sites: list[Operation]) -> bool:
    if function is None or not function.body.blocks or not sites:
        return False
    if any(len(site.entry_points.data) != 1 for site in sites):  # type: ignore[attr-defined]
        return False
    counts = {len(uniform_operands(site)) for site in sites}
    return len(counts) == 1 and counts.pop() == len(_operand_args(function))


def fold_export(export: stream.ExecutableExportOp, sites: list[Operation], workloads: bool = False) -> None:
    """Folds the uniform operands of one export's dispatch sites into its function
    (and, with ``workloads``, as IREE 3.13, their repeated workload values)."""
    function = exported_function(export)
    if not _foldable(function, sites):
        return
    assert function is not None
    # Duplicates first, so that the constants left are unique per site.
    sites = _deduplicate_operands(function, sites)
    if workloads:
        sites = _deduplicate_workloads(export, function, sites)
    _inline_uniform_constants(function, sites)


@dataclass(frozen=True)
class FoldUniformOperandsPass(ModulePass):
    """Deduplicates dispatch operands equal at every site and inlines constants uniform across sites.

    ``era``: ``walkthrough`` folds operands as the walkthrough's IREE does;
    ``3.13`` also drops workload values repeated at every site, as IREE 3.13
    does (the encode dispatches' ``[%0, %1, %0, %1]`` becomes ``[%0, %1]``).
    Without it, the run's era (``--iree-era``).
    """

    name = "iree-stream-fold-uniform-operands"

    # `3.13` reads as a number on the command line; both spellings are accepted.
    era: str | float = field(default_factory=lambda: run_era().name)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        folds_workloads = option_era(self.era, "era").fold_workload_operands
        sites = export_dispatch_sites(op)
        for executable in op.ops:
            if not isinstance(executable, stream.ExecutableOp):
                continue
            if not any(inner.name == "builtin.module" for inner in executable.body.block.ops):
                continue
            for export in executable.body.block.ops:
                if isinstance(export, stream.ExecutableExportOp) and export in sites:
                    fold_export(export, sites[export], workloads=folds_workloads)

