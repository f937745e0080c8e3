"""Canonicalization patterns of flow ops, as IREE's FlowOpFolders.cpp names them.

The ops' traits (in ``dialects/flow.py``) hand these out to ``canonicalize``: a
``flow.dispatch.workgroups`` drops the arguments its body never uses, passes an
argument given twice once, and drops the results nobody uses and its body does
not read (IREE's ``ClosureOptimizationPattern``, which the dispatch configures
not to inline constants).
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mini_iree.dialects.flow import UNTIED_INDEX, DispatchWorkgroupsOp
from mini_iree.dialects.iree_tensor_ext import DispatchTensorTypeBase
from mini_iree.dialects.utils import count_dynamic

__all__ = ["ClosureOptimizationPattern"]

_LOADS = frozenset({"iree_tensor_ext.dispatch.tensor.load", "flow.dispatch.tensor.load"})
_STORES = frozenset({"iree_tensor_ext.dispatch.tensor.store", "flow.dispatch.tensor.store"})


def _is_read(arg: SSAValue) -> bool:
    """IREE's ``getResultAccess(...).isRead`` for the body argument of a result: its declared
    access, ``readwrite`` refined by what its users do (loads read, stores write, anything else
    may do both); a non-tensor argument is read when used."""
    type_ = arg.type
    if not isinstance(type_, DispatchTensorTypeBase):
        return bool(arg.uses)
    access = type_.access.data
    if access == "readwrite":
        reads = writes = False
        for use in arg.uses:
            name = use.operation.name
            reads |= name not in _STORES
            writes |= name not in _LOADS
        if reads and not writes:
            access = "readonly"
        elif writes and not reads:
            access = "writeonly"
    return access in ("readonly", "readwrite")


def _forward_slice(value: SSAValue) -> set[Operation]:
    """Every op using ``value``, or a result of such an op, transitively."""
    found: set[Operation] = set()
    work = [use.operation for use in value.uses]
    while work:
        op = work.pop()
        if op not in found:
            found.add(op)
            work.extend(use.operation for result in op.results for use in result.uses)
    return found


def _kept_dims(values: list, dims: list, dropped: set[int]) -> list:
    """``dims`` (each value's dynamic sizes, in order) without those of the ``dropped`` values."""
    kept, at = [], 0
    for index, value in enumerate(values):
        count = count_dynamic(value)
        if index not in dropped:
            kept += dims[at : at + count]
        at += count
    return kept


class ClosureOptimizationPattern(RewritePattern):
    """IREE's ``ClosureOptimizationPattern<DispatchWorkgroupsOp>`` (``optimizeClosureLikeOp``, constants
    not inlined): an argument whose body argument has no use goes; an argument given again is the
    first one; a result with no use whose body argument is not read goes, with every op writing
    it. A dispatch left with no results is erased. The dispatch is built again around its regions."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DispatchWorkgroupsOp, rewriter: PatternRewriter) -> None:
        entry = op.workgroup_body.blocks.first
        if entry is None:
            return
        arguments = list(op.arguments)
        results = list(op.results)
        tied = [op.tied_operand_of(i) for i in range(len(results))]
        untied = [i for i, t in enumerate(tied) if t == UNTIED_INDEX]
        result_arg = {i: entry.args[len(arguments) + n] for n, i in enumerate(untied)}
        # The body argument of each result: its own, or that of the operand it is tied to.
        output_args = [result_arg[i] if t == UNTIED_INDEX else entry.args[t] for i, t in enumerate(tied)]

        dropped_operands: list[int] = []
        same_as: dict[int, int] = {}
        first: dict[SSAValue, int] = {}
        for index, value in enumerate(arguments):
            if not entry.args[index].uses:
                dropped_operands.append(index)
            elif value in first:
                dropped_operands.append(index)
                same_as[index] = first[value]
            else:
                first[value] = index
        dropped_results = [i for i, r in enumerate(results) if not r.uses and not _is_read(output_args[i])]
        if not dropped_operands and not dropped_results:
            return
        if any(tied[i] in dropped_operands for i in range(len(results)) if i not in dropped_results):
            return  # a kept result tied to a dropped operand would need a body argument of its own
        if len(dropped_results) == len(results):
            rewriter.erase_op(op)
            return

        for index, kept in same_as.items():
            entry.args[index].replace_all_uses_with(entry.args[kept])
        # The ops writing a dropped result (nothing reads it) go too; in reverse program order, an
        # op goes after its users.
        doomed = set().union(*(_forward_slice(result_arg[i]) for i in dropped_results if i in result_arg))
        for body_op in reversed(list(op.workgroup_body.walk())):
            if body_op in doomed:
                rewriter.erase_op(body_op)
        erased_args = [entry.args[i] for i in dropped_operands]
        erased_args += [result_arg[i] for i in dropped_results if i in result_arg]

        dropped_set = set(dropped_operands)
        kept_results = [i for i in range(len(results)) if i not in dropped_results]
        new_tied = []
        for i in kept_results:
            t = tied[i]
            new_tied.append(t if t == UNTIED_INDEX else t - sum(1 for d in dropped_operands if d < t))
        result_types = list(op.result_types)
        new_op = DispatchWorkgroupsOp(
            list(op.workload),
            [a for i, a in enumerate(arguments) if i not in dropped_set],
            _kept_dims([a.type for a in arguments], list(op.argument_dims), dropped_set),
            [result_types[i] for i in kept_results],
            _kept_dims(result_types, list(op.result_dims), set(dropped_results)),
            new_tied,
            rewriter.move_region_contents_to_new_regions(op.workgroup_body),
            rewriter.move_region_contents_to_new_regions(op.workgroup_count),
        )
        new_op.attributes |= op.attributes
        new_op.location = op.location
        for arg in sorted(erased_args, key=lambda a: a.index, reverse=True):
            arg.block.erase_arg(arg)
        new_results = iter(new_op.results)
        rewriter.replace(op, new_op, [None if i in dropped_results else next(new_results) for i in range(len(results))])
